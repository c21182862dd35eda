//! One search thread: iterative deepening at the root, the principal variation search and
//! quiescence, with the repetition verdicts inside the tree.
//!
//! What is Xiangqi's own lives here: MultiPV and root noise, the repetition rules, null
//! move, ProbCut, razoring, futility and SEE pruning with their constants, check
//! extensions, the network's accumulators, the correction history and the table entries.
//! The steps any game's search takes the same way (the deepening and aspiration loop, the
//! root move bookkeeping, the table cut-off, PVS, the PV table, history and killers) are the
//! engine's: [`crate::engine::deepening`], [`crate::engine::node`], [`crate::engine::history`].

use super::correction::CorrectionKeys;
use super::eval::evaluate;
use super::ordering::{Heuristics, OrderContext, Picker, cont_base};
use super::see::{SEE_VALUE, see, value_on};
use super::{Shared, UNITS_PER_CP, info_line};
use crate::engine::deepening::{
    Aspiration, Deepening, MateStop, RootSearch, RootStep, TimeScale, aspiration_search,
    mate_search_done, root_info, root_move_searched,
};
use crate::engine::history::{Quiets, history_bonus};
use crate::engine::node::{
    NodeBest, PvTable, late_move_reduction, node_bound, pvs_later_move, tt_cutoff,
};
use crate::engine::score::{
    INFINITE, MATE, MATE_BOUND, MAX_PLY, RootMove, mate_in, mated_in, score_from_tt, score_to_tt,
};
use crate::engine::smp::NodeCounter;
use crate::engine::tt::{TtBound, TtData};
use crate::engine::{Bound, SearchInfo, SearchOutcome};
use crate::xiangqi::Position;
use crate::xiangqi::movegen::{GenType, MoveList};
use crate::xiangqi::nnue::AccumulatorStack;
use crate::xiangqi::rules::{CycleVerdict, judge_cycle};
use crate::xiangqi::types::{Color, Move, Piece, PieceKind};

#[derive(Clone, Copy)]
struct Frame {
    eval: i32,
    /// The move made from this ply (None for a null move or nothing yet).
    mv: Option<Move>,
    /// The piece that made it.
    piece: Piece,
    null: bool,
}

const EMPTY_FRAME: Frame = Frame {
    eval: 0,
    mv: None,
    piece: Piece::EMPTY,
    null: false,
};

/// Lowest magnitude of a repetition-rule decision (perpetual check or chase) in the tree.
/// Such a decision depends on the path (the earlier positions of the cycle), so its scores
/// lie in their own band below the mate scores: they are never reported as mates, never end
/// the deepening as a found mate, and never enter the transposition table, where another
/// path would read them as facts about the position.
const RULE_BOUND: i32 = MATE_BOUND - 2 * MAX_PLY as i32 - 1000;

/// The network's evaluation is kept within this many internal units, well below the
/// repetition-rule and mate bands.
const NNUE_LIMIT: i32 = RULE_BOUND / 2;

/// The score of winning by a repetition rule at `ply` (sooner is better).
#[inline]
fn rule_win_in(ply: usize) -> i32 {
    RULE_BOUND + (MAX_PLY - ply.min(MAX_PLY)) as i32
}

/// True for a score decided (somewhere below) by a repetition rule.
#[inline]
fn is_rule_score(v: i32) -> bool {
    v.abs() >= RULE_BOUND && v.abs() < MATE_BOUND
}

