//! The engine side of a game: one engine process driven through its protocol (UCCI, UCI with
//! optional 1-10 rank numbering, or Piskvork). A player sets the engine up, asks it for moves
//! under the runner's deadlines, and turns everything the engine does wrong into an
//! [`EngineFailure`] instead of an error of the runner.
//!
//! Protocol detection (`proto=auto`): for Gomoku the protocol is Piskvork. For Xiangqi the
//! runner sends `ucci` and waits up to [`DETECT_WAIT`] while `id` and `option` lines arrive:
//! `ucciok` means UCCI. Any other line (such as "Unknown command"), or silence, makes it send
//! `uci` and wait for `uciok` (UCI) — an `ucciok` arriving then still means UCCI. The result is
//! remembered for the engine, so later restarts skip the probe.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::args::{EngineSpec, GameChoice, ProtocolChoice, TimeControl};
use super::process::{EngineProcess, ProtocolLog, WaitError};

/// How long `auto` detection waits for `ucciok` before trying `uci`.
pub const DETECT_WAIT: Duration = Duration::from_millis(1500);
/// How long an engine gets to exit after `quit` or `END` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(1000);
/// How long a Piskvork engine's answer to `ABOUT` is awaited during the handshake. An answer
/// that comes later is still taken when it arrives before a move.
pub const ABOUT_WAIT: Duration = Duration::from_millis(1000);
/// `INFO max_memory` sent to Piskvork engines unless `option.max_memory` is given: 350 MiB,
/// GomocupJudge's default.
pub const DEFAULT_MAX_MEMORY: u64 = 350 * 1024 * 1024;

/// The protocol a player speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCCI, with millisecond times when the engine announces `usemillisec`.
    Ucci,
    /// UCI; `ranks_one_based` converts Xiangqi ranks 0-9 to the engine's 1-10 and back.
    Uci {
        /// The engine numbers ranks 1-10.
        ranks_one_based: bool,
    },
    /// Piskvork (Gomocup).
    Piskvork,
}

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

/// What a Piskvork engine said about itself in answer to `ABOUT`: `key="value"` pairs
/// (`name`, `version`, `author`, `country`, `www`, `email`), in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineAbout {
    /// Every pair of the answer.
    pub pairs: Vec<(String, String)>,
}

impl EngineAbout {
    /// Parses an `ABOUT` answer: `key="value"` pairs separated by commas (a value without
    /// quotes runs to the next comma). `None` when the line has no pair.
    pub fn parse(line: &str) -> Option<EngineAbout> {
        let mut pairs = Vec::new();
        let mut rest = line.trim();
        while !rest.is_empty() {
            rest = rest.trim_start_matches([',', ' ', '\t']);
            let Some((key, after)) = rest.split_once('=') else {
                break;
            };
            let key = key.trim();
            if key.is_empty() || key.contains(char::is_whitespace) {
                return None;
            }
            let after = after.trim_start();
            let (value, next) = match after.strip_prefix('"') {
                Some(quoted) => match quoted.split_once('"') {
                    Some((value, next)) => (value, next),
                    None => (quoted, ""),
                },
                None => match after.split_once(',') {
                    Some((value, next)) => (value.trim_end(), next),
                    None => (after.trim_end(), ""),
                },
            };
            pairs.push((key.to_ascii_lowercase(), value.to_string()));
            rest = next;
        }
        (!pairs.is_empty()).then_some(EngineAbout { pairs })
    }

    /// The value of `key` (lower case), if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The engine's name, if given.
    pub fn name(&self) -> Option<&str> {
        self.get("name")
    }

