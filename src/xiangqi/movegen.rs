//! Move generation: pseudo-legal generation from the compile-time tables, a cheap legality
//! filter (only moves that could expose the king are tried), and an independent
//! square-by-square legality test for moves that come from outside.

use std::ops::Deref;

use super::position::{Bitboard, Position, bit};
use super::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, FILE_MASKS, FILE_SLIDES, HORSE_ATTACKERS, HORSE_MOVES,
    KING_MOVES, Leaps, NONE, PAWN_MOVES, RANK_MASKS, RANK_SLIDES,
};
use super::types::{Color, Move, Piece, PieceKind, Square};

/// Capacity of a move list: no Xiangqi position has more than 119 pseudo-legal moves.
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

const FILLER: Move = Move::new(Square::new(0, 0), Square::new(0, 1));

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [FILLER; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. The capacity is never exceeded by generation.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` is true, in order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Mutable access for in-place reordering (move ordering in search).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.to_string()))
            .finish()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every pseudo-legal move.
    All,
    /// Captures only.
    Captures,
    /// Non-captures only.
    Quiets,
}

#[inline]
fn pop_square(bb: &mut Bitboard) -> Square {
    let i = bb.trailing_zeros() as usize;
    *bb &= *bb - 1;
    Square::from_index_unchecked(i)
}

impl Position {
    #[inline]
    fn push_leaps(
        &self,
        list: &mut MoveList,
        from: Square,
        leaps: &Leaps,
        blockable: bool,
        kind: GenType,
    ) {
        let us = self.side_to_move();
        for &(to, block) in &leaps.to[..leaps.len as usize] {
            let to_sq = Square::from_index_unchecked(to as usize);
            if blockable
                && !self
                    .piece_at(Square::from_index_unchecked(block as usize))
                    .is_empty()
            {
                continue;
            }
            let target = self.piece_at(to_sq);
            let ok = match kind {
                GenType::All => target.is_empty() || target.color() != us,
                GenType::Captures => !target.is_empty() && target.color() != us,
                GenType::Quiets => target.is_empty(),
            };
            if ok {
                list.push(Move::new(from, to_sq));
            }
        }
    }

    #[inline]
    fn push_slides(&self, list: &mut MoveList, from: Square, cannon: bool, kind: GenType) {
        let us = self.side_to_move();
        let (file, rank) = (from.file(), from.rank());
        let rs = &RANK_SLIDES[file][self.rank_occ(rank) as usize];
        let fs = &FILE_SLIDES[rank][self.file_occ(file) as usize];
        if kind != GenType::Captures {
            let mut q = rs.quiet;
            while q != 0 {
                let f = q.trailing_zeros() as usize;
                q &= q - 1;
                list.push(Move::new(from, Square::new(f, rank)));
            }
            let mut q = fs.quiet;
            while q != 0 {
                let r = q.trailing_zeros() as usize;
                q &= q - 1;
                list.push(Move::new(from, Square::new(file, r)));
            }
        }
        if kind != GenType::Quiets {
            let (rt, ft) = if cannon {
                (rs.second, fs.second)
            } else {
                (rs.first, fs.first)
            };
            for dir in 0..2 {
                if rt[dir] != NONE {
                    let to = Square::new(rt[dir] as usize, rank);
                    if self.piece_at(to).color() != us {
                        list.push(Move::new(from, to));
                    }
                }
                if ft[dir] != NONE {
                    let to = Square::new(file, ft[dir] as usize);
                    if self.piece_at(to).color() != us {
                        list.push(Move::new(from, to));
                    }
                }
            }
        }
    }

    /// Appends the pseudo-legal moves of `kind` of the piece on `from` (one of the side to
    /// move's; nothing for an empty square).
    pub(super) fn push_moves_of(&self, list: &mut MoveList, from: Square, kind: GenType) {
        let c = self.side_to_move().index();
        let i = from.index();
        match self.piece_at(from).kind() {
            Some(PieceKind::Chariot) => self.push_slides(list, from, false, kind),
            Some(PieceKind::Cannon) => self.push_slides(list, from, true, kind),
            Some(PieceKind::Horse) => self.push_leaps(list, from, &HORSE_MOVES[i], true, kind),
            Some(PieceKind::Pawn) => self.push_leaps(list, from, &PAWN_MOVES[c][i], false, kind),
            Some(PieceKind::Elephant) => {
                self.push_leaps(list, from, &ELEPHANT_MOVES[c][i], true, kind)
            }
            Some(PieceKind::Advisor) => {
                self.push_leaps(list, from, &ADVISOR_MOVES[c][i], false, kind)
            }
            Some(PieceKind::King) => self.push_leaps(list, from, &KING_MOVES[c][i], false, kind),
            None => {}
        }
    }

    /// Appends the pseudo-legal moves of the side to move (moves that obey each piece's
    /// movement rules but may leave the own king attacked).
    pub fn generate_pseudo(&self, list: &mut MoveList, kind: GenType) {
        let us = self.side_to_move();
        let c = us.index();
        let mut bb = self.pieces(us, PieceKind::Chariot);
        while bb != 0 {
            let from = pop_square(&mut bb);
            self.push_slides(list, from, false, kind);
        }
        let mut bb = self.pieces(us, PieceKind::Cannon);
        while bb != 0 {
            let from = pop_square(&mut bb);
            self.push_slides(list, from, true, kind);
        }
        let mut bb = self.pieces(us, PieceKind::Horse);
        while bb != 0 {
            let from = pop_square(&mut bb);
            self.push_leaps(list, from, &HORSE_MOVES[from.index()], true, kind);
        }
        let mut bb = self.pieces(us, PieceKind::Pawn);
        while bb != 0 {
            let from = pop_square(&mut bb);
            self.push_leaps(list, from, &PAWN_MOVES[c][from.index()], false, kind);
        }
        let mut bb = self.pieces(us, PieceKind::Elephant);
        while bb != 0 {
            let from = pop_square(&mut bb);
            self.push_leaps(list, from, &ELEPHANT_MOVES[c][from.index()], true, kind);
        }
        let mut bb = self.pieces(us, PieceKind::Advisor);
        while bb != 0 {
            let from = pop_square(&mut bb);
            self.push_leaps(list, from, &ADVISOR_MOVES[c][from.index()], false, kind);
        }
        let king = self.king_square(us);
        self.push_leaps(list, king, &KING_MOVES[c][king.index()], false, kind);
    }

    /// Plays the pseudo-legal `mv` on the mailbox and occupancy only, asks `question` of
    /// the board with the moved piece, and takes the move back: the position is unchanged.
    #[inline(always)]
    fn on_trial_board<R>(&mut self, mv: Move, question: impl FnOnce(&Self, Piece) -> R) -> R {
        let from = mv.from();
        let to = mv.to();
        let piece = self.piece_at(from);
        let captured = self.piece_at(to);
        self.raw_move(from, to, piece, Piece::EMPTY);
        let answer = question(self, piece);
        self.raw_move(to, from, piece, captured);
        answer
    }

    /// True when the pseudo-legal `mv` leaves the mover's king unattacked (and the kings not
    /// facing). The board is touched and restored; nothing else changes.
    #[inline]
    pub(crate) fn move_is_safe(&mut self, mv: Move) -> bool {
        let us = self.side_to_move();
        self.on_trial_board(mv, |pos, piece| {
            let king = if piece.kind() == Some(PieceKind::King) {
                mv.to()
            } else {
                pos.king_square(us)
            };
            !pos.is_attacked_by(king, us.flip(), true)
        })
    }

    /// True when the pseudo-legal `mv` attacks the opponent's king once made (checks by the
    /// moving piece and discovered ones alike). For pruning decisions taken before the move is
    /// made; the position is unchanged afterwards.
    pub(crate) fn move_gives_check(&mut self, mv: Move) -> bool {
        let us = self.side_to_move();
        self.on_trial_board(mv, |pos, _| {
            pos.is_attacked_by(pos.king_square(us.flip()), us, false)
        })
    }

    /// Fills `list` with the legal moves of the side to move.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        list.clear();
        self.generate_pseudo(list, GenType::All);
        self.filter_legal(list);
    }

    /// Removes the moves of `list` (pseudo-legal for this position) that leave the king
    /// attacked. When in check every move is tried. Otherwise only moves that can expose the
    /// king are: king moves; moves from the king's rank or file when an enemy chariot or cannon
    /// (or, on the file, the enemy king) stands on it; moves onto such a line when an enemy
    /// cannon could use the mover as a screen; moves from a horse leg that holds back an enemy
    /// horse. Every other move leaves the attacks on the king unchanged.
    pub fn filter_legal(&mut self, list: &mut MoveList) {
        let us = self.side_to_move();
        let them = us.flip();
        let king = self.king_square(us);
        let (risky_from, risky_to) = if self.in_check() {
            (!0u128, !0u128)
        } else {
            let rank_line = RANK_MASKS[king.rank()];
            let file_line = FILE_MASKS[king.file()];
            let chariots = self.pieces(them, PieceKind::Chariot);
            let cannons = self.pieces(them, PieceKind::Cannon);
            let mut from_mask = bit(king);
            let mut to_mask = 0;
            if (chariots | cannons) & rank_line != 0 {
                from_mask |= rank_line;
            }
            if (chariots | cannons | self.pieces(them, PieceKind::King)) & file_line != 0 {
                from_mask |= file_line;
            }
            if cannons & rank_line != 0 {
                to_mask |= rank_line;
            }
            if cannons & file_line != 0 {
                to_mask |= file_line;
            }
            let horse = Piece::new(them, PieceKind::Horse);
            if self.pieces(them, PieceKind::Horse) != 0 {
                let attackers = &HORSE_ATTACKERS[king.index()];
                for &(h, leg) in &attackers.to[..attackers.len as usize] {
                    if self.piece_at(Square::from_index_unchecked(h as usize)) == horse {
                        from_mask |= 1u128 << leg;
                    }
                }
            }
            (from_mask, to_mask)
        };
        let mut kept = 0;
        for i in 0..list.len {
            let mv = list.moves[i];
            let risky = (risky_from & bit(mv.from())) | (risky_to & bit(mv.to())) != 0;
            if !risky || self.move_is_safe(mv) {
                list.moves[kept] = mv;
                kept += 1;
            }
        }
        list.len = kept;
    }

    /// The legal moves of the side to move (a convenience over `generate_legal`).
    pub fn legal_moves(&self) -> MoveList {
        let mut scratch = self.without_history();
        let mut list = MoveList::new();
        scratch.generate_legal(&mut list);
        list
    }

    /// Counts legal moves without keeping them.
    pub fn count_legal(&mut self) -> usize {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list.len()
    }

    /// Checks the piece movement rules for `mv` square by square, independently of the
    /// generator: the mover's piece, the target not its own, the geometry and blocking points.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let piece = self.piece_at(from);
        let target = self.piece_at(to);
        if piece.is_empty() || piece.color() != us || (!target.is_empty() && target.color() == us) {
            return false;
        }
        let Some(kind) = piece.kind() else {
            return false;
        };
        let df = to.file() as i32 - from.file() as i32;
        let dr = to.rank() as i32 - from.rank() as i32;
        let empty_at = |f: i32, r: i32| {
            self.piece_at(Square::new(f as usize, r as usize))
                .is_empty()
        };
        let between = || -> Option<usize> {
            if df != 0 && dr != 0 {
                return None;
            }
            let (sf, sr) = (df.signum(), dr.signum());
            let steps = df.abs().max(dr.abs());
            Some(
                (1..steps)
                    .filter(|i| !empty_at(from.file() as i32 + sf * i, from.rank() as i32 + sr * i))
                    .count(),
            )
        };
        match kind {
            PieceKind::King => df.abs() + dr.abs() == 1 && to.in_palace(us),
            PieceKind::Advisor => df.abs() == 1 && dr.abs() == 1 && to.in_palace(us),
            PieceKind::Elephant => {
                df.abs() == 2
                    && dr.abs() == 2
                    && to.on_own_side(us)
                    && empty_at(from.file() as i32 + df / 2, from.rank() as i32 + dr / 2)
            }
            PieceKind::Horse => {
                let (lf, lr) = match (df.abs(), dr.abs()) {
                    (1, 2) => (0, dr / 2),
                    (2, 1) => (df / 2, 0),
                    _ => return false,
                };
                empty_at(from.file() as i32 + lf, from.rank() as i32 + lr)
            }
            PieceKind::Chariot => between() == Some(0),
            PieceKind::Cannon => match between() {
                Some(0) => target.is_empty(),
                Some(1) => !target.is_empty(),
                _ => false,
            },
            PieceKind::Pawn => {
                let forward = if us == Color::Red { 1 } else { -1 };
                (df == 0 && dr == forward) || (dr == 0 && df.abs() == 1 && !from.on_own_side(us))
            }
        }
    }

    /// Full legality of any move (for moves that come from outside): movement rules, then
    /// the own king not attacked and the kings not facing afterwards.
    pub fn is_legal(&self, mv: Move) -> bool {
        if !self.is_pseudo_legal(mv) {
            return false;
        }
        let mut scratch = self.without_history();
        scratch.move_is_safe(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::fen::START_FEN;

    #[test]
    fn start_position_has_44_moves() {
        let p = Position::from_fen(START_FEN).unwrap();
        assert_eq!(p.legal_moves().len(), 44);
    }

    #[test]
    fn flying_general_forbids_leaving_the_file() {
        // The red cannon on e4 is the only piece between the kings.
        let p = Position::from_fen("4k4/9/9/9/9/4C4/9/9/9/4K4 w").unwrap();
        let moves = p.legal_moves();
        assert!(
            moves
                .iter()
                .all(|m| m.from() != Square::new(4, 4) || m.to().file() == 4)
        );
        assert!(!p.is_legal(Move::parse("e4d4").unwrap()));
        assert!(p.is_legal(Move::parse("e4e5").unwrap()));
    }

    /// Compares `move_gives_check` with making each move and asking `in_check`, in every
    /// position up to `depth` plies from `pos`; returns the checks seen.
    fn compare_checks(pos: &mut Position, depth: u32) -> u32 {
        let mut checks = 0;
        let mut list = MoveList::new();
        pos.generate_legal(&mut list);
        for &mv in list.iter() {
            let predicted = pos.move_gives_check(mv);
            pos.make_move(mv);
            assert_eq!(predicted, pos.in_check(), "{mv}");
            checks += predicted as u32;
            if depth > 1 {
                checks += compare_checks(pos, depth - 1);
            }
            pos.unmake_move();
        }
        checks
    }

    #[test]
    fn move_gives_check_agrees_with_making_the_move() {
        // Direct, cannon-screen and discovered checks, horse checks around blocked legs.
        let fens = [
            START_FEN,
            "2bakabR1/9/6n2/p1C1p1p1p/4c4/9/P1P1c1P1P/Nr2B4/4N4/1RBAKA3 b - - 0 11",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
            "3k5/4a4/4C4/9/4R4/9/9/4n4/4A4/4K4 w - - 0 1",
        ];
        let mut checks = 0;
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap();
            checks += compare_checks(&mut pos, 2);
        }
        assert!(checks > 50, "only {checks} checks met");
    }
}
