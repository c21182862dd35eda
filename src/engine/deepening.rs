//! Game-neutral parts of iterative deepening at the root: the aspiration window around the
//! previous iteration's score and the search in it ([`aspiration_search`] over a game's
//! [`RootSearch`]), how much the helper threads of Lazy SMP skip ahead, the soft time limit
//! scaled by how stable the best move is, and the bookkeeping of completed iterations up to
//! the search's outcome ([`Deepening`]). A game's root loop calls these with its own
//! constants and keeps what is its own (root moves' order, MultiPV, mate rules, reports).

use super::score::{INFINITE, MATE, MATE_BOUND, RootMove, report_score};
use super::smp::SmpShared;
use super::{Bound, Score, SearchControl, SearchInfo, SearchOutcome};

/// The depth a thread searches in iteration `depth`: helpers with an odd id go one ply
/// deeper (except at the last depth), so the threads spread over the tree.
#[inline]
pub fn thread_depth(id: usize, depth: i32, max_depth: i32) -> i32 {
    if id > 0 && depth < max_depth {
        depth + (id % 2) as i32
    } else {
        depth
    }
}

/// `go mate N`: whether iterative deepening is done after an iteration of `depth` plies whose
/// best root score is `score`. Done once a mate in at most `moves` moves is proven. Otherwise
/// it goes on to `6 * moves` plies (a selective search can hide a mating line until its
/// nominal depth is well past the mate's length: in 40 mates in at most 5 set by Pikafish-HCE
/// on match games, Qilin's search first saw the mate at depth 15 on the median and 28 at
/// most), and past that while its score is a longer mate of its own, which deeper iterations
/// may shorten (the root loop's rule for a found mate still ends that). `moves` is taken
/// between 1 and 60.
pub fn mate_search_done(depth: i32, score: Score, moves: u32) -> bool {
    let moves = moves.clamp(1, 60);
    match score {
        _ if score.mate_within(moves).is_some() => true,
        Score::MatePlies(plies) if plies > 0 => false,
        _ => i64::from(depth) >= 6 * i64::from(moves),
    }
}

/// How a game opens and widens its aspiration windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aspiration {
    /// Half-width of the first window.
    pub delta: i32,
    /// Shallower iterations search with a full window.
    pub min_depth: i32,
    /// Once the half-width grows past this, the window becomes full (`None`: never).
    pub full_after: Option<i32>,
}

/// One iteration's search window: start with [`Window::new`], search `alpha..beta`, and
/// call [`Window::settle`] with the result until it lies inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Lower bound of the window.
    pub alpha: i32,
    /// Upper bound of the window.
    pub beta: i32,
    delta: i32,
    full_after: Option<i32>,
}

impl Window {
    /// The window for an iteration at `depth` whose previous score was `prev`: narrow
    /// around it, or full for shallow depths and mate scores.
    pub fn new(prev: i32, depth: i32, aspiration: &Aspiration) -> Window {
        let delta = aspiration.delta;
        let (alpha, beta) = if depth >= aspiration.min_depth && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        Window {
            alpha,
            beta,
            delta,
            full_after: aspiration.full_after,
        }
    }

    /// Takes the score `v` the last search returned: true when it lies inside the window
    /// (the iteration is done); otherwise the window widens towards it and false is returned.
    pub fn settle(&mut self, v: i32) -> bool {
        if v <= self.alpha {
            self.beta = (self.alpha + self.beta) / 2;
            self.alpha = (v - self.delta).max(-INFINITE);
        } else if v >= self.beta {
            self.beta = (v + self.delta).min(INFINITE);
        } else {
            return true;
        }
        self.delta += self.delta / 2 + 10;
        if self.full_after.is_some_and(|limit| self.delta > limit) {
            self.alpha = -INFINITE;
            self.beta = INFINITE;
        }
        false
    }
}

/// When a found mate ends iterative deepening: once the nominal depth passes `factor` times
/// the mate's distance in plies plus `margin` (a selective search may find a shorter mate
/// a little deeper).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateStop {
    /// Plies of depth per ply of the mate's distance.
    pub factor: i32,
    /// Plies of depth beyond that.
    pub margin: i32,
}

impl MateStop {
    /// Whether the root score `score` (a mate, or not) ends the deepening after `depth`.
    pub fn reached(&self, score: i32, depth: i32) -> bool {
        score.abs() >= MATE_BOUND && depth > self.factor * (MATE - score.abs()) + self.margin
    }
}

