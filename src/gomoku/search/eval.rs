//! Static evaluation from the board's incremental line patterns and threat classes: for every
//! candidate cell, each side's pattern values plus its combined class, the side to move's
//! classes weighted up (it plays first), and a tempo bonus. Integers only.

use super::pos::Pos;
use super::weights::{PATTERN, TEMPO, THREAT, THREAT_TEMPO};
use crate::gomoku::{Color, Threat};

/// Pattern values of two directions (one byte of a pattern word).
static PAIR: [i32; 256] = {
    let mut t = [0i32; 256];
    let mut i = 0;
    while i < 256 {
        let lo = if i & 15 < 15 { PATTERN[i & 15] } else { 0 };
        let hi = if i >> 4 < 15 { PATTERN[i >> 4] } else { 0 };
        t[i] = lo + hi;
        i += 1;
    }
    t
};

/// The summed pattern value of a four-direction pattern word.
#[inline]
pub fn pattern_value(word: u16) -> i32 {
    PAIR[(word & 255) as usize] + PAIR[(word >> 8) as usize]
}

/// Largest magnitude of an evaluation (well inside the mate bound and the table's i16).
pub const EVAL_LIMIT: i32 = 20_000;

/// The position from the side to move's point of view.
pub fn evaluate(pos: &Pos) -> i32 {
    let us = pos.us();
    let board = &pos.board;
    let mut sum = 0;
    pos.for_each_candidate(|c| {
        for color in Color::BOTH {
            let threat = board.threat(c, color);
            if threat == Threat::Forbidden {
                continue;
            }
            let t = threat as usize;
            let mut v = pattern_value(board.pattern_word(c, color)) + THREAT[t];
            if color == us {
                sum += v + THREAT_TEMPO[t];
            } else {
                v = -v;
                sum += v;
            }
        }
    });
    (sum + TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
