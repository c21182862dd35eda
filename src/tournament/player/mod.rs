//! The engine side of a game of `qilin match`: one engine process driven through its
//! protocol. A [`Player`] is what the match loop (`run.rs`, `game.rs`) holds: it starts the
//! engine, prepares it for each game, asks it for moves under the runner's deadlines, and
//! turns everything the engine does wrong into an [`EngineFailure`] instead of an error of the
//! runner.
//!
//! The protocol itself is behind the [`EngineDriver`] trait, with one implementation per
//! protocol family:
//! - [`xiangqi::XiangqiDriver`]: UCCI and UCI (optionally with 1-10 rank numbering), and the
//!   `proto=auto` detection between them;
//! - [`piskvork::PiskvorkDriver`]: the Gomocup protocol of Gomoku engines.
//!
//! A driver gets the process as a [`Link`]: line I/O under deadlines, where a closed pipe, an
//! exited engine or a missed deadline becomes an [`EngineFailure`] and marks the process
//! unhealthy (to be replaced before its next game). The driver keeps only its protocol's
//! state (announced options, the board the engine holds, its `ABOUT` answer).
//!
//! Which driver: `proto=ucci`/`uci`/`piskvork` as given; `proto=auto` is Piskvork for Gomoku,
//! and for Xiangqi the UCCI-then-UCI probe of [`xiangqi`], whose result the runner remembers
//! for the engine so that later restarts skip the probe.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::args::{EngineSpec, GameChoice, TimeControl};
use super::process::{EngineProcess, ProtocolLog, WaitError};
use crate::protocol::Protocol;

pub mod piskvork;
pub mod xiangqi;

pub use piskvork::{
    ABOUT_WAIT, EngineAbout, PiskvorkDriver, normalize_gomoku_move, piskvork_info_lines,
};
pub use xiangqi::{
    DETECT_WAIT, XiangqiDriver, is_xiangqi_move, ranks_from_one_based, ranks_to_one_based,
};

/// How long an engine gets to exit after `quit` or `END` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(1000);

/// What went wrong with an engine. Every kind loses the game for that engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The process could not be started, or failed its handshake.
    Start,
    /// The process exited or closed its output.
    Crash,
    /// No answer in time.
    Timeout,
    /// Output that is not the protocol (including a move that is not a move).
    Garbage,
    /// The engine said it has no move in a position that has legal moves.
    NoMove,
}

impl FailureKind {
    /// The `reason` recorded for a game lost this way.
    pub fn reason(self) -> &'static str {
        match self {
            FailureKind::Start => "start-failure",
            FailureKind::Crash => "crash",
            FailureKind::Timeout => "timeout",
            FailureKind::Garbage => "garbage",
            FailureKind::NoMove => "illegal-move",
        }
    }
}

/// An engine failure with a human-readable detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineFailure {
    /// What kind.
    pub kind: FailureKind,
    /// What exactly happened.
    pub detail: String,
}

fn failure<T>(kind: FailureKind, detail: impl Into<String>) -> Result<T, EngineFailure> {
    Err(EngineFailure {
        kind,
        detail: detail.into(),
    })
}

/// An evaluation an engine reported, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl EngineScore {
    /// The score as centipawns, a mate counting as +-100000.
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(cp) => cp,
            EngineScore::Mate(moves) if moves > 0 => 100_000 - moves,
            EngineScore::Mate(moves) => -100_000 - moves,
        }
    }
}

/// The game and limits every player of a match is set up for.
#[derive(Clone, Debug)]
pub struct MatchSetup {
    /// The game.
    pub game: GameChoice,
    /// The limits of every move.
    pub time: TimeControl,
    /// Handshake and untimed-move wait.
    pub max_wait: Duration,
    /// Protocol log.
    pub log: Option<Arc<ProtocolLog>>,
}

/// Clock readings sent with a move request under `--tc`, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Time left of the engine to move.
    pub own_ms: u64,
    /// Time left of its opponent.
    pub opponent_ms: u64,
    /// Increment a move.
    pub increment_ms: u64,
    /// Moves to the next time control, for the engine to move.
    pub own_moves_to_go: Option<u32>,
    /// Moves to the next time control, for the opponent.
    pub opponent_moves_to_go: Option<u32>,
}

