//! Quiet checks, generated from the enemy king outwards: the squares a chariot, cannon, horse
//! or soldier would check from, and the few pieces whose move can uncover a check. Much
//! cheaper than generating every quiet move and trying each one, which is what a quiescence
//! search that looks at checks would otherwise pay at every node.

use super::attacks::squares;
use super::movegen::{GenType, MoveList};
use super::position::{Bitboard, Position, bit};
use super::tables::{
    FILE_SLIDES, HORSE_ATTACKERS, HORSE_MOVES, Leaps, NONE, PAWN_MOVES, RANK_SLIDES, Slide,
};
use super::types::{Color, FILES, Move, Piece, PieceKind, RANKS, Square};

/// Line positions of the first three pieces from the slide's origin toward `dir` (`NONE`
/// where there are fewer); `beyond(p)` is the first piece beyond position `p` that way.
fn first_three(slide: &Slide, dir: usize, beyond: impl Fn(usize) -> u8) -> [u8; 3] {
    let second = slide.second[dir];
    let third = if second == NONE {
        NONE
    } else {
        beyond(second as usize)
    };
    [slide.first[dir], second, third]
}

/// What the king's four rays say about uncovered checks.
enum Rays {
    /// Own pieces whose move may uncover a check on the king (a chariot's only blocker, one
    /// of a cannon's two screens).
    Uncover(Bitboard),
    /// An own cannon sees the king with nothing between: any piece that steps between gives
    /// check.
    OpenCannon,
}

impl Position {
    /// The first three pieces on each of the four rays from `king`, as squares.
    fn king_rays(&self, king: Square) -> [[Option<Square>; 3]; 4] {
        let (kf, kr) = (king.file(), king.rank());
        let rank_occ = self.rank_occ(kr) as usize;
        let file_occ = self.file_occ(kf) as usize;
        let krs = &RANK_SLIDES[kf][rank_occ];
        let kfs = &FILE_SLIDES[kr][file_occ];
        let mut rays = [[None; 3]; 4];
        for dir in 0..2 {
            let on_rank = first_three(krs, dir, |p| RANK_SLIDES[p][rank_occ].first[dir]);
            let on_file = first_three(kfs, dir, |p| FILE_SLIDES[p][file_occ].first[dir]);
            for i in 0..3 {
                rays[dir][i] = (on_rank[i] != NONE).then(|| Square::new(on_rank[i] as usize, kr));
                rays[2 + dir][i] =
                    (on_file[i] != NONE).then(|| Square::new(kf, on_file[i] as usize));
            }
        }
        rays
    }

    /// Own pieces that may uncover a check on the enemy king by moving, or `OpenCannon`.
    fn uncovering_pieces(&self, us: Color, king: Square) -> Rays {
        let own = |sq: Option<Square>| sq.filter(|&s| self.piece_at(s).color() == us);
        let is =
            |sq: Option<Square>, kind| sq.is_some_and(|s| self.piece_at(s) == Piece::new(us, kind));
        let mut uncover = 0;
        for [b1, b2, b3] in self.king_rays(king) {
            if is(b1, PieceKind::Cannon) {
                return Rays::OpenCannon;
            }
            if is(b2, PieceKind::Chariot)
                && let Some(s) = own(b1)
            {
                uncover |= bit(s);
            }
            if is(b3, PieceKind::Cannon) {
                for s in [own(b1), own(b2)].into_iter().flatten() {
                    uncover |= bit(s);
                }
            }
        }
        let horse = Piece::new(us, PieceKind::Horse);
        let checkers = &HORSE_ATTACKERS[king.index()];
        for &(from, leg) in &checkers.to[..checkers.len as usize] {
            let leg = Square::from_index_unchecked(leg as usize);
            if self.piece_at(Square::from_index_unchecked(from as usize)) == horse
                && self.piece_at(leg).color() == us
                && !self.piece_at(leg).is_empty()
            {
                uncover |= bit(leg);
            }
        }
        Rays::Uncover(uncover)
    }

