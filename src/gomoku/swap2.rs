//! The Swap2 opening as the engine plays it: which three-stone openings it offers, the stages
//! it goes through, and what it decides after each stage's search (place stones, swap, or
//! search again). Game logic only: no protocol text and no clock; the Gomoku session
//! (`protocol/session/gomoku.rs`) runs the searches on the engine thread's behalf, feeds
//! their results to [`Stage::decide`] and writes the answer.
//!
//! The stages: with no stones the engine opens, rating each candidate opening by a search
//! and playing the one closest to even ([`Stage::Open`]); with three stones it is the second
//! player and stays white with a move, swaps, or adds a fourth and a fifth stone for the
//! opponent to choose ([`Stage::Second`]), the fifth chosen among a few candidates by a
//! search of each, the one that leaves the position closest to even ([`Stage::Fifth`]);
//! with five stones it is the first player again and takes white with a move or swaps
//! ([`Stage::First`]).

use super::board::Board;
use super::search::movegen::order_value;
use super::search::pos::Pos;
use super::types::Cell;
use super::{Color, Threat};
use crate::engine::Score;

/// Scores (from the mover's view) beyond which Swap2 takes a side: about a third of a
/// won position in the evaluation's units.
pub const MARGIN: i32 = 60;

/// How many fifth stones are rated when the second player hands the choice over.
pub const FIFTH_CANDIDATES: usize = 6;

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
    /// move, swap, or put the searched white move as a fourth stone and go on to
    /// [`Stage::Fifth`].
    Second,
    /// Four stones (black to move, the engine is the second player handing the choice
    /// over): rate candidate fifth stones one by one and put the one after which the
    /// position is closest to even, so that neither colour is a clear gift.
    Fifth {
        /// The fourth (white) stone, already on the board.
        fourth: Cell,
        /// The candidate fifth stones (never empty).
        candidates: Vec<Cell>,
        /// Index of the candidate being rated.
        index: usize,
        /// The best so far: (|score|, candidate index).
        best: Option<(i32, usize)>,
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
            3 => Some(Stage::Second),
            5 => Some(Stage::First),
            _ => None,
        }
    }

    /// The position this stage's next search looks at: `board`, with the candidate being
    /// rated played on it when opening or choosing the fifth stone.
    pub fn position(&self, board: Board) -> Board {
        let mut board = board;
        match self {
            Stage::Open {
                candidates, index, ..
            } => {
                for &cell in candidates.get(*index).into_iter().flatten() {
                    board.play(cell);
                }
            }
            Stage::Fifth {
                candidates, index, ..
            } => {
                if let Some(&cell) = candidates.get(*index)
                    && board.is_empty(cell)
                {
                    board.play(cell);
                }
            }
            Stage::Second | Stage::First => {}
        }
        board
    }

    /// How many searches are still to come in this stage's turn, this one included (at
    /// least 1): the time left in the turn is shared between them. The second player's
    /// first search counts as two, keeping half the turn for the fifth stones.
    pub fn searches_left(&self) -> u64 {
        let left = match self {
            Stage::Open {
                candidates, index, ..
            } => candidates.len().saturating_sub(*index),
            Stage::Fifth {
                candidates, index, ..
            } => candidates.len().saturating_sub(*index),
            Stage::Second => 2,
            Stage::First => 1,
        };
        (left as u64).max(1)
    }

    /// The decision after this stage's search answered `best` with `score` (from the
    /// mover's view) on `board`, the position the stage was given (before
    /// [`Stage::position`]); `stopping` when the search was cut short or the turn has no
    /// time for another, so the answer must take no more time.
    pub fn decide(
        self,
        board: &Board,
        best: Option<Cell>,
        score: Score,
        stopping: bool,
    ) -> Decision {
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
            Stage::Second => {
                let Some(cell) = best else {
                    return Decision::BoardFull;
                };
                let stay = Decision::Stones {
                    play: vec![cell],
                    announce: vec![cell],
                };
                if score <= -MARGIN {
                    return Decision::Swap;
                }
                if score >= MARGIN || stopping || !board.is_empty(cell) {
                    return stay;
                }
                // Balanced: put the fourth stone, rate a few fifth stones, and let the
                // opponent choose a colour.
                let mut after = board.clone();
                after.play(cell);
                let candidates = fifth_candidates(&after);
                if candidates.is_empty() {
                    return stay;
                }
                Decision::SearchAgain {
                    play: Some(cell),
                    next: Stage::Fifth {
                        fourth: cell,
                        candidates,
                        index: 0,
                        best: None,
                    },
                }
            }
            Stage::Fifth {
                fourth,
                candidates,
                index,
                best: best_so_far,
            } => {
                // The search is white's, after the candidate: closest to even is best.
                let here = (score.abs(), index);
                let best_so_far = best_so_far.map_or(here, |b| b.min(here));
                if index + 1 < candidates.len() && !stopping {
                    return Decision::SearchAgain {
                        play: None,
                        next: Stage::Fifth {
                            fourth,
                            candidates,
                            index: index + 1,
                            best: Some(best_so_far),
                        },
                    };
                }
                match candidates.get(best_so_far.1) {
                    Some(&fifth) => Decision::Stones {
                        play: vec![fifth],
                        announce: vec![fourth, fifth],
                    },
                    None => Decision::Stones {
                        play: Vec::new(),
                        announce: vec![fourth],
                    },
                }
            }
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

/// Candidate fifth stones for the side to move on `board` (black after four stones): up to
/// [`FIFTH_CANDIDATES`] free cells near the stones, neither forbidden nor making a three or
/// better (a forcing stone decides the game rather than balancing it), picked evenly from
/// the move ordering's ranking so that strong and modest stones are both rated.
pub fn fifth_candidates(board: &Board) -> Vec<Cell> {
    let pos = Pos::new(board);
    let us = board.side_to_move();
    let mut ranked: Vec<(i32, Cell)> = Vec::new();
    pos.for_each_candidate(|c| {
        let forbidden = us == Color::Black && board.is_forbidden(c);
        if !forbidden && board.threat(c, us) < Threat::Flex3 {
            ranked.push((order_value(&pos, c, us), c));
        }
    });
    ranked.sort_unstable_by_key(|&(value, c)| (std::cmp::Reverse(value), c.index()));
    let n = ranked.len();
    let k = FIFTH_CANDIDATES.min(n);
    (0..k).map(|i| ranked[i * n / k].1).collect()
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
        assert_eq!(stage.searches_left(), 1);
        assert_eq!(
            stage.decide(&narrow, None, Score::Cp(0), false),
            Decision::NoOpening
        );
    }

    #[test]
    fn the_opening_closest_to_even_is_played() {
        let empty = Board::new(15, 15, Rule::Freestyle).expect("size");
        let mut stage = Stage::for_stones(&empty, 0).expect("stage");
        let scores = [90, -20, 15, 300, -400, 50];
        for (i, &score) in scores.iter().enumerate() {
            assert_eq!(stage.searches_left(), (scores.len() - i) as u64);
            let searched = stage.position(empty.clone());
            assert_eq!(searched.stone_count(), 3);
            match stage.decide(&empty, None, Score::Cp(score), false) {
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

    /// A three-stone Swap2 opening: black 7,7 and 8,10, white 8,7.
    fn three_stones() -> Board {
        let mut board = Board::new(15, 15, Rule::Freestyle).expect("size");
        for c in [cell(7, 7), cell(8, 7), cell(8, 10)] {
            board.play(c);
        }
        board
    }

    #[test]
    fn the_second_player_swaps_stays_or_hands_over() {
        let board = three_stones();
        let a = cell(7, 8);
        assert_eq!(
            Stage::Second.decide(&board, Some(a), Score::Cp(-60), false),
            Decision::Swap
        );
        let stay = Decision::Stones {
            play: vec![a],
            announce: vec![a],
        };
        assert_eq!(
            Stage::Second.decide(&board, Some(a), Score::Cp(60), false),
            stay
        );
        assert_eq!(
            Stage::Second.decide(&board, Some(a), Score::Cp(0), true),
            stay
        );
        assert_eq!(
            Stage::Second.decide(&board, None, Score::Cp(0), false),
            Decision::BoardFull
        );
        let Decision::SearchAgain {
            play: Some(fourth),
            next,
        } = Stage::Second.decide(&board, Some(a), Score::Cp(0), false)
        else {
            panic!("balanced positions are handed over");
        };
        assert_eq!(fourth, a);
        let Stage::Fifth { candidates, .. } = &next else {
            panic!("the fifth stone is chosen next: {next:?}");
        };
        let mut after = board.clone();
        after.play(a);
        assert_eq!(candidates, &fifth_candidates(&after));
        assert_eq!(next.searches_left(), FIFTH_CANDIDATES as u64);
    }

    /// The fifth stone is the candidate whose search (white to move after it) is closest
    /// to even, not black's strongest: a mate for black is never handed over.
    #[test]
    fn the_fifth_stone_leaves_the_position_closest_to_even() {
        let mut board = three_stones();
        let fourth = cell(7, 8);
        board.play(fourth);
        let candidates = fifth_candidates(&board);
        assert_eq!(candidates.len(), FIFTH_CANDIDATES);
        let mut stage = Stage::Fifth {
            fourth,
            candidates: candidates.clone(),
            index: 0,
            best: None,
        };
        let scores = [
            Score::MatePlies(-3),
            Score::Cp(-250),
            Score::Cp(35),
            Score::Cp(-12),
            Score::Cp(80),
            Score::MatePlies(5),
        ];
        for (i, &score) in scores.iter().enumerate() {
            let searched = stage.position(board.clone());
            assert_eq!(searched.stone_count(), 5);
            assert_eq!(searched.side_to_move(), Color::White);
            match stage.decide(&board, None, score, false) {
                Decision::SearchAgain { play: None, next } => stage = next,
                Decision::Stones { play, announce } => {
                    assert_eq!(i, scores.len() - 1);
                    assert_eq!(play, vec![candidates[3]]);
                    assert_eq!(announce, vec![fourth, candidates[3]]);
                    return;
                }
                other => panic!("{other:?}"),
            }
        }
        panic!("no fifth stone chosen");
    }

    #[test]
    fn fifth_candidates_are_quiet_free_and_distinct() {
        let mut board = three_stones();
        board.play(cell(7, 8));
        let candidates = fifth_candidates(&board);
        for (i, &c) in candidates.iter().enumerate() {
            assert!(board.is_empty(c));
            assert!(board.threat(c, Color::Black) < Threat::Flex3);
            assert!(!candidates[..i].contains(&c));
        }
        // Renju: never a forbidden point. Black 6,7 7,7 and 8,5 8,6 make 8,7 a double three.
        let mut renju = Board::new(15, 15, Rule::Renju).expect("size");
        let black = [cell(6, 7), cell(8, 5), cell(7, 7), cell(8, 6)];
        let white = [cell(1, 1), cell(1, 13), cell(13, 1), cell(13, 13)];
        for (b, w) in black.into_iter().zip(white) {
            renju.play(b);
            renju.play(w);
        }
        assert!(renju.is_forbidden(cell(8, 7)));
        let candidates = fifth_candidates(&renju);
        assert!(!candidates.is_empty());
        for c in candidates {
            assert!(!renju.is_forbidden(c), "{c}");
        }
    }

    #[test]
    fn the_first_player_takes_white_or_swaps() {
        let board = three_stones();
        let a = cell(7, 8);
        assert_eq!(
            Stage::First.decide(&board, Some(a), Score::Cp(0), false),
            Decision::Stones {
                play: vec![a],
                announce: vec![a],
            }
        );
        assert_eq!(
            Stage::First.decide(&board, Some(a), Score::MatePlies(-4), false),
            Decision::Swap
        );
        assert_eq!(
            Stage::First.decide(&board, None, Score::Cp(10), false),
            Decision::Swap
        );
    }
}