/// One request for a move.
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    /// Xiangqi: the FEN the moves start from. Unused by Gomoku.
    pub root: &'a str,
    /// Every move since `root`, in the game's notation.
    pub moves: &'a [String],
    /// Xiangqi: the position after the last capture and the moves since (sent to UCCI
    /// engines, as UCCI GUIs do).
    pub since_capture: (&'a str, &'a [String]),
    /// Seat of the engine to move: 0 for the first colour (red, or Gomoku's black).
    pub seat: usize,
    /// Game clocks under `--tc`.
    pub clock: Option<ClockReading>,
    /// Piskvork `time_left` under `--match-time`.
    pub match_time_left_ms: Option<i64>,
    /// The reply must arrive within this long after the request is sent.
    pub allowed: Duration,
}

/// An engine's move with what it said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReply {
    /// The move in the game's notation (Xiangqi ranks 0-9), syntax checked but not legality.
    pub notation: String,
    /// From sending the request to the arrival of the reply.
    pub elapsed: Duration,
    /// The last score reported before the move.
    pub score: Option<EngineScore>,
    /// The last depth reported before the move.
    pub depth: Option<u32>,
    /// UCCI `bestmove ... resign`.
    pub resigns: bool,
}

/// The engine process as a driver sees it: lines out and in under deadlines, every I/O
/// problem turned into an [`EngineFailure`]. Invariant: once `healthy` is false the process
/// is not reused (the runner kills it and starts another before the engine's next game).
#[derive(Debug)]
pub struct Link {
    process: EngineProcess,
    /// False after a failure that leaves the process unusable.
    healthy: bool,
}

impl Link {
    /// Sends one line; returns when it was written. A write error is a crash.
    pub fn send(&mut self, line: &str) -> Result<Instant, EngineFailure> {
        match self.process.send(line) {
            Ok(at) => Ok(at),
            Err(error) => {
                self.healthy = false;
                failure(
                    FailureKind::Crash,
                    format!("cannot write to the engine: {error}"),
                )
            }
        }
    }

    /// The next line and its arrival time, if it arrives by `deadline`. `waiting_for` names
    /// what was awaited in the failure (a timeout, or a crash when the engine exits).
    pub fn receive(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<(String, Instant), EngineFailure> {
        match self.process.receive(deadline) {
            Ok((line, at)) if at <= deadline => Ok((line, at)),
            Ok(_) | Err(WaitError::Timeout) => {
                self.healthy = false;
                failure(FailureKind::Timeout, format!("no {waiting_for} in time"))
            }
            Err(WaitError::Closed) => {
                self.healthy = false;
                failure(
                    FailureKind::Crash,
                    format!("the engine exited while {waiting_for} was awaited"),
                )
            }
        }
    }

    /// The next line, or `None` when nothing comes by `deadline` (a probe, where silence is
    /// an answer). An engine that exits is a crash described by `exited`.
    pub fn receive_or_timeout(
        &mut self,
        deadline: Instant,
        exited: &str,
    ) -> Result<Option<String>, EngineFailure> {
        match self.process.receive(deadline) {
            Ok((line, _)) => Ok(Some(line)),
            Err(WaitError::Timeout) => Ok(None),
            Err(WaitError::Closed) => {
                self.healthy = false;
                failure(FailureKind::Crash, exited)
            }
        }
    }

    /// Marks the process as not to be reused.
    pub fn mark_unhealthy(&mut self) {
        self.healthy = false;
    }
}

/// One protocol family's way of driving an engine, behind the match loop. A driver is made
/// by its family's handshake (`XiangqiDriver::start` or `detect`,
/// `PiskvorkDriver::start`) and then only ever called through this trait by [`Player`].
/// Every method talks to the engine through `link`; a failure leaves the link unhealthy
/// when the process cannot be trusted any more.
pub trait EngineDriver: fmt::Debug + Send {
    /// The protocol spoken (as given, or as detected).
    fn protocol(&self) -> Protocol;

    /// Sets the engine's options after the handshake, by `deadline`. Nothing by default
    /// (Piskvork sends its options as `INFO` lines during the handshake).
    fn configure(
        &mut self,
        link: &mut Link,
        spec: &EngineSpec,
        deadline: Instant,
    ) -> Result<(), EngineFailure> {
        let _ = (link, spec, deadline);
        Ok(())
    }

    /// Prepares the engine for a new game by `deadline`; `first` for the first game on this
    /// process.
    fn new_game(
        &mut self,
        link: &mut Link,
        first: bool,
        deadline: Instant,
    ) -> Result<(), EngineFailure>;

    /// Sends the position and the limits, and reads the engine's move.
    fn request_move(
        &mut self,
        link: &mut Link,
        request: &MoveRequest<'_>,
        time: &TimeControl,
    ) -> Result<MoveReply, EngineFailure>;

    /// What the engine said about itself (Piskvork `ABOUT`), if anything.
    fn about(&self) -> Option<&EngineAbout> {
        None
    }

