//! FEN parsing with a typed error for each kind of malformed input, and FEN printing.
//!
//! Ranks run from 9 (black's side) down to 0; upper case is red. `E`/`H` are accepted for
//! elephant/horse. The side to move is `w`, `r` (red) or `b` (black). The two chess fields
//! (`- -`) and the counters are optional.

use std::fmt;

use super::position::Position;
use super::types::{Color, FILES, Piece, PieceKind, RANKS, Square};
use crate::quote::Quoted;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// The placement field does not have 10 ranks separated by `/`.
    WrongRankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// A rank describes more or fewer than 9 points.
    WrongRankLength {
        /// Board rank (0-9, 9 being the first one written).
        rank: usize,
        /// How many points it describes.
        points: usize,
    },
    /// A character in the placement that is neither a piece letter nor a digit 1-9.
    InvalidPieceChar {
        /// The offending character.
        found: char,
    },
    /// The side-to-move field is missing.
    MissingSideToMove,
    /// The side-to-move field is not `w`, `r` or `b`.
    InvalidSideToMove {
        /// The field as given.
        found: String,
    },
    /// A side has no king.
    MissingKing {
        /// The side without a king.
        color: Color,
    },
    /// A side has more pieces of a kind than the game has.
    TooManyPieces {
        /// The piece, as its FEN letter.
        piece: char,
        /// How many were found.
        count: u32,
    },
    /// A piece stands where it can never be (a king or advisor outside its palace, an
    /// elephant off its seven points, a soldier behind its starting rank or on a wrong file
    /// before crossing the river).
    ImpossibleSquare {
        /// The piece, as its FEN letter.
        piece: char,
        /// Where it stands.
        square: Square,
    },
    /// The two kings face each other on an open file.
    KingsFacing,
    /// The side that just moved is in check: the position cannot arise.
    SideNotToMoveInCheck,
    /// The half-move (no-capture) clock is not a number.
    InvalidHalfmoveClock {
        /// The field as given.
        found: String,
    },
    /// The full-move number is not a number.
    InvalidFullmoveNumber {
        /// The field as given.
        found: String,
    },
    /// More fields than a FEN has.
    TooManyFields,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::WrongRankCount { found } => {
                write!(f, "FEN has {found} ranks, expected 10")
            }
            FenError::WrongRankLength { rank, points } => {
                write!(f, "FEN rank {rank} describes {points} points, expected 9")
            }
            FenError::InvalidPieceChar { found } => {
                write!(f, "invalid piece character {found:?} in FEN")
            }
            FenError::MissingSideToMove => write!(f, "FEN has no side to move"),
            FenError::InvalidSideToMove { found } => {
                write!(
                    f,
                    "invalid side to move {} in FEN (expected w, r or b)",
                    Quoted(found)
                )
            }
            FenError::MissingKing { color } => write!(f, "{} has no king", color.name()),
            FenError::TooManyPieces { piece, count } => {
                write!(f, "too many pieces '{piece}': {count}")
            }
            FenError::ImpossibleSquare { piece, square } => {
                write!(f, "piece '{piece}' cannot stand on {square}")
            }
            FenError::KingsFacing => write!(f, "the kings face each other"),
            FenError::SideNotToMoveInCheck => {
                write!(f, "the side not to move is in check")
            }
            FenError::InvalidHalfmoveClock { found } => {
                write!(f, "invalid half-move clock {} in FEN", Quoted(found))
            }
            FenError::InvalidFullmoveNumber { found } => {
                write!(f, "invalid full-move number {} in FEN", Quoted(found))
            }
            FenError::TooManyFields => write!(f, "FEN has too many fields"),
        }
    }
}

impl std::error::Error for FenError {}

