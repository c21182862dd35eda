//! What `qilin match --game gomoku` takes from files and engines: a board size and rule
//! from the first bytes, an openings file (Piskvork offsets), then moves as engines send
//! them, judged by the rules core (renju forbidden points, caro blocked fives). Never a
//! panic; a refused move leaves the game as it was.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| qilin::fuzzing::gomoku_referee(data));
