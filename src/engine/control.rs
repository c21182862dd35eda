//! Search limits and the control block shared between the engine thread and search threads:
//! stop flag, ponder state, and the time manager's soft and hard deadlines.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

/// A game clock for the side to move, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time_ms: u64,
    /// Increment added after each move.
    pub inc_ms: u64,
    /// Moves until the next time control, if the control is not sudden death.
    pub movestogo: Option<u32>,
}

/// What a `go` command asks for. All limits that are set apply together; none set means
/// "search until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nominal depth.
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime_ms: Option<u64>,
    /// Clock of the side to move.
    pub clock: Option<Clock>,
    /// Look for a mate in this many moves (stop when found).
    pub mate_moves: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: the clock does not run until `ponderhit`.
    pub ponder: bool,
    /// Milliseconds kept back for the GUI's and the pipe's delays.
    pub move_overhead_ms: u64,
    /// Gomocup: the cap on one turn (`timeout_turn`), ms.
    pub turn_ms: Option<u64>,
    /// Gomocup: what is left of the match clock (`time_left`, or `timeout_match` less the
    /// time used), ms.
    pub match_left_ms: Option<u64>,
    /// Gomocup: own moves still expected in the game, to share the match clock.
    pub moves_left: Option<u32>,
}

/// Sentinel for "no deadline".
const NO_DEADLINE: u64 = u64::MAX;

/// Shared between the engine thread (which stops it and signals ponderhit) and the search
/// threads (which poll it). Invariant: once `stop` is set it is never cleared; a new search
/// gets a new control block.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    infinite: bool,
    /// A fixed time per move (`movetime`, or a clock with one move to go): the whole of it is
    /// used, whatever the scale.
    fixed_time: bool,
    origin: Instant,
    /// Microseconds after `origin` at which the clock started (moved by `ponderhit`).
    clock_start_us: AtomicU64,
    soft_ms: u64,
    hard_ms: u64,
    node_limit: u64,
    depth_limit: u32,
    mate_limit: Option<u32>,
    release_lock: Mutex<bool>,
    released: Condvar,
}

impl SearchControl {
    /// A control block for a search under `limits`, with the clock starting now.
    pub fn new(limits: &Limits) -> SearchControl {
        SearchControl::with_origin(limits, Instant::now())
    }

