//! Moves without a search, and the checks around a search's answer: the quick move a session
//! plays when a search fails or does not answer in time, whether the side to move may play a
//! point, and whether a position is already decided. Game logic only: no protocol text and
//! no clock; the Gomoku session (`protocol/session/gomoku.rs`) calls these on the engine
//! thread.

use super::board::Board;
use super::pattern::Threat;
use super::types::{Cell, Color};

/// True when the side to move may not play `cell` (renju: black on a forbidden point).
pub fn illegal_for_mover(board: &Board, cell: Cell) -> bool {
    board.side_to_move() == Color::Black && board.is_forbidden(cell)
}

/// A move without search, for when a search fails: make a five, block one, then the
/// strongest own or opponent threat, else the free cell nearest the centre. Never a
/// forbidden point for the side to move. `None` only on a full board.
pub fn quick_move(board: &Board) -> Option<Cell> {
    let me = board.side_to_move();
    let centre = (board.width() as i64 / 2, board.height() as i64 / 2);
    board
        .empty_cells()
        .filter(|&c| !illegal_for_mover(board, c))
        .max_by_key(|&c| {
            let own = board.threat(c, me);
            let theirs = board.threat(c, me.flip());
            let urgency = if own == Threat::Five {
                3
            } else if theirs == Threat::Five {
                2
            } else {
                0
            };
            let distance = (c.x() as i64 - centre.0).abs() + (c.y() as i64 - centre.1).abs();
            (
                urgency,
                own.max(theirs),
                own,
                -distance,
                std::cmp::Reverse(c),
            )
        })
}

/// The move to play for a search that answered `best` on `board`: that move when it is a
/// free point the side to move may play, else the [`quick_move`]. `None` only on a full
/// board.
pub fn checked_or_quick(board: &Board, best: Option<Cell>) -> Option<Cell> {
    best.filter(|&c| board.is_empty(c) && !illegal_for_mover(board, c))
        .or_else(|| quick_move(board))
}

/// The five that decided the game already, if the last stone made one: its point and
/// colour. A search of such a position still answers, but the game is over.
pub fn five_made(board: &Board) -> Option<(Cell, Color)> {
    let (cell, color) = board.last_move()?;
    board.makes_five(cell, color).then_some((cell, color))
}

/// A searcher that does not search: it plays [`quick_move`] at once. For tests of the
/// Gomoku session's protocol handling apart from the search.
#[cfg(test)]
#[derive(Debug, Default)]
pub(crate) struct QuickSearcher;

#[cfg(test)]
impl crate::engine::Search for QuickSearcher {
    type Game = Board;
    type Params = ();
    type Move = Cell;

    fn run(
        &mut self,
        board: &Board,
        _: &(),
        control: &crate::engine::SearchControl,
        report: &mut dyn FnMut(crate::engine::SearchInfo<Cell>),
    ) -> crate::engine::SearchOutcome<Cell> {
        use crate::engine::Score;
        let best = quick_move(board);
        report(crate::engine::SearchInfo {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::Cp(0),
            bound: crate::engine::Bound::Exact,
            nodes: 1,
            time_ms: control.elapsed_ms(),
            hashfull: 0,
            pv: best.into_iter().collect(),
        });
        crate::engine::SearchOutcome {
            best,
            ponder: None,
            score: Score::Cp(0),
            depth: 1,
            nodes: 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::Rule;

    #[test]
    fn quick_moves_win_block_and_avoid_forbidden_points() {
        let mut board = Board::new(15, 15, Rule::Freestyle).expect("size");
        for (x, y) in [(0, 0), (9, 9), (1, 0), (9, 10), (2, 0), (9, 11), (3, 0)] {
            board.play(Cell::from_xy(x, y).expect("cell"));
        }
        // White to move: blocking black's four at 4,0 beats extending its own three.
        assert_eq!(quick_move(&board), Cell::from_xy(4, 0));
        board.play(Cell::from_xy(4, 0).expect("cell"));
        board.play(Cell::from_xy(14, 14).expect("cell"));
        // White's own four-in-waiting: 9,12 or 9,8 make four; it must not be forbidden-aware
        // here (freestyle), just strong.
        assert!(quick_move(&board).is_some());
        let empty = Board::new(15, 15, Rule::Renju).expect("size");
        assert_eq!(quick_move(&empty), Cell::from_xy(7, 7));
    }

    #[test]
    fn a_search_answer_is_checked() {
        let mut board = Board::new(15, 15, Rule::Freestyle).expect("size");
        let centre = Cell::from_xy(7, 7);
        board.play(centre.expect("cell"));
        // An occupied point or no answer falls back to the quick move.
        assert_eq!(checked_or_quick(&board, centre), quick_move(&board));
        assert_eq!(checked_or_quick(&board, None), quick_move(&board));
        let free = Cell::from_xy(0, 0);
        assert_eq!(checked_or_quick(&board, free), free);
        assert_eq!(five_made(&board), None);
        for x in [0, 8, 1, 9, 2, 10, 3, 11] {
            board.play(Cell::from_xy(x, if x < 7 { 0 } else { 7 }).expect("cell"));
        }
        // Black's stones 7,7 to 11,7: the last one made five.
        let last = Cell::from_xy(11, 7).expect("cell");
        assert_eq!(five_made(&board), Some((last, Color::Black)));
    }
}
