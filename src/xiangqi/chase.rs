//! Chase detection for the perpetual-chase rule, as the computer-xiangqi convention
//! (Fairy-Stockfish, Pikafish) approximates the Asian rules:
//!
//! - only chariots, horses, cannons, advisors and elephants chase; kings and soldiers never do;
//! - kings and soldiers that have not crossed the river are never chased;
//! - horse or cannon on a chariot, and advisor or elephant on a chariot, horse or cannon,
//!   always chase; any other attack chases only when the target is not truly protected
//!   (pinned protectors do not count, nor a king whose recapture would face the other king);
//! - attacks between pieces of the same kind do not chase unless the target is pinned (or, for
//!   horses, cannot attack back because its own leg is blocked);
//! - only new attacks count: direct attacks of the moved piece not along its line of travel,
//!   attacks discovered by the move, protectors newly pinned, and discovered-check threats.

use super::attacks::{
    attackers_to, diag_neighbours, line_through, lines, ortho_neighbours, piece_attacks, squares,
};
use super::position::{Bitboard, Position, bit};
use super::tables::{FILE_MASKS, HORSE_ATTACKERS};
use super::types::{Color, Move, Piece, PieceKind, Square};

/// Pieces (of either colour) standing between `king_color`'s king and an enemy chariot, cannon
/// or horse that would give check if that piece left: one piece before a chariot, either of two
/// before a cannon, a horse's leg.
pub fn king_blockers(pos: &Position, king_color: Color) -> Bitboard {
    let enemy = king_color.flip();
    let king = pos.king_square(king_color);
    let occ = pos.occupied();
    let on_lines = lines(king);
    let chariots = pos.pieces(enemy, PieceKind::Chariot) & on_lines;
    let cannons = pos.pieces(enemy, PieceKind::Cannon) & on_lines;

    // Horses at a horse's jump from the king whose leg is occupied.
    let mut horse_snipers: Vec<(Square, Square)> = Vec::new();
    let attackers = &HORSE_ATTACKERS[king.index()];
    for &(h, leg) in &attackers.to[..attackers.len as usize] {
        let h = Square::from_index_unchecked(h as usize);
        let leg = Square::from_index_unchecked(leg as usize);
        if pos.piece_at(h) == Piece::new(enemy, PieceKind::Horse) && occ & bit(leg) != 0 {
            horse_snipers.push((h, leg));
        }
    }
    // Chariots that do not give check now.
    let chariot_snipers: Bitboard = squares(chariots)
        .filter(|&s| between(king, s) & occ != 0)
        .fold(0, |acc, s| acc | bit(s));
    let horse_bb: Bitboard = horse_snipers.iter().fold(0, |acc, &(h, _)| acc | bit(h));
    // Sliding snipers (chariots and horses) do not block each other.
    let slide_occ = occ & !(chariot_snipers | horse_bb);

    let mut blockers = 0;
    for s in squares(chariot_snipers) {
        let b = between(king, s) & slide_occ;
        if b.count_ones() == 1 {
            blockers |= b;
        }
    }
    for s in squares(cannons) {
        let b = between(king, s) & (occ & !bit(s));
        if b.count_ones() == 2 {
            blockers |= b;
        }
    }
    for &(_, leg) in &horse_snipers {
        blockers |= bit(leg) & slide_occ;
    }
    blockers
}

/// Squares strictly between two squares on one line (empty if not aligned).
fn between(a: Square, b: Square) -> Bitboard {
    let line = line_through(a, b);
    if line == 0 {
        return 0;
    }
    let (lo, hi) = if a.index() < b.index() {
        (a.index(), b.index())
    } else {
        (b.index(), a.index())
    };
    let span = if hi - lo > 1 {
        ((1u128 << hi) - 1) & !((1u128 << (lo + 1)) - 1)
    } else {
        0
    };
    span & line
}

/// State needed from the position before a move to judge the chases of that move.
#[derive(Clone, Copy, Debug)]
pub struct PreMove {
    /// Blockers of the future victim's king (the side not moving) before the move.
    victim_blockers: Bitboard,
}

impl PreMove {
    /// Captures what `chased_after` needs, from the position before the mover plays.
    pub fn capture(pos: &Position) -> PreMove {
        PreMove {
            victim_blockers: king_blockers(pos, pos.side_to_move().flip()),
        }
    }
}

/// Soldiers of `color` that have not crossed the river, and its king: never chased.
fn never_chased(pos: &Position, color: Color) -> Bitboard {
    let own_half: Bitboard = match color {
        Color::Red => (1u128 << 45) - 1,
        Color::Black => ((1u128 << 90) - 1) & !((1u128 << 45) - 1),
    };
    pos.pieces(color, PieceKind::King) | (pos.pieces(color, PieceKind::Pawn) & own_half)
}

