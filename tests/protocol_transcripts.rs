//! Runs every dialogue in `protocol-tests/*.txt` against the built `qilin` binary.
//! The format is described in `protocol-tests/README.md`. Every wait has a timeout and the
//! child is killed at the end, so a misbehaving engine fails the test instead of hanging it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Default wait for `<` and `=` expectations.
const DEFAULT_WAIT: Duration = Duration::from_secs(10);

/// Added to every `within <ms>` and `exit <ms>` bound: a loaded machine (other processes
/// busy on every core) delays a reply by far more than the engine's own timing error, and a
/// test checks behaviour (an answer comes by itself, without waiting for the next command or
/// for a search's natural end), not speed. Timing is measured by scripts (README, "Scripts").
const LOAD_ALLOWANCE: Duration = Duration::from_secs(2);

/// `*` matches any run of characters, `?` one character, `#` one or more digits;
/// everything else is literal.
fn glob(pattern: &[char], text: &[char]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some(('*', rest)) => (0..=text.len()).any(|i| glob(rest, &text[i..])),
        Some(('#', rest)) => {
            let digits = text.iter().take_while(|c| c.is_ascii_digit()).count();
            (1..=digits).any(|i| glob(rest, &text[i..]))
        }
        Some(('?', rest)) => !text.is_empty() && glob(rest, &text[1..]),
        Some((c, rest)) => text.first() == Some(c) && glob(rest, &text[1..]),
    }
}

fn matches(pattern: &str, line: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = line.chars().collect();
    glob(&p, &t)
}

