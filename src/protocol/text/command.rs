//! The typed commands the reader thread sends to the engine thread, the typed errors a line
//! can produce, and the [`Protocol`] a session speaks. Both Xiangqi protocols (UCCI and UCI)
//! share this vocabulary; the parts that differ (how clocks are given, option names) are
//! explicit variants. Piskvork's commands come whole as [`Command::Gomoku`]. Built by the
//! parsers on the reader thread, read by the sessions on the engine thread.

use std::fmt;

pub use crate::quote::{Quoted, Shown};

use super::piskvork::GomokuCommand;
use crate::xiangqi::Move;

/// The protocol a session speaks: UCCI or UCI (Xiangqi) or Piskvork (Gomoku). The engine
/// decides it from the first non-empty line ([`detect`](crate::protocol::detect)); `qilin
/// match` names it for the engines it drives. The one protocol enum of the crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Universal Chinese Chess Protocol (`ucci`).
    Ucci,
    /// Universal Chess Interface with Xiangqi notation (`uci`).
    Uci,
    /// Gomocup's Piskvork protocol (`START`, `INFO`, ...), for Gomoku.
    Piskvork,
}

impl Protocol {
    /// The handshake word that selects the protocol.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Ucci => "UCCI",
            Protocol::Uci => "UCI",
            Protocol::Piskvork => "Piskvork",
        }
    }
}

/// Where a `position` (or `probe`) command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    /// The standard initial position.
    Startpos,
    /// A FEN string (its fields joined by single spaces), checked by the engine thread.
    Fen(String),
}

/// `position {startpos | fen <FEN>} [moves ...]`: moves are syntactically valid but not yet
/// checked for legality (the engine thread does that against the position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCmd {
    /// The starting position.
    pub base: PositionBase,
    /// Moves played from it, in order.
    pub moves: Vec<Move>,
}

/// A time value as the GUI wrote it, in thousandths of the unit it used (so UCCI's
/// `time 1.5` in seconds mode is 1500 and `time 1500` in millisecond mode is 1 500 000).
/// The engine thread converts it once it knows the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RawTime(pub u64);

impl RawTime {
    /// Milliseconds, given whether the unit is milliseconds (`true`) or seconds.
    pub fn to_ms(self, unit_is_ms: bool) -> u64 {
        if unit_is_ms { self.0 / 1000 } else { self.0 }
    }
}

/// Clock information of a `go` command, as each protocol expresses it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum ClockSpec {
    /// No clock given.
    #[default]
    None,
    /// UCI: per-colour clocks in milliseconds (`w` = red).
    Uci {
        /// `wtime`.
        red_ms: Option<u64>,
        /// `btime`.
        black_ms: Option<u64>,
        /// `winc`.
        red_inc_ms: Option<u64>,
        /// `binc`.
        black_inc_ms: Option<u64>,
        /// `movestogo`.
        movestogo: Option<u32>,
    },
    /// UCCI: the side to move's clock, in seconds or milliseconds (option `usemillisec`).
    Ucci {
        /// `time`: the whole remaining clock.
        time: RawTime,
        /// `movestogo`.
        movestogo: Option<u32>,
        /// `increment`.
        increment: Option<RawTime>,
        /// `opptime`: the opponent's clock (informative).
        opptime: Option<RawTime>,
    },
}

/// A `go` command: all limits given, before conversion into engine limits.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GoCmd {
    /// `go ponder`: think on the opponent's time until `ponderhit`.
    pub ponder: bool,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw_offered: bool,
    /// `depth <n>`.
    pub depth: Option<u32>,
    /// `nodes <n>`.
    pub nodes: Option<u64>,
    /// UCI `movetime <ms>`.
    pub movetime_ms: Option<u64>,
    /// UCI `mate <moves>`.
    pub mate: Option<u32>,
    /// UCI `infinite`, UCCI `depth infinite` (or a bare `go`).
    pub infinite: bool,
    /// Clock data.
    pub clock: ClockSpec,
    /// UCI `searchmoves ...`: restrict the root to these moves.
    pub searchmoves: Vec<Move>,
    /// Time values that were out of range and were replaced (said in one `info string`).
    pub clamped: Vec<Clamped>,
}

