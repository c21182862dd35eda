//! Static exchange evaluation for Xiangqi: the material outcome of the capture sequence on
//! one square, each side recapturing with its least valuable attacker.
//!
//! Attackers are recomputed from the occupancy after each capture, so a chariot behind a
//! capturing chariot joins in (x-ray), and a cannon gains or loses its screen as pieces leave
//! the line: a cannon attacks over exactly one piece. Pins are ignored; the general only
//! recaptures when nothing of the other side attacks the square any more.

use crate::xiangqi::Position;
use crate::xiangqi::position::Bitboard;
use crate::xiangqi::tables::{ADVISOR_MOVES, ELEPHANT_MOVES, HORSE_ATTACKERS, KING_MOVES};
use crate::xiangqi::types::{Color, FILES, Move, Piece, PieceKind, RANKS, Square};

/// Exchange values by `PieceKind::index()`; a crossed soldier is worth more (see `value_on`).
pub const SEE_VALUE: [i32; 7] = [10_000, 200, 200, 400, 900, 450, 100];

/// The exchange value of `piece` standing on `sq`.
#[inline]
pub fn value_on(piece: Piece, sq: Square) -> i32 {
    match piece.kind() {
        None => 0,
        Some(PieceKind::Pawn) if !sq.on_own_side(piece.color()) => 200,
        Some(kind) => SEE_VALUE[kind.index()],
    }
}

#[inline]
fn occupied(occ: Bitboard, sq: usize) -> bool {
    occ & (1u128 << sq) != 0
}

/// The least valuable piece of `by` attacking `target` with occupancy `occ` (pieces not in
/// `occ` have been exchanged off). Returns its square and value.
fn least_attacker(
    pos: &Position,
    occ: Bitboard,
    target: Square,
    by: Color,
) -> Option<(usize, i32)> {
    let t = target.index();
    let c = by.index();
    let present = |sq: usize, kind: PieceKind| {
        occupied(occ, sq) && pos.piece_at(Square::from_index_unchecked(sq)) == Piece::new(by, kind)
    };

    // Soldiers: from behind (their forward step) or from the side once across the river.
    let (file, rank) = (target.file(), target.rank());
    let behind = match by {
        Color::Red => rank.checked_sub(1),
        Color::Black => (rank + 1 < RANKS).then_some(rank + 1),
    };
    if let Some(r) = behind
        && present(r * FILES + file, PieceKind::Pawn)
    {
        return Some((
            r * FILES + file,
            value_on(Piece::new(by, PieceKind::Pawn), Square::new(file, r)),
        ));
    }
    if !target.on_own_side(by) {
        for f in [file.wrapping_sub(1), file + 1] {
            if f < FILES && present(rank * FILES + f, PieceKind::Pawn) {
                return Some((rank * FILES + f, 200));
            }
        }
    }
    // Advisors and elephants (their moves are symmetric, so the target's table lists them).
    let adv = &ADVISOR_MOVES[c][t];
    for &(s, _) in &adv.to[..adv.len as usize] {
        if present(s as usize, PieceKind::Advisor) {
            return Some((s as usize, SEE_VALUE[PieceKind::Advisor.index()]));
        }
    }
    let ele = &ELEPHANT_MOVES[c][t];
    for &(s, eye) in &ele.to[..ele.len as usize] {
        if present(s as usize, PieceKind::Elephant) && !occupied(occ, eye as usize) {
            return Some((s as usize, SEE_VALUE[PieceKind::Elephant.index()]));
        }
    }
    let horses = &HORSE_ATTACKERS[t];
    for &(s, leg) in &horses.to[..horses.len as usize] {
        if present(s as usize, PieceKind::Horse) && !occupied(occ, leg as usize) {
            return Some((s as usize, SEE_VALUE[PieceKind::Horse.index()]));
        }
    }
    // Lines: the first piece met is a chariot attacker, the second a cannon attacker.
    let mut cannon = None;
    let mut chariot = None;
    for (df, dr) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)] {
        let mut f = file as i32 + df;
        let mut r = rank as i32 + dr;
        let mut seen = 0;
        while (0..FILES as i32).contains(&f) && (0..RANKS as i32).contains(&r) {
            let s = r as usize * FILES + f as usize;
            if occupied(occ, s) {
                seen += 1;
                if seen == 1 && chariot.is_none() && present(s, PieceKind::Chariot) {
                    chariot = Some(s);
                }
                if seen == 2 {
                    if cannon.is_none() && present(s, PieceKind::Cannon) {
                        cannon = Some(s);
                    }
                    break;
                }
            }
            f += df;
            r += dr;
        }
    }
    if let Some(s) = cannon {
        return Some((s, SEE_VALUE[PieceKind::Cannon.index()]));
    }
    if let Some(s) = chariot {
        return Some((s, SEE_VALUE[PieceKind::Chariot.index()]));
    }
    let king = &KING_MOVES[c][t];
    for &(s, _) in &king.to[..king.len as usize] {
        if present(s as usize, PieceKind::King) {
            return Some((s as usize, SEE_VALUE[PieceKind::King.index()]));
        }
    }
    None
}

