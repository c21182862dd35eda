//! The Xiangqi search: iterative deepening with aspiration windows over a principal
//! variation search, quiescence, a shared transposition table and Lazy SMP.
//!
//! [`Searcher`] owns the table and the per-thread heuristic tables (the engine's
//! [`SearchTables`]) and the evaluation network; `search` runs one search on the calling
//! thread (plus helper threads when more than one is configured) and reports plain structs.
//! The search thread drives it through its `impl Search` (the engine's game-agnostic trait),
//! here beside it. With one thread and no randomness the search depends only on the game, the
//! parameters, the table contents and the limits in nodes or depth, never on the clock, so a
//! fixed node count gives the same result every time.

mod correction;
pub mod eval;
pub mod ordering;
pub mod see;
mod tree;
pub mod weights;

use crate::engine::score::{self, RootMove};
use crate::engine::searcher::{SearchShared, SearchTables};
use crate::engine::tt::TtBound;
use crate::engine::{Bound, Score, SearchControl, SearchInfo, SearchOutcome};
use crate::xiangqi::movegen::MoveList;
use crate::xiangqi::nnue::Network;
use crate::xiangqi::{Game, Move, Position};
use std::sync::Arc;

use ordering::Heuristics;
use tree::Worker;

/// Internal evaluation units per reported centipawn (a horse is about 400 inside).
pub const UNITS_PER_CP: i32 = 4;

/// What to search for, beyond the limits held by the `SearchControl`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Number of principal variations to report (at least 1 is used).
    pub multipv: u32,
    /// Moves that must not be played at the root (UCCI `banmoves`).
    pub banned: Vec<Move>,
    /// When not empty, only these root moves are searched (UCI `searchmoves`).
    pub searchmoves: Vec<Move>,
    /// 0 = off; otherwise root move scores get a seeded noise of up to this many centipawns.
    pub randomness: u32,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            multipv: 1,
            banned: Vec::new(),
            searchmoves: Vec::new(),
            randomness: 0,
        }
    }
}

/// What the transposition table knows about a position (for UCCI `probe` / `pophash`).
/// Scores are in reported centipawns, from the side to move's point of view; a mate score
/// keeps the internal form `±(30000 - plies to mate)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashProbe {
    /// The stored best move, if it is legal here.
    pub best: Option<Move>,
    /// `(score, depth)` when the stored score is a lower bound (or exact).
    pub lower: Option<(Score, u32)>,
    /// `(score, depth)` when the stored score is an upper bound (or exact).
    pub upper: Option<(Score, u32)>,
}

/// What Xiangqi adds to the data every search thread shares.
pub(crate) struct GameShared<'a> {
    /// MultiPV lines to search (at least 1, at most the root moves).
    pub multipv: usize,
    /// Largest root-score noise in internal units (0: none).
    pub randomness: i32,
    /// Seed of the root-score noise.
    pub seed: u64,
    /// Plies without a capture that draw the game (0 = no limit).
    pub no_capture_limit: u32,
    /// The network that evaluates, or `None` for the tuned evaluation.
    pub network: Option<&'a Network>,
}

/// Data every search thread shares.
pub(crate) type Shared<'a> = SearchShared<'a, GameShared<'a>>;

/// The Xiangqi searcher: owns its transposition table and heuristic tables. `Send`.
pub struct Searcher {
    tables: SearchTables<Box<Heuristics>>,
    /// The evaluation network, `None` for the tuned evaluation (the default).
    network: Option<Arc<Network>>,
}

