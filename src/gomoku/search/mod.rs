//! The Gomoku search: static win checks and threat-state move generation from the board's
//! incremental threat classes, a principal variation search with iterative deepening,
//! aspiration windows, the shared transposition table, killers, history and late-move
//! reductions, a quiescence stage (static wins, forced blocks, optionally a short VCF), root
//! VCF and VCT stages, and Lazy SMP.
//!
//! [`Searcher`] owns the table and the per-thread heuristic tables (the engine's
//! [`SearchTables`]) and the threat searches' cache; the search thread drives it through its
//! `impl Search`, here beside it.
//!
//! With one thread the search depends only on the board, the parameters, the table contents
//! and the limits in nodes or depth, never on the clock: a fixed node count gives the same
//! result every time.

pub mod bench;
pub mod eval;
pub mod movegen;
pub mod pos;
pub mod threat;
pub mod trace;
mod tree;
pub mod weights;

use crate::engine::history::{History, Killers};
use crate::engine::score::{INFINITE, RootMove, mate_in, report_score};
use crate::engine::searcher::{SearchShared, SearchTables, ThreadTables};
use crate::engine::{Bound, Score, SearchControl, SearchInfo, SearchOutcome};
use crate::gomoku::types::CELLS;
use crate::gomoku::{Board, Cell};

pub use bench::{BenchReport, bench};
use movegen::{Gen, forbidden_for, generate, order_value, static_win};
use pos::Pos;
use threat::{FailCache, ThreatSearch, Tick, still_loses, threat_win};
use tree::{Counter, Worker};

/// Internal units per reported point.
pub const UNITS_PER_CP: i32 = 1;

/// What to search for, beyond the limits held by the `SearchControl`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Run the VCT stage at the root before the main search.
    pub vct: bool,
    /// Node budget of the root VCF stage.
    pub vcf_nodes: u64,
    /// Node budget of the root VCT stage.
    pub vct_nodes: u64,
    /// Node budget of each VCF run in the quiescence stage (0: no VCF there, only the static
    /// win checks and the forced blocks). Off by default: in self-play at 100 ms a move the
    /// engine without it beat 400-node (70% renju), 100-node (65% renju, 65% freestyle) and
    /// 30-node (56% renju, 50% freestyle) budgets, 40 games each.
    pub qvcf_nodes: u64,
    /// Four moves a quiescence VCF may chain.
    pub qvcf_depth: u32,
    /// Plies into the quiescence stage (own fours and their forced blocks) up to which the
    /// side to move's fours may raise the stand-pat score (0: none are tried). 8 by default:
    /// 15x15 freestyle self-play at 100 ms a turn against the stage without fours,
    /// +68.6 [+30.6, +108.4] (SPRT H1 after 200 games).
    pub quiet_four_plies: u32,
    /// Node budget of the root defence stage (0: off): when the opponent, given a free move,
    /// wins by VCF (or VCT), only the root moves after which it no longer does are searched.
    /// Off by default: at 20,000 nodes a move in 15x15 freestyle self-play (82 games against
    /// the engine without it) the VCF and VCT version scored 50.0% (+0 ±52 Elo) and the VCF
    /// only version 48.8% (-8.5 ±20); against AIWine at 200 ms a move neither was better.
    pub defend_nodes: u64,
    /// The root defence stage also looks for the opponent's VCT (off: VCF only; a VCT
    /// check per root move costs thousands of nodes).
    pub defend_vct: bool,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            vct: true,
            vcf_nodes: 100_000,
            vct_nodes: 50_000,
            qvcf_nodes: 0,
            qvcf_depth: 3,
            quiet_four_plies: 8,
            defend_nodes: 0,
            defend_vct: false,
        }
    }
}

/// Per-thread move-ordering tables: kept between searches, cleared on a new game.
pub struct Heuristics {
    /// `[colour][cell index]`.
    pub history: Box<History<2, CELLS>>,
    /// Two moves per ply that caused a cutoff.
    pub killers: Killers<Cell>,
}

impl ThreadTables for Heuristics {
    fn new_tables() -> Heuristics {
        Heuristics {
            history: Box::new(History::new()),
            killers: Killers::new(),
        }
    }

    fn clear(&mut self) {
        self.history.clear();
        self.killers.clear();
    }

    /// Halves the history between searches.
    fn age(&mut self) {
        self.history.age();
        self.killers.clear();
    }
}

/// What Gomoku adds to the data every search thread shares.
pub(crate) struct GameShared {
    /// Quiescence VCF budget in nodes and four moves.
    pub qvcf: (u64, u32),
    /// Plies of the quiescence stage in which own fours are tried.
    pub quiet_four_plies: usize,
}

/// Data every search thread shares.
pub(crate) type Shared<'a> = SearchShared<'a, GameShared>;

