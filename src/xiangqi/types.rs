//! The typed vocabulary of Xiangqi: colours, piece kinds, pieces, squares and moves.

use std::fmt;
use std::num::NonZeroU16;

/// Number of files (columns) on the board, `a`..`i` from red's left.
pub const FILES: usize = 9;
/// Number of ranks (rows) on the board, `0`..`9` from red's side.
pub const RANKS: usize = 10;
/// Number of intersections.
pub const SQUARES: usize = FILES * RANKS;

/// The side a piece belongs to. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Upper-case pieces in FEN, starting on ranks 0-4.
    Red = 0,
    /// Lower-case pieces in FEN, starting on ranks 5-9.
    Black = 1,
}

impl Color {
    /// Both colours, red first.
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    /// The opponent.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for red, 1 for black: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case English name (`red`, `black`), as the referee prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

/// What a piece is, independent of its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// The general (K in FEN).
    King = 1,
    /// Advisor (A).
    Advisor = 2,
    /// Elephant (B, also E on input).
    Elephant = 3,
    /// Horse (N, also H on input).
    Horse = 4,
    /// Chariot (R).
    Chariot = 5,
    /// Cannon (C).
    Cannon = 6,
    /// Soldier (P).
    Pawn = 7,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// 0..7 index into per-kind arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// Upper-case FEN letter.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// How many of this kind a side has at the start (and at most).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// Whether the kind can ever cross the river (an "attacking" piece).
    pub const fn can_cross_river(self) -> bool {
        matches!(
            self,
            PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Pawn
        )
    }
}

/// A coloured piece, or the empty marker. Encoded as `kind | colour << 3`, 0 meaning empty,
/// so it indexes 16-entry tables directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    /// No piece.
    pub const EMPTY: Piece = Piece(0);

    /// The piece of `kind` belonging to `color`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(kind as u8 | ((color as u8) << 3))
    }

    /// The piece with raw code `code` (as [`Piece::code`] gives it), `None` for codes that are
    /// empty or name no piece.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        let kind = code & 7;
        if kind == 0 || code > 15 {
            None
        } else {
            Some(Piece(code))
        }
    }

    /// True for the empty marker.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The raw 0..16 code, for table indexing.
    #[inline]
    pub const fn code(self) -> usize {
        self.0 as usize
    }

    /// Colour of a non-empty piece (red for the empty marker).
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 8 != 0 {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// Kind of a non-empty piece, `None` for empty.
    #[inline]
    pub const fn kind(self) -> Option<PieceKind> {
        match self.0 & 7 {
            1 => Some(PieceKind::King),
            2 => Some(PieceKind::Advisor),
            3 => Some(PieceKind::Elephant),
            4 => Some(PieceKind::Horse),
            5 => Some(PieceKind::Chariot),
            6 => Some(PieceKind::Cannon),
            7 => Some(PieceKind::Pawn),
            _ => None,
        }
    }

    /// True when the piece is of `color` and `kind`.
    #[inline]
    pub const fn is(self, color: Color, kind: PieceKind) -> bool {
        self.0 == Piece::new(color, kind).0
    }

    /// FEN letter: upper case red, lower case black; `None` for empty.
    pub fn fen_char(self) -> Option<char> {
        let kind = self.kind()?;
        let c = kind.letter();
        Some(match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        })
    }

    /// Parses a FEN letter, accepting `E`/`H` as synonyms for elephant/horse.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        let kind = match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        };
        Some(Piece::new(color, kind))
    }
}

