//! What `qilin match` and `qilin referee` take from files and engines for Xiangqi: an
//! openings file (EPD/FEN lines with moves), then a game judged move by move from each
//! opening, with moves as an engine might send them. Never a panic; a finished game takes
//! no more moves.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| qilin::fuzzing::xiangqi_referee(data));
