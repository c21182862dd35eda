//! Stand-ins for the rules module (`Game`, `judge_cycle`) until it lands on main. They have
//! the same shape as the real ones; the repetition judge here calls every cycle a draw.

use crate::xiangqi::{Move, Position};

/// A game: the start position and the moves played, with the moves made on the position so
/// that `key_back`/`move_back` reach into the game's history.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    moves: Vec<Move>,
}

impl Game {
    /// A game starting at `start`.
    pub fn new(start: Position) -> Game {
        Game {
            position: start,
            moves: Vec::new(),
        }
    }

    /// Plays `mv` (the caller checked it is legal).
    pub fn play(&mut self, mv: Move) {
        self.position.make_move(mv);
        self.moves.push(mv);
    }

    /// The current position, with the game's moves made on it.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played since the start position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}

/// How a repetition cycle is judged, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleVerdict {
    /// Neither side broke the rules (or both did).
    Draw,
    /// The opponent checked or chased perpetually.
    SideToMoveWins,
    /// The side to move checked or chased perpetually.
    SideToMoveLoses,
}

/// Placeholder: judges every cycle a draw.
pub fn judge_cycle(_pos: &mut Position, _len: usize) -> CycleVerdict {
    CycleVerdict::Draw
}
