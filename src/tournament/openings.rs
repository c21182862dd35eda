//! Openings: read from a file or taken from the built-in set, checked by the referee, and
//! handed out in pairs (each opening played `--repeat` times, colours alternating).
//!
//! Xiangqi opening lines, one a line (empty lines and lines starting with `#` skipped):
//! - a FEN or EPD record (`<board> <side> [- - [<halfmove> <fullmove>]] [opcodes...]`), with
//!   anything after a tab taken as the opening's name;
//! - `startpos [moves m1 m2 ...]` or `fen <FEN> [moves m1 m2 ...]`, optionally after the word
//!   `position`.
//!
//! Gomoku opening lines use the Piskvork manager's `openings.txt` format: `x,y, x,y, ...`,
//! offsets of the stones from the board centre, black's stone first and the colours
//! alternating (a trailing comma is allowed; empty lines and lines starting with `#` are
//! skipped). The centre is `(width / 2, height / 2)` with integer division, as Piskvork's
//! `playOpening` places them (plastovicka/Piskvork, `source/game.cpp`); Piskvork's optional
//! random rotation and shift of openings is not done. An opening becomes absolute `x,y` moves
//! from the empty board ([`Opening::root`] empty).

use std::path::Path;

use super::args::GameChoice;
use super::referee::new_referee;
use super::rng::SplitMix64;
use crate::xiangqi::START_FEN;

/// A start position with the opening moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Xiangqi: the FEN the opening starts from. Gomoku: empty (the empty board).
    pub root: String,
    /// Opening moves played from the root before the engines take over.
    pub moves: Vec<String>,
    /// A name given in the file, if any.
    pub name: Option<String>,
}

impl Opening {
    /// The opening as one line: Xiangqi `fen <root> [moves ...]`; Gomoku (no root) the stones
    /// as absolute `x,y` moves separated by spaces, black's first.
    pub fn describe(&self) -> String {
        if self.root.is_empty() {
            return self.moves.join(" ");
        }
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

/// The built-in Gomoku set: the Piskvork manager's opening list (see the header of
/// `data/gomoku/openings-piskvork.txt`).
const GOMOKU_BUILTIN: &str = include_str!("../../data/gomoku/openings-piskvork.txt");

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

/// Why a Gomoku opening line cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
enum GomokuLineError {
    /// Not a list of number pairs.
    Syntax(String),
    /// A stone falls outside the board.
    OffBoard(String),
}

/// Parses one Gomoku opening line (offsets from the centre) into absolute moves on a
/// `width` x `height` board; `None` for a blank or comment line.
fn parse_gomoku_line(
    line: &str,
    width: usize,
    height: usize,
) -> Option<Result<Opening, GomokuLineError>> {
    let body = line.trim();
    if body.is_empty() || body.starts_with('#') {
        return None;
    }
    let mut parts: Vec<&str> = body.split(',').map(str::trim).collect();
    if parts.last() == Some(&"") {
        parts.pop();
    }
    let mut numbers = Vec::with_capacity(parts.len());
    for part in parts {
        match part.parse::<i64>() {
            Ok(n) => numbers.push(n),
            Err(_) => {
                return Some(Err(GomokuLineError::Syntax(format!(
                    "'{part}' is not a number (expected x,y, x,y, ... offsets from the centre)"
                ))));
            }
        }
    }
    if numbers.len() % 2 == 1 {
        return Some(Err(GomokuLineError::Syntax(
            "an odd count of numbers (expected x,y pairs)".to_string(),
        )));
    }
    let centre = (width as i64 / 2, height as i64 / 2);
    let mut moves = Vec::with_capacity(numbers.len() / 2);
    for (index, pair) in numbers.chunks(2).enumerate() {
        let (x, y) = (
            centre.0.saturating_add(pair[0]),
            centre.1.saturating_add(pair[1]),
        );
        if !(0..width as i64).contains(&x) || !(0..height as i64).contains(&y) {
            return Some(Err(GomokuLineError::OffBoard(format!(
                "stone {} (offset {},{}) is at {x},{y}, off the {width}x{height} board",
                index + 1,
                pair[0],
                pair[1]
            ))));
        }
        moves.push(format!("{x},{y}"));
    }
    Some(Ok(Opening {
        root: String::new(),
        moves,
        name: None,
    }))
}

/// Parses openings from text, checking each one with the referee; the list may be empty.
/// `source` names the text in error messages. With `skip_off_board`, Gomoku openings that do
/// not fit the board are left out instead of refused (for the built-in set on small boards).
fn parse_openings_with(
    text: &str,
    source: &str,
    game: GameChoice,
    skip_off_board: bool,
) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let at_line =
            |error: &dyn std::fmt::Display| format!("{source} line {}: {error}", number + 1);
        let parsed = match game {
            GameChoice::Xiangqi => parse_xiangqi_line(line),
            GameChoice::Gomoku { width, height, .. } => {
                match parse_gomoku_line(line, width, height) {
                    None => None,
                    Some(Ok(opening)) => Some(Ok(opening)),
                    Some(Err(GomokuLineError::OffBoard(_))) if skip_off_board => continue,
                    Some(Err(
                        GomokuLineError::OffBoard(error) | GomokuLineError::Syntax(error),
                    )) => Some(Err(error)),
                }
            }
        };
        let Some(parsed) = parsed else {
            continue;
        };
        let opening = parsed.map_err(|error| at_line(&error))?;
        new_referee(game, &opening, None).map_err(|error| at_line(&error))?;
        openings.push(opening);
    }
    Ok(openings)
}

