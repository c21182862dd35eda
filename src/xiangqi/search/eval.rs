//! Static evaluation: material and piece-square tables tapered between middle game and end
//! game, mobility, king safety, soldier structure and piece coordination.
//!
//! Units: a soldier before the river is about 90, a horse about 400 (the search divides by 4
//! when it reports centipawn-like scores). Every term is computed the same way for both colours
//! from each colour's own point of view, and the tables are symmetric left-right, so the
//! evaluation is exactly colour- and mirror-symmetric. Integers only.

use crate::xiangqi::Position;
use crate::xiangqi::position::Bitboard;
use crate::xiangqi::tables::{
    ELEPHANT_MOVES, FILE_MASKS, FILE_SLIDES, HORSE_MOVES, NONE, RANK_SLIDES,
};
use crate::xiangqi::types::{Color, FILES, PieceKind, RANKS, SQUARES, Square};

/// Game phase at the start: chariots 6, horses and cannons 3 each, both sides.
pub const MAX_PHASE: i32 = 48;

/// Middle-game material by `PieceKind::index()`.
pub const VALUE_MG: [i32; 7] = [0, 200, 200, 400, 900, 450, 90];
/// End-game material by `PieceKind::index()`.
pub const VALUE_EG: [i32; 7] = [0, 180, 180, 460, 950, 410, 120];

/// Bonus for the side to move.
const TEMPO: i32 = 12;

/// Half a piece-square table from red's point of view: rows are ranks 9 (the enemy's back
/// rank) down to 0, columns files a..e; files f..i mirror d..a.
type Half = [[i32; 5]; RANKS];

#[rustfmt::skip]
const PAWN_MG: Half = [
    [  0,  10,  20,  40,  40],
    [ 50,  80, 110, 140, 150],
    [ 50,  80, 100, 130, 140],
    [ 40,  60,  80,  90, 100],
    [ 30,  40,  50,  60,  70],
    [  0,   0,  10,   0,  20],
    [  0,   0,   0,   0,  10],
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0],
];
#[rustfmt::skip]
const PAWN_EG: Half = [
    [ 20,  30,  40,  60,  60],
    [ 70, 100, 130, 160, 170],
    [ 70, 100, 120, 150, 160],
    [ 60,  80, 100, 110, 120],
    [ 50,  60,  70,  80,  90],
    [  0,   0,  10,   0,  10],
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0],
];
#[rustfmt::skip]
const HORSE_MG: Half = [
    [-10,   0,  10,   0,   0],
    [  0,  20,  40,  30,  10],
    [ 10,  30,  40,  40,  30],
    [ 10,  30,  40,  40,  40],
    [  0,  20,  30,  30,  30],
    [  0,  10,  20,  20,  20],
    [-10,  10,  10,  20,  10],
    [-10,   0,  10,  10,  20],
    [-20, -10,   0,   0, -20],
    [-30, -20, -10, -20, -30],
];
#[rustfmt::skip]
const HORSE_EG: Half = [
    [-10,   0,  10,  10,  10],
    [  0,  20,  30,  30,  30],
    [ 10,  20,  30,  40,  40],
    [ 10,  20,  30,  40,  40],
    [  0,  10,  20,  30,  30],
    [  0,  10,  20,  20,  20],
    [-10,   0,  10,  10,  10],
    [-10,   0,   0,  10,  10],
    [-20, -10,   0,   0,   0],
    [-30, -20, -10, -10, -10],
];
#[rustfmt::skip]
const CHARIOT_MG: Half = [
    [  0,  10,  10,  20,  10],
    [ 10,  20,  20,  30,  20],
    [  0,  10,  10,  20,  20],
    [  0,  10,  10,  20,  20],
    [  0,  10,  10,  20,  20],
    [  0,  10,  10,  20,  20],
    [-10,   0,   0,  10,  10],
    [-10,   0,   0,  10,   0],
    [-10,   0,   0,  10,   0],
    [-20,   0,   0,  10,   0],
];
#[rustfmt::skip]
const CHARIOT_EG: Half = [
    [  0,   0,  10,  10,  10],
    [  0,  10,  10,  20,  20],
    [  0,  10,  10,  20,  20],
    [  0,  10,  10,  10,  10],
    [  0,   0,   0,  10,  10],
    [  0,   0,   0,  10,  10],
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0],
];
#[rustfmt::skip]
const CANNON_MG: Half = [
    [ 20,  20,   0, -10, -10],
    [ 10,  10,   0, -10, -10],
    [ 10,  10,   0, -10,   0],
    [  0,   0,   0,   0,  10],
    [  0,   0,   0,   0,  10],
    [  0,   0,   0,   0,  20],
    [  0,   0,   0,   0,  10],
    [  0,  10,  10,  10,  30],
    [  0,   0,   0,   0,  10],
    [  0,   0,   0,   0,   0],
];
#[rustfmt::skip]
const CANNON_EG: Half = [
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0],
    [  0,   0,   0,   0,  10],
    [  0,   0,   0,   0,  10],
    [  0,   0,   0,   0,  10],
    [  0,   0,   0,   0,  10],
    [  0,   0,   0,   0,  10],
    [  0,   0,   0,  10,  20],
    [  0,   0,   0,  10,  20],
    [  0,   0,   0,  10,  10],
];
#[rustfmt::skip]
const ADVISOR_MG: Half = [
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, -5, 0],
    [0, 0, 0, 0, 10],
    [0, 0, 0, 0, 0],
];
#[rustfmt::skip]
const ELEPHANT_MG: Half = [
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, -5, 0, 0],
    [0, 0, 0, 0, 0],
    [-10, 0, 0, 0, 10],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
];
#[rustfmt::skip]
const KING_MG: Half = [
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, -30, -30],
    [0, 0, 0, -15, -10],
    [0, 0, 0, -5, 0],
];
#[rustfmt::skip]
const KING_EG: Half = [
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0], [0, 0, 0, 0, 0],
    [0, 0, 0, -20, -20],
    [0, 0, 0, -5, 0],
    [0, 0, 0, 0, 5],
];

