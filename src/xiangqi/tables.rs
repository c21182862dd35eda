//! Move and attack tables, all built at compile time: leaper targets with their blocking
//! squares, line-occupancy tables for chariots and cannons, and Zobrist keys.

use super::types::{FILES, RANKS, SQUARES};

/// Marker for "no square" in line tables.
pub const NONE: u8 = 0xff;

/// What a chariot or cannon can do along one line (a rank or a file), given the position on the
/// line and the line's occupancy bits. Positions are 0-based along the line.
#[derive(Clone, Copy, Debug)]
pub struct Slide {
    /// Positions reachable without capturing (empty points up to the first blocker).
    pub quiet: u16,
    /// First blocker towards lower positions, then towards higher ones (`NONE` if none):
    /// a chariot's capture targets.
    pub first: [u8; 2],
    /// Second blocker in each direction: a cannon's capture targets.
    pub second: [u8; 2],
}

impl Slide {
    /// Positions a chariot attacks along the line: the empty points and the first blocker
    /// each way.
    #[inline]
    pub fn chariot_reach(&self) -> u16 {
        let mut bits = self.quiet;
        for &f in &self.first {
            if f != NONE {
                bits |= 1 << f;
            }
        }
        bits
    }

    /// Positions a cannon attacks along a line of `len` points: beyond its screen, up to and
    /// including the second blocker each way.
    #[inline]
    pub fn cannon_reach(&self, len: usize) -> u16 {
        let mut bits = 0u16;
        if self.first[1] != NONE {
            let lo = self.first[1] as usize + 1;
            let hi = if self.second[1] != NONE {
                self.second[1] as usize
            } else {
                len - 1
            };
            if hi >= lo {
                bits |= (((1u32 << (hi + 1)) - 1) & !((1u32 << lo) - 1)) as u16;
            }
        }
        if self.first[0] != NONE {
            let hi = self.first[0] as usize; // exclusive
            let lo = if self.second[0] != NONE {
                self.second[0] as usize
            } else {
                0
            };
            if hi > lo {
                bits |= (((1u32 << hi) - 1) & !((1u32 << lo) - 1)) as u16;
            }
        }
        bits
    }
}

const fn build_slides<const LEN: usize, const OCC: usize>() -> [[Slide; OCC]; LEN] {
    let empty = Slide {
        quiet: 0,
        first: [NONE; 2],
        second: [NONE; 2],
    };
    let mut table = [[empty; OCC]; LEN];
    let mut pos = 0;
    while pos < LEN {
        let mut occ = 0;
        while occ < OCC {
            let mut slide = empty;
            // Towards lower positions (dir 0) and higher (dir 1).
            let mut dir = 0;
            while dir < 2 {
                let mut p = pos as i32;
                let mut found = 0;
                loop {
                    p += if dir == 0 { -1 } else { 1 };
                    if p < 0 || p >= LEN as i32 {
                        break;
                    }
                    if occ & (1 << p) != 0 {
                        if found == 0 {
                            slide.first[dir] = p as u8;
                            found = 1;
                        } else {
                            slide.second[dir] = p as u8;
                            break;
                        }
                    } else if found == 0 {
                        slide.quiet |= 1 << p;
                    }
                }
                dir += 1;
            }
            table[pos][occ] = slide;
            occ += 1;
        }
        pos += 1;
    }
    table
}

/// Slides along a rank: `[file][rank occupancy bits]`.
pub static RANK_SLIDES: [[Slide; 1 << FILES]; FILES] = build_slides::<FILES, { 1 << FILES }>();
/// Slides along a file: `[rank][file occupancy bits]`.
pub static FILE_SLIDES: [[Slide; 1 << RANKS]; RANKS] = build_slides::<RANKS, { 1 << RANKS }>();

/// Up to 8 leaper targets of a square, each with the square that must be empty
/// (horse leg, elephant eye; equal to the target for pieces that cannot be blocked).
#[derive(Clone, Copy, Debug)]
pub struct Leaps {
    /// Number of valid entries.
    pub len: u8,
    /// `(target, blocking square)` pairs.
    pub to: [(u8, u8); 8],
}

