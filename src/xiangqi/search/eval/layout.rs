//! Where each weight sits in the evaluation's one flat weight list: the material weights, the
//! half-board piece-square weights and the scalar terms (their indices, which [`super::terms`]
//! counts into, and their names, which the tuner prints), and [`PIECE_SQUARE`], material and
//! placement per piece and square, which [`Position`](crate::xiangqi::Position) sums
//! incrementally.

use super::Pair;
use super::weights;
use crate::xiangqi::types::{FILES, RANKS, SQUARES};

/// Number of piece-square entries per piece kind (a half board: 10 rows, 5 columns).
pub const HALF: usize = 50;
/// Index of the first material weight in the flat weight list (by `PieceKind::index()`).
pub const MATERIAL_BASE: usize = 0;
/// Index of the first piece-square weight: `PST_BASE + kind * HALF + row * 5 + column`.
pub const PST_BASE: usize = 7;
/// Index of the first scalar weight (in the order of [`SCALAR_NAMES`]).
pub const SCALAR_BASE: usize = PST_BASE + 7 * HALF;

/// What each scalar weight measures (the order of `weights::SCALARS`).
pub const SCALAR_NAMES: [&str; SCALARS] = [
    "chariot mobility",
    "horse mobility",
    "horse trapped",
    "cannon mobility",
    "missing advisor x chariot",
    "missing advisor x horse",
    "missing advisor x cannon",
    "missing advisor x crossed soldier",
    "missing elephant x chariot",
    "missing elephant x horse",
    "missing elephant x cannon",
    "missing elephant x crossed soldier",
    "chariot in king zone",
    "horse in king zone",
    "cannon in king zone",
    "crossed soldier in king zone",
    "king-zone attacker x missing advisor",
    "cannon on king file, no screen",
    "horse moves that give check",
    "cannon on king file, two screens",
    "cannon on king rank, no screen",
    "cannon on king rank, two screens",
    "soldiers side by side",
    "doubled soldiers",
    "connected chariots",
    "elephants guarding each other",
    "advisors with the centre",
    "chariot palace attacks",
    "horse palace attacks",
    "cannon palace attacks",
    "tempo",
    "cannon x (pieces on board - 24)",
    "horse x (pieces on board - 24)",
    "chariot x enemy king file open ahead",
    "hanging piece, side to move",
    "hanging piece, side not to move",
    "chariot attacked by a lesser piece",
    "horse or cannon attacked by a soldier, advisor or elephant",
    "enemy palace points attacked and not defended",
    "pieces attacking the enemy palace, squared",
    "safe chariot checks",
    "safe cannon checks",
];

/// Number of scalar terms.
pub const SCALARS: usize = 42;
/// Number of weights in all.
pub const NUM_WEIGHTS: usize = SCALAR_BASE + SCALARS;

pub(super) const CHARIOT_MOBILITY: usize = 0;
pub(super) const HORSE_MOBILITY: usize = 1;
pub(super) const HORSE_TRAPPED: usize = 2;
pub(super) const CANNON_MOBILITY: usize = 3;
pub(super) const MISSING_ADVISOR_X: usize = 4; // + chariot, horse, cannon, crossed soldier
pub(super) const MISSING_ELEPHANT_X: usize = 8; // + chariot, horse, cannon, crossed soldier
pub(super) const ZONE_CHARIOT: usize = 12;
pub(super) const ZONE_HORSE: usize = 13;
pub(super) const ZONE_CANNON: usize = 14;
pub(super) const ZONE_PAWN: usize = 15;
pub(super) const ZONE_X_MISSING_ADVISOR: usize = 16;
pub(super) const CANNON_FILE_EMPTY: usize = 17;
pub(super) const HORSE_CHECKS: usize = 18;
pub(super) const CANNON_FILE_TWO_SCREENS: usize = 19;
pub(super) const CANNON_RANK_EMPTY: usize = 20;
pub(super) const CANNON_RANK_TWO_SCREENS: usize = 21;
pub(super) const PAWN_PAIR: usize = 22;
pub(super) const PAWN_DOUBLED: usize = 23;
pub(super) const CHARIOTS_CONNECTED: usize = 24;
pub(super) const ELEPHANTS_CONNECTED: usize = 25;
pub(super) const ADVISORS_CENTRE: usize = 26;
pub(super) const CHARIOT_PALACE: usize = 27;
pub(super) const HORSE_PALACE: usize = 28;
pub(super) const CANNON_PALACE: usize = 29;
pub(super) const TEMPO: usize = 30;
pub(super) const CANNON_X_PIECES: usize = 31;
pub(super) const HORSE_X_PIECES: usize = 32;
pub(super) const CHARIOT_X_OPEN_KING_FILE: usize = 33;
pub(super) const HANGING_TO_MOVE: usize = 34;
pub(super) const HANGING_NOT_TO_MOVE: usize = 35;
pub(super) const CHARIOT_THREATENED: usize = 36;
pub(super) const MINOR_THREATENED: usize = 37;
pub(super) const PALACE_WEAK_POINTS: usize = 38;
pub(super) const PALACE_ATTACKERS_SQUARED: usize = 39;
pub(super) const CHARIOT_CHECKS: usize = 40;
pub(super) const CANNON_CHECKS: usize = 41;

/// Every weight in one list, in the order of the index constants above.
pub const WEIGHTS: [Pair; NUM_WEIGHTS] = {
    let mut w = [Pair(0, 0); NUM_WEIGHTS];
    let mut i = 0;
    while i < 7 {
        w[MATERIAL_BASE + i] = weights::MATERIAL[i];
        let mut j = 0;
        while j < HALF {
            w[PST_BASE + i * HALF + j] = weights::PST[i][j];
            j += 1;
        }
        i += 1;
    }
    let mut k = 0;
    while k < SCALARS {
        w[SCALAR_BASE + k] = weights::SCALARS[k];
        k += 1;
    }
    w
};

/// The half-table index of a red-relative square: row 0 is the enemy's back rank, columns
/// count from the nearer edge.
pub(super) const fn half_index(red_sq: usize) -> usize {
    let file = red_sq % FILES;
    let rank = red_sq / FILES;
    let col = if file <= 4 { file } else { FILES - 1 - file };
    (RANKS - 1 - rank) * 5 + col
}

/// `[piece code][square] = [middle game, end game]`: material plus placement of each piece on
/// each square, positive for red's pieces and negative for black's (code 0, no piece, is all
/// zero). [`Position`](crate::xiangqi::Position) keeps the sum over its board up to date as moves are made, so the
/// search's evaluation does not recount it.
pub static PIECE_SQUARE: [[[i32; 2]; SQUARES]; 16] = {
    let mut t = [[[0; 2]; SQUARES]; 16];
    let mut code = 0;
    while code < 16 {
        let kind = code & 7;
        if kind != 0 {
            let black = code & 8 != 0;
            let mut s = 0;
            while s < SQUARES {
                let red_sq = if black {
                    (RANKS - 1 - s / FILES) * FILES + s % FILES
                } else {
                    s
                };
                let m = weights::MATERIAL[kind - 1];
                let p = weights::PST[kind - 1][half_index(red_sq)];
                let sign = if black { -1 } else { 1 };
                t[code][s] = [sign * (m.0 + p.0), sign * (m.1 + p.1)];
                s += 1;
            }
        }
        code += 1;
    }
    t
};
