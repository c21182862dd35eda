//! The Piskvork reader, which keeps state across lines (BOARD, YXBOARD and SWAP2BOARD blocks
//! run until DONE): every line of the input in turn, never a panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| qilin::fuzzing::piskvork_lines(data));
