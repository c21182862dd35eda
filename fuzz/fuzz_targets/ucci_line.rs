//! The UCCI line parser: any line parses to a command or a typed error, never a panic, and
//! the error's text is one short line.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| qilin::fuzzing::ucci_line(data));
