//! One search thread: iterative deepening with aspiration windows at the root, the principal
//! variation search with the threat-state move generation, and a quiescence stage made of
//! forced blocks and a short VCF.
//!
//! What is Gomoku's own lives here: the root and node move lists from the threat state, the
//! reductions and prunings and their constants, the mate rule that ends the deepening, the
//! table entries. The steps any game's search takes the same way (the deepening and
//! aspiration loop, the root move bookkeeping, the table cut-off, PVS, the PV table, history
//! and killers) are the engine's: [`crate::engine::deepening`], [`crate::engine::node`],
//! [`crate::engine::history`].

use super::eval::{EVAL_LIMIT, evaluate};
use super::movegen::{
    Gen, forbidden_for, four_cells, generate, in_line_window, is_tactical, order_value, static_win,
};
use super::pos::Pos;
use super::threat::{FailCache, SubBudget, ThreatSearch, Tick};
use super::{Heuristics, Shared, UNITS_PER_CP};
use crate::engine::deepening::{
    Aspiration, Deepening, MateStop, RootSearch, RootStep, TimeScale, aspiration_search, root_info,
    root_move_searched,
};
use crate::engine::history::{Quiets, history_bonus};
use crate::engine::node::{
    NodeBest, PvTable, late_move_reduction, node_bound, pvs_later_move, tt_cutoff,
};
use crate::engine::score::{
    INFINITE, MATE_BOUND, MAX_PLY, RootMove, mate_in, mated_in, report_score, score_to_tt,
};
use crate::engine::smp::NodeCounter;
use crate::engine::tt::{TtBound, TtData};
use crate::engine::{SearchInfo, SearchOutcome};
use crate::gomoku::{Cell, Rule, Threat};

/// One thread's node counter: the engine layer's, publishing every 256 nodes.
pub(crate) type Counter<'a> = NodeCounter<'a, 256>;

impl Tick for Counter<'_> {
    /// Counts a node; polls the control every 256 nodes and the node limit every node.
    #[inline]
    fn tick(&mut self) -> bool {
        NodeCounter::tick(self)
    }
}

/// Gomoku's aspiration windows: 40 points either side from depth 4, full past 600.
const ASPIRATION: Aspiration = Aspiration {
    delta: 40,
    min_depth: 4,
    full_after: Some(600),
};

/// A found mate ends the deepening two plies past its distance.
const MATE_STOP: MateStop = MateStop {
    factor: 1,
    margin: 2,
};

/// Share of the soft limit an iteration may end at, by the best move's stability.
const TIME_SCALE: TimeScale = TimeScale {
    single_move: 10,
    changed: 150,
    stable: 70,
    stable_after: 4,
    normal: 100,
};

/// Late-move reduction in plies for a depth and a move number.
#[inline]
fn lmr(depth: i32, moves_done: usize) -> i32 {
    let d = 32 - (depth.max(1) as u32).leading_zeros() as i32;
    let m = 64 - (moves_done.max(1) as u64).leading_zeros() as i32;
    (d * m) / 4
}

/// Picks the first few moves of a node one at a time; past them the rest is sorted at once.
const SELECTED_PICKS: usize = 3;

/// Hands out a node's scored moves best first, ties to the lower cell index: the order of a
/// full sort by score (descending) and index, paid for only as far as the node goes. The
/// first [`SELECTED_PICKS`] are found by selection (a cut-off there costs no sort); at the
/// next pick the moves left are sorted.
struct MovePicker<'m> {
    moves: &'m mut [(Cell, i32)],
    next: usize,
}

