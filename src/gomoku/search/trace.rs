//! The evaluation as counts times weights, for tuning: [`trace`] counts, for one position,
//! how often each weight of [`super::weights`] enters [`super::eval::evaluate`], so that the
//! evaluation (before its clamp) is the dot product of the counts with [`weight_vector`].
//! Both read the position through one walk ([`super::eval::evaluation_terms`]); a test
//! checks the dot product against the evaluation.

use super::eval::{Sink, evaluation_terms};
use super::pos::Pos;
use super::weights::{CELL, COUNTS, LINE, TEMPO};
use crate::gomoku::{Pattern, Threat};

/// Features: the class pairs (the side to move's, the opponent's) of the candidate cells,
/// the pattern pairs of their lines, the three and four point counts, and the tempo.
pub const FEATURES: usize = LINE_BASE + LINE_CODES * LINE_CODES + COUNT_FEATURES + 1;
/// Number of threat classes.
pub const CLASSES: usize = 14;
/// Number of pattern codes in `LINE` (the patterns and 15 for none).
pub const LINE_CODES: usize = 16;
/// Number of `COUNTS` entries.
pub const COUNT_FEATURES: usize = 24;
/// First index of the `CELL` features (row-major: ours * 14 + theirs).
pub const CELL_BASE: usize = 0;
/// First index of the `LINE` features (row-major: ours * 16 + theirs).
pub const LINE_BASE: usize = CLASSES * CLASSES;
/// First index of the `COUNTS` features (row-major: kind * 6 + count).
pub const COUNT_BASE: usize = LINE_BASE + LINE_CODES * LINE_CODES;
/// Index of the `TEMPO` feature.
pub const TEMPO_INDEX: usize = FEATURES - 1;

/// The weights in feature order.
pub fn weight_vector() -> [i32; FEATURES] {
    let mut w = [0; FEATURES];
    for (ours, row) in CELL.iter().enumerate() {
        let start = CELL_BASE + ours * CLASSES;
        w[start..start + CLASSES].copy_from_slice(row);
    }
    for (ours, row) in LINE.iter().enumerate() {
        let start = LINE_BASE + ours * LINE_CODES;
        w[start..start + LINE_CODES].copy_from_slice(row);
    }
    for (kind, row) in COUNTS.iter().enumerate() {
        let start = COUNT_BASE + kind * 6;
        w[start..start + 6].copy_from_slice(row);
    }
    w[TEMPO_INDEX] = TEMPO;
    w
}

fn pattern_name(code: usize) -> String {
    if code < 15 {
        format!("{:?}", Pattern::from_u8(code as u8))
    } else {
        "none".to_string()
    }
}

/// Names of the features, for the tuner's report.
pub fn feature_name(index: usize) -> String {
    if index < LINE_BASE {
        let i = index - CELL_BASE;
        format!(
            "CELL[{:?}][{:?}]",
            Threat::from_u8((i / CLASSES) as u8),
            Threat::from_u8((i % CLASSES) as u8)
        )
    } else if index < COUNT_BASE {
        let i = index - LINE_BASE;
        format!(
            "LINE[{}][{}]",
            pattern_name(i / LINE_CODES),
            pattern_name(i % LINE_CODES)
        )
    } else if index < TEMPO_INDEX {
        let i = index - COUNT_BASE;
        format!("COUNTS[{}][{}]", i / 6, i % 6)
    } else {
        "TEMPO".to_string()
    }
}

/// The tuner's sink: how often each feature enters.
struct Recorder([i32; FEATURES]);

impl Sink for Recorder {
    fn cell(&mut self, ours: Threat, theirs: Threat) {
        self.0[CELL_BASE + ours as usize * CLASSES + theirs as usize] += 1;
    }

    fn line(&mut self, ours: usize, theirs: usize) {
        self.0[LINE_BASE + ours * LINE_CODES + theirs] += 1;
    }

    fn count(&mut self, kind: usize, column: usize) {
        self.0[COUNT_BASE + kind * 6 + column] += 1;
    }

    fn tempo(&mut self) {
        self.0[TEMPO_INDEX] += 1;
    }
}

/// How often each weight enters the evaluation of `pos` (side to move's view).
pub fn trace(pos: &Pos) -> [i32; FEATURES] {
    let mut recorder = Recorder([0; FEATURES]);
    evaluation_terms(pos, &mut recorder);
    recorder.0
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
        assert_eq!(feature_name(0), "CELL[None][None]");
        assert_eq!(feature_name(LINE_BASE + 15), "LINE[Dead][none]");
    }
}
