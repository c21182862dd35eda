//! The first layer's output for both perspectives, and the per-ply stack the search keeps:
//! making a move records what changed, and a position's accumulator is built only when it
//! is evaluated, from the nearest built ancestor (so nodes cut off before their evaluation
//! cost nothing, and unmaking a move is a pop).

use super::features;
use super::network::Network;
use super::simd::{self, Row};
use crate::xiangqi::{Color, Move, Piece, Position};

/// Both perspectives' first-layer sums (`values[c]` is colour `c`'s), aligned for SIMD loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Red's perspective, then black's.
    pub values: [Row; 2],
}

impl Accumulator {
    /// Built from scratch: the bias plus the rows of every piece's features.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut values = [*net.bias_row(); 2];
        features::for_each_piece(pos, |piece, sq| {
            for c in Color::BOTH {
                let row = net.feature_row(features::index(c, piece, sq));
                for (v, &w) in values[c.index()].iter_mut().zip(row.iter()) {
                    *v = v.wrapping_add(w);
                }
            }
        });
        Accumulator { values }
    }

    /// The accumulator after `delta`, from this one (the position before the move).
    pub fn apply(&self, net: &Network, delta: &Delta, out: &mut Accumulator) {
        let Delta::Move {
            piece,
            mv,
            captured,
        } = *delta
        else {
            *out = *self;
            return;
        };
        for c in Color::BOTH {
            let add = net.feature_row(features::index(c, piece, mv.to()));
            let from = net.feature_row(features::index(c, piece, mv.from()));
            let (src, dst) = (&self.values[c.index()], &mut out.values[c.index()]);
            if captured.is_empty() {
                simd::update(dst, src, &[add], &[from]);
            } else {
                let taken = net.feature_row(features::index(c, captured, mv.to()));
                simd::update(dst, src, &[add], &[from, taken]);
            }
        }
    }
}

/// What a ply changed on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delta {
    /// A null move: the board is unchanged.
    Null,
    /// `piece` went `mv.from()` to `mv.to()`, taking `captured` (empty for a quiet move).
    Move {
        /// The moving piece.
        piece: Piece,
        /// The move.
        mv: Move,
        /// The piece taken, or empty.
        captured: Piece,
    },
}

#[derive(Clone, Debug)]
struct Entry {
    acc: Accumulator,
    /// The change from the entry below.
    delta: Delta,
    /// Whether `acc` is built.
    computed: bool,
}

/// One accumulator per ply of the current line, built lazily. Invariant: entry 0 is always
/// computed, and `top` indexes the current position's entry.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
}

impl AccumulatorStack {
    /// A stack whose root is `pos`.
    pub fn new(net: &Network, pos: &Position) -> AccumulatorStack {
        AccumulatorStack {
            entries: vec![Entry {
                acc: Accumulator::refresh(net, pos),
                delta: Delta::Null,
                computed: true,
            }],
            top: 0,
        }
    }

    /// Records a move about to be made on `pos` (call before `make_move`).
    #[inline]
    pub fn push_move(&mut self, pos: &Position, mv: Move) {
        self.push(Delta::Move {
            piece: pos.piece_at(mv.from()),
            mv,
            captured: pos.piece_at(mv.to()),
        });
    }

    /// Records a null move.
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Delta::Null);
    }

    fn push(&mut self, delta: Delta) {
        self.top += 1;
        let entry = Entry {
            acc: self.entries[0].acc,
            delta,
            computed: false,
        };
        if self.top == self.entries.len() {
            self.entries.push(entry);
        } else {
            self.entries[self.top].delta = delta;
            self.entries[self.top].computed = false;
        }
    }

    /// Takes back the last push (a move or null move unmade). The root is never popped.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Number of plies pushed above the root.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// The current position's accumulator, built from the nearest built ancestor.
    pub fn current(&mut self, net: &Network) -> &Accumulator {
        let mut base = self.top;
        while !self.entries[base].computed {
            base -= 1;
        }
        for i in base + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(i);
            let parent = &below[i - 1].acc;
            let entry = &mut above[0];
            parent.apply(net, &entry.delta, &mut entry.acc);
            entry.computed = true;
        }
        &self.entries[self.top].acc
    }

    /// The evaluation in centipawns for the side to move of `pos`, the current position.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        net.output(&self.current(net).values, pos.side_to_move())
    }
}

/// The evaluation of `pos` in centipawns for the side to move, built from scratch.
pub fn evaluate_fresh(net: &Network, pos: &Position) -> i32 {
    net.output(&Accumulator::refresh(net, pos).values, pos.side_to_move())
}
