//! A learned evaluation for Xiangqi (NNUE): a network `(1260 -> HIDDEN) x 2 -> 1` over
//! piece-square features seen from each side, evaluated with integer weights and updated
//! incrementally as moves are made.
//!
//! - [`features`]: which inputs a piece on a point turns on, for each perspective.
//! - [`data`]: the packed training record written by the data generator and read by the
//!   trainer (`examples/datagen.rs --format bin`, `examples/nnue_train.rs`).
//! - [`network`]: the quantised network file (header, validation, the embedded net).
//! - [`accumulator`]: the first layer's output per perspective and the per-ply stack the
//!   search keeps.
//! - [`simd`]: the integer kernels, with an AVX2 path chosen at run time and a scalar path
//!   that gives the same integers.

pub mod accumulator;
pub mod data;
pub mod features;
pub mod float;
pub mod network;
pub mod simd;
#[cfg(test)]
mod tests;

pub use accumulator::{Accumulator, AccumulatorStack, evaluate_fresh};
pub use network::{HIDDEN, LoadError, Network};