/// Expands a half table plus a material value into 90 entries indexed by red's square.
const fn expand(half: &Half, value: i32) -> [i32; SQUARES] {
    let mut t = [0; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let file = s % FILES;
        let rank = s / FILES;
        let col = if file <= 4 { file } else { FILES - 1 - file };
        t[s] = half[RANKS - 1 - rank][col] + value;
        s += 1;
    }
    t
}

/// `[phase 0 = mg, 1 = eg][kind index][red-relative square]`: material plus placement.
static PST: [[[i32; SQUARES]; 7]; 2] = [
    [
        expand(&KING_MG, VALUE_MG[0]),
        expand(&ADVISOR_MG, VALUE_MG[1]),
        expand(&ELEPHANT_MG, VALUE_MG[2]),
        expand(&HORSE_MG, VALUE_MG[3]),
        expand(&CHARIOT_MG, VALUE_MG[4]),
        expand(&CANNON_MG, VALUE_MG[5]),
        expand(&PAWN_MG, VALUE_MG[6]),
    ],
    [
        expand(&KING_EG, VALUE_EG[0]),
        expand(&ADVISOR_MG, VALUE_EG[1]),
        expand(&ELEPHANT_MG, VALUE_EG[2]),
        expand(&HORSE_EG, VALUE_EG[3]),
        expand(&CHARIOT_EG, VALUE_EG[4]),
        expand(&CANNON_EG, VALUE_EG[5]),
        expand(&PAWN_EG, VALUE_EG[6]),
    ],
];

/// Squares beyond the river for each colour (where its soldiers have crossed).
const CROSSED: [Bitboard; 2] = {
    let all: Bitboard = (1u128 << SQUARES) - 1;
    let red_half: Bitboard = (1u128 << (5 * FILES)) - 1;
    [all & !red_half, red_half]
};

/// The defended zone around each colour's palace: files c..g on its first four ranks.
const KING_ZONE: [Bitboard; 2] = {
    let mut z = [0u128; 2];
    let mut r = 0;
    while r < 4 {
        let mut f = 2;
        while f <= 6 {
            z[0] |= 1u128 << (r * FILES + f);
            z[1] |= 1u128 << ((RANKS - 1 - r) * FILES + f);
            f += 1;
        }
        r += 1;
    }
    z
};

