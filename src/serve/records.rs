//! Saving and loading games: Xiangqi PGN (written by the match runner's
//! [`GameRecord::to_pgn`]) and FEN, Gomoku SGF and Piskvork `.psq` (written by
//! [`GameRecord::to_sgf`] and [`GameRecord::to_psq`]), and position strings (a FEN with
//! optional moves; Gomoku `x,y` moves). Loading replays every move through the referee, so a
//! record with an illegal move is refused whole.

use super::board::Board;
use super::session::{GameState, Refusal};
use crate::gomoku;
use crate::tournament::args::{GameChoice, TimeControl};
use crate::tournament::game::{GameEnd, GameResult, MoveRecord, PlayedGame};
use crate::tournament::openings::Opening;
use crate::tournament::player::EngineScore;
use crate::tournament::record::GameRecord;
use crate::xiangqi;

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Xiangqi PGN with ICCS moves.
    Pgn,
    /// Xiangqi FEN of the current position.
    Fen,
    /// Gomoku SGF.
    Sgf,
    /// Piskvork `.psq`.
    Psq,
    /// A position string: Xiangqi `fen <FEN> moves ...`, Gomoku `x,y x,y ...`.
    Position,
}

impl Format {
    /// Parses `pgn`, `fen`, `sgf`, `psq` or `pos`.
    pub fn parse(text: &str) -> Option<Format> {
        Some(match text.to_ascii_lowercase().as_str() {
            "pgn" => Format::Pgn,
            "fen" => Format::Fen,
            "sgf" => Format::Sgf,
            "psq" => Format::Psq,
            "pos" | "position" => Format::Position,
            _ => return None,
        })
    }

    /// Guesses the format of a record's text.
    fn sniff(text: &str, gomoku: bool) -> Format {
        let t = text.trim_start();
        if t.starts_with('[') {
            Format::Pgn
        } else if t.starts_with('(') {
            Format::Sgf
        } else if t.starts_with("Piskvork") {
            Format::Psq
        } else if gomoku
            || t.contains(" moves ")
            || t.starts_with("startpos")
            || t.starts_with("fen ")
        {
            Format::Position
        } else {
            Format::Fen
        }
    }
}

/// The game written in `format`; an unfinished game's PGN result is `*`.
pub fn save(state: &GameState, format: Format) -> Result<String, Refusal> {
    let board = &state.board;
    match (format, board) {
        (Format::Fen, Board::Xiangqi(game)) => Ok(game.position().fen()),
        (Format::Position, Board::Xiangqi(game)) => {
            let moves = board.moves();
            let mut text = format!("fen {}", game.start().fen());
            if !moves.is_empty() {
                text += " moves ";
                text += &moves.join(" ");
            }
            Ok(text)
        }
        (Format::Position, Board::Gomoku(..)) => Ok(board.moves().join(" ")),
        (Format::Pgn, Board::Xiangqi(_)) => {
            let text = record(state).to_pgn("Qilin serve");
            Ok(if state.ending().is_some() {
                text
            } else {
                unfinished_pgn(&text)
            })
        }
        (Format::Sgf, Board::Gomoku(..)) => {
            let text = record(state).to_sgf("Qilin serve");
            // An unfinished game has no result.
            Ok(if state.ending().is_some() {
                text
            } else {
                text.replace("RE[0]", "")
            })
        }
        (Format::Psq, Board::Gomoku(..)) => Ok(record(state).to_psq(&TimeControl {
            movetime_ms: Some(state.thinking.movetime_ms),
            depth: state.thinking.depth,
            nodes: None,
            clock: None,
            turn_time_ms: None,
            match_time_ms: None,
        })),
        _ => Err(Refusal::bad(format!(
            "{format:?} is not a {} format",
            board.kind()
        ))),
    }
}

/// The PGN of a record written as a draw, with the result `*` of an unfinished game.
fn unfinished_pgn(text: &str) -> String {
    let mut out = text.replacen("[Result \"1/2-1/2\"]", "[Result \"*\"]", 1);
    if let Some(at) = out.rfind("1/2-1/2") {
        out.replace_range(at..at + "1/2-1/2".len(), "*");
    }
    out.replace("[Termination \"unfinished\"]\n", "")
}

