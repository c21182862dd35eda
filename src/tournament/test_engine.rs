//! A small fake engine for testing the match runner: `qilin test-engine --mode MODE
//! [--proto uci|ucci|piskvork] [--seed N] [--after N] [--delay MS] [--score CP]
//! [--about reply|unknown|silent|late]`.
//!
//! Modes: `random` plays random legal moves drawn from the seed and the position (the same
//! position gets the same move in any process); `illegal`, `crash`, `hang`, `garbage`,
//! `resign` and `nomove` play random legal moves for their first `--after` moves (default 0)
//! and then, when asked for a move, play a well-formed illegal move, exit with status 3, stop
//! answering (and ignore everything, `quit` included), print a line that is not the protocol,
//! resign with their move (UCCI `bestmove m resign`), or claim to have no move
//! (`bestmove (none)`, `nobestmove`). Gomoku only: `occupied` and `offboard` play a stone
//! on an occupied point (the first stone on the board) or just right of the board (`W,0`);
//! for Xiangqi they play an illegal move as `illegal` does. `--delay` waits
//! before every move; `--score` is the score reported in an `info` line before every move;
//! `--ranks 1` numbers ranks 1-10 in UCI moves, as Fairy-Stockfish does. Piskvork `ABOUT`
//! is answered with `name="qilin-test-engine", version="1"` (`reply`, the default), with
//! `UNKNOWN` (`unknown`), not at all (`silent`), or only just before the first move
//! (`late`). Random Gomoku moves are any free point (no rule knowledge).

use std::io::{self, BufRead, Write};
use std::thread;
use std::time::Duration;

use super::player::{ranks_from_one_based, ranks_to_one_based};
use super::rng::{SplitMix64, stable_hash};
use crate::xiangqi::{Move, Position, START_FEN, Square};

/// How the test engine behaves once its good moves are used up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Random,
    Illegal,
    Crash,
    Hang,
    Garbage,
    Resign,
    NoMove,
    Occupied,
    OffBoard,
}

/// How the Piskvork test engine answers `ABOUT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum About {
    Reply,
    Unknown,
    Silent,
    Late,
}

/// The test engine's answer to `ABOUT`.
const ABOUT_LINE: &str =
    "name=\"qilin-test-engine\", version=\"1\", author=\"the Qilin developers\"";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proto {
    Uci,
    Ucci,
    Piskvork,
}

struct Settings {
    mode: Mode,
    proto: Proto,
    seed: u64,
    after: u32,
    delay: Duration,
    score: i32,
    ranks_one_based: bool,
    about: About,
}

fn parse_settings(args: &[String]) -> Result<Settings, String> {
    let mut settings = Settings {
        mode: Mode::Random,
        proto: Proto::Uci,
        seed: 1,
        after: 0,
        delay: Duration::ZERO,
        score: 0,
        ranks_one_based: false,
        about: About::Reply,
    };
    let mut words = args.iter();
    while let Some(flag) = words.next() {
        let value = words
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<i64>()
                .map_err(|_| format!("{flag}: bad number '{value}'"))
        };
        match flag.as_str() {
            "--mode" => {
                settings.mode = match value.as_str() {
                    "random" => Mode::Random,
                    "illegal" => Mode::Illegal,
                    "crash" => Mode::Crash,
                    "hang" => Mode::Hang,
                    "garbage" => Mode::Garbage,
                    "resign" => Mode::Resign,
                    "nomove" => Mode::NoMove,
                    "occupied" => Mode::Occupied,
                    "offboard" => Mode::OffBoard,
                    _ => return Err(format!("unknown mode '{value}'")),
                }
            }
            "--proto" => {
                settings.proto = match value.as_str() {
                    "uci" => Proto::Uci,
                    "ucci" => Proto::Ucci,
                    "piskvork" => Proto::Piskvork,
                    _ => return Err(format!("unknown protocol '{value}'")),
                }
            }
            "--seed" => settings.seed = number()? as u64,
            "--after" => settings.after = number()?.max(0) as u32,
            "--delay" => settings.delay = Duration::from_millis(number()?.max(0) as u64),
            "--score" => settings.score = number()? as i32,
            "--ranks" => settings.ranks_one_based = number()? == 1,
            "--about" => {
                settings.about = match value.as_str() {
                    "reply" => About::Reply,
                    "unknown" => About::Unknown,
                    "silent" => About::Silent,
                    "late" => About::Late,
                    _ => return Err(format!("unknown --about '{value}'")),
                }
            }
            _ => return Err(format!("unknown argument '{flag}'")),
        }
    }
    Ok(settings)
}

