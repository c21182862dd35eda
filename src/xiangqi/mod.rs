//! Xiangqi (Chinese chess): board, FEN, move generation, rules and verdicts, perft.

pub mod types;

pub use types::{Color, Move, Piece, PieceKind, Square};
