//! Attack sets as bitboards for any occupancy: what a piece on a square attacks, and which
//! pieces of a colour attack a square. Slower than the move generator's line tables; meant for
//! the rules (chase detection) and static exchange, not for the inner loop of perft. The
//! table-driven attack maps the evaluation builds a node are in `attacks/maps.rs`.

pub(crate) mod maps;

use super::position::{Bitboard, Position, bit};
use super::tables::{
    ADVISOR_MOVES, DIAG_NEIGHBOURS, ELEPHANT_MOVES, FILE_MASKS, FILE_SLIDES, HORSE_MOVES,
    KING_MOVES, Leaps, NONE, ORTHO_NEIGHBOURS, PAWN_MOVES, RANK_MASKS, RANK_SLIDES,
};
use super::types::{Color, FILES, Piece, PieceKind, RANKS, Square};

/// Iterates over the squares of a bitboard, lowest first.
pub fn squares(mut bb: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let i = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        Some(Square::from_index_unchecked(i))
    })
}

fn rank_bits(occ: Bitboard, rank: usize) -> usize {
    ((occ >> (rank * FILES)) & 0x1ff) as usize
}

fn file_bits(occ: Bitboard, file: usize) -> usize {
    let mut bits = 0;
    for rank in 0..RANKS {
        if occ & (1u128 << (rank * FILES + file)) != 0 {
            bits |= 1 << rank;
        }
    }
    bits
}

/// Every square on the rank and file of `sq`, `sq` itself excluded.
pub fn lines(sq: Square) -> Bitboard {
    (RANK_MASKS[sq.rank()] | FILE_MASKS[sq.file()]) & !bit(sq)
}

/// The whole rank or file through `a` and `b` when they share one, else empty.
pub fn line_through(a: Square, b: Square) -> Bitboard {
    if a.rank() == b.rank() {
        RANK_MASKS[a.rank()]
    } else if a.file() == b.file() {
        FILE_MASKS[a.file()]
    } else {
        0
    }
}

/// Squares a chariot on `sq` attacks: up to and including the first blocker each way.
pub fn chariot_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (file, rank) = (sq.file(), sq.rank());
    let rs = &RANK_SLIDES[file][rank_bits(occ, rank)];
    let fs = &FILE_SLIDES[rank][file_bits(occ, file)];
    let mut bb = 0;
    for f in 0..FILES {
        if rs.quiet & (1 << f) != 0 {
            bb |= bit(Square::new(f, rank));
        }
    }
    for r in 0..RANKS {
        if fs.quiet & (1 << r) != 0 {
            bb |= bit(Square::new(file, r));
        }
    }
    for dir in 0..2 {
        if rs.first[dir] != NONE {
            bb |= bit(Square::new(rs.first[dir] as usize, rank));
        }
        if fs.first[dir] != NONE {
            bb |= bit(Square::new(file, fs.first[dir] as usize));
        }
    }
    bb
}

/// Squares a cannon on `sq` attacks (can capture on): the second piece each way.
pub fn cannon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (file, rank) = (sq.file(), sq.rank());
    let rs = &RANK_SLIDES[file][rank_bits(occ, rank)];
    let fs = &FILE_SLIDES[rank][file_bits(occ, file)];
    let mut bb = 0;
    for dir in 0..2 {
        if rs.second[dir] != NONE {
            bb |= bit(Square::new(rs.second[dir] as usize, rank));
        }
        if fs.second[dir] != NONE {
            bb |= bit(Square::new(file, fs.second[dir] as usize));
        }
    }
    bb
}

fn leap_attacks(leaps: &Leaps, occ: Bitboard, blockable: bool) -> Bitboard {
    let mut bb = 0;
    for &(to, block) in &leaps.to[..leaps.len as usize] {
        if !blockable || occ & (1u128 << block) == 0 {
            bb |= 1u128 << to;
        }
    }
    bb
}

/// Squares `piece` standing on `sq` attacks with occupancy `occ` (its own movement region
/// applies: palace for king and advisors, own half for elephants).
pub fn piece_attacks(piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
    let c = piece.color().index();
    let i = sq.index();
    match piece.kind() {
        None => 0,
        Some(PieceKind::King) => leap_attacks(&KING_MOVES[c][i], occ, false),
        Some(PieceKind::Advisor) => leap_attacks(&ADVISOR_MOVES[c][i], occ, false),
        Some(PieceKind::Elephant) => leap_attacks(&ELEPHANT_MOVES[c][i], occ, true),
        Some(PieceKind::Horse) => leap_attacks(&HORSE_MOVES[i], occ, true),
        Some(PieceKind::Chariot) => chariot_attacks(sq, occ),
        Some(PieceKind::Cannon) => cannon_attacks(sq, occ),
        Some(PieceKind::Pawn) => leap_attacks(&PAWN_MOVES[c][i], occ, false),
    }
}

/// The four orthogonal neighbours of `sq`.
pub fn ortho_neighbours(sq: Square) -> Bitboard {
    leap_attacks(&ORTHO_NEIGHBOURS[sq.index()], 0, false)
}

/// The four diagonal neighbours of `sq`.
pub fn diag_neighbours(sq: Square) -> Bitboard {
    leap_attacks(&DIAG_NEIGHBOURS[sq.index()], 0, false)
}

/// Pieces of `color` (among those still in `occ`) that attack `target` with occupancy `occ`.
/// The flying general is not an attack here.
pub fn attackers_to(pos: &Position, target: Square, occ: Bitboard, color: Color) -> Bitboard {
    let mut attackers = 0;
    for sq in squares(pos.color_bb(color) & occ) {
        if piece_attacks(pos.piece_at(sq), sq, occ) & bit(target) != 0 {
            attackers |= bit(sq);
        }
    }
    attackers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cannon_needs_exactly_one_screen() {
        let pos = Position::from_fen("4k4/9/9/9/4p4/9/9/4C4/9/3K5 b").unwrap();
        let c = Square::new(4, 2);
        let att = cannon_attacks(c, pos.occupied());
        assert_eq!(att, bit(Square::new(4, 9)));
        let rook = chariot_attacks(c, pos.occupied());
        assert!(rook & bit(Square::new(4, 5)) != 0 && rook & bit(Square::new(4, 6)) == 0);
    }
}
