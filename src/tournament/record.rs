//! Game records: one JSON object a line for `--results`, PGN for `--pgn` (Xiangqi), and for
//! Gomoku SGF (`--sgf`) and Piskvork's `.psq` files (`--psq`).
//!
//! JSON fields: `game` (1-based number), `round`, the engine names under the colour names
//! (`red`/`black` for Xiangqi, `black`/`white` for Gomoku), `opening`, `opening_name` (or
//! null), `book_plies` (how many of the moves came from the opening), `moves` (the whole game
//! as one string of space-separated moves in the game's notation), `result` (`1-0`, `0-1`,
//! `1/2-1/2`; `1-0` means the first colour won), `reason`, `detail` (or null), `plies` (the
//! number of moves in `moves`), and `<colour>_time_ms` (thinking time used by each side).
//! Xiangqi adds `fen` (the position the moves start from); its `opening` is
//! `fen <FEN> [moves ...]` and its moves are ICCS with ranks 0-9 (`h2e2`). Gomoku adds
//! `black_about` and `white_about` (the engine's answer to `ABOUT` as
//! `{"name": ..., "version": ...}`, null members when not given, null without an answer),
//! `width`, `height`, `rule` (the Piskvork number) and `rule_name`; its `opening` and moves are
//! Piskvork `x,y` from the empty board, black first.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use std::sync::Arc;

use super::args::{GameChoice, Shard, TimeControl};
use super::game::{GameResult, PlayedGame};
use super::openings::Opening;
use super::player::{EngineAbout, EngineScore};

/// Everything known about a finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number in the match schedule.
    pub number: usize,
    /// 1-based round.
    pub round: u32,
    /// Index of the engine pair.
    pub pair: usize,
    /// Index of the game within its pair (pairs of consecutive games share an opening).
    pub pair_game: usize,
    /// Engine index by seat.
    pub engines: [usize; 2],
    /// Engine names by seat.
    pub names: [String; 2],
    /// Colour names by seat.
    pub colours: [&'static str; 2],
    /// The game played, with its board and rule for Gomoku.
    pub choice: GameChoice,
    /// Piskvork engines' answers to `ABOUT`, by seat.
    pub about: [Option<EngineAbout>; 2],
    /// The opening.
    pub opening: Opening,
    /// The position the moves start from.
    pub root: String,
    /// The game.
    pub game: PlayedGame,
    /// Which run of which match played it (written to JSON when present).
    pub stamp: Option<Arc<RecordStamp>>,
}

/// What ties a record to its match: the shard that played it and the match's settings with
/// their fingerprint (see [`super::settings::MatchSettings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordStamp {
    /// The shard of the run.
    pub shard: Shard,
    /// The settings as `key=value` lines.
    pub settings: String,
    /// Their fingerprint.
    pub fingerprint: String,
}

/// Appends `text` to `out` as a JSON string literal.
pub fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_field(out: &mut String, key: &str, value: &str) {
    if out.len() > 1 {
        out.push(',');
    }
    push_json_string(out, key);
    out.push(':');
    out.push_str(value);
}

fn json_string(text: &str) -> String {
    let mut out = String::new();
    push_json_string(&mut out, text);
    out
}

impl GameRecord {
    /// The moves as one space-separated string.
    pub fn moves_text(&self) -> String {
        let moves: Vec<&str> = self
            .game
            .moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect();
        moves.join(" ")
    }

