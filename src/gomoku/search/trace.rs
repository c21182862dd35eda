//! The evaluation as counts times weights, for tuning: [`trace`] counts, for one position,
//! how often each feature of [`super::eval::features`] enters [`super::eval::evaluate`] and
//! which table set it is weighted with, so that the evaluation (before its clamp) is the dot
//! product of the counts with that set's [`weight_vector`]. The counts come from the
//! evaluation's own walk ([`super::eval::evaluation_terms`]) and the weights from its own
//! feature list; a test checks the dot product against the evaluation. The feature layout is
//! re-exported here for the tuner (`examples/gomoku_tune.rs`).

use super::eval::{Sink, evaluation_terms, table_set};
use super::pos::Pos;

pub use super::eval::features::{
    CELL_BASE, CLASSES, COUNT_BASE, COUNT_FEATURES, FEATURES, LINE_BASE, LINE_CODES, PCODE_BASE,
    PCODES, TABLE_SETS, TEMPO_INDEX, TableSet, WEIGHTS, feature_name,
};

/// One table set's weights in feature order (a copy of its row of [`WEIGHTS`]).
pub fn weight_vector(set: TableSet) -> [i32; FEATURES] {
    WEIGHTS[set.index()]
}

/// The tuner's sink: how often each feature enters.
struct Recorder([i32; FEATURES]);

impl Sink for Recorder {
    fn feature(&mut self, index: usize) {
        self.0[index] += 1;
    }
}

/// The table set `pos` is evaluated with, and how often each feature enters its evaluation
/// (side to move's view).
pub fn trace(pos: &Pos) -> (TableSet, [i32; FEATURES]) {
    let mut recorder = Recorder([0; FEATURES]);
    evaluation_terms(pos, &mut recorder);
    (table_set(pos), recorder.0)
}

#[cfg(test)]
mod tests {
    use super::super::eval::{EVAL_LIMIT, evaluate};
    use super::*;
    use crate::gomoku::{Board, Cell, Rule};

    #[test]
    fn counts_times_weights_is_the_evaluation() {
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
                let (set, counts) = trace(&pos);
                assert_eq!(set, TableSet::of(rule, board.side_to_move()));
                let weights = weight_vector(set);
                let dot: i32 = counts.iter().zip(weights).map(|(c, w)| c * w).sum();
                assert_eq!(dot.clamp(-EVAL_LIMIT, EVAL_LIMIT), evaluate(&pos));
                checked += 1;
            }
        }
        assert_eq!(checked, 120);
    }
}
