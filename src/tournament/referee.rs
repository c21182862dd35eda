//! The game-agnostic referee interface the game loop uses, and the Xiangqi adapter over
//! Qilin's own rules. Gomoku gets its adapter when the Gomoku rules exist.

use crate::xiangqi::{Move, Position};

use super::args::GameChoice;
use super::openings::Opening;

/// How a game ended by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Seat of the winner (0 = the first colour), `None` for a draw.
    pub winner: Option<usize>,
    /// Why: `checkmate`, `stalemate`, `perpetual-check`, `repetition`, ...
    pub reason: String,
}

/// A game in progress, judged by the rules of its game.
pub trait Referee: Send {
    /// Names of the two colours by seat, as used in records (`red`, `black`).
    fn colour_names(&self) -> [&'static str; 2];
    /// Where the game starts, in the form engines are given (Xiangqi: a FEN).
    fn root(&self) -> &str;
    /// Every move since the root, in the game's notation.
    fn moves(&self) -> &[String];
    /// Seat of the side to move.
    fn side_to_move(&self) -> usize;
    /// Plays a move in the game's notation; `Err` explains why it is not legal.
    fn play(&mut self, notation: &str) -> Result<(), String>;
    /// The result by the rules, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
}

/// Builds a referee for a game starting at `opening` (opening moves already played).
pub fn new_referee(
    game: GameChoice,
    opening: &Opening,
    no_capture_limit: Option<u32>,
) -> Result<Box<dyn Referee>, String> {
    match game {
        GameChoice::Xiangqi => {
            let mut referee = XiangqiReferee::new(&opening.root, no_capture_limit)?;
            for (index, mv) in opening.moves.iter().enumerate() {
                referee
                    .play(mv)
                    .map_err(|error| format!("opening move {} '{mv}': {error}", index + 1))?;
            }
            Ok(Box::new(referee))
        }
        GameChoice::Gomoku { .. } => Err("Gomoku rules are not available yet".to_string()),
    }
}

/// Default no-capture limit in plies.
pub const DEFAULT_NO_CAPTURE_LIMIT: u32 = 120;

/// Xiangqi judged by Qilin's rules core.
pub struct XiangqiReferee {
    root: String,
    position: Position,
    moves: Vec<String>,
    keys: Vec<u64>,
    no_capture_limit: u32,
}

impl XiangqiReferee {
    /// A game from `fen`.
    pub fn new(fen: &str, no_capture_limit: Option<u32>) -> Result<XiangqiReferee, String> {
        let position =
            Position::from_fen(fen).map_err(|error| format!("bad FEN '{fen}': {error}"))?;
        Ok(XiangqiReferee {
            root: position.fen(),
            keys: vec![position.key()],
            position,
            moves: Vec::new(),
            no_capture_limit: no_capture_limit.unwrap_or(DEFAULT_NO_CAPTURE_LIMIT),
        })
    }
}

impl Referee for XiangqiReferee {
    fn colour_names(&self) -> [&'static str; 2] {
        ["red", "black"]
    }

    fn root(&self) -> &str {
        &self.root
    }

    fn moves(&self) -> &[String] {
        &self.moves
    }

    fn side_to_move(&self) -> usize {
        self.position.side_to_move().index()
    }

    fn play(&mut self, notation: &str) -> Result<(), String> {
        let Some(mv) = Move::parse(notation) else {
            return Err(format!("'{notation}' is not a move"));
        };
        if !self.position.is_legal(mv) {
            return Err(format!("{notation} is illegal in {}", self.position.fen()));
        }
        self.position.make_move(mv);
        self.keys.push(self.position.key());
        self.moves.push(notation.to_string());
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.position.legal_moves().is_empty() {
            let loser = self.position.side_to_move().index();
            let reason = if self.position.in_check() {
                "checkmate"
            } else {
                "stalemate"
            };
            return Some(Outcome {
                winner: Some(1 - loser),
                reason: reason.to_string(),
            });
        }
        let current = self.position.key();
        if self.keys.iter().filter(|&&key| key == current).count() >= 3 {
            return Some(Outcome {
                winner: None,
                reason: "repetition".to_string(),
            });
        }
        if self.position.halfmove_clock() >= self.no_capture_limit {
            return Some(Outcome {
                winner: None,
                reason: "no-capture-limit".to_string(),
            });
        }
        None
    }
}
