//! The Gomoku board: a padded array of stones with incremental line keys, line patterns and
//! threat classes for both colours, Zobrist hashing, make/undo, five detection per rule and
//! renju forbidden points.
//!
//! Invariants after every [`Board::play_as`] and [`Board::undo`]:
//! - `keys[c][d]` holds the ten cells within five of `c` on direction `d` (every cell of the
//!   array within reach, walls included);
//! - for every empty playing cell, `patterns` hold each colour's [`Pattern`] per direction
//!   read from the rule's tables, and `threats` the combined [`Threat`], with renju
//!   double-three candidates resolved exactly (see [`Board::forbidden_kind`]); occupied cells
//!   hold `Dead` patterns and `Threat::None`;
//! - `threat_counts` count the empty cells of each class per colour.
//!
//! [`Board::verify`] recomputes all of it from the stones and reports the first difference.

use super::pattern::{Pattern, RuleTables, Threat, combine, slot};
use super::types::{CELLS, Cell, Color, DIRECTION_STEPS, MAX_SIDE, PAD, Rule, STRIDE, Stone};

/// Why a point is forbidden for black under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Six or more in a row.
    Overline,
    /// Two or more fours at once (on different lines or on one line).
    DoubleFour,
    /// Two or more real open threes at once.
    DoubleThree,
}

impl Forbidden {
    /// `overline`, `double-four` or `double-three`, as the referee prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }
}

/// A board size that cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeError {
    /// Columns asked for.
    pub width: usize,
    /// Rows asked for.
    pub height: usize,
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "board {}x{} is not supported (each side 1 to {MAX_SIDE})",
            self.width, self.height
        )
    }
}

impl std::error::Error for SizeError {}

const ZOBRIST: ([[u64; CELLS]; 2], u64) =
    crate::engine::zobrist::zobrist_keys::<2, CELLS>(0x51_1A_6F_0E);
/// Zobrist keys by `[colour][cell index]`.
static ZOBRIST_STONE: [[u64; CELLS]; 2] = ZOBRIST.0;
/// Zobrist key present when white is to move.
const ZOBRIST_WHITE_TO_MOVE: u64 = ZOBRIST.1;

/// For a cell index difference `other - centre`, the direction and key slot of `other` in
/// the centre's line keys, when it lies within five on one of the four lines.
const fn build_offsets() -> [Option<(u8, u8)>; 2 * OFFSET_REACH + 1] {
    let mut table = [None; 2 * OFFSET_REACH + 1];
    let mut d = 0;
    while d < 4 {
        let mut j: isize = -5;
        while j <= 5 {
            if j != 0 {
                let delta = j * DIRECTION_STEPS[d];
                table[(delta + OFFSET_REACH as isize) as usize] = Some((d as u8, slot(j) as u8));
            }
            j += 1;
        }
        d += 1;
    }
    table
}

const OFFSET_REACH: usize = 5 * (STRIDE + 1);
static OFFSETS: [Option<(u8, u8)>; 2 * OFFSET_REACH + 1] = build_offsets();

/// Where `other` sits in `centre`'s line keys, if within five on a line.
#[inline]
fn line_slot(centre: Cell, other: Cell) -> Option<(usize, u32)> {
    let delta = other.index() as isize - centre.index() as isize;
    if delta.unsigned_abs() > OFFSET_REACH {
        return None;
    }
    OFFSETS[(delta + OFFSET_REACH as isize) as usize].map(|(d, s)| (d as usize, s as u32))
}

/// One move of the history, enough to undo it.
#[derive(Clone, Copy, Debug)]
struct Played {
    cell: Cell,
    color: Color,
    side_before: Color,
    /// Length of the undo log before this move.
    log_len: u32,
    /// The played cell's state while it was empty.
    before: CellState,
}

/// One empty cell's incremental state, as saved in the undo log.
#[derive(Clone, Copy, Debug)]
struct CellState {
    index: u16,
    patterns: [u16; 2],
    threats: [u8; 2],
    candidate: bool,
}

