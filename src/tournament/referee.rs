//! The game-agnostic referee interface the game loop uses, and the Xiangqi adapter over
//! Qilin's own rules. Gomoku gets its adapter when the Gomoku rules exist.

use crate::xiangqi::{Game, Move, Position, Verdict};

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
    /// The position after the last irreversible move (a capture) and the moves since, for
    /// protocols that send positions that way (UCCI). By default the root and every move.
    fn since_last_capture(&self) -> (&str, &[String]) {
        (self.root(), self.moves())
    }
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

/// Xiangqi judged by Qilin's rules core ([`Game`]): checkmate, stalemate, perpetual check
/// and chase, repetition and the no-capture limit.
pub struct XiangqiReferee {
    root: String,
    game: Game,
    moves: Vec<String>,
    /// FEN after the last capture (or the root) and the number of moves played before it.
    last_capture: (String, usize),
}

impl XiangqiReferee {
    /// A game from `fen`, with the referee's default no-capture limit unless one is given.
    pub fn new(fen: &str, no_capture_limit: Option<u32>) -> Result<XiangqiReferee, String> {
        let position =
            Position::from_fen(fen).map_err(|error| format!("bad FEN '{fen}': {error}"))?;
        let root = position.fen();
        let mut game = Game::new(position);
        if let Some(limit) = no_capture_limit {
            game.set_no_capture_limit(limit);
        }
        Ok(XiangqiReferee {
            last_capture: (root.clone(), 0),
            root,
            game,
            moves: Vec::new(),
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

    fn since_last_capture(&self) -> (&str, &[String]) {
        let (fen, index) = &self.last_capture;
        (fen, &self.moves[*index..])
    }

    fn side_to_move(&self) -> usize {
        self.game.position().side_to_move().index()
    }

    fn play(&mut self, notation: &str) -> Result<(), String> {
        let capture = Move::parse(notation)
            .is_some_and(|mv| !self.game.position().piece_at(mv.to()).is_empty());
        self.game
            .play_str(notation)
            .map_err(|error| format!("{error} in {}", self.game.position().fen()))?;
        self.moves.push(notation.to_string());
        if capture {
            self.last_capture = (self.game.position().fen(), self.moves.len());
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.game.verdict() {
            Verdict::Ongoing => None,
            Verdict::Win { winner, reason } => Some(Outcome {
                winner: Some(winner.index()),
                reason: reason.as_str().to_string(),
            }),
            Verdict::Draw { reason } => Some(Outcome {
                winner: None,
                reason: reason.as_str().to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::START_FEN;

    #[test]
    fn xiangqi_adapter_reports_moves_captures_and_verdicts() {
        let mut referee = XiangqiReferee::new(START_FEN, None).unwrap();
        assert_eq!(referee.side_to_move(), 0);
        assert!(referee.play("h2e3").is_err());
        assert!(referee.play("zz").is_err());
        referee.play("h2e2").unwrap();
        referee.play("h7e7").unwrap();
        assert_eq!(
            referee.since_last_capture(),
            (START_FEN, &["h2e2".to_string(), "h7e7".to_string()][..])
        );
        // The central cannon takes the central pawn: the UCCI position restarts there.
        referee.play("e2e6").unwrap();
        let (fen, since) = referee.since_last_capture();
        assert!(since.is_empty());
        assert!(fen.ends_with(" b - - 0 2"), "{fen}");
        assert_eq!(referee.moves().len(), 3);
        assert_eq!(referee.side_to_move(), 1);
        assert_eq!(referee.outcome(), None);
    }

    #[test]
    fn repetition_is_a_draw() {
        let mut referee = XiangqiReferee::new(START_FEN, None).unwrap();
        for _ in 0..2 {
            for mv in ["h0g2", "h9g7", "g2h0", "g7h9"] {
                assert_eq!(referee.outcome(), None);
                referee.play(mv).unwrap();
            }
        }
        assert_eq!(
            referee.outcome(),
            Some(Outcome {
                winner: None,
                reason: "repetition".to_string()
            })
        );
    }

    #[test]
    fn no_capture_limit_is_configurable() {
        let mut referee = XiangqiReferee::new(START_FEN, Some(4)).unwrap();
        for mv in ["h0g2", "h9g7", "b0c2"] {
            referee.play(mv).unwrap();
            assert_eq!(referee.outcome(), None);
        }
        referee.play("b9c7").unwrap();
        assert_eq!(
            referee.outcome().map(|o| o.reason),
            Some("no-capture-limit".to_string())
        );
    }
}