    /// The line that asks the engine to exit (`quit`, `END`).
    fn quit_line(&self) -> &'static str;
}

/// A running engine: its process and its protocol driver.
#[derive(Debug)]
pub struct Player {
    link: Link,
    driver: Box<dyn EngineDriver>,
    /// Games started on this process.
    games_started: u32,
}

impl Player {
    /// Starts the engine and sets it up for `setup`. `detected` remembers what `auto`
    /// detection found for this engine.
    pub fn start(
        spec: &EngineSpec,
        setup: &MatchSetup,
        detected: &Mutex<Option<Protocol>>,
    ) -> Result<Player, EngineFailure> {
        let process = match EngineProcess::spawn(spec, setup.log.clone()) {
            Ok(process) => process,
            Err(error) => {
                return failure(
                    FailureKind::Start,
                    format!("cannot start '{}': {error}", spec.command),
                );
            }
        };
        let mut link = Link {
            process,
            healthy: true,
        };
        let known = detected.lock().ok().and_then(|guard| *guard);
        let protocol = match (spec.protocol, setup.game) {
            (Some(protocol), _) => Some(protocol),
            (None, GameChoice::Gomoku { .. }) => Some(Protocol::Piskvork),
            (None, GameChoice::Xiangqi) => known,
        };
        let deadline = Instant::now() + setup.max_wait;
        let one_based = spec.ranks_one_based;
        let handshake: Result<Box<dyn EngineDriver>, EngineFailure> = match protocol {
            Some(xiangqi @ (Protocol::Ucci | Protocol::Uci)) => {
                XiangqiDriver::start(&mut link, xiangqi, one_based, deadline).map(boxed)
            }
            Some(Protocol::Piskvork) => {
                PiskvorkDriver::start(&mut link, spec, setup, deadline).map(boxed)
            }
            None => XiangqiDriver::detect(&mut link, one_based, deadline).map(boxed),
        };
        let mut driver = match handshake {
            Ok(driver) => driver,
            Err(mut error) => {
                link.process
                    .note(&format!("handshake failed: {}", error.detail));
                link.process.kill();
                error.kind = FailureKind::Start;
                return Err(error);
            }
        };
        if protocol.is_none()
            && let Ok(mut guard) = detected.lock()
        {
            *guard = Some(driver.protocol());
        }
        if let Err(mut error) = driver.configure(&mut link, spec, deadline) {
            link.process.kill();
            error.kind = FailureKind::Start;
            return Err(error);
        }
        Ok(Player {
            link,
            driver,
            games_started: 0,
        })
    }

    /// The protocol in use.
    pub fn protocol(&self) -> Protocol {
        self.driver.protocol()
    }

    /// What a Piskvork engine said in answer to `ABOUT`; `None` when it did not answer (yet),
    /// answered `UNKNOWN`, or speaks another protocol.
    pub fn about(&self) -> Option<&EngineAbout> {
        self.driver.about()
    }

    /// Marks the engine for replacement after this game (it played an illegal move or ran
    /// out of time, so its state is not to be trusted).
    pub fn mark_unhealthy(&mut self) {
        self.link.mark_unhealthy();
    }

    /// False once the engine failed in a way that needs a new process.
    pub fn is_healthy(&self) -> bool {
        self.link.healthy
    }

    /// Prepares the engine for a new game. A failure means the process should be replaced.
    pub fn new_game(&mut self, max_wait: Duration) -> Result<(), EngineFailure> {
        let deadline = Instant::now() + max_wait;
        let first = self.games_started == 0;
        self.games_started += 1;
        self.driver.new_game(&mut self.link, first, deadline)
    }

    /// Asks for a move. On a failure the engine loses; a failed player is not reused.
    pub fn request_move(
        &mut self,
        request: &MoveRequest<'_>,
        time: &TimeControl,
    ) -> Result<MoveReply, EngineFailure> {
        self.driver.request_move(&mut self.link, request, time)
    }

    /// Kills the engine at once (after a forfeit).
    pub fn kill(mut self) {
        self.link.process.kill();
    }

    /// Asks the engine to quit, killing it if it does not exit in [`QUIT_GRACE`].
    pub fn shut_down(self) {
        if !self.link.healthy {
            return self.kill();
        }
        let quit = self.driver.quit_line();
        self.link.process.shut_down(quit, QUIT_GRACE);
    }
}

/// Boxes a driver for a [`Player`].
fn boxed<D: EngineDriver + 'static>(driver: D) -> Box<dyn EngineDriver> {
    Box::new(driver)
}
