//! Move ordering: the hash move, then captures by MVV-LVA (the ones that lose material by
//! SEE go last), killers, the countermove, and quiet moves by history.
//!
//! [`Heuristics`] holds one thread's tables: the engine's history and killer tables
//! ([`crate::engine::history`]) indexed by piece and target square, and Xiangqi's own
//! countermoves, continuation history and correction history.

use super::correction::Correction;
use super::see::{SEE_VALUE, see, value_on};
use crate::engine::history::{History, Killers, gravity};
use crate::engine::searcher::ThreadTables;
use crate::xiangqi::Position;
use crate::xiangqi::movegen::{MAX_MOVES, MoveList};
use crate::xiangqi::types::{Move, Piece, SQUARES};

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = 1 << 26;
const BAD_CAPTURE: i32 = -(1 << 24);

/// Per-thread tables that learn which moves cut off: kept between searches, cleared on a new
/// game.
pub struct Heuristics {
    /// `[moved piece code][target square]`, within `±HISTORY_MAX`.
    pub history: History<16, SQUARES>,
    /// Two quiet moves per ply that caused a cutoff.
    pub killers: Killers<Move>,
    /// The quiet reply that refuted a move, by `[moved piece code][target square]` of that move.
    pub counter: [[Option<Move>; SQUARES]; 16],
    /// Continuation history: how well a quiet move (piece, target) did after an earlier move
    /// (piece, target) one or two plies before, flattened; see `cont_base`.
    pub cont: Vec<i16>,
    /// How far the static evaluation has been off, by parts of the placement.
    pub correction: Correction,
}

/// Size of one continuation-history block (all pieces and targets after one earlier move).
const CONT_BLOCK: usize = 16 * SQUARES;

/// The offset of the continuation-history block for an earlier move of `piece` to `mv.to()`.
#[inline]
pub fn cont_base(piece: Piece, mv: Move) -> usize {
    (piece.code() * SQUARES + mv.to().index()) * CONT_BLOCK
}

impl Heuristics {
    /// Empty tables.
    pub fn new() -> Box<Heuristics> {
        Box::new(Heuristics {
            history: History::new(),
            killers: Killers::new(),
            counter: [[None; SQUARES]; 16],
            cont: vec![0; CONT_BLOCK * CONT_BLOCK],
            correction: Correction::new(),
        })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.history.clear();
        self.killers.clear();
        self.counter = [[None; SQUARES]; 16];
        self.cont.fill(0);
        self.correction.clear();
    }

    /// The ordering score of a quiet move: history plus the continuation histories of the
    /// earlier moves whose blocks are given.
    #[inline]
    pub fn quiet_score(&self, piece: Piece, mv: Move, cont: &[Option<usize>; 2]) -> i32 {
        let within = piece.code() * SQUARES + mv.to().index();
        let mut s = self.history.get(piece.code(), mv.to().index());
        for base in cont.iter().flatten() {
            s += self.cont[base + within] as i32;
        }
        s
    }

    /// Rewards (or punishes, with a negative bonus) a quiet move in the history and the
    /// continuation histories.
    #[inline]
    pub fn update_quiet(&mut self, piece: Piece, mv: Move, bonus: i32, cont: &[Option<usize>; 2]) {
        self.history.update(piece.code(), mv.to().index(), bonus);
        let within = piece.code() * SQUARES + mv.to().index();
        for base in cont.iter().flatten() {
            let h = &mut self.cont[base + within];
            *h = gravity(*h as i32, bonus) as i16;
        }
    }

    /// Ages the history between searches so old knowledge fades.
    pub fn age(&mut self) {
        self.history.age();
        self.killers.clear();
    }
}

/// The search threads' own tables, for the searcher's [`SearchTables`](crate::engine::searcher::SearchTables).
impl ThreadTables for Box<Heuristics> {
    fn new_tables() -> Self {
        Heuristics::new()
    }

    fn clear(&mut self) {
        Heuristics::clear(self);
    }

    fn age(&mut self) {
        Heuristics::age(self);
    }
}

/// Moves with ordering scores; `next` hands them out best first (selection sort, so a cutoff
/// after the first move costs no full sort).
pub struct Picker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    index: usize,
}

/// What the picker needs to know about the node.
pub struct OrderContext {
    /// The transposition-table move, if any.
    pub tt_move: Option<Move>,
    /// Killer moves of this ply.
    pub killers: [Option<Move>; 2],
    /// The countermove to the opponent's last move.
    pub counter: Option<Move>,
    /// Continuation-history blocks of the moves one and two plies back.
    pub cont: [Option<usize>; 2],
}

/// The MVV-LVA part of a capture's score: victim value first, cheaper attacker second.
#[inline]
pub fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = value_on(pos.piece_at(mv.to()), mv.to());
    let attacker = pos
        .piece_at(mv.from())
        .kind()
        .map_or(0, |k| SEE_VALUE[k.index()]);
    victim * 16 - attacker / 64
}

impl Picker {
    /// Scores `moves` for the main search.
    pub fn new(pos: &Position, moves: MoveList, ctx: &OrderContext, h: &Heuristics) -> Picker {
        let mut scores = [0; MAX_MOVES];
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = if Some(mv) == ctx.tt_move {
                TT_MOVE
            } else if !pos.piece_at(mv.to()).is_empty() {
                let victim = value_on(pos.piece_at(mv.to()), mv.to());
                let attacker = value_on(pos.piece_at(mv.from()), mv.from());
                let good = victim >= attacker || see(pos, mv) >= 0;
                (if good { GOOD_CAPTURE } else { BAD_CAPTURE }) + mvv_lva(pos, mv)
            } else if Some(mv) == ctx.killers[0] {
                KILLER
            } else if Some(mv) == ctx.killers[1] {
                KILLER - 1
            } else if Some(mv) == ctx.counter {
                COUNTER
            } else {
                h.quiet_score(pos.piece_at(mv.from()), mv, &ctx.cont)
            };
        }
        Picker {
            moves,
            scores,
            index: 0,
        }
    }

    /// Scores captures (or evasions) for quiescence: MVV-LVA, quiet evasions by history.
    pub fn new_quiescence(
        pos: &Position,
        moves: MoveList,
        tt_move: Option<Move>,
        h: &Heuristics,
    ) -> Picker {
        let mut scores = [0; MAX_MOVES];
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = if Some(mv) == tt_move {
                TT_MOVE
            } else if !pos.piece_at(mv.to()).is_empty() {
                GOOD_CAPTURE + mvv_lva(pos, mv)
            } else {
                h.history
                    .get(pos.piece_at(mv.from()).code(), mv.to().index())
            };
        }
        Picker {
            moves,
            scores,
            index: 0,
        }
    }

    /// The next best move with its ordering score.
    #[inline]
    pub fn next_move(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.index >= n {
            return None;
        }
        let mut best = self.index;
        for i in self.index + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        let slice = self.moves.as_mut_slice();
        slice.swap(self.index, best);
        self.scores.swap(self.index, best);
        let out = (slice[self.index], self.scores[self.index]);
        self.index += 1;
        Some(out)
    }

    /// True when the score marks a capture that loses material by SEE.
    #[inline]
    pub fn is_bad_capture_score(score: i32) -> bool {
        score < BAD_CAPTURE / 2
    }

    /// True when the score marks a killer or countermove.
    #[inline]
    pub fn is_refutation_score(score: i32) -> bool {
        (COUNTER..GOOD_CAPTURE).contains(&score)
    }
}
