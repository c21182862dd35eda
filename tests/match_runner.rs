//! `qilin match` driven as a program, against `qilin test-engine`: results, forfeits,
//! adjudication, SPRT stopping and argument errors.
//! Matches between two Qilin engine processes are in `match_qilin.rs`.

use std::path::PathBuf;
use std::process::{Command, Output};

use qilin::xiangqi::{Move, Position};

const QILIN: &str = env!("CARGO_BIN_EXE_qilin");

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qilin-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `--engine` arguments for a test engine named `name` with test-engine arguments `extra`.
fn test_engine(name: &str, extra: &str, settings: &str) -> Vec<String> {
    let mut args = vec![
        "--engine".to_string(),
        format!("name={name}"),
        format!("cmd={QILIN}"),
    ];
    args.push("arg=test-engine".to_string());
    for word in extra.split_whitespace() {
        args.push(format!("arg={word}"));
    }
    args.extend(settings.split_whitespace().map(String::from));
    args
}

fn run_match(args: &[String]) -> Output {
    let mut full = vec!["match".to_string()];
    full.extend(args.iter().cloned());
    Command::new(QILIN).args(&full).output().unwrap()
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// A tiny JSON reader for the flat objects of `--results`: string, number and null values.
fn json_fields(line: &str) -> Vec<(String, String)> {
    let body = line
        .trim()
        .strip_prefix('{')
        .unwrap()
        .strip_suffix('}')
        .unwrap();
    let mut fields = Vec::new();
    let mut chars = body.chars().peekable();
    let read_string = |chars: &mut std::iter::Peekable<std::str::Chars>| {
        assert_eq!(chars.next(), Some('"'));
        let mut out = String::new();
        while let Some(c) = chars.next() {
            match c {
                '"' => return out,
                '\\' => match chars.next().unwrap() {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'u' => {
                        let hex: String = (0..4).map(|_| chars.next().unwrap()).collect();
                        out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                    }
                    other => out.push(other),
                },
                c => out.push(c),
            }
        }
        panic!("unterminated string in {line}");
    };
    loop {
        let key = read_string(&mut chars);
        assert_eq!(chars.next(), Some(':'));
        let value = if chars.peek() == Some(&'"') {
            read_string(&mut chars)
        } else {
            let mut raw = String::new();
            while let Some(&c) = chars.peek() {
                if c == ',' {
                    break;
                }
                raw.push(c);
                chars.next();
            }
            raw
        };
        fields.push((key, value));
        match chars.next() {
            Some(',') => continue,
            None => break,
            Some(other) => panic!("unexpected {other} in {line}"),
        }
    }
    fields
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> &'a str {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no field {key}"))
}

fn read_results(path: &PathBuf) -> Vec<Vec<(String, String)>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(json_fields)
        .collect()
}

/// Replays a record's moves from its FEN and checks every move is legal.
fn replay(record: &[(String, String)]) -> Position {
    let mut position = Position::from_fen(field(record, "fen")).unwrap();
    for text in field(record, "moves").split_whitespace() {
        let mv = Move::parse(text).unwrap_or_else(|| panic!("bad move {text}"));
        assert!(
            position.is_legal(mv),
            "illegal {text} in {}",
            position.fen()
        );
        position.make_move(mv);
    }
    position
}

