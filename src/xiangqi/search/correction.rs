//! Correction history: how far the static evaluation has been off, on average, in positions
//! that share a part of their placement (the soldiers; each side's king, advisors and
//! elephants; each side's chariots, horses and cannons). The search adds the learned error to
//! the static evaluation before it prunes with it, and learns from every node whose search
//! result says the evaluation was wrong.

use crate::xiangqi::Position;
use crate::xiangqi::position::Bitboard;
use crate::xiangqi::types::{Color, PieceKind};

/// Entries per side to move in each table (a power of two).
const ENTRIES: usize = 1 << 14;
/// Largest magnitude of an entry.
const LIMIT: i32 = 1024;
/// Entries are in 1/`UNITS_PER_CP` centipawns (summed over the tables).
const UNITS_PER_CP: i32 = 16;

/// How many tables there are: soldiers, defenders, red's attacking pieces, black's.
const TABLES: usize = 4;

/// Per-thread correction tables, indexed by side to move and a hash of part of the placement;
/// in the order of [`TABLES`].
///
/// Invariant: every entry is within `±LIMIT`.
pub struct Correction {
    tables: [Vec<i16>; TABLES],
}

/// The four table indices of a position: soldiers, defenders, red's attacking pieces, black's;
/// each already offset by the side to move.
#[derive(Clone, Copy)]
pub struct CorrectionKeys([usize; TABLES]);

/// Mixes a pair of bitboards into a well-spread 64-bit value.
#[inline]
fn mix(a: Bitboard, b: Bitboard) -> u64 {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
    ];
    let mut h = (a as u64).wrapping_mul(K[0])
        ^ ((a >> 64) as u64).wrapping_mul(K[1])
        ^ (b as u64).wrapping_mul(K[2])
        ^ ((b >> 64) as u64).wrapping_mul(K[3]);
    h ^= h >> 29;
    h = h.wrapping_mul(K[0]);
    h ^ (h >> 32)
}

/// The bitboard of `color`'s king, advisors and elephants.
#[inline]
fn defenders(pos: &Position, color: Color) -> Bitboard {
    pos.pieces(color, PieceKind::King)
        | pos.pieces(color, PieceKind::Advisor)
        | pos.pieces(color, PieceKind::Elephant)
}

/// A hash of where `color`'s chariots and horses and, apart from them, its cannons stand.
#[inline]
fn attack(pos: &Position, color: Color) -> u64 {
    mix(
        pos.pieces(color, PieceKind::Chariot) | pos.pieces(color, PieceKind::Horse),
        pos.pieces(color, PieceKind::Cannon),
    )
}

impl CorrectionKeys {
    /// The table indices for `pos`.
    #[inline]
    pub fn of(pos: &Position) -> CorrectionKeys {
        let side = pos.side_to_move().index() * ENTRIES;
        let soldiers = mix(
            pos.pieces(Color::Red, PieceKind::Pawn),
            pos.pieces(Color::Black, PieceKind::Pawn),
        );
        let defence = mix(defenders(pos, Color::Red), defenders(pos, Color::Black));
        let hashes = [
            soldiers,
            defence,
            attack(pos, Color::Red),
            attack(pos, Color::Black),
        ];
        CorrectionKeys(hashes.map(|hash| side + (hash as usize & (ENTRIES - 1))))
    }
}

impl Correction {
    /// Empty tables.
    pub fn new() -> Correction {
        Correction {
            tables: std::array::from_fn(|_| vec![0; 2 * ENTRIES]),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for table in &mut self.tables {
            table.fill(0);
        }
    }

    /// The correction, in centipawns for the side to move, to add to the static evaluation.
    #[inline]
    pub fn get(&self, keys: CorrectionKeys) -> i32 {
        let entry = |t: usize| self.tables[t][keys.0[t]] as i32;
        let structure = entry(0) + entry(1);
        // The attacking pieces move more often; their tables count half.
        let attack = (entry(2) + entry(3)) / 2;
        (structure + attack) / UNITS_PER_CP
    }

    /// Learns from a node searched to `depth` whose result was `score` where the (corrected)
    /// static evaluation said `static_eval`.
    #[inline]
    pub fn update(&mut self, keys: CorrectionKeys, depth: i32, score: i32, static_eval: i32) {
        let bonus = ((score - static_eval) * depth / 4).clamp(-LIMIT / 4, LIMIT / 4);
        for (table, &index) in self.tables.iter_mut().zip(&keys.0) {
            let entry = &mut table[index];
            let v = *entry as i32;
            *entry = (v + bonus - v * bonus.abs() / LIMIT) as i16;
        }
    }
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_sign_of_the_error_and_stays_bounded() {
        let pos = Position::startpos();
        let keys = CorrectionKeys::of(&pos);
        let mut c = Correction::new();
        assert_eq!(c.get(keys), 0);
        // The search keeps finding the position 300 cp better than its static evaluation.
        c.update(keys, 8, 300, 0);
        let once = c.get(keys);
        assert!(once > 0, "one update moves the correction up, got {once}");
        for _ in 0..1000 {
            c.update(keys, 20, 5000, 0);
        }
        // Two tables at full weight and two at half.
        let most = 3 * LIMIT / UNITS_PER_CP;
        assert!(
            c.get(keys) > once && c.get(keys) <= most,
            "got {}",
            c.get(keys)
        );
        // Then consistently worse: the correction turns negative.
        for _ in 0..1000 {
            c.update(keys, 20, -5000, 0);
        }
        assert!(
            c.get(keys) < 0 && c.get(keys) >= -most,
            "got {}",
            c.get(keys)
        );
        c.clear();
        assert_eq!(c.get(keys), 0);
    }

    #[test]
    fn keys_depend_on_each_part_of_the_placement_and_side_to_move() {
        let start = Position::startpos();
        let keys = |fen: &str| CorrectionKeys::of(&Position::from_fen(fen).expect("valid FEN")).0;
        let base = CorrectionKeys::of(&start).0;
        // Which of the four indices (soldiers, defenders, red's attack, black's) differ from
        // the start position's (same side to move).
        let changed = |fen: &str| {
            let k = keys(fen);
            [0, 1, 2, 3].map(|i| k[i] != base[i])
        };
        // Only the side to move differs: every index moves to the other half of its table.
        let black = keys("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
        assert_eq!(black, base.map(|i| i + ENTRIES));
        let soldier = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR w";
        assert_eq!(changed(soldier), [true, false, false, false]);
        let advisor = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4A4/RNB1KABNR w";
        assert_eq!(changed(advisor), [false, true, false, false]);
        let red_chariot = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/1NBAKABNR w";
        assert_eq!(changed(red_chariot), [false, false, true, false]);
        let red_cannon = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w";
        assert_eq!(changed(red_cannon), [false, false, true, false]);
        let black_horse = "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
        assert_eq!(changed(black_horse), [false, false, false, true]);
    }
}
