//! The fuzz targets' bodies (`fuzz/`, run with `cargo fuzz`), here so that the normal test
//! suite can replay the committed corpora and every crash found through the same code
//! (`tests/fuzz_corpus.rs`). Each takes arbitrary bytes and panics only on a defect.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::gomoku::Rule;
use crate::protocol::text::piskvork::PiskvorkReader;
use crate::tournament::args::GameChoice;
use crate::tournament::openings::parse_openings;
use crate::tournament::referee::new_referee;
use crate::xiangqi::Position;

/// A fuzz target: takes any bytes, panics only on a defect.
pub type Target = fn(&[u8]);

/// The fuzz targets by name, for replaying a corpus directory named after each.
pub const TARGETS: [(&str, Target); 7] = [
    ("uci_line", uci_line),
    ("ucci_line", ucci_line),
    ("piskvork_lines", piskvork_lines),
    ("fen", fen),
    ("xiangqi_referee", xiangqi_referee),
    ("gomoku_referee", gomoku_referee),
    ("engine_loop", engine_loop),
];

/// The UCI line parser: any line parses to a command or a typed error, never a panic, and
/// the error's text is one short line.
pub fn uci_line(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    if let Err(error) = crate::protocol::text::uci::parse(&line) {
        let text = error.to_string();
        assert!(!text.contains('\n') && !text.contains('\r'), "{text:?}");
    }
}

/// The UCCI line parser: any line parses to a command or a typed error, never a panic, and
/// the error's text is one short line.
pub fn ucci_line(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    if let Err(error) = crate::protocol::text::ucci::parse(&line) {
        let text = error.to_string();
        assert!(!text.contains('\n') && !text.contains('\r'), "{text:?}");
    }
}

/// The Piskvork reader, which keeps state across lines (BOARD, YXBOARD and SWAP2BOARD blocks
/// run until DONE): every line of the input in turn, never a panic.
pub fn piskvork_lines(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut reader = PiskvorkReader::default();
    for line in text.split('\n') {
        let parsed = reader.parse(line).err();
        for error in reader.take_interrupted().into_iter().chain(parsed) {
            let text = error.to_string();
            assert!(!text.contains('\n') && !text.contains('\r'), "{text:?}");
        }
    }
}

/// The Xiangqi FEN parser: a FEN that parses writes back a FEN that parses to the same
/// position, and the position's legal moves can be generated and played.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(mut position) = Position::from_fen(&text) else {
        return;
    };
    let fen = position.fen();
    let again = Position::from_fen(&fen).expect("a written FEN parses");
    assert_eq!(again.fen(), fen);
    for &mv in position.legal_moves().iter() {
        position.make_move(mv);
        position.unmake_move();
    }
    assert_eq!(position.fen(), fen);
}

/// What `qilin match` and `qilin referee` take from files and engines for Xiangqi: an
/// openings file (EPD/FEN lines with moves), then a game judged move by move from each
/// opening, with moves as an engine might send them. Never a panic; a finished game takes
/// no more moves.
pub fn xiangqi_referee(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // The openings file, then (after a line "--") the moves the engines send.
    let (file, moves) = text.split_once("\n--\n").unwrap_or((&text, ""));
    let Ok(openings) = parse_openings(file, "fuzz", GameChoice::Xiangqi) else {
        return;
    };
    for opening in openings.iter().take(4) {
        let Ok(mut referee) = new_referee(GameChoice::Xiangqi, opening, Some(60)) else {
            continue;
        };
        for mv in moves.split_whitespace() {
            if referee.outcome().is_some() {
                assert!(referee.play(mv).is_err() || referee.outcome().is_some());
                break;
            }
            let before = referee.moves().len();
            match referee.play(mv) {
                Ok(()) => assert_eq!(referee.moves().len(), before + 1),
                Err(_) => assert_eq!(referee.moves().len(), before),
            }
        }
    }
}

const RULES: [Rule; 5] = [
    Rule::Freestyle,
    Rule::Standard,
    Rule::Renju,
    Rule::Caro,
    Rule::CaroExact,
];

/// What `qilin match --game gomoku` takes from files and engines: a board size and rule
/// from the first bytes, an openings file (Piskvork offsets), then moves as engines send
/// them, judged by the rules core (renju forbidden points, caro blocked fives). Never a
/// panic; a refused move leaves the game as it was.
pub fn gomoku_referee(data: &[u8]) {
    let [w, h, r, rest @ ..] = data else {
        return;
    };
    let game = GameChoice::Gomoku {
        width: 1 + (*w as usize % 32),
        height: 1 + (*h as usize % 32),
        rule: RULES[*r as usize % RULES.len()],
    };
    let text = String::from_utf8_lossy(rest);
    let (file, moves) = text.split_once("\n--\n").unwrap_or(("0,0", &text));
    let Ok(openings) = parse_openings(file, "fuzz", game) else {
        return;
    };
    for opening in openings.iter().take(4) {
        let Ok(mut referee) = new_referee(game, opening, None) else {
            continue;
        };
        for mv in moves.split_whitespace() {
            if referee.outcome().is_some() {
                break;
            }
            let before = referee.moves().len();
            match referee.play(mv) {
                Ok(()) => assert_eq!(referee.moves().len(), before + 1),
                Err(_) => assert_eq!(referee.moves().len(), before),
            }
        }
    }
}

/// Output kept for the checks after the session.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // Keep at most a megabyte; the rest is only counted as written.
        let room = (1usize << 20).saturating_sub(out.len());
        out.extend_from_slice(&buf[..buf.len().min(room)]);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The input with its limits made tiny (see the module comment).
fn tame(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split('\n') {
        let mut previous = "";
        let mut words = Vec::new();
        for word in line.split(' ') {
            let lower = previous.to_ascii_lowercase();
            let tamed = match word.parse::<u64>() {
                Ok(n) if matches!(lower.as_str(), "depth" | "perft" | "mate" | "threads") => {
                    (n % 4).to_string()
                }
                Ok(n) if n > 99 => (n % 100).to_string(),
                _ => word.to_string(),
            };
            words.push(tamed);
            previous = word;
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

/// The whole engine in-process: the input's lines go to a session exactly as stdin would
/// (the first command chooses UCI, UCCI or Piskvork), until the end of input. Limits are made
/// tiny so each run takes milliseconds: numbers after depth/perft/mate/threads become 0-3 and
/// every other number over 99 is taken modulo 100 (times in ms, nodes, hash sizes). The
/// session must return (libFuzzer's -timeout catches a hang), never panic, and print only
/// plain lines (no control characters but the line ends), and no search may fail.
pub fn engine_loop(data: &[u8]) {
    let text = tame(&String::from_utf8_lossy(data));
    let output = Captured::default();
    let input = std::io::Cursor::new(text.into_bytes());
    let _ = crate::protocol::run_session(input, output.clone());
    let printed = output.0.lock().unwrap_or_else(|e| e.into_inner());
    let printed = String::from_utf8_lossy(&printed);
    for line in printed.lines() {
        assert!(
            !line.chars().any(|c| c.is_control() && c != '\r'),
            "a control character in {line:?}"
        );
        // A search that panicked is caught and answered for; it is still a defect.
        assert!(!line.contains("search failed ("), "{line}");
    }
}