/// The Gomoku searcher: owns its transposition table and heuristic tables. `Send`.
pub struct Searcher {
    tables: SearchTables<Heuristics>,
    cache: FailCache,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes and `threads` search threads.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tables: SearchTables::new(hash_mb, threads),
            cache: FailCache::new(),
        }
    }

    /// Replaces the hash table with one of `mb` megabytes (its contents are lost). When the
    /// memory cannot be had, the old table stays and the error says so.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), crate::engine::tt::TableAllocError> {
        self.tables.set_hash_mb(mb)
    }

    /// Sets the number of search threads (at least one).
    pub fn set_threads(&mut self, n: usize) {
        self.tables.set_threads(n);
    }

    /// Forgets everything learnt: for a new game.
    pub fn clear(&mut self) {
        self.tables.clear();
        self.cache.clear();
    }

    /// Searches `board`'s side to move under `control`'s limits (depth, nodes, time), reports
    /// one `SearchInfo` per finished iteration, returns the move (`None` only on a full
    /// board). In ponder or infinite mode it waits for `stop` or `ponderhit` before returning.
    pub fn search(
        &mut self,
        board: &Board,
        params: &SearchParams,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchInfo<Cell>),
    ) -> SearchOutcome<Cell> {
        let outcome = self.search_inner(board, params, control, report);
        control.wait_for_release();
        outcome
    }

    fn search_inner(
        &mut self,
        board: &Board,
        params: &SearchParams,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchInfo<Cell>),
    ) -> SearchOutcome<Cell> {
        let mut pos = Pos::new(board);
        if board.is_full() {
            return SearchOutcome {
                best: None,
                ponder: None,
                score: Score::Cp(0),
                depth: 0,
                nodes: 0,
            };
        }
        self.tables.start_search();
        let us = pos.us();
        let shared = Shared::new(
            &self.tables.tt,
            control,
            GameShared {
                qvcf: (params.qvcf_nodes, params.qvcf_depth.min(16)),
                quiet_four_plies: params.quiet_four_plies.min(32) as usize,
            },
        );
        let instant = |best: Cell,
                       score: i32,
                       pv: Vec<Cell>,
                       nodes: u64,
                       report: &mut dyn FnMut(SearchInfo<Cell>)| {
            let score = report_score(score, UNITS_PER_CP);
            report(SearchInfo {
                depth: 1,
                seldepth: pv.len() as u32,
                multipv: 1,
                score,
                bound: Bound::Exact,
                nodes,
                time_ms: control.elapsed_ms(),
                hashfull: 0,
                pv: pv.clone(),
            });
            SearchOutcome {
                best: Some(best),
                ponder: pv.get(1).copied(),
                score,
                depth: 1,
                nodes,
            }
        };

        // Wins by the classes alone, then the forced move.
        if let Some((plies, c)) = static_win(&mut pos) {
            return instant(c, mate_in(plies), vec![c], 1, report);
        }
        let state = generate(&mut pos);
        if let Gen::Forced(c) = state {
            let mut counter = Counter::new(&shared.smp, control);
            counter.tick();
            counter.flush();
            return instant(c, evaluate_after(&mut pos, c), vec![c], 1, report);
        }

        // Root VCF, then VCT.
        let vcf_line = {
            let mut counter = Counter::new(&shared.smp, control);
            let mut capped = RootBudget::new(&mut counter, control, params.vcf_nodes, 10);
            let mut ts = ThreatSearch::new(&mut pos, &mut capped, &mut self.cache);
            let line = if ts.vcf(64) {
                std::mem::take(&mut ts.line)
            } else {
                Vec::new()
            };
            counter.flush();
            line
        };
        if let Some(&first) = vcf_line.first() {
            let nodes = shared.smp.nodes();
            return instant(first, mate_in(vcf_line.len()), vcf_line, nodes, report);
        }
        if params.vct && params.vct_nodes > 0 && !matches!(state, Gen::Lost(_)) {
            let mut counter = Counter::new(&shared.smp, control);
            let mut capped = RootBudget::new(&mut counter, control, params.vct_nodes, 25);
            let mut ts = ThreatSearch::new(&mut pos, &mut capped, &mut self.cache);
            let found = ts.vct(12).and_then(|plies| ts.vct_move.map(|c| (c, plies)));
            counter.flush();
            if let Some((c, plies)) = found {
                let nodes = shared.smp.nodes();
                return instant(c, mate_in(plies), vec![c], nodes, report);
            }
        }

        // Root moves by the threat state, ordered.
        let free = matches!(state, Gen::All);
        let mut cells: Vec<Cell> = match state {
            Gen::Defend(list) => list,
            _ => {
                let mut all = Vec::new();
                pos.for_each_candidate(|c| {
                    if !forbidden_for(&pos, c, us) {
                        all.push(c);
                    }
                });
                all
            }
        };
        if cells.is_empty() {
            // Only forbidden points near the stones: any free point that is not.
            cells = board
                .empty_cells()
                .filter(|&c| !forbidden_for(&pos, c, us))
                .take(1)
                .collect();
            if cells.is_empty() {
                cells = board.empty_cells().take(1).collect();
            }
        }
        cells.sort_unstable_by_key(|&c| (std::cmp::Reverse(order_value(&pos, c, us)), c.index()));
        if params.defend_nodes > 0 && free && cells.len() > 1 {
            let mut counter = Counter::new(&shared.smp, control);
            let mut capped = RootBudget::new(&mut counter, control, params.defend_nodes, 30);
            cells = refuting_moves(&mut pos, cells, params, &mut capped, &mut self.cache);
            counter.flush();
        }
        let root_moves: Vec<RootMove<Cell>> = cells.iter().map(|&c| RootMove::new(c)).collect();
        if root_moves.len() == 1 {
            let c = root_moves[0].mv;
            return instant(c, evaluate_after(&mut pos, c), vec![c], 1, report);
        }

        let shared_ref = &shared;
        shared.lazy_smp(
            &mut self.tables.heuristics,
            |id, h| {
                let mut moves = root_moves.clone();
                // Helpers start from a different move order too.
                let k = id % moves.len().min(4);
                moves.swap(0, k);
                let mut worker = Worker::new(shared_ref, pos.clone(), moves, h, id);
                worker.iterate(None);
            },
            |h| {
                let mut worker = Worker::new(shared_ref, pos.clone(), root_moves.clone(), h, 0);
                worker.iterate(Some(report))
            },
        )
    }
}

