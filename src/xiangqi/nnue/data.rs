//! The packed training record: one position in 40 bytes, and the file header.
//!
//! A data file is a 48-byte [`DataHeader`] followed by [`RECORD_BYTES`]-byte records. Record
//! layout (little-endian):
//!
//! | bytes  | content                                                                    |
//! |--------|----------------------------------------------------------------------------|
//! | 0..16  | u128: bits 0..90 occupancy, bit 96 black to move, bits 97..99 the result   |
//! | 16..32 | the occupied points' piece codes ([`Piece::code`]), a nibble each, in     |
//! |        | point order, low nibble first                                              |
//! | 32..34 | i16 search score in centipawns, from the side to move's point of view     |
//! | 34..36 | u16 plies since the game's start position                                  |
//! | 36..40 | u32 game number (validation is split by game)                              |
//!
//! The result is also from the side to move's point of view: 0 loss, 1 draw, 2 win.

use crate::xiangqi::Position;
use crate::xiangqi::nnue::features;
use crate::xiangqi::types::{Color, Piece, SQUARES, Square};

/// Bytes per record.
pub const RECORD_BYTES: usize = 40;
/// Bytes of the file header.
pub const HEADER_BYTES: usize = 48;
/// The header's first four bytes.
pub const MAGIC: [u8; 4] = *b"QXPD";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;

const STM_BIT: u32 = 96;
const RESULT_SHIFT: u32 = 97;

/// A game's outcome from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move lost.
    Loss = 0,
    /// Drawn.
    Draw = 1,
    /// The side to move won.
    Win = 2,
}

impl Outcome {
    /// The result as a score: 0, 0.5 or 1.
    pub fn value(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The outcome for the side to move given red's score (1, 0.5 or 0).
    pub fn from_red(red_result: f32, side: Color) -> Outcome {
        let r = if side == Color::Red {
            red_result
        } else {
            1.0 - red_result
        };
        if r > 0.75 {
            Outcome::Win
        } else if r < 0.25 {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }
}

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedPosition {
    bytes: [u8; RECORD_BYTES],
}

impl PackedPosition {
    /// Packs `pos` with its search `score` (centipawns, side to move), the game's `outcome`
    /// for the side to move, the plies since the start and the game number. `None` when the
    /// position has more than 32 pieces (never in a legal game).
    pub fn new(
        pos: &Position,
        score: i16,
        outcome: Outcome,
        ply: u16,
        game: u32,
    ) -> Option<PackedPosition> {
        let mut bytes = [0u8; RECORD_BYTES];
        let mut occ: u128 = pos.occupied();
        if occ.count_ones() as usize > features::MAX_ACTIVE {
            return None;
        }
        let mut n = 0;
        features::for_each_piece(pos, |piece, _| {
            bytes[16 + n / 2] |= (piece.code() as u8) << (4 * (n % 2));
            n += 1;
        });
        occ |= ((pos.side_to_move() == Color::Black) as u128) << STM_BIT;
        occ |= (outcome as u128) << RESULT_SHIFT;
        bytes[..16].copy_from_slice(&occ.to_le_bytes());
        bytes[32..34].copy_from_slice(&score.to_le_bytes());
        bytes[34..36].copy_from_slice(&ply.to_le_bytes());
        bytes[36..40].copy_from_slice(&game.to_le_bytes());
        Some(PackedPosition { bytes })
    }

    /// The record as stored.
    pub fn as_bytes(&self) -> &[u8; RECORD_BYTES] {
        &self.bytes
    }

    /// A record read from a file; `None` when its fields are out of range.
    pub fn from_bytes(bytes: [u8; RECORD_BYTES]) -> Option<PackedPosition> {
        let p = PackedPosition { bytes };
        let occ = p.occ();
        let allowed = ((1u128 << SQUARES) - 1) | (1u128 << STM_BIT) | (3u128 << RESULT_SHIFT);
        let pieces = (occ & ((1u128 << SQUARES) - 1)).count_ones() as usize;
        if pieces > features::MAX_ACTIVE || occ & !allowed != 0 || (occ >> RESULT_SHIFT) & 3 == 3 {
            return None;
        }
        let mut ok = true;
        p.for_each_piece(|piece, _| ok &= piece.is_some());
        ok.then_some(p)
    }

    fn occ(&self) -> u128 {
        let mut b = [0u8; 16];
        b.copy_from_slice(&self.bytes[..16]);
        u128::from_le_bytes(b)
    }

    fn for_each_piece(&self, mut f: impl FnMut(Option<Piece>, Square)) {
        let mut occ = self.occ() & ((1u128 << SQUARES) - 1);
        let mut n = 0;
        while occ != 0 {
            let sq = Square::from_index_unchecked(occ.trailing_zeros() as usize);
            occ &= occ - 1;
            let code = (self.bytes[16 + n / 2] >> (4 * (n % 2))) & 15;
            f(Piece::from_code(code), sq);
            n += 1;
        }
    }

    /// Calls `f(piece, square)` for every piece (records from [`PackedPosition::from_bytes`]
    /// or [`PackedPosition::new`] hold only valid codes).
    pub fn pieces(&self, mut f: impl FnMut(Piece, Square)) {
        self.for_each_piece(|p, sq| {
            if let Some(p) = p {
                f(p, sq)
            }
        });
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if (self.occ() >> STM_BIT) & 1 == 1 {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// The game's outcome for the side to move.
    pub fn outcome(&self) -> Outcome {
        match (self.occ() >> RESULT_SHIFT) & 3 {
            0 => Outcome::Loss,
            2 => Outcome::Win,
            _ => Outcome::Draw,
        }
    }

    /// The search score in centipawns for the side to move.
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.bytes[32], self.bytes[33]])
    }

    /// Plies since the game's start position.
    pub fn ply(&self) -> u16 {
        u16::from_le_bytes([self.bytes[34], self.bytes[35]])
    }

    /// The game number.
    pub fn game(&self) -> u32 {
        u32::from_le_bytes([
            self.bytes[36],
            self.bytes[37],
            self.bytes[38],
            self.bytes[39],
        ])
    }

    /// The position (without move counters beyond the ply), through FEN so that it is
    /// checked like any other; `None` when the record is not a legal setup.
    pub fn position(&self) -> Option<Position> {
        let mut board = [None; SQUARES];
        self.pieces(|p, sq| board[sq.index()] = Some(p));
        let mut fen = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match board[Square::new(file, rank).index()].and_then(|p: Piece| p.fen_char()) {
                    Some(c) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = if self.side_to_move() == Color::Red {
            'w'
        } else {
            'b'
        };
        let fullmove = self.ply() / 2 + 1;
        Position::from_fen(&format!("{fen} {side} - - 0 {fullmove}")).ok()
    }
}

/// The data file's header: the generation settings (for resuming with the same schedule)
/// and how much is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DataHeader {
    /// The generator's seed (0 for converted text data).
    pub seed: u64,
    /// Nodes searched per move (0 when unknown).
    pub nodes: u64,
    /// Random plies played after the book position.
    pub random_plies: u32,
    /// The evaluation the games were searched with: 0 for the tuned evaluation, else the low
    /// 32 bits of the network's id ([`super::Network::id`]). Files written before this field
    /// hold 0 there, which is what they used.
    pub eval_id: u32,
    /// Games completed: the records hold games `0..games` (some may have no record).
    pub games: u64,
    /// Records following the header.
    pub positions: u64,
}

impl DataHeader {
    /// The header as stored.
    pub fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let mut b = [0u8; HEADER_BYTES];
        b[0..4].copy_from_slice(&MAGIC);
        b[4..8].copy_from_slice(&VERSION.to_le_bytes());
        b[8..16].copy_from_slice(&self.seed.to_le_bytes());
        b[16..24].copy_from_slice(&self.nodes.to_le_bytes());
        b[24..28].copy_from_slice(&self.random_plies.to_le_bytes());
        b[28..32].copy_from_slice(&self.eval_id.to_le_bytes());
        b[32..40].copy_from_slice(&self.games.to_le_bytes());
        b[40..48].copy_from_slice(&self.positions.to_le_bytes());
        b
    }

