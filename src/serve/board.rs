//! The two games as the server holds them: the position, the moves played, the verdict by
//! Qilin's own referees, undo by replay, and the JSON a page draws the board from.

use serde_json::{Value, json};

use crate::gomoku;
use crate::tournament::referee::{Outcome, gomoku_outcome, xiangqi_outcome};
use crate::xiangqi;

/// A game in progress: Xiangqi (from a start FEN) or Gomoku (from the empty board). One
/// per session, so the size of the larger variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Board {
    /// Xiangqi, judged by [`xiangqi::Game`] (checkmate, stalemate, repetition rules).
    Xiangqi(xiangqi::Game),
    /// Gomoku, judged by [`gomoku::Game`]; the moves are kept for undo by replay.
    Gomoku(gomoku::Game, Vec<gomoku::Cell>),
}

impl Board {
    /// The Xiangqi start position.
    pub fn xiangqi() -> Board {
        Board::Xiangqi(xiangqi::Game::new(xiangqi::Position::startpos()))
    }

    /// An empty Gomoku board; `Err` for a size the board refuses.
    pub fn gomoku(width: usize, height: usize, rule: gomoku::Rule) -> Result<Board, String> {
        let game = gomoku::Game::new(width, height, rule).map_err(|e| e.to_string())?;
        Ok(Board::Gomoku(game, Vec::new()))
    }

    /// `xiangqi` or `gomoku`.
    pub fn kind(&self) -> &'static str {
        match self {
            Board::Xiangqi(_) => "xiangqi",
            Board::Gomoku(..) => "gomoku",
        }
    }

    /// Names of the two seats' colours.
    pub fn colours(&self) -> [&'static str; 2] {
        match self {
            Board::Xiangqi(_) => ["red", "black"],
            Board::Gomoku(..) => ["black", "white"],
        }
    }

    /// Moves played, in the game's notation (ICCS `h2e2`; Piskvork `x,y`).
    pub fn moves(&self) -> Vec<String> {
        match self {
            Board::Xiangqi(game) => game.moves().iter().map(|m| m.to_string()).collect(),
            Board::Gomoku(_, moves) => moves.iter().map(|c| c.to_string()).collect(),
        }
    }

    /// Number of moves played.
    pub fn ply(&self) -> usize {
        match self {
            Board::Xiangqi(game) => game.moves().len(),
            Board::Gomoku(_, moves) => moves.len(),
        }
    }

    /// Seat of the side to move.
    pub fn side_to_move(&self) -> usize {
        match self {
            Board::Xiangqi(game) => game.position().side_to_move().index(),
            Board::Gomoku(game, _) => game.side_to_move().index(),
        }
    }

    /// The referee's verdict, `None` while the game goes on.
    pub fn ending(&self) -> Option<Outcome> {
        match self {
            Board::Xiangqi(game) => xiangqi_outcome(game.verdict()),
            Board::Gomoku(game, _) => gomoku_outcome(game.verdict()),
        }
    }

    /// Plays one move in the game's notation; `Err` says why it is refused and leaves the
    /// game as it was.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        if let Some(ending) = self.ending() {
            return Err(format!("the game is over ({})", ending.reason));
        }
        match self {
            Board::Xiangqi(game) => game
                .play_str(text.trim())
                .map_err(|e| format!("{e} in {}", game.position().fen())),
            Board::Gomoku(game, moves) => {
                let cell = game.parse_cell(text).map_err(|e| e.to_string())?;
                game.play(cell).map_err(|e| e.to_string())?;
                moves.push(cell);
                Ok(())
            }
        }
    }

    /// Takes back the last `plies` moves (at most all of them) by replaying the rest.
    pub fn undo(&mut self, plies: usize) {
        let keep = self.ply().saturating_sub(plies);
        match self {
            Board::Xiangqi(game) => {
                let moves: Vec<xiangqi::Move> = game.moves()[..keep].to_vec();
                let mut fresh = xiangqi::Game::new(game.start().clone());
                for mv in moves {
                    // Each move was legal when it was played from the same start.
                    let _ = fresh.play(mv);
                }
                *game = fresh;
            }
            Board::Gomoku(game, moves) => {
                let board = game.board();
                let (width, height, rule) = (board.width(), board.height(), board.rule());
                moves.truncate(keep);
                if let Ok(mut fresh) = gomoku::Game::new(width, height, rule) {
                    for &cell in moves.iter() {
                        let _ = fresh.play(cell);
                    }
                    *game = fresh;
                }
            }
        }
    }

    /// What the page draws: Xiangqi `fen`, `start_fen`, `legal` moves, `check` (the square of
    /// the king in check); Gomoku `width`, `height`, `rule`, `forbidden` points (renju, black
    /// to move) and `win_line` (the stones of the five).
    pub fn to_json(&self) -> Value {
        match self {
            Board::Xiangqi(game) => {
                let pos = game.position();
                let legal: Vec<String> = if self.ending().is_some() {
                    Vec::new()
                } else {
                    pos.legal_moves().iter().map(|m| m.to_string()).collect()
                };
                let check = pos
                    .in_check()
                    .then(|| pos.king_square(pos.side_to_move()).to_string());
                json!({
                    "fen": pos.fen(),
                    "start_fen": game.start().fen(),
                    "legal": legal,
                    "check": check,
                })
            }
            Board::Gomoku(game, _) => {
                let board = game.board();
                let forbidden: Vec<[usize; 2]> = if board.rule() == gomoku::Rule::Renju
                    && game.side_to_move() == gomoku::Color::Black
                    && game.verdict() == gomoku::Verdict::Ongoing
                {
                    board
                        .forbidden_points()
                        .iter()
                        .map(|c| [c.x(), c.y()])
                        .collect()
                } else {
                    Vec::new()
                };
                json!({
                    "width": board.width(),
                    "height": board.height(),
                    "rule": board.rule().name(),
                    "forbidden": forbidden,
                    "win_line": win_line(game),
                })
            }
        }
    }
}