/// The root moves after which the opponent has no VCF (then no VCT) that it would have
/// with a free move; all of them when none refutes or the opponent has no such threat.
fn refuting_moves<T: Tick>(
    pos: &mut Pos,
    mut cells: Vec<Cell>,
    params: &SearchParams,
    ticker: &mut T,
    cache: &mut FailCache,
) -> Vec<Cell> {
    let them = pos.us().flip();
    for vct in [false, true] {
        if vct && !(params.vct && params.defend_vct) {
            break;
        }
        let (probe, per_move) = if vct {
            (20_000, 3_000)
        } else {
            (10_000, 1_000)
        };
        if !threat_win(pos, them, ticker, cache, vct, probe) {
            continue;
        }
        let keep: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&c| !still_loses(pos, c, ticker, cache, vct, per_move))
            .collect();
        if !keep.is_empty() {
            cells = keep;
        }
    }
    cells
}

/// The evaluation after `cell` is played, from the mover's side.
fn evaluate_after(pos: &mut Pos, cell: Cell) -> i32 {
    pos.play(cell);
    let v = -eval::evaluate(pos);
    pos.undo();
    v.clamp(-INFINITE + 1, INFINITE - 1)
}

/// A node and time budget for a root threat stage on top of the thread's counter.
struct RootBudget<'c, 'a> {
    inner: &'c mut Counter<'a>,
    control: &'c SearchControl,
    left: u64,
    /// Stop after this many ms on the clock (`u64::MAX`: no time budget).
    until_ms: u64,
}

impl<'c, 'a> RootBudget<'c, 'a> {
    /// `nodes` at most, and at most `percent` of the soft time limit (of the node limit too).
    fn new(
        inner: &'c mut Counter<'a>,
        control: &'c SearchControl,
        nodes: u64,
        percent: u64,
    ) -> RootBudget<'c, 'a> {
        let soft = control.soft_ms();
        let until_ms = if soft == u64::MAX {
            u64::MAX
        } else {
            soft.saturating_mul(percent) / 100
        };
        let limit = control.node_limit();
        let nodes = if limit == u64::MAX {
            nodes
        } else {
            nodes.min(limit.saturating_mul(percent) / 100)
        };
        RootBudget {
            inner,
            control,
            left: nodes,
            until_ms,
        }
    }
}

impl Tick for RootBudget<'_, '_> {
    #[inline]
    fn tick(&mut self) -> bool {
        if self.left == 0 {
            return true;
        }
        self.left -= 1;
        if self.until_ms != u64::MAX
            && self.left.is_multiple_of(128)
            && self.control.clock_elapsed_ms() >= self.until_ms
            && !self.control.pondering()
        {
            self.left = 0;
            return true;
        }
        self.inner.tick()
    }
}

impl crate::engine::Search for Searcher {
    type Game = Board;
    type Params = SearchParams;
    type Move = Cell;

    fn run(
        &mut self,
        game: &Board,
        params: &SearchParams,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchInfo<Cell>),
    ) -> SearchOutcome<Cell> {
        self.search(game, params, control, report)
    }
}

/// The side to move's VCF on `board` (attacker's fours and the forced blocks alternating,
/// ending with the five or with a block black may not play), searched within `max_nodes`.
/// The board is returned unchanged.
pub fn vcf(board: &mut Board, max_nodes: u64) -> Option<Vec<Cell>> {
    let mut pos = Pos::new(board);
    threat::vcf_line(&mut pos, max_nodes)
}
