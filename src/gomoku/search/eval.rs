//! Static evaluation from the board's incremental line patterns and threat classes: for every
//! candidate cell, each side's pattern values (the side to move's weighted up: it plays
//! first) plus one value for the pair of both sides' combined classes there, and a tempo
//! bonus. Integers only.

use super::pos::Pos;
use super::weights::{CELL, PATTERN, PATTERN_TEMPO, TEMPO};
use crate::gomoku::Threat;

/// Pattern values of two directions (one byte of a pattern word) from `values`.
pub const fn pair_table(values: &[i32; 15]) -> [i32; 256] {
    let mut t = [0i32; 256];
    let mut i = 0;
    while i < 256 {
        let lo = if i & 15 < 15 { values[i & 15] } else { 0 };
        let hi = if i >> 4 < 15 { values[i >> 4] } else { 0 };
        t[i] = lo + hi;
        i += 1;
    }
    t
}

/// `PATTERN` plus `PATTERN_TEMPO`: the side to move's pattern values.
const PATTERN_TO_MOVE: [i32; 15] = {
    let mut t = [0i32; 15];
    let mut i = 0;
    while i < 15 {
        t[i] = PATTERN[i] + PATTERN_TEMPO[i];
        i += 1;
    }
    t
};

/// Pattern values of two directions for the side not to move.
static PAIR: [i32; 256] = pair_table(&PATTERN);
/// Pattern values of two directions for the side to move.
static PAIR_TO_MOVE: [i32; 256] = pair_table(&PATTERN_TO_MOVE);

/// The summed pattern value of a four-direction pattern word for the side not to move.
#[inline]
pub fn pattern_value(word: u16) -> i32 {
    PAIR[(word & 255) as usize] + PAIR[(word >> 8) as usize]
}

/// The summed pattern value of a four-direction pattern word for the side to move.
#[inline]
fn pattern_value_to_move(word: u16) -> i32 {
    PAIR_TO_MOVE[(word & 255) as usize] + PAIR_TO_MOVE[(word >> 8) as usize]
}

/// Largest magnitude of an evaluation (well inside the mate bound and the table's i16).
pub const EVAL_LIMIT: i32 = 20_000;

/// The position from the side to move's point of view.
pub fn evaluate(pos: &Pos) -> i32 {
    let us = pos.us();
    let board = &pos.board;
    let them = us.flip();
    let mut sum = 0;
    pos.for_each_candidate(|c| {
        let ours = board.threat(c, us);
        let theirs = board.threat(c, them);
        sum += CELL[ours as usize][theirs as usize];
        if ours != Threat::Forbidden {
            sum += pattern_value_to_move(board.pattern_word(c, us));
        }
        if theirs != Threat::Forbidden {
            sum -= pattern_value(board.pattern_word(c, them));
        }
    });
    (sum + TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
