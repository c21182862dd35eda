//! Openings: read from a file or taken from the built-in set, checked by the referee, and
//! handed out in pairs (each opening played `--repeat` times, colours alternating).
//!
//! Xiangqi opening lines, one a line (empty lines and lines starting with `#` skipped):
//! - a FEN or EPD record (`<board> <side> [- - [<halfmove> <fullmove>]] [opcodes...]`), with
//!   anything after a tab taken as the opening's name;
//! - `startpos [moves m1 m2 ...]` or `fen <FEN> [moves m1 m2 ...]`, optionally after the word
//!   `position`.

use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::args::GameChoice;
use super::referee::new_referee;
use crate::xiangqi::START_FEN;

/// A start position with the opening moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Xiangqi: the FEN the opening starts from.
    pub root: String,
    /// Opening moves played from the root before the engines take over.
    pub moves: Vec<String>,
    /// A name given in the file, if any.
    pub name: Option<String>,
}

impl Opening {
    /// The opening as one line: `fen <root> [moves ...]`.
    pub fn describe(&self) -> String {
        let mut text = format!("fen {}", self.root);
        if !self.moves.is_empty() {
            text += " moves ";
            text += &self.moves.join(" ");
        }
        text
    }
}

/// The built-in Xiangqi set: the ten ECCO opening positions of ElephantEye's league
/// configuration (see the header of `data/xiangqi/openings-league.tsv`).
const XIANGQI_BUILTIN: &str = include_str!("../../data/xiangqi/openings-league.tsv");

fn is_number_or_dash(token: &str) -> bool {
    token == "-" || token.parse::<u32>().is_ok()
}

/// Parses one Xiangqi opening line; `None` for a blank or comment line.
fn parse_xiangqi_line(line: &str) -> Option<Result<Opening, String>> {
    let (body, name) = match line.split_once('\t') {
        Some((body, name)) => (
            body,
            Some(name.trim().to_string()).filter(|n| !n.is_empty()),
        ),
        None => (line, None),
    };
    let body = body.trim();
    if body.is_empty() || body.starts_with('#') {
        return None;
    }
    let body = body.strip_prefix("position ").unwrap_or(body).trim();
    let tokens: Vec<&str> = body.split_whitespace().collect();
    let (root, rest): (String, &[&str]) = match tokens.first().copied() {
        Some("startpos") => (START_FEN.to_string(), &tokens[1..]),
        Some("fen") => {
            let end = tokens
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(tokens.len());
            (tokens[1..end].join(" "), &tokens[end..])
        }
        _ => {
            // FEN or EPD: board and side, then up to four counters or dashes; EPD opcodes
            // after that are ignored.
            let mut end = 2.min(tokens.len());
            while end < tokens.len() && end < 6 && is_number_or_dash(tokens[end]) {
                end += 1;
            }
            let rest_start = tokens[end..]
                .iter()
                .position(|&t| t == "moves")
                .map_or(tokens.len(), |p| end + p);
            (tokens[..end].join(" "), &tokens[rest_start..])
        }
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|m| m.to_string()).collect(),
        Some((other, _)) => return Some(Err(format!("unexpected '{other}'"))),
    };
    if root.is_empty() {
        return Some(Err("no FEN".to_string()));
    }
    Some(Ok(Opening { root, moves, name }))
}

/// Parses openings from text, checking each one with the referee. `source` names the text
/// in error messages.
pub fn parse_openings(text: &str, source: &str, game: GameChoice) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let parsed = match game {
            GameChoice::Xiangqi => parse_xiangqi_line(line),
            GameChoice::Gomoku { .. } => {
                return Err("Gomoku openings are not available yet".to_string());
            }
        };
        let Some(parsed) = parsed else {
            continue;
        };
        let opening = parsed.map_err(|error| format!("{source} line {}: {error}", number + 1))?;
        new_referee(game, &opening, None)
            .map_err(|error| format!("{source} line {}: {error}", number + 1))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!("{source}: no openings"));
    }
    Ok(openings)
}

/// Reads openings from a file.
pub fn load_openings(path: &Path, game: GameChoice) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read openings '{}': {error}", path.display()))?;
    parse_openings(&text, &path.display().to_string(), game)
}

/// The built-in openings of a game.
pub fn builtin_openings(game: GameChoice) -> Result<Vec<Opening>, String> {
    parse_openings(XIANGQI_BUILTIN, "built-in openings", game)
}

/// The order in which openings are used: file order, or (with `--random-openings`) a
/// shuffle drawn from `seed`.
pub fn opening_order(count: usize, random: bool, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if random {
        let mut rng = StdRng::seed_from_u64(seed);
        order.shuffle(&mut rng);
        // Rotate by a random amount too, so that short matches do not always start alike.
        if count > 0 {
            let start = rng.random_range(0..count);
            order.rotate_left(start);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_set_is_valid() {
        let openings = builtin_openings(GameChoice::Xiangqi).unwrap();
        assert_eq!(openings.len(), 10);
        assert!(openings.iter().all(|o| o.name.is_some()));
    }

    #[test]
    fn line_forms() {
        let text = "# comment\n\
                    startpos moves h2e2 h9g7\n\
                    position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 id \"x\";\n\
                    \n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\n";
        let openings = parse_openings(text, "test", GameChoice::Xiangqi).unwrap();
        assert_eq!(openings.len(), 4);
        assert_eq!(openings[0].moves, ["h2e2", "h9g7"]);
        assert_eq!(openings[1].moves, ["h2e2"]);
        assert!(openings[2].moves.is_empty());
        assert_eq!(openings[2].root, START_FEN);
        assert!(openings[0].describe().ends_with("moves h2e2 h9g7"));
    }

    #[test]
    fn epd_book_sample_parses() {
        let text = include_str!("../../tests/data/xiangqi/openings-book-sample.epd");
        let openings = parse_openings(text, "sample", GameChoice::Xiangqi).unwrap();
        assert_eq!(openings.len(), 499);
        assert!(openings.iter().all(|o| o.root.contains(" b ")));
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        let error = parse_openings("startpos\nstartpos moves h2e3\n", "f", GameChoice::Xiangqi)
            .unwrap_err();
        assert!(error.contains("f line 2"), "{error}");
        assert!(parse_openings("xyz w\n", "f", GameChoice::Xiangqi).is_err());
        assert!(parse_openings("# nothing\n", "f", GameChoice::Xiangqi).is_err());
    }

    #[test]
    fn order_is_a_seeded_permutation() {
        assert_eq!(opening_order(4, false, 9), [0, 1, 2, 3]);
        let a = opening_order(50, true, 9);
        assert_eq!(a, opening_order(50, true, 9));
        assert_ne!(a, opening_order(50, true, 10));
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}