/// An intersection of the board: `rank * 9 + file`, 0..90, with `a0` = 0 (red's left corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0..9) and `rank` (0..10). Panics in debug builds when out of range.
    #[inline]
    pub const fn new(file: usize, rank: usize) -> Square {
        debug_assert!(file < FILES && rank < RANKS);
        Square((rank * FILES + file) as u8)
    }

    /// The square with index `index`, if it is on the board.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with index `index`; the caller guarantees `index < 90`.
    #[inline]
    pub const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < SQUARES);
        Square(index as u8)
    }

    /// 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (`a`..`i`).
    #[inline]
    pub const fn file(self) -> usize {
        self.0 as usize % FILES
    }

    /// Rank 0..10, 0 being red's back rank.
    #[inline]
    pub const fn rank(self) -> usize {
        self.0 as usize / FILES
    }

    /// Mirrored top-bottom (rank r becomes 9 - r): where the other colour's twin piece stands.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square::new(self.file(), RANKS - 1 - self.rank())
    }

    /// Mirrored left-right.
    #[inline]
    pub const fn flip_file(self) -> Square {
        Square::new(FILES - 1 - self.file(), self.rank())
    }

    /// True when the square lies on `color`'s own half (before the river).
    #[inline]
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// True when the square lies inside `color`'s palace.
    #[inline]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        let rank_ok = match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        };
        f >= 3 && f <= 5 && rank_ok
    }

    /// Parses `a0`..`i9`.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a') as usize;
        let rank = b[1].wrapping_sub(b'0') as usize;
        if file < FILES && rank < RANKS {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'0' + self.rank() as u8) as char
        )
    }
}

/// A move from one square to another, packed in 14 bits (`from | to << 7`). Never a null
/// move, so `from != to`, and the packing is never zero: `Option<Move>` takes two bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

impl Move {
    /// The move `from` -> `to`. `from != to` is the caller's invariant.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        debug_assert!(from.0 != to.0);
        let bits = from.0 as u16 | ((to.0 as u16) << 7);
        match NonZeroU16::new(bits) {
            Some(nz) => Move(nz),
            // a0 -> a0 is the only zero packing, excluded by the invariant.
            None => Move(NonZeroU16::MIN),
        }
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0.get() & 0x7f) as u8)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0.get() >> 7) as u8)
    }

    /// The 14-bit packing, for hash tables.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from `bits()`; `None` for 0 or out-of-board squares.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let from = Square::from_index((bits & 0x7f) as usize)?;
        let to = Square::from_index((bits >> 7) as usize)?;
        if from == to {
            return None;
        }
        Some(Move::new(from, to))
    }

    /// Parses ICCS coordinates without the dash, ranks 0-9: `h2e2`. Only the syntax is checked.
    pub fn parse(text: &str) -> Option<Move> {
        if text.len() != 4 || !text.is_ascii() {
            return None;
        }
        let from = Square::parse(&text[0..2])?;
        let to = Square::parse(&text[2..4])?;
        if from == to {
            return None;
        }
        Some(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_round_trips_through_text_and_bits() {
        for from in 0..SQUARES {
            for to in 0..SQUARES {
                if from == to {
                    continue;
                }
                let m = Move::new(
                    Square::from_index_unchecked(from),
                    Square::from_index_unchecked(to),
                );
                assert_eq!(Move::parse(&m.to_string()), Some(m));
                assert_eq!(Move::from_bits(m.bits()), Some(m));
            }
        }
        assert_eq!(Move::parse("a0a0"), None);
        assert_eq!(Move::parse("j0a0"), None);
        assert_eq!(Move::parse("a0a"), None);
        assert_eq!(
            Move::parse("h2e2").map(|m| m.to_string()),
            Some("h2e2".into())
        );
    }

    #[test]
    fn piece_codes_and_letters() {
        for c in "KABNRCPkabnrcp".chars() {
            let p = Piece::from_fen_char(c).unwrap();
            assert_eq!(p.fen_char(), Some(c));
        }
        assert_eq!(Piece::from_fen_char('E'), Piece::from_fen_char('B'));
        assert_eq!(Piece::from_fen_char('h'), Piece::from_fen_char('n'));
        assert_eq!(Piece::from_fen_char('x'), None);
        assert!(Piece::EMPTY.is_empty());
    }
}
