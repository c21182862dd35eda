//! The Lazy SMP harness, game-neutral: every thread searches the same root with its own
//! heuristic tables and the shared transposition table; the main thread reports and
//! decides when to stop, the helpers stop when it is done. Threads share a stop flag and a
//! node count, to which each adds its nodes in batches.
//!
//! The deadline holds at any thread count, also with more threads than cores: the helpers
//! are started by a thread of their own while the main thread searches (starting hundreds of
//! threads on a busy machine takes longer than a short move), and they stop a little before
//! the hard deadline (see [`helper_reserve_ms`]), so that when it comes the main thread has
//! the cores to itself and no helper is left to join.

use std::sync::OnceLock;
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
    /// How many ms before the hard deadline the helpers stop (set by [`lazy_smp`]).
    pub helper_reserve_ms: AtomicU64,
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

/// How many threads the machine runs at once (`std::thread::available_parallelism`, 1 when
/// unknown); asked once per process.
pub fn hardware_threads() -> usize {
    static COUNT: OnceLock<usize> = OnceLock::new();
    *COUNT.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// At most this many search threads run per hardware thread: past it more threads only
/// queue for the cores, and joining them can no longer be done inside a short move's budget.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// How many of `requested` search threads a search runs on a machine running `cores`
/// threads at once: all of them up to [`MAX_THREADS_PER_CORE`] a core, never fewer than one.
pub fn searching_threads(requested: usize, cores: usize) -> usize {
    requested.min(cores.max(1) * MAX_THREADS_PER_CORE).max(1)
}

/// How many ms before the hard deadline the helpers of a search with `threads` threads stop
/// on a machine running `cores` threads at once: 2 ms, plus 2 ms for every thread beyond the
/// cores (each must be given a core once more to see that it is time, and a thread that has
/// waited its turn behind the others may run a poll batch before it looks), but never more
/// than a quarter of the `hard_ms` budget. The main thread of such a search stops half of it
/// before the deadline, leaving the other half for the join. No reserve with one thread (no
/// helpers): a one-thread search is not changed.
pub fn helper_reserve_ms(threads: usize, cores: usize, hard_ms: u64) -> u64 {
    if threads <= 1 {
        return 0;
    }
    let beyond = threads.saturating_sub(cores.max(1)) as u64;
    (2 + 2 * beyond).min(hard_ms / 4)
}

/// One thread's node counter: counts nodes, publishes them to the shared count every
/// `BATCH` nodes and then polls the stop flag and the control's limits; the node limit is
/// checked at every node, so a node-limited search stops at the same node every time.
pub struct NodeCounter<'a, const BATCH: u64> {
    smp: &'a SmpShared,
    control: &'a SearchControl,
    pending: u64,
    node_limit: u64,
    /// How many ms before the hard deadline this thread stops (see [`helper_reserve_ms`]).
    reserve_ms: u64,
    /// Set once the search must stop (limit reached, `stop`, or the main thread done).
    pub stopped: bool,
}

impl<'a, const BATCH: u64> NodeCounter<'a, BATCH> {
    /// A counter for the main thread of the search `control` limits.
    pub fn new(smp: &'a SmpShared, control: &'a SearchControl) -> Self {
        NodeCounter {
            smp,
            control,
            pending: 0,
            node_limit: control.node_limit(),
            reserve_ms: 0,
            stopped: false,
        }
    }

    /// A counter for thread `id` of a search (0 the main thread, helpers from 1): a helper
    /// stops [`SmpShared::helper_reserve_ms`] before the hard deadline, the main thread half
    /// of that before it (the rest is for joining the helpers).
    pub fn for_thread(smp: &'a SmpShared, control: &'a SearchControl, id: usize) -> Self {
        let mut counter = NodeCounter::new(smp, control);
        let reserve = smp.helper_reserve_ms.load(Ordering::Relaxed);
        counter.reserve_ms = if id > 0 { reserve } else { reserve / 2 };
        counter
    }

