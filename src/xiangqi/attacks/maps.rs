//! Attack sets from the fast tables, for the evaluation's inner loop: every leap of the
//! leaper tables as a bitboard (built at compile time), a line's reach spread onto the board,
//! and [`AttackMaps`], what each colour attacks in a position, built in one pass over its
//! pieces. The slower any-occupancy attack functions of the rules are in [`super`]; the tests
//! here check these maps against them.

use crate::xiangqi::position::{Bitboard, Position};
use crate::xiangqi::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, FILE_SLIDES, HORSE_ATTACKERS, HORSE_MOVES, KING_MOVES, Leaps,
    PAWN_MOVES, RANK_SLIDES,
};
use crate::xiangqi::types::{Color, FILES, PieceKind, RANKS, SQUARES, Square};

/// Takes the lowest square off `bb` (which must not be empty) and returns it.
#[inline]
pub(crate) fn pop(bb: &mut Bitboard) -> Square {
    let i = bb.trailing_zeros() as usize;
    *bb &= *bb - 1;
    Square::from_index_unchecked(i)
}

/// Each square's leap targets as one bitboard, blocks ignored: what a soldier, advisor or
/// king on it attacks.
const fn leap_union(table: &[Leaps; SQUARES]) -> [Bitboard; SQUARES] {
    let mut out = [0; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut i = 0;
        while i < table[s].len as usize {
            out[s] |= 1u128 << table[s].to[i].0;
            i += 1;
        }
        s += 1;
    }
    out
}

/// Each leap's target as a bitboard, `[square][leap]` in the order of the `Leaps` table: for
/// horses and elephants, whose leaps can be blocked.
const fn leap_bits(table: &[Leaps; SQUARES]) -> [[Bitboard; 8]; SQUARES] {
    let mut out = [[0; 8]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut i = 0;
        while i < table[s].len as usize {
            out[s][i] = 1u128 << table[s].to[i].0;
            i += 1;
        }
        s += 1;
    }
    out
}

/// What a soldier of each colour attacks from each square.
pub(crate) static PAWN_ATTACKS: [[Bitboard; SQUARES]; 2] =
    [leap_union(&PAWN_MOVES[0]), leap_union(&PAWN_MOVES[1])];
/// What an advisor of each colour attacks from each square.
pub(crate) static ADVISOR_ATTACKS: [[Bitboard; SQUARES]; 2] =
    [leap_union(&ADVISOR_MOVES[0]), leap_union(&ADVISOR_MOVES[1])];
/// What a king of each colour attacks from each square.
pub(crate) static KING_ATTACKS: [[Bitboard; SQUARES]; 2] =
    [leap_union(&KING_MOVES[0]), leap_union(&KING_MOVES[1])];
/// A horse's leap targets from each square, one bitboard a leap (blocks not applied).
pub(crate) static HORSE_BITS: [[Bitboard; 8]; SQUARES] = leap_bits(&HORSE_MOVES);
/// The squares a horse attacks each square from, one bitboard a leap.
pub(crate) static HORSE_ATTACKER_BITS: [[Bitboard; 8]; SQUARES] = leap_bits(&HORSE_ATTACKERS);
/// An elephant's leap targets from each square, one bitboard a leap.
pub(crate) static ELEPHANT_BITS: [[[Bitboard; 8]; SQUARES]; 2] =
    [leap_bits(&ELEPHANT_MOVES[0]), leap_bits(&ELEPHANT_MOVES[1])];

/// The targets of the leaps in `leaps` whose blocking square is empty (`bits`: each leap's
/// target as a bitboard, from the `*_BITS` tables).
#[inline]
pub(crate) fn unblocked_leaps(pos: &Position, leaps: &Leaps, bits: &[Bitboard; 8]) -> Bitboard {
    let mut bb = 0;
    for (i, &(_, block)) in leaps.to[..leaps.len as usize].iter().enumerate() {
        if pos
            .piece_at(Square::from_index_unchecked(block as usize))
            .is_empty()
        {
            bb |= bits[i];
        }
    }
    bb
}