    /// A control block whose clock started at `origin` (e.g. when the `go` line was read, so
    /// that parsing and thread start-up count against the budget). An `origin` in the future
    /// is treated as now.
    pub fn with_origin(limits: &Limits, origin: Instant) -> SearchControl {
        let origin = origin.min(Instant::now());
        let (soft_ms, hard_ms) = allocate_time(limits);
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(limits.ponder),
            infinite: limits.infinite,
            // A turn cap with no match clock is a fixed budget too: time left over in one
            // turn is not saved for later ones.
            fixed_time: limits.movetime_ms.is_some()
                || (limits.turn_ms.is_some() && limits.match_left_ms.is_none())
                || limits
                    .clock
                    .is_some_and(|c| c.movestogo.is_some_and(|m| m <= 1)),
            origin,
            clock_start_us: AtomicU64::new(0),
            soft_ms,
            hard_ms,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            depth_limit: limits.depth.unwrap_or(u32::MAX),
            mate_limit: limits.mate_moves,
            release_lock: Mutex::new(false),
            released: Condvar::new(),
        }
    }

    /// Asks every search thread to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
        self.release();
    }

    /// True once `stop` was called (by the engine thread or by a search thread that finished).
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The ponder move was played: the clock starts now and the limits apply.
    pub fn ponderhit(&self) {
        let now = self.origin.elapsed().as_micros() as u64;
        self.clock_start_us.store(now, Ordering::Release);
        self.pondering.store(false, Ordering::Release);
        self.release();
    }

    /// True while pondering (before `ponderhit`).
    #[inline]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Milliseconds since the search started (not since ponderhit).
    pub fn elapsed_ms(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64
    }

    /// Milliseconds on the clock for this move: since the start, or since ponderhit.
    pub fn clock_elapsed_ms(&self) -> u64 {
        let now = self.origin.elapsed().as_micros() as u64;
        now.saturating_sub(self.clock_start_us.load(Ordering::Acquire)) / 1000
    }

    /// The nominal depth limit (`u32::MAX` when none).
    pub fn depth_limit(&self) -> u32 {
        self.depth_limit
    }

    /// UCI `go mate <n>`: the search may stop once it proves a mate in at most this many
    /// moves (`None` when not asked).
    pub fn mate_limit(&self) -> Option<u32> {
        self.mate_limit
    }

    /// True for `go infinite`: the answer is held back until `stop` whatever the search does
    /// (see [`SearchControl::wait_for_release`]), so it may as well keep searching.
    pub fn infinite(&self) -> bool {
        self.infinite
    }

    /// The node limit (`u64::MAX` when none).
    pub fn node_limit(&self) -> u64 {
        self.node_limit
    }

    /// The soft deadline in ms (`u64::MAX` when none): do not start another iteration after it.
    pub fn soft_ms(&self) -> u64 {
        self.soft_ms
    }

    /// The hard deadline in ms (`u64::MAX` when none): abort inside the tree after it.
    pub fn hard_ms(&self) -> u64 {
        self.hard_ms
    }

    /// True when the clock may stop this search (not pondering, not infinite).
    fn clock_applies(&self) -> bool {
        !self.infinite && !self.pondering()
    }

    /// Checked inside the tree (every few thousand nodes): stop flag, node limit, hard deadline.
    /// A search that sees `true` must unwind and return its best result so far.
    pub fn should_abort(&self, nodes: u64) -> bool {
        if self.stopped() || nodes >= self.node_limit {
            return true;
        }
        self.hard_ms != NO_DEADLINE
            && self.clock_applies()
            && self.clock_elapsed_ms() >= self.hard_ms
    }

    /// True when the clock applies and at most `ms` are left before the hard deadline (a
    /// helper thread stops then, so that it is joined before the deadline).
    pub fn hard_deadline_within(&self, ms: u64) -> bool {
        self.hard_ms != NO_DEADLINE
            && self.clock_applies()
            && self.clock_elapsed_ms().saturating_add(ms) >= self.hard_ms
    }

    /// Checked between iterations: true when another iteration should not be started.
    /// `scale_percent` lets the search stretch (over 100) or shrink the soft limit, e.g. when
    /// the best move is unstable.
    pub fn soft_limit_reached(&self, scale_percent: u64) -> bool {
        if self.stopped() {
            return true;
        }
        if self.soft_ms == NO_DEADLINE || !self.clock_applies() {
            return false;
        }
        // A fixed move time is spent in full: only the hard deadline ends it.
        let scale_percent = if self.fixed_time { 100 } else { scale_percent };
        let soft = (self.soft_ms.saturating_mul(scale_percent) / 100).min(self.hard_ms);
        self.clock_elapsed_ms() >= soft
    }

    /// Blocks until `stop` or `ponderhit`, for a search that finished while pondering or in
    /// infinite mode (the protocols forbid `bestmove` before then). Returns at once otherwise.
    pub fn wait_for_release(&self) {
        let mut released = match self.release_lock.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        while !*released && !self.stopped() && (self.infinite || self.pondering()) {
            released = match self.released.wait(released) {
                Ok(guard) => guard,
                Err(poisoned) => poisoned.into_inner(),
            };
        }
    }

    fn release(&self) {
        let mut released = match self.release_lock.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        // Only `stop` releases an infinite search for good; ponderhit re-checks the loop.
        if self.stopped() {
            *released = true;
        }
        self.released.notify_all();
    }
}

/// Gomocup moves planned for when no estimate is given.
const GOMOCUP_MOVES_LEFT: u64 = 25;