/// Converts an internal score to the reported form.
pub(crate) fn report_score(v: i32) -> Score {
    score::report_score(v, UNITS_PER_CP)
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes and `threads` search threads.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tables: SearchTables::new(hash_mb, threads),
            network: None,
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

    /// Chooses the evaluation: `Some` network, or `None` for the tuned evaluation. The table
    /// keeps static evaluations, so it is cleared when the evaluation changes.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        let same = match (&self.network, &network) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.network = network;
            self.clear();
        }
    }

    /// The evaluation network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Forgets everything learnt: for a new game or "Clear Hash".
    pub fn clear(&mut self) {
        self.tables.clear();
    }

    /// What the table holds for `pos`.
    pub fn probe(&self, pos: &Position) -> Option<HashProbe> {
        let data = self.tables.tt.probe(pos.key())?;
        let best = Move::from_bits(data.move_bits).filter(|&m| pos.is_legal(m));
        // Probed at the root (ply 0), so the stored mate distance needs no adjustment.
        let reported = report_score(data.score as i32);
        let depth = data.depth.max(0) as u32;
        let lower =
            matches!(data.bound, TtBound::Lower | TtBound::Exact).then_some((reported, depth));
        let upper =
            matches!(data.bound, TtBound::Upper | TtBound::Exact).then_some((reported, depth));
        Some(HashProbe { best, lower, upper })
    }

    /// Searches the game's current position under `control`'s limits. Reports each
    /// completed iteration (one `SearchInfo` per MultiPV line) through `report`; returns the
    /// best move (`None` when no legal move is allowed). In ponder or infinite mode it waits
    /// for `stop` or `ponderhit` before returning.
    pub fn search(
        &mut self,
        game: &Game,
        params: &SearchParams,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchInfo<Move>),
    ) -> SearchOutcome<Move> {
        let root = game.position().clone();
        let mut legal = MoveList::new();
        root.clone().generate_legal(&mut legal);
        let allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !params.banned.contains(m))
            .filter(|m| params.searchmoves.is_empty() || params.searchmoves.contains(m))
            .collect();
        if allowed.is_empty() {
            control.wait_for_release();
            return SearchOutcome {
                best: None,
                ponder: None,
                score: if legal.is_empty() {
                    Score::MatePlies(0)
                } else {
                    Score::Cp(0)
                },
                depth: 0,
                nodes: 0,
            };
        }

        self.tables.start_search();
        let seed = if params.randomness > 0 {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9e37_79b9, |d| d.as_nanos() as u64)
        } else {
            0
        };
        let shared = Shared::new(
            &self.tables.tt,
            control,
            GameShared {
                multipv: (params.multipv.max(1) as usize).min(allowed.len()),
                randomness: (params.randomness.min(1000) as i32) * UNITS_PER_CP,
                seed,
                no_capture_limit: game.no_capture_limit(),
                network: self.network.as_deref(),
            },
        );
        let root_moves: Vec<RootMove<Move>> = allowed.iter().map(|&m| RootMove::new(m)).collect();
        let shared_ref = &shared;
        shared.lazy_smp(
            &mut self.tables.heuristics,
            |id, h| {
                let mut worker = Worker::new(shared_ref, root.clone(), root_moves.clone(), h, id);
                worker.iterate(None);
            },
            |h| {
                let mut worker = Worker::new(shared_ref, root.clone(), root_moves.clone(), h, 0);
                let outcome = worker.iterate(Some(report));
                control.wait_for_release();
                outcome
            },
        )
    }
}

/// The search thread drives the searcher through the engine layer's game-agnostic trait.
impl crate::engine::Search for Searcher {
    type Game = Game;
    type Params = SearchParams;
    type Move = Move;

    fn run(
        &mut self,
        game: &Game,
        params: &SearchParams,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchInfo<Move>),
    ) -> SearchOutcome<Move> {
        self.search(game, params, control, report)
    }
}

/// Builds one report line.
#[allow(clippy::too_many_arguments)]
pub(crate) fn info_line(
    depth: u32,
    seldepth: u32,
    multipv: u32,
    score: i32,
    bound: Bound,
    nodes: u64,
    control: &SearchControl,
    hashfull: u32,
    pv: Vec<Move>,
) -> SearchInfo<Move> {
    SearchInfo {
        depth,
        seldepth,
        multipv,
        score: report_score(score),
        bound,
        nodes,
        time_ms: control.elapsed_ms(),
        hashfull,
        pv,
    }
}
