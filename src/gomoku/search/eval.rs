//! Static evaluation from the board's incremental line patterns and threat classes: for every
//! candidate cell, one value for the pair of both sides' combined classes there and one per
//! line for the pair of both sides' patterns on it (all from the side to move's view: it
//! plays first), then values for how many three and four points each side has, and a tempo
//! bonus. Integers only.

use super::pos::Pos;
use super::weights::{CELL, COUNTS, LINE, TEMPO};
use crate::gomoku::{Board, Cell, Color, Threat};

/// A pattern word with no pattern in any direction (a renju-forbidden cell's).
pub const NO_PATTERNS: u16 = 0xFFFF;

/// The side's pattern word at `cell`, or [`NO_PATTERNS`] when the cell is forbidden to it.
#[inline]
pub fn line_word(board: &Board, cell: Cell, color: Color, threat: Threat) -> u16 {
    if threat == Threat::Forbidden {
        NO_PATTERNS
    } else {
        board.pattern_word(cell, color)
    }
}

/// The sum of `table[ours][theirs]` over the four lines through a cell, from both sides'
/// pattern words (one nibble a direction): the evaluation's `LINE` and the ordering's
/// `ORDER_LINE`.
#[inline]
pub fn line_sum(table: &[[i32; 16]; 16], ours: u16, theirs: u16) -> i32 {
    let mut v = 0;
    for d in 0..4 {
        let o = ((ours >> (4 * d)) & 15) as usize;
        let t = ((theirs >> (4 * d)) & 15) as usize;
        v += table[o][t];
    }
    v
}

/// The `COUNTS` columns of one side: how many empty cells where it makes a three or better,
/// and a four or better (forbidden cells have a lower class), each capped at 5.
#[inline]
pub fn point_counts(board: &Board, color: Color) -> (usize, usize) {
    let count = |from: Threat, to: Threat| -> usize {
        (from as u8..=to as u8)
            .map(|t| board.threat_count(color, Threat::from_u8(t)))
            .sum()
    };
    let fours = count(Threat::Block4, Threat::Five);
    let threes = fours + count(Threat::Flex3, Threat::Flex3x2);
    (threes.min(5), fours.min(5))
}

/// The `COUNTS` rows (the side to move's threes, the opponent's threes, the side to move's
/// fours, the opponent's fours) and their columns, with `us` to move.
#[inline]
pub fn count_cells(board: &Board, us: Color) -> [(usize, usize); 4] {
    let (our_threes, our_fours) = point_counts(board, us);
    let (their_threes, their_fours) = point_counts(board, us.flip());
    [
        (0, our_threes),
        (1, their_threes),
        (2, our_fours),
        (3, their_fours),
    ]
}

/// Largest magnitude of an evaluation (well inside the mate bound and the table's i16).
pub const EVAL_LIMIT: i32 = 20_000;

/// The position from the side to move's point of view.
pub fn evaluate(pos: &Pos) -> i32 {
    let us = pos.us();
    let them = us.flip();
    let board = &pos.board;
    let mut sum = 0;
    pos.for_each_candidate(|c| {
        let ours = board.threat(c, us);
        let theirs = board.threat(c, them);
        sum += CELL[ours as usize][theirs as usize];
        sum += line_sum(
            &LINE,
            line_word(board, c, us, ours),
            line_word(board, c, them, theirs),
        );
    });
    for (kind, column) in count_cells(board, us) {
        sum += COUNTS[kind][column];
    }
    (sum + TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