    /// The record as one JSON object (no line ending).
    pub fn to_json(&self) -> String {
        let mut out = String::from("{");
        push_field(&mut out, "game", &self.number.to_string());
        push_field(&mut out, "round", &self.round.to_string());
        if let Some(stamp) = &self.stamp {
            push_field(&mut out, "shard", &json_string(&stamp.shard.to_string()));
            push_field(&mut out, "pair", &self.pair.to_string());
            push_field(&mut out, "pair_game", &self.pair_game.to_string());
            push_field(&mut out, "fingerprint", &json_string(&stamp.fingerprint));
            push_field(&mut out, "settings", &json_string(&stamp.settings));
        }
        for seat in 0..2 {
            push_field(
                &mut out,
                self.colours[seat],
                &json_string(&self.names[seat]),
            );
        }
        if let GameChoice::Gomoku {
            width,
            height,
            rule,
        } = self.choice
        {
            for seat in 0..2 {
                let about = match &self.about[seat] {
                    Some(about) => {
                        let text =
                            |value: Option<&str>| value.map_or("null".to_string(), json_string);
                        format!(
                            "{{\"name\":{},\"version\":{}}}",
                            text(about.name()),
                            text(about.version())
                        )
                    }
                    None => "null".to_string(),
                };
                push_field(&mut out, &format!("{}_about", self.colours[seat]), &about);
            }
            push_field(&mut out, "width", &width.to_string());
            push_field(&mut out, "height", &height.to_string());
            push_field(&mut out, "rule", &rule.number().to_string());
            push_field(&mut out, "rule_name", &json_string(rule.name()));
        }
        push_field(&mut out, "opening", &json_string(&self.opening.describe()));
        let name = self
            .opening
            .name
            .as_deref()
            .map_or("null".to_string(), json_string);
        push_field(&mut out, "opening_name", &name);
        if !self.choice.is_gomoku() {
            push_field(&mut out, "fen", &json_string(&self.root));
        }
        let book = self.game.moves.iter().filter(|m| m.book).count();
        push_field(&mut out, "book_plies", &book.to_string());
        push_field(&mut out, "moves", &json_string(&self.moves_text()));
        push_field(
            &mut out,
            "result",
            &json_string(self.game.end.result.as_str()),
        );
        push_field(&mut out, "reason", &json_string(&self.game.end.reason));
        let detail = self
            .game
            .end
            .detail
            .as_deref()
            .map_or("null".to_string(), json_string);
        push_field(&mut out, "detail", &detail);
        push_field(&mut out, "plies", &self.game.moves.len().to_string());
        for seat in 0..2 {
            push_field(
                &mut out,
                &format!("{}_time_ms", self.colours[seat]),
                &self.game.time_used_ms[seat].to_string(),
            );
        }
        out.push('}');
        out
    }

    /// The game as PGN (Xiangqi: `[Game "Chinese Chess"]`, `[Format "ICCS"]`, moves as
    /// `H2-E2`, a comment after each engine move with score/depth and time).
    pub fn to_pgn(&self, event: &str) -> String {
        let mut out = String::new();
        let tag = |out: &mut String, name: &str, value: &str| {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{name} \"{escaped}\"]");
        };
        tag(&mut out, "Game", "Chinese Chess");
        tag(&mut out, "Event", event);
        tag(&mut out, "Site", "?");
        tag(&mut out, "Date", &today());
        tag(
            &mut out,
            "Round",
            &format!("{}.{}", self.round, self.number),
        );
        tag(&mut out, "Red", &self.names[0]);
        tag(&mut out, "Black", &self.names[1]);
        tag(&mut out, "Result", self.game.end.result.as_str());
        tag(&mut out, "FEN", &self.root);
        tag(&mut out, "Format", "ICCS");
        if let Some(name) = &self.opening.name {
            tag(&mut out, "Opening", name);
        }
        let termination = match &self.game.end.detail {
            Some(detail) => format!("{}: {detail}", self.game.end.reason),
            None => self.game.end.reason.clone(),
        };
        tag(&mut out, "Termination", &termination);
        out.push('\n');
        let black_first = self.root.split_whitespace().nth(1) == Some("b");
        // Move numbers continue from the FEN's full-move number.
        let first_number = self
            .root
            .split_whitespace()
            .nth(5)
            .and_then(|t| t.parse::<usize>().ok())
            .unwrap_or(1)
            .max(1);
        let mut line = String::new();
        let mut tokens: Vec<String> = Vec::new();
        for (index, mv) in self.game.moves.iter().enumerate() {
            let ply = index + usize::from(black_first);
            if ply % 2 == 0 {
                tokens.push(format!("{}.", ply / 2 + first_number));
            } else if index == 0 {
                tokens.push(format!("{}...", ply / 2 + first_number));
            }
            tokens.push(iccs_upper(&mv.notation));
            let comment = if mv.book {
                "{book}".to_string()
            } else {
                let score = match mv.score {
                    Some(EngineScore::Cp(cp)) => format!("{:+.2}", cp as f64 / 100.0),
                    Some(EngineScore::Mate(n)) if n > 0 => format!("+M{n}"),
                    Some(EngineScore::Mate(n)) => format!("-M{}", -n),
                    None => "?".to_string(),
                };
                let depth = mv.depth.map_or("?".to_string(), |d| d.to_string());
                format!("{{{score}/{depth} {:.3}s}}", mv.time_ms as f64 / 1000.0)
            };
            tokens.push(comment);
        }
        tokens.push(self.game.end.result.as_str().to_string());
        for token in tokens {
            if !line.is_empty() && line.len() + token.len() + 1 > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }

