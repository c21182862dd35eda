//! UCCI (Universal Chinese Chess Protocol 3.0), a Xiangqi protocol: the line parser (run by the
//! reader thread) and the output formatting (handshake, `info`, `bestmove`) the Xiangqi
//! session (`session/xiangqi.rs`, engine thread) prints with.
//!
//! Dialect tolerance: `setoption name X value Y` is accepted besides `setoption X Y`, UCI
//! option names map to the UCCI ones (`Hash` -> `hashsize`, `Threads` -> `threads`), times are
//! milliseconds unless `setoption usemillisec false` switched to seconds, and bad input is
//! answered with an `info string ...` line (the same wording as in UCI).

use std::fmt::Write as _;

use super::command::{ClockSpec, Command, GoCmd, OptionSetting, ParseError, Protocol};
use super::parse::{
    Res, bad, clamped_time, finish, move_list, next_word, number, parse_bool, parse_spin,
    position_spec, rest_of_line, some_number,
};
use crate::engine::{Score, SearchInfo, SearchOutcome};
use crate::protocol::{ENGINE_AUTHOR, ENGINE_NAME, ENGINE_VERSION, Options};
use crate::xiangqi::Move;

/// UCCI scores for mates: `MATE_SCORE - plies` (ElephantEye's convention).
pub const MATE_SCORE: i32 = 10_000;

/// Largest hash size accepted, in MB.
pub const MAX_HASH_MB: u64 = 32_768;
/// Largest thread count accepted.
pub const MAX_THREADS: u64 = 256;

/// Parses one UCCI line (already known to be non-empty).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let (rest, Some(first)) = next_word(line) else {
        return Err(ParseError::UnknownCommand(String::new()));
    };
    match first {
        "ucci" => Ok(Command::Handshake(Protocol::Ucci)),
        "uci" => Ok(Command::Handshake(Protocol::Uci)),
        "isready" => Ok(Command::IsReady),
        "setoption" => setoption(rest).map(Command::SetOption),
        "position" => finish(position_spec(rest), "position").map(Command::Position),
        "fen" | "startpos" => finish(position_spec(line), "position").map(Command::Position),
        "banmoves" => finish(move_list(rest), "banmoves").map(Command::BanMoves),
        "go" => finish(go(rest), "go"),
        "ponderhit" => match next_word(rest).1 {
            None => Ok(Command::PonderHit {
                draw_offered: false,
            }),
            Some("draw") => Ok(Command::PonderHit { draw_offered: true }),
            Some(other) => Err(ParseError::Unexpected {
                command: "ponderhit",
                found: other.to_string(),
            }),
        },
        "stop" => Ok(Command::Stop),
        "probe" => finish(position_spec(rest), "probe").map(Command::Probe),
        "d" => Ok(Command::Display),
        "quit" => Ok(Command::Quit),
        other => Err(ParseError::UnknownCommand(other.to_string())),
    }
}

