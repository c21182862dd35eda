//! TEMPORARY: the subset of `crate::xiangqi::Game` the protocol layer uses, until the rules
//! core's `Game` lands on main. Delete this file and import `crate::xiangqi::Game` instead.

use crate::xiangqi::{Move, Position};

/// A move was not legal in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

/// A position with the moves that led to it.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    moves: Vec<Move>,
}

impl Game {
    /// A game starting from `position`.
    pub fn new(position: Position) -> Game {
        Game {
            position,
            moves: Vec::new(),
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if !self.position.is_legal(mv) {
            return Err(IllegalMove(mv));
        }
        self.position.make_move(mv);
        self.moves.push(mv);
        Ok(())
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}