#[inline]
fn pop(bb: &mut Bitboard) -> Square {
    let i = bb.trailing_zeros() as usize;
    *bb &= *bb - 1;
    Square::from_index_unchecked(i)
}

#[inline]
fn relative(sq: Square, color: Color) -> usize {
    match color {
        Color::Red => sq.index(),
        Color::Black => sq.flip_rank().index(),
    }
}

/// Number of pieces strictly between positions `a` and `b` of a line with occupancy `occ`.
#[inline]
fn between_count(occ: u16, a: usize, b: usize) -> u32 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    if hi <= lo + 1 {
        return 0;
    }
    let mask = ((1u32 << hi) - 1) & !((1u32 << (lo + 1)) - 1);
    (occ as u32 & mask).count_ones()
}

/// Game phase from the major pieces on the board, 0 (bare) ..= `MAX_PHASE` (opening).
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for c in Color::BOTH {
        p += 6 * pos.pieces(c, PieceKind::Chariot).count_ones() as i32;
        p += 3 * pos.pieces(c, PieceKind::Horse).count_ones() as i32;
        p += 3 * pos.pieces(c, PieceKind::Cannon).count_ones() as i32;
    }
    p.min(MAX_PHASE)
}

/// Middle-game and end-game terms of `color`, from its own point of view.
fn side_terms(pos: &Position, us: Color) -> (i32, i32) {
    let them = us.flip();
    let c = us.index();
    let own = pos.color_bb(us);
    let mut mg = 0;
    let mut eg = 0;

    // Material and placement.
    for kind in PieceKind::ALL {
        let mut bb = pos.pieces(us, kind);
        while bb != 0 {
            let s = relative(pop(&mut bb), us);
            mg += PST[0][kind.index()][s];
            eg += PST[1][kind.index()][s];
        }
    }

    // Mobility.
    let mut bb = pos.pieces(us, PieceKind::Chariot);
    let chariots = bb;
    while bb != 0 {
        let sq = pop(&mut bb);
        let rs = &RANK_SLIDES[sq.file()][pos.rank_occ(sq.rank()) as usize];
        let fs = &FILE_SLIDES[sq.rank()][pos.file_occ(sq.file()) as usize];
        let mut mob = (rs.quiet.count_ones() + fs.quiet.count_ones()) as i32;
        for dir in 0..2 {
            if rs.first[dir] != NONE {
                let t = Square::new(rs.first[dir] as usize, sq.rank());
                mob += (pos.piece_at(t).color() == them) as i32;
            }
            if fs.first[dir] != NONE {
                let t = Square::new(sq.file(), fs.first[dir] as usize);
                mob += (pos.piece_at(t).color() == them) as i32;
            }
        }
        mg += 6 * (mob - 6);
        eg += 7 * (mob - 6);
    }
    let mut bb = pos.pieces(us, PieceKind::Horse);
    while bb != 0 {
        let sq = pop(&mut bb);
        let leaps = &HORSE_MOVES[sq.index()];
        let mut mob = 0;
        for &(to, leg) in &leaps.to[..leaps.len as usize] {
            let leg_sq = Square::from_index_unchecked(leg as usize);
            if pos.piece_at(leg_sq).is_empty() && own & (1u128 << to) == 0 {
                mob += 1;
            }
        }
        mg += 12 * (mob - 3);
        eg += 12 * (mob - 3);
        if mob <= 1 {
            mg -= 30;
            eg -= 30;
        }
    }
    let mut bb = pos.pieces(us, PieceKind::Cannon);
    while bb != 0 {
        let sq = pop(&mut bb);
        let rs = &RANK_SLIDES[sq.file()][pos.rank_occ(sq.rank()) as usize];
        let fs = &FILE_SLIDES[sq.rank()][pos.file_occ(sq.file()) as usize];
        let mob = (rs.quiet.count_ones() + fs.quiet.count_ones()) as i32;
        mg += 2 * (mob - 6);
        eg += 2 * (mob - 6);
    }

    // King safety of the enemy: our attackers against its guards.
    let their_king = pos.king_square(them);
    let guards_a = pos.pieces(them, PieceKind::Advisor).count_ones() as i32;
    let guards_e = pos.pieces(them, PieceKind::Elephant).count_ones() as i32;
    let crossed_pawns = pos.pieces(us, PieceKind::Pawn) & CROSSED[c];
    let power = 3 * chariots.count_ones() as i32
        + 2 * pos.pieces(us, PieceKind::Horse).count_ones() as i32
        + 2 * pos.pieces(us, PieceKind::Cannon).count_ones() as i32
        + crossed_pawns.count_ones() as i32;
    mg += ((2 - guards_a) * 16 + (2 - guards_e) * 10) * power / 4;
    eg += ((2 - guards_a) * 12 + (2 - guards_e) * 8) * power / 4;

    let zone = KING_ZONE[them.index()];
    let zone_attack = 20 * (chariots & zone).count_ones() as i32
        + 15 * (pos.pieces(us, PieceKind::Horse) & zone).count_ones() as i32
        + 10 * (pos.pieces(us, PieceKind::Cannon) & zone).count_ones() as i32
        + 10 * (crossed_pawns & zone).count_ones() as i32;
    mg += zone_attack * (4 + 2 * (2 - guards_a)) / 4;

    // Cannons lined up with the enemy king: on its file (central cannon, empty-headed cannon)
    // or on its rank (bottom cannon).
    let mut bb = pos.pieces(us, PieceKind::Cannon);
    while bb != 0 {
        let sq = pop(&mut bb);
        if sq.file() == their_king.file() {
            let screens = between_count(pos.file_occ(sq.file()), sq.rank(), their_king.rank());
            mg += match screens {
                0 => 60,
                2 => 25,
                _ => 0,
            };
        } else if sq.rank() == their_king.rank() {
            let screens = between_count(pos.rank_occ(sq.rank()), sq.file(), their_king.file());
            mg += match screens {
                0 => 30,
                2 => 15,
                _ => 0,
            };
        }
    }

    // Soldiers: crossed soldiers side by side support each other.
    let mut bb = crossed_pawns;
    while bb != 0 {
        let sq = pop(&mut bb);
        if sq.file() + 1 < FILES && crossed_pawns & (1u128 << (sq.index() + 1)) != 0 {
            mg += 20;
            eg += 30;
        }
        if (crossed_pawns & FILE_MASKS[sq.file()]).count_ones() > 1 {
            mg -= 5;
            eg -= 10;
        }
    }

    // Coordination: connected chariots, elephants and advisors guarding each other.
    if chariots.count_ones() == 2 {
        let a = Square::from_index_unchecked(chariots.trailing_zeros() as usize);
        let b = Square::from_index_unchecked(127 - chariots.leading_zeros() as usize);
        let connected = (a.rank() == b.rank()
            && between_count(pos.rank_occ(a.rank()), a.file(), b.file()) == 0)
            || (a.file() == b.file()
                && between_count(pos.file_occ(a.file()), a.rank(), b.rank()) == 0);
        if connected {
            mg += 20;
            eg += 10;
        }
    }
    let elephants = pos.pieces(us, PieceKind::Elephant);
    if elephants.count_ones() == 2 {
        let a = elephants.trailing_zeros() as usize;
        let b = 127 - elephants.leading_zeros() as usize;
        let leaps = &ELEPHANT_MOVES[c][a];
        let guarded = leaps.to[..leaps.len as usize].iter().any(|&(to, eye)| {
            to as usize == b
                && pos
                    .piece_at(Square::from_index_unchecked(eye as usize))
                    .is_empty()
        });
        if guarded {
            mg += 15;
            eg += 20;
        }
    }
    let advisors = pos.pieces(us, PieceKind::Advisor);
    let centre = Square::new(4, if us == Color::Red { 1 } else { 8 });
    if advisors.count_ones() == 2 && advisors & (1u128 << centre.index()) != 0 {
        mg += 10;
        eg += 15;
    }

    (mg, eg)
}

