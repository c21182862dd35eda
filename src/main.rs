//! The `qilin` binary: a thin entry that hands the arguments to the library.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let status = match args.first().map(String::as_str) {
        Some("match") => qilin::tournament::main(&args[1..]),
        Some("test-engine") => qilin::tournament::test_engine::test_engine_main(&args[1..]),
        _ => 0,
    };
    std::process::exit(status);
}
