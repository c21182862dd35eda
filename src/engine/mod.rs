//! The game-agnostic engine layer: search limits, the shared search control (stop flag,
//! ponder state, soft and hard deadlines), the plain structs a search reports, and every
//! part of an alpha-beta search that does not depend on the game.
//!
//! This layer knows no game and no protocol text. Games implement their searches against
//! [`SearchControl`] and report [`SearchInfo`] / [`SearchOutcome`]; protocol modules format them.
//!
//! The shared search parts, generic over the game's move type and monomorphised:
//! - [`searcher`]: what a searcher owns between searches (table, threads, per-thread tables);
//! - [`smp`]: the Lazy SMP harness and the per-thread node counter;
//! - [`deepening`]: iterative deepening at the root (windows, time, outcome);
//! - [`node`]: one node's steps (table cut-off, stored bound, PV table, PVS, best move);
//! - [`history`]: history and killer tables;
//! - [`score`] and [`tt`]: mate scores and the transposition table.

pub mod control;
pub mod deepening;
pub mod history;
pub mod node;
pub mod score;
pub mod searcher;
pub mod smp;
pub mod tt;
pub mod worker;
pub mod zobrist;

pub use control::{Clock, Limits, SearchControl};
pub use worker::{Search, SearchEvent, spawn_search, spawn_search_with};

/// A search score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units (a horse or cannon is about 100).
    Cp(i32),
    /// A forced mate: positive when the side to move mates in that many plies, negative when
    /// it is mated in that many plies. Protocols convert plies to moves as they need.
    MatePlies(i32),
}

impl Score {
    /// The number of moves of a mate the side to move gives within `moves` of its own moves
    /// (`go mate N`), or `None` when the score is not such a mate.
    pub fn mate_within(self, moves: u32) -> Option<u32> {
        match self {
            Score::MatePlies(plies) if plies > 0 && i64::from(plies) < 2 * i64::from(moves) => {
                Some((plies as u32).div_ceil(2))
            }
            _ => None,
        }
    }
}

/// Whether a reported score is exact or only a bound (a root window that failed high or low
/// in a long search; the search goes on with a wider window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One progress report of a running search (an `info` line), for one principal variation.
/// `M` is the game's move type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
    /// Completed nominal depth.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// 1-based index of this line for MultiPV.
    pub multipv: u32,
    /// Score of the line.
    pub score: Score,
    /// Exactness of the score.
    pub bound: Bound,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table fill in permille.
    pub hashfull: u32,
    /// The principal variation, first move first.
    pub pv: Vec<M>,
}

/// The final answer of a search (the `bestmove` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome<M> {
    /// The move to play; `None` when the side to move has no legal move (or none allowed).
    pub best: Option<M>,
    /// The expected reply, for pondering.
    pub ponder: Option<M>,
    /// Score of the best line (for draw offers and resignation).
    pub score: Score,
    /// Completed depth.
    pub depth: u32,
    /// Total nodes searched.
    pub nodes: u64,
}

/// The result of a game's bench run (`qilin bench`): nodes per fixed position, searched to a
/// fixed depth on one thread; the total is the search's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Each position's description (a FEN, or a board and its moves) with its nodes.
    pub positions: Vec<(String, u64)>,
    /// Sum of the nodes.
    pub total_nodes: u64,
    /// Wall time of the whole run in milliseconds.
    pub elapsed_ms: u64,
    /// Nodes per second over the run.
    pub nps: u64,
}

impl BenchReport {
    /// The report of `positions` searched in `elapsed_ms`.
    pub fn new(positions: Vec<(String, u64)>, elapsed_ms: u64) -> BenchReport {
        let total_nodes = positions.iter().map(|(_, nodes)| nodes).sum();
        BenchReport {
            positions,
            total_nodes,
            elapsed_ms,
            nps: total_nodes * 1000 / elapsed_ms.max(1),
        }
    }
}