    /// Counts a node; returns true when the search must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.pending += 1;
        if self.pending >= BATCH {
            let total = self.smp.add_nodes(self.pending);
            self.pending = 0;
            if self.smp.stopped()
                || self.control.should_abort(total)
                || (self.reserve_ms > 0 && self.control.hard_deadline_within(self.reserve_ms))
            {
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
/// With an empty `threads` nothing runs and `None` is returned. Only the first
/// [`searching_threads`] of them search; the others keep their state.
///
/// A thread of its own starts the helpers, and starts no more once the search stops or is
/// [`helper_reserve_ms`] from `control`'s hard deadline; the helpers' counters made with
/// [`NodeCounter::for_thread`] stop then too. Helpers not started leave their state as it was.
pub fn lazy_smp<T, R>(
    shared: &SmpShared,
    control: &SearchControl,
    threads: &mut [T],
    helper: impl Fn(usize, &mut T) + Sync,
    main: impl FnOnce(&mut T) -> R,
) -> Option<R>
where
    T: Send,
{
    let cores = hardware_threads();
    let running = searching_threads(threads.len(), cores).min(threads.len());
    let threads = &mut threads[..running];
    let reserve = helper_reserve_ms(threads.len(), cores, control.hard_ms());
    shared.helper_reserve_ms.store(reserve, Ordering::Relaxed);
    let (first, helpers) = threads.split_first_mut()?;
    let helper = &helper;
    let spawn_more = move || !shared.stopped() && !control.hard_deadline_within(reserve);
    Some(std::thread::scope(|scope| {
        if !helpers.is_empty() {
            // One thread starts the helpers while the main thread searches: starting a
            // thread takes longer the more threads already compete for the cores, so it must
            // not hold up the main thread, and none is started once the helpers must stop.
            scope.spawn(move || {
                for (i, state) in helpers.iter_mut().enumerate() {
                    if !spawn_more() {
                        break;
                    }
                    scope.spawn(move || helper(i + 1, state));
                }
            });
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
    fn searching_threads_are_capped_per_core() {
        assert_eq!(searching_threads(1, 2), 1);
        assert_eq!(searching_threads(8, 2), 8);
        assert_eq!(searching_threads(256, 2), 2 * MAX_THREADS_PER_CORE);
        assert_eq!(searching_threads(256, 64), 256);
        assert_eq!(searching_threads(0, 0), 1);
    }

    #[test]
    fn helpers_run_until_the_main_thread_is_done() {
        let shared = SmpShared::new();
        let mut threads = vec![0u64; 4];
        let started = std::sync::atomic::AtomicUsize::new(0);
        let control = SearchControl::new(&crate::engine::Limits::default());
        let result = lazy_smp(
            &shared,
            &control,
            &mut threads,
            |id, count| {
                started.fetch_add(1, Ordering::Relaxed);
                while !shared.stopped() {
                    *count += 1;
                    shared.add_nodes(1);
                    std::hint::spin_loop();
                }
                *count += id as u64 * 1000;
            },
            |count| {
                while shared.nodes() < 1000 || started.load(Ordering::Relaxed) < 3 {
                    std::thread::yield_now();
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
            lazy_smp(&shared, &control, &mut Vec::<u8>::new(), |_, _| {}, |_| 1),
            None
        );
    }

    #[test]
    fn helpers_stop_before_the_hard_deadline_and_none_start_after() {
        // One thread: no reserve; more threads than cores: 2 ms and 2 ms per extra thread,
        // at most a quarter of the budget.
        assert_eq!(helper_reserve_ms(1, 2, 1000), 0);
        assert_eq!(helper_reserve_ms(2, 2, 1000), 2);
        assert_eq!(helper_reserve_ms(8, 2, 1000), 14);
        assert_eq!(helper_reserve_ms(256, 2, 100), 25);
        // A budget already inside the reserve: the helpers' counters stop at once, the main
        // thread's does not, and no helper is started once it is too late.
        let control = SearchControl::new(&crate::engine::Limits {
            movetime_ms: Some(1),
            ..crate::engine::Limits::default()
        });
        let shared = SmpShared::new();
        shared.helper_reserve_ms.store(5, Ordering::Relaxed);
        let mut helper = NodeCounter::<'_, 1>::for_thread(&shared, &control, 1);
        let mut main = NodeCounter::<'_, 1>::for_thread(&shared, &control, 0);
        assert_eq!((helper.reserve_ms, main.reserve_ms), (5, 2));
        assert!(helper.tick() && main.tick());
        // Without a reserve (one thread) the main thread runs to the deadline itself.
        let long = SearchControl::new(&crate::engine::Limits {
            movetime_ms: Some(60_000),
            ..crate::engine::Limits::default()
        });
        let alone = SmpShared::new();
        assert!(!NodeCounter::<'_, 1>::for_thread(&alone, &long, 0).tick());
        let shared = SmpShared::new();
        let late = SearchControl::new(&crate::engine::Limits {
            movetime_ms: Some(1),
            ..crate::engine::Limits::default()
        });
        while late.clock_elapsed_ms() < 2 {
            std::thread::yield_now();
        }
        let mut threads = vec![false; 64];
        let ran = lazy_smp(&shared, &late, &mut threads, |_, ran| *ran = true, |_| 1);
        assert_eq!(ran, Some(1));
        assert!(threads.iter().skip(1).all(|&ran| !ran), "a helper started");
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