/// The forty cells within five of a cell on its four lines: index offset, direction, and
/// the bit shift of the centre's slot in that neighbour's line key.
const fn build_neighbours() -> [(i16, u8, u8); 40] {
    let mut table = [(0i16, 0u8, 0u8); 40];
    let mut n = 0;
    let mut d = 0;
    while d < 4 {
        let mut j: isize = 1;
        while j <= 5 {
            let mut sign: isize = -1;
            while sign <= 1 {
                let offset = sign * j;
                table[n] = (
                    (offset * DIRECTION_STEPS[d]) as i16,
                    d as u8,
                    (2 * slot(-offset)) as u8,
                );
                n += 1;
                sign += 2;
            }
            j += 1;
        }
        d += 1;
    }
    table
}

static NEIGHBOURS: [(i16, u8, u8); 40] = build_neighbours();

const BITSET_WORDS: usize = CELLS.div_ceil(64);

/// A Gomoku position with its incremental pattern state. Cheap to clone (boxed arrays).
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    tables: &'static RuleTables,
    stones: Box<[Stone; CELLS]>,
    keys: Box<[[u32; 4]; CELLS]>,
    /// Pattern words by colour: 4 bits a direction, direction `d` at bits `4d..4d+4`.
    patterns: Box<[[u16; 2]; CELLS]>,
    /// Threat classes as bytes, by colour.
    threats: Box<[[u8; 2]; CELLS]>,
    threat_counts: [[u16; 16]; 2],
    /// Renju: empty cells where black has two or more open-three lines (and nothing that
    /// decides the point by the lines alone).
    double_three_candidates: [u64; BITSET_WORDS],
    /// By colour: the empty cells where that colour's class is [`Threat::Flex3`] or better
    /// (threes, fours, fives), so the search finds them without scanning the board.
    hot: [[u64; BITSET_WORDS]; 2],
    history: Vec<Played>,
    /// The state of every cell a move changed, as it was before: undo restores it instead
    /// of recomputing it.
    undo_log: Vec<CellState>,
    side_to_move: Color,
    hash: u64,
    self_check: bool,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Board {}x{} {} moves [",
            self.width, self.height, self.rule
        )?;
        for (i, played) in self.history.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", played.cell)?;
        }
        f.write_str("]")
    }
}