/// The game as the match runner's record, with the engine's scores from the graph.
fn record(state: &GameState) -> GameRecord {
    let board = &state.board;
    let (choice, root) = match board {
        Board::Xiangqi(game) => (GameChoice::Xiangqi, game.start().fen()),
        Board::Gomoku(game, _) => {
            let b = game.board();
            let choice = GameChoice::Gomoku {
                width: b.width(),
                height: b.height(),
                rule: b.rule(),
            };
            (choice, String::new())
        }
    };
    let moves = board
        .moves()
        .into_iter()
        .enumerate()
        .map(|(index, notation)| {
            // The score after the move, from the mover's view.
            let cp = state.evals.get(index + 1).copied().flatten();
            let mover_sign = if index % 2 == 0 { 1 } else { -1 };
            MoveRecord {
                notation,
                book: false,
                score: cp.map(|cp| EngineScore::Cp(cp * mover_sign)),
                depth: None,
                time_ms: 0,
            }
        })
        .collect();
    let ending = state.ending();
    let end = GameEnd {
        result: match ending.as_ref().and_then(|e| e.winner) {
            Some(winner) => GameResult::Win(winner),
            None => GameResult::Draw,
        },
        reason: ending.map_or("unfinished".to_string(), |e| e.reason),
        detail: None,
    };
    let name = |seat: usize| match state.players[seat] {
        super::session::Player::Human => "Human".to_string(),
        super::session::Player::Engine => "Qilin".to_string(),
    };
    GameRecord {
        number: 1,
        round: 1,
        pair: 0,
        pair_game: 0,
        engines: [0, 1],
        names: [name(0), name(1)],
        colours: board.colours(),
        choice,
        about: [None, None],
        opening: Opening {
            root: root.clone(),
            moves: Vec::new(),
            name: None,
        },
        root,
        stamp: None,
        game: PlayedGame {
            moves,
            end,
            time_used_ms: [0, 0],
        },
    }
}

/// Reads a game from `text` (in `format`, or guessed), for a session of game `current`'s
/// kind. Gomoku records carry their board size; a position string keeps the current board.
pub fn load(text: &str, format: Option<Format>, current: &Board) -> Result<Board, Refusal> {
    let gomoku = matches!(current, Board::Gomoku(..));
    let format = format.unwrap_or_else(|| Format::sniff(text, gomoku));
    let bad = |m: String| Refusal::bad(m);
    match (format, current) {
        (Format::Fen | Format::Position, Board::Xiangqi(_)) => {
            let (fen, moves) = split_position(text);
            xiangqi_board(&fen, &moves).map_err(bad)
        }
        (Format::Pgn, Board::Xiangqi(_)) => {
            let (fen, moves) = parse_pgn(text);
            xiangqi_board(&fen, &moves).map_err(bad)
        }
        (Format::Position, Board::Gomoku(game, _)) => {
            let b = game.board();
            let moves: Vec<String> = text
                .split(|c: char| c.is_whitespace() || c == ';')
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect();
            gomoku_board(b.width(), b.height(), b.rule(), &moves).map_err(bad)
        }
        (Format::Psq, Board::Gomoku(game, _)) => {
            let (width, height, moves) = parse_psq(text).map_err(bad)?;
            gomoku_board(width, height, game.board().rule(), &moves).map_err(bad)
        }
        (Format::Sgf, Board::Gomoku(game, _)) => {
            let (width, height, rule, moves) = parse_sgf(text).map_err(bad)?;
            let rule = rule.unwrap_or(game.board().rule());
            gomoku_board(width, height, rule, &moves).map_err(bad)
        }
        _ => Err(Refusal::bad(format!(
            "{format:?} is not a {} format",
            current.kind()
        ))),
    }
}

/// `fen <FEN> [moves ...]`, `startpos [moves ...]`, `position ...` or a bare FEN.
fn split_position(text: &str) -> (String, Vec<String>) {
    let text = text.trim();
    let text = text.strip_prefix("position").unwrap_or(text).trim();
    let (head, moves) = match text.split_once(" moves") {
        Some((head, moves)) => (head, moves.split_whitespace().map(str::to_string).collect()),
        None => (text, Vec::new()),
    };
    let head = head.trim();
    let fen = if head == "startpos" {
        xiangqi::START_FEN.to_string()
    } else {
        head.strip_prefix("fen").unwrap_or(head).trim().to_string()
    };
    (fen, moves)
}

/// The tag `FEN` and the moves of a Xiangqi PGN (ICCS, `H2-E2` or `h2e2`); comments,
/// move numbers and the result are skipped.
fn parse_pgn(text: &str) -> (String, Vec<String>) {
    let mut fen = xiangqi::START_FEN.to_string();
    let mut body = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[') {
            if let Some(value) = tag.strip_prefix("FEN \"") {
                fen = value
                    .trim_end_matches(']')
                    .trim_end_matches('"')
                    .to_string();
            }
        } else {
            body.push_str(line);
            body.push(' ');
        }
    }
    let mut moves = Vec::new();
    let mut depth = 0;
    let mut word = String::new();
    for c in body.chars().chain(std::iter::once(' ')) {
        match c {
            '{' => depth += 1,
            '}' => depth = (depth - 1).max(0),
            _ if depth > 0 => {}
            c if c.is_whitespace() => {
                let token = std::mem::take(&mut word);
                let mv = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if mv.len() >= 4 && !mv.contains('/') && !mv.starts_with('*') {
                    moves.push(mv.replace('-', "").to_ascii_lowercase());
                }
            }
            c => word.push(c),
        }
    }
    (fen, moves)
}

