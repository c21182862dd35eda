//! Static evaluation: material and piece-square tables tapered between middle game and end
//! game, mobility, threats, king safety, soldier structure and piece coordination.
//!
//! Units: a soldier before the river is about 100, a horse about 400 (the search divides by 4
//! when it reports centipawn-like scores). Every term is computed the same way for both colours
//! from each colour's own point of view, and the tables are symmetric left-right, so the
//! evaluation is exactly colour- and mirror-symmetric. Integers only.
//!
//! The evaluation is linear in its weights (see `weights.rs`): each term is a count times a
//! middle-game/end-game weight pair. The counting code is written once, in `terms.rs`, generic
//! over a [`Sink`]: the search's sink here adds weights, the tuner's sink ([`trace`]) records
//! the counts. The parts:
//! - this module: the [`Sink`] trait, the search's summing sink, the game phase and
//!   [`evaluate`], which tapers and scales the sum;
//! - `layout.rs`: where each weight sits in one flat list ([`WEIGHTS`]), the scalar terms'
//!   indices and names, and the incremental material-and-placement table [`PIECE_SQUARE`];
//! - `terms.rs`: the walk over one colour's pieces that counts every term, one function a group
//!   of terms;
//! - `scale.rs`: how much of a lead the material can turn into a win ([`win_scale`]);
//! - `trace.rs`: the tuner's sink and its [`Trace`].
//!
//! The attack maps the threat and check terms read are built in `xiangqi/attacks/maps.rs`.

mod layout;
mod scale;
mod terms;
mod trace;

pub use layout::{
    HALF, MATERIAL_BASE, NUM_WEIGHTS, PIECE_SQUARE, PST_BASE, SCALAR_BASE, SCALAR_NAMES, SCALARS,
    WEIGHTS,
};
pub use scale::{FULL_SCALE, win_scale};
pub use trace::{Trace, trace};

use super::weights;
use crate::xiangqi::Position;
use crate::xiangqi::attacks::maps::attack_maps;
use crate::xiangqi::types::{Color, PieceKind};
use terms::side_terms;

/// Game phase at the start: chariots 6, horses and cannons 3 each, both sides.
pub const MAX_PHASE: i32 = 48;

/// A middle-game and an end-game weight: the evaluation interpolates between the two by the
/// game phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair(pub i32, pub i32);

/// Receives the evaluation's counts for one colour.
pub trait Sink {
    /// Whether the sink wants [`Sink::piece`] called for every piece; a sink that takes the
    /// material and placement from [`Position::piece_square`] instead says no.
    const WANTS_PIECES: bool = true;
    /// A piece of kind `kind` on red-relative square `red_sq` (material and placement).
    fn piece(&mut self, kind: usize, red_sq: usize);
    /// `count` times scalar term `term`.
    fn scalar(&mut self, term: usize, count: i32);
}

/// The search's sink: sums the weights.
#[derive(Default)]
struct Sum {
    mg: i32,
    eg: i32,
}

impl Sink for Sum {
    const WANTS_PIECES: bool = false;

    #[inline(always)]
    fn piece(&mut self, kind: usize, red_sq: usize) {
        // Red's piece code is its kind index plus one.
        let [mg, eg] = PIECE_SQUARE[kind + 1][red_sq];
        self.mg += mg;
        self.eg += eg;
    }

    #[inline(always)]
    fn scalar(&mut self, term: usize, count: i32) {
        let w = weights::SCALARS[term];
        self.mg += w.0 * count;
        self.eg += w.1 * count;
    }
}

/// Game phase from the major pieces on the board, 0 (bare) ..= `MAX_PHASE` (opening).
#[inline(always)]
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for c in Color::BOTH {
        p += 6 * pos.pieces(c, PieceKind::Chariot).count_ones() as i32;
        p += 3 * pos.pieces(c, PieceKind::Horse).count_ones() as i32;
        p += 3 * pos.pieces(c, PieceKind::Cannon).count_ones() as i32;
    }
    p.min(MAX_PHASE)
}

/// The static evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: `evaluate_with_popcnt` only needs the POPCNT instruction, and the CPU was
        // just asked whether it has it.
        return unsafe { evaluate_with_popcnt(pos) };
    }
    evaluate_body(pos)
}

/// [`evaluate`] compiled with the POPCNT instruction: the evaluation counts bits dozens of
/// times, and the baseline x86-64 target (which release binaries keep, to run on any x86-64)
/// counts them in a dozen instructions each. About 8% fewer instructions a node.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_with_popcnt(pos: &Position) -> i32 {
    evaluate_body(pos)
}

/// The evaluation itself, inlined into each compiled variant of [`evaluate`].
#[inline(always)]
fn evaluate_body(pos: &Position) -> i32 {
    let [mg, eg] = pos.piece_square();
    let mut red = Sum { mg, eg };
    let mut black = Sum::default();
    let maps = attack_maps(pos);
    side_terms(pos, Color::Red, &maps, &mut red);
    side_terms(pos, Color::Black, &maps, &mut black);
    let ph = phase(pos);
    let mut score = ((red.mg - black.mg) * ph + (red.eg - black.eg) * (MAX_PHASE - ph)) / MAX_PHASE;
    // Material that cannot force mate is scaled toward a draw.
    let strong = if score > 0 { Color::Red } else { Color::Black };
    if score != 0 {
        score = score * win_scale(pos, strong) / FULL_SCALE;
    }
    match pos.side_to_move() {
        Color::Red => score,
        Color::Black => -score,
    }
}

