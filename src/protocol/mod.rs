//! Text protocols: the stdin/stdout loop that speaks UCCI or UCI for Xiangqi and Piskvork
//! (Gomocup) for Gomoku; the first line decides.
//!
//! Layout, and the threads that run each part:
//! - this file: protocol detection ([`detect`]), the reader thread's `LineReader` (one stdin
//!   line to typed inputs), the stdio loop ([`run_stdio`], [`run_session`]) that hands the
//!   engine thread to the session of the detected game, and the Xiangqi engine's [`Options`].
//! - [`text`]: protocol text both ways, one file per protocol: `text/uci.rs`, `text/ucci.rs`,
//!   `text/piskvork.rs` (line parser and output lines), over the shared vocabulary of
//!   `text/command.rs` ([`Command`], [`ParseError`], [`Protocol`]) and the nom helpers of
//!   `text/parse.rs`. Run by the reader thread (parsing) and the engine thread (formatting).
//! - `session/`: the engine thread's sessions. `session/shared.rs` is the core every game
//!   shares (select loop, queue, search-thread trips, watchdog); `session/xiangqi.rs` is the
//!   UCI/UCCI session, `session/gomoku.rs` the Piskvork one. Game decisions (Swap2, the
//!   quick move, rule numbers) are the game's, in [`crate::gomoku`].
//!
//! Shape: a reader thread turns each stdin line into a typed [`Command`] (nom parsers, typed
//! [`ParseError`]s, never a panic) and sends it over a channel to the engine thread, which
//! owns all state (position, options, the searcher). `go` moves the searcher onto a search
//! thread together with a shared [`SearchControl`](crate::engine::SearchControl); the search
//! reports [`SearchInfo`](crate::engine::SearchInfo) structs and hands the searcher back with
//! its [`SearchOutcome`](crate::engine::SearchOutcome) over a second channel. Only this layer (the
//! sessions, through `text/`) turns those structs into protocol text.
//!
//! Bad input is answered with one `info string <reason>` line (UCI and UCCI alike; Piskvork:
//! `ERROR`/`UNKNOWN`), the previous state is kept and the engine keeps working.

mod session;
pub mod text;

use std::io::{self, BufRead, Read, Write};
use std::time::Instant;

use crossbeam_channel::Sender;

pub use text::command::{Command, ParseError, Protocol};
pub use text::piskvork::DEFAULT_MAX_MEMORY;
use text::{piskvork, ucci, uci};

/// The Xiangqi searcher the UCI and UCCI sessions drive.
pub use crate::xiangqi::search::{HashProbe, SearchParams, Searcher};

/// Name announced in `id name`.
pub const ENGINE_NAME: &str = "Qilin";
/// Version announced in `id name` / `id version`.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Author announced in `id author`.
pub const ENGINE_AUTHOR: &str = "the Qilin developers";

/// Default hash size in MB (also what UCCI's `hashsize 0`, "automatic", means).
pub const DEFAULT_HASH_MB: usize = 16;
/// Default move overhead in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

/// The engine's settable options, shared by both protocols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report (UCI).
    pub multipv: u32,
    /// Whether the GUI may ponder.
    pub ponder: bool,
    /// Milliseconds kept back on every move.
    pub move_overhead_ms: u64,
    /// UCCI: `go` times are milliseconds (else seconds).
    pub usemillisec: bool,
    /// UCCI batch mode: commands other than `isready`, `stop`, `ponderhit` and `quit` wait
    /// silently while thinking.
    pub batch: bool,
    /// UCCI debug output.
    pub debug: bool,
    /// Randomness of the move choice, 0 = off.
    pub randomness: u32,
    /// UCCI `usebook` (no book yet).
    pub usebook: bool,
    /// UCCI `bookfiles`.
    pub bookfiles: String,
    /// Evaluate with the network (`UseNNUE`) instead of the tuned evaluation.
    pub use_nnue: bool,
    /// The network file loaded (`EvalFile`); empty for the embedded network.
    pub eval_file: String,
}

/// The name `EvalFile` shows for the network built into the binary.
pub const EMBEDDED_NET_NAME: &str = "<embedded>";

impl Options {
    /// The `EvalFile` value to show: the file, or `<embedded>`.
    pub fn eval_file_shown(&self) -> &str {
        if self.eval_file.is_empty() {
            EMBEDDED_NET_NAME
        } else {
            &self.eval_file
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            usemillisec: true,
            batch: false,
            debug: false,
            randomness: 0,
            usebook: false,
            bookfiles: String::new(),
            use_nnue: true,
            eval_file: String::new(),
        }
    }
}

/// What the reader thread sends to the engine thread.
#[derive(Debug)]
pub(crate) enum Input {
    /// The first line chose this protocol (sent before its first command).
    Detected(Protocol),
    /// A well-formed command, stamped with the moment its line was read (clocks start there).
    Command(Command, Instant),
    /// A line that could not be parsed.
    Bad(ParseError),
    /// Standard input is closed.
    Eof,
}