/// The stones of the winning line through the last stone, when the game was won by a five.
fn win_line(game: &gomoku::Game) -> Vec<[usize; 2]> {
    let gomoku::Verdict::Win {
        reason: gomoku::EndReason::Five,
        ..
    } = game.verdict()
    else {
        return Vec::new();
    };
    let board = game.board();
    let Some((last, colour)) = board.last_move() else {
        return Vec::new();
    };
    let stone = colour.stone();
    let at = |x: isize, y: isize| {
        usize::try_from(x)
            .ok()
            .zip(usize::try_from(y).ok())
            .and_then(|(x, y)| board.cell(x, y))
            .is_some_and(|c| board.stone(c) == stone)
    };
    let (x0, y0) = (last.x() as isize, last.y() as isize);
    let mut best: Vec<[usize; 2]> = Vec::new();
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        let mut start = 0;
        while at(x0 + (start - 1) * dx, y0 + (start - 1) * dy) {
            start -= 1;
        }
        let mut end = 0;
        while at(x0 + (end + 1) * dx, y0 + (end + 1) * dy) {
            end += 1;
        }
        if end - start + 1 >= 5 && (end - start + 1) as usize > best.len() {
            best = (start..=end)
                .map(|k| [(x0 + k * dx) as usize, (y0 + k * dy) as usize])
                .collect();
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_win_line_holds_the_five() {
        let mut board = Board::gomoku(15, 15, gomoku::Rule::Freestyle).expect("board");
        for mv in [
            "3,3", "3,4", "4,4", "4,5", "5,5", "5,6", "6,6", "6,7", "7,7",
        ] {
            board.play(mv).expect("legal");
        }
        let json = board.to_json();
        let line: Vec<[usize; 2]> = serde_json::from_value(json["win_line"].clone()).expect("line");
        assert_eq!(line, vec![[3, 3], [4, 4], [5, 5], [6, 6], [7, 7]]);
        assert_eq!(board.ending().map(|e| e.winner), Some(Some(0)));
        assert!(board.play("9,9").is_err());
    }

    #[test]
    fn undo_replays_the_rest() {
        let mut board = Board::xiangqi();
        board.play("h2e2").expect("legal");
        board.play("h9g7").expect("legal");
        assert!(board.play("h2h9").is_err());
        board.undo(1);
        assert_eq!(board.moves(), vec!["h2e2".to_string()]);
        assert_eq!(board.side_to_move(), 1);
        board.undo(5);
        assert_eq!(board.ply(), 0);
    }
}