    /// Appends the moves of `quiets` that give check.
    fn push_checking(&mut self, list: &mut MoveList, quiets: &MoveList) {
        for &mv in quiets.iter() {
            if self.move_gives_check(mv) {
                list.push(mv);
            }
        }
    }

    /// Appends every quiet (non-capturing) pseudo-legal move of the side to move that gives
    /// check, direct or uncovered, each once. Legality is the caller's to test.
    pub fn generate_quiet_checks(&mut self, list: &mut MoveList) {
        let us = self.side_to_move();
        let king = self.king_square(us.flip());
        let uncover = match self.uncovering_pieces(us, king) {
            Rays::Uncover(bb) => bb,
            Rays::OpenCannon => {
                // Rare: any quiet move onto the open line checks. Try them all.
                let mut quiets = MoveList::new();
                self.generate_pseudo(&mut quiets, GenType::Quiets);
                self.push_checking(list, &quiets);
                return;
            }
        };

        // Pieces that may uncover a check: every quiet move of theirs, each tried.
        for from in squares(uncover) {
            let mut quiets = MoveList::new();
            self.push_moves_of(&mut quiets, from, GenType::Quiets);
            self.push_checking(list, &quiets);
        }

        // Every other piece checks only by itself: move it to a checking square.
        let (kf, kr) = (king.file(), king.rank());
        let (rank_occ, file_occ) = (self.rank_occ(kr), self.file_occ(kf));
        let krs = &RANK_SLIDES[kf][rank_occ as usize];
        let kfs = &FILE_SLIDES[kr][file_occ as usize];
        // A cannon checks from an empty point with exactly one piece between it and the king.
        let line_targets = [
            (PieceKind::Chariot, krs.quiet, kfs.quiet),
            (
                PieceKind::Cannon,
                krs.cannon_reach(FILES) & !rank_occ,
                kfs.cannon_reach(RANKS) & !file_occ,
            ),
        ];
        for (kind, on_king_rank, on_king_file) in line_targets {
            for from in squares(self.pieces(us, kind) & !uncover) {
                let (sf, sr) = (from.file(), from.rank());
                // Along its file to the king's rank, or along its rank to the king's file.
                if on_king_rank & (1 << sf) != 0
                    && FILE_SLIDES[sr][self.file_occ(sf) as usize].quiet & (1 << kr) != 0
                {
                    list.push(Move::new(from, Square::new(sf, kr)));
                }
                if on_king_file & (1 << sr) != 0
                    && RANK_SLIDES[sf][self.rank_occ(sr) as usize].quiet & (1 << kf) != 0
                {
                    list.push(Move::new(from, Square::new(kf, sr)));
                }
            }
        }

        let horses = self.pieces(us, PieceKind::Horse) & !uncover;
        if horses != 0 {
            let mut targets: Bitboard = 0;
            let checkers = &HORSE_ATTACKERS[king.index()];
            for &(from, leg) in &checkers.to[..checkers.len as usize] {
                let empty = |s: u8| {
                    self.piece_at(Square::from_index_unchecked(s as usize))
                        .is_empty()
                };
                if empty(leg) && empty(from) {
                    targets |= bit(Square::from_index_unchecked(from as usize));
                }
            }
            self.push_leaps_onto(list, horses, targets, |sq| &HORSE_MOVES[sq.index()], true);
        }

        let pawns = self.pieces(us, PieceKind::Pawn) & !uncover;
        if pawns != 0 {
            // A soldier checks from behind the king (as its side sees it) or from beside it.
            let behind = match us {
                Color::Red => kr.checked_sub(1),
                Color::Black => (kr + 1 < RANKS).then_some(kr + 1),
            };
            let mut targets: Bitboard = 0;
            if let Some(r) = behind {
                targets |= bit(Square::new(kf, r));
            }
            if kf > 0 {
                targets |= bit(Square::new(kf - 1, kr));
            }
            if kf + 1 < FILES {
                targets |= bit(Square::new(kf + 1, kr));
            }
            targets &= !self.occupied();
            let c = us.index();
            self.push_leaps_onto(list, pawns, targets, |sq| &PAWN_MOVES[c][sq.index()], false);
        }
    }