impl<'m> MovePicker<'m> {
    fn new(moves: &'m mut [(Cell, i32)]) -> MovePicker<'m> {
        MovePicker { moves, next: 0 }
    }

    /// Ordering key: larger first, then the lower index.
    #[inline]
    fn key(m: &(Cell, i32)) -> (std::cmp::Reverse<i32>, usize) {
        (std::cmp::Reverse(m.1), m.0.index())
    }

    /// The next move and its ordering score, or `None` when all were handed out.
    #[inline]
    fn next_move(&mut self) -> Option<(Cell, i32)> {
        let k = self.next;
        if k >= self.moves.len() {
            return None;
        }
        if k < SELECTED_PICKS {
            let mut best = k;
            for i in k + 1..self.moves.len() {
                if Self::key(&self.moves[i]) < Self::key(&self.moves[best]) {
                    best = i;
                }
            }
            self.moves.swap(k, best);
        } else if k == SELECTED_PICKS {
            self.moves[k..].sort_unstable_by_key(Self::key);
        }
        self.next += 1;
        Some(self.moves[k])
    }
}

pub(crate) struct Worker<'a> {
    sh: &'a Shared<'a>,
    pub ctr: Counter<'a>,
    pos: Pos,
    h: &'a mut Heuristics,
    id: usize,
    seldepth: usize,
    pv: PvTable<Cell>,
    root_moves: Vec<RootMove<Cell>>,
    cache: FailCache,
    /// One move list per ply, kept between nodes so that a node allocates nothing.
    move_lists: Vec<Vec<(Cell, i32)>>,
}

impl RootSearch for Worker<'_> {
    type Move = Cell;

    /// One root search, with late-move reductions, each move's score and line kept in the
    /// root moves.
    fn search_root(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITE;
        self.pv.clear(0);
        let us = self.pos.us();
        for i in 0..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.ctr.tick() {
                break;
            }
            let tactical = is_tactical(&self.pos, mv, us);
            self.pos.play(mv);
            let v;
            if i == 0 {
                v = -self.search(-beta, -alpha, depth - 1, 1, false);
            } else {
                let mut r = 0;
                if depth >= 3 && !tactical && i >= 3 {
                    r = (lmr(depth, i) - 1).clamp(0, depth - 2);
                }
                v = pvs_later_move(
                    |a, b, d, cut| self.search(a, b, d, 1, cut),
                    alpha,
                    beta,
                    depth - 1,
                    r,
                    true,
                    true,
                );
            }
            self.pos.undo();
            if self.ctr.stopped {
                break;
            }
            best = best.max(v);
            let record = |rm: &mut RootMove<Cell>| {
                rm.record(v, self.pv.line(1), self.seldepth as u32);
            };
            let step =
                root_move_searched(&mut self.root_moves, (0, i), v, &mut alpha, beta, record);
            if step == RootStep::Cutoff {
                break;
            }
        }
        best
    }

    fn stopped(&self) -> bool {
        self.ctr.stopped
    }

    fn root_moves(&mut self) -> &mut [RootMove<Cell>] {
        &mut self.root_moves
    }
}

impl<'a> Worker<'a> {
    pub fn new(
        sh: &'a Shared<'a>,
        pos: Pos,
        root_moves: Vec<RootMove<Cell>>,
        h: &'a mut Heuristics,
        id: usize,
    ) -> Worker<'a> {
        Worker {
            sh,
            ctr: sh.counter(id),
            pos,
            h,
            id,
            seldepth: 0,
            pv: PvTable::new(),
            root_moves,
            cache: FailCache::new(),
            move_lists: (0..MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
        }
    }