/// The material balance of `mv` for the mover after the best capture sequence on its target
/// square (0 for a quiet move that is not attacked, negative when the moved piece is lost).
pub fn see(pos: &Position, mv: Move) -> i32 {
    let from = mv.from();
    let to = mv.to();
    let mover = pos.piece_at(from);
    let us = mover.color();
    let mut gain = [0i32; 40];
    gain[0] = value_on(pos.piece_at(to), to);
    let mut occ = pos.occupied() & !(1u128 << from.index());
    occ |= 1u128 << to.index();
    // The piece now standing on `to` and what taking it wins.
    let mut on_target = value_on(mover, to);
    let mut side = us.flip();
    let mut d = 0;
    while d + 1 < gain.len() {
        let Some((sq, value)) = least_attacker(pos, occ, to, side) else {
            break;
        };
        // The general may not recapture into an attacked square.
        if value >= SEE_VALUE[PieceKind::King.index()] {
            let mut after = occ & !(1u128 << sq);
            after |= 1u128 << to.index();
            if least_attacker(pos, after, to, side.flip()).is_some() {
                break;
            }
        }
        d += 1;
        gain[d] = on_target - gain[d - 1];
        occ &= !(1u128 << sq);
        on_target = value;
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        let mv = Move::parse(mv).expect("move");
        assert!(pos.is_legal(mv), "{mv} legal in {fen}");
        see(&pos, mv)
    }

    #[test]
    fn undefended_piece_is_won() {
        // Red chariot a0 takes the black horse on a5; nothing recaptures.
        assert_eq!(see_of("4k4/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1", "a0a5"), 400);
    }

    #[test]
    fn defended_piece_costs_the_chariot() {
        // The horse on a5 is guarded by the chariot on a9: R takes N, r takes R.
        assert_eq!(
            see_of("r3k4/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1", "a0a5"),
            400 - 900
        );
    }

    #[test]
    fn cannon_needs_a_screen_and_gains_one() {
        // Red cannon a0 takes a5 over the screen on a2; black's cannon on a9 sees a5 over
        // exactly one piece (the elephant on a7) and recaptures.
        let fen = "c3k4/9/b8/9/n8/9/9/B8/9/C2K5 w - - 0 1";
        assert_eq!(see_of(fen, "a0a5"), 400 - 450);
        // Without the a7 screen black's cannon cannot recapture.
        let fen = "c3k4/9/9/9/n8/9/9/B8/9/C2K5 w - - 0 1";
        assert_eq!(see_of(fen, "a0a5"), 400);
    }

    #[test]
    fn xray_chariot_joins_behind_the_first() {
        // Two red chariots on the a-file against a horse guarded by one chariot.
        let fen = "r3k4/9/9/9/n8/9/9/9/R8/R2K5 w - - 0 1";
        assert_eq!(see_of(fen, "a1a5"), 400 - 900 + 900);
    }

    #[test]
    fn pawn_takes_are_cheap_and_quiet_moves_score_zero() {
        // A crossed red soldier on e5 takes a black cannon on e6 guarded by the g7 horse.
        let fen = "4k4/9/6n2/4c4/4P4/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(see_of(fen, "e5e6"), 450 - 200);
        assert_eq!(see_of("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0a1"), 0);
    }
}