/// `go [ponder | draw] <mode>`; the words may come in any order. `go perft <n>` too.
fn go(input: &str) -> Res<'_, Command> {
    let mut cmd = GoCmd::default();
    let mut time = None;
    let mut movestogo = None;
    let mut increment = None;
    let mut opptime = None;
    let mut rest = input;
    let conflict = |what: &str| bad(ParseError::Conflict(format!("go: {what}")));
    while let (after, Some(w)) = next_word(rest) {
        rest = after;
        match w {
            "ponder" => cmd.ponder = true,
            "draw" => cmd.draw_offered = true,
            "depth" => {
                if cmd.depth.is_some() || cmd.infinite {
                    return conflict("'depth' given twice");
                }
                if let (after, Some("infinite")) = next_word(rest) {
                    rest = after;
                    cmd.infinite = true;
                } else {
                    let (after, d) = number::<u32>(rest, "depth")?;
                    rest = after;
                    cmd.depth = Some(d);
                }
            }
            "nodes" => (rest, cmd.nodes) = some_number(rest, "nodes")?,
            "time" => (rest, time) = clamped_time(rest, "time", &mut cmd.clamped)?,
            "movestogo" => (rest, movestogo) = some_number(rest, "movestogo")?,
            "increment" => (rest, increment) = clamped_time(rest, "increment", &mut cmd.clamped)?,
            "opptime" => (rest, opptime) = clamped_time(rest, "opptime", &mut cmd.clamped)?,
            // The opponent's control is checked for form but not used.
            "oppmovestogo" => (rest, _) = number::<u32>(rest, "oppmovestogo")?,
            "oppincrement" => (rest, _) = clamped_time(rest, "oppincrement", &mut cmd.clamped)?,
            "perft" => {
                let (after, n) = number::<u32>(rest, "perft")?;
                return Ok((after, Command::Perft(n)));
            }
            other => {
                return bad(ParseError::Unexpected {
                    command: "go",
                    found: other.to_string(),
                });
            }
        }
    }
    match time {
        Some(time) => {
            cmd.clock = ClockSpec::Ucci {
                time,
                movestogo,
                increment,
                opptime,
            }
        }
        None if movestogo.is_some() || increment.is_some() => {
            return conflict("'movestogo' and 'increment' need 'time'");
        }
        None => {}
    }
    if cmd.depth.is_none() && cmd.nodes.is_none() && time.is_none() {
        // A bare `go` (or `go ponder`) thinks until `stop`.
        cmd.infinite = true;
    }
    Ok((rest, Command::Go(cmd)))
}

/// `setoption <name> [<value>]`, or the UCI-style `setoption name <name> [value <value>]`.
fn setoption(input: &str) -> Result<OptionSetting, ParseError> {
    let (rest, Some(first)) = next_word(input) else {
        return Err(ParseError::MissingOptionName);
    };
    let (name, value) = if first == "name" {
        super::uci::split_name_value(rest)?
    } else {
        let value = rest_of_line(rest);
        (
            first.to_string(),
            (!value.is_empty()).then(|| value.to_string()),
        )
    };
    option_setting(&name, value.as_deref())
}

/// Maps a UCCI (or UCI-spelled) option name and value to a typed setting. Unknown names are
/// not an error in UCCI: they become [`OptionSetting::Ignored`].
pub fn option_setting(name: &str, value: Option<&str>) -> Result<OptionSetting, ParseError> {
    let key = name.to_ascii_lowercase();
    Ok(match key.as_str() {
        "usemillisec" => OptionSetting::UseMillisec(parse_bool(name, value)?),
        "batch" => OptionSetting::Batch(parse_bool(name, value)?),
        "debug" => OptionSetting::Debug(parse_bool(name, value)?),
        "ponder" => OptionSetting::Ponder(parse_bool(name, value)?),
        "usebook" => OptionSetting::UseBook(parse_bool(name, value)?),
        "bookfiles" => OptionSetting::BookFiles(value.unwrap_or("").to_string()),
        "hashsize" | "hash" => OptionSetting::Hash(parse_spin(
            name,
            value,
            0,
            MAX_HASH_MB,
            "a size in MB from 0 (automatic) to 32768",
        )? as usize),
        "threads" => OptionSetting::Threads(parse_spin(
            name,
            value,
            0,
            MAX_THREADS,
            "a count from 0 (automatic) to 256",
        )? as usize),
        "newgame" | "clear hash" => OptionSetting::ClearHash,
        "randomness" => OptionSetting::Randomness(randomness(name, value)?),
        "usennue" => OptionSetting::UseNnue(parse_bool(name, value)?),
        "evalfile" => OptionSetting::EvalFile(value.unwrap_or("").to_string()),
        _ => OptionSetting::Ignored(name.to_string()),
    })
}

/// UCCI randomness levels (ElephantEye's combo), or a plain number.
fn randomness(name: &str, value: Option<&str>) -> Result<u32, ParseError> {
    let level = match value.map(str::to_ascii_lowercase).as_deref() {
        Some("none") => 0,
        Some("tiny") => 1,
        Some("small") => 2,
        Some("medium") => 3,
        Some("large") => 4,
        Some("huge") => 5,
        _ => parse_spin(
            name,
            value,
            0,
            100,
            "none, tiny, small, medium, large, huge or 0-100",
        )? as u32,
    };
    Ok(level)
}

