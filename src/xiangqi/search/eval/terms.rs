//! The evaluation's terms for one colour, counted from its own point of view into a
//! [`Sink`]: [`side_terms`] builds one [`Side`] view and calls one function a group of terms
//! (material, chariot, horse and cannon activity, the enemy king's guards, threats against
//! our pieces, checks, the open king, cannon lines, soldiers, coordination). Every function is
//! inlined into its caller, so each sink gets its own compiled copy of the whole walk.

use super::Sink;
use super::layout::*;
use crate::xiangqi::Position;
use crate::xiangqi::attacks::maps::{
    AttackMaps, FILE_SPREAD, HORSE_ATTACKER_BITS, HORSE_BITS, pop, unblocked_leaps,
};
use crate::xiangqi::position::Bitboard;
use crate::xiangqi::tables::{
    ELEPHANT_MOVES, FILE_MASKS, FILE_SLIDES, HORSE_ATTACKERS, HORSE_MOVES, NONE, RANK_SLIDES,
};
use crate::xiangqi::types::{Color, FILES, PieceKind, RANKS, SQUARES, Square};

/// Squares beyond the river for each colour (where its soldiers have crossed).
const CROSSED: [Bitboard; 2] = {
    let all: Bitboard = (1u128 << SQUARES) - 1;
    let red_half: Bitboard = (1u128 << (5 * FILES)) - 1;
    [all & !red_half, red_half]
};

/// Files `first_file..=last_file` of each colour's first `ranks` ranks (by `Color::index()`).
const fn home_zone(first_file: usize, last_file: usize, ranks: usize) -> [Bitboard; 2] {
    let mut z = [0u128; 2];
    let mut r = 0;
    while r < ranks {
        let mut f = first_file;
        while f <= last_file {
            z[0] |= 1u128 << (r * FILES + f);
            z[1] |= 1u128 << ((RANKS - 1 - r) * FILES + f);
            f += 1;
        }
        r += 1;
    }
    z
}

/// The defended zone around each colour's palace: files c..g on its first four ranks.
const KING_ZONE: [Bitboard; 2] = home_zone(2, 6, 4);

/// Each colour's palace: files d..f on its first three ranks.
const PALACE: [Bitboard; 2] = home_zone(3, 5, 3);

/// Palace positions along a line: files 3..=5 of a rank.
const PALACE_FILES: u16 = 0b111 << 3;
/// Palace positions along a file, for red's palace (ranks 0..=2) and black's (7..=9).
const PALACE_RANKS: [u16; 2] = [0b111, 0b111 << 7];

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

/// What every group of terms of one colour reads: the colour, its opponent and the pieces
/// both counting code and king-safety terms look at.
struct Side<'a> {
    pos: &'a Position,
    us: Color,
    them: Color,
    /// `us.index()`.
    c: usize,
    /// Points our pieces stand on.
    own: Bitboard,
    their_king: Square,
    chariots: Bitboard,
    horses: Bitboard,
    cannons: Bitboard,
    /// Our soldiers past the river.
    crossed_pawns: Bitboard,
    /// The attacking pieces by kind: chariots, horses, cannons, crossed soldiers.
    attackers: [i32; 4],
}