/// True when `color` has a piece that can ever cross the river (chariot, horse, cannon or
/// soldier): without one it cannot win.
fn has_attackers(pos: &Position, color: Color) -> bool {
    pos.pieces(color, PieceKind::Chariot)
        | pos.pieces(color, PieceKind::Horse)
        | pos.pieces(color, PieceKind::Cannon)
        | pos.pieces(color, PieceKind::Pawn)
        != 0
}

/// The static evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let (rmg, reg) = side_terms(pos, Color::Red);
    let (bmg, beg) = side_terms(pos, Color::Black);
    let ph = phase(pos);
    let mut score = ((rmg - bmg) * ph + (reg - beg) * (MAX_PHASE - ph)) / MAX_PHASE;
    // A side with nothing that can cross the river cannot win.
    let strong = if score > 0 { Color::Red } else { Color::Black };
    if score != 0 && !has_attackers(pos, strong) {
        score /= 16;
    }
    let stm = match pos.side_to_move() {
        Color::Red => score,
        Color::Black => -score,
    };
    stm + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::movegen::MoveList;
    use crate::xiangqi::types::Piece;

    /// Builds the position with each piece moved by `map` and recoloured by `recolor`.
    fn transform(pos: &Position, map: impl Fn(Square) -> Square, swap_colors: bool) -> Position {
        let side = if swap_colors {
            pos.side_to_move().flip()
        } else {
            pos.side_to_move()
        };
        let mut out = Position::empty(side);
        for i in 0..SQUARES {
            let sq = Square::from_index_unchecked(i);
            let p = pos.piece_at(sq);
            if let Some(kind) = p.kind() {
                let color = if swap_colors {
                    p.color().flip()
                } else {
                    p.color()
                };
                out.put(map(sq), Piece::new(color, kind));
            }
        }
        out
    }

    fn positions() -> Vec<Position> {
        let text = include_str!("../../../tests/data/xiangqi/perft.txt");
        let mut out = Vec::new();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let fen = line.split('|').next().unwrap_or_default();
            let Ok(mut pos) = Position::from_fen(fen) else {
                continue;
            };
            out.push(pos.clone());
            // A few plies of a deterministic pseudo-random game from each.
            let mut seed = 0x1234_5678u64 ^ out.len() as u64;
            for _ in 0..40 {
                let mut list = MoveList::new();
                pos.generate_legal(&mut list);
                if list.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = list[(seed >> 33) as usize % list.len()];
                pos.make_move(mv);
                out.push(pos.clone());
            }
        }
        out
    }

    #[test]
    fn evaluation_is_colour_and_mirror_symmetric() {
        let all = positions();
        assert!(all.len() > 1000, "{} positions", all.len());
        let mut nonzero = 0;
        for pos in &all {
            let e = evaluate(pos);
            let flipped = transform(pos, Square::flip_rank, true);
            let mirrored = transform(pos, Square::flip_file, false);
            let both = transform(pos, |s| s.flip_rank().flip_file(), true);
            assert_eq!(e, evaluate(&flipped), "colour flip of {}", pos.fen());
            assert_eq!(e, evaluate(&mirrored), "mirror of {}", pos.fen());
            assert_eq!(e, evaluate(&both), "flip and mirror of {}", pos.fen());
            nonzero += (e != TEMPO) as usize;
        }
        assert!(nonzero > all.len() / 2);
    }

    #[test]
    fn start_position_is_balanced_and_material_counts() {
        let start = Position::startpos();
        assert_eq!(evaluate(&start), TEMPO);
        // Red without its a0 chariot is clearly worse, from either side's view.
        let minus = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1",
        )
        .expect("fen");
        assert!(evaluate(&minus) < -500);
        let minus_b = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR b - - 0 1",
        )
        .expect("fen");
        assert!(evaluate(&minus_b) > 500);
    }

    #[test]
    fn bare_defence_cannot_win() {
        // Red has advisors and elephants only, black a lone king: nearly a draw.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1").expect("fen");
        assert!(evaluate(&pos).abs() < 100, "{}", evaluate(&pos));
    }
}