/// `LMR[depth][move number]` in plies, from `0.8 + ln(d) ln(m) / 1.76` in fixed point
/// (`ln_q10` is 1024 ln x, so the divisor 1800 in 1/1024 units is 1.76).
static LMR: [[u8; 64]; 64] = {
    let mut t = [[0u8; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut m = 1;
        while m < 64 {
            let r = 819 + ln_q10(d as u64) * ln_q10(m as u64) / 1800;
            t[d][m] = (r / 1024) as u8;
            m += 1;
        }
        d += 1;
    }
    t
};

/// Natural logarithm of `x >= 1` in 1/1024 units, with integers only.
const fn ln_q10(x: u64) -> i64 {
    let mut n = 0;
    while (x >> (n + 1)) != 0 {
        n += 1;
    }
    // y = x / 2^n in [1, 2), Q30.
    let mut y: u64 = (x << 30) >> n;
    let mut frac = 0i64;
    let mut bit = 512;
    while bit > 0 {
        y = (y * y) >> 30;
        if y >= 2 << 30 {
            y >>= 1;
            frac |= bit;
        }
        bit >>= 1;
    }
    (n as i64 * 1024 + frac) * 710 / 1024
}

/// Aspiration windows: 60 either side from depth 5, never made full by width alone.
const ASPIRATION: Aspiration = Aspiration {
    delta: 60,
    min_depth: 5,
    full_after: None,
};

/// A found mate needs no deeper search once the depth covers it twice over (and six plies).
const MATE_STOP: MateStop = MateStop {
    factor: 2,
    margin: 6,
};

/// The share of the soft time limit an iteration may end at, by the best move's stability.
const TIME_SCALE: TimeScale = TimeScale {
    single_move: 10,
    changed: 160,
    stable: 60,
    stable_after: 4,
    normal: 100,
};

/// After this long a search reports the bound of a failed aspiration window (before, such
/// reports would only flood the GUI).
const BOUND_REPORT_AFTER_MS: u64 = 3000;

/// Whether `color` keeps enough pieces for null-move pruning to be safe from zugzwang.
fn null_move_allowed(pos: &Position, color: Color) -> bool {
    let chariots = pos.pieces(color, PieceKind::Chariot).count_ones();
    let minors =
        (pos.pieces(color, PieceKind::Horse) | pos.pieces(color, PieceKind::Cannon)).count_ones();
    (chariots >= 1 && chariots + minors >= 2) || minors >= 3
}

/// The table entry for a searched node: `score` moved to table form for `ply`, the static
/// evaluation (`None` in check, stored as 0) and the depth clamped to the table's range.
fn node_entry(
    best: Option<Move>,
    score: i32,
    ply: usize,
    static_eval: Option<i32>,
    depth: i32,
    bound: TtBound,
) -> TtData {
    TtData {
        move_bits: best.map_or(0, |m| m.bits()),
        score: score_to_tt(score, ply),
        eval: static_eval.map_or(0, |e| e.clamp(-MATE, MATE) as i16),
        depth: depth.clamp(-1, 120) as i8,
        bound,
    }
}

pub(crate) struct Worker<'a> {
    sh: &'a Shared<'a>,
    pos: Position,
    h: &'a mut Heuristics,
    id: usize,
    /// Counts this thread's nodes and polls the limits every 1024 nodes (the node limit
    /// every node).
    counter: NodeCounter<'a, 1024>,
    seldepth: usize,
    root_depth: i32,
    stack: Vec<Frame>,
    pv: PvTable<Move>,
    /// Keys of the game's positions, then of the path from the root: `keys[i]` after `i` plies.
    keys: Vec<u64>,
    /// Whether the ply leading to `keys[i]` was a null move.
    nulls: Vec<bool>,
    /// Index of the root position in `keys`.
    root_index: usize,
    root_moves: Vec<RootMove<Move>>,
    pv_index: usize,
    nmp_min_ply: usize,
    /// The network's accumulators along the current line, when the network evaluates.
    nnue: Option<AccumulatorStack>,
}