/// The reply to `ucci`: identification, options, `ucciok`.
pub fn handshake(options: &Options) -> Vec<String> {
    vec![
        format!("id name {ENGINE_NAME} {ENGINE_VERSION}"),
        format!("id version {ENGINE_VERSION}"),
        format!("id copyright 2026 {ENGINE_AUTHOR}, MIT licence"),
        format!("id author {ENGINE_AUTHOR}"),
        "id user unknown".to_string(),
        "option usemillisec type check default true".to_string(),
        "option batch type check default false".to_string(),
        "option debug type check default false".to_string(),
        "option ponder type check default false".to_string(),
        "option usebook type check default false".to_string(),
        "option bookfiles type string default <empty>".to_string(),
        format!(
            "option hashsize type spin min 0 max {MAX_HASH_MB} default {}",
            options.hash_mb
        ),
        format!(
            "option threads type spin min 0 max {MAX_THREADS} default {}",
            options.threads
        ),
        "option newgame type button".to_string(),
        format!("option usennue type check default {}", options.use_nnue),
        format!("option evalfile type string default {}", options.eval_file_shown()),
        "option randomness type combo var none var tiny var small var medium var large var huge default none".to_string(),
        "ucciok".to_string(),
    ]
}

/// A UCCI score: plain units, mates as `±(MATE_SCORE - plies)`.
pub fn score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::MatePlies(p) if p >= 0 => MATE_SCORE - p,
        Score::MatePlies(p) => -MATE_SCORE - p,
    }
}

/// The `info` lines for one search report: `info depth d score s pv ...` then
/// `info time t nodes n`.
pub fn info(info: &SearchInfo<Move>) -> Vec<String> {
    let mut line = format!("info depth {} score {}", info.depth, score(info.score));
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for m in &info.pv {
            let _ = write!(line, " {m}");
        }
    }
    vec![
        line,
        format!("info time {} nodes {}", info.time_ms, info.nodes),
    ]
}

/// Centipawn-like score at or below which a draw offer is accepted.
pub const ACCEPT_DRAW_BELOW: i32 = -50;

/// The final line: `bestmove m [ponder p] [draw | resign]` or `nobestmove`. A draw offer is
/// accepted when the search sees us clearly worse (or mated); Qilin resigns only when the
/// search proved a mate against it and no draw is on offer.
pub fn bestmove(outcome: &SearchOutcome<Move>, draw_offered: bool) -> String {
    let Some(best) = outcome.best else {
        return "nobestmove".to_string();
    };
    let mut line = format!("bestmove {best}");
    if let Some(p) = outcome.ponder {
        let _ = write!(line, " ponder {p}");
    }
    let losing_mate = matches!(outcome.score, Score::MatePlies(p) if p < 0);
    let worse = match outcome.score {
        Score::Cp(cp) => cp <= ACCEPT_DRAW_BELOW,
        Score::MatePlies(p) => p < 0,
    };
    if draw_offered && worse {
        line.push_str(" draw");
    } else if losing_mate {
        line.push_str(" resign");
    }
    line
}