    /// The engine's version, if given.
    pub fn version(&self) -> Option<&str> {
        self.get("version")
    }
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

/// A running engine with its protocol state.
#[derive(Debug)]
pub struct Player {
    process: EngineProcess,
    protocol: Protocol,
    /// UCCI: times in milliseconds (the engine announced `usemillisec`).
    ucci_milliseconds: bool,
    /// UCCI options the engine announced.
    announced_options: Vec<String>,
    /// Piskvork: the moves on the engine's board, when known to be in sync.
    piskvork_board: Option<Vec<String>>,
    /// Piskvork: the engine's answer to `ABOUT`.
    about: Option<EngineAbout>,
    /// Piskvork: `ABOUT` was sent and neither answered nor refused yet.
    about_pending: bool,
    /// Games started on this process.
    games_started: u32,
    /// False after a failure that leaves the process unusable.
    healthy: bool,
}

/// True for a Xiangqi move in ICCS form with ranks 0-9 (`h2e2`).
pub fn is_xiangqi_move(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 4
        && (b'a'..=b'i').contains(&bytes[0])
        && bytes[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&bytes[2])
        && bytes[3].is_ascii_digit()
}

/// Parses a Piskvork move `x,y` into its normal form, or `None`.
pub fn normalize_gomoku_move(text: &str) -> Option<String> {
    let (x, y) = text.split_once(',')?;
    let x: u32 = x.trim().parse().ok()?;
    let y: u32 = y.trim().parse().ok()?;
    Some(format!("{x},{y}"))
}

/// Converts a move with ranks 1-10 (`h3e3`, `a10a9`) to ranks 0-9, or `None`.
pub fn ranks_from_one_based(text: &str) -> Option<String> {
    let mut squares = Vec::with_capacity(2);
    let mut rest = text;
    for _ in 0..2 {
        let file = rest.chars().next().filter(|c| ('a'..='i').contains(c))?;
        rest = &rest[1..];
        let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        let rank: u32 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        if !(1..=10).contains(&rank) {
            return None;
        }
        squares.push(format!("{file}{}", rank - 1));
    }
    rest.is_empty().then(|| squares.concat())
}

/// Converts a move with ranks 0-9 to ranks 1-10 (`h2e2` -> `h3e3`).
pub fn ranks_to_one_based(text: &str) -> String {
    let bytes = text.as_bytes();
    if !is_xiangqi_move(text) {
        return text.to_string();
    }
    format!(
        "{}{}{}{}",
        bytes[0] as char,
        (bytes[1] - b'0') + 1,
        bytes[2] as char,
        (bytes[3] - b'0') + 1
    )
}

/// Reads `score` and `depth` from a UCI or UCCI `info` line into `score` and `depth`.
fn read_info(line: &str, score: &mut Option<EngineScore>, depth: &mut Option<u32>) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut index = 1;
    let mut line_score = None;
    let mut line_depth = None;
    while index < tokens.len() {
        match tokens[index] {
            "depth" => {
                line_depth = tokens.get(index + 1).and_then(|t| t.parse().ok());
                index += 2;
            }
            "score" => match tokens.get(index + 1).copied() {
                Some("cp") => {
                    line_score = tokens
                        .get(index + 2)
                        .and_then(|t| t.parse().ok())
                        .map(EngineScore::Cp);
                    index += 3;
                }
                Some("mate") => {
                    line_score = tokens
                        .get(index + 2)
                        .and_then(|t| t.parse().ok())
                        .map(EngineScore::Mate);
                    index += 3;
                }
                Some(value) => {
                    // UCCI: `score <value>`.
                    line_score = value.parse().ok().map(EngineScore::Cp);
                    index += 2;
                }
                None => index += 1,
            },
            // Everything after these is free text or moves.
            "pv" | "string" | "message" => break,
            _ => index += 1,
        }
    }
    // Bound scores (`lowerbound`/`upperbound`) are taken as they come: good enough for
    // adjudication, which needs several consecutive moves anyway.
    if line_score.is_some() {
        *score = line_score;
        if line_depth.is_some() {
            *depth = line_depth;
        }
    } else if line_depth.is_some() && depth.is_none() {
        *depth = line_depth;
    }
}

/// First words an engine may start a line with while it is set up or thinking (UCI, UCCI).
const UCI_KNOWN_WORDS: [&str; 11] = [
    "info",
    "bestmove",
    "nobestmove",
    "id",
    "option",
    "readyok",
    "uciok",
    "ucciok",
    "copyprotection",
    "registration",
    "pophash",
];

