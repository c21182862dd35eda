//! Threat-space searches. VCF: the attacker plays only fours, the defender only the forced
//! block. VCT: the attacker also plays moves that make an open three, and the defender tries
//! every defence (each cell that removes the attacker's open-four points, and its own fours).
//! Renju: black never plays a forbidden point; a forced block on a black forbidden point
//! means black cannot block. Failures are cached by position and depth.

use super::movegen::{
    defences, forbidden_for, four_cells, real_blocks, static_win, threatens_open_four,
};
use super::pos::Pos;
use crate::gomoku::{Cell, Color, Threat};

/// Polled at every threat-search node: true to abort.
pub trait Tick {
    /// Counts a node; true when the search must stop.
    fn tick(&mut self) -> bool;
}

/// A plain node budget.
pub struct NodeBudget {
    /// Nodes counted so far.
    pub nodes: u64,
    /// Stop at this many.
    pub max: u64,
}

impl Tick for NodeBudget {
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        self.nodes > self.max
    }
}

const CACHE_BITS: u32 = 16;

/// Positions known to have no threat win within some depth: direct-mapped, the key's low
/// byte replaced by the depth searched. Deterministic (no hashing state).
pub struct FailCache {
    entries: Vec<u64>,
}

impl Default for FailCache {
    fn default() -> FailCache {
        FailCache::new()
    }
}

impl FailCache {
    /// An empty cache.
    pub fn new() -> FailCache {
        FailCache {
            entries: vec![0; 1 << CACHE_BITS],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = 0);
    }

    #[inline]
    fn slot(key: u64) -> usize {
        (key >> (64 - CACHE_BITS)) as usize
    }

    #[inline]
    fn failed(&self, key: u64, depth: u32) -> bool {
        let e = self.entries[FailCache::slot(key)];
        e != 0 && (e ^ key) >> 8 == 0 && (e & 255) as u32 >= depth
    }

    #[inline]
    fn store(&mut self, key: u64, depth: u32) {
        self.entries[FailCache::slot(key)] = (key & !255) | depth.min(255) as u64;
    }
}

/// The attacker's four moves, strongest first, then nearest the attacker's last stone.
fn four_moves(pos: &Pos, att: Color, out: &mut Vec<Cell>) {
    pos.cells_with(att, Threat::Block4, out);
    let n = pos.board.moves().len();
    let last = (1..=n.min(2))
        .filter_map(|k| pos.board.moves().nth(n - k))
        .find(|&(_, c)| c == att)
        .map(|(c, _)| c);
    let key = |c: &Cell| {
        let t = pos.board.threat(*c, att) as i32;
        let d = last.map_or(0, |l| {
            (l.x() as i32 - c.x() as i32)
                .abs()
                .max((l.y() as i32 - c.y() as i32).abs())
        });
        (-t, d, c.index())
    };
    out.sort_unstable_by_key(key);
}

/// Keys of the threat-search caches for the two searches.
const VCT_SALT: u64 = 0x5bd1_e995_2f8c_a3a7;

/// The state of one threat search.
pub struct ThreatSearch<'a, T: Tick> {
    /// The position, returned unchanged.
    pub pos: &'a mut Pos,
    /// Node counter and abort poll.
    pub ticker: &'a mut T,
    /// Failure cache.
    pub cache: &'a mut FailCache,
    /// Set when the ticker asked to stop (results are then "not found").
    pub aborted: bool,
    /// The winning line found, attacker's move first.
    pub line: Vec<Cell>,
    /// Plies deepest reached from the start.
    pub seldepth: usize,
    /// The VCT's first move, when one was found.
    pub vct_move: Option<Cell>,
}

impl<'a, T: Tick> ThreatSearch<'a, T> {
    /// A search on `pos` (the side to move attacks).
    pub fn new(pos: &'a mut Pos, ticker: &'a mut T, cache: &'a mut FailCache) -> Self {
        ThreatSearch {
            pos,
            ticker,
            cache,
            aborted: false,
            line: Vec::new(),
            seldepth: 0,
            vct_move: None,
        }
    }

    #[inline]
    fn tick(&mut self) -> bool {
        if !self.aborted && self.ticker.tick() {
            self.aborted = true;
        }
        self.aborted
    }

    /// The cells where the other colour stops all of `color`'s five points.
    fn blocks_of(&mut self, color: Color) -> Vec<Cell> {
        let mut fives = Vec::new();
        self.pos.cells_with(color, Threat::Five, &mut fives);
        real_blocks(self.pos, color, &fives)
    }

    /// VCF for the side to move, iterative deepening up to `max_depth` attacker moves.
    /// On success `line` holds the moves (attacker and forced replies alternating).
    pub fn vcf(&mut self, max_depth: u32) -> bool {
        let mut depth = 1;
        loop {
            self.line.clear();
            if self.vcf_attack(depth, 0) {
                return true;
            }
            if self.aborted || depth >= max_depth {
                return false;
            }
            depth = (depth * 2).min(max_depth);
        }
    }

