//! Game records: one JSON object a line for `--results`, and PGN for `--pgn`.
//!
//! JSON fields: `game` (1-based number), `round`, the engine names under the colour names
//! (`red`/`black` for Xiangqi, `black`/`white` for Gomoku), `opening` (`fen <FEN> [moves ...]`),
//! `opening_name` (or null), `fen` (the position the moves start from), `book_plies` (how many
//! of the moves came from the opening), `moves` (the whole game from `fen` as one string of
//! space-separated moves in the game's notation: ICCS with ranks 0-9 such as `h2e2`, or
//! Piskvork `x,y`), `result` (`1-0`, `0-1`, `1/2-1/2`; `1-0` means the first colour won),
//! `reason`, `detail` (or null), `plies` (the number of moves in `moves`), and
//! `<colour>_time_ms` (thinking time used by each side).

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use super::game::{GameResult, PlayedGame};
use super::openings::Opening;
use super::player::EngineScore;

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
    /// The opening.
    pub opening: Opening,
    /// The position the moves start from.
    pub root: String,
    /// The game.
    pub game: PlayedGame,
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
        for seat in 0..2 {
            push_field(
                &mut out,
                self.colours[seat],
                &json_string(&self.names[seat]),
            );
        }
        push_field(&mut out, "opening", &json_string(&self.opening.describe()));
        let name = self
            .opening
            .name
            .as_deref()
            .map_or("null".to_string(), json_string);
        push_field(&mut out, "opening_name", &name);
        push_field(&mut out, "fen", &json_string(&self.root));
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

    /// Points the engine of `seat` scored, in half points.
    pub fn half_points_of_seat(&self, seat: usize) -> usize {
        self.game.end.result.half_points(seat)
    }

    /// The result.
    pub fn result(&self) -> GameResult {
        self.game.end.result
    }
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
