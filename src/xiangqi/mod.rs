//! Xiangqi (Chinese chess): board, FEN, move generation, rules and verdicts, perft.

pub mod attacks;
pub mod bench;
pub mod chase;
pub mod checks;
pub mod fen;
pub mod movegen;
pub mod nnue;
pub mod perft;
pub mod position;
pub mod rules;
pub mod search;
pub mod tables;
pub mod types;

pub use fen::{FenError, START_FEN};
pub use movegen::{GenType, MoveList};
pub use position::{Bitboard, Position};
pub use rules::{CycleVerdict, Game, IllegalMove, Reason, Verdict, judge_cycle};
pub use types::{Color, Move, Piece, PieceKind, Square};

/// Test support shared by the Xiangqi modules' unit tests.
#[cfg(test)]
pub(crate) mod test_games {
    use super::{MoveList, Position};

    /// Plays a reproducible random game of up to `plies` legal moves from each position of the
    /// perft suite (`seed` and the position's number choose the moves), calling `visit` on the
    /// start position and after every move; `visit` must leave the position as it found it.
    pub(crate) fn random_games(seed: u64, plies: usize, mut visit: impl FnMut(&mut Position)) {
        let text = include_str!("../../tests/data/xiangqi/perft.txt");
        for (n, line) in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .enumerate()
        {
            let fen = line.split('|').next().unwrap_or_default();
            let mut pos = Position::from_fen(fen).expect("perft FEN");
            let mut state = seed ^ n as u64;
            visit(&mut pos);
            for _ in 0..plies {
                let mut list = MoveList::new();
                pos.generate_legal(&mut list);
                if list.is_empty() {
                    break;
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.make_move(list[(state >> 33) as usize % list.len()]);
                visit(&mut pos);
            }
        }
    }
}
