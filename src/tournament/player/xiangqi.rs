//! The Xiangqi driver: one [`EngineDriver`] for the UCI family, UCCI and UCI (with optional
//! 1-10 rank numbering, Fairy-Stockfish's). It holds the handshake (`ucci`/`ucciok`,
//! `uci`/`uciok`, and the `proto=auto` probe), the options (`setoption`, `isready`), new games
//! (`ucinewgame` or UCCI's `setoption newgame`), the move request (`position fen ... moves
//! ...` and `go` with the clock in the family's words) and the reading of `info` and
//! `bestmove` lines.
//!
//! Protocol detection (`proto=auto`): the runner sends `ucci` and waits up to
//! [`DETECT_WAIT`] while `id` and `option` lines arrive: `ucciok` means UCCI. Any other line
//! (such as "Unknown command"), or silence, makes it send `uci` and wait for `uciok` (UCI) —
//! an `ucciok` arriving then still means UCCI. The runner remembers the result for the
//! engine, so later restarts skip the probe.
//!
//! Moves cross this driver with ranks 0-9 on the runner's side; with `ranks=1` a UCI engine
//! gets and gives ranks 1-10, converted here.

use std::time::{Duration, Instant};

use super::{
    EngineDriver, EngineFailure, EngineScore, FailureKind, Link, MoveReply, MoveRequest, failure,
};
use crate::protocol::Protocol;
use crate::tournament::args::{EngineSpec, TimeControl};

/// How long `auto` detection waits for `ucciok` before trying `uci`.
pub const DETECT_WAIT: Duration = Duration::from_millis(1500);

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

/// The state of a UCI or UCCI engine. Invariant: `protocol` is [`Protocol::Ucci`] or
/// [`Protocol::Uci`], never Piskvork.
#[derive(Debug)]
pub struct XiangqiDriver {
    /// UCCI or UCI, as given or detected.
    protocol: Protocol,
    /// The engine numbers ranks 1-10 (`ranks=1`); used with UCI only.
    ranks_one_based: bool,
    /// UCCI: times in milliseconds (the engine announced `usemillisec`).
    ucci_milliseconds: bool,
    /// Options the engine announced (the UCCI names; UCI's `option name` lines add none).
    announced_options: Vec<String>,
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

impl XiangqiDriver {
    fn new(protocol: Protocol, ranks_one_based: bool) -> XiangqiDriver {
        XiangqiDriver {
            protocol,
            ranks_one_based,
            ucci_milliseconds: false,
            announced_options: Vec::new(),
        }
    }

    /// Handshake of an engine given as `protocol` (UCCI or UCI): `ucci` or `uci`, then
    /// `ucciok` or `uciok` by `deadline`. `ranks_one_based` is the engine's `ranks=1` (used
    /// with UCI only).
    pub fn start(
        link: &mut Link,
        protocol: Protocol,
        ranks_one_based: bool,
        deadline: Instant,
    ) -> Result<XiangqiDriver, EngineFailure> {
        debug_assert_ne!(protocol, Protocol::Piskvork, "not a Xiangqi protocol");
        let mut driver = XiangqiDriver::new(protocol, ranks_one_based);
        if protocol == Protocol::Ucci {
            link.send("ucci")?;
            driver.wait_for(link, "ucciok", deadline)?;
            driver.finish_ucci_handshake(link)?;
        } else {
            link.send("uci")?;
            driver.wait_for(link, "uciok", deadline)?;
        }
        Ok(driver)
    }

    /// `proto=auto` for Xiangqi: the `ucci` probe, then `uci` (see the module comment).
    /// `ranks_one_based` applies if the engine turns out to speak UCI.
    pub fn detect(
        link: &mut Link,
        ranks_one_based: bool,
        deadline: Instant,
    ) -> Result<XiangqiDriver, EngineFailure> {
        // The protocol stays UCCI unless `uciok` answers.
        let mut driver = XiangqiDriver::new(Protocol::Ucci, ranks_one_based);
        link.send("ucci")?;
        let probe_deadline = (Instant::now() + DETECT_WAIT).min(deadline);
        while let Some(line) =
            link.receive_or_timeout(probe_deadline, "the engine exited during detection")?
        {
            match line.split_whitespace().next() {
                Some("ucciok") => {
                    driver.finish_ucci_handshake(link)?;
                    return Ok(driver);
                }
                Some("id") | Some("option") => driver.note_handshake_line(&line),
                _ => break,
            }
        }
        driver.announced_options.clear();
        link.send("uci")?;
        loop {
            let (line, _) = link.receive(deadline, "uciok or ucciok")?;
            match line.split_whitespace().next() {
                Some("uciok") => {
                    driver.protocol = Protocol::Uci;
                    return Ok(driver);
                }
                Some("ucciok") => {
                    driver.finish_ucci_handshake(link)?;
                    return Ok(driver);
                }
                _ => driver.note_handshake_line(&line),
            }
        }
    }

    /// After `ucciok`: switch to milliseconds when the engine can.
    fn finish_ucci_handshake(&mut self, link: &mut Link) -> Result<(), EngineFailure> {
        self.protocol = Protocol::Ucci;
        if self.ucci_milliseconds {
            link.send("setoption usemillisec true")?;
        }
        Ok(())
    }