/// The Piskvork commands that may open a session (any case): a manager starts with one of
/// them, while words such as `BEGIN` or `END` mean nothing before a board exists.
const PISKVORK_OPENERS: [&str; 4] = ["START", "RECTSTART", "INFO", "ABOUT"];

/// The protocol a first word selects, if any: `ucci`, `uci` (lower case, as the protocols
/// spell them) or a Piskvork opener.
pub fn detect(first_word: &str) -> Option<Protocol> {
    match first_word {
        "ucci" => Some(Protocol::Ucci),
        "uci" => Some(Protocol::Uci),
        w if PISKVORK_OPENERS
            .iter()
            .any(|opener| w.eq_ignore_ascii_case(opener)) =>
        {
            Some(Protocol::Piskvork)
        }
        _ => None,
    }
}

/// True for the words that end a session before any protocol was chosen: `quit` (UCI and
/// UCCI) and `END` (Piskvork, any case).
fn ends_undecided(first_word: &str) -> bool {
    first_word == "quit" || first_word.eq_ignore_ascii_case("END")
}

/// Turns one line into what the engine thread should get, detecting the protocol on the first
/// non-empty line. `None` for blank lines.
pub(crate) struct LineReader {
    protocol: Option<Protocol>,
    piskvork: piskvork::PiskvorkReader,
}

impl LineReader {
    /// A reader that has not seen a protocol yet.
    pub(crate) fn new() -> LineReader {
        LineReader {
            protocol: None,
            piskvork: piskvork::PiskvorkReader::default(),
        }
    }

    /// The inputs one line produces (zero, one, or the detection plus the command).
    pub(crate) fn read(&mut self, line: &str, at: Instant) -> Vec<Input> {
        // A byte order mark (some GUIs write one before their first line) is not a command.
        let line = line.trim().trim_start_matches('\u{feff}').trim_start();
        let Some(first) = line.split_whitespace().next() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let protocol = match self.protocol {
            Some(p) => p,
            None => match detect(first) {
                Some(p) => {
                    self.protocol = Some(p);
                    out.push(Input::Detected(p));
                    p
                }
                None if ends_undecided(first) => return vec![Input::Command(Command::Quit, at)],
                None => return vec![Input::Bad(ParseError::NoProtocol(first.to_string()))],
            },
        };
        let parsed = match protocol {
            Protocol::Ucci => ucci::parse(line).map(Some),
            Protocol::Uci => uci::parse(line).map(Some),
            Protocol::Piskvork => {
                let parsed = self.piskvork.parse(line);
                out.extend(self.piskvork.take_interrupted().map(Input::Bad));
                parsed
            }
        };
        match parsed {
            Ok(Some(cmd)) => out.push(Input::Command(cmd, at)),
            Ok(None) => {}
            Err(e) => out.push(Input::Bad(e)),
        }
        out
    }
}

/// The reader thread's loop: one line at a time until end of input. Invalid UTF-8 is
/// replaced, never fatal.
fn read_lines(mut input: impl BufRead, tx: Sender<Input>) {
    let mut reader = LineReader::new();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let at = Instant::now();
                let line = String::from_utf8_lossy(&buf);
                for item in reader.read(&line, at) {
                    if tx.send(item).is_err() {
                        return;
                    }
                }
            }
        }
    }
    let _ = tx.send(Input::Eof);
}

/// The answer to a bad line before any protocol was chosen: Piskvork's form for a Piskvork
/// command that cannot open a session (`TURN`, `BEGIN`, ...), `info string error:` otherwise.
fn undecided_error(error: &ParseError) -> String {
    match error {
        ParseError::NoProtocol(word) if piskvork::is_piskvork_word(word) => {
            "ERROR no board: send START first".to_string()
        }
        _ => format!("info string error: {error}"),
    }
}

/// Runs the protocol loop on stdin/stdout until `quit` (or end of input). Returns the process
/// exit code.
pub fn run_stdio() -> i32 {
    run_session(io::stdin(), io::stdout())
}

