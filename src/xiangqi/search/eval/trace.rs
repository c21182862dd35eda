//! The tuner's view of the evaluation: [`trace`] walks a position through the same term code
//! as [`super::evaluate`] with a sink that records, for every weight of [`super::WEIGHTS`], how
//! often it enters, so the tuner can fit the weights without re-running the evaluation.

use super::layout::{HALF, MATERIAL_BASE, NUM_WEIGHTS, PST_BASE, SCALAR_BASE, half_index};
use super::scale::win_scale;
use super::terms::side_terms;
use super::{Sink, phase};
use crate::xiangqi::Position;
use crate::xiangqi::attacks::maps::attack_maps;
use crate::xiangqi::types::Color;

/// The counts behind one position's evaluation, for tuning: the evaluation is
/// `Σ count × weight tapered by phase × scale / 16` from red's point of view, where the scale
/// is the leading side's [`win_scale`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// `(weight index, red's count minus black's count)`, non-zero counts only.
    pub counts: Vec<(u16, i16)>,
    /// Game phase, 0 ..= `MAX_PHASE`.
    pub phase: i32,
    /// The [`win_scale`] of red, black (by `Color::index()`) as the leading side.
    pub scale: [i32; 2],
}

/// Records counts for one colour with a sign (+1 red, -1 black).
struct Recorder {
    counts: [i32; NUM_WEIGHTS],
    sign: i32,
}

impl Sink for Recorder {
    fn piece(&mut self, kind: usize, red_sq: usize) {
        self.counts[MATERIAL_BASE + kind] += self.sign;
        self.counts[PST_BASE + kind * HALF + half_index(red_sq)] += self.sign;
    }

    fn scalar(&mut self, term: usize, count: i32) {
        self.counts[SCALAR_BASE + term] += self.sign * count;
    }
}

/// The counts of every term for `pos` (see [`Trace`]).
pub fn trace(pos: &Position) -> Trace {
    let mut rec = Recorder {
        counts: [0; NUM_WEIGHTS],
        sign: 1,
    };
    let maps = attack_maps(pos);
    side_terms(pos, Color::Red, &maps, &mut rec);
    rec.sign = -1;
    side_terms(pos, Color::Black, &maps, &mut rec);
    Trace {
        counts: rec
            .counts
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c as i16))
            .collect(),
        phase: phase(pos),
        scale: [win_scale(pos, Color::Red), win_scale(pos, Color::Black)],
    }
}