/// Line positions (bit = rank) spread onto file a: bit `r` becomes square `r * 9`.
pub(crate) static FILE_SPREAD: [Bitboard; 1 << RANKS] = {
    let mut t = [0u128; 1 << RANKS];
    let mut bits = 0;
    while bits < 1 << RANKS {
        let mut r = 0;
        while r < RANKS {
            if bits & (1 << r) != 0 {
                t[bits] |= 1u128 << (r * FILES);
            }
            r += 1;
        }
        bits += 1;
    }
    t
};

/// What each colour attacks, or protects where its own pieces stand (by `Color::index()`).
pub(crate) struct AttackMaps {
    /// By any piece.
    pub all: [Bitboard; 2],
    /// By horses and cannons.
    pub minor: [Bitboard; 2],
    /// By soldiers, advisors and elephants.
    pub lesser: [Bitboard; 2],
    /// By chariots.
    pub chariot: [Bitboard; 2],
    /// Empty points cannons can move to.
    pub cannon_moves: [Bitboard; 2],
}

/// The attack maps of `pos`.
#[inline(always)]
pub(crate) fn attack_maps(pos: &Position) -> AttackMaps {
    let mut maps = AttackMaps {
        all: [0; 2],
        minor: [0; 2],
        lesser: [0; 2],
        chariot: [0; 2],
        cannon_moves: [0; 2],
    };
    for color in Color::BOTH {
        let c = color.index();
        let mut lines = 0;
        let mut minor = 0;
        let mut lesser = 0;
        let mut cannon_moves = 0;
        let mut bb = pos.pieces(color, PieceKind::Chariot);
        while bb != 0 {
            let sq = pop(&mut bb);
            let rs = &RANK_SLIDES[sq.file()][pos.rank_occ(sq.rank()) as usize];
            let fs = &FILE_SLIDES[sq.rank()][pos.file_occ(sq.file()) as usize];
            lines |= (rs.chariot_reach() as u128) << (sq.rank() * FILES);
            lines |= FILE_SPREAD[fs.chariot_reach() as usize] << sq.file();
        }
        let mut bb = pos.pieces(color, PieceKind::Cannon);
        while bb != 0 {
            let sq = pop(&mut bb);
            let rs = &RANK_SLIDES[sq.file()][pos.rank_occ(sq.rank()) as usize];
            let fs = &FILE_SLIDES[sq.rank()][pos.file_occ(sq.file()) as usize];
            minor |= (rs.cannon_reach(FILES) as u128) << (sq.rank() * FILES);
            minor |= FILE_SPREAD[fs.cannon_reach(RANKS) as usize] << sq.file();
            cannon_moves |= (rs.quiet as u128) << (sq.rank() * FILES);
            cannon_moves |= FILE_SPREAD[fs.quiet as usize] << sq.file();
        }
        let mut bb = pos.pieces(color, PieceKind::Horse);
        while bb != 0 {
            let i = pop(&mut bb).index();
            minor |= unblocked_leaps(pos, &HORSE_MOVES[i], &HORSE_BITS[i]);
        }
        let mut bb = pos.pieces(color, PieceKind::Pawn);
        while bb != 0 {
            lesser |= PAWN_ATTACKS[c][pop(&mut bb).index()];
        }
        let mut bb = pos.pieces(color, PieceKind::Advisor);
        while bb != 0 {
            lesser |= ADVISOR_ATTACKS[c][pop(&mut bb).index()];
        }
        let mut bb = pos.pieces(color, PieceKind::Elephant);
        while bb != 0 {
            let i = pop(&mut bb).index();
            lesser |= unblocked_leaps(pos, &ELEPHANT_MOVES[c][i], &ELEPHANT_BITS[c][i]);
        }
        let king = KING_ATTACKS[c][pos.king_square(color).index()];
        maps.all[c] = lines | minor | lesser | king;
        maps.minor[c] = minor;
        maps.lesser[c] = lesser;
        maps.chariot[c] = lines;
        maps.cannon_moves[c] = cannon_moves;
    }
    maps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::movegen::MoveList;

    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        crate::xiangqi::test_games::random_games(0x1234_5678, 40, |pos| out.push(pos.clone()));
        out
    }

    /// Walks a line of `len` points with occupancy `occ` from `at` the slow way: what a
    /// chariot reaches (up to the first piece) and what a cannon controls (beyond its screen,
    /// up to the second piece).
    fn walk(occ: u16, at: usize, len: usize) -> (u16, u16) {
        let (mut chariot, mut cannon) = (0u16, 0u16);
        for step in [-1i32, 1] {
            let mut p = at as i32 + step;
            let mut screens = 0;
            while p >= 0 && p < len as i32 {
                match screens {
                    0 => chariot |= 1 << p,
                    _ => cannon |= 1 << p,
                }
                if occ & (1 << p) != 0 {
                    screens += 1;
                    if screens == 2 {
                        break;
                    }
                }
                p += step;
            }
        }
        (chariot, cannon)
    }

    #[test]
    fn line_attacks_match_a_slow_walk() {
        for pos in positions() {
            for sq in (0..SQUARES).map(Square::from_index_unchecked) {
                if pos.piece_at(sq).is_empty() {
                    continue;
                }
                let rank_occ = pos.rank_occ(sq.rank());
                let file_occ = pos.file_occ(sq.file());
                let rs = &RANK_SLIDES[sq.file()][rank_occ as usize];
                let fs = &FILE_SLIDES[sq.rank()][file_occ as usize];
                let (c, k) = walk(rank_occ, sq.file(), FILES);
                assert_eq!((rs.chariot_reach(), rs.cannon_reach(FILES)), (c, k));
                let (c, k) = walk(file_occ, sq.rank(), RANKS);
                assert_eq!((fs.chariot_reach(), fs.cannon_reach(RANKS)), (c, k));
            }
        }
    }

    #[test]
    fn attack_maps_match_the_rules_attackers() {
        use crate::xiangqi::attacks::attackers_to;
        for pos in positions() {
            let maps = attack_maps(&pos);
            for sq in (0..SQUARES).map(Square::from_index_unchecked) {
                if pos.piece_at(sq).kind() == Some(PieceKind::King) {
                    continue;
                }
                // What would capture a piece standing on `sq`.
                let occ = pos.occupied() | (1u128 << sq.index());
                for color in Color::BOTH {
                    let attackers = attackers_to(&pos, sq, occ, color);
                    let expected = attackers != 0;
                    let found = maps.all[color.index()] & (1u128 << sq.index()) != 0;
                    assert_eq!(found, expected, "{} {:?} {:?}", pos.fen(), sq, color);
                    let minor = attackers
                        & (pos.pieces(color, PieceKind::Horse)
                            | pos.pieces(color, PieceKind::Cannon));
                    let found = maps.minor[color.index()] & (1u128 << sq.index()) != 0;
                    assert_eq!(found, minor != 0, "{} {:?} {:?}", pos.fen(), sq, color);
                    let chariots = attackers & pos.pieces(color, PieceKind::Chariot);
                    let found = maps.chariot[color.index()] & (1u128 << sq.index()) != 0;
                    assert_eq!(found, chariots != 0, "{} {:?} {:?}", pos.fen(), sq, color);
                }
            }
            // Cannon moves: every quiet cannon move of either side, nothing else.
            for color in Color::BOTH {
                let mut side = pos.clone();
                if side.side_to_move() != color {
                    side.make_null_move();
                }
                let mut list = MoveList::new();
                side.generate_pseudo(&mut list, crate::xiangqi::GenType::Quiets);
                let mut expected = 0u128;
                for mv in list.iter() {
                    if side.piece_at(mv.from()).kind() == Some(PieceKind::Cannon) {
                        expected |= 1u128 << mv.to().index();
                    }
                }
                assert_eq!(maps.cannon_moves[color.index()], expected, "{}", pos.fen());
            }
        }
    }
}
