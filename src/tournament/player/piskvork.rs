//! The Piskvork (Gomocup) driver: the [`EngineDriver`] of Gomoku engines. It holds the
//! handshake (`START N` or `RECTSTART W,H` answered by `OK`, `ABOUT`, then the `INFO` lines of
//! [`piskvork_info_lines`]), new games (`RESTART`), the move request (`BEGIN`, `TURN x,y` when
//! the engine's board is known to be one move behind, `BOARD ... DONE` otherwise, with `INFO
//! time_left` under `--match-time`), the engine's `ABOUT` answer (which may arrive late, before
//! a move) and `END`.

use std::time::{Duration, Instant};

use super::{
    EngineDriver, EngineFailure, FailureKind, Link, MatchSetup, MoveReply, MoveRequest, failure,
};
use crate::protocol::{DEFAULT_MAX_MEMORY, Protocol};
use crate::tournament::args::{EngineSpec, GameChoice, TimeControl};

/// How long a Piskvork engine's answer to `ABOUT` is awaited during the handshake. An answer
/// that comes later is still taken when it arrives before a move.
pub const ABOUT_WAIT: Duration = Duration::from_millis(1000);

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

/// Parses a Piskvork move `x,y` into its normal form, or `None`.
pub fn normalize_gomoku_move(text: &str) -> Option<String> {
    let (x, y) = text.split_once(',')?;
    let x: u32 = x.trim().parse().ok()?;
    let y: u32 = y.trim().parse().ok()?;
    Some(format!("{x},{y}"))
}

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

/// The state of a Piskvork engine.
#[derive(Debug)]
pub struct PiskvorkDriver {
    /// The moves on the engine's board, when known to be in sync.
    board: Option<Vec<String>>,
    /// The engine's answer to `ABOUT`.
    about: Option<EngineAbout>,
    /// `ABOUT` was sent and neither answered nor refused yet.
    about_pending: bool,
}

impl PiskvorkDriver {
    /// Piskvork set-up by `deadline`: `START N` (square) or `RECTSTART W,H` (expecting `OK`),
    /// `ABOUT` (answer awaited up to [`ABOUT_WAIT`]), then the INFO lines of
    /// [`piskvork_info_lines`].
    pub fn start(
        link: &mut Link,
        spec: &EngineSpec,
        setup: &MatchSetup,
        deadline: Instant,
    ) -> Result<PiskvorkDriver, EngineFailure> {
        let mut driver = PiskvorkDriver {
            board: None,
            about: None,
            about_pending: false,
        };
        let (width, height) = match setup.game {
            GameChoice::Gomoku { width, height, .. } => (width, height),
            GameChoice::Xiangqi => (15, 15),
        };
        if width == height {
            link.send(&format!("START {width}"))?;
            expect_ok(link, deadline, "START")?;
        } else {
            link.send(&format!("RECTSTART {width},{height}"))?;
            expect_ok(link, deadline, "RECTSTART")?;
        }
        link.send("ABOUT")?;
        driver.about_pending = true;
        let about_deadline = (Instant::now() + ABOUT_WAIT).min(deadline);
        while driver.about_pending {
            match link
                .receive_or_timeout(about_deadline, "the engine exited while ABOUT was awaited")?
            {
                Some(line) => {
                    driver.take_about_line(&line);
                }
                None => break,
            }
        }
        for line in piskvork_info_lines(setup, spec) {
            link.send(&line)?;
        }
        driver.board = Some(Vec::new());
        Ok(driver)
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

    /// Sends the position: `BEGIN` on an empty board the engine has, `TURN x,y` when its
    /// board lacks only the opponent's last move, `BOARD ... DONE` otherwise. Returns when the
    /// last line was sent.
    fn send_position(
        &mut self,
        link: &mut Link,
        moves: &[String],
    ) -> Result<Instant, EngineFailure> {
        let in_sync_turn = match &self.board {
            Some(board) => board.len() + 1 == moves.len() && moves.starts_with(board),
            None => false,
        };
        let sent_at = if moves.is_empty() && self.board.as_ref().is_some_and(|b| b.is_empty()) {
            link.send("BEGIN")?
        } else if in_sync_turn {
            let last = moves.last().cloned().unwrap_or_default();
            link.send(&format!("TURN {last}"))?
        } else {
            link.send("BOARD")?;
            let to_move_parity = moves.len() % 2;
            for (index, mv) in moves.iter().enumerate() {
                let owner = if index % 2 == to_move_parity { 1 } else { 2 };
                link.send(&format!("{mv},{owner}"))?;
            }
            link.send("DONE")?
        };
        self.board = None;
        Ok(sent_at)
    }
}

/// Waits for `OK` after `command`, tolerating `MESSAGE` and `DEBUG` lines; anything else
/// fails the start.
fn expect_ok(link: &mut Link, deadline: Instant, command: &str) -> Result<(), EngineFailure> {
    loop {
        let (line, _) = link.receive(deadline, "OK")?;
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "OK" => return Ok(()),
            "MESSAGE" | "DEBUG" => continue,
            _ => {
                link.mark_unhealthy();
                return failure(
                    FailureKind::Start,
                    format!("{command} answered '{line}' instead of OK"),
                );
            }
        }
    }
}

impl EngineDriver for PiskvorkDriver {
    fn protocol(&self) -> Protocol {
        Protocol::Piskvork
    }

    /// `RESTART` (answered by `OK`) before every game but the first.
    fn new_game(
        &mut self,
        link: &mut Link,
        first: bool,
        deadline: Instant,
    ) -> Result<(), EngineFailure> {
        if !first {
            link.send("RESTART")?;
            expect_ok(link, deadline, "RESTART")?;
        }
        self.board = Some(Vec::new());
        Ok(())
    }

    /// `INFO time_left` under `--match-time`, the position, then the move `x,y`, answering
    /// `SUGGEST` with `PLAY` and skipping `MESSAGE`, `DEBUG` and a late `ABOUT` answer.
    fn request_move(
        &mut self,
        link: &mut Link,
        request: &MoveRequest<'_>,
        _time: &TimeControl,
    ) -> Result<MoveReply, EngineFailure> {
        if let Some(left) = request.match_time_left_ms {
            link.send(&format!("INFO time_left {left}"))?;
        }
        let sent_at = self.send_position(link, request.moves)?;
        let deadline = sent_at + request.allowed;
        let waiting_for = format!("move within {} ms", request.allowed.as_millis());
        loop {
            let (line, at) = link.receive(deadline, &waiting_for)?;
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
                    link.send(&format!("PLAY {suggestion}"))?;
                }
                _ => {
                    let Some(notation) = normalize_gomoku_move(&line) else {
                        link.mark_unhealthy();
                        let shown: String = line.chars().take(80).collect();
                        return failure(FailureKind::Garbage, format!("'{shown}' is not a move"));
                    };
                    let mut board = request.moves.to_vec();
                    board.push(notation.clone());
                    self.board = Some(board);
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

    fn about(&self) -> Option<&EngineAbout> {
        self.about.as_ref()
    }

    fn quit_line(&self) -> &'static str {
        "END"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_syntax() {
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
            protocol: Some(Protocol::Piskvork),
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
        assert!(lines.contains(&"INFO max_memory 367001600".to_string()));
        assert!(lines.contains(&"INFO max_depth 4".to_string()));
    }
}
