//! The game-neutral state of a game's searcher: between searches, the shared transposition
//! table, the number of search threads, and one set of move-ordering tables per thread,
//! with their set-up, resizing, ageing and reset ([`SearchTables`]); during a search, what
//! all its threads share ([`SearchShared`]) and the Lazy SMP run over them.
//!
//! A game's `Searcher` holds a [`SearchTables`] over its own per-thread tables (which
//! implement [`ThreadTables`]) next to whatever else is its own (a network, a cache), and
//! builds a [`SearchShared`] with its own per-search data for each search.

use super::smp::{NodeCounter, SmpShared, lazy_smp};
use super::tt::{TableAllocError, TranspositionTable};
use super::{SearchControl, SearchOutcome};

/// Most search threads a searcher is set to.
pub const MAX_THREADS: usize = 256;

/// One search thread's own tables (history, killers, ...): kept from one search to the
/// next, aged as a search starts, cleared for a new game.
pub trait ThreadTables: Send {
    /// Empty tables.
    fn new_tables() -> Self;
    /// Forgets everything (a new game).
    fn clear(&mut self);
    /// Lets old knowledge fade (a search starts).
    fn age(&mut self);
}

/// The transposition table, the thread count and one `H` per thread.
pub struct SearchTables<H> {
    /// The table all threads share.
    pub tt: TranspositionTable,
    threads: usize,
    /// Each thread's tables; as many as threads once [`SearchTables::start_search`] ran.
    pub heuristics: Vec<H>,
}

impl<H: ThreadTables> SearchTables<H> {
    /// A table of `hash_mb` megabytes and `threads` threads (taken between 1 and
    /// [`MAX_THREADS`]).
    pub fn new(hash_mb: usize, threads: usize) -> SearchTables<H> {
        let threads = threads.clamp(1, MAX_THREADS);
        SearchTables {
            tt: TranspositionTable::new(hash_mb),
            threads,
            heuristics: (0..threads).map(|_| H::new_tables()).collect(),
        }
    }

    /// Replaces the hash table with one of `mb` megabytes (its contents are lost). When the
    /// memory cannot be had, the old table stays and the error says so.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), TableAllocError> {
        self.tt = TranspositionTable::try_new(mb)?;
        Ok(())
    }

    /// Sets the number of search threads (taken between 1 and [`MAX_THREADS`]).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
        self.heuristics.resize_with(self.threads, H::new_tables);
    }

    /// Forgets the table and every thread's tables.
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.heuristics {
            h.clear();
        }
    }

    /// Readies the tables for a new search: a new table generation, one set of tables per
    /// thread, each aged.
    pub fn start_search(&mut self) {
        self.tt.new_search();
        if self.heuristics.len() != self.threads {
            self.heuristics.resize_with(self.threads, H::new_tables);
        }
        for h in &mut self.heuristics {
            h.age();
        }
    }
}

/// What all threads of one search share: the table, the control with the limits, the
/// helpers' stop flag with the node count, and the game's own per-search data `G` (options
/// of this search, the evaluation in use, ...).
pub struct SearchShared<'a, G> {
    /// The table all threads read and write.
    pub tt: &'a TranspositionTable,
    /// The limits and the stop request.
    pub control: &'a SearchControl,
    /// The helpers' stop flag and the node count of all threads.
    pub smp: SmpShared,
    /// The game's own data for this search.
    pub game: G,
}

impl<'a, G> SearchShared<'a, G> {
    /// A fresh search over `tt` under `control`, with the game's data `game`.
    pub fn new(tt: &'a TranspositionTable, control: &'a SearchControl, game: G) -> Self {
        SearchShared {
            tt,
            control,
            smp: SmpShared::new(),
            game,
        }
    }

    /// The node counter of thread `id` (0 the main thread), polling every `BATCH` nodes.
    pub fn counter<const BATCH: u64>(&self, id: usize) -> NodeCounter<'_, BATCH> {
        NodeCounter::for_thread(&self.smp, self.control, id)
    }

    /// Runs the search on `threads` (each thread's own tables, at least one) by
    /// [`lazy_smp`]: `helper(id, tables)` on the helpers, `main(tables)` on the calling
    /// thread; returns the main thread's outcome with the nodes of all threads.
    pub fn lazy_smp<T: Send, M>(
        &self,
        threads: &mut [T],
        helper: impl Fn(usize, &mut T) + Sync,
        main: impl FnOnce(&mut T) -> SearchOutcome<M>,
    ) -> SearchOutcome<M> {
        let Some(outcome) = lazy_smp(&self.smp, self.control, threads, helper, main) else {
            unreachable!("there is always at least one thread")
        };
        SearchOutcome {
            nodes: self.smp.nodes(),
            ..outcome
        }
    }
}
