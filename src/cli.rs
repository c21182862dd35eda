//! Command-line subcommands for people and scripts: `perft`, `referee` (Xiangqi and Gomoku),
//! `bench`, `match`, `serve`, and (with no arguments) the protocol loop on stdin/stdout.

use std::io::Write;

use crate::xiangqi::{Game, Position, Verdict, perft};

/// Runs the subcommand named by `args[0]`; returns the process exit status.
pub fn run(args: &[String]) -> i32 {
    let wants_help = args.iter().skip(1).any(|a| a == "--help" || a == "-h");
    match args.first().map(String::as_str) {
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            0
        }
        Some("--version" | "-V") => {
            println!("qilin {}", crate::protocol::ENGINE_VERSION);
            0
        }
        Some(sub @ ("perft" | "bench" | "referee" | "test-engine")) if wants_help => {
            println!("{}", subcommand_usage(sub, args.get(1).map(String::as_str)));
            0
        }
        Some("perft") => perft_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some("referee") => referee_command(&args[1..]),
        Some("match") => crate::tournament::main(&args[1..]),
        Some("match-merge") => crate::tournament::merge::main(&args[1..]),
        Some("serve") => crate::serve::main(&args[1..]),
        Some("test-engine") => crate::tournament::test_engine::test_engine_main(&args[1..]),
        Some(other) => {
            eprintln!("qilin: unknown subcommand '{other}' (try: qilin --help)");
            2
        }
        None => crate::protocol::run_stdio(),
    }
}

/// What `qilin --help` prints.
const USAGE: &str = "\
usage: qilin                 play over stdin/stdout; the first command chooses the protocol:
                             START/RECTSTART/INFO/ABOUT... Gomoku (Piskvork), ucci or uci Xiangqi
       qilin bench ...       fixed-depth searches of both games; prints the node count
       qilin perft ...       Xiangqi move-path enumeration
       qilin referee ...     judges a Xiangqi or Gomoku game given as moves
       qilin match ...       plays engines against each other (Xiangqi or Gomoku)
       qilin match-merge ... adds up the records of a match's shards (match --shard I/N)
       qilin serve ...       a board for both games in the browser (http://127.0.0.1:8080/)
       qilin test-engine ... a misbehaving fake engine for testing match runners
       qilin --version       prints the version
`qilin <subcommand> --help` prints the subcommand's usage.";

/// The usage of a subcommand (`game`: the word after it, which chooses the referee's game).
fn subcommand_usage(sub: &str, game: Option<&str>) -> String {
    match (sub, game) {
        ("perft", _) => PERFT_USAGE.to_string(),
        ("bench", _) => BENCH_USAGE.to_string(),
        ("referee", Some("gomoku")) => GOMOKU_REFEREE_USAGE.to_string(),
        ("referee", Some("xiangqi")) => REFEREE_USAGE.to_string(),
        ("referee", _) => format!("{REFEREE_USAGE}\n{GOMOKU_REFEREE_USAGE}"),
        _ => TEST_ENGINE_USAGE.to_string(),
    }
}

const PERFT_USAGE: &str = "usage: qilin perft <depth> [--fen \"<FEN>\"]";

const TEST_ENGINE_USAGE: &str = "\
usage: qilin test-engine --mode random|illegal|crash|hang|garbage|resign|nomove|occupied|offboard
                         [--proto uci|ucci|piskvork] [--seed N] [--after N] [--delay MS]
                         [--score CP] [--ranks 1] [--about reply|unknown|silent|late]";

const BENCH_USAGE: &str = "usage: qilin bench [xiangqi [depth] [--nnue] | gomoku [depth]]";

/// `qilin bench`: both games' fixed positions at their default depths, then the grand total
/// (the signature commits carry); `qilin bench xiangqi|gomoku [depth]`: one game.
/// `--nnue` after `xiangqi` searches the Xiangqi positions a second time with the embedded
/// network and prints its node count and rate beside the tuned evaluation's.
fn bench_command(args: &[String]) -> i32 {
    let nnue = args.first().is_some_and(|g| g == "xiangqi") && args.iter().any(|a| a == "--nnue");
    let args: Vec<String> = args.iter().filter(|a| *a != "--nnue").cloned().collect();
    let args = args.as_slice();
    let (games, depth): (&[&str], Option<u32>) = match args {
        [] => (&["xiangqi", "gomoku"], None),
        [game] | [game, _] if game == "xiangqi" || game == "gomoku" => {
            let depth = match args.get(1) {
                None => None,
                Some(d) => match d.parse::<u32>() {
                    Ok(n) if n > 0 => Some(n),
                    _ => {
                        eprintln!("qilin bench: depth must be a positive number ({BENCH_USAGE})");
                        return 2;
                    }
                },
            };
            let game: &[&str] = if game == "xiangqi" {
                &["xiangqi"]
            } else {
                &["gomoku"]
            };
            (game, depth)
        }
        [first, ..] if first == "--help" || first == "-h" => {
            println!("{BENCH_USAGE}");
            return 0;
        }
        _ => {
            eprintln!("qilin bench: unexpected arguments ({BENCH_USAGE})");
            return 2;
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut number = 0;
    let mut total_nodes = 0u64;
    let mut total_ms = 0u64;
    for &game in games {
        let (positions, nodes, elapsed_ms) = if game == "xiangqi" {
            let report = crate::xiangqi::bench::bench(depth);
            (report.positions, report.total_nodes, report.elapsed_ms)
        } else {
            let report = crate::gomoku::search::bench(depth);
            (report.positions, report.total_nodes, report.elapsed_ms)
        };
        for (position, nodes) in positions {
            number += 1;
            let _ = writeln!(out, "Position {number:2}: {nodes:>10}  {game} {position}");
        }
        if games.len() > 1 {
            let _ = writeln!(out, "{game} nodes: {nodes}");
        }
        total_nodes += nodes;
        total_ms += elapsed_ms;
    }
    let _ = writeln!(out, "Nodes searched: {total_nodes}");
    let _ = writeln!(
        out,
        "Nodes/second: {}",
        total_nodes.saturating_mul(1000) / total_ms.max(1)
    );
    if nnue {
        let net = std::sync::Arc::new(crate::xiangqi::nnue::Network::embedded());
        let id = net.id();
        let report = crate::xiangqi::bench::bench_with(depth, Some(net));
        let _ = writeln!(
            out,
            "NNUE nodes searched: {} (network {id:016x})",
            report.total_nodes
        );
        let _ = writeln!(out, "NNUE nodes/second: {}", report.nps);
    }
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
                        eprintln!("qilin perft: unexpected argument '{d}' ({PERFT_USAGE})");
                        return 2;
                    }
                }
                i += 1;
            }
        }
    }
    let Some(depth) = depth else {
        eprintln!("qilin perft: missing depth ({PERFT_USAGE})");
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

/// `qilin referee <game> ...`: dispatches on the game word.
fn referee_command(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("gomoku") => gomoku_referee_command(&args[1..]),
        _ => xiangqi_referee_command(args),
    }
}

