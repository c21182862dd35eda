//! Command-line subcommands for people and scripts: `perft`, `referee`, and (with no
//! arguments) the protocol loop on stdin/stdout.

use std::io::Write;

use crate::xiangqi::{Position, perft};

/// Runs the subcommand named by `args[0]`; returns the process exit status.
pub fn run(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("perft") => perft_command(&args[1..]),
        Some(other) => {
            eprintln!("qilin: unknown subcommand '{other}' (try: perft, referee, bench, match)");
            2
        }
        None => crate::protocol::run_stdio(),
    }
}

fn perft_command(args: &[String]) -> i32 {
    let mut depth = None;
    let mut fen = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--fen" => {
                let Some(f) = args.get(i + 1) else {
                    eprintln!("qilin perft: --fen needs a FEN");
                    return 2;
                };
                fen = Some(f.clone());
                i += 2;
            }
            d => {
                match d.parse::<u32>() {
                    Ok(n) if depth.is_none() => depth = Some(n),
                    _ => {
                        eprintln!(
                            "qilin perft: unexpected argument '{d}' (usage: qilin perft <depth> [--fen \"<FEN>\"])"
                        );
                        return 2;
                    }
                }
                i += 1;
            }
        }
    }
    let Some(depth) = depth else {
        eprintln!("qilin perft: missing depth (usage: qilin perft <depth> [--fen \"<FEN>\"])");
        return 2;
    };
    let mut pos = match fen {
        None => Position::startpos(),
        Some(f) => match Position::from_fen(&f) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
    };
    let (counts, total) = perft::perft_divide(&mut pos, depth);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (mv, n) in counts {
        let _ = writeln!(out, "{mv}: {n}");
    }
    let _ = writeln!(out, "Nodes searched: {total}");
    0
}
