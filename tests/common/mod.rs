//! A `qilin` process driven a line at a time, for the integration tests that need code rather
//! than a transcript (`protocol-tests/`).
#![allow(dead_code)] // each test binary uses only some of the helpers

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// How long an answer may take before the test fails.
const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// The engine as a child process; every line sent (marked `>>`) and received is kept.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The dialogue so far.
    pub seen: Vec<String>,
}

impl Engine {
    /// Starts the built `qilin` with the environment variables `env` set.
    pub fn start_with(env: &[(&str, &str)]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_qilin"));
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start qilin");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.seen.push(format!(">> {line}"));
        writeln!(self.stdin, "{line}").expect("write");
    }

    /// Sends `line` and returns the first answer `wanted` accepts.
    pub fn ask(&mut self, line: &str, wanted: impl Fn(&str) -> bool) -> String {
        self.send(line);
        self.wait(wanted)
    }

    /// The next output line `wanted` accepts (the test fails after 10 s).
    pub fn wait(&mut self, wanted: impl Fn(&str) -> bool) -> String {
        self.wait_within(ANSWER_WAIT, wanted)
    }

    /// The next output line `wanted` accepts; the test fails when no line at all comes for
    /// `patience`.
    pub fn wait_within(&mut self, patience: Duration, wanted: impl Fn(&str) -> bool) -> String {
        loop {
            match self.lines.recv_timeout(patience) {
                Ok(answer) => {
                    self.seen.push(answer.clone());
                    if wanted(&answer) {
                        return answer;
                    }
                }
                Err(_) => panic!("no answer; the dialogue so far:\n{}", self.tail()),
            }
        }
    }

    /// The last 30 lines of the dialogue.
    pub fn tail(&self) -> String {
        let start = self.seen.len().saturating_sub(30);
        self.seen[start..].join("\n")
    }

    /// How many received lines start with `prefix`.
    pub fn notes(&self, prefix: &str) -> usize {
        self.seen.iter().filter(|l| l.starts_with(prefix)).count()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
