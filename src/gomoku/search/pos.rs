//! The search's position: the board plus what the search keeps beside it, the stone
//! neighbourhood counts that define the candidate cells and the bounding box of the stones.

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

/// Board plus candidate bookkeeping; make and undo keep both in step.
#[derive(Clone)]
pub struct Pos {
    /// The position.
    pub board: Board,
    near: Box<[u8; CELLS]>,
    /// Bounding boxes of the stones (min x, max x, min y, max y), one per stone count.
    bounds: Vec<[u8; 4]>,
}

const NO_BOUNDS: [u8; 4] = [u8::MAX, 0, u8::MAX, 0];

impl Pos {
    /// The search position of `board`.
    pub fn new(board: &Board) -> Pos {
        let mut pos = Pos {
            board: board.clone(),
            near: Box::new([0; CELLS]),
            bounds: Vec::with_capacity(board.width() * board.height() + 1),
        };
        pos.bounds.push(NO_BOUNDS);
        let stones: Vec<Cell> = board.moves().map(|(c, _)| c).collect();
        for c in stones {
            pos.add_near(c);
        }
        pos
    }

    fn add_near(&mut self, cell: Cell) {
        let centre = cell.index() as isize;
        for &o in NEAR.iter() {
            self.near[(centre + o) as usize] += 1;
        }
        let b = *self.bounds.last().unwrap_or(&NO_BOUNDS);
        let (x, y) = (cell.x() as u8, cell.y() as u8);
        self.bounds
            .push([b[0].min(x), b[1].max(x), b[2].min(y), b[3].max(y)]);
    }

    /// Plays `cell` for `color`.
    #[inline]
    pub fn play_as(&mut self, cell: Cell, color: Color) {
        self.board.play_as(cell, color);
        self.add_near(cell);
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
}
