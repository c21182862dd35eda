//! The Swap2 opening as the engine plays it: which three-stone openings it offers, the stages
//! it goes through, and what it decides after each stage's search (place stones, swap, or
//! search again). Game logic only: no protocol text and no clock; the Gomoku session
//! (`protocol/session/gomoku.rs`) runs the searches on the engine thread's behalf, feeds
//! their results to [`Stage::decide`] and writes the answer.
//!
//! The stages: with no stones the engine opens, rating each candidate opening by a search
//! and playing the one closest to even ([`Stage::Open`]); with three stones it is the second
//! player and stays white with a move, swaps, or adds a fourth and a fifth stone for the
//! opponent to choose ([`Stage::Second`]); with five stones it is the first player again and
//! takes white with a move or swaps ([`Stage::First`]).

use super::board::Board;
use super::types::Cell;
use crate::engine::Score;

/// Scores (from the mover's view) beyond which Swap2 takes a side: about a third of a
/// won position in the evaluation's units.
pub const MARGIN: i32 = 60;

/// One stage of a Swap2 opening, with what it has learnt so far. Each stage is answered
/// after one search, except [`Stage::Open`], which searches once per candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// No stones: rate candidate three-stone openings one by one.
    Open {
        /// The candidates, each three stones (black, white, black).
        candidates: Vec<[Cell; 3]>,
        /// Index of the candidate being rated.
        index: usize,
        /// The best so far: (|score|, candidate index).
        best: Option<(i32, usize)>,
    },
    /// Three stones (white to move, the engine is the second player): stay white with a
    /// move, swap, or (second search) add a black stone and let the opponent choose.
    Second {
        /// The white stone chosen by the first search, once there.
        fourth: Option<Cell>,
    },
    /// Five stones (white to move, the engine is the first player): take white with a move,
    /// or swap to black.
    First,
}

/// What to do after a Swap2 search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Put the `play` stones on the board (each where still free), then announce the
    /// `announce` stones, in order.
    Stones {
        /// Stones the engine's board gets now.
        play: Vec<Cell>,
        /// Stones the answer names (a fourth stone placed by an earlier search included).
        announce: Vec<Cell>,
    },
    /// Take the other colour.
    Swap,
    /// Put `play` on the board, if any, and search again for the `next` stage.
    SearchAgain {
        /// The stone placed before the next search.
        play: Option<Cell>,
        /// The stage the next search is for.
        next: Stage,
    },
    /// No move: the board is full.
    BoardFull,
    /// No candidate opening fits this board.
    NoOpening,
}

impl Stage {
    /// The stage a Swap2 position with `stones` stones opens on `board`: 0, 3 or 5 stones;
    /// `None` for any other count.
    pub fn for_stones(board: &Board, stones: usize) -> Option<Stage> {
        match stones {
            0 => Some(Stage::Open {
                candidates: candidates(board),
                index: 0,
                best: None,
            }),
            3 => Some(Stage::Second { fourth: None }),
            5 => Some(Stage::First),
            _ => None,
        }
    }

    /// The position this stage's next search looks at: `board`, with the candidate being
    /// rated played on it when opening.
    pub fn position(&self, board: Board) -> Board {
        match self {
            Stage::Open {
                candidates, index, ..
            } => {
                let mut board = board;
                for &cell in candidates.get(*index).into_iter().flatten() {
                    board.play(cell);
                }
                board
            }
            _ => board,
        }
    }

    /// How many searches share this stage's turn: each gets that share of the time.
    pub fn searches_per_turn(&self) -> u64 {
        match self {
            Stage::Open { candidates, .. } => (candidates.len() as u64).max(1),
            Stage::Second { .. } => 2,
            Stage::First => 1,
        }
    }

    /// The decision after this stage's search answered `best` with `score` (from the
    /// mover's view); `stopping` when the search was cut short, so the answer must take no
    /// more time.
    pub fn decide(self, best: Option<Cell>, score: Score, stopping: bool) -> Decision {
        let score = comparable(score);
        match self {
            Stage::Open {
                candidates,
                index,
                best: best_so_far,
            } => {
                let here = (score.abs(), index);
                let best_so_far = Some(best_so_far.map_or(here, |b| b.min(here)));
                if index + 1 < candidates.len() && !stopping {
                    return Decision::SearchAgain {
                        play: None,
                        next: Stage::Open {
                            candidates,
                            index: index + 1,
                            best: best_so_far,
                        },
                    };
                }
                let chosen = best_so_far.map_or(0, |(_, i)| i);
                match candidates.get(chosen) {
                    Some(stones) => Decision::Stones {
                        play: stones.to_vec(),
                        announce: stones.to_vec(),
                    },
                    None => Decision::NoOpening,
                }
            }
            Stage::Second { fourth: None } => {
                let Some(cell) = best else {
                    return Decision::BoardFull;
                };
                if score <= -MARGIN {
                    Decision::Swap
                } else if score >= MARGIN || stopping {
                    Decision::Stones {
                        play: vec![cell],
                        announce: vec![cell],
                    }
                } else {
                    // Balanced: put the fourth stone and a fifth, and let the opponent choose.
                    Decision::SearchAgain {
                        play: Some(cell),
                        next: Stage::Second { fourth: Some(cell) },
                    }
                }
            }
            Stage::Second {
                fourth: Some(fourth),
            } => match best {
                Some(fifth) => Decision::Stones {
                    play: vec![fifth],
                    announce: vec![fourth, fifth],
                },
                None => Decision::Stones {
                    play: Vec::new(),
                    announce: vec![fourth],
                },
            },
            // White to move: a good score for white takes white with a move.
            Stage::First => match best {
                Some(cell) if score >= 0 => Decision::Stones {
                    play: vec![cell],
                    announce: vec![cell],
                },
                _ => Decision::Swap,
            },
        }
    }
}

