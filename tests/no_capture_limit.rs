//! The no-capture limit, plain and with the Asian check discount, on a seeded game in which red
//! checks as often as it can without capturing or repeating a position.

use std::collections::HashSet;

use qilin::xiangqi::{Game, Position, Reason, Verdict};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Plays a game with no captures and no repeated position: red prefers checks. Returns the
/// moves (as text) and, for each ply, whether that move gave check.
fn checking_game(plies: usize) -> (String, Vec<String>, Vec<bool>) {
    let fen = "3k1a3/4a4/9/9/9/9/9/9/4A4/R2AK3R w - - 0 1";
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut game = Game::new(Position::from_fen(fen).unwrap());
    game.set_no_capture_limit(0);
    let mut seen = HashSet::new();
    seen.insert(game.position().key());
    let mut moves = Vec::new();
    let mut checks = Vec::new();
    while moves.len() < plies {
        let pos = game.position().clone();
        let candidates: Vec<_> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| pos.piece_at(m.to()).is_empty())
            .filter(|&m| {
                let mut p = pos.clone();
                p.make_move(m);
                // The opponent must keep a quiet reply to a new position.
                !seen.contains(&p.key())
                    && p.legal_moves().iter().any(|&r| {
                        let mut q = p.clone();
                        q.make_move(r);
                        p.piece_at(r.to()).is_empty() && !seen.contains(&q.key())
                    })
            })
            .collect();
        assert!(!candidates.is_empty(), "stuck after {} plies", moves.len());
        let checking: Vec<_> = candidates
            .iter()
            .copied()
            .filter(|&m| {
                let mut p = pos.clone();
                p.make_move(m);
                p.in_check()
            })
            .collect();
        let pool = if checking.is_empty() {
            &candidates
        } else {
            &checking
        };
        let mv = pool[rng.random_range(0..pool.len())];
        game.play(mv).unwrap();
        seen.insert(game.position().key());
        checks.push(game.position().in_check());
        moves.push(mv.to_string());
    }
    (fen.to_string(), moves, checks)
}

fn draw_ply(fen: &str, moves: &[String], limit: u32, discount: bool) -> Option<usize> {
    let mut game = Game::new(Position::from_fen(fen).unwrap());
    game.set_no_capture_limit(limit);
    game.set_check_discount(discount);
    for (i, m) in moves.iter().enumerate() {
        game.play_str(m).unwrap();
        match game.verdict() {
            Verdict::Ongoing => {}
            Verdict::Draw {
                reason: Reason::NoCaptureLimit,
            } => return Some(i + 1),
            other => panic!("unexpected verdict {other:?} after {} plies", i + 1),
        }
    }
    None
}

#[test]
fn checks_beyond_the_tenth_do_not_count() {
    let (fen, moves, checks) = checking_game(90);
    let red_checks = checks.iter().step_by(2).filter(|&&c| c).count();
    assert!(
        red_checks > 20,
        "the game must have many checks ({red_checks})"
    );

    assert_eq!(draw_ply(&fen, &moves, 40, false), Some(40));
    // With the discount: the first ply n (at least 20) where n - 2 * (checks of the side that
    // checked more, minus 10) reaches 40, counting both sides' moves so far.
    let expected = (20..=moves.len()).find(|&n| {
        let red = checks[..n].iter().step_by(2).filter(|&&c| c).count();
        let black = checks[..n]
            .iter()
            .skip(1)
            .step_by(2)
            .filter(|&&c| c)
            .count();
        let discount = 2 * red.max(black).saturating_sub(10);
        n.saturating_sub(discount) >= 40
    });
    assert!(expected.is_some_and(|n| n > 40));
    assert_eq!(draw_ply(&fen, &moves, 40, true), expected);
}