/// The state of the fake engine between commands.
struct TestEngine {
    settings: Settings,
    /// Hash of the words of the last Xiangqi `position` command.
    position_key: u64,
    out: io::Stdout,
    moves_played: u32,
    /// Xiangqi position from the last `position` command.
    position: Option<Position>,
    /// Gomoku board: columns, rows and occupied cells.
    width: u32,
    height: u32,
    stones: Vec<(u32, u32)>,
    /// `--about late`: the answer to `ABOUT` is still to be printed.
    about_owed: bool,
    /// Collecting `BOARD` lines.
    in_board: bool,
}

/// What to do after a command.
enum Next {
    Continue,
    Exit(i32),
    Hang,
}

impl TestEngine {
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    fn misbehaving(&self) -> bool {
        self.settings.mode != Mode::Random && self.moves_played >= self.settings.after
    }

    /// The generator of the next random move: seeded from `--seed` and the position (the
    /// words of the `position` command, or the Gomoku stones in order), so that a game
    /// replays move for move whatever the process played before.
    fn move_rng(&self, position_key: u64) -> SplitMix64 {
        SplitMix64::new(self.settings.seed ^ position_key)
    }

    fn set_position(&mut self, words: &[&str]) {
        self.position_key = stable_hash(words.join(" ").as_bytes());
        let moves_at = words.iter().position(|&w| w == "moves");
        let (spec, moves) = match moves_at {
            Some(at) => (&words[..at], &words[at + 1..]),
            None => (words, &[][..]),
        };
        let fen = match spec.first() {
            Some(&"startpos") => START_FEN.to_string(),
            Some(&"fen") => spec[1..].join(" "),
            _ => String::new(),
        };
        let one_based = self.settings.ranks_one_based;
        self.position = Position::from_fen(&fen).ok().and_then(|mut position| {
            for text in moves {
                let converted;
                let text = if one_based {
                    converted = ranks_from_one_based(text)?;
                    converted.as_str()
                } else {
                    text
                };
                let mv = Move::parse(text)?;
                if !position.is_legal(mv) {
                    return None;
                }
                position.make_move(mv);
            }
            Some(position)
        });
    }

    fn xiangqi_move(&mut self) -> String {
        let Some(position) = &self.position else {
            return "a0a1".to_string();
        };
        if self.misbehaving()
            && matches!(
                self.settings.mode,
                Mode::Illegal | Mode::Occupied | Mode::OffBoard
            )
        {
            for from in 0..90 {
                for to in 0..90 {
                    if let (Some(from), Some(to)) =
                        (Square::from_index(from), Square::from_index(to))
                        && from != to
                        && !position.is_legal(Move::new(from, to))
                    {
                        return Move::new(from, to).to_string();
                    }
                }
            }
        }
        let moves = position.legal_moves();
        if moves.is_empty() {
            return "(none)".to_string();
        }
        let index = self.move_rng(self.position_key).below(moves.len());
        moves[index].to_string()
    }

    fn gomoku_move(&mut self) -> String {
        if self.misbehaving() {
            let off_board = format!("{},0", self.width);
            match self.settings.mode {
                Mode::Illegal => {
                    return match self.stones.first() {
                        Some(&(x, y)) => format!("{x},{y}"),
                        None => format!("{},{}", self.width, self.height),
                    };
                }
                Mode::Occupied => {
                    if let Some(&(x, y)) = self.stones.first() {
                        return format!("{x},{y}");
                    }
                }
                Mode::OffBoard => return off_board,
                _ => {}
            }
        }
        let width = self.width;
        let free: Vec<(u32, u32)> = (0..self.height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|cell| !self.stones.contains(cell))
            .collect();
        if free.is_empty() {
            return "0,0".to_string();
        }
        let stones: Vec<String> = self
            .stones
            .iter()
            .map(|(x, y)| format!("{x},{y}"))
            .collect();
        let key = stable_hash(stones.join(" ").as_bytes());
        let (x, y) = free[self.move_rng(key).below(free.len())];
        self.stones.push((x, y));
        format!("{x},{y}")
    }

    /// Answers a move request: misbehaves when due, else plays after the delay.
    fn reply_move(&mut self) -> Next {
        if self.misbehaving() {
            match self.settings.mode {
                Mode::Crash => return Next::Exit(3),
                Mode::Hang => return Next::Hang,
                Mode::Garbage => {
                    self.say("%%% this is not a protocol line %%%");
                    return Next::Continue;
                }
                Mode::NoMove => {
                    let reply = match self.settings.proto {
                        Proto::Uci => "bestmove (none)",
                        Proto::Ucci => "nobestmove",
                        Proto::Piskvork => "ERROR no move",
                    };
                    self.say(reply);
                    return Next::Continue;
                }
                Mode::Random | Mode::Illegal | Mode::Resign | Mode::Occupied | Mode::OffBoard => {}
            }
        }
        if self.about_owed {
            self.about_owed = false;
            self.say(ABOUT_LINE);
        }
        if !self.settings.delay.is_zero() {
            thread::sleep(self.settings.delay);
        }
        let score = self.settings.score;
        let reply = match self.settings.proto {
            Proto::Piskvork => {
                let mv = self.gomoku_move();
                self.say(&format!("MESSAGE random move, score {score}"));
                mv
            }
            Proto::Uci => {
                let mv = self.xiangqi_move();
                let mv = if self.settings.ranks_one_based {
                    ranks_to_one_based(&mv)
                } else {
                    mv
                };
                self.say(&format!("info depth 1 score cp {score} nodes 1 pv {mv}"));
                format!("bestmove {mv}")
            }
            Proto::Ucci => {
                let mv = self.xiangqi_move();
                self.say(&format!("info depth 1 score {score} pv {mv}"));
                if mv == "(none)" {
                    "nobestmove".to_string()
                } else if self.misbehaving() && self.settings.mode == Mode::Resign {
                    format!("bestmove {mv} resign")
                } else {
                    format!("bestmove {mv}")
                }
            }
        };
        self.moves_played += 1;
        self.say(&reply);
        Next::Continue
    }