/// `qilin referee xiangqi ...`: plays the moves and prints the verdict line.
fn xiangqi_referee_command(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("xiangqi") => {}
        Some(other) => {
            eprintln!("error: unknown game '{other}' ({REFEREE_USAGE})");
            return 2;
        }
        None => {
            eprintln!("error: missing game ({REFEREE_USAGE})");
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
                    eprintln!("error: --no-capture-limit needs a number of plies, got '{v}'");
                    return 2;
                }
            },
            (flag, _) => {
                eprintln!("error: unexpected argument '{flag}' ({REFEREE_USAGE})");
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
                eprintln!("error: {e}");
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
            eprintln!("error: illegal move {text} at ply {}", i + 1);
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

const GOMOKU_REFEREE_USAGE: &str = "\
usage: qilin referee gomoku (--size N | --rect W,H) [--rule R] [--black \"x,y ...\" --white \"x,y ...\"]
                            [--moves \"x,y x,y ...\"]... [--forbidden]
  --size N      a square board, N from 5 to 32
  --rect W,H    a rectangle of W columns and H rows, each from 1 to 32
  --rule R      0 freestyle (default), 1 standard, 4 renju, 8 caro, 9 caro-exact (numbers or names)
  --black TEXT, --white TEXT
                set-up stones placed before the moves, no rule applied to them (may repeat);
                then black moves first with as many black as white stones, else white
  --moves TEXT  moves as x,y (from 0, x the column), black first; may repeat
  --forbidden   also print black's renju forbidden points of the final position
prints `result: ongoing`, `result: <colour>-wins reason: <reason>` or `result: draw reason: full-board`";

/// Parses `W,H` of `--rect`: two numbers from 1 to 32.
fn parse_rect(text: &str) -> Option<(usize, usize)> {
    let (width, height) = text.split_once(',')?;
    let width: usize = width.trim().parse().ok()?;
    let height: usize = height.trim().parse().ok()?;
    let side = 1..=crate::gomoku::MAX_SIDE;
    (side.contains(&width) && side.contains(&height)).then_some((width, height))
}

/// `qilin referee gomoku ...` with its arguments parsed: board, rule, moves, `--forbidden`.
struct GomokuRefereeArgs {
    width: usize,
    height: usize,
    rule: crate::gomoku::Rule,
    moves: Vec<String>,
    setup_black: Vec<String>,
    setup_white: Vec<String>,
    forbidden: bool,
}

/// Parses the arguments after `referee gomoku`; `Ok(None)` for `--help`.
fn parse_gomoku_referee_args(args: &[String]) -> Result<Option<GomokuRefereeArgs>, String> {
    use crate::gomoku::{MAX_SIDE, Rule};
    let mut size = None;
    let mut rule = Rule::Freestyle;
    let mut moves = Vec::new();
    let mut setup_black = Vec::new();
    let mut setup_white = Vec::new();
    let mut forbidden = false;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        match flag {
            "--help" | "-h" => return Ok(None),
            "--forbidden" => {
                forbidden = true;
                i += 1;
                continue;
            }
            _ => {}
        }
        let Some(value) = args.get(i + 1) else {
            return Err(match flag {
                "--size" | "--rect" | "--rule" | "--moves" | "--black" | "--white" => {
                    format!("{flag} needs a value")
                }
                _ => format!("unexpected argument '{flag}'"),
            });
        };
        match flag {
            "--size" | "--rect" if size.is_some() => {
                return Err("give one board size: --size N or --rect W,H".to_string());
            }
            "--size" => match value.trim().parse::<usize>() {
                Ok(n) if (5..=MAX_SIDE).contains(&n) => size = Some((n, n)),
                _ => {
                    return Err(format!(
                        "--size must be a number from 5 to 32, not '{value}'"
                    ));
                }
            },
            "--rect" => match parse_rect(value) {
                Some(rect) => size = Some(rect),
                None => {
                    return Err(format!(
                        "--rect must be W,H with each side from 1 to 32, not '{value}'"
                    ));
                }
            },
            "--rule" => match Rule::parse(value) {
                Some(r) => rule = r,
                None => {
                    return Err(format!(
                        "unknown rule '{value}' (0 freestyle, 1 standard, 4 renju, 8 caro, \
                         9 caro-exact; Yixin's rule 2 for renju is 4 here)"
                    ));
                }
            },
            "--moves" => moves.extend(value.split_whitespace().map(String::from)),
            "--black" => setup_black.extend(value.split_whitespace().map(String::from)),
            "--white" => setup_white.extend(value.split_whitespace().map(String::from)),
            _ => return Err(format!("unexpected argument '{flag}'")),
        }
        i += 2;
    }
    let Some((width, height)) = size else {
        return Err("missing board size: give --size N or --rect W,H".to_string());
    };
    Ok(Some(GomokuRefereeArgs {
        width,
        height,
        rule,
        moves,
        setup_black,
        setup_white,
        forbidden,
    }))
}

/// `qilin referee gomoku ...`: plays the moves, black first, and prints the verdict line
/// (and with `--forbidden` black's forbidden points). Errors go to stderr with status 2.
fn gomoku_referee_command(args: &[String]) -> i32 {
    use crate::gomoku::{Cell, Color, Game, Verdict};
    let parsed = match parse_gomoku_referee_args(args) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => {
            println!("{GOMOKU_REFEREE_USAGE}");
            return 0;
        }
        Err(message) => {
            eprintln!("error: {message} (see: qilin referee gomoku --help)");
            return 2;
        }
    };
    let mut setup: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
    for (stones, texts) in setup
        .iter_mut()
        .zip([&parsed.setup_black, &parsed.setup_white])
    {
        for text in texts {
            match Cell::parse(text) {
                Some(cell) => stones.push(cell),
                None => {
                    eprintln!("error: set-up point '{text}' is not x,y");
                    return 2;
                }
            }
        }
    }
    let to_move = if setup[0].len() > setup[1].len() {
        Color::White
    } else {
        Color::Black
    };
    let created = Game::from_setup(
        parsed.width,
        parsed.height,
        parsed.rule,
        &setup[0],
        &setup[1],
        to_move,
    );
    let mut game = match created {
        Ok(game) => game,
        Err(error) => {
            eprintln!("error: {error}");
            return 2;
        }
    };
    let moves = &parsed.moves;
    for (i, text) in moves.iter().enumerate() {
        if game.verdict() != Verdict::Ongoing {
            eprintln!(
                "note: the game ended after move {i}; {} further move(s) ignored",
                moves.len() - i
            );
            break;
        }
        if let Err(error) = game.play_str(text) {
            eprintln!("error: move {} '{text}': {error}", i + 1);
            return 2;
        }
    }
    println!("{}", game.verdict());
    if parsed.forbidden {
        let points: Vec<String> = game
            .board()
            .forbidden_points()
            .iter()
            .map(ToString::to_string)
            .collect();
        if points.is_empty() {
            println!("forbidden:");
        } else {
            println!("forbidden: {}", points.join(" "));
        }
    }
    0
}