/// The INFO lines a Piskvork engine gets after `START` and `ABOUT`, in order:
/// - `timeout_turn`: `--turn-time` (or `--movetime`); with only `--match-time`, the match time
///   (never 0, which asks for an instant move); without any time limit, `--maxwait`;
/// - `timeout_match`: `--match-time`, 0 (no limit) without it;
/// - `max_memory`: [`DEFAULT_MAX_MEMORY`] unless the engine has `option.max_memory`;
/// - `rule` (the Piskvork number), `game_type 1`, `max_depth` and `max_node` for `--depth` and
///   `--nodes`;
/// - then every `option.KEY=VALUE` of the engine as `INFO KEY VALUE`, in the order given.
pub fn piskvork_info_lines(setup: &MatchSetup, spec: &EngineSpec) -> Vec<String> {
    let time = setup.time;
    let rule = match setup.game {
        GameChoice::Gomoku { rule, .. } => rule.number(),
        GameChoice::Xiangqi => 0,
    };
    let untimed = setup.max_wait.as_millis().min(u64::MAX as u128) as u64;
    let turn = time
        .turn_time_ms
        .or(time.movetime_ms)
        .or(time.match_time_ms)
        .unwrap_or(untimed);
    let whole = time.match_time_ms.unwrap_or(0);
    let mut lines = vec![
        format!("INFO timeout_turn {turn}"),
        format!("INFO timeout_match {whole}"),
    ];
    if !spec.options.iter().any(|(key, _)| key == "max_memory") {
        lines.push(format!("INFO max_memory {DEFAULT_MAX_MEMORY}"));
    }
    lines.push(format!("INFO rule {rule}"));
    lines.push("INFO game_type 1".to_string());
    if let Some(depth) = time.depth {
        lines.push(format!("INFO max_depth {depth}"));
    }
    if let Some(nodes) = time.nodes {
        lines.push(format!("INFO max_node {nodes}"));
    }
    for (key, value) in &spec.options {
        lines.push(format!("INFO {key} {value}"));
    }
    lines
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
        let known = detected.lock().ok().and_then(|guard| *guard);
        let protocol = match (spec.protocol, setup.game) {
            (ProtocolChoice::Ucci, _) => Some(Protocol::Ucci),
            (ProtocolChoice::Uci, _) => Some(Protocol::Uci {
                ranks_one_based: spec.ranks_one_based,
            }),
            (ProtocolChoice::Piskvork, _) | (ProtocolChoice::Auto, GameChoice::Gomoku { .. }) => {
                Some(Protocol::Piskvork)
            }
            (ProtocolChoice::Auto, GameChoice::Xiangqi) => known,
        };
        let mut player = Player {
            process,
            protocol: protocol.unwrap_or(Protocol::Ucci),
            ucci_milliseconds: false,
            announced_options: Vec::new(),
            piskvork_board: None,
            about: None,
            about_pending: false,
            games_started: 0,
            healthy: true,
        };
        let deadline = Instant::now() + setup.max_wait;
        let handshake = match protocol {
            Some(Protocol::Ucci) => player.handshake_ucci(deadline),
            Some(Protocol::Uci { .. }) => player.handshake_uci(deadline),
            Some(Protocol::Piskvork) => player.handshake_piskvork(spec, setup, deadline),
            None => player.detect(spec, deadline),
        };
        if let Err(mut error) = handshake {
            player
                .process
                .note(&format!("handshake failed: {}", error.detail));
            player.process.kill();
            error.kind = FailureKind::Start;
            return Err(error);
        }
        if protocol.is_none()
            && let Ok(mut guard) = detected.lock()
        {
            *guard = Some(player.protocol);
        }
        if player.protocol != Protocol::Piskvork
            && let Err(mut error) = player.set_options(spec, deadline)
        {
            player.process.kill();
            error.kind = FailureKind::Start;
            return Err(error);
        }
        Ok(player)
    }

    /// The protocol in use.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// What a Piskvork engine said in answer to `ABOUT`; `None` when it did not answer (yet),
    /// answered `UNKNOWN`, or speaks another protocol.
    pub fn about(&self) -> Option<&EngineAbout> {
        self.about.as_ref()
    }

    /// Marks the engine for replacement after this game (it played an illegal move or ran
    /// out of time, so its state is not to be trusted).
    pub fn mark_unhealthy(&mut self) {
        self.healthy = false;
    }

    /// False once the engine failed in a way that needs a new process.
    pub fn is_healthy(&self) -> bool {
        self.healthy
    }

    fn send(&mut self, line: &str) -> Result<Instant, EngineFailure> {
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

    fn receive(
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

    /// Waits for a line whose first word is `word`, tolerating other lines.
    fn wait_for(&mut self, word: &str, deadline: Instant) -> Result<(), EngineFailure> {
        loop {
            let (line, _) = self.receive(deadline, word)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(());
            }
            self.note_handshake_line(&line);
        }
    }

    fn note_handshake_line(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        if words.next() == Some("option")
            && let Some(name) = words.next()
        {
            // UCCI: `option <name> type ...`; UCI: `option name <Name> type ...`.
            if name != "name" {
                self.announced_options.push(name.to_string());
                if name == "usemillisec" {
                    self.ucci_milliseconds = true;
                }
            }
        }
    }

    fn handshake_ucci(&mut self, deadline: Instant) -> Result<(), EngineFailure> {
        self.send("ucci")?;
        self.wait_for("ucciok", deadline)?;
        self.finish_ucci_handshake()
    }

    /// After `ucciok`: switch to milliseconds when the engine can.
    fn finish_ucci_handshake(&mut self) -> Result<(), EngineFailure> {
        self.protocol = Protocol::Ucci;
        if self.ucci_milliseconds {
            self.send("setoption usemillisec true")?;
        }
        Ok(())
    }

    fn handshake_uci(&mut self, deadline: Instant) -> Result<(), EngineFailure> {
        self.send("uci")?;
        self.wait_for("uciok", deadline)
    }

    fn detect(&mut self, spec: &EngineSpec, deadline: Instant) -> Result<(), EngineFailure> {
        self.send("ucci")?;
        let probe_deadline = (Instant::now() + DETECT_WAIT).min(deadline);
        loop {
            match self.process.receive(probe_deadline) {
                Ok((line, _)) => match line.split_whitespace().next() {
                    Some("ucciok") => return self.finish_ucci_handshake(),
                    Some("id") | Some("option") => self.note_handshake_line(&line),
                    _ => break,
                },
                Err(WaitError::Timeout) => break,
                Err(WaitError::Closed) => {
                    self.healthy = false;
                    return failure(FailureKind::Crash, "the engine exited during detection");
                }
            }
        }
        self.announced_options.clear();
        self.send("uci")?;
        loop {
            let (line, _) = self.receive(deadline, "uciok or ucciok")?;
            match line.split_whitespace().next() {
                Some("uciok") => {
                    self.protocol = Protocol::Uci {
                        ranks_one_based: spec.ranks_one_based,
                    };
                    return Ok(());
                }
                Some("ucciok") => return self.finish_ucci_handshake(),
                _ => self.note_handshake_line(&line),
            }
        }
    }

    fn set_options(&mut self, spec: &EngineSpec, deadline: Instant) -> Result<(), EngineFailure> {
        for (name, value) in &spec.options {
            let line = match self.protocol {
                Protocol::Ucci => format!("setoption {name} {value}"),
                _ => format!("setoption name {name} value {value}"),
            };
            self.send(&line)?;
        }
        self.send("isready")?;
        self.wait_for("readyok", deadline)
    }

    /// Piskvork set-up: `START N` (square) or `RECTSTART W,H` (expecting `OK`), `ABOUT`
    /// (answer awaited up to [`ABOUT_WAIT`]), then the INFO lines of [`piskvork_info_lines`].
    fn handshake_piskvork(
        &mut self,
        spec: &EngineSpec,
        setup: &MatchSetup,
        deadline: Instant,
    ) -> Result<(), EngineFailure> {
        self.protocol = Protocol::Piskvork;
        let (width, height) = match setup.game {
            GameChoice::Gomoku { width, height, .. } => (width, height),
            GameChoice::Xiangqi => (15, 15),
        };
        if width == height {
            self.send(&format!("START {width}"))?;
            self.expect_piskvork_ok(deadline, "START")?;
        } else {
            self.send(&format!("RECTSTART {width},{height}"))?;
            self.expect_piskvork_ok(deadline, "RECTSTART")?;
        }
        self.send("ABOUT")?;
        self.about_pending = true;
        let about_deadline = (Instant::now() + ABOUT_WAIT).min(deadline);
        while self.about_pending {
            match self.process.receive(about_deadline) {
                Ok((line, _)) => {
                    self.take_about_line(&line);
                }
                Err(WaitError::Timeout) => break,
                Err(WaitError::Closed) => {
                    self.healthy = false;
                    return failure(
                        FailureKind::Crash,
                        "the engine exited while ABOUT was awaited",
                    );
                }
            }
        }
        for line in piskvork_info_lines(setup, spec) {
            self.send(&line)?;
        }
        self.piskvork_board = Some(Vec::new());
        Ok(())
    }

    /// Handles a line that may answer `ABOUT` while the answer is pending: an answer (kept),
    /// `UNKNOWN` (no answer), or `MESSAGE`/`DEBUG` (ignored). Returns false for any other
    /// line, which is left to the caller.
    fn take_about_line(&mut self, line: &str) -> bool {
        if !self.about_pending {
            return false;
        }
        match line.split_whitespace().next().unwrap_or("") {
            "MESSAGE" | "DEBUG" => true,
            "UNKNOWN" => {
                self.about_pending = false;
                true
            }
            _ => match EngineAbout::parse(line) {
                Some(about) => {
                    self.about = Some(about);
                    self.about_pending = false;
                    true
                }
                None => false,
            },
        }
    }

    fn expect_piskvork_ok(
        &mut self,
        deadline: Instant,
        command: &str,
    ) -> Result<(), EngineFailure> {
        loop {
            let (line, _) = self.receive(deadline, "OK")?;
            let word = line.split_whitespace().next().unwrap_or("");
            match word {
                "OK" => return Ok(()),
                "MESSAGE" | "DEBUG" => continue,
                _ => {
                    self.healthy = false;
                    return failure(
                        FailureKind::Start,
                        format!("{command} answered '{line}' instead of OK"),
                    );
                }
            }
        }
    }

    /// Prepares the engine for a new game. A failure means the process should be replaced.
    pub fn new_game(&mut self, max_wait: Duration) -> Result<(), EngineFailure> {
        let deadline = Instant::now() + max_wait;
        let first = self.games_started == 0;
        self.games_started += 1;
        match self.protocol {
            Protocol::Uci { .. } => {
                self.send("ucinewgame")?;
                self.send("isready")?;
                self.wait_for("readyok", deadline)
            }
            Protocol::Ucci => {
                if self.announced_options.iter().any(|o| o == "newgame") {
                    self.send("setoption newgame")?;
                }
                self.send("isready")?;
                self.wait_for("readyok", deadline)
            }
            Protocol::Piskvork => {
                if !first {
                    self.send("RESTART")?;
                    self.expect_piskvork_ok(deadline, "RESTART")?;
                }
                self.piskvork_board = Some(Vec::new());
                Ok(())
            }
        }
    }

    /// Asks for a move. On a failure the engine loses; a failed player is not reused.
    pub fn request_move(
        &mut self,
        request: &MoveRequest<'_>,
        time: &TimeControl,
    ) -> Result<MoveReply, EngineFailure> {
        match self.protocol {
            Protocol::Piskvork => self.request_move_piskvork(request),
            _ => self.request_move_uci_family(request, time),
        }
    }

    fn ucci_time(&self, ms: u64) -> String {
        if self.ucci_milliseconds {
            ms.to_string()
        } else {
            // Whole seconds, as UCCI engines without millisecond mode parse integers.
            (ms / 1000).to_string()
        }
    }

    fn go_command(&self, request: &MoveRequest<'_>, time: &TimeControl) -> String {
        let mut go = String::from("go");
        match self.protocol {
            Protocol::Ucci => {
                if let Some(clock) = request.clock {
                    go += &format!(" time {}", self.ucci_time(clock.own_ms));
                    match clock.own_moves_to_go {
                        Some(moves) => go += &format!(" movestogo {moves}"),
                        None => go += &format!(" increment {}", self.ucci_time(clock.increment_ms)),
                    }
                    go += &format!(" opptime {}", self.ucci_time(clock.opponent_ms));
                    match clock.opponent_moves_to_go {
                        Some(moves) => go += &format!(" oppmovestogo {moves}"),
                        None => {
                            go += &format!(" oppincrement {}", self.ucci_time(clock.increment_ms))
                        }
                    }
                } else if let Some(movetime) = time.movetime_ms {
                    // UCCI has no fixed move time: the whole clock for one move says the same.
                    go += &format!(" time {} movestogo 1", self.ucci_time(movetime));
                } else if let Some(depth) = time.depth {
                    go += &format!(" depth {depth}");
                } else if let Some(nodes) = time.nodes {
                    go += &format!(" nodes {nodes}");
                }
                if (request.clock.is_some() || time.movetime_ms.is_some())
                    && let Some(depth) = time.depth
                {
                    go += &format!(" depth {depth}");
                }
            }
            _ => {
                if let Some(clock) = request.clock {
                    let (red, black) = if request.seat == 0 {
                        (clock.own_ms, clock.opponent_ms)
                    } else {
                        (clock.opponent_ms, clock.own_ms)
                    };
                    go += &format!(
                        " wtime {red} btime {black} winc {0} binc {0}",
                        clock.increment_ms
                    );
                    if let Some(moves) = clock.own_moves_to_go {
                        go += &format!(" movestogo {moves}");
                    }
                }
                if let Some(movetime) = time.movetime_ms {
                    go += &format!(" movetime {movetime}");
                }
                if let Some(depth) = time.depth {
                    go += &format!(" depth {depth}");
                }
                if let Some(nodes) = time.nodes {
                    go += &format!(" nodes {nodes}");
                }
            }
        }
        go
    }

    fn request_move_uci_family(
        &mut self,
        request: &MoveRequest<'_>,
        time: &TimeControl,
    ) -> Result<MoveReply, EngineFailure> {
        let one_based = matches!(
            self.protocol,
            Protocol::Uci {
                ranks_one_based: true
            }
        );
        let (root, moves) = match self.protocol {
            Protocol::Ucci => request.since_capture,
            _ => (request.root, request.moves),
        };
        let mut position = format!("position fen {root}");
        if !moves.is_empty() {
            position += " moves";
            for mv in moves {
                position.push(' ');
                if one_based {
                    position += &ranks_to_one_based(mv);
                } else {
                    position += mv;
                }
            }
        }
        self.send(&position)?;
        let go = self.go_command(request, time);
        let sent_at = self.send(&go)?;
        let deadline = sent_at + request.allowed;
        let waiting_for = format!("bestmove within {} ms", request.allowed.as_millis());
        let mut score = None;
        let mut depth = None;
        loop {
            let (line, at) = self.receive(deadline, &waiting_for)?;
            let mut words = line.split_whitespace();
            let first = words.next().unwrap_or("");
            match first {
                "info" => read_info(&line, &mut score, &mut depth),
                "nobestmove" => {
                    return failure(FailureKind::NoMove, "nobestmove in a position with moves");
                }
                "bestmove" => {
                    let Some(token) = words.next() else {
                        self.healthy = false;
                        return failure(FailureKind::Garbage, "bestmove without a move");
                    };
                    if token == "(none)" {
                        return failure(
                            FailureKind::NoMove,
                            "bestmove (none) in a position with moves",
                        );
                    }
                    let notation = if one_based {
                        ranks_from_one_based(token)
                    } else {
                        is_xiangqi_move(token).then(|| token.to_string())
                    };
                    let Some(notation) = notation else {
                        self.healthy = false;
                        return failure(
                            FailureKind::Garbage,
                            format!("bestmove '{token}' is not a move"),
                        );
                    };
                    let resigns = words.any(|w| w == "resign");
                    return Ok(MoveReply {
                        notation,
                        elapsed: at.saturating_duration_since(sent_at),
                        score,
                        depth,
                        resigns,
                    });
                }
                word if UCI_KNOWN_WORDS.contains(&word) => {}
                _ => {
                    self.healthy = false;
                    let shown: String = line.chars().take(80).collect();
                    return failure(FailureKind::Garbage, format!("unexpected output '{shown}'"));
                }
            }
        }
    }

    fn request_move_piskvork(
        &mut self,
        request: &MoveRequest<'_>,
    ) -> Result<MoveReply, EngineFailure> {
        if let Some(left) = request.match_time_left_ms {
            self.send(&format!("INFO time_left {left}"))?;
        }
        let in_sync_turn = match &self.piskvork_board {
            Some(board) => {
                board.len() + 1 == request.moves.len() && request.moves.starts_with(board)
            }
            None => false,
        };
        let sent_at = if request.moves.is_empty()
            && self.piskvork_board.as_ref().is_some_and(|b| b.is_empty())
        {
            self.send("BEGIN")?
        } else if in_sync_turn {
            let last = request.moves.last().cloned().unwrap_or_default();
            self.send(&format!("TURN {last}"))?
        } else {
            self.send("BOARD")?;
            let to_move_parity = request.moves.len() % 2;
            for (index, mv) in request.moves.iter().enumerate() {
                let owner = if index % 2 == to_move_parity { 1 } else { 2 };
                self.send(&format!("{mv},{owner}"))?;
            }
            self.send("DONE")?
        };
        self.piskvork_board = None;
        let deadline = sent_at + request.allowed;
        let waiting_for = format!("move within {} ms", request.allowed.as_millis());
        loop {
            let (line, at) = self.receive(deadline, &waiting_for)?;
            // A late answer to ABOUT (or its refusal) is not a move.
            if self.about_pending && self.take_about_line(&line) {
                continue;
            }
            let first = line.split_whitespace().next().unwrap_or("");
            match first {
                "MESSAGE" | "DEBUG" => {}
                "SUGGEST" => {
                    let suggestion = line
                        .split_whitespace()
                        .nth(1)
                        .unwrap_or_default()
                        .to_string();
                    self.send(&format!("PLAY {suggestion}"))?;
                }
                _ => {
                    let Some(notation) = normalize_gomoku_move(&line) else {
                        self.healthy = false;
                        let shown: String = line.chars().take(80).collect();
                        return failure(FailureKind::Garbage, format!("'{shown}' is not a move"));
                    };
                    let mut board = request.moves.to_vec();
                    board.push(notation.clone());
                    self.piskvork_board = Some(board);
                    return Ok(MoveReply {
                        notation,
                        elapsed: at.saturating_duration_since(sent_at),
                        score: None,
                        depth: None,
                        resigns: false,
                    });
                }
            }
        }
    }

    /// Kills the engine at once (after a forfeit).
    pub fn kill(mut self) {
        self.process.kill();
    }

    /// Asks the engine to quit, killing it if it does not exit in [`QUIT_GRACE`].
    pub fn shut_down(self) {
        if !self.healthy {
            return self.kill();
        }
        let quit = match self.protocol {
            Protocol::Piskvork => "END",
            _ => "quit",
        };
        self.process.shut_down(quit, QUIT_GRACE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_conversions() {
        assert_eq!(ranks_to_one_based("h2e2"), "h3e3");
        assert_eq!(ranks_to_one_based("a9a0"), "a10a1");
        assert_eq!(ranks_from_one_based("h3e3").as_deref(), Some("h2e2"));
        assert_eq!(ranks_from_one_based("a10a1").as_deref(), Some("a9a0"));
        assert_eq!(ranks_from_one_based("a0a1"), None);
        assert_eq!(ranks_from_one_based("a11a1"), None);
        assert_eq!(ranks_from_one_based("a1a2x"), None);
        assert_eq!(ranks_from_one_based("j1a2"), None);
        assert_eq!(ranks_from_one_based(""), None);
    }

    #[test]
    fn move_syntax() {
        assert!(is_xiangqi_move("h2e2"));
        assert!(!is_xiangqi_move("h2e"));
        assert!(!is_xiangqi_move("z2e2"));
        assert!(!is_xiangqi_move("h2é2"));
        assert_eq!(normalize_gomoku_move(" 7, 8").as_deref(), Some("7,8"));
        assert_eq!(normalize_gomoku_move("7;8"), None);
        assert_eq!(normalize_gomoku_move("-1,8"), None);
    }

    #[test]
    fn about_answers_parse() {
        let about = EngineAbout::parse(
            "name=\"Yixin, 2018\", version=\"18.11\", author=\"Kai Sun\", country=\"China\"",
        )
        .unwrap();
        assert_eq!(about.name(), Some("Yixin, 2018"));
        assert_eq!(about.version(), Some("18.11"));
        assert_eq!(about.get("country"), Some("China"));
        assert_eq!(about.pairs.len(), 4);
        let bare = EngineAbout::parse("NAME=pbrain-x,version = 2").unwrap();
        assert_eq!(bare.name(), Some("pbrain-x"));
        assert_eq!(bare.version(), Some("2"));
        let unfinished = EngineAbout::parse("name=\"cut").unwrap();
        assert_eq!(unfinished.name(), Some("cut"));
        assert_eq!(unfinished.version(), None);
        for not_about in ["7,7", "", "UNKNOWN ABOUT", "MESSAGE a = b", "OK"] {
            assert_eq!(EngineAbout::parse(not_about), None, "{not_about}");
        }
    }

    fn piskvork_spec(options: &[(&str, &str)]) -> EngineSpec {
        EngineSpec {
            name: "e".to_string(),
            command: "e".to_string(),
            args: Vec::new(),
            dir: None,
            protocol: ProtocolChoice::Piskvork,
            ranks_one_based: false,
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    fn gomoku_setup(time: TimeControl) -> MatchSetup {
        MatchSetup {
            game: GameChoice::Gomoku {
                width: 15,
                height: 15,
                rule: crate::gomoku::Rule::Renju,
            },
            time,
            max_wait: Duration::from_millis(60_000),
            log: None,
        }
    }

    #[test]
    fn piskvork_info_lines_follow_the_limits_and_options() {
        let both = TimeControl {
            turn_time_ms: Some(200),
            match_time_ms: Some(20_000),
            ..TimeControl::default()
        };
        assert_eq!(
            piskvork_info_lines(&gomoku_setup(both), &piskvork_spec(&[])),
            [
                "INFO timeout_turn 200",
                "INFO timeout_match 20000",
                "INFO max_memory 367001600",
                "INFO rule 4",
                "INFO game_type 1",
            ]
        );
        // Only a match time: the turn may take all of it, never `timeout_turn 0`.
        let whole = TimeControl {
            match_time_ms: Some(9000),
            ..TimeControl::default()
        };
        let lines = piskvork_info_lines(
            &gomoku_setup(whole),
            &piskvork_spec(&[("max_memory", "1000"), ("thread_num", "2")]),
        );
        assert_eq!(
            lines,
            [
                "INFO timeout_turn 9000",
                "INFO timeout_match 9000",
                "INFO rule 4",
                "INFO game_type 1",
                "INFO max_memory 1000",
                "INFO thread_num 2",
            ]
        );
        // Depth only: the turn may take --maxwait.
        let depth = TimeControl {
            depth: Some(4),
            ..TimeControl::default()
        };
        let lines = piskvork_info_lines(&gomoku_setup(depth), &piskvork_spec(&[]));
        assert_eq!(lines[0], "INFO timeout_turn 60000");
        assert_eq!(lines[1], "INFO timeout_match 0");
        assert!(lines.contains(&"INFO max_depth 4".to_string()));
    }

    #[test]
    fn info_lines_give_score_and_depth() {
        let mut score = None;
        let mut depth = None;
        read_info(
            "info depth 7 seldepth 9 score cp -35 nodes 100 pv h2e2 h9g7",
            &mut score,
            &mut depth,
        );
        assert_eq!((score, depth), (Some(EngineScore::Cp(-35)), Some(7)));
        read_info("info depth 9 score mate 3 pv h2e2", &mut score, &mut depth);
        assert_eq!((score, depth), (Some(EngineScore::Mate(3)), Some(9)));
        read_info("info depth 10 score 120 pv h2e2", &mut score, &mut depth);
        assert_eq!((score, depth), (Some(EngineScore::Cp(120)), Some(10)));
        read_info("info string score cp 5000", &mut score, &mut depth);
        assert_eq!(score, Some(EngineScore::Cp(120)));
        read_info("info depth x score cp", &mut score, &mut depth);
        assert_eq!(score, Some(EngineScore::Cp(120)));
        assert_eq!(EngineScore::Mate(-2).as_cp(), -99_998);
    }
}