/// A Xiangqi game from `fen` with `moves` played; `Err` names the first bad move.
fn xiangqi_board(fen: &str, moves: &[String]) -> Result<Board, String> {
    let position = xiangqi::Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    let mut board = Board::Xiangqi(xiangqi::Game::new(position));
    for (index, mv) in moves.iter().enumerate() {
        board
            .play(mv)
            .map_err(|e| format!("move {} '{mv}': {e}", index + 1))?;
    }
    Ok(board)
}

/// A Gomoku game with `moves` (`x,y`) played from the empty board.
fn gomoku_board(
    width: usize,
    height: usize,
    rule: gomoku::Rule,
    moves: &[String],
) -> Result<Board, String> {
    let mut board = Board::gomoku(width, height, rule)?;
    for (index, mv) in moves.iter().enumerate() {
        board
            .play(mv)
            .map_err(|e| format!("move {} '{mv}': {e}", index + 1))?;
    }
    Ok(board)
}

/// A `.psq` file: `Piskvorky WxH, ...` then `x,y[,ms]` lines from 1, until the first line
/// that is not one.
fn parse_psq(text: &str) -> Result<(usize, usize, Vec<String>), String> {
    let mut lines = text.lines();
    let head = lines.next().unwrap_or_default();
    let size = head
        .strip_prefix("Piskvorky ")
        .and_then(|rest| rest.split(',').next())
        .and_then(|wh| wh.trim().split_once('x'))
        .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)))
        .ok_or("a .psq file starts with 'Piskvorky WxH, ...'")?;
    let mut moves = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let xy = match fields.as_slice() {
            [x, y] | [x, y, _] => x.parse::<usize>().ok().zip(y.parse::<usize>().ok()),
            _ => None,
        };
        match xy {
            Some((x, y)) if x >= 1 && y >= 1 => moves.push(format!("{},{}", x - 1, y - 1)),
            _ => break,
        }
    }
    Ok((size.0, size.1, moves))
}

/// An SGF game: `SZ[n]` or `SZ[w:h]`, `RU[name]`, and `;B[..]`/`;W[..]` moves (letters from
/// `a` = 0, then `A` = 26); set-up stones are not read.
fn parse_sgf(text: &str) -> Result<(usize, usize, Option<gomoku::Rule>, Vec<String>), String> {
    let property = |name: &str| -> Option<String> {
        let at = text.find(&format!("{name}["))?;
        let rest = &text[at + name.len() + 1..];
        Some(rest[..rest.find(']')?].to_string())
    };
    let (width, height) = match property("SZ") {
        Some(size) => {
            let parse = |t: &str| {
                t.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("bad SZ[{size}]"))
            };
            match size.split_once(':') {
                Some((w, h)) => (parse(w)?, parse(h)?),
                None => (parse(&size)?, parse(&size)?),
            }
        }
        None => (15, 15),
    };
    let rule = property("RU").and_then(|r| gomoku::Rule::parse(&r));
    let letter = |c: char| match c {
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 26),
        _ => None,
    };
    let mut moves = Vec::new();
    for (at, _) in text.match_indices(';') {
        let node = text[at + 1..].trim_start();
        let Some(point) = node.strip_prefix("B[").or_else(|| node.strip_prefix("W[")) else {
            continue;
        };
        let mut chars = point.chars();
        let (Some(x), Some(y), Some(']')) = (
            chars.next().and_then(letter),
            chars.next().and_then(letter),
            chars.next(),
        ) else {
            return Err(format!(
                "bad SGF point near '{}'",
                &node[..node.len().min(8)]
            ));
        };
        moves.push(format!("{x},{y}"));
    }
    Ok((width, height, rule, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_moves_skip_numbers_comments_and_results() {
        let text = "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n1. H2-E2 {+0.20/5 0.1s} H9-G7 {?} 2. h0g2 *\n";
        let (fen, moves) = parse_pgn(text);
        assert!(fen.starts_with("rnbakabnr/9/1c5c1"));
        assert_eq!(moves, vec!["h2e2", "h9g7", "h0g2"]);
    }

    #[test]
    fn psq_and_sgf_points_are_read() {
        let (w, h, moves) =
            parse_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,10\nQilin\n0\n").expect("psq");
        assert_eq!((w, h), (15, 15));
        assert_eq!(moves, vec!["7,7", "8,7"]);
        let (w, h, rule, moves) =
            parse_sgf("(;GM[4]FF[4]SZ[19]RU[renju];B[hh];W[ih])").expect("sgf");
        assert_eq!((w, h, rule), (19, 19, Some(gomoku::Rule::Renju)));
        assert_eq!(moves, vec!["7,7", "8,7"]);
    }

    #[test]
    fn a_record_with_an_illegal_move_is_refused() {
        let current = Board::xiangqi();
        assert!(load("startpos moves h2e2 h2e2", None, &current).is_err());
        let board = load("startpos moves h2e2 h9g7", None, &current).expect("legal");
        assert_eq!(board.ply(), 2);
    }
}