/// The Gomocup policy: a per-turn cap together with a match clock. The turn cap less the
/// overhead is the hard limit; the match clock, less the overhead and a reserve of a
/// twentieth, is shared over the moves expected (between 5 and 60), each move aiming at its
/// share and never planning past a quarter of what is left. Only a turn cap: spend all of it
/// (less the overhead), since a turn's unused time is not carried over.
fn allocate_gomocup(limits: &Limits) -> (u64, u64) {
    let overhead = limits.move_overhead_ms;
    let turn_cap = limits
        .turn_ms
        .map(|turn| turn.saturating_sub(overhead).max(1));
    let match_plan = limits.match_left_ms.map(|left| {
        let usable = left.saturating_sub(overhead + left / 20).max(1);
        let moves = limits
            .moves_left
            .map_or(GOMOCUP_MOVES_LEFT, |m| m as u64)
            .clamp(5, 60);
        let share = (usable / moves).max(1);
        let hard = (share * 3).min(usable / 4).max(share.min(usable));
        (share.min(hard), hard)
    });
    match (turn_cap, match_plan) {
        (Some(cap), Some((soft, hard))) => {
            let hard = hard.min(cap);
            (soft.min(hard), hard)
        }
        (Some(cap), None) => (cap, cap),
        (None, Some(plan)) => plan,
        (None, None) => (NO_DEADLINE, NO_DEADLINE),
    }
}

/// The margin kept back from a budget of `budget_ms`: the move overhead, but never more than
/// a fifth of the budget, so that even a tiny budget is mostly searched.
fn margin_for(budget_ms: u64, overhead_ms: u64) -> u64 {
    overhead_ms.min(budget_ms / 5)
}

/// The margin kept back from a fixed move time (`movetime`, or a clock's last move before
/// the control, UCCI's way to ask for a fixed time): the move overhead, but never more than a
/// twentieth of the move time. Nothing is saved for later moves, so the margin only has to
/// cover the time from the deadline to the GUI reading the move (the tree checks the clock
/// about every millisecond); the overhead in full would leave a tenth of a 100 ms move
/// unsearched.
fn fixed_move_margin(movetime_ms: u64, overhead_ms: u64) -> u64 {
    overhead_ms.min(movetime_ms / 20)
}

/// The time manager: soft and hard deadlines in ms for `limits` (`u64::MAX` = none).
/// The hard deadline always leaves the move overhead on the clock, but at most a fifth of the
/// time (a twentieth for a fixed move time).
pub fn allocate_time(limits: &Limits) -> (u64, u64) {
    let overhead = limits.move_overhead_ms;
    if limits.turn_ms.is_some() || limits.match_left_ms.is_some() {
        return allocate_gomocup(limits);
    }
    if let Some(movetime) = limits.movetime_ms {
        let t = movetime
            .saturating_sub(fixed_move_margin(movetime, overhead))
            .max(1);
        return (t, t);
    }
    let Some(clock) = limits.clock else {
        return (NO_DEADLINE, NO_DEADLINE);
    };
    let moves_to_go = clock
        .movestogo
        .map_or(SUDDEN_DEATH_HORIZON, |m| m.clamp(1, 50)) as u64;
    if moves_to_go == 1 {
        // The whole clock is for this move (UCCI's fixed move time is `time T movestogo 1`):
        // spent like a fixed `movetime`.
        let t = clock
            .time_ms
            .saturating_sub(fixed_move_margin(clock.time_ms, overhead))
            .max(1);
        return (t, t);
    }
    // The time this move may count on: the clock and the increments still to come over the
    // moves planned for, less an overhead for each of them, shared equally.
    let planned = (clock.time_ms + clock.inc_ms * (moves_to_go - 1))
        .saturating_sub(overhead * (moves_to_go + 2))
        .max(1);
    let share = planned / moves_to_go;
    // Never plan to use the last overhead-sized slice of the clock, nor more than 80% of it
    // on one move when more moves are due before the next control.
    let usable = clock
        .time_ms
        .saturating_sub(margin_for(clock.time_ms, overhead))
        .max(1);
    let cap = (usable * 4 / 5).max(1);
    let soft = (share * SOFT_SHARE_PERCENT / 100).clamp(1, cap);
    let hard = (share * HARD_SHARES).clamp(1, cap);
    (soft, hard.max(soft))
}