    /// The reason with its detail, for comments: `timeout (took 120 ms, ...)`.
    fn reason_text(&self) -> String {
        match &self.game.end.detail {
            Some(detail) => format!("{} ({detail})", self.game.end.reason),
            None => self.game.end.reason.clone(),
        }
    }

    /// A Gomoku game as one SGF game tree (`FF[4]`, `GM[4]`; Gomoku's SGF conventions): root
    /// properties `GM[4]FF[4]CA[UTF-8]AP[...]`, `SZ[15]` (or `SZ[W:H]` for a rectangle),
    /// `RU` (the rule's name), `EV`, `RO` (`round.game`), `DT`, `PB`, `PW`, `RE` (`B+`, `W+`, or
    /// `0` for a draw) and `GC` (rule, reason and detail, opening), then one node per stone,
    /// `;B[hh]` and `;W[..]` alternating from black, the opening's stones first with
    /// `C[book]`. Coordinates are SGF letters from `a` = 0 (then `A` = 26), x before y.
    pub fn to_sgf(&self, event: &str) -> String {
        let (width, height, rule) = match self.choice {
            GameChoice::Gomoku {
                width,
                height,
                rule,
            } => (width, height, rule),
            GameChoice::Xiangqi => (9, 10, crate::gomoku::Rule::Freestyle),
        };
        let mut out = String::from("(;GM[4]FF[4]CA[UTF-8]");
        let _ = write!(out, "AP[qilin:{}]", env!("CARGO_PKG_VERSION"));
        if width == height {
            let _ = write!(out, "SZ[{width}]");
        } else {
            let _ = write!(out, "SZ[{width}:{height}]");
        }
        let _ = write!(out, "RU[{}]", rule.name());
        let _ = write!(out, "\nEV[{}]", sgf_text(event));
        let _ = write!(out, "RO[{}.{}]", self.round, self.number);
        let _ = write!(out, "DT[{}]", today().replace('.', "-"));
        let _ = write!(
            out,
            "\nPB[{}]PW[{}]",
            sgf_text(&self.names[0]),
            sgf_text(&self.names[1])
        );
        let result = match self.game.end.result {
            GameResult::Win(0) => "B+",
            GameResult::Win(_) => "W+",
            GameResult::Draw => "0",
        };
        let _ = write!(out, "RE[{result}]");
        let mut comment = format!(
            "rule {} ({}); reason: {}",
            rule.number(),
            rule.name(),
            self.reason_text()
        );
        if !self.opening.moves.is_empty() {
            comment += &format!("; opening: {}", self.opening.describe());
        }
        let _ = write!(out, "\nGC[{}]\n", sgf_text(&comment));
        for (index, mv) in self.game.moves.iter().enumerate() {
            let colour = if index % 2 == 0 { 'B' } else { 'W' };
            let point = sgf_point(&mv.notation).unwrap_or_default();
            let _ = write!(out, ";{colour}[{point}]");
            if mv.book {
                out.push_str("C[book]");
            }
            if index % 10 == 9 {
                out.push('\n');
            }
        }
        out.push_str(")\n");
        out
    }

