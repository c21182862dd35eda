//! Drawish material: how much of its lead the stronger side can turn into a win, from Xiangqi
//! endgame theory, as a factor the evaluation multiplies its score by.

use crate::xiangqi::Position;
use crate::xiangqi::position::Bitboard;
use crate::xiangqi::types::{Color, FILES, PieceKind, RANKS};

/// The full scale of [`win_scale`]: the evaluation as it is.
pub const FULL_SCALE: i32 = 16;

/// How much of its lead `strong` can turn into a win, in sixteenths: material that cannot
/// force mate is scaled toward a draw. From Xiangqi endgame theory, with the attacker having
/// only the piece named and the defender its advisors and elephants (whatever else the
/// defender has only makes the draw easier):
/// - nothing that can reach the enemy palace (soldiers on the last rank cannot give mate
///   alone): 1;
/// - one soldier against two or more defenders, or two soldiers against all four: a draw
///   (2 and 4); a soldier beats a bare king or one defender;
/// - a lone chariot against both advisors and both elephants: a draw (3);
/// - a lone horse against two or more defenders: a draw (2); against one it often wins (8);
/// - a lone cannon: it needs a screen, so it wins only against a bare king with an advisor
///   of its own; otherwise 1.
#[inline(always)]
pub fn win_scale(pos: &Position, strong: Color) -> i32 {
    let weak = strong.flip();
    let count = |color, kind| pos.pieces(color, kind).count_ones();
    let chariots = count(strong, PieceKind::Chariot);
    let horses = count(strong, PieceKind::Horse);
    let cannons = count(strong, PieceKind::Cannon);
    // Two or more pieces of force can always play for mate: the common case, decided first.
    if chariots + horses + cannons >= 2 {
        return FULL_SCALE;
    }
    let soldiers = pos.pieces(strong, PieceKind::Pawn);
    let live_soldiers = (soldiers & !LAST_RANK[strong.index()]).count_ones();
    let defenders = count(weak, PieceKind::Advisor) + count(weak, PieceKind::Elephant);
    let full_defence = defenders == 4;
    match (chariots, horses, cannons, live_soldiers) {
        (0, 0, 0, 0) => 1,
        (0, 0, 0, 1) if defenders >= 2 => 2,
        (0, 0, 0, 2) if full_defence => 4,
        (1, 0, 0, 0) if full_defence => 3,
        (0, 1, 0, 0) if defenders >= 2 => 2,
        (0, 1, 0, 0) if defenders == 1 => 8,
        (0, 0, 1, 0) if defenders > 0 || count(strong, PieceKind::Advisor) == 0 => 1,
        _ => FULL_SCALE,
    }
}

/// Each colour's last rank (by `Color::index()`): the enemy's back rank, where a soldier can
/// only move sideways.
const LAST_RANK: [Bitboard; 2] = {
    let mut z = [0u128; 2];
    let mut f = 0;
    while f < FILES {
        z[0] |= 1u128 << ((RANKS - 1) * FILES + f);
        z[1] |= 1u128 << f;
        f += 1;
    }
    z
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The scale of the side `fen` names as strong (`w` red, `b` black in the side field).
    fn scale_of(fen: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        win_scale(&pos, pos.side_to_move())
    }

    #[test]
    fn material_that_cannot_force_mate_is_scaled_toward_a_draw() {
        // A lone chariot against advisors and elephants in full: a draw; one missing: a win.
        assert_eq!(scale_of("2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"), 3);
        assert_eq!(
            scale_of("3k1ab2/4a4/9/9/9/9/9/9/R8/4K4 w - - 0 1"),
            FULL_SCALE
        );
        // The same for black as the strong side.
        assert_eq!(scale_of("3k5/9/9/9/9/9/9/9/r8/2BAKAB2 b - - 0 1"), 3);
        // One soldier: wins against a bare king or one advisor, not against two.
        assert_eq!(scale_of("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1"), FULL_SCALE);
        assert_eq!(
            scale_of("3k5/4a4/9/9/4P4/9/9/9/9/4K4 w - - 0 1"),
            FULL_SCALE
        );
        assert_eq!(scale_of("3k1a3/4a4/9/9/4P4/9/9/9/9/4K4 w - - 0 1"), 2);
        // A soldier on the last rank cannot mate even a bare king.
        assert_eq!(scale_of("P2k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), 1);
        // Two soldiers against all four defenders.
        assert_eq!(scale_of("2bakab2/9/9/9/3P1P3/9/9/9/9/3K5 w - - 0 1"), 4);
        // A lone horse: a draw against two defenders, often a win against one.
        assert_eq!(scale_of("3k1a3/4a4/9/9/4N4/9/9/9/9/4K4 w - - 0 1"), 2);
        assert_eq!(scale_of("3k5/4a4/9/9/4N4/9/9/9/9/4K4 w - - 0 1"), 8);
        // A cannon needs a screen: with an advisor of its own it beats a bare king.
        assert_eq!(
            scale_of("4k4/9/9/9/4C4/9/9/9/4A4/4K4 w - - 0 1"),
            FULL_SCALE
        );
        assert_eq!(scale_of("4k4/9/9/9/4C4/9/9/9/9/4K4 w - - 0 1"), 1);
        assert_eq!(scale_of("4k4/4a4/9/9/C8/9/9/9/4A4/4K4 w - - 0 1"), 1);
        // Enough material: no scaling.
        assert_eq!(
            scale_of("2bakab2/9/9/9/9/9/9/9/R8/3K1N3 w - - 0 1"),
            FULL_SCALE
        );
        assert_eq!(Position::startpos().side_to_move(), Color::Red);
        assert_eq!(win_scale(&Position::startpos(), Color::Red), FULL_SCALE);
    }
}