    fn handle(&mut self, line: &str) -> Next {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return Next::Continue;
        };
        if self.settings.proto == Proto::Piskvork {
            return self.handle_piskvork(line, &words);
        }
        match first {
            "uci" if self.settings.proto == Proto::Ucci => self.say("unknown command uci"),
            "ucci" if self.settings.proto == Proto::Uci => self.say("Unknown command: 'ucci'"),
            "uci" => {
                self.say("id name qilin-test-engine");
                self.say("id author the Qilin developers");
                self.say("option name Hash type spin default 16 min 1 max 1024");
                self.say("uciok");
            }
            "ucci" => {
                self.say("id name qilin-test-engine");
                self.say("option usemillisec type check default false");
                self.say("ucciok");
            }
            "isready" => self.say("readyok"),
            "position" => self.set_position(&words[1..]),
            "go" => return self.reply_move(),
            "quit" => {
                if self.settings.proto == Proto::Ucci {
                    self.say("bye");
                }
                return Next::Exit(0);
            }
            _ => {}
        }
        Next::Continue
    }

    fn handle_piskvork(&mut self, line: &str, words: &[&str]) -> Next {
        let first = words[0].to_ascii_uppercase();
        if self.in_board {
            if first == "DONE" {
                self.in_board = false;
                return self.reply_move();
            }
            let parts: Vec<u32> = line
                .split(',')
                .filter_map(|p| p.trim().parse().ok())
                .collect();
            if let [x, y, _] = parts[..] {
                self.stones.push((x, y));
            }
            return Next::Continue;
        }
        match first.as_str() {
            "START" => {
                let size = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(15);
                (self.width, self.height) = (size, size);
                self.stones.clear();
                self.say("OK");
            }
            "RECTSTART" => {
                let sides: Vec<u32> = words
                    .get(1)
                    .map(|w| w.split(',').filter_map(|p| p.trim().parse().ok()).collect())
                    .unwrap_or_default();
                if let [width, height] = sides[..] {
                    (self.width, self.height) = (width, height);
                    self.stones.clear();
                    self.say("OK");
                } else {
                    self.say("ERROR bad RECTSTART");
                }
            }
            "RESTART" => {
                self.stones.clear();
                self.say("OK");
            }
            "BEGIN" => return self.reply_move(),
            "TURN" => {
                let parts: Vec<u32> = words
                    .get(1)
                    .map(|w| w.split(',').filter_map(|p| p.trim().parse().ok()).collect())
                    .unwrap_or_default();
                if let [x, y] = parts[..] {
                    self.stones.push((x, y));
                }
                return self.reply_move();
            }
            "BOARD" => {
                self.stones.clear();
                self.in_board = true;
            }
            "INFO" => {}
            "ABOUT" => match self.settings.about {
                About::Reply => self.say(ABOUT_LINE),
                About::Unknown => self.say("UNKNOWN ABOUT"),
                About::Silent => {}
                About::Late => self.about_owed = true,
            },
            "END" => return Next::Exit(0),
            _ => self.say(&format!("UNKNOWN {line}")),
        }
        Next::Continue
    }
}

/// Entry point of `qilin test-engine`; `args` are the words after `test-engine`.
pub fn test_engine_main(args: &[String]) -> i32 {
    let settings = match parse_settings(args) {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("qilin test-engine: {error}");
            return 2;
        }
    };
    let mut engine = TestEngine {
        position_key: 0,
        settings,
        out: io::stdout(),
        moves_played: 0,
        position: None,
        width: 15,
        height: 15,
        stones: Vec::new(),
        about_owed: false,
        in_board: false,
    };
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    while let Some(Ok(line)) = lines.next() {
        match engine.handle(line.trim()) {
            Next::Continue => {}
            Next::Exit(status) => return status,
            Next::Hang => {
                // Ignore everything until the runner kills us or closes our input.
                for _ in lines.by_ref() {}
                return 0;
            }
        }
    }
    0
}
