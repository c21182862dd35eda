//! A refereed Gomoku game: moves checked against the board, the result by the rule (five,
//! renju forbidden moves by black, a full board), for the referee and match runner.

use std::fmt;

use super::board::{Board, Forbidden, SizeError};
use super::types::{Cell, Color, Rule};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The winner made a five (by the rule).
    Five,
    /// Renju: black played an overline point and lost.
    Overline,
    /// Renju: black played a double-four point and lost.
    DoubleFour,
    /// Renju: black played a double-three point and lost.
    DoubleThree,
    /// Every intersection is occupied: a draw.
    FullBoard,
}

impl EndReason {
    /// `five`, `overline`, `double-four`, `double-three` or `full-board`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Five => "five",
            EndReason::Overline => "overline",
            EndReason::DoubleFour => "double-four",
            EndReason::DoubleThree => "double-three",
            EndReason::FullBoard => "full-board",
        }
    }
}

impl From<Forbidden> for EndReason {
    fn from(kind: Forbidden) -> EndReason {
        match kind {
            Forbidden::Overline => EndReason::Overline,
            Forbidden::DoubleFour => EndReason::DoubleFour,
            Forbidden::DoubleThree => EndReason::DoubleThree,
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The state of a game by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Moves remain to be played.
    Ongoing,
    /// A colour won.
    Win {
        /// Who.
        winner: Color,
        /// How.
        reason: EndReason,
    },
    /// The board is full with no winner.
    Draw,
}

impl fmt::Display for Verdict {
    /// The referee's line: `result: ongoing`, `result: black-wins reason: five`,
    /// `result: draw reason: full-board`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Ongoing => f.write_str("result: ongoing"),
            Verdict::Win { winner, reason } => {
                write!(f, "result: {}-wins reason: {reason}", winner.name())
            }
            Verdict::Draw => write!(f, "result: draw reason: {}", EndReason::FullBoard),
        }
    }
}

/// A move the referee refuses; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// Not of the form `x,y` with numbers.
    Malformed(String),
    /// Outside the board.
    OffBoard(String),
    /// The point holds a stone already.
    Occupied(Cell),
    /// The game is over.
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Malformed(text) => write!(f, "malformed point '{text}' (expected x,y)"),
            PlayError::OffBoard(text) => write!(f, "point {text} is off the board"),
            PlayError::Occupied(cell) => write!(f, "point {cell} is occupied"),
            PlayError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A game from the empty board, black first, judged move by move.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    verdict: Verdict,
}

impl Game {
    /// A new game on a `width` x `height` board.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Game, SizeError> {
        Ok(Game {
            board: Board::new(width, height, rule)?,
            verdict: Verdict::Ongoing,
        })
    }

    /// A game from a set-up position: `black` and `white` stones placed as given (no rule
    /// applies to set-up stones, so a renju position whose stones could not all have been
    /// played in some order is accepted), then `to_move` plays. `Err` names an off-board or
    /// repeated point, or a five already on the board (a finished game is not a start).
    pub fn from_setup(
        width: usize,
        height: usize,
        rule: Rule,
        black: &[Cell],
        white: &[Cell],
        to_move: Color,
    ) -> Result<Game, String> {
        let mut board = Board::new(width, height, rule).map_err(|e| e.to_string())?;
        for (stones, color) in [(black, Color::Black), (white, Color::White)] {
            for &cell in stones {
                if !board.contains(cell) {
                    return Err(format!("set-up point {cell} is off the board"));
                }
                if !board.is_empty(cell) {
                    return Err(format!("set-up point {cell} is given twice"));
                }
                board.play_as(cell, color);
            }
        }
        board.set_side_to_move(to_move);
        let finished = board
            .moves()
            .find(|&(cell, color)| board.makes_five(cell, color));
        if let Some((cell, color)) = finished {
            return Err(format!(
                "the set-up has a {} five through {cell}",
                color.name()
            ));
        }
        let verdict = if board.is_full() {
            Verdict::Draw
        } else {
            Verdict::Ongoing
        };
        Ok(Game { board, verdict })
    }

    /// The position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The result so far.
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    /// The colour to move.
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// Parses `x,y` into a cell of this board.
    pub fn parse_cell(&self, text: &str) -> Result<Cell, PlayError> {
        let (x, y) = text
            .split_once(',')
            .ok_or_else(|| PlayError::Malformed(text.to_string()))?;
        let parse = |n: &str| n.trim().parse::<i64>();
        let (Ok(x), Ok(y)) = (parse(x), parse(y)) else {
            return Err(PlayError::Malformed(text.to_string()));
        };
        usize::try_from(x)
            .ok()
            .zip(usize::try_from(y).ok())
            .and_then(|(x, y)| self.board.cell(x, y))
            .ok_or_else(|| PlayError::OffBoard(format!("{x},{y}")))
    }

    /// Plays the side to move's stone on `cell` and returns the new verdict. Under renju a
    /// black move on a forbidden point is played and loses (unless it makes exactly five).
    pub fn play(&mut self, cell: Cell) -> Result<Verdict, PlayError> {
        if self.verdict != Verdict::Ongoing {
            return Err(PlayError::GameOver);
        }
        if !self.board.contains(cell) {
            return Err(PlayError::OffBoard(cell.to_string()));
        }
        if !self.board.is_empty(cell) {
            return Err(PlayError::Occupied(cell));
        }
        let color = self.board.side_to_move();
        let five = self.board.makes_five(cell, color);
        let forbidden = if five || color != Color::Black {
            None
        } else {
            self.board.forbidden_kind(cell)
        };
        self.board.play(cell);
        self.verdict = if five {
            Verdict::Win {
                winner: color,
                reason: EndReason::Five,
            }
        } else if let Some(kind) = forbidden {
            Verdict::Win {
                winner: Color::White,
                reason: kind.into(),
            }
        } else if self.board.is_full() {
            Verdict::Draw
        } else {
            Verdict::Ongoing
        };
        Ok(self.verdict)
    }

    /// Plays a move written `x,y`.
    pub fn play_str(&mut self, text: &str) -> Result<Verdict, PlayError> {
        let cell = self.parse_cell(text)?;
        self.play(cell)
    }
}