const NO_LEAPS: Leaps = Leaps {
    len: 0,
    to: [(0, 0); 8],
};

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32
}

const fn sq(file: i32, rank: i32) -> u8 {
    (rank * FILES as i32 + file) as u8
}

const fn in_palace(file: i32, rank: i32, color: usize) -> bool {
    file >= 3 && file <= 5 && if color == 0 { rank <= 2 } else { rank >= 7 }
}

const fn own_side(rank: i32, color: usize) -> bool {
    if color == 0 { rank <= 4 } else { rank >= 5 }
}

/// Horse jumps: `(file delta, rank delta, leg file delta, leg rank delta)`.
const HORSE_JUMPS: [(i32, i32, i32, i32); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const fn build_horse() -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as i32;
        let r = (s / FILES) as i32;
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_JUMPS[i];
            if on_board(f + df, r + dr) {
                let n = t[s].len as usize;
                t[s].to[n] = (sq(f + df, r + dr), sq(f + lf, r + lr));
                t[s].len += 1;
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Which horses attack a square: for target `t`, pairs `(horse square, leg square)`.
const fn build_horse_attackers() -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as i32;
        let r = (s / FILES) as i32;
        let mut i = 0;
        while i < 8 {
            let (df, dr, lf, lr) = HORSE_JUMPS[i];
            // A horse at (f - df, r - dr) jumps by (df, dr) onto s; its leg is relative to it.
            let hf = f - df;
            let hr = r - dr;
            if on_board(hf, hr) {
                let n = t[s].len as usize;
                t[s].to[n] = (sq(hf, hr), sq(hf + lf, hr + lr));
                t[s].len += 1;
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn build_elephant(color: usize) -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as i32;
        let r = (s / FILES) as i32;
        if own_side(r, color) {
            let deltas = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
            let mut i = 0;
            while i < 4 {
                let (df, dr) = deltas[i];
                if on_board(f + df, r + dr) && own_side(r + dr, color) {
                    let n = t[s].len as usize;
                    t[s].to[n] = (sq(f + df, r + dr), sq(f + df / 2, r + dr / 2));
                    t[s].len += 1;
                }
                i += 1;
            }
        }
        s += 1;
    }
    t
}

const fn build_steps(color: usize, diagonal: bool, palace: bool) -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as i32;
        let r = (s / FILES) as i32;
        let deltas = if diagonal {
            [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        } else {
            [(1, 0), (-1, 0), (0, 1), (0, -1)]
        };
        let mut i = 0;
        while i < 4 {
            let (df, dr) = deltas[i];
            let ok = on_board(f + df, r + dr)
                && (!palace || (in_palace(f, r, color) && in_palace(f + df, r + dr, color)));
            if ok {
                let n = t[s].len as usize;
                let target = sq(f + df, r + dr);
                t[s].to[n] = (target, target);
                t[s].len += 1;
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn build_pawn(color: usize) -> [Leaps; SQUARES] {
    let mut t = [NO_LEAPS; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % FILES) as i32;
        let r = (s / FILES) as i32;
        let forward = if color == 0 { 1 } else { -1 };
        let mut n = 0;
        if on_board(f, r + forward) {
            let target = sq(f, r + forward);
            t[s].to[n] = (target, target);
            n += 1;
        }
        if !own_side(r, color) {
            if f > 0 {
                let target = sq(f - 1, r);
                t[s].to[n] = (target, target);
                n += 1;
            }
            if f < FILES as i32 - 1 {
                let target = sq(f + 1, r);
                t[s].to[n] = (target, target);
                n += 1;
            }
        }
        t[s].len = n as u8;
        s += 1;
    }
    t
}

/// Horse targets with their leg squares.
pub static HORSE_MOVES: [Leaps; SQUARES] = build_horse();
/// For each square, the horses that could attack it, with the leg each needs empty.
pub static HORSE_ATTACKERS: [Leaps; SQUARES] = build_horse_attackers();
/// Elephant targets with their eye squares, per colour (never across the river).
pub static ELEPHANT_MOVES: [[Leaps; SQUARES]; 2] = [build_elephant(0), build_elephant(1)];
/// Advisor targets inside the palace, per colour.
pub static ADVISOR_MOVES: [[Leaps; SQUARES]; 2] =
    [build_steps(0, true, true), build_steps(1, true, true)];
/// King targets inside the palace, per colour.
pub static KING_MOVES: [[Leaps; SQUARES]; 2] =
    [build_steps(0, false, true), build_steps(1, false, true)];
/// Soldier targets per colour (forward, and sideways once across the river).
pub static PAWN_MOVES: [[Leaps; SQUARES]; 2] = [build_pawn(0), build_pawn(1)];
/// The four orthogonal neighbours of each square (no palace limit).
pub static ORTHO_NEIGHBOURS: [Leaps; SQUARES] = build_steps(0, false, false);
/// The four diagonal neighbours of each square (no palace limit).
pub static DIAG_NEIGHBOURS: [Leaps; SQUARES] = build_steps(0, true, false);

// Fixed seed: identical keys in every build.
const ZOBRIST: ([[u64; SQUARES]; 16], u64) =
    crate::engine::zobrist::zobrist_keys::<16, SQUARES>(0x5131_4c49_4e00_0001);
/// Zobrist keys indexed by `[piece code][square]`.
pub static ZOBRIST_PIECE: [[u64; SQUARES]; 16] = ZOBRIST.0;
/// Zobrist key toggled when black is to move.
pub const ZOBRIST_BLACK: u64 = ZOBRIST.1;

/// Bitboard with every square of each rank set: `[rank]`.
pub const RANK_MASKS: [u128; RANKS] = {
    let mut m = [0u128; RANKS];
    let mut r = 0;
    while r < RANKS {
        m[r] = 0x1ffu128 << (r * FILES);
        r += 1;
    }
    m
};

/// Bitboard with every square of each file set: `[file]`.
pub const FILE_MASKS: [u128; FILES] = {
    let mut m = [0u128; FILES];
    let mut f = 0;
    while f < FILES {
        let mut r = 0;
        while r < RANKS {
            m[f] |= 1u128 << (r * FILES + f);
            r += 1;
        }
        f += 1;
    }
    m
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slide_tables_find_blockers() {
        // File 4 of a rank with pieces on files 1, 2, 6: quiet 3,5; first 2 and 6; second 1 and none.
        let occ = (1 << 1) | (1 << 2) | (1 << 6) | (1 << 4);
        let s = RANK_SLIDES[4][occ];
        assert_eq!(s.quiet, (1 << 3) | (1 << 5));
        assert_eq!(s.first, [2, 6]);
        assert_eq!(s.second, [1, NONE]);
    }

    #[test]
    fn leaper_tables_have_expected_sizes() {
        assert_eq!(HORSE_MOVES[0].len, 2); // a0: b2, c1
        assert_eq!(HORSE_MOVES[4 * 9 + 4].len, 8);
        assert_eq!(ELEPHANT_MOVES[0][2].len, 2); // c0: a2, e2
        assert_eq!(ELEPHANT_MOVES[0][4 * 9 + 2].len, 2); // c4: a2, e2 only (no crossing)
        assert_eq!(ADVISOR_MOVES[0][9 + 4].len, 4); // e1
        assert_eq!(ADVISOR_MOVES[1][3].len, 0); // d0 is not in black's palace
        assert_eq!(KING_MOVES[0][4].len, 3); // e0: d0, f0, e1
        assert_eq!(PAWN_MOVES[0][3 * 9].len, 1); // a3 red: forward only
        assert_eq!(PAWN_MOVES[0][5 * 9 + 4].len, 3); // e5 red: crossed
        assert_eq!(PAWN_MOVES[0][9 * 9 + 4].len, 2); // e9 red: sideways only
    }
}