/// Moves a sudden-death clock (no `movestogo`) is shared over: each move plans on a 35th
/// of the clock (and of the increments to come), so the plan shrinks as the clock does.
const SUDDEN_DEATH_HORIZON: u32 = 35;

/// The soft limit as a share of a move's planned time, in percent. The search stretches it
/// when the best move changes and shrinks it when the move is stable, and an iteration
/// started before it passes may run on to the hard limit.
const SOFT_SHARE_PERCENT: u64 = 100;

/// The hard limit in planned shares (before the cap of 80% of the clock).
const HARD_SHARES: u64 = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_move_time_ignores_the_soft_scale() {
        let fixed = SearchControl::new(&Limits {
            movetime_ms: Some(60_000),
            ..Limits::default()
        });
        // A clock with a one-second soft limit: a scale of 0% makes it due at once.
        let clock = SearchControl::new(&Limits {
            clock: Some(Clock {
                time_ms: 100_000,
                inc_ms: 0,
                movestogo: Some(10),
            }),
            ..Limits::default()
        });
        assert!(clock.soft_limit_reached(0));
        assert!(!fixed.soft_limit_reached(0));
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let limits = Limits {
            movetime_ms: Some(1000),
            move_overhead_ms: 30,
            ..Limits::default()
        };
        assert_eq!(allocate_time(&limits), (970, 970));
    }

    #[test]
    fn last_move_before_control_never_exceeds_the_clock() {
        let limits = Limits {
            clock: Some(Clock {
                time_ms: 1000,
                inc_ms: 0,
                movestogo: Some(1),
            }),
            move_overhead_ms: 50,
            ..Limits::default()
        };
        let (soft, hard) = allocate_time(&limits);
        assert!(hard <= 950, "hard {hard}");
        assert!(soft <= hard);
    }

    #[test]
    fn the_last_move_keeps_the_overhead_up_to_a_twentieth() {
        for (overhead, want) in [(0, 1000), (30, 970), (100, 950), (400, 950)] {
            let limits = Limits {
                clock: Some(Clock {
                    time_ms: 1000,
                    inc_ms: 0,
                    movestogo: Some(1),
                }),
                move_overhead_ms: overhead,
                ..Limits::default()
            };
            assert_eq!(allocate_time(&limits), (want, want), "overhead {overhead}");
        }
    }

    #[test]
    fn small_move_times_are_mostly_searched() {
        for (movetime, want) in [(1, 1), (5, 5), (20, 19), (100, 95), (150, 143), (1000, 970)] {
            let limits = Limits {
                movetime_ms: Some(movetime),
                move_overhead_ms: 30,
                ..Limits::default()
            };
            assert_eq!(allocate_time(&limits), (want, want), "movetime {movetime}");
        }
    }

    #[test]
    fn one_move_to_go_is_spent_like_a_fixed_move_time() {
        let limits = Limits {
            clock: Some(Clock {
                time_ms: 100,
                inc_ms: 0,
                movestogo: Some(1),
            }),
            move_overhead_ms: 10,
            ..Limits::default()
        };
        let fixed = Limits {
            movetime_ms: Some(100),
            move_overhead_ms: 10,
            ..Limits::default()
        };
        // The same deadlines as `movetime 100`, and no early stop when the best move is
        // stable (scale 0%).
        assert_eq!(allocate_time(&limits), (95, 95));
        assert_eq!(allocate_time(&limits), allocate_time(&fixed));
        let control = SearchControl::new(&limits);
        assert!(!control.soft_limit_reached(0));
        let mut two = limits.clone();
        two.clock = Some(Clock {
            time_ms: 100,
            inc_ms: 0,
            movestogo: Some(2),
        });
        let (soft, hard) = allocate_time(&two);
        assert!(soft < hard, "{soft} {hard}");
    }

    #[test]
    fn zero_moves_to_go_is_read_as_one_everywhere() {
        // The allocator clamps `movestogo 0` to 1; the control block must agree that the
        // time is then a fixed budget (no early stop on a stable best move).
        for movestogo in [0, 1] {
            let limits = Limits {
                clock: Some(Clock {
                    time_ms: 100,
                    inc_ms: 0,
                    movestogo: Some(movestogo),
                }),
                move_overhead_ms: 10,
                ..Limits::default()
            };
            assert_eq!(allocate_time(&limits), (95, 95), "movestogo {movestogo}");
            assert!(!SearchControl::new(&limits).soft_limit_reached(0));
        }
    }

    #[test]
    fn tiny_clocks_still_leave_a_deadline() {
        for time_ms in [0, 1, 5, 40] {
            let limits = Limits {
                clock: Some(Clock {
                    time_ms,
                    inc_ms: 5000,
                    movestogo: None,
                }),
                move_overhead_ms: 30,
                ..Limits::default()
            };
            let (soft, hard) = allocate_time(&limits);
            assert!(soft >= 1 && hard >= soft, "{time_ms}: {soft} {hard}");
            assert!(hard <= time_ms.max(1), "{time_ms}: hard {hard}");
        }
    }

    #[test]
    fn sudden_death_spends_a_fraction() {
        let limits = Limits {
            clock: Some(Clock {
                time_ms: 60_000,
                inc_ms: 0,
                movestogo: None,
            }),
            move_overhead_ms: 50,
            ..Limits::default()
        };
        let (soft, hard) = allocate_time(&limits);
        assert!(soft < hard && hard < 60_000 / 5, "{soft} {hard}");
    }

    fn gomocup(turn: Option<u64>, left: Option<u64>, moves: Option<u32>) -> (u64, u64) {
        allocate_time(&Limits {
            turn_ms: turn,
            match_left_ms: left,
            moves_left: moves,
            move_overhead_ms: 30,
            ..Limits::default()
        })
    }

    #[test]
    fn gomocup_turn_cap_and_match_clock() {
        // Only a turn cap: all of it less the overhead.
        assert_eq!(gomocup(Some(1000), None, None), (970, 970));
        // A tiny cap still leaves a deadline.
        let (soft, hard) = gomocup(Some(5), None, None);
        assert!(soft >= 1 && hard == 1, "{soft} {hard}");
        // Only a match clock: a share of it, at most a quarter of what is left.
        let (soft, hard) = gomocup(None, Some(180_000), Some(30));
        assert!(
            (5_000..=6_000).contains(&soft) && hard <= 45_000,
            "{soft} {hard}"
        );
        // Both: the turn cap bounds the match plan.
        let (soft, hard) = gomocup(Some(5_000), Some(100_000), Some(10));
        assert!(hard <= 4_970 && soft <= hard, "{soft} {hard}");
        // Almost no time left: still a positive deadline within the time left.
        for left in [0, 1, 20, 100] {
            let (soft, hard) = gomocup(Some(30_000), Some(left), Some(40));
            assert!(
                soft >= 1 && soft <= hard && hard <= left.max(1),
                "{left}: {soft} {hard}"
            );
        }
    }

    #[test]
    fn no_limits_means_no_deadline() {
        assert_eq!(
            allocate_time(&Limits::default()),
            (NO_DEADLINE, NO_DEADLINE)
        );
    }

    #[test]
    fn stop_releases_a_waiting_infinite_search() {
        let control = std::sync::Arc::new(SearchControl::new(&Limits {
            infinite: true,
            ..Limits::default()
        }));
        let c2 = control.clone();
        let waiter = std::thread::spawn(move || c2.wait_for_release());
        control.stop();
        waiter.join().expect("waiter thread");
        assert!(control.should_abort(0));
    }
}
