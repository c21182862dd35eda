//! The `qilin` binary: a thin entry that hands the arguments to the library.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(qilin::cli::run(&args));
}