/// Runs one session that reads `input` and writes to `output` until `quit` or the end of
/// input, the first command choosing the protocol: what `qilin` does on stdin/stdout, and
/// what the engine-loop fuzz target drives in-process. Returns the exit code.
pub fn run_session(input: impl Read + Send + 'static, output: impl Write + 'static) -> i32 {
    let (tx, rx) = crossbeam_channel::unbounded();
    let reader = std::thread::Builder::new()
        .name("qilin-reader".into())
        .spawn(move || read_lines(io::BufReader::new(input), tx));
    if let Err(e) = reader {
        eprintln!("qilin: cannot start the input thread: {e}");
        return 1;
    }
    // Until a line names a protocol (which says which game the session is for), every other
    // line gets one error line; `quit`, `END` and the end of input leave. The reader thread
    // stays blocked on its input when we quit; the process exit ends it.
    let mut output = output;
    loop {
        match rx.recv().unwrap_or(Input::Eof) {
            Input::Detected(Protocol::Piskvork) => {
                return session::gomoku::GomokuSession::<_, session::gomoku::DefaultSearcher>::new(
                    rx, output,
                )
                .run();
            }
            first @ Input::Detected(_) => {
                return session::xiangqi::XiangqiSession::new(rx, output).run_from(first);
            }
            Input::Bad(e) => {
                let sent =
                    writeln!(output, "{}", undecided_error(&e)).and_then(|()| output.flush());
                if sent.is_err() {
                    return 0;
                }
            }
            Input::Command(..) | Input::Eof => return 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_line_decides_the_protocol() {
        let now = Instant::now();
        let mut r = LineReader::new();
        assert!(r.read("   ", now).is_empty());
        let items = r.read("ucci", now);
        assert!(matches!(items[0], Input::Detected(Protocol::Ucci)));
        assert!(matches!(
            items[1],
            Input::Command(Command::Handshake(Protocol::Ucci), _)
        ));
        // A later `uci` is parsed as a handshake request the engine thread declines.
        let items = r.read("uci", now);
        assert_eq!(items.len(), 1);
        assert!(matches!(
            items[0],
            Input::Command(Command::Handshake(Protocol::Uci), _)
        ));

        // A UTF-8 byte order mark before the first command is ignored.
        let mut r = LineReader::new();
        let items = r.read("\u{feff}uci\r\n", now);
        assert!(matches!(items[0], Input::Detected(Protocol::Uci)));
        assert!(matches!(
            r.read("isready", now)[0],
            Input::Command(Command::IsReady, _)
        ));
        assert!(r.read("\u{feff}", now).is_empty());

        let mut r = LineReader::new();
        assert!(matches!(r.read("hello", now)[0], Input::Bad(_)));
        assert!(matches!(
            r.read("START 15", now)[0],
            Input::Detected(Protocol::Piskvork)
        ));

        // Only `uci`, `ucci` and the Piskvork openers choose; `END` and `quit` leave.
        let mut r = LineReader::new();
        for stray in ["UCI", "isready", "DEBUG x", "BEGIN", "\u{1}\u{fffd}"] {
            assert!(matches!(r.read(stray, now)[..], [Input::Bad(_)]), "{stray}");
        }
        for leave in ["END", "end", "quit"] {
            assert!(matches!(
                LineReader::new().read(leave, now)[..],
                [Input::Command(Command::Quit, _)]
            ));
        }
        for opener in ["RECTSTART 15,15", "info timeout_turn 1000", "ABOUT"] {
            assert!(matches!(
                LineReader::new().read(opener, now)[0],
                Input::Detected(Protocol::Piskvork)
            ));
        }
    }
}

#[cfg(test)]
mod fuzz {
    use super::*;

    /// Deterministic pseudo-random numbers (xorshift), so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[(self.next() % items.len() as u64) as usize]
        }
    }

    const WORDS: [&str; 48] = [
        "ucci",
        "uci",
        "go",
        "position",
        "fen",
        "startpos",
        "moves",
        "setoption",
        "name",
        "value",
        "depth",
        "infinite",
        "nodes",
        "time",
        "movestogo",
        "increment",
        "opptime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movetime",
        "mate",
        "ponder",
        "draw",
        "searchmoves",
        "perft",
        "banmoves",
        "probe",
        "ponderhit",
        "stop",
        "quit",
        "isready",
        "d",
        "h2e2",
        "H2-E2",
        "j9z9",
        "-1",
        "0",
        "12",
        "1.5",
        "99999999999999999999",
        "é中",
        "-",
        ".",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "w",
        "Hash",
    ];

    #[test]
    fn random_lines_never_panic() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let now = Instant::now();
        for _ in 0..20_000 {
            let n = rng.next() % 8;
            let mut line = String::new();
            for _ in 0..n {
                line.push_str(rng.pick(&WORDS));
                line.push_str(rng.pick(&[" ", "  ", "\t", " "]));
            }
            // Both parsers directly, and the detecting reader.
            let _ = ucci::parse(&line);
            let _ = uci::parse(&line);
            let mut reader = LineReader::new();
            let _ = reader.read(&line, now);
            let _ = reader.read(&line, now);
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = Rng(12345);
        for _ in 0..20_000 {
            let len = (rng.next() % 24) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| (rng.next() % 256) as u8).collect();
            let line = String::from_utf8_lossy(&bytes);
            let _ = ucci::parse(&line);
            let _ = uci::parse(&line);
        }
    }
}
