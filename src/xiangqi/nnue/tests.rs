//! The network's invariants: incremental accumulators equal a full refresh, the quantised
//! output follows the float network, SIMD and scalar kernels agree, bad files are refused.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::accumulator::{Accumulator, AccumulatorStack, evaluate_fresh};
use super::features::{self, MAX_ACTIVE};
use super::float::FloatNetwork;
use super::network::{self, FILE_BYTES, HEADER_BYTES, HIDDEN, LoadError, Network, fnv1a};
use super::simd;
use crate::xiangqi::test_games::random_games;
use crate::xiangqi::{Color, MoveList, Position};

/// A float network with seeded random weights of a trained net's magnitudes (every row
/// non-zero, so a missed update shows).
fn random_float(seed: u64) -> FloatNetwork {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut net = FloatNetwork::zeros();
    for w in net.ft_weights.iter_mut() {
        *w = rng.random_range(-0.15f32..0.15);
    }
    for w in net.ft_bias.iter_mut() {
        *w = rng.random_range(-0.2f32..0.6);
    }
    for w in net.out_weights.iter_mut() {
        *w = rng.random_range(-0.25f32..0.25);
    }
    net.out_bias = 0.05;
    net
}

fn random_network(seed: u64) -> Network {
    random_float(seed).quantise().expect("in range")
}

/// The features of `pos` for the side to move and the other side.
fn features_of(pos: &Position) -> (Vec<usize>, Vec<usize>) {
    let side = pos.side_to_move();
    let (mut us, mut them) = (
        Vec::with_capacity(MAX_ACTIVE),
        Vec::with_capacity(MAX_ACTIVE),
    );
    features::for_each_piece(pos, |piece, sq| {
        us.push(features::index(side, piece, sq));
        them.push(features::index(side.flip(), piece, sq));
    });
    (us, them)
}

#[test]
fn embedded_network_loads_and_round_trips() {
    let net = Network::embedded();
    assert_eq!(net.to_bytes(), network::EMBEDDED);
    assert_eq!(network::EMBEDDED.len(), FILE_BYTES);
}

#[test]
fn incremental_accumulators_equal_a_refresh() {
    for net in [random_network(1), Network::embedded()] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        random_games(0x33, 50, |pos| {
            // From each position of the game, walk three plies down a random line (with a
            // null move sometimes, and evaluating only some nodes, as the search does), then
            // back up, checking the lazily built accumulator against a refresh at each step.
            let mut stack = AccumulatorStack::new(&net, pos);
            let mut made = Vec::new();
            for _ in 0..3 {
                let mut list = MoveList::new();
                pos.generate_legal(&mut list);
                if list.is_empty() {
                    break;
                }
                if rng.random_range(0..6) == 0 && !pos.in_check() {
                    stack.push_null();
                    pos.make_null_move();
                    made.push(true);
                } else {
                    let mv = list[rng.random_range(0..list.len())];
                    stack.push_move(pos, mv);
                    pos.make_move(mv);
                    made.push(false);
                }
                if rng.random_range(0..3) > 0 {
                    assert_eq!(*stack.current(&net), Accumulator::refresh(&net, pos));
                    assert_eq!(stack.evaluate(&net, pos), evaluate_fresh(&net, pos));
                }
            }
            while let Some(null) = made.pop() {
                stack.pop();
                if null {
                    pos.unmake_null_move();
                } else {
                    pos.unmake_move();
                }
                assert_eq!(*stack.current(&net), Accumulator::refresh(&net, pos));
            }
            assert_eq!(stack.depth(), 0);
        });
    }
}

#[test]
fn quantised_output_follows_the_float_network() {
    let float = random_float(3);
    let net = float.quantise().expect("in range");
    let (mut total, mut worst, mut n) = (0f64, 0f64, 0usize);
    random_games(0x51, 60, |pos| {
        let (us, them) = features_of(pos);
        let f = f64::from(float.forward_cp(&us, &them));
        let q = f64::from(evaluate_fresh(&net, pos));
        total += (f - q).abs();
        worst = worst.max((f - q).abs());
        n += 1;
    });
    let mean = total / n as f64;
    // Measured: 6.3 cp mean, 29 cp at worst (mostly the output weights' rounding to 1/64);
    // the trainer reports the same check on its validation positions.
    assert!(mean < 10.0, "mean |float - quantised| = {mean:.2} cp");
    assert!(worst < 40.0, "max |float - quantised| = {worst:.1} cp");
}

#[test]
fn output_is_the_same_for_both_colours() {
    // The colour-flipped position (ranks mirrored, colours swapped, the other side to move)
    // has the same features, so the same evaluation.
    let net = random_network(4);
    random_games(0x77, 30, |pos| {
        let fen = pos.fen();
        let mut fields = fen.split(' ');
        let board = fields.next().unwrap_or_default();
        let flipped: Vec<String> = board
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if pos.side_to_move() == Color::Red {
            'b'
        } else {
            'w'
        };
        let mirror = Position::from_fen(&format!("{} {side} - - 0 1", flipped.join("/")))
            .expect("the mirrored position is legal");
        assert_eq!(
            evaluate_fresh(&net, pos),
            evaluate_fresh(&net, &mirror),
            "{fen}"
        );
    });
}

#[test]
fn simd_and_scalar_agree_on_real_accumulators() {
    let net = random_network(5);
    let mut weights = [0i16; HIDDEN];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
    random_games(0x99, 40, |pos| {
        for w in weights.iter_mut() {
            *w = rng.random_range(-127..=127);
        }
        let acc = Accumulator::refresh(&net, pos);
        for half in &acc.values {
            assert_eq!(
                simd::screlu_dot(half, &weights),
                simd::screlu_dot_scalar(half, &weights)
            );
        }
    });
}

#[test]
fn bad_network_files_are_refused() {
    let good = random_network(7).to_bytes();
    assert!(Network::from_bytes(&good).is_ok());
    // Truncated.
    assert!(matches!(
        Network::from_bytes(&good[..good.len() - 1]),
        Err(LoadError::Length { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&good[..2]),
        Err(LoadError::Length { .. })
    ));
    // Another file.
    let mut bad = good.clone();
    bad[0] = b'X';
    assert_eq!(Network::from_bytes(&bad), Err(LoadError::Magic));
    // Another width.
    let mut bad = good.clone();
    bad[12] = 64;
    assert!(matches!(
        Network::from_bytes(&bad),
        Err(LoadError::Architecture(_))
    ));
    // A damaged weight.
    let mut bad = good.clone();
    bad[HEADER_BYTES + 100] ^= 1;
    assert_eq!(Network::from_bytes(&bad), Err(LoadError::Hash));
    // A weight outside the range the kernels rely on, with a matching hash.
    let mut bad = good.clone();
    let out = HEADER_BYTES + 2 * (features::INPUTS * HIDDEN + HIDDEN);
    bad[out..out + 2].copy_from_slice(&200i16.to_le_bytes());
    let hash = fnv1a(&bad[HEADER_BYTES..]);
    bad[32..40].copy_from_slice(&hash.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&bad),
        Err(LoadError::Range(_))
    ));
    assert!(matches!(
        Network::load("/nonexistent/net.bin"),
        Err(LoadError::Io(_))
    ));
}