/// A time value of `go` that no clock can hold (negative, as GUIs send after a move that ran
/// into the margin, or absurdly large), read as the nearest value that can: `go` is answered
/// instead of refused, since a refused `go` loses the game on time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clamped {
    /// The keyword (`wtime`, `movetime`, UCCI `time`, ...).
    pub keyword: &'static str,
    /// The value as the GUI wrote it.
    pub found: String,
    /// The value used, in the unit the GUI writes (0 or [`TIME_CAP`]).
    pub used: u64,
}

/// The largest time value `go` keeps, in the unit the GUI writes (milliseconds, or UCCI
/// seconds): over thirty years in milliseconds, so no real clock is ever cut.
pub const TIME_CAP: u64 = 1_000_000_000_000;

impl fmt::Display for Clamped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} read as {}",
            Quoted(self.keyword),
            Quoted(&self.found),
            self.used
        )
    }
}

/// The value of a `setoption`, already typed. Names are matched case-insensitively, and both
/// protocols' spellings are accepted where real GUIs mix them (`hashsize`/`Hash`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionSetting {
    /// Hash table size in MB (UCCI `hashsize`: 0 = automatic).
    Hash(usize),
    /// Search threads (UCCI `threads`: 0 = automatic).
    Threads(usize),
    /// Number of principal variations reported.
    MultiPv(u32),
    /// Whether the GUI may ask for pondering.
    Ponder(bool),
    /// Milliseconds kept back on every move for GUI and pipe delays.
    MoveOverhead(u64),
    /// Clear the hash tables (UCI `Clear Hash`, UCCI `newgame`).
    ClearHash,
    /// UCCI `usemillisec`: times in `go` are in milliseconds (else seconds).
    UseMillisec(bool),
    /// UCCI `batch`: while thinking, commands other than `stop`/`quit` wait silently.
    Batch(bool),
    /// UCCI `debug`: extra `info string` output.
    Debug(bool),
    /// Randomness of move choice, 0 = off.
    Randomness(u32),
    /// UCCI `usebook` (Qilin has no opening book yet).
    UseBook(bool),
    /// UCCI `bookfiles`.
    BookFiles(String),
    /// Whether the learned evaluation (the network) is used instead of the tuned one.
    UseNnue(bool),
    /// A network file to load (empty or `<embedded>`: the one built into the binary).
    EvalFile(String),
    /// UCI `UCI_Variant`: only `xiangqi` is meaningful; accepted and ignored.
    Variant(String),
    /// A UCCI option name Qilin does not use (UCCI says unknown names are not an error).
    Ignored(String),
}

/// One line from the GUI, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci` or `ucci`: the handshake of that protocol.
    Handshake(Protocol),
    /// `isready`.
    IsReady,
    /// `setoption ...`.
    SetOption(OptionSetting),
    /// `position ...` (also the bare `fen ...` / `startpos ...` lines of some UCI GUIs).
    Position(PositionCmd),
    /// UCCI `banmoves ...`.
    BanMoves(Vec<Move>),
    /// `go ...`.
    Go(GoCmd),
    /// `go perft <n>`: count leaf nodes per root move.
    Perft(u32),
    /// `ponderhit`, UCCI `ponderhit draw`.
    PonderHit {
        /// The opponent offers a draw with its move.
        draw_offered: bool,
    },
    /// `stop`.
    Stop,
    /// UCCI `probe ...`: ask the hash table about a position.
    Probe(PositionCmd),
    /// UCI `ucinewgame`.
    NewGame,
    /// `d`: print the board, FEN and key.
    Display,
    /// `quit`.
    Quit,
    /// A Piskvork (Gomoku) command.
    Gomoku(GomokuCommand),
}

