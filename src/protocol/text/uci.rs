//! UCI with Pikafish's Xiangqi notation (ranks 0-9): the line parser (run by the reader
//! thread) and the output formatting (handshake, `info`, `bestmove`) the Xiangqi session
//! (`session/xiangqi.rs`, engine thread) prints with.
//!
//! Bad input is answered with `info string ...`. Bare `fen ...` / `startpos ...` lines are
//! read as `position ...`, and `setoption name UCI_Variant value xiangqi` is accepted.

use std::fmt::Write as _;

use super::command::{ClockSpec, Command, GoCmd, OptionSetting, ParseError, Protocol};
use super::parse::{
    Res, bad, clamped_ms, finish, next_word, number, parse_bool, parse_move, parse_spin,
    position_spec, some_number,
};
use super::ucci::{MAX_HASH_MB, MAX_THREADS};
use crate::engine::{Bound, Score, SearchInfo, SearchOutcome};
use crate::protocol::{ENGINE_AUTHOR, ENGINE_NAME, ENGINE_VERSION, Options};
use crate::xiangqi::Move;

/// Largest MultiPV accepted.
pub const MAX_MULTIPV: u64 = 128;
/// Largest move overhead accepted, in ms.
pub const MAX_OVERHEAD_MS: u64 = 5000;

/// Parses one UCI line (already known to be non-empty).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let (rest, Some(first)) = next_word(line) else {
        return Err(ParseError::UnknownCommand(String::new()));
    };
    match first {
        "uci" => Ok(Command::Handshake(Protocol::Uci)),
        "ucci" => Ok(Command::Handshake(Protocol::Ucci)),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::NewGame),
        "setoption" => setoption(rest).map(Command::SetOption),
        "position" => finish(position_spec(rest), "position").map(Command::Position),
        "fen" | "startpos" => finish(position_spec(line), "position").map(Command::Position),
        "go" => finish(go(rest), "go"),
        "ponderhit" => Ok(Command::PonderHit {
            draw_offered: false,
        }),
        "stop" => Ok(Command::Stop),
        "d" => Ok(Command::Display),
        "quit" => Ok(Command::Quit),
        other => Err(ParseError::UnknownCommand(other.to_string())),
    }
}