    /// Iterative deepening; `report` is given to the main thread only.
    pub fn iterate(
        &mut self,
        mut report: Option<&mut dyn FnMut(SearchInfo<Cell>)>,
    ) -> SearchOutcome<Cell> {
        let control = self.sh.control;
        let max_depth = control.depth_limit().min(MAX_PLY as u32 - 16) as i32;
        let mut deepening = Deepening::new(self.id, max_depth, self.root_moves[0].mv);
        for depth in deepening.depths() {
            let search_depth = deepening.start(depth, &mut self.root_moves);
            self.seldepth = 0;
            aspiration_search(self, 0, search_depth, &ASPIRATION, |_, _, _| {});
            if self.ctr.stopped {
                break;
            }
            deepening.complete(search_depth as u32, &self.root_moves[0]);
            self.sh.tt.store(
                self.pos.board.hash(),
                TtData {
                    move_bits: self.root_moves[0].mv.to_bits(),
                    score: score_to_tt(self.root_moves[0].score, 0),
                    eval: evaluate(&self.pos) as i16,
                    depth: search_depth.clamp(0, 120) as i8,
                    bound: TtBound::Exact,
                },
            );
            if let Some(report) = report.as_mut() {
                self.ctr.flush();
                report(root_info(
                    &self.root_moves[0],
                    search_depth as u32,
                    1,
                    UNITS_PER_CP,
                    self.ctr.total(),
                    control.elapsed_ms(),
                    self.sh.tt.hashfull(),
                ));
            }
            let score = self.root_moves[0].score;
            let mate_found = || MATE_STOP.reached(score, depth);
            if deepening.done(
                &self.sh.smp,
                control,
                &TIME_SCALE,
                self.root_moves.len(),
                mate_found,
            ) {
                break;
            }
        }
        self.ctr.flush();
        deepening.outcome(
            &self.root_moves[0],
            -INFINITE + 1,
            self.ctr.total(),
            |score| {
                if score <= -INFINITE + 1 {
                    crate::engine::Score::Cp(0)
                } else {
                    report_score(score, UNITS_PER_CP)
                }
            },
        )
    }