/// How much of the soft time limit an iteration may end at, in percent, by the best move's
/// stability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeScale {
    /// Only one root move.
    pub single_move: u64,
    /// The best move just changed (after the first iterations).
    pub changed: u64,
    /// The best move stayed the same for `stable_after` iterations.
    pub stable: u64,
    /// Iterations without a change that make the best move stable.
    pub stable_after: u32,
    /// Otherwise.
    pub normal: u64,
}

/// Follows the best move from one iteration to the next.
#[derive(Clone, Copy, Debug)]
pub struct Stability<M> {
    last_best: M,
    /// Iterations since the best move last changed.
    pub stable: u32,
}

impl<M: Copy + PartialEq> Stability<M> {
    /// Starts with the first root move as the best.
    pub fn new(first: M) -> Stability<M> {
        Stability {
            last_best: first,
            stable: 0,
        }
    }

    /// Records the best move of a finished iteration.
    pub fn update(&mut self, best: M) {
        if best != self.last_best {
            self.stable = 0;
            self.last_best = best;
        } else {
            self.stable += 1;
        }
    }

    /// The share of the soft limit (percent) after `completed` iterations with
    /// `root_moves` moves at the root.
    pub fn time_percent(&self, scale: &TimeScale, root_moves: usize, completed: u32) -> u64 {
        if root_moves == 1 {
            scale.single_move
        } else if self.stable == 0 && completed > 1 {
            scale.changed
        } else if self.stable >= scale.stable_after {
            scale.stable
        } else {
            scale.normal
        }
    }
}

/// The best root move of the last completed iteration, for the search's outcome.
///
/// An iteration cut short by a limit leaves the root moves half updated: the front move may
/// carry the bound of a failed aspiration window (a fail low can read as a mate against us)
/// and the line of that failed search. Such a score must not reach `bestmove` (UCCI resigns
/// on a mate against it). The outcome takes the completed iteration's score and line,
/// unless the cut iteration proved another move better, inside its window.
#[derive(Clone, Debug)]
pub struct LastCompleted<M> {
    best: Option<RootMove<M>>,
}

impl<M: Copy + PartialEq> LastCompleted<M> {
    /// Nothing completed yet.
    pub fn new() -> LastCompleted<M> {
        LastCompleted { best: None }
    }

    /// Remembers the front root move at the end of a completed iteration.
    pub fn record(&mut self, front: &RootMove<M>) {
        self.best = Some(front.clone());
    }

    /// The root move to report, given the root moves' front after the last (perhaps cut)
    /// iteration: `front` itself when no iteration completed or when it is another move
    /// than the completed best (a move only moves to the front by beating the window's lower
    /// edge), else the completed best with its exact score and line.
    pub fn outcome<'a>(&'a self, front: &'a RootMove<M>) -> &'a RootMove<M> {
        match &self.best {
            Some(done) if done.mv == front.mv => done,
            _ => front,
        }
    }
}

impl<M: Copy + PartialEq> Default for LastCompleted<M> {
    fn default() -> Self {
        LastCompleted::new()
    }
}

/// A search thread's root, as [`aspiration_search`] drives it.
pub trait RootSearch {
    /// The game's move.
    type Move;
    /// Searches the root lines (from the current first line) at `depth` in `alpha..beta`,
    /// updating the root moves' scores and lines; returns the best score.
    fn search_root(&mut self, alpha: i32, beta: i32, depth: i32) -> i32;
    /// True once the search must stop (its results are then incomplete).
    fn stopped(&self) -> bool;
    /// The root moves, best first as far as searched.
    fn root_moves(&mut self) -> &mut [RootMove<Self::Move>];
}

/// What became of a root move after its search, see [`root_move_searched`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootStep {
    /// It failed low (not the first line searched): marked unsearched at `-INFINITE`.
    FailedLow,
    /// Its score and line were kept; alpha was raised when it beat alpha.
    Kept,
    /// It beat beta: the root search ends.
    Cutoff,
}

/// Takes the score `v` of root move `i` in a root search of the lines from `first` in the
/// window `alpha..beta`. The first line searched, or a move that beats alpha, keeps `v`
/// (`record` stores the score, line and seldepth); one that beats alpha also moves to the
/// front of the lines from `first` and raises alpha. Any other failed low and is marked
/// unsearched, to be ordered after the searched ones.
#[inline]
pub fn root_move_searched<M>(
    root_moves: &mut [RootMove<M>],
    (first, i): (usize, usize),
    v: i32,
    alpha: &mut i32,
    beta: i32,
    record: impl FnOnce(&mut RootMove<M>),
) -> RootStep {
    if i != first && v <= *alpha {
        root_moves[i].score = -INFINITE;
        return RootStep::FailedLow;
    }
    record(&mut root_moves[i]);
    if v > *alpha {
        *alpha = v;
        root_moves[first..=i].rotate_right(1);
        if v >= beta {
            return RootStep::Cutoff;
        }
    }
    RootStep::Kept
}