impl RootSearch for Worker<'_> {
    type Move = Move;

    /// One root search: the first line's moves from the first not yet decided (MultiPV),
    /// with late-move reductions, each move's score and line kept in the root moves.
    fn search_root(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITE;
        let in_check = self.pos.in_check();
        self.pv.clear(0);
        let first = self.pv_index;
        for i in first..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let capture = !self.pos.piece_at(mv.to()).is_empty();
            self.count_node();
            self.make(0, mv);
            let gives_check = self.pos.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let mut v;
            if i == first {
                v = -self.search(-beta, -alpha, new_depth, 1, false);
            } else {
                let moves_done = i - first + 1;
                let mut r = 0;
                if depth >= 3 && !capture && !gives_check && !in_check && moves_done > 3 {
                    r = (LMR[depth.min(63) as usize][moves_done.min(63)] as i32 - 1)
                        .clamp(0, new_depth - 1);
                }
                v = pvs_later_move(
                    |a, b, d, cut| self.search(a, b, d, 1, cut),
                    alpha,
                    beta,
                    new_depth,
                    r,
                    true,
                    false,
                );
            }
            self.unmake();
            if self.counter.stopped {
                break;
            }
            if v.abs() < MATE_BOUND {
                v += self.noise(mv);
            }
            // A new best moves to the front of the lines still to decide.
            let record = |rm: &mut RootMove<Move>| {
                rm.record(v, self.pv.line(1), self.seldepth as u32);
            };
            match root_move_searched(
                &mut self.root_moves,
                (first, i),
                v,
                &mut alpha,
                beta,
                record,
            ) {
                RootStep::FailedLow => {}
                RootStep::Kept => best = best.max(v),
                RootStep::Cutoff => {
                    best = best.max(v);
                    break;
                }
            }
        }
        best
    }

    fn stopped(&self) -> bool {
        self.counter.stopped
    }

    fn root_moves(&mut self) -> &mut [RootMove<Move>] {
        &mut self.root_moves
    }
}

