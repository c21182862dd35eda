//! Xiangqi (Chinese chess): board, FEN, move generation, rules and verdicts, perft.

pub mod attacks;
pub mod bench;
pub mod chase;
pub mod checks;
pub mod fen;
pub mod movegen;
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
