//! The Xiangqi FEN parser: a FEN that parses writes back a FEN that parses to the same
//! position, and the position's legal moves can be generated and played.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| qilin::fuzzing::fen(data));