/// One iteration of root line `first` at `depth`: searches in a window around the line's
/// previous score and widens it until the score falls inside or the search stops. After
/// each search the root moves from `first` on are sorted best first; after each window that
/// failed, `failed(root, score, bound)` is called (a long search reports the bound).
pub fn aspiration_search<R: RootSearch>(
    root: &mut R,
    first: usize,
    depth: i32,
    aspiration: &Aspiration,
    mut failed: impl FnMut(&mut R, i32, Bound),
) {
    let prev = root.root_moves()[first].prev_score;
    let mut window = Window::new(prev, depth, aspiration);
    loop {
        let v = root.search_root(window.alpha, window.beta, depth);
        if root.stopped() {
            break;
        }
        root.root_moves()[first..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        let bound = if v >= window.beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        if window.settle(v) {
            break;
        }
        failed(root, v, bound);
    }
}

/// The report of a completed iteration's root line `rm` at `depth`, line `multipv` of the
/// MultiPV lines, its score taken with `units_per_cp` internal units per centipawn.
pub fn root_info<M: Clone>(
    rm: &RootMove<M>,
    depth: u32,
    multipv: u32,
    units_per_cp: i32,
    nodes: u64,
    time_ms: u64,
    hashfull: u32,
) -> SearchInfo<M> {
    SearchInfo {
        depth,
        seldepth: rm.seldepth.max(depth),
        multipv,
        score: report_score(rm.score, units_per_cp),
        bound: Bound::Exact,
        nodes,
        time_ms,
        hashfull,
        pv: rm.pv.clone(),
    }
}

/// Iterative deepening's record of one thread: the depths it searches, the iterations it
/// completed, the best move's stability, and the root move the search answers with.
#[derive(Clone, Debug)]
pub struct Deepening<M> {
    id: usize,
    max_depth: i32,
    /// Depth of the last completed iteration (0 before the first).
    pub completed: u32,
    stability: Stability<M>,
    last: LastCompleted<M>,
}

impl<M: Copy + PartialEq> Deepening<M> {
    /// Thread `id` (0 the main thread) deepening to `max_depth`, `first` the first root move.
    pub fn new(id: usize, max_depth: i32, first: M) -> Deepening<M> {
        Deepening {
            id,
            max_depth,
            completed: 0,
            stability: Stability::new(first),
            last: LastCompleted::new(),
        }
    }

    /// The nominal depths in order, 1 to the maximum.
    pub fn depths(&self) -> std::ops::RangeInclusive<i32> {
        1..=self.max_depth
    }

    /// The depth this thread searches in iteration `depth` (see [`thread_depth`]), with the
    /// root moves' scores kept as their previous scores.
    pub fn start(&self, depth: i32, root_moves: &mut [RootMove<M>]) -> i32 {
        for rm in root_moves.iter_mut() {
            rm.prev_score = rm.score;
        }
        thread_depth(self.id, depth, self.max_depth)
    }

    /// Records an iteration completed to `depth` with `front` the best root move.
    pub fn complete(&mut self, depth: u32, front: &RootMove<M>) {
        self.completed = depth;
        self.last.record(front);
        self.stability.update(front.mv);
    }

    /// Whether deepening ends after a completed iteration: for a helper, once the main
    /// thread is done; for the main thread, when `main_done` says so (a found mate, a
    /// `go mate` answered) or when the soft time limit, scaled by the best move's
    /// stability among `root_moves` moves, is reached.
    pub fn done(
        &self,
        smp: &SmpShared,
        control: &SearchControl,
        scale: &TimeScale,
        root_moves: usize,
        main_done: impl FnOnce() -> bool,
    ) -> bool {
        if self.id == 0 {
            main_done()
                || control.soft_limit_reached(self.stability.time_percent(
                    scale,
                    root_moves,
                    self.completed,
                ))
        } else {
            smp.stopped()
        }
    }

    /// The search's answer after the last iteration, `front` the best root move then (see
    /// [`LastCompleted::outcome`]): its move, the reply to ponder on, and its score (the
    /// previous iteration's, at least `floor`, when its last search was cut) in the form
    /// `report` gives it.
    pub fn outcome(
        &self,
        front: &RootMove<M>,
        floor: i32,
        nodes: u64,
        report: impl FnOnce(i32) -> Score,
    ) -> SearchOutcome<M> {
        let best = self.last.outcome(front);
        let score = if best.score > -INFINITE {
            best.score
        } else {
            best.prev_score.max(floor)
        };
        SearchOutcome {
            best: Some(best.mv),
            ponder: best.pv.get(1).copied(),
            score: report(score),
            depth: self.completed,
            nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mate_search_ends_on_a_short_enough_mate_or_past_six_plies_a_move() {
        // A mate in 3 (5 plies) ends a search for a mate in 3, not one for a mate in 2.
        assert!(mate_search_done(7, Score::MatePlies(5), 3));
        assert!(!mate_search_done(7, Score::MatePlies(5), 2));
        // No mate: on to 6 plies a move.
        assert!(!mate_search_done(17, Score::Cp(250), 3));
        assert!(mate_search_done(18, Score::Cp(250), 3));
        assert!(mate_search_done(18, Score::MatePlies(-4), 3));
        // A longer mate of its own keeps it going.
        assert!(!mate_search_done(40, Score::MatePlies(9), 3));
    }

    #[test]
    fn a_found_mate_stops_the_deepening_past_its_scaled_distance() {
        let stop = MateStop {
            factor: 2,
            margin: 6,
        };
        // A mate in 3 plies: done past depth 12.
        assert!(!stop.reached(MATE - 3, 12));
        assert!(stop.reached(MATE - 3, 13));
        assert!(stop.reached(-(MATE - 3), 13));
        assert!(!stop.reached(500, 60));
    }

    const ASPIRATION: Aspiration = Aspiration {
        delta: 40,
        min_depth: 4,
        full_after: Some(600),
    };

    #[test]
    fn windows_open_around_the_last_score_and_widen() {
        assert_eq!(
            (
                Window::new(100, 3, &ASPIRATION).alpha,
                Window::new(100, 3, &ASPIRATION).beta
            ),
            (-INFINITE, INFINITE)
        );
        let mut w = Window::new(100, 6, &ASPIRATION);
        assert_eq!((w.alpha, w.beta), (60, 140));
        assert!(!w.settle(200));
        assert_eq!((w.alpha, w.beta), (60, 240));
        assert!(!w.settle(0));
        assert_eq!((w.alpha, w.beta), (-70, 150));
        assert!(w.settle(10));
        // Failing low again and again: the half-width grows 40, 70, 115, 182, 283, 434,
        // 661, and past 600 the window is full.
        let mut w = Window::new(0, 6, &ASPIRATION);
        for _ in 0..5 {
            let v = w.alpha;
            assert!(!w.settle(v));
            assert!(w.alpha > -INFINITE);
        }
        let v = w.alpha;
        assert!(!w.settle(v));
        assert_eq!((w.alpha, w.beta), (-INFINITE, INFINITE));
        assert_eq!(thread_depth(0, 5, 9), 5);
        assert_eq!(thread_depth(1, 5, 9), 6);
        assert_eq!(thread_depth(1, 9, 9), 9);
    }

    #[test]
    fn a_stable_best_move_takes_less_time() {
        let scale = TimeScale {
            single_move: 10,
            changed: 150,
            stable: 70,
            stable_after: 4,
            normal: 100,
        };
        let mut s = Stability::new(1u8);
        assert_eq!(s.time_percent(&scale, 1, 3), 10);
        s.update(2);
        assert_eq!(s.time_percent(&scale, 5, 2), 150);
        for _ in 0..4 {
            s.update(2);
        }
        assert_eq!(s.time_percent(&scale, 5, 6), 70);
    }

    #[test]
    fn a_cut_iteration_reports_the_completed_line_unless_another_move_beat_it() {
        let mut last = LastCompleted::new();
        let mut front = RootMove::new(7u8);
        front.score = -30;
        // Nothing completed: the front is all there is.
        assert_eq!(last.outcome(&front).score, -30);
        front.pv = vec![7, 1, 2];
        last.record(&front);
        // The next iteration failed low on the same move with a mate-like bound, then was cut.
        front.score = -MATE_BOUND;
        front.pv = vec![7, 9];
        assert_eq!(last.outcome(&front).score, -30);
        assert_eq!(last.outcome(&front).pv, vec![7, 1, 2]);
        // Another move beat the window before the cut: it is reported with its own result.
        let mut other = RootMove::new(8u8);
        other.score = 12;
        assert_eq!(last.outcome(&other).mv, 8);
        assert_eq!(last.outcome(&other).score, 12);
    }
}