/// The `go` keywords, which end a `searchmoves` list.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// `go ...` with the UCI keywords in any order; `go perft <n>`.
fn go(input: &str) -> Res<'_, Command> {
    let mut cmd = GoCmd::default();
    let (mut red, mut black, mut red_inc, mut black_inc, mut mtg) = (None, None, None, None, None);
    let mut rest = input;
    while let (after, Some(w)) = next_word(rest) {
        rest = after;
        match w {
            "ponder" => cmd.ponder = true,
            "infinite" => cmd.infinite = true,
            "wtime" => (rest, red) = clamped_ms(rest, "wtime", &mut cmd.clamped)?,
            "btime" => (rest, black) = clamped_ms(rest, "btime", &mut cmd.clamped)?,
            "winc" => (rest, red_inc) = clamped_ms(rest, "winc", &mut cmd.clamped)?,
            "binc" => (rest, black_inc) = clamped_ms(rest, "binc", &mut cmd.clamped)?,
            "movestogo" => (rest, mtg) = some_number(rest, "movestogo")?,
            "depth" => (rest, cmd.depth) = some_number(rest, "depth")?,
            "nodes" => (rest, cmd.nodes) = some_number(rest, "nodes")?,
            "mate" => (rest, cmd.mate) = some_number(rest, "mate")?,
            "movetime" => (rest, cmd.movetime_ms) = clamped_ms(rest, "movetime", &mut cmd.clamped)?,
            "searchmoves" => {
                while let (after, Some(m)) = next_word(rest) {
                    if GO_KEYWORDS.contains(&m) {
                        break;
                    }
                    match parse_move(m) {
                        Ok(mv) => cmd.searchmoves.push(mv),
                        Err(e) => return bad(e),
                    }
                    rest = after;
                }
            }
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
    if red.is_some() || black.is_some() || red_inc.is_some() || black_inc.is_some() {
        cmd.clock = ClockSpec::Uci {
            red_ms: red,
            black_ms: black,
            red_inc_ms: red_inc,
            black_inc_ms: black_inc,
            movestogo: mtg,
        };
    } else if mtg.is_some() {
        return bad(ParseError::Conflict(
            "go: 'movestogo' needs 'wtime' or 'btime'".to_string(),
        ));
    }
    Ok((rest, Command::Go(cmd)))
}

/// Splits `<name words> [value <value words>]` (after `setoption name`).
pub(crate) fn split_name_value(input: &str) -> Result<(String, Option<String>), ParseError> {
    let mut name = Vec::new();
    let mut value: Option<Vec<&str>> = None;
    let mut rest = input;
    while let (after, Some(w)) = next_word(rest) {
        rest = after;
        match value.as_mut() {
            Some(v) => v.push(w),
            None if w == "value" => value = Some(Vec::new()),
            None => name.push(w),
        }
    }
    if name.is_empty() {
        return Err(ParseError::MissingOptionName);
    }
    Ok((name.join(" "), value.map(|v| v.join(" "))))
}

/// `setoption name <Name> [value <v>]`.
fn setoption(input: &str) -> Result<OptionSetting, ParseError> {
    let (rest, first) = next_word(input);
    match first {
        Some("name") => {}
        Some(other) => {
            return Err(ParseError::Unexpected {
                command: "setoption",
                found: other.to_string(),
            });
        }
        None => return Err(ParseError::MissingOptionName),
    }
    let (name, value) = split_name_value(rest)?;
    option_setting(&name, value.as_deref())
}

/// Maps a UCI option name (case-insensitive) and value to a typed setting.
pub fn option_setting(name: &str, value: Option<&str>) -> Result<OptionSetting, ParseError> {
    let key = name.to_ascii_lowercase();
    Ok(match key.as_str() {
        "hash" | "hashsize" => OptionSetting::Hash(parse_spin(
            name,
            value,
            1,
            MAX_HASH_MB,
            "a size in MB from 1 to 32768",
        )? as usize),
        "threads" => {
            OptionSetting::Threads(
                parse_spin(name, value, 1, MAX_THREADS, "a count from 1 to 256")? as usize,
            )
        }
        "multipv" => {
            OptionSetting::MultiPv(
                parse_spin(name, value, 1, MAX_MULTIPV, "a count from 1 to 128")? as u32,
            )
        }
        "ponder" => OptionSetting::Ponder(parse_bool(name, value)?),
        "move overhead" => OptionSetting::MoveOverhead(parse_spin(
            name,
            value,
            0,
            MAX_OVERHEAD_MS,
            "milliseconds from 0 to 5000",
        )?),
        "clear hash" => OptionSetting::ClearHash,
        "usennue" => OptionSetting::UseNnue(parse_bool(name, value)?),
        "evalfile" => OptionSetting::EvalFile(value.unwrap_or("").to_string()),
        "uci_variant" => OptionSetting::Variant(value.unwrap_or("").to_string()),
        _ => return Err(ParseError::UnknownOption(name.to_string())),
    })
}

/// The reply to `uci`: identification, options, `uciok`.
pub fn handshake(options: &Options) -> Vec<String> {
    vec![
        format!("id name {ENGINE_NAME} {ENGINE_VERSION}"),
        format!("id author {ENGINE_AUTHOR}"),
        format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
            options.hash_mb
        ),
        format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            options.threads
        ),
        format!(
            "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
            options.multipv
        ),
        format!("option name Ponder type check default {}", options.ponder),
        format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD_MS}",
            options.move_overhead_ms
        ),
        "option name Clear Hash type button".to_string(),
        format!(
            "option name UseNNUE type check default {}",
            options.use_nnue
        ),
        format!(
            "option name EvalFile type string default {}",
            options.eval_file_shown()
        ),
        "uciok".to_string(),
    ]
}

/// `cp <n>` or `mate <moves>` (plies converted to moves, negative when mated).
pub fn score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::MatePlies(0) => "mate 0".to_string(),
        Score::MatePlies(p) if p > 0 => format!("mate {}", (p + 1) / 2),
        Score::MatePlies(p) => format!("mate -{}", (-p + 1) / 2),
    }
}

/// The `info depth ... pv ...` line for one search report.
pub fn info(info: &SearchInfo<Move>) -> String {
    let nps = info.nodes.saturating_mul(1000) / info.time_ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score(info.score)
    );
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => line.push_str(" lowerbound"),
        Bound::Upper => line.push_str(" upperbound"),
    }
    let _ = write!(
        line,
        " nodes {} nps {nps} hashfull {} time {}",
        info.nodes, info.hashfull, info.time_ms
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for m in &info.pv {
            let _ = write!(line, " {m}");
        }
    }
    line
}