    /// Reads a header, saying what is wrong with a bad one.
    pub fn from_bytes(b: &[u8]) -> Result<DataHeader, String> {
        if b.len() < HEADER_BYTES {
            return Err(format!("header too short ({} bytes)", b.len()));
        }
        if b[0..4] != MAGIC {
            return Err("not a Qilin Xiangqi data file (bad magic)".to_string());
        }
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| {
            let mut x = [0u8; 8];
            x.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(x)
        };
        let version = u32_at(4);
        if version != VERSION {
            return Err(format!("data format version {version}, expected {VERSION}"));
        }
        Ok(DataHeader {
            seed: u64_at(8),
            nodes: u64_at(16),
            random_plies: u32_at(24),
            eval_id: u32_at(28),
            games: u64_at(32),
            positions: u64_at(40),
        })
    }
}

/// Parses a line of the text format (`FEN;result;score`, result and score from red's point
/// of view, as `examples/datagen.rs` writes) into the position, red's result and red's score.
pub fn parse_text_line(line: &str) -> Option<(Position, f32, i32)> {
    let mut parts = line.trim().split(';');
    let pos = Position::from_fen(parts.next()?).ok()?;
    let result = parts.next()?.trim().parse::<f32>().ok()?;
    let score = parts.next()?.trim().parse::<i32>().ok()?;
    Some((pos, result, score))
}

/// Plies since the game's start, from the FEN move counter and the side to move.
pub fn ply_of(pos: &Position) -> u16 {
    let black = (pos.side_to_move() == Color::Black) as u32;
    ((pos.fullmove_number().saturating_sub(1)) * 2 + black).min(u16::MAX as u32) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        crate::xiangqi::test_games::random_games(7, 30, |pos| {
            let rec = PackedPosition::new(pos, -123, Outcome::Win, 17, 99).expect("packs");
            let back = PackedPosition::from_bytes(*rec.as_bytes()).expect("valid");
            assert_eq!(back.score(), -123);
            assert_eq!(back.outcome(), Outcome::Win);
            assert_eq!((back.ply(), back.game()), (17, 99));
            assert_eq!(back.side_to_move(), pos.side_to_move());
            let rebuilt = back.position().expect("legal setup");
            assert_eq!(rebuilt.key(), pos.key());
        });
    }

    #[test]
    fn bad_records_and_headers_are_refused() {
        let pos = Position::startpos();
        let rec = PackedPosition::new(&pos, 0, Outcome::Draw, 0, 0).expect("packs");
        let mut bytes = *rec.as_bytes();
        bytes[16] &= 0xf0; // the first piece's code becomes 0
        assert!(PackedPosition::from_bytes(bytes).is_none());
        let mut bytes = *rec.as_bytes();
        bytes[12] |= 0x06; // result 3
        assert!(PackedPosition::from_bytes(bytes).is_none());
        let h = DataHeader {
            seed: 5,
            nodes: 5000,
            random_plies: 4,
            eval_id: 0x8e84_7f12,
            games: 10,
            positions: 300,
        };
        assert_eq!(DataHeader::from_bytes(&h.to_bytes()), Ok(h));
        assert!(DataHeader::from_bytes(&h.to_bytes()[..20]).is_err());
        let mut b = h.to_bytes();
        b[0] = b'X';
        assert!(DataHeader::from_bytes(&b).is_err());
    }
}
