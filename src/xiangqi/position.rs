//! The Xiangqi position: a mailbox of 90 points kept together with per-piece bitboards and
//! rank/file occupancy bits (for the compile-time chariot and cannon tables), an incremental
//! Zobrist key, the evaluation's material and placement sum kept the same way, and make/unmake.

use std::fmt;

use super::search::eval::PIECE_SQUARE;
use super::tables::{
    FILE_SLIDES, HORSE_ATTACKERS, NONE, RANK_SLIDES, ZOBRIST_BLACK, ZOBRIST_PIECE,
};
use super::types::{Color, FILES, Move, Piece, PieceKind, RANKS, SQUARES, Square};

/// A set of squares, bit `i` for square index `i`.
pub type Bitboard = u128;

/// The bitboard holding only `sq`.
#[inline]
pub const fn bit(sq: Square) -> Bitboard {
    1u128 << sq.index()
}

/// What `unmake_move` needs to restore the previous position.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Piece,
    halfmove_clock: u16,
    key: u64,
}

/// A Xiangqi position with the side to move and the no-capture counter.
///
/// Invariants: `board`, `pieces`, `colors`, `rank_occ`, `file_occ`, `kings`, `key` and
/// `piece_square` always describe the same placement; each side has exactly one king.
#[derive(Clone)]
pub struct Position {
    board: [Piece; SQUARES],
    /// Bitboard per piece code (index 0 unused).
    pieces: [Bitboard; 16],
    colors: [Bitboard; 2],
    rank_occ: [u16; RANKS],
    file_occ: [u16; FILES],
    kings: [Square; 2],
    side: Color,
    key: u64,
    /// Sum of `PIECE_SQUARE` over the board: material and placement, red minus black,
    /// middle game and end game.
    piece_square: [i32; 2],
    halfmove_clock: u16,
    fullmove: u16,
    undo: Vec<Undo>,
}

impl Position {
    /// An empty board (no kings): only for building a position piece by piece.
    pub(crate) fn empty(side: Color) -> Position {
        Position {
            board: [Piece::EMPTY; SQUARES],
            pieces: [0; 16],
            colors: [0; 2],
            rank_occ: [0; RANKS],
            file_occ: [0; FILES],
            kings: [Square::new(4, 0), Square::new(4, 9)],
            side,
            key: if side == Color::Black {
                ZOBRIST_BLACK
            } else {
                0
            },
            piece_square: [0; 2],
            halfmove_clock: 0,
            fullmove: 1,
            undo: Vec::with_capacity(256),
        }
    }