/// `bestmove m [ponder p]`, or `bestmove (none)` when there is no move.
pub fn bestmove(outcome: &SearchOutcome<Move>) -> String {
    match (outcome.best, outcome.ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
        (Some(b), None) => format!("bestmove {b}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go_of(line: &str) -> GoCmd {
        match parse(line) {
            Ok(Command::Go(g)) => g,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn go_keywords() {
        let g = go_of("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
        assert_eq!(
            g.clock,
            ClockSpec::Uci {
                red_ms: Some(1000),
                black_ms: Some(2000),
                red_inc_ms: Some(10),
                black_inc_ms: Some(20),
                movestogo: Some(5),
            }
        );
        let g = go_of("go searchmoves h2e2 b2e2 depth 3 ponder");
        assert_eq!(g.searchmoves.len(), 2);
        assert_eq!(g.depth, Some(3));
        assert!(g.ponder);
        assert!(go_of("go infinite").infinite);
        assert_eq!(go_of("go movetime 200").movetime_ms, Some(200));
        assert_eq!(go_of("go mate 3").mate, Some(3));
        assert_eq!(parse("go perft 2"), Ok(Command::Perft(2)));
    }

    #[test]
    fn go_errors() {
        // Out-of-range times are clamped (and noted), not refused.
        let g = go_of("go wtime -100 btime 99999999999999999999 movetime -5");
        assert!(matches!(
            g.clock,
            ClockSpec::Uci {
                red_ms: Some(0),
                black_ms: Some(super::super::command::TIME_CAP),
                ..
            }
        ));
        assert_eq!(g.movetime_ms, Some(0));
        assert_eq!(g.clamped.len(), 3);
        assert!(matches!(
            parse("go depth -1"),
            Err(ParseError::Negative { .. })
        ));
        assert_eq!(parse("go depth"), Err(ParseError::MissingValue("depth")));
        assert!(matches!(
            parse("go movetime fast"),
            Err(ParseError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("go searchmoves h2e2 zz"),
            Err(ParseError::BadMove(_))
        ));
        assert!(parse("go perft").is_err());
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Command::SetOption(OptionSetting::MoveOverhead(100)))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption(OptionSetting::ClearHash))
        );
        assert_eq!(
            parse("setoption name UCI_Variant value xiangqi"),
            Ok(Command::SetOption(OptionSetting::Variant("xiangqi".into())))
        );
        assert_eq!(
            parse("setoption name Frobnicate value 3"),
            Err(ParseError::UnknownOption("Frobnicate".into()))
        );
        assert!(parse("setoption name Hash value 0").is_err());
        assert!(parse("setoption name MultiPV value many").is_err());
        assert_eq!(parse("setoption name"), Err(ParseError::MissingOptionName));
    }

    #[test]
    fn bare_position_lines() {
        assert!(matches!(
            parse("startpos moves h2e2"),
            Ok(Command::Position(_))
        ));
        assert!(matches!(
            parse("fen 4k4/9/9/9/9/9/9/9/9/4K4 w"),
            Ok(Command::Position(_))
        ));
    }

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(score(Score::MatePlies(1)), "mate 1");
        assert_eq!(score(Score::MatePlies(3)), "mate 2");
        assert_eq!(score(Score::MatePlies(-2)), "mate -1");
        assert_eq!(score(Score::MatePlies(-4)), "mate -2");
        assert_eq!(score(Score::Cp(-35)), "cp -35");
    }

    #[test]
    fn info_line() {
        let i = SearchInfo {
            depth: 3,
            seldepth: 7,
            multipv: 1,
            score: Score::Cp(12),
            bound: Bound::Exact,
            nodes: 2000,
            time_ms: 10,
            hashfull: 1,
            pv: Move::parse("h2e2").into_iter().collect(),
        };
        assert_eq!(
            info(&i),
            "info depth 3 seldepth 7 multipv 1 score cp 12 nodes 2000 nps 200000 hashfull 1 time 10 pv h2e2"
        );
        let failed_low = SearchInfo {
            bound: Bound::Upper,
            ..i.clone()
        };
        assert!(info(&failed_low).contains("score cp 12 upperbound nodes"));
    }
}