/// A running engine with its output arriving on a channel.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<String>,
    /// Everything read so far, for failure reports.
    seen: Vec<String>,
    last_send: Instant,
    exited: bool,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qilin"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the qilin binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line.trim_end().to_string()).is_err() {
                    break;
                }
            }
        });
        let (etx, err_rx) = channel();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            let _ = etx.send(text);
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            stderr: err_rx,
            seen: Vec::new(),
            last_send: Instant::now(),
            exited: false,
        }
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        writeln!(stdin, "{text}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot send '{text}': {e}"))?;
        self.seen.push(format!(">> {text}"));
        self.last_send = Instant::now();
        Ok(())
    }

    /// The next output line before `deadline`; `Ok(None)` on timeout.
    fn next_line(&mut self, deadline: Instant) -> Result<Option<String>, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                self.seen.push(line.clone());
                Ok(Some(line))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err("the engine closed its output".into()),
        }
    }

    /// Waits for a line matching `pattern`, skipping others (but never an unexpected error
    /// report, which fails the dialogue).
    fn expect(&mut self, pattern: &str, deadline: Instant) -> Result<(), String> {
        loop {
            match self.next_line(deadline)? {
                Some(line) if matches(pattern, &line) => return Ok(()),
                Some(line)
                    if line.starts_with("info string error")
                        || line.starts_with("ERROR")
                        || line.starts_with("UNKNOWN") =>
                {
                    return Err(format!("unexpected error line '{line}' before '{pattern}'"));
                }
                Some(_) => {}
                None => return Err(format!("timed out waiting for '{pattern}'")),
            }
        }
    }

    fn expect_next(&mut self, pattern: &str) -> Result<(), String> {
        match self.next_line(Instant::now() + DEFAULT_WAIT)? {
            Some(line) if matches(pattern, &line) => Ok(()),
            Some(line) => Err(format!("expected '{pattern}' next, got '{line}'")),
            None => Err(format!("timed out waiting for '{pattern}'")),
        }
    }

    fn never(&mut self, pattern: &str, window: Duration) -> Result<(), String> {
        let deadline = Instant::now() + window;
        while let Some(line) = self.next_line(deadline)? {
            if matches(pattern, &line) {
                return Err(format!("'{line}' arrived within {window:?} (forbidden)"));
            }
        }
        Ok(())
    }

    fn wait_exit(&mut self, within: Duration) -> Result<(), String> {
        let deadline = Instant::now() + within;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) if status.success() => {
                    self.exited = true;
                    return Ok(());
                }
                Ok(Some(status)) => return Err(format!("engine exited with {status}")),
                Ok(None) if Instant::now() >= deadline => {
                    return Err("the engine did not exit".into());
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(format!("cannot wait for the engine: {e}")),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if !self.exited {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn parse_ms(text: &str) -> Result<(Duration, &str), String> {
    let text = text.trim_start();
    let (num, rest) = text.split_once(' ').unwrap_or((text, ""));
    let ms: u64 = num
        .parse()
        .map_err(|_| format!("bad milliseconds '{num}'"))?;
    Ok((Duration::from_millis(ms), rest.trim()))
}

/// Runs one transcript; `Err` carries the failing line and the dialogue so far.
fn run_transcript(path: &Path) -> Result<(), String> {
    let script = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut engine = Engine::start();
    let mut result = Ok(());
    for (n, raw) in script.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (op, arg) = line.split_once(' ').unwrap_or((line, ""));
        let step = match op {
            ">" => engine.send(arg),
            "<" => engine.expect(arg, Instant::now() + DEFAULT_WAIT),
            "=" => engine.expect_next(arg),
            "within" => parse_ms(arg).and_then(|(ms, pat)| {
                let deadline = engine.last_send + ms + LOAD_ALLOWANCE;
                engine.expect(pat, deadline)
            }),
            "never" => parse_ms(arg).and_then(|(ms, pat)| engine.never(pat, ms)),
            "sleep" => parse_ms(arg).map(|(ms, _)| std::thread::sleep(ms)),
            "close" => {
                engine.stdin = None;
                Ok(())
            }
            "exit" if arg.is_empty() => engine.wait_exit(DEFAULT_WAIT),
            // `exit <ms>`: the exit must come within that long of the last line sent (plus
            // the load allowance).
            "exit" => parse_ms(arg).and_then(|(ms, _)| {
                let deadline = engine.last_send + ms + LOAD_ALLOWANCE;
                engine.wait_exit(deadline.saturating_duration_since(Instant::now()))
            }),
            other => Err(format!("unknown transcript operation '{other}'")),
        };
        if let Err(e) = step {
            result = Err(format!("line {}: `{line}`: {e}", n + 1));
            break;
        }
    }
    if result.is_ok() && !engine.exited {
        // Leave politely; the transcript did not test the exit.
        let _ = engine.send("quit");
        engine.stdin = None;
        result = engine.wait_exit(Duration::from_secs(5));
    }
    let _ = engine.child.kill();
    let stderr = engine
        .stderr
        .recv_timeout(Duration::from_secs(2))
        .unwrap_or_default();
    if result.is_ok() && stderr.contains("panicked") {
        result = Err(format!("the engine panicked:\n{stderr}"));
    }
    result.map_err(|e| {
        let tail: Vec<&String> = engine.seen.iter().rev().take(25).collect();
        let mut report = format!("{}: {e}\n--- last lines (>> = sent) ---\n", path.display());
        for l in tail.into_iter().rev() {
            report.push_str(l);
            report.push('\n');
        }
        report
    })
}

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("protocol-tests/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        // `QILIN_TRANSCRIPTS=text` runs only the dialogues whose file names contain it.
        .filter(|p| {
            std::env::var("QILIN_TRANSCRIPTS").map_or(true, |only| {
                p.file_name()
                    .is_some_and(|name| name.to_string_lossy().contains(only.as_str()))
            })
        })
        .collect();
    files.sort();
    files
}

#[test]
fn glob_patterns() {
    assert!(matches("bestmove *", "bestmove h2e2 ponder h9g7"));
    assert!(matches(
        "info depth ? score *",
        "info depth 1 score 0 pv h2e2"
    ));
    assert!(!matches("bestmove ????", "bestmove h2e2 ponder h9g7"));
    assert!(matches("readyok", "readyok"));
    assert!(!matches("readyok", "readyok2"));
    assert!(matches("#,#", "12,3"));
    assert!(!matches("#,#", "MESSAGE pv 1,2"));
    assert!(!matches("#,#", ",3"));
    assert!(matches("#,# #,#", "1,2 10,11"));
}

#[test]
fn protocol_transcripts() {
    let files = transcripts();
    assert!(!files.is_empty(), "no transcripts found");
    // A few dialogues at a time: they mostly wait, but the machine may be small.
    let mut failures = Vec::new();
    for chunk in files.chunks(4) {
        let handles: Vec<_> = chunk
            .iter()
            .cloned()
            .map(|p| std::thread::spawn(move || run_transcript(&p)))
            .collect();
        for h in handles {
            match h.join() {
                Ok(Ok(())) => {}
                Ok(Err(report)) => failures.push(report),
                Err(_) => failures.push("a transcript runner panicked".to_string()),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} transcripts failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// `stop` is answered with `bestmove` at once: long before an infinite search or one with
/// ten minutes on the clock would end by itself. The bound (1 s) holds on a loaded machine;
/// the latency itself is measured by `scripts/stop-latency.py`.
#[test]
fn stop_latency() {
    let mut engine = Engine::start();
    let wait = |e: &mut Engine, p: &str| e.expect(p, Instant::now() + DEFAULT_WAIT);
    engine.send("uci").expect("send");
    wait(&mut engine, "uciok").expect("uciok");
    for round in 0..6 {
        let go = if round % 2 == 0 {
            "go infinite"
        } else {
            "go wtime 600000 btime 600000"
        };
        engine.send("position startpos moves h2e2").expect("send");
        engine.send(go).expect("send");
        std::thread::sleep(Duration::from_millis(40));
        engine.send("stop").expect("send");
        let sent = engine.last_send;
        engine
            .expect("bestmove *", sent + Duration::from_secs(1))
            .unwrap_or_else(|e| panic!("{go}: stop not answered within 1 s: {e}"));
    }
    engine.send("quit").expect("send");
    engine.wait_exit(Duration::from_secs(5)).expect("exit");
}
