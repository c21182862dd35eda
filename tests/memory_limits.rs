//! A hash table that cannot be allocated is refused with one error line; the engine keeps
//! its old table and goes on (issue 11). The engine runs under a virtual-memory limit
//! (`ulimit -v`, Linux shells), so the refusal does not depend on the machine's memory.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the engine with `input` on stdin under a 1.5 GB address-space limit; its stdout.
fn run_limited(input: &str) -> String {
    let mut child = Command::new("bash")
        .arg("-c")
        .arg("ulimit -v 1500000 && exec \"$0\"")
        .arg(env!("CARGO_BIN_EXE_qilin"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start bash");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write input");
    let out = child.wait_with_output().expect("engine output");
    assert!(
        out.status.success(),
        "exit {:?}, stderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn uci_hash_too_large_is_refused_and_the_old_table_kept() {
    let out = run_limited(
        "uci\nsetoption name Hash value 32768\nisready\nsetoption name Hash value 4096\n\
         isready\nsetoption name Hash value 8\nposition startpos\ngo depth 3\nquit\n",
    );
    let errors: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert_eq!(
        errors[0],
        "info string error: cannot allocate a hash table of 32768 MB; the 16 MB table is kept"
    );
    assert_eq!(out.matches("readyok").count(), 2, "{out}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
}

#[test]
fn ucci_hashsize_too_large_is_refused() {
    let out = run_limited(
        "ucci\nsetoption hashsize 32768\nisready\nposition startpos\ngo depth 3\nquit\n",
    );
    assert!(
        out.contains("info string error: cannot allocate a hash table of 32768 MB"),
        "{out}"
    );
    assert!(out.contains("readyok"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
}

#[test]
fn gomoku_hash_size_too_large_is_refused() {
    let out = run_limited(
        "INFO max_memory 100000000000\nINFO hash_size 90000000000\nSTART 15\nINFO timeout_turn 200\n\
         BEGIN\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("ERROR cannot allocate a hash table of"),
        "{out}"
    );
    assert!(lines.contains(&"OK"), "{out}");
    // The move after BEGIN: two numbers.
    let last = lines.last().expect("a move");
    let (x, y) = last.split_once(',').expect("x,y");
    assert!(
        x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok(),
        "{out}"
    );
}

/// The engine's peak resident memory in KB (VmHWM, Linux) after `input`, read while the
/// process still runs; `ready` is a line the input's last command answers.
fn peak_resident_kb(input: &str, ready: &str) -> u64 {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_qilin"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start qilin");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write input");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    for line in stdout.lines().map_while(Result::ok) {
        if line.starts_with(ready) {
            break;
        }
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
        .expect("/proc/<pid>/status (Linux)");
    let _ = child.kill();
    let _ = child.wait();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM line")
}

#[test]
fn a_new_game_does_not_make_an_unused_table_resident() {
    // Gomoku: START before `INFO max_memory` (as managers send them) used to zero the
    // default 128 MB table, so the process peaked at 137 MB under a 64 MB limit.
    let peak = peak_resident_kb(
        "START 15\nINFO max_memory 67108864\nINFO timeout_turn 50\nBEGIN\n",
        "7,7",
    );
    assert!(peak < 48 << 10, "Gomoku peak {peak} KB");
    // UCI: `ucinewgame` after a 256 MB Hash zeroed all of it before any search.
    let peak = peak_resident_kb(
        "uci\nsetoption name Hash value 256\nucinewgame\nisready\n",
        "readyok",
    );
    assert!(peak < 64 << 10, "UCI peak {peak} KB");
}