/// Parses openings from text, checking each one with the referee. `source` names the text
/// in error messages; every bad opening is an error naming its line, and so is a text
/// without openings.
pub fn parse_openings(text: &str, source: &str, game: GameChoice) -> Result<Vec<Opening>, String> {
    let openings = parse_openings_with(text, source, game, false)?;
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

/// The built-in openings of a game. Gomoku: the Piskvork list without the openings that do
/// not fit the board; when none fits (a very small board), the empty board alone.
pub fn builtin_openings(game: GameChoice) -> Result<Vec<Opening>, String> {
    match game {
        GameChoice::Xiangqi => parse_openings(XIANGQI_BUILTIN, "built-in openings", game),
        GameChoice::Gomoku { .. } => {
            let mut openings =
                parse_openings_with(GOMOKU_BUILTIN, "built-in openings", game, true)?;
            if openings.is_empty() {
                openings.push(Opening {
                    root: String::new(),
                    moves: Vec::new(),
                    name: None,
                });
            }
            Ok(openings)
        }
    }
}

/// The order in which openings are used: file order, or (with `--random-openings`) a
/// shuffle drawn from `seed` by [`SplitMix64`], so that a seed gives the same order in every
/// build (this order differs from the one `rand`'s `StdRng` gave before 2026-12).
pub fn opening_order(count: usize, random: bool, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if random {
        let mut rng = SplitMix64::new(seed);
        rng.shuffle(&mut order);
        // Rotate by a random amount too, so that short matches do not always start alike.
        if count > 0 {
            let start = rng.below(count);
            order.rotate_left(start);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::Rule;

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

    fn gomoku(width: usize, height: usize, rule: Rule) -> GameChoice {
        GameChoice::Gomoku {
            width,
            height,
            rule,
        }
    }

    #[test]
    fn gomoku_offsets_are_from_the_centre() {
        let text = "# a comment\n\n0,0, 1,0, 1,3\n  -7,-7,7,7 ,\n\t0,0,1,1\t\n";
        let openings = parse_openings(text, "t", gomoku(15, 15, Rule::Freestyle)).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].moves, ["7,7", "8,7", "8,10"]);
        assert_eq!(openings[0].root, "");
        assert_eq!(openings[0].describe(), "7,7 8,7 8,10");
        assert_eq!(openings[1].moves, ["0,0", "14,14"]);
        assert_eq!(openings[2].moves, ["7,7", "8,8"]);
        // Even sides: the centre is width/2, height/2 (Piskvork's convention).
        let openings =
            parse_openings("0,0, -1,-1\n", "t", gomoku(20, 20, Rule::Freestyle)).unwrap();
        assert_eq!(openings[0].moves, ["10,10", "9,9"]);
        let openings = parse_openings("0,0, 1,-1\n", "t", gomoku(12, 7, Rule::Freestyle)).unwrap();
        assert_eq!(openings[0].moves, ["6,3", "7,2"]);
    }

    #[test]
    fn gomoku_bad_lines_name_their_line() {
        let game = gomoku(15, 15, Rule::Freestyle);
        let cases = [
            ("0,0, 1\n", "line 1: an odd count"),
            ("0,0\n0,0, x,1\n", "line 2: 'x' is not a number"),
            (
                "# c\n0,0, 8,0\n",
                "line 2: stone 2 (offset 8,0) is at 15,7, off the 15x15 board",
            ),
            (
                "0,0, 0,0\n",
                "line 1: opening stone 2 '7,7': point 7,7 is occupied",
            ),
            (
                "0,0, 0,7, 1,0, 1,7, 2,0, 2,7, 3,0, 3,7, 4,0\n",
                "line 1: the opening ends the game (result: black-wins reason: five)",
            ),
            ("# nothing\n", "f: no openings"),
            ("0,9223372036854775807\n", "off the 15x15 board"),
        ];
        for (text, expected) in cases {
            let error = parse_openings(text, "f", game).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
            assert!(error.starts_with("f"), "{error}");
        }
        // A double-three stone of black ends a renju game, not a freestyle one.
        let double_three = "0,0, -7,-7, 1,0, -7,-5, 2,1, -7,-3, 2,2, -7,-1, 2,0\n";
        assert!(parse_openings(double_three, "f", game).is_ok());
        let error = parse_openings(double_three, "f", gomoku(15, 15, Rule::Renju)).unwrap_err();
        assert!(error.contains("white-wins reason: double-three"), "{error}");
    }

    #[test]
    fn gomoku_builtin_set_fits_the_board() {
        let listed = GOMOKU_BUILTIN
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(listed, 41);
        let full = builtin_openings(gomoku(20, 20, Rule::Renju)).unwrap();
        assert_eq!(full.len(), listed);
        // The last one (`-8,-6, ...`) reaches x = -1 on 15x15.
        let fifteen = builtin_openings(gomoku(15, 15, Rule::Renju)).unwrap();
        assert_eq!(fifteen.len(), listed - 1);
        assert_eq!(fifteen[0].moves, ["7,7", "8,7", "8,10"]);
        // On 7x7 only the 38 openings within 3 of the centre remain.
        let small = builtin_openings(gomoku(7, 7, Rule::Freestyle)).unwrap();
        assert_eq!(small.len(), 38);
        for opening in &small {
            for mv in &opening.moves {
                let (x, y) = mv.split_once(',').unwrap();
                assert!(x.parse::<usize>().unwrap() < 7 && y.parse::<usize>().unwrap() < 7);
            }
        }
        // One fits a single row (`0,0, 1,0, 3,0`).
        let row = builtin_openings(gomoku(9, 1, Rule::Freestyle)).unwrap();
        assert_eq!(row.len(), 1);
        assert_eq!(row[0].moves, ["4,0", "5,0", "7,0"]);
        // Nothing fits 2x2: the empty board is the one opening.
        let none = builtin_openings(gomoku(2, 2, Rule::Freestyle)).unwrap();
        assert_eq!(none.len(), 1);
        assert!(none[0].moves.is_empty());
        assert_eq!(none[0].describe(), "");
        // An explicit file is not forgiven for an opening that does not fit.
        assert!(parse_openings(GOMOKU_BUILTIN, "f", gomoku(7, 7, Rule::Freestyle)).is_err());
    }

    #[test]
    fn gomoku_20_set_parses_for_20x20() {
        let text = include_str!("../../data/gomoku/openings-20.txt");
        let openings = parse_openings(text, "20", gomoku(20, 20, Rule::Freestyle)).unwrap();
        assert_eq!(openings.len(), 10);
        assert_eq!(openings[0].moves, ["3,2", "4,1", "7,1"]);
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

    /// Computed once by a separate Python version of [`SplitMix64`] and the shuffle.
    const PINNED_10_SEED_1: [usize; 10] = [7, 6, 5, 9, 0, 1, 4, 8, 2, 3];
    const PINNED_499_SEED_2026: [usize; 8] = [420, 109, 78, 45, 394, 6, 139, 225];

    #[test]
    fn seeded_order_is_pinned() {
        // A seed must replay the same openings in every build: these are the orders seeds 1
        // and 2026 give to the ten built-in positions and to the 499 of the book sample.
        assert_eq!(opening_order(10, true, 1), PINNED_10_SEED_1);
        assert_eq!(opening_order(499, true, 2026)[..8], PINNED_499_SEED_2026);
    }
}