    fn search(&mut self, mut alpha: i32, mut beta: i32, depth: i32, ply: usize, cut: bool) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0, None);
        }
        let pv_node = beta - alpha > 1;
        self.pv.clear(ply);
        if self.ctr.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some((plies, c)) = static_win(&mut self.pos) {
            self.pv.set_single(ply, c);
            return mate_in(ply + plies);
        }
        if ply >= MAX_PLY - 8 {
            return evaluate(&self.pos);
        }
        if self.pos.board.is_full() {
            return 0;
        }
        let state = generate(&mut self.pos);
        if let Gen::Lost(plies) = state {
            return mated_in(ply + plies);
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let key = self.pos.board.hash();
        let tt = self.sh.tt.probe(key);
        let tt_move = tt
            .and_then(|t| Cell::from_bits(t.move_bits))
            .filter(|&c| self.pos.is_candidate(c));
        if let Some(t) = tt
            && !pv_node
            && t.depth as i32 >= depth
            && let Some(v) = tt_cutoff(&t, alpha, beta, ply)
        {
            return v;
        }
        let eval = match tt {
            Some(t) => t.eval as i32,
            None => evaluate(&self.pos),
        };
        let us = self.pos.us();
        let free = matches!(state, Gen::All);

        // Reverse futility: a quiet position far above beta at low depth.
        if !pv_node
            && free
            && depth <= 3
            && eval.abs() < MATE_BOUND
            && eval - 120 * depth >= beta
            && four_cells(&self.pos, us.flip()) == 0
        {
            return eval;
        }

        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        let mut forced = false;
        match state {
            Gen::Forced(c) => {
                moves.push((c, 0));
                forced = true;
            }
            Gen::Defend(list) => {
                for c in list {
                    moves.push((c, 0));
                }
            }
            _ => {
                let pos = &self.pos;
                pos.for_each_candidate(|c| {
                    if !forbidden_for(pos, c, us) {
                        moves.push((c, 0));
                    }
                });
            }
        }
        let killers = self.h.killers.get(ply);
        for m in moves.iter_mut() {
            let c = m.0;
            m.1 = if Some(c) == tt_move {
                1 << 30
            } else {
                let mut s = order_value(&self.pos, c, us) * 16
                    + self.h.history.get(us.index(), c.index()) / 16;
                if Some(c) == killers[0] {
                    s += 3000;
                } else if Some(c) == killers[1] {
                    s += 2000;
                }
                s
            };
        }
        self.h.killers.reset(ply + 2);

        let mut node = NodeBest::new(-INFINITE, alpha);
        let mut moves_done = 0usize;
        let mut quiets: Quiets<Cell, 32> = Quiets::new();
        let lmp_limit = 3 + (depth * depth) as usize;
        // Under renju, quiet moves the ordering scores far down (below -10,000: about two
        // thirds of the moves reduced) are reduced one ply more. 15x15 renju self-play at
        // 100 ms a turn: +18.3 [+3.2, +33.4] (SPRT H1, 266 games) and +11.0 [-4.6, +26.7]
        // (600 games). In 15x15 freestyle the same ply lost (-20.2 [-55.4, +14.5], 172
        // games), so other rules keep the plain reduction.
        let renju = self.pos.board.rule() == Rule::Renju;
        let deep_cut = if renju { -10_000 } else { i32::MIN };
        let mut picker = MovePicker::new(&mut moves);
        while let Some((mv, order)) = picker.next_move() {
            let tactical = forced || !free || is_tactical(&self.pos, mv, us);
            if !pv_node
                && free
                && !tactical
                && depth <= 5
                && moves_done >= lmp_limit
                && node.score > -MATE_BOUND
            {
                continue;
            }
            // Forced replies, and moves that make an open three (a threat the opponent
            // must answer next move), are searched one ply deeper: the line stays as long as
            // the threat sequence it starts. Self-play at 100 ms a turn: +21 Elo in 15x15
            // renju (1,200 games, two seeds), +67 [+29, +106] in 15x15 freestyle (SPRT).
            let own_class = self.pos.board.threat(mv, us);
            let makes_three = (Threat::Flex3..=Threat::Flex3x2).contains(&own_class);
            // Late-move reductions take quiet moves and, outside renju, every move of a
            // free node short of the side's own four (threes and blocks of the opponent's
            // threes too). See docs/gomoku-experiments.md: 15x15 freestyle at 100 ms a turn
            // gained, renju lost.
            let reducible = if renju {
                !tactical
            } else {
                free && own_class < Threat::Block4
            };
            self.pos.play(mv);
            moves_done += 1;
            let new_depth = if (forced || makes_three) && ply < 2 * MAX_PLY / 3 {
                depth
            } else {
                depth - 1
            };
            let v;
            if moves_done == 1 {
                v = -self.search(-beta, -node.alpha, new_depth, ply + 1, !pv_node && !cut);
            } else {
                let mut r = 0;
                if depth >= 3 && reducible && Some(mv) != killers[0] && Some(mv) != killers[1] {
                    let history = self.h.history.get(us.index(), mv.index());
                    r = late_move_reduction(
                        lmr(depth, moves_done) + (order < deep_cut) as i32,
                        pv_node,
                        cut,
                        history / 4000,
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
                    !cut,
                );
            }
            self.pos.undo();
            if self.ctr.stopped {
                break;
            }
            if !tactical {
                quiets.push(mv);
            }
            if node.take(v, mv, beta, pv_node.then_some(&mut self.pv), ply) {
                break;
            }
        }
        self.move_lists[ply] = moves;
        if self.ctr.stopped {
            return 0;
        }
        if moves_done == 0 {
            return node.alpha;
        }
        let (best, best_move) = (node.score, node.mv);
        if best >= beta
            && let Some(bm) = best_move
        {
            let history = &mut self.h.history;
            quiets.reward(
                |q| q == bm,
                history_bonus(depth, 16),
                |q, bonus| history.update(us.index(), q.index(), bonus),
            );
            self.h.killers.add(ply, bm);
        }
        let bound = node_bound(best, beta, pv_node && best_move.is_some());
        self.sh.tt.store(
            key,
            TtData {
                move_bits: best_move.map_or(0, |m| m.to_bits()),
                score: score_to_tt(best, ply),
                eval: eval.clamp(-EVAL_LIMIT, EVAL_LIMIT) as i16,
                depth: depth.clamp(0, 120) as i8,
                bound,
            },
        );
        best
    }

    /// The quiescence stage: static wins, forced blocks, a short VCF, then the evaluation as a
    /// stand-pat score that the side to move's own fours may raise (each answered by its
    /// forced block), as captures do in chess. Only fours near the side's last stone
    /// (`last_four`, or its last move before the stage) are tried, past the first only those
    /// that also make a three or two, up to `quiet_four_plies` plies into the stage.
    fn qsearch(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
        last_four: Option<Cell>,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv.clear(ply);
        if self.ctr.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some((plies, c)) = static_win(&mut self.pos) {
            self.pv.set_single(ply, c);
            return mate_in(ply + plies);
        }
        if ply >= MAX_PLY - 8 || self.pos.board.is_full() {
            return evaluate(&self.pos);
        }
        let state = generate(&mut self.pos);
        match state {
            Gen::Lost(plies) => return mated_in(ply + plies),
            Gen::Forced(c) if qply < 16 => {
                self.pos.play(c);
                let v = -self.qsearch(-beta, -alpha, ply + 1, qply + 1, last_four);
                self.pos.undo();
                if pv_node && !self.ctr.stopped {
                    self.pv.update(ply, c);
                }
                return v;
            }
            _ => {}
        }
        let us = self.pos.us();
        let (qvcf_nodes, qvcf_depth) = self.sh.game.qvcf;
        if qvcf_nodes > 0
            && four_cells(&self.pos, us) > 0
            && ply + 2 * qvcf_depth as usize + 2 < MAX_PLY
        {
            let mut capped = SubBudget {
                inner: &mut self.ctr,
                left: qvcf_nodes,
            };
            let mut ts = ThreatSearch::new(&mut self.pos, &mut capped, &mut self.cache);
            let found = ts.vcf_attack(qvcf_depth, 0);
            let len = ts.line.len();
            if found {
                return mate_in(ply + len);
            }
            if self.ctr.stopped {
                return 0;
            }
        }
        let stand = evaluate(&self.pos);
        if stand >= beta
            || qply >= self.sh.game.quiet_four_plies
            || matches!(state, Gen::Forced(_))
            || four_cells(&self.pos, us) == 0
        {
            return stand;
        }
        // Fours near the side to move's last stone (a 5x5 square or a line within four); past
        // the first, only fours that also make a three or two.
        let anchor = last_four.or_else(|| self.pos.board.moves().rev().nth(1).map(|(c, _)| c));
        let Some(anchor) = anchor else {
            return stand;
        };
        let min_class = if qply >= 2 {
            Threat::Block4Plus
        } else {
            Threat::Block4
        };
        let mut fours = Vec::with_capacity(8);
        let pos = &self.pos;
        pos.cells_with(us, min_class, &mut fours);
        fours.retain(|&c| {
            let (dx, dy) = (anchor.x().abs_diff(c.x()), anchor.y().abs_diff(c.y()));
            (dx.max(dy) <= 2 || in_line_window(anchor, c)) && !forbidden_for(pos, c, us)
        });
        fours.sort_by_cached_key(|&c| (std::cmp::Reverse(order_value(pos, c, us)), c.index()));
        let mut best = stand;
        alpha = alpha.max(stand);
        for c in fours {
            self.pos.play(c);
            let v = -self.qsearch(-beta, -alpha, ply + 1, qply + 1, Some(c));
            self.pos.undo();
            if self.ctr.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if pv_node {
                        self.pv.update(ply, c);
                    }
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// The picker hands out exactly the order of a full sort by score (descending) and cell
    /// index, for lists shorter and longer than its selection stage and with many ties.
    #[test]
    fn picker_order_is_the_full_sort() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(37);
        for _ in 0..2_000 {
            let len = rng.random_range(0..40usize);
            let mut cells: Vec<usize> = (0..225).collect();
            let mut moves = Vec::with_capacity(len);
            for _ in 0..len {
                let i = cells.swap_remove(rng.random_range(0..cells.len()));
                let cell = Cell::from_xy(i % 15, i / 15).expect("on the board");
                moves.push((cell, rng.random_range(-4..4) * 1000));
            }
            let mut sorted = moves.clone();
            sorted.sort_unstable_by_key(|m| (std::cmp::Reverse(m.1), m.0.index()));
            let mut picker = MovePicker::new(&mut moves);
            let mut picked = Vec::new();
            while let Some(m) = picker.next_move() {
                picked.push(m);
            }
            assert_eq!(picked, sorted);
        }
    }
}