impl Command {
    /// Short name of the command, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Handshake(Protocol::Ucci) => "ucci",
            Command::Handshake(Protocol::Uci) => "uci",
            Command::Handshake(Protocol::Piskvork) => "piskvork",
            Command::IsReady => "isready",
            Command::SetOption(_) => "setoption",
            Command::Position(_) => "position",
            Command::BanMoves(_) => "banmoves",
            Command::Go(_) => "go",
            Command::Perft(_) => "go perft",
            Command::PonderHit { .. } => "ponderhit",
            Command::Stop => "stop",
            Command::Probe(_) => "probe",
            Command::NewGame => "ucinewgame",
            Command::Display => "d",
            Command::Quit => "quit",
            Command::Gomoku(_) => "piskvork",
        }
    }
}

/// Why a line could not be turned into a command. Displayed in an `info string` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is not a command of the protocol.
    UnknownCommand(String),
    /// A keyword needs a value that is missing.
    MissingValue(&'static str),
    /// A number was expected after a keyword.
    NotANumber {
        /// The keyword.
        keyword: &'static str,
        /// What was found.
        found: String,
    },
    /// A negative number where only non-negative ones make sense.
    Negative {
        /// The keyword.
        keyword: &'static str,
        /// What was found.
        found: String,
    },
    /// A number too large for its field.
    TooLarge {
        /// The keyword.
        keyword: &'static str,
        /// What was found.
        found: String,
    },
    /// A word that is not a well-formed move (`h2e2`).
    BadMove(String),
    /// `position` without `startpos` or `fen`.
    MissingPositionBase,
    /// `fen` without any field.
    EmptyFen,
    /// An unexpected word.
    Unexpected {
        /// The command being parsed.
        command: &'static str,
        /// The offending word.
        found: String,
    },
    /// A keyword given twice, or two keywords that exclude each other.
    Conflict(String),
    /// `setoption` without a name.
    MissingOptionName,
    /// An option name the protocol does not know.
    UnknownOption(String),
    /// An option value that does not fit the option.
    BadOptionValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What would be accepted.
        expected: &'static str,
    },
    /// A Piskvork point or size that is not `x,y` with non-negative numbers.
    BadPoint(String),
    /// The first line named no protocol Qilin speaks.
    NoProtocol(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Quoted as Q;
        match self {
            ParseError::UnknownCommand(w) => write!(f, "unknown command {}", Q(w)),
            ParseError::MissingValue(k) => write!(f, "{} needs a value", Q(k)),
            ParseError::NotANumber { keyword, found } => {
                write!(f, "{} needs a number, found {}", Q(keyword), Q(found))
            }
            ParseError::Negative { keyword, found } => {
                write!(f, "{} cannot be negative, found {}", Q(keyword), Q(found))
            }
            ParseError::TooLarge { keyword, found } => {
                write!(f, "{} value {} is too large", Q(keyword), Q(found))
            }
            ParseError::BadMove(m) => {
                write!(
                    f,
                    "{} is not a move (expected e.g. h2e2, files a-i, ranks 0-9)",
                    Q(m)
                )
            }
            ParseError::MissingPositionBase => write!(f, "expected 'startpos' or 'fen <FEN>'"),
            ParseError::EmptyFen => write!(f, "'fen' needs a FEN string"),
            ParseError::Unexpected { command, found } => {
                write!(f, "unexpected {} in {}", Q(found), Q(command))
            }
            ParseError::Conflict(what) => write!(f, "{what}"),
            ParseError::MissingOptionName => write!(f, "'setoption' needs an option name"),
            ParseError::UnknownOption(n) => write!(f, "unknown option {}", Q(n)),
            ParseError::BadOptionValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "option {}: bad value {}, expected {expected}",
                Q(name),
                Q(value)
            ),
            ParseError::BadPoint(text) => {
                write!(f, "{} is not a point (expected x,y)", Q(text))
            }
            ParseError::NoProtocol(w) => write!(
                f,
                "unknown command {}: say 'uci', 'ucci' or 'START <size>' first to choose a protocol",
                Q(w)
            ),
        }
    }
}

impl std::error::Error for ParseError {}