impl Board {
    /// An empty `width` x `height` board (each side 1 to 32) under `rule`, black to move.
    /// The first board of a rule builds its pattern tables (a few tenths of a second).
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, SizeError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(SizeError { width, height });
        }
        let mut stones = Box::new([Stone::Wall; CELLS]);
        for y in 0..height {
            for x in 0..width {
                if let Some(cell) = Cell::from_xy(x, y) {
                    stones[cell.index()] = Stone::Empty;
                }
            }
        }
        let mut board = Board {
            width,
            height,
            rule,
            tables: RuleTables::get(rule),
            stones,
            keys: Box::new([[0; 4]; CELLS]),
            patterns: Box::new([[0; 2]; CELLS]),
            threats: Box::new([[0; 2]; CELLS]),
            threat_counts: [[0; 16]; 2],
            double_three_candidates: [0; BITSET_WORDS],
            hot: [[0; BITSET_WORDS]; 2],
            history: Vec::with_capacity(width * height),
            undo_log: Vec::with_capacity(64 * width * height),
            side_to_move: Color::Black,
            hash: 0,
            self_check: false,
        };
        board.rebuild();
        Ok(board)
    }

    /// Recomputes keys, patterns, threats, counts and hash from the stones.
    fn rebuild(&mut self) {
        let fresh = self.recount();
        self.keys = fresh.keys;
        self.patterns = fresh.patterns;
        self.threats = fresh.threats;
        self.threat_counts = fresh.threat_counts;
        self.double_three_candidates = fresh.double_three_candidates;
        self.hot = fresh.hot;
        self.hash = fresh.hash;
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The colour to play next.
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// Sets the colour to play next (for positions given stone by stone).
    pub fn set_side_to_move(&mut self, color: Color) {
        if color != self.side_to_move {
            self.hash ^= ZOBRIST_WHITE_TO_MOVE;
            self.side_to_move = color;
        }
    }

    /// The Zobrist key of the stones and the side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones on the board.
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// True when every intersection is occupied.
    pub fn is_full(&self) -> bool {
        self.history.len() == self.width * self.height
    }

    /// The moves played, oldest first, with their colours.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = (Cell, Color)> + ExactSizeIterator + '_ {
        self.history.iter().map(|p| (p.cell, p.color))
    }

    /// The last move, if any.
    pub fn last_move(&self) -> Option<(Cell, Color)> {
        self.history.last().map(|p| (p.cell, p.color))
    }

    /// The cell at `x`, `y` when it is on this board.
    pub fn cell(&self, x: usize, y: usize) -> Option<Cell> {
        if x < self.width && y < self.height {
            Cell::from_xy(x, y)
        } else {
            None
        }
    }

    /// True when `cell` is on this board (occupied or not).
    pub fn contains(&self, cell: Cell) -> bool {
        self.stones[cell.index()] != Stone::Wall
    }

    /// What is on `cell` (`Wall` off the board).
    #[inline]
    pub fn stone(&self, cell: Cell) -> Stone {
        self.stones[cell.index()]
    }

    /// True when `cell` is on the board and free.
    #[inline]
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.stones[cell.index()] == Stone::Empty
    }

    /// Every cell of the board, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).filter_map(move |x| Cell::from_xy(x, y)))
    }

    /// Every free cell, row by row.
    pub fn empty_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells().filter(|&c| self.is_empty(c))
    }

    /// `color`'s pattern on direction `direction` (0 horizontal, 1 vertical, 2 diagonal,
    /// 3 anti-diagonal) if it plays the empty `cell`; `Dead` on occupied cells.
    #[inline]
    pub fn pattern(&self, cell: Cell, color: Color, direction: usize) -> Pattern {
        Pattern::from_u8(
            ((self.patterns[cell.index()][color.index()] >> (4 * (direction & 3))) & 15) as u8,
        )
    }

    /// `color`'s four line patterns at `cell` in one word, 4 bits a direction (direction `d`
    /// at bits `4d..4d+4`, see [`crate::gomoku::pattern::unpack_word`]); 0 on occupied cells.
    #[inline]
    pub fn pattern_word(&self, cell: Cell, color: Color) -> u16 {
        self.patterns[cell.index()][color.index()]
    }

    /// `color`'s threat class at the empty `cell`; `None` on occupied cells.
    #[inline]
    pub fn threat(&self, cell: Cell, color: Color) -> Threat {
        Threat::from_u8(self.threats[cell.index()][color.index()])
    }

    /// `color`'s threat class at the empty `cell` if the other colour had a stone on the
    /// empty `blocker` as well, read from the line tables without playing it: only the
    /// pattern on the line through both changes. `cell`'s class when `blocker` is not within
    /// five on one of its lines. The class is the combined one, without renju forbidden
    /// points, so it is exact for every colour but renju black.
    #[inline]
    pub fn threat_if_blocked(&self, cell: Cell, color: Color, blocker: Cell) -> Threat {
        debug_assert!(self.is_empty(cell) && self.is_empty(blocker) && cell != blocker);
        let Some((d, slot)) = line_slot(cell, blocker) else {
            return self.threat(cell, color);
        };
        let key = self.keys[cell.index()][d] | ((color.flip().stone() as u32) << (2 * slot));
        let pattern = (self.tables.packed(key) >> (4 * color.index())) & 15;
        let shift = 4 * d;
        let word = self.patterns[cell.index()][color.index()];
        let word = (word & !(15 << shift)) | ((pattern as u16) << shift);
        self.tables.combined(color, word).0
    }

    /// A mark in the log of changed cells, for [`Board::changed_since`].
    #[inline]
    pub fn change_mark(&self) -> usize {
        self.undo_log.len()
    }

    /// Calls `f` on every empty cell whose incremental state (patterns or classes) changed
    /// since `mark` (taken before the last move or moves), in the order of the changes; a
    /// cell changed more than once comes more than once. The played cells are not reported.
    #[inline]
    pub fn changed_since(&self, mark: usize, mut f: impl FnMut(Cell)) {
        for saved in self.undo_log.get(mark..).unwrap_or(&[]) {
            if let Some(cell) = Cell::from_index(saved.index as usize) {
                f(cell);
            }
        }
    }

    /// How many empty cells give `color` the class `threat`.
    #[inline]
    pub fn threat_count(&self, color: Color, threat: Threat) -> usize {
        self.threat_counts[color.index()][threat as usize] as usize
    }

    /// Turns on (or off) a full recount after every move and undo, checked with a panic:
    /// for tests; costs about a thousand times a move.
    pub fn set_self_check(&mut self, on: bool) {
        self.self_check = on;
    }

    /// Plays the side to move's stone on the empty `cell`.
    #[inline]
    pub fn play(&mut self, cell: Cell) {
        self.play_as(cell, self.side_to_move);
    }

    /// Puts a `color` stone on `cell`, which must be empty and on the board (checked in
    /// debug builds; the callers that take outside input check [`Board::is_empty`] first);
    /// the other colour moves next.
    pub fn play_as(&mut self, cell: Cell, color: Color) {
        debug_assert!(self.is_empty(cell), "{cell} is not free");
        let before = self.cell_state(cell);
        self.history.push(Played {
            cell,
            color,
            side_before: self.side_to_move,
            log_len: self.undo_log.len() as u32,
            before,
        });
        self.hash ^= ZOBRIST_STONE[color.index()][cell.index()];
        self.set_side_to_move(color.flip());
        self.stones[cell.index()] = color.stone();
        // Occupied cells are not counted and hold `None`.
        for c in Color::BOTH {
            let old = self.threats[cell.index()][c.index()] as usize;
            self.threat_counts[c.index()][old] -= 1;
        }
        self.threats[cell.index()] = [Threat::None as u8; 2];
        self.sync_hot(cell.index(), 0);
        self.sync_hot(cell.index(), 1);
        self.patterns[cell.index()] = [0; 2];
        self.set_candidate(cell, false);
        let code = color.stone() as u32;
        self.add_to_neighbours(cell, code);
        self.after_change();
    }

    /// Takes back the last move; returns it, or `None` on an empty history.
    pub fn undo(&mut self) -> Option<Cell> {
        let played = self.history.pop()?;
        let cell = played.cell;
        self.hash ^= ZOBRIST_STONE[played.color.index()][cell.index()];
        self.set_side_to_move(played.side_before);
        self.stones[cell.index()] = Stone::Empty;
        let centre = cell.index() as isize;
        for &(offset, d, shift) in NEIGHBOURS.iter() {
            let neighbour = (centre + offset as isize) as usize;
            if self.stones[neighbour] != Stone::Wall {
                self.keys[neighbour][d as usize] &= !(3 << shift);
            }
        }
        // Every changed cell back to its saved state, latest change first.
        while self.undo_log.len() > played.log_len as usize {
            if let Some(saved) = self.undo_log.pop() {
                self.restore(saved, true);
            }
        }
        // The freed cell is counted again.
        self.restore(played.before, false);
        self.check_if_asked();
        Some(cell)
    }

    /// The incremental state of the empty `cell`.
    #[inline]
    fn cell_state(&self, cell: Cell) -> CellState {
        let i = cell.index();
        CellState {
            index: i as u16,
            patterns: self.patterns[i],
            threats: self.threats[i],
            candidate: self.double_three_candidates[i / 64] & (1 << (i % 64)) != 0,
        }
    }

    /// Puts a saved cell state back; `counted` when the cell's current classes are in the
    /// counts (an empty cell), false for a cell being freed.
    #[inline]
    fn restore(&mut self, saved: CellState, counted: bool) {
        let i = saved.index as usize;
        // Most saved states differ only in a line pattern, not in the classes.
        if !counted || self.threats[i] != saved.threats {
            for c in 0..2 {
                if counted {
                    self.threat_counts[c][self.threats[i][c] as usize & 15] -= 1;
                }
                self.threat_counts[c][saved.threats[c] as usize & 15] += 1;
            }
            self.threats[i] = saved.threats;
            self.sync_hot(i, 0);
            self.sync_hot(i, 1);
        }
        self.patterns[i] = saved.patterns;
        let (word, bit) = (i / 64, i % 64);
        if saved.candidate {
            self.double_three_candidates[word] |= 1 << bit;
        } else {
            self.double_three_candidates[word] &= !(1 << bit);
        }
    }

    /// Writes the stone `code` into the key slot of `cell` in every neighbour's line key
    /// within five, and refreshes the empty neighbours.
    #[inline]
    fn add_to_neighbours(&mut self, cell: Cell, code: u32) {
        let centre = cell.index() as isize;
        for &(offset, d, shift) in NEIGHBOURS.iter() {
            let neighbour = (centre + offset as isize) as usize;
            let stone = self.stones[neighbour];
            if stone == Stone::Wall {
                // Walls never read their keys.
                continue;
            }
            self.keys[neighbour][d as usize] |= code << shift;
            if stone == Stone::Empty
                && let Some(n) = Cell::from_index(neighbour)
            {
                self.refresh_pattern(n, d as usize);
            }
        }
    }

    /// Re-reads both colours' patterns of `cell` on direction `d` and refreshes the threat
    /// class of each colour whose pattern changed.
    #[inline]
    fn refresh_pattern(&mut self, cell: Cell, d: usize) {
        let entry = self.tables.packed(self.keys[cell.index()][d]) as u16;
        let shift = 4 * d;
        let old = self.patterns[cell.index()];
        let new = [0, 1].map(|c| (old[c] & !(15 << shift)) | (((entry >> (4 * c)) & 15) << shift));
        if new == old {
            return;
        }
        let saved = self.cell_state(cell);
        self.undo_log.push(saved);
        self.patterns[cell.index()] = new;
        for color in Color::BOTH {
            if new[color.index()] != old[color.index()] {
                self.refresh_threat(cell, color);
            }
        }
    }

    #[inline]
    fn refresh_threat(&mut self, cell: Cell, color: Color) {
        let word = self.patterns[cell.index()][color.index()];
        let (threat, candidate) = self.tables.combined(color, word);
        self.set_threat(cell, color, threat);
        if color == Color::Black && self.rule == Rule::Renju {
            self.set_candidate(cell, candidate);
        }
    }

    #[inline]
    fn set_threat(&mut self, cell: Cell, color: Color, threat: Threat) {
        let slot = &mut self.threats[cell.index()][color.index()];
        if *slot == threat as u8 {
            return;
        }
        let counts = &mut self.threat_counts[color.index() & 1];
        counts[*slot as usize & 15] -= 1;
        counts[threat as usize & 15] += 1;
        *slot = threat as u8;
        self.sync_hot(cell.index(), color.index() & 1);
    }

    /// Sets or clears cell `i`'s bit in colour `c`'s three-or-better set from its class.
    #[inline]
    fn sync_hot(&mut self, i: usize, c: usize) {
        let (word, bit) = (i / 64, i % 64);
        let on = (self.threats[i][c] >= Threat::Flex3 as u8) as u64;
        let w = &mut self.hot[c][word];
        *w = (*w & !(1 << bit)) | (on << bit);
    }

    /// Calls `f` on every empty cell where `color`'s class is [`Threat::Flex3`] or better,
    /// in index order (row by row).
    #[inline]
    pub fn for_each_hot(&self, color: Color, mut f: impl FnMut(Cell)) {
        for (word, &bits) in self.hot[color.index()].iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let index = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(cell) = Cell::from_index(index) {
                    f(cell);
                }
            }
        }
    }

    #[inline]
    fn set_candidate(&mut self, cell: Cell, on: bool) {
        let (word, bit) = (cell.index() / 64, cell.index() % 64);
        if on {
            self.double_three_candidates[word] |= 1 << bit;
        } else {
            self.double_three_candidates[word] &= !(1 << bit);
        }
    }

    /// Re-decides every renju double-three candidate (a distant move can make a three's
    /// four point forbidden or free again), then runs the self check if it is on.
    fn after_change(&mut self) {
        if self.rule == Rule::Renju {
            for word in 0..BITSET_WORDS {
                let mut bits = self.double_three_candidates[word];
                while bits != 0 {
                    let index = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let Some(cell) = Cell::from_index(index) else {
                        continue;
                    };
                    let threat = if self.forbidden_kind(cell) == Some(Forbidden::DoubleThree) {
                        Threat::Forbidden
                    } else {
                        let word = self.patterns[cell.index()][Color::Black.index()];
                        self.tables.combined(Color::Black, word).0
                    };
                    if self.threats[cell.index()][Color::Black.index()] != threat as u8 {
                        let saved = self.cell_state(cell);
                        self.undo_log.push(saved);
                        self.set_threat(cell, Color::Black, threat);
                    }
                }
            }
        }
        self.check_if_asked();
    }

    /// With the self check on, panics when the incremental state differs from a recount.
    fn check_if_asked(&self) {
        if self.self_check
            && let Err(difference) = self.verify()
        {
            panic!("incremental board state differs from a recount: {difference} ({self:?})");
        }
    }

    /// `color`'s pattern at the empty `cell` on direction `d`, with black stones added on
    /// the `extra` cells (which must be empty on the board).
    fn pattern_with(&self, cell: Cell, d: usize, color: Color, extra: &[Cell]) -> Pattern {
        let mut key = self.keys[cell.index()][d];
        for &stone in extra {
            if let Some((direction, s)) = line_slot(cell, stone)
                && direction == d
            {
                key |= (Stone::Black as u32) << (2 * s);
            }
        }
        self.tables.pattern(color, key)
    }

    /// Why black may not play the empty `cell` under renju, decided exactly: a five wins
    /// whatever else the move makes; otherwise an overline, two fours (two lines or one
    /// line), or two open threes of which at least two are real, where a three is real when
    /// one of the points that make it a straight four is itself not forbidden (checked
    /// recursively with the stone in place). `None` under other rules and on occupied cells.
    pub fn forbidden_kind(&self, cell: Cell) -> Option<Forbidden> {
        if self.rule != Rule::Renju || !self.is_empty(cell) {
            return None;
        }
        let mut extra = Vec::with_capacity(8);
        self.forbidden_with(cell, &mut extra)
    }

    /// True when black may not play `cell` (renju only), from the incremental classes.
    #[inline]
    pub fn is_forbidden(&self, cell: Cell) -> bool {
        self.rule == Rule::Renju && self.threat(cell, Color::Black) == Threat::Forbidden
    }

    fn forbidden_with(&self, cell: Cell, extra: &mut Vec<Cell>) -> Option<Forbidden> {
        let patterns: [Pattern; 4] =
            std::array::from_fn(|d| self.pattern_with(cell, d, Color::Black, extra));
        if patterns.contains(&Pattern::F5) {
            return None;
        }
        if patterns.contains(&Pattern::Overline) {
            return Some(Forbidden::Overline);
        }
        if patterns.iter().map(|p| p.fours()).sum::<u32>() >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        if patterns.iter().filter(|p| p.is_open_three()).count() < 2 {
            return None;
        }
        extra.push(cell);
        let mut real_threes = 0;
        for (d, pattern) in patterns.iter().enumerate() {
            if pattern.is_open_three() && self.three_is_real(cell, d, extra) {
                real_threes += 1;
                if real_threes >= 2 {
                    break;
                }
            }
        }
        extra.pop();
        (real_threes >= 2).then_some(Forbidden::DoubleThree)
    }

    /// With black on `cell` (the last of `extra`): is there a point on direction `d` that
    /// makes a straight four through `cell` and is not itself forbidden?
    fn three_is_real(&self, cell: Cell, d: usize, extra: &mut Vec<Cell>) -> bool {
        let step = DIRECTION_STEPS[d];
        for sign in [1isize, -1] {
            for j in 1..=4isize {
                let index = (cell.index() as isize + sign * j * step) as usize;
                let Some(point) = Cell::from_index(index) else {
                    break;
                };
                let black_here = self.stones[index] == Stone::Black || extra.contains(&point);
                if black_here {
                    continue;
                }
                if self.stones[index] != Stone::Empty {
                    break;
                }
                // The first free point this way: a four made here contains `cell` exactly
                // when everything between is black, which the walk guarantees.
                if self.pattern_with(point, d, Color::Black, extra) == Pattern::F4
                    && self.forbidden_with(point, extra).is_none()
                {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// Black's forbidden points in this position (renju), decided exactly, row by row.
    pub fn forbidden_points(&self) -> Vec<Cell> {
        self.empty_cells()
            .filter(|&c| self.forbidden_kind(c).is_some())
            .collect()
    }

    /// The run of `color` stones through `cell` on direction `d`, counting `cell` as
    /// `color`'s: its length and whether both cells past its ends hold the other colour.
    fn run(&self, cell: Cell, d: usize, color: Color) -> (usize, bool) {
        let step = DIRECTION_STEPS[d];
        let own = color.stone();
        let opponent = color.flip().stone();
        let mut length = 1;
        let mut blocked = 0;
        for sign in [1isize, -1] {
            let mut index = cell.index() as isize + sign * step;
            while self.stones[index as usize] == own {
                length += 1;
                index += sign * step;
            }
            if self.stones[index as usize] == opponent {
                blocked += 1;
            }
        }
        (length, blocked == 2)
    }

    /// True when `color` makes a winning five by playing the empty `cell` (or, on an
    /// occupied cell, when its stone there is part of one), by a direct scan of the lines.
    pub fn makes_five(&self, cell: Cell, color: Color) -> bool {
        let line_rule = self.rule.line_rule(color);
        (0..4).any(|d| {
            let (length, blocked_both) = self.run(cell, d, color);
            line_rule.is_five(length, blocked_both)
        })
    }

    /// Everything the incremental state holds, recomputed from the stones.
    fn recount(&self) -> Board {
        let mut fresh = Board {
            width: self.width,
            height: self.height,
            rule: self.rule,
            tables: self.tables,
            stones: self.stones.clone(),
            keys: Box::new([[0; 4]; CELLS]),
            patterns: Box::new([[0; 2]; CELLS]),
            threats: Box::new([[0; 2]; CELLS]),
            threat_counts: [[0; 16]; 2],
            double_three_candidates: [0; BITSET_WORDS],
            hot: [[0; BITSET_WORDS]; 2],
            history: self.history.clone(),
            undo_log: Vec::new(),
            side_to_move: self.side_to_move,
            hash: 0,
            self_check: false,
        };
        for y in PAD..PAD + MAX_SIDE {
            for x in PAD..PAD + MAX_SIDE {
                let centre = (y * STRIDE + x) as isize;
                for (d, &step) in DIRECTION_STEPS.iter().enumerate() {
                    let mut key = 0;
                    for j in (-5isize..=5).filter(|&j| j != 0) {
                        let stone = fresh.stones[(centre + j * step) as usize];
                        key |= (stone as u32) << (2 * slot(j));
                    }
                    fresh.keys[centre as usize][d] = key;
                }
            }
        }
        let cells: Vec<Cell> = fresh.empty_cells().collect();
        for &cell in &cells {
            // Straight from the tables and `combine`, not through the incremental helpers.
            for color in Color::BOTH {
                let patterns: [Pattern; 4] = std::array::from_fn(|d| {
                    fresh.tables.pattern(color, fresh.keys[cell.index()][d])
                });
                let mut word = 0u16;
                for (d, pattern) in patterns.iter().enumerate() {
                    word |= (*pattern as u16) << (4 * d);
                }
                fresh.patterns[cell.index()][color.index()] = word;
                let renju_black = fresh.rule == Rule::Renju && color == Color::Black;
                let combined = combine(patterns, renju_black);
                fresh.threats[cell.index()][color.index()] = combined.threat as u8;
                fresh.threat_counts[color.index()][combined.threat as usize] += 1;
                if renju_black {
                    fresh.set_candidate(cell, combined.double_three_candidate);
                }
                fresh.sync_hot(cell.index(), color.index());
            }
        }
        fresh.after_change();
        let mut hash = 0;
        for played in &fresh.history {
            hash ^= ZOBRIST_STONE[played.color.index()][played.cell.index()];
        }
        if fresh.side_to_move == Color::White {
            hash ^= ZOBRIST_WHITE_TO_MOVE;
        }
        fresh.hash = hash;
        fresh
    }

    /// Compares the incremental state with a recount; `Err` names the first difference.
    pub fn verify(&self) -> Result<(), String> {
        let fresh = self.recount();
        if fresh.hash != self.hash {
            return Err("hash".to_string());
        }
        for cell in self.cells() {
            let i = cell.index();
            if fresh.keys[i] != self.keys[i] {
                return Err(format!("line keys at {cell}"));
            }
            if self.is_empty(cell) {
                if fresh.patterns[i] != self.patterns[i] {
                    return Err(format!("patterns at {cell}"));
                }
                if fresh.threats[i] != self.threats[i] {
                    return Err(format!(
                        "threats at {cell}: {:?} instead of {:?}",
                        self.threats[i], fresh.threats[i]
                    ));
                }
            }
        }
        for color in Color::BOTH {
            if self.threat_counts[color.index()] != fresh.threat_counts[color.index()] {
                return Err(format!("threat counts of {}", color.name()));
            }
            if self.hot[color.index()] != fresh.hot[color.index()] {
                return Err(format!("three-or-better cells of {}", color.name()));
            }
        }
        Ok(())
    }
}