    /// One VCF attacker node with `depth` four moves left.
    pub fn vcf_attack(&mut self, depth: u32, ply: usize) -> bool {
        if self.tick() {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        let att = self.pos.us();
        let def = att.flip();
        let board = &self.pos.board;
        if board.threat_count(att, Threat::Five) > 0 {
            if let Some(c) = self.pos.find(att, Threat::Five) {
                self.line.push(c);
                return true;
            }
            return false;
        }
        let mut moves = Vec::new();
        if board.threat_count(def, Threat::Five) > 0 {
            // The defender's block made a four: block it, with a four of our own.
            let blocks = self.blocks_of(def);
            moves.extend(
                blocks
                    .into_iter()
                    .filter(|&b| self.pos.board.threat(b, att) >= Threat::Block4),
            );
            if moves.is_empty() {
                return false;
            }
        } else if board.threat_count(att, Threat::Flex4) > 0
            && let Some((3, c)) = static_win(self.pos)
        {
            self.line.push(c);
            self.finish_open_four(c, att);
            return true;
        }
        if depth == 0 {
            return false;
        }
        let key = self.pos.board.hash();
        if self.cache.failed(key, depth) {
            return false;
        }
        if moves.is_empty() {
            four_moves(self.pos, att, &mut moves);
        }
        let mut fives = Vec::with_capacity(4);
        for c in moves {
            self.pos.try_play(c);
            self.pos.fives_around(c, att, &mut fives);
            if fives.is_empty() {
                self.pos.undo();
                continue;
            }
            let len = self.line.len();
            self.line.push(c);
            let blocks = real_blocks(self.pos, att, &fives);
            if blocks.is_empty() {
                // No block stops the fives (two of them, or black may not block).
                self.pos.undo();
                self.line.truncate(len);
                self.line.push(c);
                self.finish_open_four(c, att);
                return true;
            }
            if blocks.len() > 1 {
                self.pos.undo();
                self.line.truncate(len);
                continue;
            }
            let block = blocks[0];
            self.line.push(block);
            self.pos.try_play(block);
            let win = self.vcf_attack(depth - 1, ply + 2);
            self.pos.undo();
            self.pos.undo();
            if win {
                return true;
            }
            self.line.truncate(len);
            if self.aborted {
                return false;
            }
        }
        self.cache.store(key, depth);
        false
    }

    /// Appends, after the attacker's unstoppable four on `c`, the defender's first five
    /// point (a block that fails, or a forbidden point black cannot play: then the line
    /// ends there) and the attacker's five.
    fn finish_open_four(&mut self, c: Cell, att: Color) {
        let def = att.flip();
        let mut fives = Vec::with_capacity(4);
        self.pos.try_play(c);
        self.pos.fives_around(c, att, &mut fives);
        if let Some(&f) = fives.first() {
            self.line.push(f);
            if !forbidden_for(self.pos, f, def) {
                self.pos.try_play(f);
                if let Some(w) = self.pos.find(att, Threat::Five) {
                    self.line.push(w);
                }
                self.pos.undo();
            }
        }
        self.pos.undo();
    }

    /// VCT for the side to move, iterative deepening up to `max_depth` attacker moves: the
    /// plies to the five under the best defence the search saw, the first move in
    /// `vct_move`.
    pub fn vct(&mut self, max_depth: u32) -> Option<usize> {
        let mut depth = 1;
        loop {
            self.vct_move = None;
            if let Some(plies) = self.vct_attack(depth, 0) {
                return Some(plies);
            }
            if self.aborted || depth >= max_depth {
                return None;
            }
            depth += 1;
        }
    }

    /// A VCT attacker node with `depth` threat moves left: plies to the five when it wins
    /// (the root's move goes to `vct_move`).
    fn vct_attack(&mut self, depth: u32, ply: usize) -> Option<usize> {
        if self.tick() {
            return None;
        }
        self.seldepth = self.seldepth.max(ply);
        let att = self.pos.us();
        let def = att.flip();
        if self.pos.board.threat_count(def, Threat::Five) > 0 {
            for block in self.blocks_of(def) {
                self.pos.try_play(block);
                let win = self.vct_defend(depth, ply + 1);
                self.pos.undo();
                if let Some(plies) = win {
                    if ply == 0 {
                        self.vct_move = Some(block);
                    }
                    return Some(plies + 1);
                }
                if self.aborted {
                    return None;
                }
            }
            return None;
        }
        if let Some((plies, c)) = static_win(self.pos) {
            if ply == 0 {
                self.vct_move = Some(c);
            }
            return Some(plies);
        }
        if depth == 0 {
            return None;
        }
        let key = self.pos.board.hash() ^ VCT_SALT;
        if self.cache.failed(key, depth) {
            return None;
        }
        let mut moves = Vec::new();
        four_moves(self.pos, att, &mut moves);
        let mut threes = Vec::new();
        self.pos.cells_with(att, Threat::Flex3, &mut threes);
        threes.retain(|&c| self.pos.board.threat(c, att) <= Threat::Flex3x2);
        threes.sort_unstable_by_key(|&c| {
            (
                -(self.pos.board.threat(c, att) as i32),
                -(self.pos.board.threat(c, def) as i32),
                c.index(),
            )
        });
        moves.extend(threes);
        for c in moves {
            self.pos.try_play(c);
            let win = self.vct_defend(depth - 1, ply + 1);
            self.pos.undo();
            if let Some(plies) = win {
                if ply == 0 {
                    self.vct_move = Some(c);
                }
                return Some(plies + 1);
            }
            if self.aborted {
                return None;
            }
        }
        self.cache.store(key, depth);
        None
    }

    /// A VCT defender node: when every defence loses, the plies to the five under the
    /// longest defence.
    fn vct_defend(&mut self, depth: u32, ply: usize) -> Option<usize> {
        if self.tick() {
            return None;
        }
        let def = self.pos.us();
        let att = def.flip();
        let board = &self.pos.board;
        if board.threat_count(def, Threat::Five) > 0 {
            return None;
        }
        if board.threat_count(att, Threat::Five) > 0 {
            // No block: any move, then the five.
            let mut longest = 2;
            for block in self.blocks_of(att) {
                self.pos.try_play(block);
                let win = self.vct_attack(depth, ply + 1);
                self.pos.undo();
                match win {
                    Some(plies) if !self.aborted => longest = longest.max(plies + 1),
                    _ => return None,
                }
            }
            return Some(longest);
        }
        if !threatens_open_four(self.pos, att) {
            return None;
        }
        let mut moves = defences(self.pos, def);
        if four_cells(self.pos, def) > 0 {
            let mut own = Vec::new();
            self.pos.cells_with(def, Threat::Block4, &mut own);
            for c in own {
                if !moves.contains(&c) {
                    moves.push(c);
                }
            }
        }
        // No defence: any move, the open four, any move, the five.
        let mut longest = 4;
        for d in moves {
            self.pos.try_play(d);
            let win = self.vct_attack(depth, ply + 1);
            self.pos.undo();
            match win {
                Some(plies) if !self.aborted => longest = longest.max(plies + 1),
                _ => return None,
            }
        }
        Some(longest)
    }
}

/// The side to move's VCF line on `board`, searched within `max_nodes` nodes.
pub fn vcf_line(pos: &mut Pos, max_nodes: u64) -> Option<Vec<Cell>> {
    let mut budget = NodeBudget {
        nodes: 0,
        max: max_nodes,
    };
    let mut cache = FailCache::new();
    let mut search = ThreatSearch::new(pos, &mut budget, &mut cache);
    if search.vcf(64) {
        Some(std::mem::take(&mut search.line))
    } else {
        None
    }
}

/// A node budget on top of another ticker: stops one threat search, not the caller's.
pub struct SubBudget<'t, T: Tick> {
    /// The ticker underneath (its abort is passed on).
    pub inner: &'t mut T,
    /// Nodes left.
    pub left: u64,
}