impl<'a> Side<'a> {
    #[inline(always)]
    fn new(pos: &'a Position, us: Color) -> Side<'a> {
        let them = us.flip();
        let chariots = pos.pieces(us, PieceKind::Chariot);
        let horses = pos.pieces(us, PieceKind::Horse);
        let cannons = pos.pieces(us, PieceKind::Cannon);
        let crossed_pawns = pos.pieces(us, PieceKind::Pawn) & CROSSED[us.index()];
        Side {
            pos,
            us,
            them,
            c: us.index(),
            own: pos.color_bb(us),
            their_king: pos.king_square(them),
            chariots,
            horses,
            cannons,
            crossed_pawns,
            attackers: [
                chariots.count_ones() as i32,
                horses.count_ones() as i32,
                cannons.count_ones() as i32,
                crossed_pawns.count_ones() as i32,
            ],
        }
    }
}

/// Counts every term of `us`, from its own point of view, into `sink`.
#[inline(always)]
pub(super) fn side_terms<S: Sink>(pos: &Position, us: Color, maps: &AttackMaps, sink: &mut S) {
    let side = Side::new(pos, us);
    material_terms(&side, sink);
    let palace_attackers =
        chariot_terms(&side, sink) + horse_terms(&side, sink) + cannon_terms(&side, sink);
    sink.scalar(
        PALACE_ATTACKERS_SQUARED,
        palace_attackers * palace_attackers,
    );
    sink.scalar(
        PALACE_WEAK_POINTS,
        (PALACE[side.them.index()] & maps.all[side.c] & !maps.all[side.them.index()]).count_ones()
            as i32,
    );
    let missing_advisors = king_guard_terms(&side, sink);
    threat_terms(&side, maps, sink);
    check_terms(&side, maps, sink);
    open_king_terms(&side, missing_advisors, sink);
    cannon_line_terms(&side, sink);
    soldier_terms(&side, sink);
    coordination_terms(&side, sink);
}

/// Material and placement of every piece, and the tempo of the side to move.
#[inline(always)]
fn material_terms<S: Sink>(side: &Side, sink: &mut S) {
    if S::WANTS_PIECES {
        for kind in PieceKind::ALL {
            let mut bb = side.pos.pieces(side.us, kind);
            while bb != 0 {
                sink.piece(kind.index(), relative(pop(&mut bb), side.us));
            }
        }
    }
    if side.pos.side_to_move() == side.us {
        sink.scalar(TEMPO, 1);
    }
}

/// Chariot mobility and reach into the enemy palace; returns how many chariots reach it.
#[inline(always)]
fn chariot_terms<S: Sink>(side: &Side, sink: &mut S) -> i32 {
    let pos = side.pos;
    let palace_ranks = PALACE_RANKS[side.them.index()];
    let mut bb = side.chariots;
    let mut chariot_mobility = 0;
    let mut chariot_palace = 0;
    let mut palace_attackers = 0;
    while bb != 0 {
        let sq = pop(&mut bb);
        let rs = &RANK_SLIDES[sq.file()][pos.rank_occ(sq.rank()) as usize];
        let fs = &FILE_SLIDES[sq.rank()][pos.file_occ(sq.file()) as usize];
        let mut mob = (rs.quiet.count_ones() + fs.quiet.count_ones()) as i32;
        for dir in 0..2 {
            if rs.first[dir] != NONE {
                let t = Square::new(rs.first[dir] as usize, sq.rank());
                mob += (pos.piece_at(t).color() == side.them) as i32;
            }
            if fs.first[dir] != NONE {
                let t = Square::new(sq.file(), fs.first[dir] as usize);
                mob += (pos.piece_at(t).color() == side.them) as i32;
            }
        }
        chariot_mobility += mob - 6;
        let before = chariot_palace;
        if palace_ranks & (1 << sq.rank()) != 0 {
            chariot_palace += (rs.chariot_reach() & PALACE_FILES).count_ones() as i32;
        }
        if PALACE_FILES & (1 << sq.file()) != 0 {
            chariot_palace += (fs.chariot_reach() & palace_ranks).count_ones() as i32;
        }
        palace_attackers += (chariot_palace > before) as i32;
    }
    sink.scalar(CHARIOT_MOBILITY, chariot_mobility);
    sink.scalar(CHARIOT_PALACE, chariot_palace);
    palace_attackers
}

/// Horse mobility, trapped horses, reach into the enemy palace and checks a horse could give
/// next move; returns how many horses reach the palace.
#[inline(always)]
fn horse_terms<S: Sink>(side: &Side, sink: &mut S) -> i32 {
    let pos = side.pos;
    let their_king = side.their_king;
    let enemy_palace = PALACE[side.them.index()];
    // Squares from which a horse would check the enemy king (the leg next to it is free).
    let mut horse_check_squares = 0u128;
    let checkers = &HORSE_ATTACKERS[their_king.index()];
    for (i, &(_, leg)) in checkers.to[..checkers.len as usize].iter().enumerate() {
        if pos
            .piece_at(Square::from_index_unchecked(leg as usize))
            .is_empty()
        {
            horse_check_squares |= HORSE_ATTACKER_BITS[their_king.index()][i];
        }
    }
    let mut bb = side.horses;
    let mut horse_checks = 0;
    let mut horse_mobility = 0;
    let mut horse_trapped = 0;
    let mut horse_palace = 0;
    let mut palace_attackers = 0;
    while bb != 0 {
        let sq = pop(&mut bb);
        let targets = unblocked_leaps(pos, &HORSE_MOVES[sq.index()], &HORSE_BITS[sq.index()]);
        let mob = (targets & !side.own).count_ones() as i32;
        let before = horse_palace;
        horse_palace += (targets & enemy_palace).count_ones() as i32;
        horse_checks += (targets & horse_check_squares & !side.own).count_ones() as i32;
        horse_mobility += mob - 3;
        palace_attackers += (horse_palace > before) as i32;
        horse_trapped += (mob <= 1) as i32;
    }
    sink.scalar(HORSE_MOBILITY, horse_mobility);
    sink.scalar(HORSE_TRAPPED, horse_trapped);
    sink.scalar(HORSE_PALACE, horse_palace);
    sink.scalar(HORSE_CHECKS, horse_checks);
    palace_attackers
}

/// Cannon mobility and reach into the enemy palace; returns how many cannons reach it.
#[inline(always)]
fn cannon_terms<S: Sink>(side: &Side, sink: &mut S) -> i32 {
    let pos = side.pos;
    let palace_ranks = PALACE_RANKS[side.them.index()];
    let mut bb = side.cannons;
    let mut cannon_mobility = 0;
    let mut cannon_palace = 0;
    let mut palace_attackers = 0;
    while bb != 0 {
        let sq = pop(&mut bb);
        let rs = &RANK_SLIDES[sq.file()][pos.rank_occ(sq.rank()) as usize];
        let fs = &FILE_SLIDES[sq.rank()][pos.file_occ(sq.file()) as usize];
        cannon_mobility += (rs.quiet.count_ones() + fs.quiet.count_ones()) as i32 - 6;
        let before = cannon_palace;
        if palace_ranks & (1 << sq.rank()) != 0 {
            cannon_palace += (rs.cannon_reach(FILES) & PALACE_FILES).count_ones() as i32;
        }
        if PALACE_FILES & (1 << sq.file()) != 0 {
            cannon_palace += (fs.cannon_reach(RANKS) & palace_ranks).count_ones() as i32;
        }
        palace_attackers += (cannon_palace > before) as i32;
    }
    sink.scalar(CANNON_MOBILITY, cannon_mobility);
    sink.scalar(CANNON_PALACE, cannon_palace);
    palace_attackers
}

/// King safety of the enemy: our attackers against its missing guards. Returns how many
/// advisors the enemy lacks.
#[inline(always)]
fn king_guard_terms<S: Sink>(side: &Side, sink: &mut S) -> i32 {
    let missing_advisors = 2 - side.pos.pieces(side.them, PieceKind::Advisor).count_ones() as i32;
    let missing_elephants = 2 - side.pos.pieces(side.them, PieceKind::Elephant).count_ones() as i32;
    for (i, &n) in side.attackers.iter().enumerate() {
        sink.scalar(MISSING_ADVISOR_X + i, missing_advisors * n);
        sink.scalar(MISSING_ELEPHANT_X + i, missing_elephants * n);
    }
    missing_advisors
}

/// Threats against our pieces: hanging pieces, chariots attacked by lesser pieces, horses
/// and cannons attacked by soldiers, advisors or elephants.
#[inline(always)]
fn threat_terms<S: Sink>(side: &Side, maps: &AttackMaps, sink: &mut S) {
    let them = side.them.index();
    let targets = side.own & !side.pos.pieces(side.us, PieceKind::King);
    let hanging = (targets & maps.all[them] & !maps.all[side.c]).count_ones() as i32;
    if side.pos.side_to_move() == side.us {
        sink.scalar(HANGING_TO_MOVE, hanging);
    } else {
        sink.scalar(HANGING_NOT_TO_MOVE, hanging);
    }
    let by_lesser = maps.lesser[them];
    sink.scalar(
        CHARIOT_THREATENED,
        (side.chariots & (maps.minor[them] | by_lesser)).count_ones() as i32,
    );
    sink.scalar(
        MINOR_THREATENED,
        ((side.horses | side.cannons) & by_lesser).count_ones() as i32,
    );
}

/// Checks a chariot or cannon could give on a point the enemy does not guard.
#[inline(always)]
fn check_terms<S: Sink>(side: &Side, maps: &AttackMaps, sink: &mut S) {
    let pos = side.pos;
    let their_king = side.their_king;
    let krs = &RANK_SLIDES[their_king.file()][pos.rank_occ(their_king.rank()) as usize];
    let kfs = &FILE_SLIDES[their_king.rank()][pos.file_occ(their_king.file()) as usize];
    let king_lines = ((krs.chariot_reach() as u128) << (their_king.rank() * FILES))
        | (FILE_SPREAD[kfs.chariot_reach() as usize] << their_king.file());
    let king_screens = ((krs.cannon_reach(FILES) as u128) << (their_king.rank() * FILES))
        | (FILE_SPREAD[kfs.cannon_reach(RANKS) as usize] << their_king.file());
    let unguarded = !maps.all[side.them.index()];
    sink.scalar(
        CHARIOT_CHECKS,
        (king_lines & maps.chariot[side.c] & !side.own & unguarded).count_ones() as i32,
    );
    sink.scalar(
        CANNON_CHECKS,
        (king_screens & maps.cannon_moves[side.c] & unguarded).count_ones() as i32,
    );
}

/// Cannons and horses by how crowded the board is, chariots against an open king file, and
/// our attackers in the enemy king's zone (more so when it lacks advisors).
#[inline(always)]
fn open_king_terms<S: Sink>(side: &Side, missing_advisors: i32, sink: &mut S) {
    let pos = side.pos;
    let their_king = side.their_king;
    let attackers = side.attackers;
    // Cannons need screens, horses like room: both scaled by the pieces left on the board.
    let crowd = pos.occupied().count_ones() as i32 - 24;
    sink.scalar(CANNON_X_PIECES, attackers[2] * crowd);
    sink.scalar(HORSE_X_PIECES, attackers[1] * crowd);
    // The enemy king's file with none of its own pieces in front of the king.
    let ahead = match side.them {
        Color::Red => !((2u128 << their_king.index()) - 1),
        Color::Black => (1u128 << their_king.index()) - 1,
    };
    if pos.color_bb(side.them) & FILE_MASKS[their_king.file()] & ahead == 0 {
        sink.scalar(CHARIOT_X_OPEN_KING_FILE, attackers[0]);
    }

    let zone = KING_ZONE[side.them.index()];
    let in_zone = [
        (side.chariots & zone).count_ones() as i32,
        (side.horses & zone).count_ones() as i32,
        (side.cannons & zone).count_ones() as i32,
        (side.crossed_pawns & zone).count_ones() as i32,
    ];
    sink.scalar(ZONE_CHARIOT, in_zone[0]);
    sink.scalar(ZONE_HORSE, in_zone[1]);
    sink.scalar(ZONE_CANNON, in_zone[2]);
    sink.scalar(ZONE_PAWN, in_zone[3]);
    sink.scalar(
        ZONE_X_MISSING_ADVISOR,
        in_zone.iter().sum::<i32>() * missing_advisors,
    );
}

/// Cannons lined up with the enemy king: on its file (central cannon, empty-headed cannon)
/// or on its rank (bottom cannon).
#[inline(always)]
fn cannon_line_terms<S: Sink>(side: &Side, sink: &mut S) {
    let pos = side.pos;
    let their_king = side.their_king;
    let mut bb = side.cannons;
    let mut file_empty = 0;
    let mut file_two = 0;
    let mut rank_empty = 0;
    let mut rank_two = 0;
    while bb != 0 {
        let sq = pop(&mut bb);
        if sq.file() == their_king.file() {
            let screens = between_count(pos.file_occ(sq.file()), sq.rank(), their_king.rank());
            // One screen would be a check: the evaluation never sees that.
            match screens {
                0 => file_empty += 1,
                2 => file_two += 1,
                _ => {}
            }
        } else if sq.rank() == their_king.rank() {
            match between_count(pos.rank_occ(sq.rank()), sq.file(), their_king.file()) {
                0 => rank_empty += 1,
                2 => rank_two += 1,
                _ => {}
            }
        }
    }
    sink.scalar(CANNON_FILE_EMPTY, file_empty);
    sink.scalar(CANNON_FILE_TWO_SCREENS, file_two);
    sink.scalar(CANNON_RANK_EMPTY, rank_empty);
    sink.scalar(CANNON_RANK_TWO_SCREENS, rank_two);
}

/// Soldiers: crossed soldiers side by side support each other; two on one file do not.
#[inline(always)]
fn soldier_terms<S: Sink>(side: &Side, sink: &mut S) {
    let crossed_pawns = side.crossed_pawns;
    let mut bb = crossed_pawns;
    let mut pairs = 0;
    let mut doubled = 0;
    while bb != 0 {
        let sq = pop(&mut bb);
        if sq.file() + 1 < FILES && crossed_pawns & (1u128 << (sq.index() + 1)) != 0 {
            pairs += 1;
        }
        if (crossed_pawns & FILE_MASKS[sq.file()]).count_ones() > 1 {
            doubled += 1;
        }
    }
    sink.scalar(PAWN_PAIR, pairs);
    sink.scalar(PAWN_DOUBLED, doubled);
}

/// Coordination: connected chariots, elephants guarding each other, advisors with one in the
/// palace centre.
#[inline(always)]
fn coordination_terms<S: Sink>(side: &Side, sink: &mut S) {
    let pos = side.pos;
    let chariots = side.chariots;
    if chariots.count_ones() == 2 {
        let a = Square::from_index_unchecked(chariots.trailing_zeros() as usize);
        let b = Square::from_index_unchecked(127 - chariots.leading_zeros() as usize);
        let connected = (a.rank() == b.rank()
            && between_count(pos.rank_occ(a.rank()), a.file(), b.file()) == 0)
            || (a.file() == b.file()
                && between_count(pos.file_occ(a.file()), a.rank(), b.rank()) == 0);
        sink.scalar(CHARIOTS_CONNECTED, connected as i32);
    }
    let elephants = pos.pieces(side.us, PieceKind::Elephant);
    if elephants.count_ones() == 2 {
        let a = elephants.trailing_zeros() as usize;
        let b = 127 - elephants.leading_zeros() as usize;
        let leaps = &ELEPHANT_MOVES[side.c][a];
        let guarded = leaps.to[..leaps.len as usize].iter().any(|&(to, eye)| {
            to as usize == b
                && pos
                    .piece_at(Square::from_index_unchecked(eye as usize))
                    .is_empty()
        });
        sink.scalar(ELEPHANTS_CONNECTED, guarded as i32);
    }
    let advisors = pos.pieces(side.us, PieceKind::Advisor);
    let centre = Square::new(4, if side.us == Color::Red { 1 } else { 8 });
    if advisors.count_ones() == 2 && advisors & (1u128 << centre.index()) != 0 {
        sink.scalar(ADVISORS_CENTRE, 1);
    }
}