    /// A Gomoku game as a Piskvork `.psq` file, as the Piskvork manager saves one
    /// (plastovicka/Piskvork, `source/game.cpp`, `savePsq` and `openPsq`):
    /// `Piskvorky WxH, L1:L2, 0` (board; each player's level, `1 + ` the index of the largest of
    /// Piskvork's levels 100, 300, 600, 1000, 1500, 2500, 5000, 10000, 15000, 30000, 60000 ms
    /// not above the turn time, 11 without one; 0 = black, the first-named player, began), one
    /// `x,y,ms` line per stone with coordinates from 1, black first and the opening's stones
    /// included (time 0), the two engine names (black's first), and the end code: 0 for a game
    /// ended by the rules or by adjudication, 15 for a timeout, -2 for other forfeits.
    pub fn to_psq(&self, time: &TimeControl) -> String {
        let (width, height) = match self.choice {
            GameChoice::Gomoku { width, height, .. } => (width, height),
            GameChoice::Xiangqi => (9, 10),
        };
        let turn = time
            .turn_time_ms
            .or(time.movetime_ms)
            .or(time.match_time_ms);
        let level = psq_level(turn);
        let mut out = format!("Piskvorky {width}x{height}, {level}:{level}, 0\n");
        for mv in &self.game.moves {
            if let Some((x, y)) = parse_xy(&mv.notation) {
                let _ = writeln!(out, "{},{},{}", x + 1, y + 1, mv.time_ms);
            }
        }
        for name in &self.names {
            let _ = writeln!(out, "{}", name.replace(['\r', '\n'], " "));
        }
        let code = match self.game.end.reason.as_str() {
            "timeout" => 15,
            "crash" | "illegal-move" | "garbage" | "start-failure" => -2,
            _ => 0,
        };
        let _ = writeln!(out, "{code}");
        out
    }

    /// Points the engine of `seat` scored, in half points.
    pub fn half_points_of_seat(&self, seat: usize) -> usize {
        self.game.end.result.half_points(seat)
    }

    /// The result.
    pub fn result(&self) -> GameResult {
        self.game.end.result
    }
}

/// Piskvork's player level for a turn time (see [`GameRecord::to_psq`]).
fn psq_level(turn_ms: Option<u64>) -> usize {
    const LEVELS: [u64; 11] = [
        100, 300, 600, 1000, 1500, 2500, 5000, 10_000, 15_000, 30_000, 60_000,
    ];
    match turn_ms {
        Some(turn) => LEVELS.iter().rposition(|&l| turn >= l).unwrap_or(0) + 1,
        None => LEVELS.len(),
    }
}

