//! The Gomoku engine driven over Piskvork as a manager drives it, with checks that need code
//! rather than a transcript: END while thinking and inside a block, Swap2 answers, the match
//! clock, rectangles and caro, and the memory limit (peak resident memory of the process).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use qilin::gomoku::Cell;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qilin"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("qilin starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line.trim_end().to_string()).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        // Managers end lines with CR LF.
        for line in text.lines() {
            write!(self.stdin, "{line}\r\n").expect("write");
        }
        self.stdin.flush().expect("flush");
    }

    /// The next line that is not a MESSAGE, within `wait`.
    fn answer(&mut self, wait: Duration) -> String {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with("MESSAGE") || line.starts_with("DEBUG") => {}
                Ok(line) => return line,
                Err(_) => panic!("no answer within {wait:?}"),
            }
        }
    }

    /// Waits for the process to exit; returns how long that took.
    fn exit_time(&mut self, limit: Duration) -> Duration {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "{status}");
                return start.elapsed();
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = self.child.kill();
        panic!("the engine did not exit within {limit:?}");
    }

    /// Peak resident memory of the process, in bytes (Linux).
    fn peak_rss(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const LONG: Duration = Duration::from_secs(10);

fn point(text: &str) -> Cell {
    Cell::parse(text).unwrap_or_else(|| panic!("'{text}' is not a point"))
}

#[test]
fn end_while_thinking_and_inside_a_block_exits_at_once() {
    let mut engine = Engine::start();
    engine.send("START 20\nINFO timeout_turn 20000\nBEGIN");
    assert_eq!(engine.answer(LONG), "OK");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("END");
    // The protocol asks for an exit within 100 ms; the test checks that END does not wait
    // for the 20 s search, with a bound a loaded machine keeps.
    let took = engine.exit_time(Duration::from_secs(5));
    assert!(took < Duration::from_secs(3), "END took {took:?}");

    let mut engine = Engine::start();
    engine.send("START 15\nBOARD\n7,7,1\n8,8,2\nEND");
    assert_eq!(engine.answer(LONG), "OK");
    let took = engine.exit_time(Duration::from_secs(5));
    assert!(took < Duration::from_secs(3), "END took {took:?}");
}

#[test]
fn swap2_answers_are_real_choices() {
    let mut engine = Engine::start();
    engine.send("START 15\nINFO timeout_turn 600\nSWAP2BOARD\nDONE");
    assert_eq!(engine.answer(LONG), "OK");
    let opening: Vec<Cell> = engine.answer(LONG).split_whitespace().map(point).collect();
    assert_eq!(opening.len(), 3);
    assert!(opening[0] != opening[1] && opening[1] != opening[2] && opening[0] != opening[2]);

    engine.send("SWAP2BOARD\n7,7\n8,7\n8,10\nDONE");
    let answer = engine.answer(LONG);
    let taken = ["7,7", "8,7", "8,10"].map(point);
    if answer != "SWAP" {
        let moves: Vec<Cell> = answer.split_whitespace().map(point).collect();
        assert!((1..=2).contains(&moves.len()), "{answer}");
        assert!(moves.iter().all(|m| !taken.contains(m)), "{answer}");
    }

    engine.send("SWAP2BOARD\n7,7\n8,7\n8,10\n9,9\n6,6\nDONE");
    let answer = engine.answer(LONG);
    if answer != "SWAP" {
        let taken = ["7,7", "8,7", "8,10", "9,9", "6,6"].map(point);
        assert!(!taken.contains(&point(&answer)), "{answer}");
    }
    // The game goes on with BOARD as a normal opening.
    engine.send("BOARD\n7,7,2\n8,7,1\n8,10,2\nDONE");
    point(&engine.answer(LONG));
}

/// A Swap2 turn runs several searches (six openings to rate, or a fourth stone and six
/// fifth stones): together they stay inside one turn.
#[test]
fn swap2_turns_fit_the_turn_time() {
    let blocks = [
        "SWAP2BOARD\nDONE",
        "SWAP2BOARD\n7,7\n6,8\n9,5\nDONE",
        "SWAP2BOARD\n7,7\n8,7\n8,10\nDONE",
        "SWAP2BOARD\n7,7\n8,7\n10,7\n9,8\n9,6\nDONE",
    ];
    for turn in [200u64, 500] {
        for block in blocks {
            let mut engine = Engine::start();
            engine.send(&format!("START 15\nINFO timeout_turn {turn}"));
            assert_eq!(engine.answer(LONG), "OK");
            let sent = Instant::now();
            engine.send(block);
            let answer = engine.answer(LONG);
            let took = sent.elapsed();
            assert!(!answer.starts_with("ERROR"), "{block}: {answer}");
            // The turn, plus a loaded machine's scheduling slack.
            let allowed = Duration::from_millis(turn + 150);
            assert!(took <= allowed, "{block} at {turn} ms: {took:?} ({answer})");
        }
    }
}

#[test]
fn the_match_clock_is_respected() {
    let mut engine = Engine::start();
    engine.send("START 15\nINFO timeout_turn 30000\nINFO timeout_match 180000");
    assert_eq!(engine.answer(LONG), "OK");
    for (turn, left) in [("0,0", 2000), ("14,0", 400), ("0,14", 60), ("14,14", -50)] {
        engine.send(&format!("INFO time_left {left}"));
        let sent = Instant::now();
        engine.send(&format!("TURN {turn}"));
        point(&engine.answer(LONG));
        let took = sent.elapsed();
        // Never more than the time left (plus a loaded machine's scheduling slack).
        let allowed = Duration::from_millis(left.max(0) as u64 + 150);
        assert!(took <= allowed, "time_left {left}: {took:?}");
    }
}

#[test]
fn rectangles_and_caro() {
    let mut engine = Engine::start();
    engine.send("INFO rule 8\nRECTSTART 20,10\nINFO timeout_turn 300");
    assert_eq!(engine.answer(LONG), "OK");
    // Caro: white's 3,5..6,5 is blocked at 2,5 by black, so only 7,5 stops the five.
    engine.send("BOARD\n2,5,1\n3,5,2\n10,1,1\n4,5,2\n10,2,1\n5,5,2\n18,9,1\n6,5,2\nDONE");
    assert_eq!(engine.answer(LONG), "7,5");
    engine.send("TURN 19,9");
    let reply = point(&engine.answer(LONG));
    assert!(reply.x() < 20 && reply.y() < 10);
    engine.send("TURN 19,10");
    assert_eq!(
        engine.answer(LONG),
        "ERROR point 19,10 is off the 20x10 board"
    );
}

#[test]
fn memory_stays_under_max_memory() {
    for (limit, info) in [
        (350u64 << 20, String::new()),
        (120 << 20, format!("INFO max_memory {}\n", 120u64 << 20)),
    ] {
        let mut engine = Engine::start();
        engine.send(&format!("{info}START 15\nINFO timeout_turn 300\nBEGIN"));
        assert_eq!(engine.answer(LONG), "OK");
        point(&engine.answer(LONG));
        engine.send("TURN 8,8");
        point(&engine.answer(LONG));
        let Some(peak) = engine.peak_rss() else {
            return; // not Linux: nothing to measure
        };
        assert!(peak < limit, "peak {peak} bytes, limit {limit}");
    }
}