    /// Appends the moves of the leapers on `pieces` that land on an empty square of `targets`.
    fn push_leaps_onto(
        &self,
        list: &mut MoveList,
        pieces: Bitboard,
        targets: Bitboard,
        leaps_of: impl Fn(Square) -> &'static Leaps,
        blockable: bool,
    ) {
        for from in squares(pieces) {
            let leaps = leaps_of(from);
            for &(to, block) in &leaps.to[..leaps.len as usize] {
                if targets & (1u128 << to) != 0
                    && (!blockable
                        || self
                            .piece_at(Square::from_index_unchecked(block as usize))
                            .is_empty())
                {
                    list.push(Move::new(from, Square::from_index_unchecked(to as usize)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::fen::START_FEN;

    /// Checks the generator against trying every quiet move, in every position up to `depth`
    /// plies from `pos`; returns the quiet checks seen.
    fn compare(pos: &mut Position, depth: u32) -> usize {
        let mut generated = MoveList::new();
        pos.generate_quiet_checks(&mut generated);
        let mut got: Vec<Move> = generated.to_vec();
        got.sort_by_key(|m| (m.from().index(), m.to().index()));
        let mut quiets = MoveList::new();
        pos.generate_pseudo(&mut quiets, GenType::Quiets);
        let mut want: Vec<Move> = quiets
            .iter()
            .copied()
            .filter(|&mv| pos.move_gives_check(mv))
            .collect();
        want.sort_by_key(|m| (m.from().index(), m.to().index()));
        assert_eq!(got, want, "quiet checks of {}", pos.fen());
        let mut seen = want.len();
        if depth > 0 {
            let mut list = MoveList::new();
            pos.generate_legal(&mut list);
            for &mv in list.iter() {
                pos.make_move(mv);
                seen += compare(pos, depth - 1);
                pos.unmake_move();
            }
        }
        seen
    }

    #[test]
    fn quiet_checks_are_exactly_the_quiet_moves_that_check() {
        let fens = [
            START_FEN,
            // Game 59 of the session-9 gauntlet: a screened cannon check two moves deep.
            "1C1k1an1C/4a4/9/4p1N2/p6P1/9/P3c1P2/6n2/1c7/1NB1K1B2 b - - 7 29",
            "2bakabR1/9/6n2/p1C1p1p1p/4c4/9/P1P1c1P1P/Nr2B4/4N4/1RBAKA3 b - - 0 11",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
            // Open cannon, a horse in front of a chariot, a soldier on a horse's leg, two screens.
            "3k5/4a4/4C4/9/4R4/9/9/4n4/4A4/4K4 w - - 0 1",
            "4k4/9/4N4/9/4R4/9/9/9/9/3K5 w - - 0 1",
            "3k5/4P4/4N4/9/9/9/9/9/9/4K4 w - - 0 1",
            "3ak4/4a4/2P1b4/3P5/9/9/9/4C4/4A4/3K1A3 w - - 0 1",
        ];
        let mut seen = 0;
        for fen in fens {
            let mut pos = Position::from_fen(fen).expect("test FEN");
            seen += compare(&mut pos, 2);
        }
        assert!(seen > 1000, "only {seen} quiet checks met");
    }

    #[test]
    fn quiet_checks_agree_along_random_games() {
        let mut seen = 0;
        let mut positions = 0;
        crate::xiangqi::test_games::random_games(0x9e37_79b9_7f4a_7c15, 60, |pos| {
            seen += compare(pos, 1);
            positions += 1;
        });
        assert!(positions > 1000, "only {positions} positions");
        assert!(seen > 10_000, "only {seen} quiet checks met");
    }
}