#[cfg(test)]
mod tests {
    use super::layout::TEMPO;
    use super::*;
    use crate::xiangqi::types::{Piece, SQUARES, Square};

    /// Builds the position with each piece moved by `map` and recoloured by `recolor`.
    fn transform(pos: &Position, map: impl Fn(Square) -> Square, swap_colors: bool) -> Position {
        let side = if swap_colors {
            pos.side_to_move().flip()
        } else {
            pos.side_to_move()
        };
        let mut out = Position::empty(side);
        for i in 0..SQUARES {
            let sq = Square::from_index_unchecked(i);
            let p = pos.piece_at(sq);
            if let Some(kind) = p.kind() {
                let color = if swap_colors {
                    p.color().flip()
                } else {
                    p.color()
                };
                out.put(map(sq), Piece::new(color, kind));
            }
        }
        out
    }

    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        crate::xiangqi::test_games::random_games(0x1234_5678, 40, |pos| out.push(pos.clone()));
        out
    }

    #[test]
    fn piece_square_sum_follows_make_and_unmake() {
        let from_scratch = |pos: &Position| {
            let mut sum = [0; 2];
            for i in 0..SQUARES {
                let v = PIECE_SQUARE[pos.piece_at(Square::from_index_unchecked(i)).code()][i];
                sum[0] += v[0];
                sum[1] += v[1];
            }
            sum
        };
        let mut captures = 0;
        crate::xiangqi::test_games::random_games(0x2545_f491_4f6c_dd1d, 40, |pos| {
            let before = pos.piece_square();
            assert_eq!(before, from_scratch(pos), "{}", pos.fen());
            for &mv in pos.legal_moves().iter() {
                captures += !pos.piece_at(mv.to()).is_empty() as usize;
                pos.make_move(mv);
                assert_eq!(
                    pos.piece_square(),
                    from_scratch(pos),
                    "{mv} from {}",
                    pos.fen()
                );
                pos.unmake_move();
                assert_eq!(
                    pos.piece_square(),
                    before,
                    "{mv} taken back in {}",
                    pos.fen()
                );
            }
        });
        assert!(captures > 1000, "only {captures} captures");
    }

    #[test]
    fn evaluation_is_colour_and_mirror_symmetric() {
        let all = positions();
        assert!(all.len() > 1000, "{} positions", all.len());
        let mut distinct = std::collections::HashSet::new();
        for pos in &all {
            let e = evaluate(pos);
            let flipped = transform(pos, Square::flip_rank, true);
            let mirrored = transform(pos, Square::flip_file, false);
            let both = transform(pos, |s| s.flip_rank().flip_file(), true);
            assert_eq!(e, evaluate(&flipped), "colour flip of {}", pos.fen());
            assert_eq!(e, evaluate(&mirrored), "mirror of {}", pos.fen());
            assert_eq!(e, evaluate(&both), "flip and mirror of {}", pos.fen());
            distinct.insert(e);
        }
        assert!(distinct.len() > all.len() / 4, "{} values", distinct.len());
    }

    #[test]
    fn trace_times_weights_is_the_evaluation() {
        for pos in positions() {
            let t = trace(&pos);
            let (mut mg, mut eg) = (0, 0);
            for &(i, c) in &t.counts {
                mg += WEIGHTS[i as usize].0 * c as i32;
                eg += WEIGHTS[i as usize].1 * c as i32;
            }
            let mut score = (mg * t.phase + eg * (MAX_PHASE - t.phase)) / MAX_PHASE;
            let strong = if score > 0 { 0 } else { 1 };
            if score != 0 {
                score = score * t.scale[strong] / FULL_SCALE;
            }
            if pos.side_to_move() == Color::Black {
                score = -score;
            }
            assert_eq!(score, evaluate(&pos), "{}", pos.fen());
        }
    }

    #[test]
    fn start_position_is_balanced_and_material_counts() {
        let start = Position::startpos();
        assert_eq!(evaluate(&start), weights::SCALARS[TEMPO].0);
        // Red without its a0 chariot is clearly worse, from either side's view.
        let minus = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1",
        )
        .expect("fen");
        assert!(evaluate(&minus) < -500);
        let minus_b = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR b - - 0 1",
        )
        .expect("fen");
        assert!(evaluate(&minus_b) > 500);
    }

    #[test]
    fn a_lone_chariot_against_a_full_defence_is_nearly_level() {
        let pos = Position::from_fen("2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").expect("fen");
        let missing = Position::from_fen("2bak1b2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").expect("fen");
        assert!(
            evaluate(&pos) * 2 < evaluate(&missing),
            "{} {}",
            evaluate(&pos),
            evaluate(&missing)
        );
    }

    #[test]
    fn bare_defence_cannot_win() {
        // Red has advisors and elephants only, black a lone king: nearly a draw.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1").expect("fen");
        assert!(evaluate(&pos).abs() < 100, "{}", evaluate(&pos));
    }
}