/// Runs `good` against a misbehaving engine over both colours and checks that every game is
/// lost by the misbehaving engine for `reason`, after its 3 good moves (which proves that
/// after a forfeit it was restarted between games).
fn assert_forfeits(name: &str, mode_args: &str, extra: &str, reason: &str) {
    let dir = scratch(name);
    let results = dir.join("results.jsonl");
    let mut args = test_engine("good", "--seed 5", "");
    args.extend(test_engine("bad", mode_args, ""));
    args.extend(words(extra));
    if !extra.contains("--timemargin") {
        // The good engine must not lose on time on a loaded machine.
        args.extend(words("--timemargin 1000"));
    }
    args.extend(words(&format!(
        "--games 2 --seed 3 --results {}",
        results.display()
    )));
    let output = run_match(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let records = read_results(&results);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(field(record, "reason"), reason, "{record:?}");
        let bad_is_red = field(record, "red") == "bad";
        assert_eq!(
            field(record, "result"),
            if bad_is_red { "0-1" } else { "1-0" }
        );
        if reason != "resign" {
            assert_ne!(field(record, "detail"), "null");
        }
        if reason == "timeout" {
            let bad_time = field(
                record,
                if bad_is_red {
                    "red_time_ms"
                } else {
                    "black_time_ms"
                },
            );
            assert!(bad_time.parse::<u64>().unwrap() >= 150, "{record:?}");
        }
        // The bad engine made exactly 3 good moves in each game, the good one 3 or 4.
        let plies: usize = field(record, "plies").parse().unwrap();
        assert_eq!(plies, field(record, "moves").split_whitespace().count());
        let book: usize = field(record, "book_plies").parse().unwrap();
        let engine_plies = plies - book;
        // A resigning engine is not restarted (resigning is no fault): its counter of good
        // moves carries over and it resigns at once in the second game.
        let first_game = field(record, "game") == "1";
        if reason != "resign" || first_game {
            assert!((6..=7).contains(&engine_plies), "{record:?}");
        }
        replay(record);
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(&format!("{reason} 2")), "{stdout}");
}