/// A search score as one number to compare: centipawns, or ±100,000 less the plies for a
/// mate.
fn comparable(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::MatePlies(n) if n > 0 => 100_000 - n,
        Score::MatePlies(n) => -100_000 - n,
    }
}

/// Candidate Swap2 openings around the centre (black, white, black), from shapes known to be
/// near balance; the search rates them and the closest to even is played.
pub fn candidates(board: &Board) -> Vec<[Cell; 3]> {
    const SHAPES: [[(i64, i64); 3]; 6] = [
        [(0, 0), (1, 0), (1, 3)],
        [(0, 0), (1, 1), (0, 3)],
        [(0, 0), (1, 0), (3, 0)],
        [(0, 0), (1, 1), (-1, 3)],
        [(0, 0), (0, 1), (2, -2)],
        [(0, 0), (-1, 1), (2, -2)],
    ];
    let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
    SHAPES
        .iter()
        .filter_map(|shape| {
            let cells: Vec<Cell> = shape
                .iter()
                .filter_map(|&(dx, dy)| {
                    let (x, y) = (cx + dx, cy + dy);
                    (x >= 0 && y >= 0)
                        .then(|| board.cell(x as usize, y as usize))
                        .flatten()
                })
                .collect();
            <[Cell; 3]>::try_from(cells).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::Rule;

    fn cell(x: usize, y: usize) -> Cell {
        Cell::from_xy(x, y).expect("cell")
    }

    #[test]
    fn openings_fit_the_board() {
        let empty = Board::new(15, 15, Rule::Renju).expect("size");
        assert_eq!(candidates(&empty).len(), 6);
        let Some(Stage::Open { candidates, .. }) = Stage::for_stones(&empty, 0) else {
            panic!("no opening stage");
        };
        assert_eq!(candidates.len(), 6);
        assert_eq!(Stage::for_stones(&empty, 4), None);
        // A board too narrow for every shape offers none, and says so after its search.
        let narrow = Board::new(5, 1, Rule::Freestyle).expect("size");
        let stage = Stage::for_stones(&narrow, 0).expect("stage");
        assert_eq!(stage.searches_per_turn(), 1);
        assert_eq!(stage.decide(None, Score::Cp(0), false), Decision::NoOpening);
    }

    #[test]
    fn the_opening_closest_to_even_is_played() {
        let empty = Board::new(15, 15, Rule::Freestyle).expect("size");
        let mut stage = Stage::for_stones(&empty, 0).expect("stage");
        let scores = [90, -20, 15, 300, -400, 50];
        for (i, &score) in scores.iter().enumerate() {
            let searched = stage.position(empty.clone());
            assert_eq!(searched.stone_count(), 3);
            match stage.decide(None, Score::Cp(score), false) {
                Decision::SearchAgain { play: None, next } => stage = next,
                Decision::Stones { play, announce } => {
                    assert_eq!(i, scores.len() - 1);
                    assert_eq!(play, announce);
                    assert_eq!(play, candidates(&empty)[2].to_vec());
                    return;
                }
                other => panic!("{other:?}"),
            }
        }
        panic!("no opening chosen");
    }

    #[test]
    fn the_second_player_swaps_stays_or_hands_over() {
        let (a, b) = (cell(7, 8), cell(8, 8));
        let second = || Stage::Second { fourth: None };
        assert_eq!(
            second().decide(Some(a), Score::Cp(-60), false),
            Decision::Swap
        );
        let stay = Decision::Stones {
            play: vec![a],
            announce: vec![a],
        };
        assert_eq!(second().decide(Some(a), Score::Cp(60), false), stay);
        assert_eq!(second().decide(Some(a), Score::Cp(0), true), stay);
        assert_eq!(
            second().decide(None, Score::Cp(0), false),
            Decision::BoardFull
        );
        let Decision::SearchAgain {
            play: Some(fourth),
            next,
        } = second().decide(Some(a), Score::Cp(0), false)
        else {
            panic!("balanced positions are handed over");
        };
        assert_eq!(fourth, a);
        assert_eq!(next.searches_per_turn(), 2);
        assert_eq!(
            next.decide(Some(b), Score::MatePlies(3), false),
            Decision::Stones {
                play: vec![b],
                announce: vec![a, b],
            }
        );
    }

    #[test]
    fn the_first_player_takes_white_or_swaps() {
        let a = cell(7, 8);
        assert_eq!(
            Stage::First.decide(Some(a), Score::Cp(0), false),
            Decision::Stones {
                play: vec![a],
                announce: vec![a],
            }
        );
        assert_eq!(
            Stage::First.decide(Some(a), Score::MatePlies(-4), false),
            Decision::Swap
        );
        assert_eq!(
            Stage::First.decide(None, Score::Cp(10), false),
            Decision::Swap
        );
    }
}