/// `pophash [bestmove m] [lowerbound v depth d] [upperbound v depth d]`, scores on the
/// scale of `info` (see [`score`]).
pub fn pophash(probe: Option<&crate::protocol::HashProbe>) -> String {
    let mut line = String::from("pophash");
    if let Some(p) = probe {
        if let Some(m) = p.best {
            let _ = write!(line, " bestmove {m}");
        }
        if let Some((v, d)) = p.lower {
            let _ = write!(line, " lowerbound {} depth {d}", score(v));
        }
        if let Some((v, d)) = p.upper {
            let _ = write!(line, " upperbound {} depth {d}", score(v));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::text::command::{PositionBase, RawTime};

    fn go_of(line: &str) -> GoCmd {
        match parse(line) {
            Ok(Command::Go(g)) => g,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn go_modes() {
        let g = go_of("go depth 8");
        assert_eq!(g.depth, Some(8));
        assert!(!g.infinite);
        assert!(go_of("go depth infinite").infinite);
        assert!(go_of("go ponder").infinite && go_of("go ponder").ponder);
        let g = go_of("go draw time 60000 increment 500 opptime 30000 oppincrement 500");
        assert!(g.draw_offered);
        assert_eq!(
            g.clock,
            ClockSpec::Ucci {
                time: RawTime(60_000_000),
                movestogo: None,
                increment: Some(RawTime(500_000)),
                opptime: Some(RawTime(30_000_000)),
            }
        );
        assert_eq!(go_of("go nodes 5000").nodes, Some(5000));
        assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
    }

    #[test]
    fn go_errors() {
        assert_eq!(parse("go depth"), Err(ParseError::MissingValue("depth")));
        // An out-of-range time is clamped (and noted), not refused.
        let g = go_of("go time -5 increment -1");
        assert!(matches!(
            g.clock,
            ClockSpec::Ucci {
                time: RawTime(0),
                increment: Some(RawTime(0)),
                ..
            }
        ));
        assert_eq!(g.clamped.len(), 2);
        assert!(matches!(
            parse("go time x"),
            Err(ParseError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("go depth x"),
            Err(ParseError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("go movestogo 3"),
            Err(ParseError::Conflict(_))
        ));
        assert!(matches!(
            parse("go sideways"),
            Err(ParseError::Unexpected { .. })
        ));
    }

    #[test]
    fn setoption_dialects() {
        assert_eq!(
            parse("setoption usemillisec false"),
            Ok(Command::SetOption(OptionSetting::UseMillisec(false)))
        );
        assert_eq!(
            parse("setoption hashsize 64"),
            Ok(Command::SetOption(OptionSetting::Hash(64)))
        );
        assert_eq!(
            parse("setoption name Hash value 32"),
            Ok(Command::SetOption(OptionSetting::Hash(32)))
        );
        assert_eq!(
            parse("setoption name Threads value 2"),
            Ok(Command::SetOption(OptionSetting::Threads(2)))
        );
        assert_eq!(
            parse("setoption randomness small"),
            Ok(Command::SetOption(OptionSetting::Randomness(2)))
        );
        assert_eq!(
            parse("setoption bookfiles a.obk;b c.obk"),
            Ok(Command::SetOption(OptionSetting::BookFiles(
                "a.obk;b c.obk".into()
            )))
        );
        assert_eq!(
            parse("setoption style risky"),
            Ok(Command::SetOption(OptionSetting::Ignored("style".into())))
        );
        assert!(parse("setoption hashsize lots").is_err());
        assert_eq!(parse("setoption"), Err(ParseError::MissingOptionName));
    }

    #[test]
    fn other_commands() {
        assert_eq!(
            parse("ponderhit draw"),
            Ok(Command::PonderHit { draw_offered: true })
        );
        assert!(matches!(parse("banmoves h2e2 h0g2"), Ok(Command::BanMoves(m)) if m.len() == 2));
        assert!(parse("banmoves h2e9x").is_err());
        assert!(matches!(
            parse("probe startpos moves h2e2"),
            Ok(Command::Probe(p)) if p.base == PositionBase::Startpos
        ));
        assert_eq!(
            parse("dance"),
            Err(ParseError::UnknownCommand("dance".into()))
        );
    }

    #[test]
    fn output_formats() {
        assert_eq!(score(Score::MatePlies(3)), 9997);
        assert_eq!(score(Score::MatePlies(-2)), -9998);
        let m = Move::parse("h2e2");
        let outcome = SearchOutcome {
            best: m,
            ponder: Move::parse("h9g7"),
            score: Score::Cp(-120),
            depth: 5,
            nodes: 10,
        };
        assert_eq!(bestmove(&outcome, false), "bestmove h2e2 ponder h9g7");
        assert_eq!(bestmove(&outcome, true), "bestmove h2e2 ponder h9g7 draw");
        let mated = SearchOutcome {
            score: Score::MatePlies(-4),
            ponder: None,
            ..outcome.clone()
        };
        assert_eq!(bestmove(&mated, false), "bestmove h2e2 resign");
        let none = SearchOutcome {
            best: None,
            ..outcome
        };
        assert_eq!(bestmove(&none, false), "nobestmove");
    }
}