/// `x,y` as two numbers.
fn parse_xy(notation: &str) -> Option<(usize, usize)> {
    let (x, y) = notation.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// An SGF coordinate letter: `a`-`z` for 0-25, `A`-`Z` for 26-51.
fn sgf_letter(n: usize) -> Option<char> {
    match n {
        0..=25 => Some((b'a' + n as u8) as char),
        26..=51 => Some((b'A' + (n - 26) as u8) as char),
        _ => None,
    }
}

/// `x,y` as an SGF point (`7,7` -> `hh`).
fn sgf_point(notation: &str) -> Option<String> {
    let (x, y) = parse_xy(notation)?;
    Some([sgf_letter(x)?, sgf_letter(y)?].iter().collect())
}

/// SGF text: `\` and `]` escaped, line breaks as spaces.
fn sgf_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | ']' => {
                out.push('\\');
                out.push(c);
            }
            '\r' | '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `h2e2` -> `H2-E2`; other text unchanged.
fn iccs_upper(notation: &str) -> String {
    if notation.len() == 4 && notation.is_ascii() {
        let upper = notation.to_ascii_uppercase();
        format!("{}-{}", &upper[..2], &upper[2..])
    } else {
        notation.to_string()
    }
}

/// Today's UTC date as `YYYY.MM.DD`.
fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Gregorian date of a day count since 1970-01-01 (the well-known era-based conversion).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::game::{GameEnd, MoveRecord};

    #[test]
    fn json_strings_are_escaped() {
        let mut out = String::new();
        push_json_string(&mut out, "a\"b\\c\nd\u{1}é");
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }

    fn gomoku_record(width: usize, height: usize, end: GameEnd) -> GameRecord {
        let moves = ["7,7", "8,7", "8,10", "0,0", "14,14", "31,31"];
        GameRecord {
            number: 12,
            round: 2,
            pair: 0,
            pair_game: 11,
            engines: [0, 1],
            names: ["black]eng".to_string(), "white\\eng".to_string()],
            colours: ["black", "white"],
            choice: GameChoice::Gomoku {
                width,
                height,
                rule: crate::gomoku::Rule::Renju,
            },
            about: [
                EngineAbout::parse("name=\"B\", version=\"1.2\""),
                EngineAbout::parse("author=\"someone\""),
            ],
            opening: Opening {
                root: String::new(),
                moves: moves[..3].iter().map(|m| m.to_string()).collect(),
                name: None,
            },
            root: String::new(),
            game: PlayedGame {
                moves: moves
                    .iter()
                    .enumerate()
                    .map(|(i, m)| MoveRecord {
                        notation: m.to_string(),
                        book: i < 3,
                        score: None,
                        depth: None,
                        time_ms: if i < 3 { 0 } else { 10 * i as u64 },
                    })
                    .collect(),
                end,
                time_used_ms: [70, 40],
            },
            stamp: None,
        }
    }

    fn end(result: GameResult, reason: &str, detail: Option<&str>) -> GameEnd {
        GameEnd {
            result,
            reason: reason.to_string(),
            detail: detail.map(String::from),
        }
    }

    #[test]
    fn gomoku_json_has_board_rule_and_about() {
        let mut record = gomoku_record(32, 32, end(GameResult::Win(0), "five", None));
        record.about[1] = None;
        assert_eq!(
            record.to_json(),
            "{\"game\":12,\"round\":2,\"black\":\"black]eng\",\"white\":\"white\\\\eng\",\
             \"black_about\":{\"name\":\"B\",\"version\":\"1.2\"},\"white_about\":null,\
             \"width\":32,\"height\":32,\"rule\":4,\"rule_name\":\"renju\",\
             \"opening\":\"7,7 8,7 8,10\",\"opening_name\":null,\"book_plies\":3,\
             \"moves\":\"7,7 8,7 8,10 0,0 14,14 31,31\",\"result\":\"1-0\",\"reason\":\"five\",\
             \"detail\":null,\"plies\":6,\"black_time_ms\":70,\"white_time_ms\":40}"
        );
        let record = gomoku_record(32, 32, end(GameResult::Win(0), "five", None));
        assert!(
            record
                .to_json()
                .contains("\"white_about\":{\"name\":null,\"version\":null}")
        );
    }

    #[test]
    fn gomoku_sgf() {
        let record = gomoku_record(32, 32, end(GameResult::Win(1), "double-three", None));
        let sgf = record.to_sgf("ev]");
        assert!(sgf.starts_with("(;GM[4]FF[4]CA[UTF-8]AP[qilin:"), "{sgf}");
        assert!(
            sgf.contains("SZ[32]RU[renju]\nEV[ev\\]]RO[2.12]DT["),
            "{sgf}"
        );
        assert!(
            sgf.contains("\nPB[black\\]eng]PW[white\\\\eng]RE[W+]\n"),
            "{sgf}"
        );
        assert!(
            sgf.contains("GC[rule 4 (renju); reason: double-three; opening: 7,7 8,7 8,10]"),
            "{sgf}"
        );
        assert!(
            sgf.ends_with(";B[hh]C[book];W[ih]C[book];B[ik]C[book];W[aa];B[oo];W[FF])\n"),
            "{sgf}"
        );
        let rect = gomoku_record(32, 20, end(GameResult::Draw, "max-plies", None));
        let sgf = rect.to_sgf("e");
        assert!(sgf.contains("SZ[32:20]"), "{sgf}");
        assert!(sgf.contains("RE[0]"), "{sgf}");
        let timeout = gomoku_record(
            32,
            32,
            end(GameResult::Win(0), "timeout", Some("took 9 ms")),
        );
        assert!(timeout.to_sgf("e").contains("RE[B+]"));
        assert!(timeout.to_sgf("e").contains("reason: timeout (took 9 ms)"));
    }

    #[test]
    fn gomoku_psq() {
        let turn = TimeControl {
            turn_time_ms: Some(1000),
            match_time_ms: Some(60_000),
            ..TimeControl::default()
        };
        let record = gomoku_record(32, 20, end(GameResult::Win(0), "five", None));
        assert_eq!(
            record.to_psq(&turn),
            "Piskvorky 32x20, 4:4, 0\n8,8,0\n9,8,0\n9,11,0\n1,1,30\n15,15,40\n32,32,50\n\
             black]eng\nwhite\\eng\n0\n"
        );
        let timeout = gomoku_record(15, 15, end(GameResult::Win(1), "timeout", Some("slow")));
        let psq = timeout.to_psq(&TimeControl::default());
        assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n"), "{psq}");
        assert!(psq.ends_with("\n15\n"), "{psq}");
        let crash = gomoku_record(15, 15, end(GameResult::Win(1), "illegal-move", None));
        assert!(crash.to_psq(&turn).ends_with("\n-2\n"));
        assert_eq!(psq_level(Some(99)), 1);
        assert_eq!(psq_level(Some(300)), 2);
        assert_eq!(psq_level(Some(200)), 1);
        assert_eq!(psq_level(Some(100_000)), 11);
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn record_formats() {
        let record = GameRecord {
            number: 3,
            round: 1,
            pair: 0,
            pair_game: 2,
            engines: [1, 0],
            names: ["b\"x".to_string(), "a".to_string()],
            colours: ["red", "black"],
            choice: GameChoice::Xiangqi,
            about: [None, None],
            opening: Opening {
                root: "R w".to_string(),
                moves: vec!["h2e2".to_string()],
                name: None,
            },
            root: "R w".to_string(),
            game: PlayedGame {
                moves: vec![
                    MoveRecord {
                        notation: "h2e2".into(),
                        book: true,
                        score: None,
                        depth: None,
                        time_ms: 0,
                    },
                    MoveRecord {
                        notation: "h9g7".into(),
                        book: false,
                        score: Some(EngineScore::Cp(-25)),
                        depth: Some(5),
                        time_ms: 120,
                    },
                ],
                end: GameEnd {
                    result: GameResult::Win(1),
                    reason: "timeout".into(),
                    detail: Some("slow".into()),
                },
                time_used_ms: [0, 120],
            },
            stamp: None,
        };
        assert_eq!(
            record.to_json(),
            "{\"game\":3,\"round\":1,\"red\":\"b\\\"x\",\"black\":\"a\",\"opening\":\"fen R w moves h2e2\",\
             \"opening_name\":null,\"fen\":\"R w\",\"book_plies\":1,\"moves\":\"h2e2 h9g7\",\
             \"result\":\"0-1\",\"reason\":\"timeout\",\"detail\":\"slow\",\"plies\":2,\
             \"red_time_ms\":0,\"black_time_ms\":120}"
        );
        let pgn = record.to_pgn("test");
        assert!(pgn.contains("[Result \"0-1\"]"));
        assert!(pgn.contains("[Red \"b\\\"x\"]"));
        assert!(
            pgn.contains("1. H2-E2 {book} H9-G7 {-0.25/5 0.120s} 0-1"),
            "{pgn}"
        );
        // Black to move at full move 4: numbering continues from the FEN.
        let mut later = record;
        later.root = "R b - - 0 4".to_string();
        let pgn = later.to_pgn("test");
        assert!(
            pgn.contains("4... H2-E2 {book} 5. H9-G7 {-0.25/5 0.120s} 0-1"),
            "{pgn}"
        );
    }
}
