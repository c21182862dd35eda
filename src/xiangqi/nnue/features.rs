//! The input features: one per (relative colour, piece kind, point) for each perspective.
//!
//! Red's perspective sees the board as it is; black's flips the ranks (rank `r` becomes
//! `9 - r`) and swaps the colours, so "own back rank" is rank 0 for both and one weight
//! matrix serves both sides.

use crate::xiangqi::Position;
use crate::xiangqi::types::{Color, Piece, SQUARES, Square};

/// Inputs per perspective: 2 relative colours x 7 kinds x 90 points.
pub const INPUTS: usize = 2 * 7 * SQUARES;

/// The most features a position turns on per perspective (16 pieces a side).
pub const MAX_ACTIVE: usize = 32;

/// The input `piece` on `sq` turns on in `perspective`'s half of the network.
/// `piece` must not be empty.
#[inline]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relative = (piece.color() != perspective) as usize;
    let kind = (piece.code() & 7) - 1;
    let point = match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip_rank().index(),
    };
    (relative * 7 + kind) * SQUARES + point
}

/// Calls `f(piece, square)` for every piece of `pos`, in point order.
#[inline]
pub fn for_each_piece(pos: &Position, mut f: impl FnMut(Piece, Square)) {
    let mut occ = pos.occupied();
    while occ != 0 {
        let sq = Square::from_index_unchecked(occ.trailing_zeros() as usize);
        occ &= occ - 1;
        f(pos.piece_at(sq), sq);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::types::PieceKind;

    #[test]
    fn perspectives_mirror_each_other() {
        let red_king = Piece::new(Color::Red, PieceKind::King);
        let black_king = Piece::new(Color::Black, PieceKind::King);
        let e0 = Square::new(4, 0);
        let e9 = Square::new(4, 9);
        assert_eq!(
            index(Color::Red, red_king, e0),
            index(Color::Black, black_king, e9)
        );
        assert_eq!(
            index(Color::Red, black_king, e9),
            index(Color::Black, red_king, e0)
        );
        assert_ne!(
            index(Color::Red, red_king, e0),
            index(Color::Red, black_king, e9)
        );
        let top = Piece::new(Color::Black, PieceKind::Pawn);
        assert!(index(Color::Red, top, Square::new(8, 9)) < INPUTS);
        assert_eq!(index(Color::Red, top, Square::new(8, 9)), INPUTS - 1);
    }
}