    /// Moves cross with ranks 1-10: a UCI engine with `ranks=1`.
    fn one_based(&self) -> bool {
        self.protocol == Protocol::Uci && self.ranks_one_based
    }

    /// Waits for a line whose first word is `word`, noting the options of the other lines.
    fn wait_for(
        &mut self,
        link: &mut Link,
        word: &str,
        deadline: Instant,
    ) -> Result<(), EngineFailure> {
        loop {
            let (line, _) = link.receive(deadline, word)?;
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

    fn ucci_time(&self, ms: u64) -> String {
        if self.ucci_milliseconds {
            ms.to_string()
        } else {
            // Whole seconds, as UCCI engines without millisecond mode parse integers.
            (ms / 1000).to_string()
        }
    }

    /// The `go` line of a UCCI engine: the clocks as `time`/`increment`/`movestogo` and the
    /// opponent's as `opp...`, a fixed move time as the whole clock for one move.
    fn ucci_go(&self, request: &MoveRequest<'_>, time: &TimeControl) -> String {
        let mut go = String::from("go");
        if let Some(clock) = request.clock {
            go += &format!(" time {}", self.ucci_time(clock.own_ms));
            match clock.own_moves_to_go {
                Some(moves) => go += &format!(" movestogo {moves}"),
                None => go += &format!(" increment {}", self.ucci_time(clock.increment_ms)),
            }
            go += &format!(" opptime {}", self.ucci_time(clock.opponent_ms));
            match clock.opponent_moves_to_go {
                Some(moves) => go += &format!(" oppmovestogo {moves}"),
                None => go += &format!(" oppincrement {}", self.ucci_time(clock.increment_ms)),
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
        go
    }

    /// The `go` line of a UCI engine: the clocks by colour (`wtime`/`btime`, red being
    /// white), then every limit that is set.
    fn uci_go(request: &MoveRequest<'_>, time: &TimeControl) -> String {
        let mut go = String::from("go");
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
        go
    }

    /// The `position` line: UCCI gets the position after the last capture and the moves
    /// since (as UCCI GUIs send it), UCI the game's root and every move.
    fn position_line(&self, request: &MoveRequest<'_>) -> String {
        let (root, moves) = match self.protocol {
            Protocol::Ucci => request.since_capture,
            _ => (request.root, request.moves),
        };
        let one_based = self.one_based();
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
        position
    }
}

impl EngineDriver for XiangqiDriver {
    fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Sends every `option.KEY=VALUE` (UCCI `setoption KEY VALUE`, UCI `setoption name KEY
    /// value VALUE`), then `isready` and waits for `readyok`.
    fn configure(
        &mut self,
        link: &mut Link,
        spec: &EngineSpec,
        deadline: Instant,
    ) -> Result<(), EngineFailure> {
        for (name, value) in &spec.options {
            let line = match self.protocol {
                Protocol::Ucci => format!("setoption {name} {value}"),
                _ => format!("setoption name {name} value {value}"),
            };
            link.send(&line)?;
        }
        link.send("isready")?;
        self.wait_for(link, "readyok", deadline)
    }

    /// UCI: `ucinewgame`; UCCI: `setoption newgame` when the engine announced it. Then
    /// `isready` and `readyok`.
    fn new_game(
        &mut self,
        link: &mut Link,
        _first: bool,
        deadline: Instant,
    ) -> Result<(), EngineFailure> {
        match self.protocol {
            Protocol::Ucci => {
                if self.announced_options.iter().any(|o| o == "newgame") {
                    link.send("setoption newgame")?;
                }
            }
            _ => {
                link.send("ucinewgame")?;
            }
        }
        link.send("isready")?;
        self.wait_for(link, "readyok", deadline)
    }

    /// `position` and `go`, then reads `info` lines until `bestmove` (or `nobestmove`).
    fn request_move(
        &mut self,
        link: &mut Link,
        request: &MoveRequest<'_>,
        time: &TimeControl,
    ) -> Result<MoveReply, EngineFailure> {
        link.send(&self.position_line(request))?;
        let go = match self.protocol {
            Protocol::Ucci => self.ucci_go(request, time),
            _ => XiangqiDriver::uci_go(request, time),
        };
        let sent_at = link.send(&go)?;
        let deadline = sent_at + request.allowed;
        let waiting_for = format!("bestmove within {} ms", request.allowed.as_millis());
        let one_based = self.one_based();
        let mut score = None;
        let mut depth = None;
        loop {
            let (line, at) = link.receive(deadline, &waiting_for)?;
            let mut words = line.split_whitespace();
            let first = words.next().unwrap_or("");
            match first {
                "info" => read_info(&line, &mut score, &mut depth),
                "nobestmove" => {
                    return failure(FailureKind::NoMove, "nobestmove in a position with moves");
                }
                "bestmove" => {
                    let Some(token) = words.next() else {
                        link.mark_unhealthy();
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
                        link.mark_unhealthy();
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
                    link.mark_unhealthy();
                    let shown: String = line.chars().take(80).collect();
                    return failure(FailureKind::Garbage, format!("unexpected output '{shown}'"));
                }
            }
        }
    }

    fn quit_line(&self) -> &'static str {
        "quit"
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
