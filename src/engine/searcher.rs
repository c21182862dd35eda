//! The game-neutral state a game's searcher owns between searches: the shared transposition
//! table, the number of search threads, and one set of move-ordering tables per thread,
//! with their set-up, resizing, ageing and reset.
//!
//! A game's `Searcher` holds a [`SearchTables`] over its own per-thread tables (which
//! implement [`ThreadTables`]) next to whatever else is its own (a network, a cache).

use super::tt::{TableAllocError, TranspositionTable};

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
