//! Long input costs time in proportion to its length (issue 11): a `position` line with
//! 200,000 plies used to take 16 s or more, as each move copied the whole move history.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::Engine;

#[test]
fn a_position_with_200000_plies_is_taken_at_once() {
    let mut engine = Engine::start_with(&[]);
    let moves = vec!["b0c2 b9c7 c2b0 c7b9"; 50_000].join(" ");
    engine.send("uci");
    engine.send(&format!("position startpos moves {moves}"));
    engine.send("isready");
    engine.send("d");
    // A generous deadline: the old quadratic replay needed 16 s and more.
    let deadline = Duration::from_secs(5);
    engine.wait_within(deadline, |l| l == "readyok");
    let fen = engine.wait_within(deadline, |l| l.starts_with("FEN: "));
    // 200,000 plies of horse moves there and back: the start position again.
    assert!(
        fen.contains("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        "{fen}"
    );
    engine.send("quit");
}

/// Sends `input` to a fresh engine, closes its input and returns what it printed.
fn dialogue(input: &[u8]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qilin"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start qilin");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let lines: Vec<String> = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect();
        let _ = tx.send(lines);
    });
    stdin.write_all(input).expect("write");
    drop(stdin);
    let lines = rx.recv_timeout(Duration::from_secs(10));
    let _ = child.kill();
    let _ = child.wait();
    lines.expect("the engine answered and exited within 10 s")
}

/// A megabyte of garbage with control characters in one line, in each protocol.
fn hostile_line() -> Vec<u8> {
    let mut line = b"xyzzy\x1b[2J\x07".to_vec();
    line.extend(std::iter::repeat_n(b'A', 1 << 20));
    line.push(b'\n');
    line
}

#[test]
fn an_unknown_megabyte_line_is_answered_in_one_short_escaped_line() {
    for (hello, ready, answer) in [
        ("uci\n", "isready\n", "readyok"),
        ("ucci\n", "isready\n", "readyok"),
        ("START 15\n", "ABOUT\n", "name=\"Qilin\"*"),
    ] {
        let mut input = hello.as_bytes().to_vec();
        input.extend(hostile_line());
        input.extend(ready.as_bytes());
        let lines = dialogue(&input);
        let complaint = lines
            .iter()
            .find(|l| l.contains("xyzzy"))
            .unwrap_or_else(|| panic!("{hello}: no answer to the bad line: {lines:?}"));
        assert!(complaint.len() < 200, "{hello}: {} bytes", complaint.len());
        assert!(
            complaint.contains("\\u{1b}[2J\\u{7}")
                && complaint.contains(&format!("({} bytes)", hostile_line().len() - 1)),
            "{hello}: {complaint}"
        );
        assert!(
            lines.iter().all(|l| !l.chars().any(char::is_control)),
            "{hello}: a control character reached the output"
        );
        let wanted = answer.trim_end_matches('*');
        assert!(
            lines.iter().any(|l| l.starts_with(wanted)),
            "{hello}: the engine stopped answering: {lines:?}"
        );
    }
}
