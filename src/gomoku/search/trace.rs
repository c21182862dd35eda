//! The evaluation as counts times weights, for tuning: [`trace`] counts, for one position,
//! how often each weight of [`super::weights`] enters [`super::eval::evaluate`], so that the
//! evaluation (before its clamp) is the dot product of the counts with [`weight_vector`].
//! A test keeps the two in step: change one, change the other.

use super::pos::Pos;
use super::weights::{CELL, PATTERN, PATTERN_TEMPO, TEMPO};
use crate::gomoku::{Pattern, Threat};

/// Features: pattern counts (own minus opponent's), the side to move's pattern counts, the
/// pairs of classes (the side to move's, the opponent's) of the candidate cells, and the tempo.
pub const FEATURES: usize = 2 * PATTERN_FEATURES + THREAT_FEATURES * THREAT_FEATURES + 1;
/// Number of `PATTERN` features.
pub const PATTERN_FEATURES: usize = 15;
const THREAT_FEATURES: usize = 14;
/// First index of the `PATTERN_TEMPO` features.
pub const PATTERN_TEMPO_BASE: usize = PATTERN_FEATURES;
/// First index of the `CELL` features (row-major: ours * 14 + theirs).
pub const CELL_BASE: usize = 2 * PATTERN_FEATURES;
/// Index of the `TEMPO` feature.
pub const TEMPO_INDEX: usize = FEATURES - 1;

/// The weights in feature order.
pub fn weight_vector() -> [i32; FEATURES] {
    let mut w = [0; FEATURES];
    w[..PATTERN_FEATURES].copy_from_slice(&PATTERN);
    w[PATTERN_TEMPO_BASE..CELL_BASE].copy_from_slice(&PATTERN_TEMPO);
    for (ours, row) in CELL.iter().enumerate() {
        let start = CELL_BASE + ours * THREAT_FEATURES;
        w[start..start + THREAT_FEATURES].copy_from_slice(row);
    }
    w[TEMPO_INDEX] = TEMPO;
    w
}

/// Names of the features, for the tuner's report.
pub fn feature_name(index: usize) -> String {
    if index < PATTERN_TEMPO_BASE {
        format!("PATTERN[{:?}]", Pattern::from_u8(index as u8))
    } else if index < CELL_BASE {
        format!(
            "PATTERN_TEMPO[{:?}]",
            Pattern::from_u8((index - PATTERN_TEMPO_BASE) as u8)
        )
    } else if index < TEMPO_INDEX {
        let i = index - CELL_BASE;
        format!(
            "CELL[{:?}][{:?}]",
            Threat::from_u8((i / THREAT_FEATURES) as u8),
            Threat::from_u8((i % THREAT_FEATURES) as u8)
        )
    } else {
        "TEMPO".to_string()
    }
}

/// How often each weight enters the evaluation of `pos` (side to move's view).
pub fn trace(pos: &Pos) -> [i32; FEATURES] {
    let us = pos.us();
    let them = us.flip();
    let board = &pos.board;
    let mut counts = [0i32; FEATURES];
    let mut count_patterns = |word: u16, sign: i32, to_move: bool| {
        for d in 0..4 {
            let p = ((word >> (4 * d)) & 15) as usize;
            if p < PATTERN_FEATURES {
                counts[p] += sign;
                if to_move {
                    counts[PATTERN_TEMPO_BASE + p] += 1;
                }
            }
        }
    };
    let mut cells = Vec::new();
    pos.for_each_candidate(|c| {
        let ours = board.threat(c, us);
        let theirs = board.threat(c, them);
        if ours != Threat::Forbidden {
            count_patterns(board.pattern_word(c, us), 1, true);
        }
        if theirs != Threat::Forbidden {
            count_patterns(board.pattern_word(c, them), -1, false);
        }
        cells.push(ours as usize * THREAT_FEATURES + theirs as usize);
    });
    for i in cells {
        counts[CELL_BASE + i] += 1;
    }
    counts[TEMPO_INDEX] = 1;
    counts
}

#[cfg(test)]
mod tests {
    use super::super::eval::{EVAL_LIMIT, evaluate};
    use super::*;
    use crate::gomoku::{Board, Cell, Rule};

    #[test]
    fn counts_times_weights_is_the_evaluation() {
        let weights = weight_vector();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0;
        for rule in [Rule::Freestyle, Rule::Renju, Rule::Caro] {
            for _ in 0..40 {
                let mut board = Board::new(15, 15, rule).expect("size");
                for _ in 0..(next() % 40) {
                    let x = 3 + (next() % 9) as usize;
                    let y = 3 + (next() % 9) as usize;
                    let Some(cell) = Cell::from_xy(x, y) else {
                        continue;
                    };
                    let color = board.side_to_move();
                    if board.is_empty(cell) && !board.makes_five(cell, color) {
                        board.play(cell);
                    }
                }
                let pos = Pos::new(&board);
                let counts = trace(&pos);
                let dot: i32 = counts.iter().zip(weights).map(|(c, w)| c * w).sum();
                assert_eq!(dot.clamp(-EVAL_LIMIT, EVAL_LIMIT), evaluate(&pos));
                checked += 1;
            }
        }
        assert_eq!(checked, 120);
        assert_eq!(feature_name(TEMPO_INDEX), "TEMPO");
        assert_eq!(feature_name(0), "PATTERN[Dead]");
    }
}