impl<T: Tick> Tick for SubBudget<'_, T> {
    #[inline]
    fn tick(&mut self) -> bool {
        if self.left == 0 {
            return true;
        }
        self.left -= 1;
        self.inner.tick()
    }
}

/// Does `color` win by threats (VCF, and with `vct` also VCT) when it is to move on `pos`,
/// found within `nodes`? The side to move is set for the search and restored.
pub fn threat_win<T: Tick>(
    pos: &mut Pos,
    color: Color,
    ticker: &mut T,
    cache: &mut FailCache,
    vct: bool,
    nodes: u64,
) -> bool {
    let saved = pos.us();
    pos.board.set_side_to_move(color);
    let mut budget = SubBudget {
        inner: ticker,
        left: nodes,
    };
    let found = {
        let mut ts = ThreatSearch::new(pos, &mut budget, cache);
        if static_win(ts.pos).is_some() || ts.vcf(64) {
            true
        } else if vct && !ts.aborted {
            ts.aborted = false;
            ts.vct(12).is_some()
        } else {
            false
        }
    };
    pos.board.set_side_to_move(saved);
    found
}

/// After the side to move plays `cell`: does the opponent still win by threats (within
/// `nodes`)? When `cell` makes a four the opponent's single block is played first and the
/// opponent's threats are looked for as if it were to move again.
pub fn still_loses<T: Tick>(
    pos: &mut Pos,
    cell: Cell,
    ticker: &mut T,
    cache: &mut FailCache,
    vct: bool,
    nodes: u64,
) -> bool {
    let us = pos.us();
    let them = us.flip();
    pos.try_play(cell);
    let mut fives = Vec::with_capacity(4);
    pos.fives_around(cell, us, &mut fives);
    let loses = if fives.is_empty() {
        threat_win(pos, them, ticker, cache, vct, nodes)
    } else {
        let blocks = real_blocks(pos, us, &fives);
        if blocks.len() == 1 && pos.board.threat_count(them, Threat::Five) == 0 {
            pos.try_play(blocks[0]);
            let l = threat_win(pos, them, ticker, cache, vct, nodes);
            pos.undo();
            l
        } else {
            false
        }
    };
    pos.undo();
    loses
}
