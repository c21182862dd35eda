//! The search's position: the board plus what the search keeps beside it, the stone
//! neighbourhood counts that define the candidate cells, the bounding box of the stones,
//! and the evaluation's candidate-cell terms summed incrementally: a move replaces the
//! terms of the candidates whose patterns it changed (the board's log of changed cells says
//! which) and adds the new candidates', undo restores both. The moves of threat searches
//! and move generation are trials that skip the sums (nothing evaluates under them).

use super::eval::features::{self, CLASSES, PairedTerms};
use super::eval::line_word;
use crate::gomoku::types::{CELLS, STRIDE};
use crate::gomoku::{Board, Cell, Color, Threat};

/// Offsets of the neighbourhood: every cell within two (king steps) and the cells three away
/// along the four lines.
const fn build_near() -> [isize; 32] {
    let mut out = [0isize; 32];
    let mut n = 0;
    let mut dy: isize = -3;
    while dy <= 3 {
        let mut dx: isize = -3;
        while dx <= 3 {
            let ax = if dx < 0 { -dx } else { dx };
            let ay = if dy < 0 { -dy } else { dy };
            let square = ax <= 2 && ay <= 2 && (ax + ay) > 0;
            let line3 = (ax == 3 || ay == 3) && (ax == 0 || ay == 0 || ax == ay);
            if square || line3 {
                out[n] = dy * STRIDE as isize + dx;
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    out
}

static NEAR: [isize; 32] = build_near();

/// The empty `cell`'s evaluation terms on `board` now (black to move, white to move): what
/// [`super::eval::evaluation_terms`] gives the cell for each side to move, read from the
/// paired tables.
#[inline(always)]
fn current_terms(paired: &PairedTerms, board: &Board, cell: Cell) -> [i32; 2] {
    let classes = Color::BOTH.map(|c| board.threat(cell, c));
    let [wb, ww] = Color::BOTH.map(|c| line_word(board, cell, c, classes[c.index() & 1]));
    let mut v = paired.cell[classes[0] as usize % CLASSES][classes[1] as usize % CLASSES];
    if paired.pcode_active {
        let pb = paired.pcode[0][features::pattern_combination(wb)];
        let pw = paired.pcode[1][features::pattern_combination(ww)];
        v[0] += pb[0] + pw[0];
        v[1] += pb[1] + pw[1];
    }
    for d in 0..4 {
        let l = paired.line[((wb >> (4 * d)) & 15) as usize][((ww >> (4 * d)) & 15) as usize];
        v[0] += l[0];
        v[1] += l[1];
    }
    v
}

/// Board plus candidate bookkeeping; make and undo keep both in step.
///
/// Invariant: `board` changes only through [`Pos::play_as`], [`Pos::play`] and
/// [`Pos::undo`] (setting the side to move is fine), so that the candidate counts and the
/// evaluation's cell sums follow it.
#[derive(Clone)]
pub struct Pos {
    /// The position.
    pub board: Board,
    near: Box<[u8; CELLS]>,
    /// Bounding boxes of the stones (min x, max x, min y, max y), one per stone count.
    bounds: Vec<[u8; 4]>,
    /// The evaluation's cell terms summed over the candidate cells, for black to move and
    /// for white to move (see [`current_terms`]).
    cell_sums: [i32; 2],
    /// Each candidate cell's terms (black to move, white to move) in the sums.
    cell_terms: Box<[[i32; 2]; CELLS]>,
    /// Cells whose entry in `cell_terms` a summed move replaced, with the entry before.
    terms_log: Vec<(u16, [i32; 2])>,
    /// `cell_sums` and the length of `terms_log` before each summed move, popped by undo.
    saved_sums: Vec<([i32; 2], u32)>,
    /// The evaluation's cell terms of the board's rule, for both sides to move at once.
    paired: &'static PairedTerms,
    /// Per-move stamps marking the cells already summed, and the current stamp.
    seen: Box<[u32; CELLS]>,
    stamp: u32,
    /// Trial moves on the board above the last summed one: while there are any the cell
    /// sums are those of the position before the first, and moves are not summed.
    trials: u32,
}

const NO_BOUNDS: [u8; 4] = [u8::MAX, 0, u8::MAX, 0];

impl Pos {
    /// The search position of `board`.
    pub fn new(board: &Board) -> Pos {
        Pos::with_terms(board, features::paired(board.rule()))
    }

    /// The search position of `board` with the cell terms `paired` summed (the rule's own
    /// in [`Pos::new`]; tests give others).
    fn with_terms(board: &Board, paired: &'static PairedTerms) -> Pos {
        let mut pos = Pos {
            board: board.clone(),
            near: Box::new([0; CELLS]),
            bounds: Vec::with_capacity(board.width() * board.height() + 1),
            cell_sums: [0; 2],
            cell_terms: Box::new([[0; 2]; CELLS]),
            terms_log: Vec::with_capacity(64 * board.width() * board.height()),
            saved_sums: Vec::with_capacity(board.width() * board.height() + 1),
            paired,
            seen: Box::new([0; CELLS]),
            stamp: 0,
            trials: 0,
        };
        pos.bounds.push(NO_BOUNDS);
        let stones: Vec<Cell> = board.moves().map(|(c, _)| c).collect();
        for c in stones {
            pos.add_near(c, false);
        }
        for c in board.empty_cells() {
            if pos.is_candidate(c) {
                pos.enter_cell(c);
            }
        }
        pos
    }

    /// The empty `cell` becomes a candidate: its current terms go into the sums.
    #[inline]
    fn enter_cell(&mut self, cell: Cell) {
        let terms = current_terms(self.paired, &self.board, cell);
        self.cell_terms[cell.index()] = terms;
        for (sum, v) in self.cell_sums.iter_mut().zip(terms) {
            *sum += v;
        }
    }

    /// Counts `cell`'s stone in its neighbourhood; with `sum`, the cells that become
    /// candidates enter the cell sums.
    fn add_near(&mut self, cell: Cell, sum: bool) {
        let centre = cell.index() as isize;
        for &o in NEAR.iter() {
            let i = (centre + o) as usize;
            self.near[i] += 1;
            if sum
                && self.near[i] == 1
                && let Some(c) = Cell::from_index(i)
                && self.board.is_empty(c)
            {
                self.enter_cell(c);
            }
        }
        let b = *self.bounds.last().unwrap_or(&NO_BOUNDS);
        let (x, y) = (cell.x() as u8, cell.y() as u8);
        self.bounds
            .push([b[0].min(x), b[1].max(x), b[2].min(y), b[3].max(y)]);
    }

    /// The evaluation's cell terms summed over the candidate cells, for `us` to move.
    #[inline]
    pub fn cell_terms(&self, us: Color) -> i32 {
        self.cell_sums[us.index() & 1]
    }

    /// Plays `cell` for `color` as a trial: the threat searches' and move generation's
    /// moves, which never evaluate, skip the evaluation's sums. Every move on top of a trial
    /// is one too, until undo has taken them all back.
    #[inline]
    pub fn try_play_as(&mut self, cell: Cell, color: Color) {
        self.trials += 1;
        self.board.play_as(cell, color);
        self.add_near(cell, false);
    }

    /// [`Pos::try_play_as`] for the side to move.
    #[inline]
    pub fn try_play(&mut self, cell: Cell) {
        let color = self.board.side_to_move();
        self.try_play_as(cell, color);
    }

    /// True when no trial move is on the board: the evaluation's sums are up to date.
    #[inline]
    pub fn summed(&self) -> bool {
        self.trials == 0
    }

    /// Plays `cell` for `color` (a trial when trials are on the board).
    #[inline]
    pub fn play_as(&mut self, cell: Cell, color: Color) {
        if self.trials > 0 {
            self.try_play_as(cell, color);
            return;
        }
        self.saved_sums
            .push((self.cell_sums, self.terms_log.len() as u32));
        if self.is_candidate(cell) {
            // Its entry stays as it is, for when undo frees the cell again.
            let terms = self.cell_terms[cell.index()];
            for (sum, v) in self.cell_sums.iter_mut().zip(terms) {
                *sum -= v;
            }
        }
        let mark = self.board.change_mark();
        self.board.play_as(cell, color);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        // The candidates whose state the move changed: their entries replaced by their
        // terms now.
        let stamp = self.stamp;
        let (board, near, seen, paired) = (&self.board, &self.near, &mut self.seen, self.paired);
        let (sums, entries, log) = (
            &mut self.cell_sums,
            &mut self.cell_terms,
            &mut self.terms_log,
        );
        board.changed_since(mark, |c| {
            let i = c.index();
            if seen[i] == stamp || near[i] == 0 {
                return;
            }
            seen[i] = stamp;
            let now = current_terms(paired, board, c);
            let before = entries[i];
            log.push((i as u16, before));
            entries[i] = now;
            for k in 0..2 {
                sums[k] += now[k] - before[k];
            }
        });
        self.add_near(cell, true);
    }

    /// Plays `cell` for the side to move.
    #[inline]
    pub fn play(&mut self, cell: Cell) {
        let color = self.board.side_to_move();
        self.play_as(cell, color);
    }

    /// Takes back the last move.
    #[inline]
    pub fn undo(&mut self) {
        if let Some(cell) = self.board.undo() {
            let centre = cell.index() as isize;
            for &o in NEAR.iter() {
                self.near[(centre + o) as usize] -= 1;
            }
            self.bounds.pop();
            if self.trials > 0 {
                self.trials -= 1;
            } else if let Some((sums, log_len)) = self.saved_sums.pop() {
                self.cell_sums = sums;
                while self.terms_log.len() > log_len as usize {
                    if let Some((i, terms)) = self.terms_log.pop() {
                        self.cell_terms[i as usize] = terms;
                    }
                }
            }
        }
    }

    /// The side to move.
    #[inline]
    pub fn us(&self) -> Color {
        self.board.side_to_move()
    }

    /// True when `cell` is free and near a stone.
    #[inline]
    pub fn is_candidate(&self, cell: Cell) -> bool {
        self.near[cell.index()] > 0 && self.board.is_empty(cell)
    }

    /// Calls `f` on every candidate cell (free cells near stones), row by row; on an empty
    /// board, the centre only.
    #[inline]
    pub fn for_each_candidate(&self, mut f: impl FnMut(Cell)) {
        let b = *self.bounds.last().unwrap_or(&NO_BOUNDS);
        if b[0] > b[1] {
            if let Some(c) = self
                .board
                .cell(self.board.width() / 2, self.board.height() / 2)
            {
                f(c);
            }
            return;
        }
        let x0 = (b[0] as usize).saturating_sub(3);
        let x1 = (b[1] as usize + 3).min(self.board.width() - 1);
        let y0 = (b[2] as usize).saturating_sub(3);
        let y1 = (b[3] as usize + 3).min(self.board.height() - 1);
        for y in y0..=y1 {
            for x in x0..=x1 {
                if let Some(c) = Cell::from_xy(x, y)
                    && self.is_candidate(c)
                {
                    f(c);
                }
            }
        }
    }

    /// Every candidate cell where `color`'s class is at least `min` (and not forbidden).
    pub fn cells_with(&self, color: Color, min: Threat, out: &mut Vec<Cell>) {
        out.clear();
        let take = |c| {
            if self.board.threat(c, color) >= min && self.is_candidate(c) {
                out.push(c);
            }
        };
        if min >= Threat::Flex3 {
            // The board's three-or-better set, in the same (row by row) order as the scan.
            self.board.for_each_hot(color, take);
        } else {
            self.for_each_candidate(take);
        }
    }

    /// The first candidate cell where `color` has exactly `threat`.
    pub fn find(&self, color: Color, threat: Threat) -> Option<Cell> {
        let mut found = None;
        let take = |c| {
            if found.is_none() && self.board.threat(c, color) == threat && self.is_candidate(c) {
                found = Some(c);
            }
        };
        if threat >= Threat::Flex3 {
            self.board.for_each_hot(color, take);
        } else {
            self.for_each_candidate(take);
        }
        found
    }

    /// `color`'s five points on the four lines through `cell` (within five of it).
    pub fn fives_around(&self, cell: Cell, color: Color, out: &mut Vec<Cell>) {
        out.clear();
        for step in crate::gomoku::types::DIRECTION_STEPS {
            for sign in [-1isize, 1] {
                for j in 1..=5isize {
                    let index = cell.index() as isize + sign * j * step;
                    if let Some(c) = Cell::from_index(index as usize)
                        && self.board.is_empty(c)
                        && self.board.threat(c, color) == Threat::Five
                        && !out.contains(&c)
                    {
                        out.push(c);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::gomoku::Rule;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// Every rule, for tests that walk random games under each.
    pub(crate) const ALL_RULES: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// The empty position test game `game` under `rule` starts from: 15x15 for even games,
    /// 20x20 for odd ones.
    pub(crate) fn test_game_start(rule: Rule, game: usize) -> Pos {
        let size = if game.is_multiple_of(2) { 15 } else { 20 };
        match Board::new(size, size, rule) {
            Ok(board) => Pos::new(&board),
            Err(e) => panic!("a {size}x{size} board is valid: {e}"),
        }
    }

    /// Along random games under every rule, the cells of each class from the board's
    /// three-or-better sets are those of a scan of every candidate, in the same order.
    #[test]
    fn hot_cells_equal_a_scan() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(34);
        let mut hot_seen = 0usize;
        for rule in ALL_RULES {
            for game in 0..30 {
                let mut pos = test_game_start(rule, game);
                let size = pos.board.width();
                for _ in 0..size * size / 2 {
                    for color in Color::BOTH {
                        for min in [
                            Threat::Flex3,
                            Threat::Flex3x2,
                            Threat::Block4,
                            Threat::Block4Flex3,
                            Threat::Flex4,
                            Threat::Five,
                        ] {
                            let mut scanned = Vec::new();
                            pos.for_each_candidate(|c| {
                                if pos.board.threat(c, color) >= min {
                                    scanned.push(c);
                                }
                            });
                            let mut fast = Vec::new();
                            pos.cells_with(color, min, &mut fast);
                            assert_eq!(fast, scanned, "{rule:?} {min:?} {:?}", pos.board);
                            hot_seen += fast.len();
                            let first = scanned
                                .iter()
                                .copied()
                                .find(|&c| pos.board.threat(c, color) == min);
                            assert_eq!(pos.find(color, min), first);
                        }
                    }
                    let mut cells = Vec::new();
                    pos.for_each_candidate(|c| cells.push(c));
                    if cells.is_empty() {
                        break;
                    }
                    let cell = cells[rng.random_range(0..cells.len())];
                    pos.play(cell);
                    if rng.random_range(0..8) == 0 {
                        pos.undo();
                    }
                }
            }
        }
        assert!(hot_seen > 1000, "only {hot_seen} hot cells compared");
    }

    /// Along random games under every rule, with random weights in every cell term (the
    /// tables in use leave some at zero), the cell sums kept on every move equal a walk over
    /// the candidate cells that adds the weights of their features (those before the point
    /// counts), for either side to move.
    #[test]
    fn incremental_cell_terms_equal_a_walk_with_any_weights() {
        use super::super::eval::features::{COUNT_BASE, FEATURES, pair_weights};
        use super::super::eval::{Sink, evaluation_terms};
        struct CellSum<'w>(&'w [i32; FEATURES], i32);
        impl Sink for CellSum<'_> {
            fn feature(&mut self, index: usize) {
                if index < COUNT_BASE {
                    self.1 += self.0[index];
                }
            }
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(36);
        let mut random_weights = || {
            let mut w = Box::new([0i32; FEATURES]);
            w.iter_mut().for_each(|v| *v = rng.random_range(-500..500));
            w
        };
        let (black, white) = (random_weights(), random_weights());
        let terms: &'static PairedTerms = Box::leak(Box::new(pair_weights(&black, &white)));
        let mut compared = 0usize;
        for rule in ALL_RULES {
            for game in 0..6 {
                let start = test_game_start(rule, game);
                let mut pos = Pos::with_terms(&start.board, terms);
                let size = pos.board.width();
                for _ in 0..size * size / 2 {
                    let to_move = pos.us();
                    for color in Color::BOTH {
                        pos.board.set_side_to_move(color);
                        let weights = if color == Color::Black {
                            &black
                        } else {
                            &white
                        };
                        let mut walk = CellSum(weights, 0);
                        evaluation_terms(&pos, &mut walk);
                        if pos.board.stone_count() > 0 {
                            assert_eq!(pos.cell_terms(color), walk.1, "{rule:?} {:?}", pos.board);
                            compared += 1;
                        }
                    }
                    pos.board.set_side_to_move(to_move);
                    let mut cells = Vec::new();
                    pos.for_each_candidate(|c| cells.push(c));
                    if cells.is_empty() || pos.board.threat_count(pos.us(), Threat::Five) > 0 {
                        break;
                    }
                    pos.play(cells[rng.random_range(0..cells.len())]);
                    if rng.random_range(0..6) == 0 {
                        pos.undo();
                    }
                }
            }
        }
        assert!(compared > 1_000, "only {compared} positions compared");
    }

    /// Along random games under every rule, with undos on the way, the evaluation from the
    /// cell sums kept on every move equals a walk over every candidate cell, for either
    /// side to move. It fails when a changed cell is left out of the sums.
    #[test]
    fn incremental_evaluation_equals_a_walk() {
        use super::super::eval::{evaluate, evaluate_by_walk};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(35);
        let mut compared = 0usize;
        for rule in ALL_RULES {
            for game in 0..20 {
                let mut pos = test_game_start(rule, game);
                let size = pos.board.width();
                for _ in 0..size * size / 2 {
                    for _ in 0..2 {
                        let side = pos.us().flip();
                        pos.board.set_side_to_move(side);
                        assert_eq!(
                            evaluate(&pos),
                            evaluate_by_walk(&pos),
                            "{rule:?} {:?}",
                            pos.board
                        );
                        compared += 1;
                    }
                    if pos.board.stone_count() % 7 == 3 {
                        let fresh = Pos::new(&pos.board);
                        assert_eq!(evaluate(&fresh), evaluate_by_walk(&pos), "{rule:?}");
                    }
                    let mut cells = Vec::new();
                    pos.for_each_candidate(|c| cells.push(c));
                    if cells.is_empty() || pos.board.threat_count(pos.us(), Threat::Five) > 0 {
                        break;
                    }
                    let cell = cells[rng.random_range(0..cells.len())];
                    if cells.len() > 1 && rng.random_range(0..3) == 0 {
                        // Trial moves, one played as usual on top, all taken back.
                        let other = cells[(cells.iter().position(|&c| c == cell).unwrap_or(0) + 1)
                            % cells.len()];
                        pos.try_play(cell);
                        pos.play(other);
                        assert!(!pos.summed());
                        pos.undo();
                        pos.undo();
                        assert!(pos.summed());
                    }
                    pos.play(cell);
                    if rng.random_range(0..6) == 0 {
                        pos.undo();
                    }
                }
            }
        }
        assert!(compared > 10_000, "only {compared} positions compared");
    }
}
