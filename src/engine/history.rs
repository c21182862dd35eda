//! Game-neutral move-ordering tables a search thread learns from its cutoffs: a history
//! table of scores kept within `±HISTORY_MAX` by gravity, and two killer slots per ply.
//!
//! A game chooses how a move is indexed (colour and cell, piece and target square) and how
//! large its bonuses are; the update formulas are the same for every game. The tables live
//! in a game's per-thread heuristics (see [`ThreadTables`](super::searcher::ThreadTables)):
//! kept between searches, aged by [`History::age`] / [`Killers::clear`] before each, cleared
//! on a new game.

use super::score::MAX_PLY;

/// Largest magnitude of a history score.
pub const HISTORY_MAX: i32 = 16_384;

/// `value` moved by `bonus` (negative for a malus) with gravity towards zero: the larger the
/// value already is in the bonus's direction, the less it moves, so it stays within
/// `±HISTORY_MAX`. The bonus is taken within `±HISTORY_MAX`.
#[inline]
pub fn gravity(value: i32, bonus: i32) -> i32 {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    value + b - value * b.abs() / HISTORY_MAX
}

/// A history table of `ROWS` rows of `COLS` scores, `[row][col]` as the game indexes its
/// moves (for example `[colour][cell]` or `[piece][target]`). Every score stays within
/// `±HISTORY_MAX` when changed only by [`History::update`].
#[derive(Clone, Debug)]
pub struct History<const ROWS: usize, const COLS: usize> {
    table: [[i32; COLS]; ROWS],
}

impl<const ROWS: usize, const COLS: usize> History<ROWS, COLS> {
    /// An empty table (all scores 0).
    pub fn new() -> History<ROWS, COLS> {
        History {
            table: [[0; COLS]; ROWS],
        }
    }

    /// The score of the move at `[row][col]`.
    #[inline]
    pub fn get(&self, row: usize, col: usize) -> i32 {
        self.table[row][col]
    }

    /// Rewards (a positive `bonus`) or punishes (a negative one) the move at `[row][col]`,
    /// with [`gravity`].
    #[inline]
    pub fn update(&mut self, row: usize, col: usize, bonus: i32) {
        let h = &mut self.table[row][col];
        *h = gravity(*h, bonus);
    }

    /// Halves every score (between searches, so old knowledge fades).
    pub fn age(&mut self) {
        for row in self.table.iter_mut() {
            row.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for row in self.table.iter_mut() {
            row.fill(0);
        }
    }
}

impl<const ROWS: usize, const COLS: usize> Default for History<ROWS, COLS> {
    fn default() -> Self {
        History::new()
    }
}

/// The history bonus of a cut-off at `depth`, in steps of `unit`: `unit * (depth² + 2)`,
/// at most `125 * unit`. The best quiet move gains it, the other quiet moves tried lose it.
#[inline]
pub fn history_bonus(depth: i32, unit: i32) -> i32 {
    (depth * depth * unit + 2 * unit).min(125 * unit)
}

/// The quiet moves a node tried, in order, up to `N` of them (the rest are not kept), for
/// the history update after a cut-off. `T` is what the game needs to index a move's
/// history (the move, or the moved piece with it).
#[derive(Clone, Copy, Debug)]
pub struct Quiets<T, const N: usize> {
    moves: [Option<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Quiets<T, N> {
    /// No moves yet.
    #[inline]
    pub fn new() -> Quiets<T, N> {
        Quiets {
            moves: [None; N],
            len: 0,
        }
    }

    /// Keeps `t` when there is room.
    #[inline]
    pub fn push(&mut self, t: T) {
        if self.len < N {
            self.moves[self.len] = Some(t);
            self.len += 1;
        }
    }

    /// After a cut-off: `update(t, bonus)` for the moves for which `is_best` holds,
    /// `update(t, -bonus)` for the others, in the order they were tried.
    #[inline]
    pub fn reward(&self, is_best: impl Fn(T) -> bool, bonus: i32, mut update: impl FnMut(T, i32)) {
        for &t in self.moves[..self.len].iter().flatten() {
            update(t, if is_best(t) { bonus } else { -bonus });
        }
    }
}

impl<T: Copy, const N: usize> Default for Quiets<T, N> {
    fn default() -> Self {
        Quiets::new()
    }
}

/// Plies with killer slots: every ply a search reaches, plus the two below it that a node
/// clears for its grandchildren.
const KILLER_PLIES: usize = MAX_PLY + 4;

/// Two moves per ply that caused a cutoff there, the latest first.
#[derive(Clone, Debug)]
pub struct Killers<M> {
    slots: [[Option<M>; 2]; KILLER_PLIES],
}

impl<M: Copy + PartialEq> Killers<M> {
    /// No killers.
    pub fn new() -> Killers<M> {
        Killers {
            slots: [[None; 2]; KILLER_PLIES],
        }
    }

    /// The two killers of `ply`.
    #[inline]
    pub fn get(&self, ply: usize) -> [Option<M>; 2] {
        self.slots[ply]
    }

    /// Records `mv` as the latest cutoff move at `ply` (the older one moves to the second
    /// slot, unless `mv` is already first).
    #[inline]
    pub fn add(&mut self, ply: usize, mv: M) {
        let k = &mut self.slots[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// Empties the slots of `ply` (a node does this for its grandchildren); nothing past the
    /// last ply.
    #[inline]
    pub fn reset(&mut self, ply: usize) {
        if let Some(k) = self.slots.get_mut(ply) {
            *k = [None; 2];
        }
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.slots.fill([None; 2]);
    }
}

impl<M: Copy + PartialEq> Default for Killers<M> {
    fn default() -> Self {
        Killers::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_history_within_its_bound() {
        let mut h = History::<2, 3>::new();
        for _ in 0..1000 {
            h.update(1, 2, 4000);
            h.update(0, 0, -4000);
        }
        assert!(h.get(1, 2) <= HISTORY_MAX && h.get(1, 2) > HISTORY_MAX - 4000);
        assert!(h.get(0, 0) >= -HISTORY_MAX);
        assert_eq!(gravity(0, 100), 100);
        assert_eq!(gravity(8192, 100), 8192 + 100 - 50);
        let before = h.get(1, 2);
        h.age();
        assert_eq!(h.get(1, 2), before / 2);
        h.clear();
        assert_eq!(h.get(1, 2), 0);
    }

    #[test]
    fn the_best_quiet_move_gains_what_the_others_lose() {
        let mut q = Quiets::<u8, 2>::new();
        q.push(4);
        q.push(5);
        q.push(6);
        let mut seen = Vec::new();
        q.reward(|t| t == 5, 10, |t, b| seen.push((t, b)));
        assert_eq!(seen, vec![(4, -10), (5, 10)]);
        assert_eq!(history_bonus(3, 16), 16 * 9 + 32);
        assert_eq!(history_bonus(20, 32), 4000);
    }

    #[test]
    fn killers_keep_the_last_two_distinct_moves() {
        let mut k = Killers::<u8>::new();
        k.add(3, 1);
        k.add(3, 1);
        assert_eq!(k.get(3), [Some(1), None]);
        k.add(3, 2);
        assert_eq!(k.get(3), [Some(2), Some(1)]);
        k.reset(3);
        k.reset(KILLER_PLIES + 5);
        assert_eq!(k.get(3), [None, None]);
        k.add(0, 9);
        k.clear();
        assert_eq!(k.get(0), [None, None]);
    }
}