impl<'a> Worker<'a> {
    pub fn new(
        sh: &'a Shared<'a>,
        pos: Position,
        root_moves: Vec<RootMove<Move>>,
        h: &'a mut Heuristics,
        id: usize,
    ) -> Worker<'a> {
        let made = pos.plies_made();
        let mut keys = Vec::with_capacity(made + MAX_PLY + 2);
        for back in (1..=made).rev() {
            keys.push(pos.key_back(back).unwrap_or(0));
        }
        keys.push(pos.key());
        let root_index = keys.len() - 1;
        let nulls = vec![false; keys.len()];
        let nnue = sh.game.network.map(|net| AccumulatorStack::new(net, &pos));
        Worker {
            sh,
            pos,
            h,
            id,
            counter: sh.counter(id),
            seldepth: 0,
            root_depth: 0,
            stack: vec![EMPTY_FRAME; MAX_PLY + 4],
            pv: PvTable::new(),
            keys,
            nulls,
            root_index,
            root_moves,
            pv_index: 0,
            nmp_min_ply: 0,
            nnue,
        }
    }

    fn total_nodes(&self) -> u64 {
        self.counter.total()
    }

    /// Counts a node and polls the limits.
    #[inline]
    fn count_node(&mut self) {
        self.counter.tick();
    }

    fn flush_nodes(&mut self) {
        self.counter.flush();
    }

    #[inline]
    fn make(&mut self, ply: usize, mv: Move) {
        let piece = self.pos.piece_at(mv.from());
        self.stack[ply].mv = Some(mv);
        self.stack[ply].piece = piece;
        self.stack[ply].null = false;
        if let Some(stack) = &mut self.nnue {
            stack.push_move(&self.pos, mv);
        }
        self.pos.make_move(mv);
        self.keys.push(self.pos.key());
        self.nulls.push(false);
    }

    #[inline]
    fn unmake(&mut self) {
        if let Some(stack) = &mut self.nnue {
            stack.pop();
        }
        self.pos.unmake_move();
        self.keys.pop();
        self.nulls.pop();
    }

    /// The static evaluation of the current position (internal units, side to move): the
    /// network's when one is set, else the tuned evaluation.
    #[inline]
    fn evaluate(&mut self) -> i32 {
        match (self.sh.game.network, &mut self.nnue) {
            (Some(net), Some(stack)) => {
                (stack.evaluate(net, &self.pos) * UNITS_PER_CP).clamp(-NNUE_LIMIT, NNUE_LIMIT)
            }
            _ => evaluate(&self.pos),
        }
    }

    fn noise(&self, mv: Move) -> i32 {
        if self.sh.game.randomness == 0 {
            return 0;
        }
        let mut z = self.sh.game.seed ^ (mv.bits() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z ^= z >> 31;
        let span = 2 * self.sh.game.randomness as u64 + 1;
        (z % span) as i32 - self.sh.game.randomness
    }

    /// The static evaluation of the position (the table's when it holds one), and the same
    /// corrected by the correction history, kept below the mate scores. The first is what the
    /// table keeps. Only for a side not in check.
    #[inline]
    fn static_evals(&mut self, tt: Option<TtData>, keys: CorrectionKeys) -> (i32, i32) {
        let raw = match tt {
            Some(t) => i32::from(t.eval),
            None => self.evaluate(),
        };
        let corrected = (raw + self.h.correction.get(keys)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        (raw, corrected)
    }

    /// Stores a searched node in the transposition table, unless its score was decided by a
    /// repetition rule (path-dependent: see [`RULE_BOUND`]; the table keeps such scores as
    /// they are, since only mate scores are moved by ply).
    fn store(&self, key: u64, data: TtData) {
        if !is_rule_score(i32::from(data.score)) {
            self.sh.tt.store(key, data);
        }
    }

    /// The repetition verdict for the current node, if its position repeats: a repetition of
    /// a position after the root counts at once, one before the root needs a third occurrence.
    fn repetition(&mut self, ply: usize) -> Option<i32> {
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        let limit = (self.pos.halfmove_clock() as usize).min(n);
        let mut first_cycle = 0;
        let mut k = 1;
        while k <= limit {
            if self.nulls[n + 1 - k] {
                break;
            }
            if k >= 4 && k % 2 == 0 && self.keys[n - k] == key {
                let in_tree = n - k > self.root_index;
                let cycle = if in_tree {
                    k
                } else if first_cycle == 0 {
                    first_cycle = k;
                    0
                } else {
                    first_cycle
                };
                if cycle > 0 {
                    // The move before the cycle is replayed too, unless it was a null move.
                    let ply_before = !self.nulls[n - cycle];
                    return Some(match judge_cycle(&mut self.pos, cycle, ply_before) {
                        CycleVerdict::Draw => 0,
                        CycleVerdict::SideToMoveWins(_) => rule_win_in(ply),
                        CycleVerdict::SideToMoveLoses(_) => -rule_win_in(ply),
                    });
                }
            }
            k += 1;
        }
        None
    }

    /// Iterative deepening; `report` is given to the main thread only.
    pub fn iterate(
        &mut self,
        mut report: Option<&mut dyn FnMut(SearchInfo<Move>)>,
    ) -> SearchOutcome<Move> {
        let control = self.sh.control;
        let max_depth = control.depth_limit().min(MAX_PLY as u32 - 8) as i32;
        let multipv = self.sh.game.multipv;
        let mut deepening = Deepening::new(self.id, max_depth, self.root_moves[0].mv);
        self.order_root_moves();
        for depth in deepening.depths() {
            // Helpers skip some depths so the threads spread over the tree.
            let search_depth = deepening.start(depth, &mut self.root_moves);
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.root_depth = search_depth;
                // A long search whose window failed tells the GUI the bound it has while
                // the window widens.
                let bound_report = |w: &mut Self, v: i32, bound: Bound| {
                    if let Some(report) = report.as_mut()
                        && control.elapsed_ms() >= BOUND_REPORT_AFTER_MS
                    {
                        w.flush_nodes();
                        report(info_line(
                            search_depth as u32,
                            (w.seldepth as u32).max(search_depth as u32),
                            pv_index as u32 + 1,
                            v,
                            bound,
                            w.total_nodes(),
                            control,
                            w.sh.tt.hashfull(),
                            w.root_moves[pv_index].pv.clone(),
                        ));
                    }
                };
                aspiration_search(self, pv_index, search_depth, &ASPIRATION, bound_report);
                if self.counter.stopped {
                    break;
                }
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.counter.stopped {
                break;
            }
            deepening.complete(depth as u32, &self.root_moves[0]);
            let root_eval = (!self.pos.in_check()).then(|| self.evaluate());
            self.store(
                self.pos.key(),
                node_entry(
                    Some(self.root_moves[0].mv),
                    self.root_moves[0].score,
                    0,
                    root_eval,
                    search_depth,
                    TtBound::Exact,
                ),
            );
            if let Some(report) = report.as_mut() {
                self.flush_nodes();
                let nodes = self.total_nodes();
                let hashfull = self.sh.tt.hashfull();
                for (i, rm) in self.root_moves[..multipv].iter().enumerate() {
                    report(root_info(
                        rm,
                        search_depth as u32,
                        i as u32 + 1,
                        UNITS_PER_CP,
                        nodes,
                        control.elapsed_ms(),
                        hashfull,
                    ));
                }
            }
            let score = self.root_moves[0].score;
            let main_done = || {
                MATE_STOP.reached(score, depth)
                    || control.mate_limit().is_some_and(|moves| {
                        mate_search_done(depth, super::report_score(score), moves)
                    })
            };
            if deepening.done(
                &self.sh.smp,
                control,
                &TIME_SCALE,
                self.root_moves.len(),
                main_done,
            ) {
                break;
            }
        }
        self.flush_nodes();
        deepening.outcome(
            &self.root_moves[0],
            -MATE,
            self.total_nodes(),
            super::report_score,
        )
    }

    /// Orders the root moves once before the first iteration: captures by SEE, then the rest.
    fn order_root_moves(&mut self) {
        let pos = &self.pos;
        let mut keyed: Vec<(i32, RootMove<Move>)> = self
            .root_moves
            .drain(..)
            .map(|rm| {
                let k = if pos.piece_at(rm.mv.to()).is_empty() {
                    0
                } else {
                    see(pos, rm.mv) + 1
                };
                (k, rm)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        self.root_moves = keyed.into_iter().map(|(_, rm)| rm).collect();
    }

    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        self.pv.clear(ply);
        self.count_node();
        if self.counter.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(v) = self.repetition(ply) {
            return v;
        }
        let limit = self.sh.game.no_capture_limit;
        if limit > 0 && self.pos.halfmove_clock() >= limit {
            return 0;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate() };
        }
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let key = self.pos.key();
        let tt = self.sh.tt.probe(key);
        let tt_move = tt.and_then(|t| Move::from_bits(t.move_bits));
        if let Some(t) = tt
            && !pv_node
            && t.depth as i32 >= depth
            && let Some(v) = tt_cutoff(&t, alpha, beta, ply)
        {
            return v;
        }

        // The static evaluation as computed (kept in the table), and corrected by what the
        // correction history learned.
        let corr_keys = (!in_check).then(|| CorrectionKeys::of(&self.pos));
        let (raw_eval, static_eval) =
            corr_keys.map_or((-INFINITE, -INFINITE), |k| self.static_evals(tt, k));
        let eval = if in_check {
            -INFINITE
        } else if let Some(t) = tt {
            let e = static_eval;
            let v = score_from_tt(t.score, ply);
            // The stored score is a better estimate when its bound points the right way.
            match t.bound {
                TtBound::Lower if v > e => v,
                TtBound::Upper if v < e => v,
                TtBound::Exact => v,
                _ => e,
            }
        } else {
            static_eval
        };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        self.h.killers.reset(ply + 2);

        if !pv_node && !in_check && eval.abs() < MATE_BOUND {
            // Reverse futility pruning.
            if depth <= 7 && eval - 90 * (depth - improving as i32) >= beta {
                return eval;
            }
            // Razoring.
            if depth <= 3 && eval + 250 + 250 * depth < alpha {
                let v = self.qsearch(alpha, alpha + 1, ply, 0);
                if v <= alpha {
                    return v;
                }
            }
            // Null move with a verification search at high depth and in thin material.
            let us = self.pos.side_to_move();
            if depth >= 3
                && eval >= beta
                && ply >= self.nmp_min_ply
                && !self.stack[ply - 1].null
                && null_move_allowed(&self.pos, us)
            {
                let r = 4 + depth / 3 + ((eval - beta) / 200).min(3);
                self.stack[ply].mv = None;
                self.stack[ply].null = true;
                self.stack[ply].piece = Piece::EMPTY;
                self.pos.make_null_move();
                if let Some(stack) = &mut self.nnue {
                    stack.push_null();
                }
                self.keys.push(self.pos.key());
                self.nulls.push(true);
                let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.unmake_null_move();
                if let Some(stack) = &mut self.nnue {
                    stack.pop();
                }
                self.keys.pop();
                self.nulls.pop();
                self.stack[ply].null = false;
                if self.counter.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    if self.nmp_min_ply > 0 || depth < 10 {
                        return v;
                    }
                    self.nmp_min_ply = ply + 3 * (depth - r).max(0) as usize / 4;
                    let w = self.search(beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // ProbCut: a capture that wins enough to beat beta by a margin in a search four plies
        // shallower very likely beats beta in the full search too.
        let probcut_beta = beta + 180 - 60 * improving as i32;
        if !pv_node
            && !in_check
            && depth >= 5
            && beta.abs() < MATE_BOUND
            && !tt.is_some_and(|t| {
                t.depth as i32 >= depth - 3 && score_from_tt(t.score, ply) < probcut_beta
            })
        {
            let mut captures = MoveList::new();
            self.pos.generate_pseudo(&mut captures, GenType::Captures);
            let mut picker = Picker::new_quiescence(&self.pos, captures, tt_move, self.h);
            while let Some((mv, _)) = picker.next_move() {
                if see(&self.pos, mv) < probcut_beta - eval || !self.pos.move_is_safe(mv) {
                    continue;
                }
                self.count_node();
                self.make(ply, mv);
                let mut v = -self.qsearch(-probcut_beta, -probcut_beta + 1, ply + 1, 0);
                if v >= probcut_beta {
                    v = -self.search(
                        -probcut_beta,
                        -probcut_beta + 1,
                        depth - 4,
                        ply + 1,
                        !cut_node,
                    );
                }
                self.unmake();
                if self.counter.stopped {
                    return 0;
                }
                if v >= probcut_beta {
                    self.store(
                        key,
                        node_entry(Some(mv), v, ply, Some(raw_eval), depth - 3, TtBound::Lower),
                    );
                    return v;
                }
            }
        }

        // Internal iterative reduction: no hash move, a shallower search first.
        if depth >= 6 && tt_move.is_none() && (pv_node || cut_node) {
            depth -= 1;
        }

        let mut list = MoveList::new();
        self.pos.generate_legal(&mut list);
        if list.is_empty() {
            // Checkmate or stalemate: either way the side to move loses.
            return mated_in(ply);
        }
        let prev = if ply > 0 {
            self.stack[ply - 1]
        } else {
            EMPTY_FRAME
        };
        let counter = prev
            .mv
            .and_then(|m| self.h.counter[prev.piece.code()][m.to().index()]);
        let cont = [
            prev.mv.map(|m| cont_base(prev.piece, m)),
            if ply >= 2 {
                let f = self.stack[ply - 2];
                f.mv.map(|m| cont_base(f.piece, m))
            } else {
                None
            },
        ];
        let ctx = OrderContext {
            tt_move,
            killers: self.h.killers.get(ply),
            counter,
            cont,
        };
        let mut picker = Picker::new(&self.pos, list, &ctx, self.h);

        let mut node = NodeBest::new(-INFINITE, alpha);
        let mut moves_done = 0;
        let mut quiets: Quiets<(Piece, Move), 64> = Quiets::new();
        let lmp_limit = (3 + depth * depth) / if improving { 1 } else { 2 };

        while let Some((mv, order)) = picker.next_move() {
            let capture = !self.pos.piece_at(mv.to()).is_empty();
            let piece = self.pos.piece_at(mv.from());
            let refutation = Picker::is_refutation_score(order);
            let bad_capture = capture && Picker::is_bad_capture_score(order);
            // Shallow-depth pruning, decided before the move is made.
            let may_prune = !pv_node && !in_check && node.score > -MATE_BOUND;
            if may_prune
                && capture
                && depth <= 6
                && bad_capture
                && see(&self.pos, mv) < -150 * depth
                && !self.pos.move_gives_check(mv)
            {
                continue;
            }
            // Late move, futility and history pruning of quiet moves that do not check.
            if may_prune && !capture && !refutation {
                let history = self.h.history.get(piece.code(), mv.to().index());
                let prune = moves_done as i32 >= lmp_limit
                    || (depth <= 8 && eval + 120 + 100 * depth <= node.alpha)
                    || (depth <= 3 && history < -3000 * depth);
                if prune && !self.pos.move_gives_check(mv) {
                    continue;
                }
            }
            self.count_node();
            self.make(ply, mv);
            let gives_check = self.pos.in_check();
            moves_done += 1;
            // Extend checks that do not simply lose the checking piece.
            let mut extension = 0;
            if gives_check && (ply as i32) < 2 * self.root_depth && !bad_capture {
                self.pos.unmake_move();
                let safe = capture || see(&self.pos, mv) >= 0;
                self.pos.make_move(mv);
                extension = safe as i32;
            }
            let new_depth = depth - 1 + extension;
            let v;
            if moves_done == 1 {
                v = -self.search(
                    -beta,
                    -node.alpha,
                    new_depth,
                    ply + 1,
                    !pv_node && !cut_node,
                );
            } else {
                let mut r = 0;
                if depth >= 3 && !capture && !gives_check && !in_check && !refutation {
                    let base = LMR[depth.min(63) as usize][moves_done.min(63)] as i32;
                    let history = self.h.history.get(piece.code(), mv.to().index());
                    r = late_move_reduction(
                        base + !improving as i32,
                        pv_node,
                        cut_node,
                        history / 6000,
                        new_depth,
                    );
                }
                v = pvs_later_move(
                    |a, b, d, cut| self.search(a, b, d, ply + 1, cut),
                    node.alpha,
                    beta,
                    new_depth,
                    r,
                    pv_node,
                    !cut_node,
                );
            }
            self.unmake();
            if self.counter.stopped {
                return 0;
            }
            if !capture {
                quiets.push((piece, mv));
            }
            if node.take(v, mv, beta, pv_node.then_some(&mut self.pv), ply) {
                break;
            }
        }

        if moves_done == 0 {
            // Every move was pruned: a fail low at the static estimate.
            return node.alpha;
        }
        let (best, best_move) = (node.score, node.mv);

        if best >= beta
            && let Some(bm) = best_move
            && self.pos.piece_at(bm.to()).is_empty()
        {
            let h = &mut *self.h;
            quiets.reward(
                |(_, m)| m == bm,
                history_bonus(depth, 32),
                |(p, m), bonus| h.update_quiet(p, m, bonus, &cont),
            );
            self.h.killers.add(ply, bm);
            if let Some(pm) = prev.mv {
                self.h.counter[prev.piece.code()][pm.to().index()] = Some(bm);
            }
        }

        // The search says how wrong the static evaluation was, unless a capture decided it.
        if let Some(keys) = corr_keys
            && best.abs() < MATE_BOUND
            && best_move.is_none_or(|m| self.pos.piece_at(m.to()).is_empty())
            && ((best < static_eval && best < beta) || (best > static_eval && best_move.is_some()))
        {
            self.h.correction.update(keys, depth, best, static_eval);
        }

        let bound = node_bound(best, beta, pv_node && best_move.is_some());
        self.store(
            key,
            node_entry(
                best_move,
                best,
                ply,
                (!in_check).then_some(raw_eval),
                depth,
                bound,
            ),
        );
        best
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv.clear(ply);
        self.count_node();
        if self.counter.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let in_check = self.pos.in_check() && qply < 8;
        if ply >= MAX_PLY - 2 {
            return self.evaluate();
        }
        let key = self.pos.key();
        let tt = self.sh.tt.probe(key);
        if let Some(t) = tt
            && !pv_node
            && let Some(v) = tt_cutoff(&t, alpha, beta, ply)
        {
            return v;
        }
        let tt_move = tt.and_then(|t| Move::from_bits(t.move_bits));

        let best;
        let stand;
        let mut raw_stand = -INFINITE;
        let mut list = MoveList::new();
        if in_check {
            stand = -INFINITE;
            best = -INFINITE;
            self.pos.generate_legal(&mut list);
            if list.is_empty() {
                return mated_in(ply);
            }
        } else {
            (raw_stand, stand) = self.static_evals(tt, CorrectionKeys::of(&self.pos));
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            self.pos.generate_pseudo(&mut list, GenType::Captures);
        }
        let mut picker = Picker::new_quiescence(&self.pos, list, tt_move, self.h);
        let mut node = NodeBest::new(best, alpha);
        // The captures (every move when in check), then at the first quiescence ply the quiet
        // checks: a quiet check can mate, and the reply to a null move is searched here, so
        // without them a mate threat such as a cannon lining up behind a screen stays hidden
        // however deep the main search goes.
        let mut quiet_checks: Option<(MoveList, usize)> = None;
        loop {
            let mv = if quiet_checks.is_none()
                && let Some((mv, _)) = picker.next_move()
            {
                if !in_check {
                    let victim = value_on(self.pos.piece_at(mv.to()), mv.to());
                    // Delta pruning (even winning the piece cannot reach alpha) and SEE
                    // pruning (the capture loses material), except for checks: a capture
                    // that checks may mate, whatever it wins or loses.
                    let hopeless = stand + victim + 200 <= node.alpha;
                    let losing = !hopeless && {
                        let attacker = self
                            .pos
                            .piece_at(mv.from())
                            .kind()
                            .map_or(0, |k| SEE_VALUE[k.index()]);
                        attacker > victim && see(&self.pos, mv) < 0
                    };
                    if (hopeless || losing) && !self.pos.move_gives_check(mv) {
                        continue;
                    }
                    if !self.pos.move_is_safe(mv) {
                        continue;
                    }
                }
                mv
            } else {
                if in_check || qply != 0 {
                    break;
                }
                let (checks, next) = quiet_checks.get_or_insert_with(|| {
                    let mut checks = MoveList::new();
                    self.pos.generate_quiet_checks(&mut checks);
                    (checks, 0)
                });
                let Some(&mv) = checks.get(*next) else {
                    break;
                };
                *next += 1;
                if !self.pos.move_is_safe(mv) || see(&self.pos, mv) < 0 {
                    continue;
                }
                mv
            };
            self.count_node();
            self.make(ply, mv);
            let v = -self.qsearch(-beta, -node.alpha, ply + 1, qply + 1);
            self.unmake();
            if self.counter.stopped {
                return 0;
            }
            if node.take(v, mv, beta, pv_node.then_some(&mut self.pv), ply) {
                break;
            }
        }
        let (best, best_move) = (node.score, node.mv);
        let bound = node_bound(best, beta, false);
        self.store(
            key,
            node_entry(
                best_move,
                best,
                ply,
                (raw_stand > -INFINITE).then_some(raw_stand),
                -1,
                bound,
            ),
        );
        best
    }
}
