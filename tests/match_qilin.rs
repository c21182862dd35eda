//! `qilin match` between two Qilin engine processes: over UCI and UCCI (explicit and
//! detected), at 20 ms a move with two games at once, without losses on time.

use std::path::PathBuf;
use std::process::Command;

use qilin::xiangqi::{Move, Position};

const QILIN: &str = env!("CARGO_BIN_EXE_qilin");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qilin-match-qilin-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The value of `"key":` in a flat JSON line written by the runner (string or number).
fn value<'a>(line: &'a str, key: &str) -> &'a str {
    let pattern = format!("\"{key}\":");
    let start = line
        .find(&pattern)
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + pattern.len();
    let rest = &line[start..];
    match rest.strip_prefix('"') {
        Some(text) => &text[..text.find('"').unwrap()],
        None => &rest[..rest.find([',', '}']).unwrap()],
    }
}

#[test]
fn qilin_against_qilin_at_20_ms_a_move_loses_nothing_on_time() {
    let dir = scratch("fast");
    let results = dir.join("results.jsonl");
    let pgn = dir.join("games.pgn");
    let output = Command::new(QILIN)
        .args([
            "match",
            "--engine",
            "name=qilin-uci",
            &format!("cmd={QILIN}"),
            "proto=uci",
        ])
        .args(["--engine", "name=qilin-auto", &format!("cmd={QILIN}")])
        .args([
            "--movetime",
            "20",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--maxplies",
            "80",
            // No time loss with a margin a loaded machine keeps (the runner's default is
            // 100 ms); the engine's own timing is measured by scripts/move-latency.py.
            "--timemargin",
            "1000",
        ])
        .args([
            "--results",
            results.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    for line in lines {
        let reason = value(line, "reason");
        assert!(
            matches!(
                reason,
                "checkmate"
                    | "stalemate"
                    | "perpetual-check"
                    | "perpetual-chase"
                    | "repetition"
                    | "no-capture-limit"
                    | "max-plies"
                    | "resign"
            ),
            "{line}"
        );
        let mut position = Position::from_fen(value(line, "fen")).unwrap();
        for text in value(line, "moves").split_whitespace() {
            let mv = Move::parse(text).unwrap();
            assert!(position.is_legal(mv), "{text} in {line}");
            position.make_move(mv);
        }
    }
    // Qilin reports scores and depths: the PGN comments carry them.
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    let has_score_and_depth = pgn_text.split('{').skip(1).any(|comment| {
        let comment = comment.split('}').next().unwrap_or("");
        let Some((score, rest)) = comment.split_once('/') else {
            return false;
        };
        let depth = rest.split(' ').next().unwrap_or("");
        score.parse::<f64>().is_ok() && depth.parse::<u32>().is_ok_and(|d| d >= 1)
    });
    assert!(has_score_and_depth, "{pgn_text}");
}

#[test]
fn qilin_over_ucci_with_a_game_clock() {
    let dir = scratch("ucci");
    let results = dir.join("results.jsonl");
    let log = dir.join("protocol.log");
    let output = Command::new(QILIN)
        .args([
            "match",
            "--engine",
            "name=a",
            &format!("cmd={QILIN}"),
            "proto=ucci",
        ])
        .args(["--engine", "name=b", &format!("cmd={QILIN}"), "proto=uci"])
        .args(["--tc", "1+0.05", "--games", "2", "--maxplies", "30"])
        .args(["--timemargin", "1000"])
        .args([
            "--results",
            results.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&results).unwrap();
    assert_eq!(text.lines().count(), 2);
    for line in text.lines() {
        assert_ne!(value(line, "reason"), "timeout", "{line}");
        assert_ne!(value(line, "reason"), "garbage", "{line}");
        assert_ne!(value(line, "reason"), "illegal-move", "{line}");
    }
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert!(log_text.contains("< ucciok"));
    assert!(log_text.contains("< uciok"));
    assert!(log_text.contains(" increment 50 opptime "));
    assert!(log_text.contains(" winc 50 binc 50"));
}
