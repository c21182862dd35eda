//! The whole engine in-process: the input's lines go to a session exactly as stdin would
//! (the first command chooses UCI, UCCI or Piskvork), until the end of input. Limits are made
//! tiny so each run takes milliseconds: numbers after depth/perft/mate/threads become 0-3 and
//! every other number over 99 is taken modulo 100 (times in ms, nodes, hash sizes). The
//! session must return (libFuzzer's -timeout catches a hang), never panic, and print only
//! plain lines (no control characters but the line ends), and no search may fail.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| qilin::fuzzing::engine_loop(data));
