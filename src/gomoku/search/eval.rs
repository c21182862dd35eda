//! Static evaluation from the board's incremental line patterns and threat classes: for every
//! candidate cell, one value for the pair of both sides' combined classes there, one per
//! line for the pair of both sides' patterns on it and one per side for its four patterns
//! together (all from the side to move's view: it plays first), then values for how many
//! three and four points each side has, and a tempo bonus. Integers only.
//!
//! One walk, [`evaluation_terms`], names every term by its feature index ([`features`]) to a
//! [`Sink`]: the search's sink here adds the weights, the tuner's ([`super::trace`]) counts the
//! features, so the evaluation is exactly the tuner's counts times the row of
//! [`features::WEIGHTS`] for the position's [`features::TableSet`] (by rule and side to move).

pub mod features;

use super::pos::Pos;
use crate::gomoku::{Board, Cell, Color, Threat};
use features::{TableSet, WEIGHTS};

/// A pattern word with no pattern in any direction (a renju-forbidden cell's).
pub const NO_PATTERNS: u16 = 0xFFFF;

/// The side's pattern word at `cell`, or [`NO_PATTERNS`] when the cell is forbidden to it.
#[inline]
pub(super) fn line_word(board: &Board, cell: Cell, color: Color, threat: Threat) -> u16 {
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
fn point_counts(board: &Board, color: Color) -> (usize, usize) {
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
fn count_cells(board: &Board, us: Color) -> [(usize, usize); 4] {
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

/// Receives the terms of one evaluation, from the side to move's view, each as the index of
/// its feature (see [`features`]): the search's sink sums the features' weights
/// ([`evaluate`]), the tuner's counts how often each feature enters
/// ([`super::trace::trace`]). Both walk the position through [`evaluation_terms`], and only
/// [`features`] maps a term to its weight, so the two cannot drift apart.
pub trait Sink {
    /// One occurrence of feature `index` (below [`features::FEATURES`]).
    fn feature(&mut self, index: usize);
}

/// Calls `sink` once for every term of the evaluation of `pos`: each candidate cell's class
/// pair, the pattern pairs of its four lines and each side's pattern combination, the point
/// counts, the tempo.
#[inline(always)]
pub fn evaluation_terms<S: Sink>(pos: &Pos, sink: &mut S) {
    let us = pos.us();
    let them = us.flip();
    let board = &pos.board;
    pos.for_each_candidate(|c| {
        let ours = board.threat(c, us);
        let theirs = board.threat(c, them);
        sink.feature(features::cell(ours, theirs));
        let wo = line_word(board, c, us, ours);
        let wt = line_word(board, c, them, theirs);
        for d in 0..4 {
            sink.feature(features::line(
                ((wo >> (4 * d)) & 15) as usize,
                ((wt >> (4 * d)) & 15) as usize,
            ));
        }
        sink.feature(features::pcode(0, features::pattern_combination(wo)));
        sink.feature(features::pcode(1, features::pattern_combination(wt)));
    });
    for (kind, column) in count_cells(board, us) {
        sink.feature(features::count(kind, column));
    }
    sink.feature(features::TEMPO_INDEX);
}

/// The table set `pos` is evaluated with (by its rule and side to move).
#[inline(always)]
pub fn table_set(pos: &Pos) -> TableSet {
    TableSet::of(pos.board.rule(), pos.us())
}

/// The search's sink: the sum of one table set's weights.
struct Sum<'w> {
    weights: &'w [i32; features::FEATURES],
    total: i32,
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn feature(&mut self, index: usize) {
        self.total += self.weights[index];
    }
}

/// The position from the side to move's point of view: the candidate cells' terms kept up
/// to date by [`Pos`] on every move, plus the point counts and the tempo. Equal to the sum
/// of the weights of [`evaluation_terms`] (an empty board, whose only candidate is the
/// centre, is walked).
pub fn evaluate(pos: &Pos) -> i32 {
    debug_assert!(pos.summed(), "evaluation under trial moves");
    if pos.board.stone_count() == 0 {
        return evaluate_by_walk(pos);
    }
    let weights = &WEIGHTS[table_set(pos).index()];
    let us = pos.us();
    let mut total = pos.cell_terms(us);
    for (kind, column) in count_cells(&pos.board, us) {
        total += weights[features::count(kind, column)];
    }
    total += weights[features::TEMPO_INDEX];
    total.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// [`evaluate`] by walking every candidate cell: the reference the incremental sums are
/// tested against.
pub fn evaluate_by_walk(pos: &Pos) -> i32 {
    let mut sum = Sum {
        weights: &WEIGHTS[table_set(pos).index()],
        total: 0,
    };
    evaluation_terms(pos, &mut sum);
    sum.total.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