    /// Puts `piece` on the empty square `sq` (position setup only).
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.board[sq.index()].is_empty() && !piece.is_empty());
        self.board[sq.index()] = piece;
        self.pieces[piece.code()] |= bit(sq);
        self.colors[piece.color().index()] |= bit(sq);
        self.rank_occ[sq.rank()] |= 1 << sq.file();
        self.file_occ[sq.file()] |= 1 << sq.rank();
        self.key ^= ZOBRIST_PIECE[piece.code()][sq.index()];
        let value = PIECE_SQUARE[piece.code()][sq.index()];
        self.piece_square[0] += value[0];
        self.piece_square[1] += value[1];
        if piece.kind() == Some(PieceKind::King) {
            self.kings[piece.color().index()] = sq;
        }
    }

    /// Sets the side to move (position setup only).
    pub(crate) fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.side = side;
            self.key ^= ZOBRIST_BLACK;
        }
    }

    /// Sets the counters read from a FEN.
    pub(crate) fn set_counters(&mut self, halfmove_clock: u16, fullmove: u16) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove = fullmove.max(1);
    }

    /// The standard start position.
    pub fn startpos() -> Position {
        match Position::from_fen(super::fen::START_FEN) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start FEN is valid: {e}"),
        }
    }

    /// The piece on `sq` (possibly `Piece::EMPTY`).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key of placement and side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Material and placement summed over the board, red minus black, `[middle game, end
    /// game]`: the evaluation's piece-square part, kept up to date by make and unmake.
    #[inline]
    pub fn piece_square(&self) -> [i32; 2] {
        self.piece_square
    }

    /// Plies since the last capture (counted from the FEN's clock).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock as u32
    }

    /// Full-move number, starting at 1 and increasing after black's move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// Square of `color`'s king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[Piece::new(color, kind).code()]
    }

    /// Squares occupied by `color`.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// Occupancy bits of a rank (bit = file).
    #[inline]
    pub(crate) fn rank_occ(&self, rank: usize) -> u16 {
        self.rank_occ[rank]
    }

    /// Occupancy bits of a file (bit = rank).
    #[inline]
    pub(crate) fn file_occ(&self, file: usize) -> u16 {
        self.file_occ[file]
    }

    /// The move that led here, if it was made on this object.
    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().map(|u| u.mv)
    }

    /// The piece captured by the last move made on this object.
    pub fn last_captured(&self) -> Option<Piece> {
        self.undo.last().map(|u| u.captured)
    }

    /// Number of moves made on this object (and not unmade).
    pub fn plies_made(&self) -> usize {
        self.undo.len()
    }

    /// The key of the position `plies_back` plies ago (1 = before the last move), if that
    /// many moves were made on this object. `key_back(0)` is the current key.
    #[inline]
    pub fn key_back(&self, plies_back: usize) -> Option<u64> {
        if plies_back == 0 {
            return Some(self.key);
        }
        let n = self.undo.len();
        (plies_back <= n).then(|| self.undo[n - plies_back].key)
    }

    /// The move made `plies_back` plies ago (1 = the last move).
    #[inline]
    pub fn move_back(&self, plies_back: usize) -> Option<Move> {
        let n = self.undo.len();
        (plies_back >= 1 && plies_back <= n).then(|| self.undo[n - plies_back].mv)
    }

    /// A copy of the position without its move history, for trying moves out (`unmake_move`
    /// cannot go back past it). Costs the same however long the game.
    pub(crate) fn without_history(&self) -> Position {
        Position {
            board: self.board,
            pieces: self.pieces,
            colors: self.colors,
            rank_occ: self.rank_occ,
            file_occ: self.file_occ,
            kings: self.kings,
            side: self.side,
            key: self.key,
            piece_square: self.piece_square,
            halfmove_clock: self.halfmove_clock,
            fullmove: self.fullmove,
            undo: Vec::new(),
        }
    }

    /// Forgets the move history (keeps the position): for a new game root.
    pub fn clear_history(&mut self) {
        self.undo.clear();
    }

    /// Plays a legal (or at least pseudo-legal) move. `unmake_move` restores the position.
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        let from = mv.from();
        let to = mv.to();
        let piece = self.board[from.index()];
        let captured = self.board[to.index()];
        let us = self.side;
        debug_assert!(!piece.is_empty() && piece.color() == us);
        debug_assert!(captured.is_empty() || captured.color() != us);

        self.undo.push(Undo {
            mv,
            captured,
            halfmove_clock: self.halfmove_clock,
            key: self.key,
        });

        let from_bb = bit(from);
        let to_bb = bit(to);
        self.board[to.index()] = piece;
        self.board[from.index()] = Piece::EMPTY;
        self.pieces[piece.code()] ^= from_bb | to_bb;
        self.colors[us.index()] ^= from_bb | to_bb;
        self.rank_occ[from.rank()] &= !(1 << from.file());
        self.file_occ[from.file()] &= !(1 << from.rank());
        self.rank_occ[to.rank()] |= 1 << to.file();
        self.file_occ[to.file()] |= 1 << to.rank();
        let mut key = self.key
            ^ ZOBRIST_PIECE[piece.code()][from.index()]
            ^ ZOBRIST_PIECE[piece.code()][to.index()]
            ^ ZOBRIST_BLACK;
        self.shift_piece_square(piece.code(), from, to, captured.code(), 1);
        if captured.is_empty() {
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        } else {
            self.pieces[captured.code()] ^= to_bb;
            self.colors[us.flip().index()] ^= to_bb;
            key ^= ZOBRIST_PIECE[captured.code()][to.index()];
            self.halfmove_clock = 0;
        }
        self.key = key;
        if piece.kind() == Some(PieceKind::King) {
            self.kings[us.index()] = to;
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = us.flip();
    }

    /// Takes back the last `make_move`. Does nothing when no move was made.
    #[inline]
    pub fn unmake_move(&mut self) {
        let Some(undo) = self.undo.pop() else {
            return;
        };
        let from = undo.mv.from();
        let to = undo.mv.to();
        let piece = self.board[to.index()];
        let them = self.side;
        let us = them.flip();
        let from_bb = bit(from);
        let to_bb = bit(to);
        self.board[from.index()] = piece;
        self.board[to.index()] = undo.captured;
        self.pieces[piece.code()] ^= from_bb | to_bb;
        self.colors[us.index()] ^= from_bb | to_bb;
        self.rank_occ[from.rank()] |= 1 << from.file();
        self.file_occ[from.file()] |= 1 << from.rank();
        let mut key = self.key
            ^ ZOBRIST_PIECE[piece.code()][from.index()]
            ^ ZOBRIST_PIECE[piece.code()][to.index()]
            ^ ZOBRIST_BLACK;
        self.shift_piece_square(piece.code(), from, to, undo.captured.code(), -1);
        if undo.captured.is_empty() {
            self.rank_occ[to.rank()] &= !(1 << to.file());
            self.file_occ[to.file()] &= !(1 << to.rank());
        } else {
            self.pieces[undo.captured.code()] ^= to_bb;
            self.colors[them.index()] ^= to_bb;
            key ^= ZOBRIST_PIECE[undo.captured.code()][to.index()];
        }
        self.key = key;
        if piece.kind() == Some(PieceKind::King) {
            self.kings[us.index()] = from;
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_sub(1).max(1);
        }
        self.halfmove_clock = undo.halfmove_clock;
        self.side = us;
    }

    /// Adds (`sign` 1, making the move) or takes back (`sign` -1) the change in
    /// `piece_square` of the piece with code `piece` going from `from` to `to` and taking the
    /// piece with code `captured` (0 for none: its table row is all zero).
    #[inline(always)]
    fn shift_piece_square(
        &mut self,
        piece: usize,
        from: Square,
        to: Square,
        captured: usize,
        sign: i32,
    ) {
        let (a, b) = (
            PIECE_SQUARE[piece][from.index()],
            PIECE_SQUARE[piece][to.index()],
        );
        let c = PIECE_SQUARE[captured][to.index()];
        self.piece_square[0] += sign * (b[0] - a[0] - c[0]);
        self.piece_square[1] += sign * (b[1] - a[1] - c[1]);
    }

    /// Moves `piece` from `from` to `to` on the mailbox and occupancy bits only, leaving
    /// `left` on `from` (empty when moving, the captured piece when taking a trial move back).
    /// Bitboards, key and king squares are not touched: for legality trials only.
    #[inline]
    pub(crate) fn raw_move(&mut self, from: Square, to: Square, piece: Piece, left: Piece) {
        self.board[to.index()] = piece;
        self.board[from.index()] = left;
        self.rank_occ[to.rank()] |= 1 << to.file();
        self.file_occ[to.file()] |= 1 << to.rank();
        if left.is_empty() {
            self.rank_occ[from.rank()] &= !(1 << from.file());
            self.file_occ[from.file()] &= !(1 << from.rank());
        }
    }

    /// Passes the turn (a null move, for search). Undo with `unmake_null_move`.
    pub fn make_null_move(&mut self) {
        self.side = self.side.flip();
        self.key ^= ZOBRIST_BLACK;
    }

    /// Takes back `make_null_move`.
    pub fn unmake_null_move(&mut self) {
        self.side = self.side.flip();
        self.key ^= ZOBRIST_BLACK;
    }

    /// The Zobrist key computed from scratch (to check the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            ZOBRIST_BLACK
        } else {
            0
        };
        for (i, p) in self.board.iter().enumerate() {
            if !p.is_empty() {
                key ^= ZOBRIST_PIECE[p.code()][i];
            }
        }
        key
    }

    /// True when `color`'s king is attacked (including by the facing enemy king).
    #[inline]
    pub fn is_king_attacked(&self, color: Color) -> bool {
        let k = self.kings[color.index()];
        self.is_attacked_by(k, color.flip(), true)
    }

    /// True when the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_king_attacked(self.side)
    }

    /// True when `sq` is attacked by a chariot, cannon, horse or soldier of `by` (and, when
    /// `king_file` is set, by `by`'s king along the file: the flying-general rule).
    /// Advisors, elephants and king steps are left out: they never leave their own half, so
    /// they can never attack the enemy king. Used for check detection.
    #[inline]
    pub(crate) fn is_attacked_by(&self, sq: Square, by: Color, king_file: bool) -> bool {
        let file = sq.file();
        let rank = sq.rank();
        let rook = Piece::new(by, PieceKind::Chariot);
        let cannon = Piece::new(by, PieceKind::Cannon);

        let rs = &RANK_SLIDES[file][self.rank_occ[rank] as usize];
        for dir in 0..2 {
            let f = rs.first[dir];
            if f != NONE && self.board[rank * FILES + f as usize] == rook {
                return true;
            }
            let s = rs.second[dir];
            if s != NONE && self.board[rank * FILES + s as usize] == cannon {
                return true;
            }
        }
        let fs = &FILE_SLIDES[rank][self.file_occ[file] as usize];
        let king = Piece::new(by, PieceKind::King);
        for dir in 0..2 {
            let f = fs.first[dir];
            if f != NONE {
                let p = self.board[f as usize * FILES + file];
                if p == rook || (king_file && p == king) {
                    return true;
                }
            }
            let s = fs.second[dir];
            if s != NONE && self.board[s as usize * FILES + file] == cannon {
                return true;
            }
        }

        let horse = Piece::new(by, PieceKind::Horse);
        if self.pieces[horse.code()] != 0 {
            let attackers = &HORSE_ATTACKERS[sq.index()];
            for &(h, leg) in &attackers.to[..attackers.len as usize] {
                if self.board[h as usize] == horse && self.board[leg as usize].is_empty() {
                    return true;
                }
            }
        }

        let pawn = Piece::new(by, PieceKind::Pawn);
        if self.pieces[pawn.code()] != 0 {
            // A soldier of `by` attacks `sq` from behind it (from `by`'s view) or from beside
            // it once across the river.
            let behind = match by {
                Color::Red => rank.checked_sub(1),
                Color::Black => (rank + 1 < RANKS).then_some(rank + 1),
            };
            if let Some(r) = behind
                && self.board[r * FILES + file] == pawn
            {
                return true;
            }
            if !sq.on_own_side(by) {
                if file > 0 && self.board[rank * FILES + file - 1] == pawn {
                    return true;
                }
                if file + 1 < FILES && self.board[rank * FILES + file + 1] == pawn {
                    return true;
                }
            }
        }
        false
    }
}

impl PartialEq for Position {
    /// Positions are equal when placement, side to move and counters agree (history aside).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    /// An ASCII diagram, rank 9 at the top, then the FEN and the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS).rev() {
            write!(f, "{rank} ")?;
            for file in 0..FILES {
                let c = self.board[rank * FILES + file].fen_char().unwrap_or('.');
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        writeln!(f, "FEN: {}", self.fen())?;
        write!(f, "Key: {:016x}", self.key)
    }
}
