//! The Lazy SMP harness, game-neutral: every thread searches the same root with its own
//! heuristic tables and the shared transposition table; the main thread reports and
//! decides when to stop, the helpers stop when it is done. Threads share a stop flag and a
//! node count, to which each adds its nodes in batches.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::SearchControl;

/// What all threads of one search share besides the table: the helpers' stop flag and
/// the node count.
#[derive(Debug, Default)]
pub struct SmpShared {
    /// Set when the main thread is done, to stop the helpers.
    pub stop: AtomicBool,
    /// Nodes of all threads (each thread adds its count in batches).
    pub nodes: AtomicU64,
}

impl SmpShared {
    /// A fresh flag and count.
    pub fn new() -> SmpShared {
        SmpShared::default()
    }

    /// True once the main thread finished.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Adds `n` nodes and returns the new total.
    #[inline]
    pub fn add_nodes(&self, n: u64) -> u64 {
        self.nodes.fetch_add(n, Ordering::Relaxed) + n
    }

    /// Nodes counted so far by all threads.
    #[inline]
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// One thread's node counter: counts nodes, publishes them to the shared count every
/// `BATCH` nodes and then polls the stop flag and the control's limits; the node limit is
/// checked at every node, so a node-limited search stops at the same node every time.
pub struct NodeCounter<'a, const BATCH: u64> {
    smp: &'a SmpShared,
    control: &'a SearchControl,
    pending: u64,
    node_limit: u64,
    /// Set once the search must stop (limit reached, `stop`, or the main thread done).
    pub stopped: bool,
}

impl<'a, const BATCH: u64> NodeCounter<'a, BATCH> {
    /// A counter for one thread of the search `control` limits.
    pub fn new(smp: &'a SmpShared, control: &'a SearchControl) -> Self {
        NodeCounter {
            smp,
            control,
            pending: 0,
            node_limit: control.node_limit(),
            stopped: false,
        }
    }

    /// Counts a node; returns true when the search must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.pending += 1;
        if self.pending >= BATCH {
            let total = self.smp.add_nodes(self.pending);
            self.pending = 0;
            if self.smp.stopped() || self.control.should_abort(total) {
                self.stopped = true;
            }
        } else if self.node_limit != u64::MAX && self.total() >= self.node_limit {
            self.stopped = true;
        }
        self.stopped
    }

    /// Nodes of all threads, this thread's unpublished ones included.
    #[inline]
    pub fn total(&self) -> u64 {
        self.smp.nodes() + self.pending
    }

    /// Publishes this thread's pending nodes.
    pub fn flush(&mut self) {
        self.smp.add_nodes(self.pending);
        self.pending = 0;
    }
}

/// Runs one search per entry of `threads` (each thread's own state, such as its heuristic
/// tables): `helper(id, state)` for ids 1.. on scoped threads, `main(state)` with the first
/// entry on the calling thread. When `main` returns, the stop flag is set, the helpers are
/// joined, and `main`'s result is returned. `main` should report and apply the limits; it
/// may wait (for `stop` or `ponderhit`) before returning while the helpers go on searching.
/// With an empty `threads` nothing runs and `None` is returned.
pub fn lazy_smp<T, R>(
    shared: &SmpShared,
    threads: &mut [T],
    helper: impl Fn(usize, &mut T) + Sync,
    main: impl FnOnce(&mut T) -> R,
) -> Option<R>
where
    T: Send,
{
    let (first, helpers) = threads.split_first_mut()?;
    let helper = &helper;
    Some(std::thread::scope(|scope| {
        for (i, state) in helpers.iter_mut().enumerate() {
            scope.spawn(move || helper(i + 1, state));
        }
        let result = main(first);
        shared.stop.store(true, Ordering::Release);
        result
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_run_until_the_main_thread_is_done() {
        let shared = SmpShared::new();
        let mut threads = vec![0u64; 4];
        let result = lazy_smp(
            &shared,
            &mut threads,
            |id, count| {
                while !shared.stopped() {
                    *count += 1;
                    shared.add_nodes(1);
                    std::hint::spin_loop();
                }
                *count += id as u64 * 1000;
            },
            |count| {
                while shared.nodes() < 1000 {
                    std::hint::spin_loop();
                }
                *count = 7;
                "done"
            },
        );
        assert_eq!(result, Some("done"));
        assert_eq!(threads[0], 7);
        for (id, &count) in threads.iter().enumerate().skip(1) {
            assert!(count >= id as u64 * 1000, "helper {id} ran and stopped");
        }
        assert_eq!(
            lazy_smp(&shared, &mut Vec::<u8>::new(), |_, _| {}, |_| 1),
            None
        );
    }

    #[test]
    fn a_node_limit_stops_at_the_same_node() {
        let control = SearchControl::new(&crate::engine::Limits {
            nodes: Some(1000),
            ..crate::engine::Limits::default()
        });
        let shared = SmpShared::new();
        let mut counter = NodeCounter::<'_, 256>::new(&shared, &control);
        let mut n = 0;
        while !counter.tick() {
            n += 1;
        }
        counter.flush();
        assert_eq!((n, shared.nodes()), (999, 1000));
    }
}