/// True when `kind` of `color` may ever stand on `sq`.
fn square_allowed(color: Color, kind: PieceKind, sq: Square) -> bool {
    let own_rank = match color {
        Color::Red => sq.rank(),
        Color::Black => RANKS - 1 - sq.rank(),
    };
    let file = sq.file();
    match kind {
        PieceKind::King => sq.in_palace(color),
        PieceKind::Advisor => sq.in_palace(color) && ((own_rank == 1) == (file == 4)),
        PieceKind::Elephant => matches!(
            (file, own_rank),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        PieceKind::Pawn => own_rank >= 5 || (own_rank >= 3 && file.is_multiple_of(2)),
        PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon => true,
    }
}

impl Position {
    /// Parses a FEN. Every placement is checked for legality of the setup (kings, piece
    /// counts, squares, facing kings, the side not to move in check).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let side_field = fields.next();
        let rest: Vec<&str> = fields.collect();
        // Skip the two chess fields ("- -") when present; then up to two counters follow.
        let mut counters: &[&str] = &rest;
        for _ in 0..2 {
            if counters.first().is_some_and(|t| t.parse::<u32>().is_err()) {
                counters = &counters[1..];
            }
        }
        if counters.len() > 2 {
            return Err(FenError::TooManyFields);
        }
        let halfmove = match counters.first() {
            None => 0,
            Some(t) => t
                .parse::<u16>()
                .map_err(|_| FenError::InvalidHalfmoveClock {
                    found: t.to_string(),
                })?,
        };
        let fullmove = match counters.get(1) {
            None => 1,
            Some(t) => t
                .parse::<u16>()
                .map_err(|_| FenError::InvalidFullmoveNumber {
                    found: t.to_string(),
                })?,
        };

        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != RANKS {
            return Err(FenError::WrongRankCount { found: ranks.len() });
        }
        let mut pos = Position::empty(Color::Red);
        let mut counts = [0u32; 16];
        for (i, text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::InvalidPieceChar { found: c });
                    }
                    file += d as usize;
                    continue;
                }
                let piece =
                    Piece::from_fen_char(c).ok_or(FenError::InvalidPieceChar { found: c })?;
                if file >= FILES {
                    return Err(FenError::WrongRankLength {
                        rank,
                        points: file + 1,
                    });
                }
                let sq = Square::new(file, rank);
                let (color, kind) = (piece.color(), piece.kind().unwrap_or(PieceKind::Pawn));
                let letter = piece.fen_char().unwrap_or('?');
                if !square_allowed(color, kind, sq) {
                    return Err(FenError::ImpossibleSquare {
                        piece: letter,
                        square: sq,
                    });
                }
                counts[piece.code()] += 1;
                if counts[piece.code()] > kind.max_count() {
                    return Err(FenError::TooManyPieces {
                        piece: letter,
                        count: counts[piece.code()],
                    });
                }
                pos.put(sq, piece);
                file += 1;
            }
            if file != FILES {
                return Err(FenError::WrongRankLength { rank, points: file });
            }
        }
        let side = match side_field {
            None => return Err(FenError::MissingSideToMove),
            Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(other) => {
                return Err(FenError::InvalidSideToMove {
                    found: other.to_string(),
                });
            }
        };
        pos.set_side(side);
        for color in Color::BOTH {
            if counts[Piece::new(color, PieceKind::King).code()] == 0 {
                return Err(FenError::MissingKing { color });
            }
        }
        pos.set_counters(halfmove, fullmove);
        let red_king = pos.king_square(Color::Red);
        let black_king = pos.king_square(Color::Black);
        if red_king.file() == black_king.file()
            && (red_king.rank() + 1..black_king.rank())
                .all(|r| pos.piece_at(Square::new(red_king.file(), r)).is_empty())
        {
            return Err(FenError::KingsFacing);
        }
        if pos.is_king_attacked(side.flip()) {
            return Err(FenError::SideNotToMoveInCheck);
        }
        Ok(pos)
    }

    /// The FEN of this position (`- -` for the chess fields, then the counters).
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.piece_at(Square::new(file, rank)).fen_char() {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(c);
                    }
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        out.push_str(&format!(
            " {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        match Position::from_fen(fen) {
            Ok(p) => panic!("accepted {fen}: {p:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn start_position_round_trips() {
        let p = Position::from_fen(START_FEN).unwrap();
        assert_eq!(p.fen(), START_FEN);
    }

    #[test]
    fn synonyms_sides_and_missing_counters() {
        let a = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
            .unwrap();
        assert_eq!(a.fen(), START_FEN);
        let b = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7",
        )
        .unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(b.halfmove_clock(), 7);
        let c =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 3 9")
                .unwrap();
        assert_eq!((c.halfmove_clock(), c.fullmove_number()), (3, 9));
    }

    #[test]
    fn each_malformation_has_its_error() {
        assert_eq!(err("   "), FenError::Empty);
        assert_eq!(
            err("rnbakabnr/9/1c5c1 w"),
            FenError::WrongRankCount { found: 3 }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w"),
            FenError::WrongRankLength { rank: 0, points: 8 }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/91/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::WrongRankLength {
                rank: 4,
                points: 10
            }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"),
            FenError::InvalidPieceChar { found: 'X' }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"),
            FenError::MissingSideToMove
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
            FenError::InvalidSideToMove { found: "x".into() }
        );
        assert_eq!(
            err("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::MissingKing {
                color: Color::Black
            }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CR4C1/9/RNBAKABNR w"),
            FenError::TooManyPieces {
                piece: 'R',
                count: 3
            }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w"),
            FenError::ImpossibleSquare {
                piece: 'A',
                square: Square::new(0, 1)
            }
        );
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::KingsFacing);
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/4R4/3K5 w"),
            FenError::SideNotToMoveInCheck
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1"),
            FenError::InvalidHalfmoveClock { found: "x".into() }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 y"),
            FenError::InvalidFullmoveNumber { found: "y".into() }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 5"),
            FenError::TooManyFields
        );
    }
}
