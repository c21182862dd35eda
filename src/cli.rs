//! Command-line subcommands for people and scripts: `perft`, `referee`, and (with no
//! arguments) the protocol loop on stdin/stdout.

use std::io::Write;

use crate::xiangqi::{Game, Position, Verdict, perft};

/// Runs the subcommand named by `args[0]`; returns the process exit status.
pub fn run(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("perft") => perft_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some("referee") => referee_command(&args[1..]),
        Some("match") => crate::tournament::main(&args[1..]),
        Some("test-engine") => crate::tournament::test_engine::test_engine_main(&args[1..]),
        Some(other) => {
            eprintln!("qilin: unknown subcommand '{other}' (try: perft, referee, bench, match)");
            2
        }
        None => crate::protocol::run_stdio(),
    }
}

fn bench_command(args: &[String]) -> i32 {
    let depth = match args.first() {
        None => None,
        Some(d) => match d.parse::<u32>() {
            Ok(n) if n > 0 => Some(n),
            _ => {
                eprintln!(
                    "qilin bench: depth must be a positive number (usage: qilin bench [depth])"
                );
                return 2;
            }
        },
    };
    let report = crate::xiangqi::bench::bench(depth);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (i, (fen, nodes)) in report.positions.iter().enumerate() {
        let _ = writeln!(out, "Position {:2}: {nodes:>10}  {fen}", i + 1);
    }
    let _ = writeln!(out, "Nodes searched: {}", report.total_nodes);
    let _ = writeln!(out, "Nodes/second: {}", report.nps);
    0
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

const REFEREE_USAGE: &str = "usage: qilin referee xiangqi [--fen \"<FEN>\"] [--moves \"<m1> <m2> ...\"] [--no-capture-limit <plies>] [--discount-checks]";

/// `qilin referee xiangqi ...`: plays the moves and prints the verdict line.
fn referee_command(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("xiangqi") => {}
        Some(other) => {
            println!("error: unknown game '{other}' ({REFEREE_USAGE})");
            return 2;
        }
        None => {
            println!("error: missing game ({REFEREE_USAGE})");
            return 2;
        }
    }
    let mut fen = None;
    let mut moves = String::new();
    let mut limit = None;
    let mut discount_checks = false;
    let mut i = 1;
    while i < args.len() {
        if args[i] == "--discount-checks" {
            discount_checks = true;
            i += 1;
            continue;
        }
        let value = args.get(i + 1);
        match (args[i].as_str(), value) {
            ("--fen", Some(v)) => fen = Some(v.clone()),
            ("--moves", Some(v)) => {
                moves.push(' ');
                moves.push_str(v);
            }
            ("--no-capture-limit", Some(v)) => match v.parse::<u32>() {
                Ok(n) => limit = Some(n),
                Err(_) => {
                    println!("error: --no-capture-limit needs a number of plies, got '{v}'");
                    return 2;
                }
            },
            (flag, _) => {
                println!("error: unexpected argument '{flag}' ({REFEREE_USAGE})");
                return 2;
            }
        }
        i += 2;
    }
    let start = match fen {
        None => Position::startpos(),
        Some(f) => match Position::from_fen(&f) {
            Ok(p) => p,
            Err(e) => {
                println!("error: {e}");
                return 2;
            }
        },
    };
    let mut game = Game::new(start);
    if let Some(n) = limit {
        game.set_no_capture_limit(n);
    }
    game.set_check_discount(discount_checks);
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let mut verdict = game.verdict();
    for (i, text) in moves.iter().enumerate() {
        if verdict != Verdict::Ongoing {
            eprintln!(
                "note: the game ended after ply {i}; {} further move(s) ignored",
                moves.len() - i
            );
            break;
        }
        if game.play_str(text).is_err() {
            println!("error: illegal move {text} at ply {}", i + 1);
            return 2;
        }
        verdict = game.verdict();
    }
    println!("{}", verdict_line(verdict));
    0
}

/// The referee's one-line verdict.
pub fn verdict_line(verdict: Verdict) -> String {
    match verdict {
        Verdict::Ongoing => "result: ongoing".to_string(),
        Verdict::Win { winner, reason } => {
            format!("result: {}-wins reason: {reason}", winner.name())
        }
        Verdict::Draw { reason } => format!("result: draw reason: {reason}"),
    }
}