/// The victim's pieces newly chased by the move just made on `pos` (`mv`, which captured
/// `captured`), with `pre` taken before the move.
pub fn chased_after(pos: &Position, mv: Move, captured: Piece, pre: PreMove) -> Bitboard {
    let victim = pos.side_to_move();
    let mover = victim.flip();
    let occ = pos.occupied();
    let victims = pos.color_bb(victim);
    let victim_king = pos.king_square(victim);
    let mover_king = pos.king_square(mover);
    let blockers_now = king_blockers(pos, victim);

    let mut pins = blockers_now;
    // Flying general: the victim's lone piece between the kings is pinned.
    let king_file_pieces = FILE_MASKS[mover_king.file()] & victims;
    if king_file_pieces & bit(victim_king) != 0 {
        let others = king_file_pieces & !bit(victim_king);
        if others.count_ones() <= 1 {
            pins |= others;
        }
    }

    let mut chased: Bitboard = 0;
    let excluded = never_chased(pos, victim);
    let mut add_chased = |attacker_sq: Square, kind: PieceKind, mut attacks: Bitboard| {
        if attacks & !chased == 0 {
            return;
        }
        attacks &= !excluded;
        if matches!(kind, PieceKind::Horse | PieceKind::Cannon) {
            chased |= attacks & pos.pieces(victim, PieceKind::Chariot);
        }
        if matches!(kind, PieceKind::Elephant | PieceKind::Advisor) {
            chased |= attacks
                & (pos.pieces(victim, PieceKind::Chariot)
                    | pos.pieces(victim, PieceKind::Cannon)
                    | pos.pieces(victim, PieceKind::Horse));
        }
        if kind == PieceKind::Horse && diag_neighbours(attacker_sq) & occ != 0 {
            // A horse attacked by a horse that cannot hit back (its leg is blocked) is chased.
            for s in squares(attacks & pos.pieces(victim, PieceKind::Horse)) {
                if piece_attacks(pos.piece_at(s), s, occ) & bit(attacker_sq) != 0 {
                    attacks &= !bit(s);
                }
            }
        } else {
            attacks &= !pos.pieces(victim, kind) | pins;
        }
        let occ_without = occ & !bit(attacker_sq);
        for s in squares(attacks) {
            let roots = attackers_to(pos, s, occ_without, victim) & !pins;
            let only_king_root = roots == bit(victim_king)
                && piece_attacks(
                    Piece::new(mover, PieceKind::Chariot),
                    mover_king,
                    occ_without,
                ) & bit(s)
                    != 0;
            if roots == 0 || only_king_root {
                chased |= bit(s);
            }
        }
    };

    // Direct attacks of the moved piece.
    let (from, to) = (mv.from(), mv.to());
    let moved = pos.piece_at(to);
    if let Some(kind) = moved.kind()
        && kind != PieceKind::King
        && kind != PieceKind::Pawn
    {
        let mut direct = piece_attacks(moved, to, occ) & victims;
        if matches!(kind, PieceKind::Chariot | PieceKind::Cannon) {
            direct &= !line_through(from, to);
        }
        add_chased(to, kind, direct);
    }

    // Attacks discovered by the move (or created by a new cannon screen).
    let candidates = (ortho_neighbours(from) & pos.pieces(mover, PieceKind::Horse))
        | (diag_neighbours(from) & pos.pieces(mover, PieceKind::Elephant))
        | (lines(from)
            & (pos.pieces(mover, PieceKind::Cannon) | pos.pieces(mover, PieceKind::Chariot)))
        | (lines(to) & pos.pieces(mover, PieceKind::Cannon));
    let occ_before = if captured.is_empty() {
        (occ & !bit(to)) | bit(from)
    } else {
        occ | bit(from)
    };
    for s in squares(candidates) {
        let piece = pos.piece_at(s);
        let Some(kind) = piece.kind() else { continue };
        let discovered =
            victims & piece_attacks(piece, s, occ) & !piece_attacks(piece, s, occ_before);
        add_chased(s, kind, discovered);
    }

    // Protectors newly pinned: what they protected is now attacked for real.
    let new_blockers = blockers_now & !pre.victim_blockers;
    let mover_blockers = king_blockers(pos, mover);
    for s in squares(new_blockers & victims) {
        let pinned = pos.piece_at(s);
        let protected = victims & !excluded & piece_attacks(pinned, s, occ);
        for s2 in squares(protected) {
            if attackers_to(pos, s2, occ, mover) & !mover_blockers != 0 {
                chased |= bit(s2);
            }
        }
    }
    // Discovered-check threats: the mover's piece now masking a check attacks something.
    let victim_king_steps = piece_attacks(Piece::new(victim, PieceKind::King), victim_king, 0);
    for s in squares(new_blockers & pos.color_bb(mover)) {
        let piece = pos.piece_at(s);
        let attacks = piece_attacks(piece, s, occ) & victims;
        chased |= attacks & !victim_king_steps;
        for s2 in squares(attacks & victim_king_steps) {
            let occ2 = occ & !bit(s) & !bit(victim_king);
            if attackers_to(pos, s2, occ2, mover) & !bit(s) != 0 {
                chased |= bit(s2);
            }
        }
    }
    chased
}

/// Makes `mv` on `pos` and returns the victim's pieces it newly chases.
pub fn make_move_with_chase(pos: &mut Position, mv: Move) -> Bitboard {
    let pre = PreMove::capture(pos);
    let captured = pos.piece_at(mv.to());
    pos.make_move(mv);
    chased_after(pos, mv, captured, pre)
}

/// Maps a set of the mover's pieces back through `mv` (one of their own moves): a piece that
/// stands on `mv.to()` stood on `mv.from()` before it.
pub fn undo_move_squares(set: Bitboard, mv: Move) -> Bitboard {
    if set & bit(mv.to()) != 0 {
        (set & !bit(mv.to())) | bit(mv.from())
    } else {
        set
    }
}