#[test]
fn random_movers_play_legal_complete_games() {
    let dir = scratch("random");
    let results = dir.join("results.jsonl");
    let pgn = dir.join("games.pgn");
    let log = dir.join("protocol.log");
    let mut args = test_engine("uci-engine", "--seed 11", "");
    args.extend(test_engine("ucci-engine", "--seed 12 --proto ucci", ""));
    args.extend(words(&format!(
        "--movetime 200 --timemargin 1000 --games 4 --concurrency 2 --maxplies 300 --seed 4 --results {} --pgn {} --log {}",
        results.display(),
        pgn.display(),
        log.display()
    )));
    let output = run_match(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let records = read_results(&results);
    assert_eq!(records.len(), 4);
    let mut numbers: Vec<&str> = records.iter().map(|r| field(r, "game")).collect();
    numbers.sort();
    assert_eq!(numbers, ["1", "2", "3", "4"]);
    for record in &records {
        let position = replay(record);
        let reason = field(record, "reason");
        let result = field(record, "result");
        let mover_has_moves = !position.legal_moves().is_empty();
        match reason {
            "checkmate" | "stalemate" => {
                assert!(!mover_has_moves);
                // The side to move lost.
                let red_to_move = position.fen().split_whitespace().nth(1) == Some("w");
                assert_eq!(result, if red_to_move { "0-1" } else { "1-0" });
            }
            "max-plies" => {
                assert_eq!(field(record, "plies"), "300");
                assert_eq!(result, "1/2-1/2");
            }
            "repetition" | "no-capture-limit" | "perpetual-check" | "perpetual-chase" => {}
            other => panic!("unexpected reason {other}"),
        }
        assert!(field(record, "red_time_ms").parse::<u64>().is_ok());
    }
    // Colours alternate on each opening.
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn_text.matches("[Game \"Chinese Chess\"]").count(), 4);
    assert!(pgn_text.contains("[Format \"ICCS\"]"));
    let log_text = std::fs::read_to_string(&log).unwrap();
    // Auto detection: the UCI engine refuses `ucci`, then gets `uci`.
    assert!(log_text.contains("uci-engine") && log_text.contains("> uci\n"));
    assert!(log_text.contains("> go movetime 200"));
    assert!(log_text.contains("> go time 200 movestogo 1"));
    assert!(log_text.contains("setoption usemillisec true"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("uci-engine vs ucci-engine"), "{stdout}");
    assert!(stdout.contains("pentanomial"));
}

#[test]
fn illegal_move_loses() {
    assert_forfeits(
        "illegal",
        "--mode illegal --after 3",
        "--movetime 200",
        "illegal-move",
    );
}

#[test]
fn crash_loses() {
    assert_forfeits("crash", "--mode crash --after 3", "--movetime 200", "crash");
}

#[test]
fn garbage_loses() {
    assert_forfeits(
        "garbage",
        "--mode garbage --after 3 --proto ucci",
        "--movetime 200",
        "garbage",
    );
}

#[test]
fn no_move_claim_loses() {
    assert_forfeits(
        "nomove-uci",
        "--mode nomove --after 3",
        "--movetime 200",
        "illegal-move",
    );
    assert_forfeits(
        "nomove-ucci",
        "--mode nomove --after 3 --proto ucci",
        "--movetime 200",
        "illegal-move",
    );
}

#[test]
fn ucci_resignation_loses() {
    assert_forfeits(
        "resign",
        "--mode resign --after 3 --proto ucci",
        "--movetime 200",
        "resign",
    );
}

#[test]
fn hang_loses_on_time_under_movetime() {
    assert_forfeits(
        "hang",
        "--mode hang --after 3",
        "--movetime 100 --timemargin 1000",
        "timeout",
    );
}

#[test]
fn hang_loses_after_maxwait_under_depth() {
    assert_forfeits(
        "hang-depth",
        "--mode hang --after 3",
        "--depth 2 --maxwait 400",
        "timeout",
    );
}

#[test]
fn slow_engine_loses_on_its_game_clock() {
    let dir = scratch("slow");
    let results = dir.join("results.jsonl");
    let log = dir.join("protocol.log");
    let mut args = test_engine("fast", "--seed 1", "");
    // 150 ms a move against a clock of 0.5 s + 0.02 s: out of time on the 4th move.
    args.extend(test_engine(
        "slow",
        "--delay 150 --proto ucci",
        "proto=ucci",
    ));
    args.extend(words(&format!(
        "--tc 0.5+0.02 --timemargin 30 --games 2 --results {} --log {}",
        results.display(),
        log.display()
    )));
    let output = run_match(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for record in read_results(&results) {
        assert_eq!(field(&record, "reason"), "timeout", "{record:?}");
        let slow_is_red = field(&record, "red") == "slow";
        assert_eq!(
            field(&record, "result"),
            if slow_is_red { "0-1" } else { "1-0" }
        );
        let slow_time: u64 = field(
            &record,
            if slow_is_red {
                "red_time_ms"
            } else {
                "black_time_ms"
            },
        )
        .parse()
        .unwrap();
        assert!(slow_time >= 450, "{record:?}");
    }
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(
        log_text.contains("> go wtime "),
        "UCI clock command missing"
    );
    assert!(
        log_text.contains(" increment 20 opptime "),
        "UCCI clock command missing"
    );
}

#[test]
fn score_adjudication_resigns_and_draws() {
    let dir = scratch("adjudication");
    let results = dir.join("results.jsonl");
    let mut args = test_engine("confident", "--seed 1 --score 900", "");
    args.extend(test_engine("pessimist", "--seed 2 --score -900", ""));
    args.extend(words(&format!(
        "--movetime 200 --games 2 --resign 600,3 --results {}",
        results.display()
    )));
    let output = run_match(&args);
    assert!(output.status.success());
    for record in read_results(&results) {
        assert_eq!(field(&record, "reason"), "resign-adjudication");
        let pessimist_red = field(&record, "red") == "pessimist";
        assert_eq!(
            field(&record, "result"),
            if pessimist_red { "0-1" } else { "1-0" }
        );
    }

    let results = dir.join("draws.jsonl");
    let mut args = test_engine("a", "--seed 1 --score 3", "");
    args.extend(test_engine("b", "--seed 2 --score -3", ""));
    args.extend(words(&format!(
        "--movetime 200 --games 2 --draw 10,5,4 --results {}",
        results.display()
    )));
    let output = run_match(&args);
    assert!(output.status.success());
    for record in read_results(&results) {
        assert_eq!(field(&record, "reason"), "draw-adjudication");
        assert_eq!(field(&record, "result"), "1/2-1/2");
        let plies: usize = field(&record, "plies").parse().unwrap();
        let book: usize = field(&record, "book_plies").parse().unwrap();
        // Quiet from ply 10 on (counted over the whole record), 8 plies in a row.
        assert_eq!(plies, (book + 1).max(10) + 7, "{record:?}");
    }
}

#[test]
fn one_based_ranks_are_converted() {
    let dir = scratch("ranks");
    let results = dir.join("results.jsonl");
    let mut args = test_engine("fairy", "--seed 3 --ranks 1", "proto=uci ranks=1");
    args.extend(test_engine("plain", "--seed 4", ""));
    args.extend(words(&format!(
        "--movetime 200 --games 2 --maxplies 60 --openings /dev/null --results {}",
        results.display()
    )));
    // /dev/null has no openings: that is an error.
    assert_eq!(run_match(&args).status.code(), Some(2));
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "startpos\n").unwrap();
    let n = args.len();
    args[n - 3] = openings.display().to_string();
    let output = run_match(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for record in read_results(&results) {
        assert_eq!(field(&record, "reason"), "max-plies", "{record:?}");
        replay(&record);
    }
}

#[test]
fn sprt_stops_a_decided_match() {
    let dir = scratch("sprt");
    let results = dir.join("results.jsonl");
    let mut args = test_engine("winner", "--seed 1", "");
    args.extend(test_engine("loser", "--mode illegal", ""));
    args.extend(words(&format!(
        "--movetime 200 --games 400 --sprt elo0=0 elo1=20 alpha=0.05 beta=0.05 --results {}",
        results.display()
    )));
    let output = run_match(&args);
    assert!(output.status.success());
    let played = read_results(&results).len();
    assert!((4..400).contains(&played), "{played}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(stdout.contains("pentanomial model"), "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("LLR"), "{stderr}");
}

#[test]
fn an_engine_that_never_starts_stops_the_match_at_once() {
    let dir = scratch("nostart");
    let results = dir.join("results.jsonl");
    let mut args = test_engine("good", "--seed 1", "");
    args.extend(words("--engine name=missing cmd=/nonexistent/engine"));
    args.extend(words(&format!(
        "--movetime 100 --games 20 --results {}",
        results.display()
    )));
    let started = std::time::Instant::now();
    let output = run_match(&args);
    // It used to play out all 20 games as forfeits and exit 0.
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("engine 'missing' could not be started")
            && stderr.contains("/nonexistent/engine"),
        "{stderr}"
    );
    assert!(read_results(&results).is_empty());
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn bad_arguments_exit_with_status_2() {
    let engines = format!("--engine cmd={QILIN} --engine cmd={QILIN}");
    for bad in [
        String::new(),
        format!("--engine cmd={QILIN} --movetime 10"),
        engines.clone(),
        format!("{engines} --movetime ten"),
        format!("{engines} --movetime 10 --frobnicate"),
        format!("{engines} --movetime 10 --tc 40/"),
        format!("{engines} --movetime 10 --sprt elo0=5 elo1=1"),
        format!("{engines} --movetime 10 --openings /nonexistent/file"),
        format!("{engines} --movetime 10 --results /nonexistent/dir/out.jsonl"),
        format!("{engines} --movetime 10 --game gomoku --rule 2"),
        format!("{engines} --movetime 10 --game gomoku --pgn games.pgn"),
        format!("--engine cmd={QILIN} proto=chess --engine cmd={QILIN} --movetime 10"),
    ] {
        let output = run_match(&words(&bad));
        assert_eq!(output.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("qilin match: "), "{bad}: {stderr}");
    }
}
