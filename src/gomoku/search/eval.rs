//! Static evaluation from the board's incremental line patterns and threat classes: for every
//! candidate cell, one value for the pair of both sides' combined classes there and one per
//! line for the pair of both sides' patterns on it (all from the side to move's view: it
//! plays first), then values for how many three and four points each side has, and a tempo
//! bonus. Integers only.

use super::pos::Pos;
use super::weights::{CELL, COUNTS, LINE, TEMPO};
use crate::gomoku::{Board, Color, Threat};

/// A pattern word with no pattern in any direction (a renju-forbidden cell's).
pub const NO_PATTERNS: u16 = 0xFFFF;

/// The side's pattern word at `cell`, or [`NO_PATTERNS`] when the cell is forbidden to it.
#[inline]
pub fn line_word(board: &Board, cell: crate::gomoku::Cell, color: Color, threat: Threat) -> u16 {
    if threat == Threat::Forbidden {
        NO_PATTERNS
    } else {
        board.pattern_word(cell, color)
    }
}

/// The `LINE` value of the four lines through a cell, from both sides' pattern words.
#[inline]
fn line_value(ours: u16, theirs: u16) -> i32 {
    let mut v = 0;
    for d in 0..4 {
        let o = ((ours >> (4 * d)) & 15) as usize;
        let t = ((theirs >> (4 * d)) & 15) as usize;
        v += LINE[o][t];
    }
    v
}

/// Kinds of [`COUNTS`]: (side, lowest class) with the side 0 for the side to move.
pub const COUNT_KINDS: [(usize, Threat); 4] = [
    (0, Threat::Flex3),
    (1, Threat::Flex3),
    (0, Threat::Block4),
    (1, Threat::Block4),
];

/// Number of `color`'s empty cells of class `min` or better (forbidden cells have a lower
/// class), capped at 5: the [`COUNTS`] column.
#[inline]
pub fn count_column(board: &Board, color: Color, min: Threat) -> usize {
    let mut n = 0;
    for t in min as u8..=Threat::Five as u8 {
        n += board.threat_count(color, Threat::from_u8(t));
    }
    n.min(5)
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
        sum += line_value(
            line_word(board, c, us, ours),
            line_word(board, c, them, theirs),
        );
    });
    for (kind, &(side, min)) in COUNT_KINDS.iter().enumerate() {
        let color = if side == 0 { us } else { them };
        sum += COUNTS[kind][count_column(board, color, min)];
    }
    (sum + TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
