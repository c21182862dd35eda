//! The game-agnostic referee interface the game loop uses, and the adapters over Qilin's own
//! rules: Xiangqi and Gomoku.

use crate::gomoku;
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
    /// Names of the two colours by seat, as used in records (`red`, `black`; Gomoku: `black`,
    /// `white`).
    fn colour_names(&self) -> [&'static str; 2];
    /// Where the game starts, in the form engines are given (Xiangqi: a FEN; Gomoku: empty,
    /// the empty board).
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

/// The outcome a Xiangqi verdict gives (`None` while the game goes on).
pub fn xiangqi_outcome(verdict: Verdict) -> Option<Outcome> {
    match verdict {
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

/// The outcome a Gomoku verdict gives (`None` while the game goes on).
pub fn gomoku_outcome(verdict: gomoku::Verdict) -> Option<Outcome> {
    match verdict {
        gomoku::Verdict::Ongoing => None,
        gomoku::Verdict::Win { winner, reason } => Some(Outcome {
            winner: Some(winner.index()),
            reason: reason.name().to_string(),
        }),
        gomoku::Verdict::Draw => Some(Outcome {
            winner: None,
            reason: gomoku::EndReason::FullBoard.name().to_string(),
        }),
    }
}

/// Builds a referee for a game starting at `opening` (opening moves already played). A Gomoku
/// opening must fit the board, use free points and leave the game undecided.
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
        GameChoice::Gomoku {
            width,
            height,
            rule,
        } => {
            let mut referee = GomokuReferee::new(width, height, rule)?;
            for (index, mv) in opening.moves.iter().enumerate() {
                referee
                    .play(mv)
                    .map_err(|error| format!("opening stone {} '{mv}': {error}", index + 1))?;
            }
            if referee.game.verdict() != gomoku::Verdict::Ongoing {
                return Err(format!(
                    "the opening ends the game ({})",
                    referee.game.verdict()
                ));
            }
            Ok(Box::new(referee))
        }
    }
}

/// Gomoku judged by Qilin's rules core ([`gomoku::Game`]): black first; a five by the rule
/// wins (`five`), under renju black's overline, double-four and double-three points lose
/// (`overline`, `double-four`, `double-three`), and a full board is a draw (`full-board`).
/// Moves are Piskvork's `x,y`; an occupied, off-board or malformed point is refused.
pub struct GomokuReferee {
    game: gomoku::Game,
    moves: Vec<String>,
}

impl GomokuReferee {
    /// An empty `width` x `height` board under `rule`.
    pub fn new(width: usize, height: usize, rule: gomoku::Rule) -> Result<GomokuReferee, String> {
        let game = gomoku::Game::new(width, height, rule).map_err(|error| error.to_string())?;
        Ok(GomokuReferee {
            game,
            moves: Vec::new(),
        })
    }

    /// The game as the rules core sees it.
    pub fn game(&self) -> &gomoku::Game {
        &self.game
    }
}

impl Referee for GomokuReferee {
    fn colour_names(&self) -> [&'static str; 2] {
        [gomoku::Color::Black.name(), gomoku::Color::White.name()]
    }

    fn root(&self) -> &str {
        ""
    }

    fn moves(&self) -> &[String] {
        &self.moves
    }

    fn side_to_move(&self) -> usize {
        self.game.side_to_move().index()
    }

    fn play(&mut self, notation: &str) -> Result<(), String> {
        let cell = self
            .game
            .parse_cell(notation)
            .map_err(|error| error.to_string())?;
        self.game.play(cell).map_err(|error| error.to_string())?;
        // Recorded in the normal form `x,y`, whatever spaces the engine used.
        self.moves.push(cell.to_string());
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        gomoku_outcome(self.game.verdict())
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
        xiangqi_outcome(self.game.verdict())
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

    fn gomoku(rule: gomoku::Rule, moves: &[&str]) -> Result<Box<dyn Referee>, String> {
        let opening = Opening {
            root: String::new(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            name: None,
        };
        let game = GameChoice::Gomoku {
            width: 15,
            height: 15,
            rule,
        };
        new_referee(game, &opening, None)
    }

    #[test]
    fn gomoku_adapter_plays_and_judges() {
        let mut referee = gomoku(gomoku::Rule::Freestyle, &["7,7", "8,8"]).unwrap();
        assert_eq!(referee.colour_names(), ["black", "white"]);
        assert_eq!(referee.root(), "");
        assert_eq!(referee.side_to_move(), 0);
        assert_eq!(referee.moves(), ["7,7", "8,8"]);
        let occupied = referee.play("7,7").unwrap_err();
        assert!(occupied.contains("occupied"), "{occupied}");
        let off = referee.play("15,3").unwrap_err();
        assert!(off.contains("off the board"), "{off}");
        assert!(referee.play("7;7").unwrap_err().contains("malformed"));
        assert_eq!(referee.moves().len(), 2);
        for mv in ["8,7", "0,0", "9,7", "0,1", "10,7", "0,2"] {
            referee.play(mv).unwrap();
            assert_eq!(referee.outcome(), None);
        }
        referee.play(" 11, 7").unwrap();
        assert_eq!(referee.moves().last().map(String::as_str), Some("11,7"));
        assert_eq!(
            referee.outcome(),
            Some(Outcome {
                winner: Some(0),
                reason: "five".to_string()
            })
        );
    }

    #[test]
    fn gomoku_renju_forbidden_move_loses_for_black() {
        // GomocupJudge's renju check: 6,8 is a double-three for black.
        let mut referee = gomoku(
            gomoku::Rule::Renju,
            &["7,7", "7,8", "8,6", "8,8", "7,9", "8,5", "8,10", "8,11"],
        )
        .unwrap();
        assert_eq!(referee.side_to_move(), 0);
        referee.play("6,8").unwrap();
        assert_eq!(
            referee.outcome(),
            Some(Outcome {
                winner: Some(1),
                reason: "double-three".to_string()
            })
        );
    }

    #[test]
    fn gomoku_openings_must_leave_the_game_open() {
        let five = [
            "7,7", "0,0", "8,7", "0,2", "9,7", "0,4", "10,7", "0,6", "11,7",
        ];
        let error = gomoku(gomoku::Rule::Freestyle, &five).err().unwrap();
        assert!(error.contains("ends the game"), "{error}");
        assert!(error.contains("black-wins reason: five"), "{error}");
        let error = gomoku(gomoku::Rule::Freestyle, &["7,7", "7,7"])
            .err()
            .unwrap();
        assert!(error.contains("opening stone 2"), "{error}");
        let error = gomoku(gomoku::Rule::Freestyle, &["15,15"]).err().unwrap();
        assert!(error.contains("off the board"), "{error}");
        assert!(gomoku(gomoku::Rule::Freestyle, &[]).is_ok());
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
