//! An engine child process: piped stdin and stdout, a reader thread that stamps every line
//! with its arrival time and forwards it over a channel, so that every wait has a deadline,
//! and a protocol log shared by all engines.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

use super::args::EngineSpec;

/// Longest line kept from an engine; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// `--log FILE`: every line sent to and received from every engine, with the time since the
/// match started, the engine's name and process id, and the direction (`>` to the engine,
/// `<` from it, `!` for runner notes such as a kill).
#[derive(Debug)]
pub struct ProtocolLog {
    file: Mutex<BufWriter<File>>,
    origin: Instant,
}

impl ProtocolLog {
    /// Creates (truncates) the log file.
    pub fn create(path: &Path) -> io::Result<ProtocolLog> {
        Ok(ProtocolLog {
            file: Mutex::new(BufWriter::new(File::create(path)?)),
            origin: Instant::now(),
        })
    }

    /// Appends one line. Write errors are ignored: a full disk must not stop a match.
    pub fn record(&self, engine: &str, pid: u32, direction: char, text: &str, at: Instant) {
        let millis = at.saturating_duration_since(self.origin).as_millis();
        if let Ok(mut file) = self.file.lock() {
            let _ = writeln!(
                file,
                "{}.{:03} {engine}({pid}) {direction} {text}",
                millis / 1000,
                millis % 1000
            );
            let _ = file.flush();
        }
    }
}

/// What the reader thread forwards.
#[derive(Debug)]
enum ReaderEvent {
    /// A line (without its line ending) and when it arrived.
    Line(String, Instant),
    /// Standard output closed (the process exited or closed it).
    Closed,
}

/// Why a wait for a line ended without one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed.
    Timeout,
    /// The engine's output closed: it exited or crashed.
    Closed,
}

/// A running engine process.
#[derive(Debug)]
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<ReaderEvent>,
    log: Option<Arc<ProtocolLog>>,
    closed: bool,
}

/// Reads one line of at most [`MAX_LINE_BYTES`] bytes, dropping the excess; `None` at end.
fn read_capped_line(reader: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut read_any = false;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(read_any.then_some(line));
        }
        read_any = true;
        let (chunk, used, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], end + 1, true),
            None => (buffer, buffer.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        reader.consume(used);
        if done {
            return Ok(Some(line));
        }
    }
}

fn reader_loop(
    output: impl Read,
    sender: crossbeam_channel::Sender<ReaderEvent>,
    log: Option<Arc<ProtocolLog>>,
    name: String,
    pid: u32,
) {
    let mut reader = BufReader::new(output);
    while let Ok(Some(bytes)) = read_capped_line(&mut reader) {
        let at = Instant::now();
        let text = String::from_utf8_lossy(&bytes);
        // A CR alone also ends a line (Piskvork allows CR, LF or CR LF).
        for part in text.split('\r') {
            if part.trim().is_empty() {
                continue;
            }
            if let Some(log) = &log {
                log.record(&name, pid, '<', part, at);
            }
            if sender
                .send(ReaderEvent::Line(part.to_string(), at))
                .is_err()
            {
                return;
            }
        }
    }
    let _ = sender.send(ReaderEvent::Closed);
}

impl EngineProcess {
    /// Starts the engine's program with piped standard input and output (standard error is
    /// discarded).
    pub fn spawn(spec: &EngineSpec, log: Option<Arc<ProtocolLog>>) -> io::Result<EngineProcess> {
        let mut command = Command::new(&spec.command);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn()?;
        let pid = child.id();
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("no pipes to the engine"));
        };
        let (sender, lines) = unbounded();
        let reader_log = log.clone();
        let reader_name = spec.name.clone();
        let spawned = thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || reader_loop(stdout, sender, reader_log, reader_name, pid));
        if let Err(error) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(error);
        }
        if let Some(log) = &log {
            log.record(&spec.name, pid, '!', "started", Instant::now());
        }
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin: Some(stdin),
            lines,
            log,
            closed: false,
        })
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line; returns the moment it was handed to the pipe. An error means the
    /// engine is gone.
    pub fn send(&mut self, line: &str) -> io::Result<Instant> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "engine closed"));
        };
        // Logged first, so that the log never shows a reply before its command.
        if let Some(log) = &self.log {
            log.record(&self.name, self.child.id(), '>', line, Instant::now());
        }
        let mut message = Vec::with_capacity(line.len() + 1);
        message.extend_from_slice(line.as_bytes());
        message.push(b'\n');
        stdin.write_all(&message)?;
        stdin.flush()?;
        Ok(Instant::now())
    }

    /// The next line and its arrival time, waiting at most until `deadline`.
    pub fn receive(&mut self, deadline: Instant) -> Result<(String, Instant), WaitError> {
        if self.closed {
            return Err(WaitError::Closed);
        }
        match self.lines.recv_deadline(deadline) {
            Ok(ReaderEvent::Line(text, at)) => Ok((text, at)),
            Ok(ReaderEvent::Closed) | Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(WaitError::Closed)
            }
            Err(RecvTimeoutError::Timeout) => {
                // A line stamped in time may have been queued just as the wait ended.
                match self.lines.try_recv() {
                    Ok(ReaderEvent::Line(text, at)) => Ok((text, at)),
                    Ok(ReaderEvent::Closed) => {
                        self.closed = true;
                        Err(WaitError::Closed)
                    }
                    Err(_) => Err(WaitError::Timeout),
                }
            }
        }
    }

    /// Notes something in the protocol log (a kill, a forfeit).
    pub fn note(&self, text: &str) {
        if let Some(log) = &self.log {
            log.record(&self.name, self.child.id(), '!', text, Instant::now());
        }
    }

    /// Kills the process and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.note("killed");
    }

    /// Sends `quit_line`, waits up to `grace` for the engine to close its output, then kills
    /// it if it is still running.
    pub fn shut_down(mut self, quit_line: &str, grace: Duration) {
        let deadline = Instant::now() + grace;
        if self.send(quit_line).is_ok() {
            self.stdin = None;
            while let Ok(_line) = self.receive(deadline) {}
        }
        match self.child.try_wait() {
            Ok(Some(_status)) => self.note("exited"),
            _ => self.kill(),
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_capped_and_split() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 100];
        text.extend_from_slice(b"\nshort\nlast");
        let mut reader = BufReader::with_capacity(1000, text.as_slice());
        assert_eq!(
            read_capped_line(&mut reader).unwrap().map(|l| l.len()),
            Some(MAX_LINE_BYTES)
        );
        assert_eq!(
            read_capped_line(&mut reader).unwrap(),
            Some(b"short".to_vec())
        );
        assert_eq!(
            read_capped_line(&mut reader).unwrap(),
            Some(b"last".to_vec())
        );
        assert_eq!(read_capped_line(&mut reader).unwrap(), None);
    }
}
