//! Game verdicts: checkmate and stalemate (the side with no legal move loses), repetition
//! with perpetual check and perpetual chase (the computer-xiangqi convention that
//! Fairy-Stockfish and Pikafish implement), and the no-capture limit.

use std::fmt;

use super::chase::{make_move_with_chase, undo_move_squares};
use super::position::{Bitboard, Position};
use super::types::{Color, Move};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a loss in Xiangqi).
    Stalemate,
    /// A side gave check with every move of a repetition cycle.
    PerpetualCheck,
    /// A side chased the same piece with every move of a repetition cycle.
    PerpetualChase,
    /// A position occurred for the third time with no one to blame.
    Repetition,
    /// Too many plies without a capture.
    NoCaptureLimit,
}

impl Reason {
    /// The referee's spelling: `checkmate`, `perpetual-check`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::Repetition => "repetition",
            Reason::NoCaptureLimit => "no-capture-limit",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The state of a game after the moves played so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game goes on.
    Ongoing,
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: Reason,
    },
    /// Drawn.
    Draw {
        /// Why.
        reason: Reason,
    },
}

/// The verdict of a repetition cycle, from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleVerdict {
    /// Nobody (or both) broke the rules: a draw.
    Draw,
    /// The opponent checked or chased perpetually.
    SideToMoveWins(Reason),
    /// The side to move checked or chased perpetually.
    SideToMoveLoses(Reason),
}

/// What the verdict needs to know about each position of a game (index 0 = start).
#[derive(Clone, Copy, Debug)]
struct PlyRecord {
    key: u64,
    /// The side to move here is in check (the move that led here gave check).
    check: bool,
    /// Pieces of the side to move newly chased by the move that led here; `None` at the start,
    /// where the move is unknown.
    chased: Option<Bitboard>,
    /// The move that led here (`None` at the start).
    mv: Option<Move>,
}

/// The judgement of a span of positions ending at the current one, following the
/// Fairy-Stockfish convention: `records[n]` is the current position, `end` the number of plies
/// back that may be searched (since the last capture), and `occurrences` how many earlier
/// occurrences make a repetition (2 at game level, 1 inside a search).
fn judge(records: &[PlyRecord], end: usize, occurrences: usize) -> Option<CycleVerdict> {
    let n = records.len() - 1;
    let end = end.min(n);
    if end < 4 {
        return None;
    }
    let chased = |k: usize| records[k].chased.unwrap_or(0);
    let mv_or_none = |k: usize| records[k].mv;
    let undo = |set: Bitboard, k: usize| match mv_or_none(k) {
        Some(mv) => undo_move_squares(set, mv),
        None => set,
    };
    let mut stp = n - 2;
    let mut perpetual_them = records[n].check && records[stp].check;
    let mut perpetual_us = records[n - 1].check && records[stp - 1].check;
    let mut chase_them = undo(chased(n), n - 1) & chased(stp);
    let mut chase_us = undo(chased(n - 1), stp) & chased(stp - 1);
    let mut count = 0;
    let mut i = 4;
    while i <= end {
        // The chase of the move that led to the start position is unknown: skip it.
        if records[stp - 2].chased.is_some() {
            chase_them = undo(chase_them, stp - 1) & chased(stp - 2);
        }
        stp -= 2;
        perpetual_them &= records[stp].check;
        if records[stp].key == records[n].key {
            count += 1;
            if count == occurrences {
                let verdict = if perpetual_them || perpetual_us {
                    blame(perpetual_them, perpetual_us, Reason::PerpetualCheck)
                } else if chase_them != 0 || chase_us != 0 {
                    blame(chase_them != 0, chase_us != 0, Reason::PerpetualChase)
                } else {
                    CycleVerdict::Draw
                };
                return Some(verdict);
            }
        }
        if i < end {
            perpetual_us &= records[stp - 1].check;
            chase_us = undo(chase_us, stp) & chased(stp - 1);
        }
        i += 2;
    }
    None
}

fn blame(them: bool, us: bool, reason: Reason) -> CycleVerdict {
    match (them, us) {
        (true, false) => CycleVerdict::SideToMoveWins(reason),
        (false, true) => CycleVerdict::SideToMoveLoses(reason),
        _ => CycleVerdict::Draw,
    }
}

/// Judges, for a search, a repetition of the current position `len` plies back (`len` even,
/// at least 4, within the moves made on `pos`). The last `len` plies, and one more when
/// `ply_before` says the move made on `pos` before the cycle really led into it, are taken
/// back and replayed to find checks and chases; `pos` ends as it started. A search passes
/// `ply_before = false` when a null move (never recorded on `pos`) came just before the
/// cycle: the move `pos` has before it was made by the other side, and replaying it would
/// move the wrong colour's piece.
pub fn judge_cycle(pos: &mut Position, len: usize, ply_before: bool) -> CycleVerdict {
    let made = pos.plies_made();
    if len < 4 || len > made || pos.key_back(len) != Some(pos.key()) {
        return CycleVerdict::Draw;
    }
    let span = (len + usize::from(ply_before)).min(made);
    let mut moves = Vec::with_capacity(span);
    for _ in 0..span {
        if let Some(mv) = pos.last_move() {
            moves.push(mv);
        }
        pos.unmake_move();
    }
    moves.reverse();
    let mut records = Vec::with_capacity(span + 1);
    records.push(PlyRecord {
        key: pos.key(),
        check: pos.in_check(),
        chased: None,
        mv: None,
    });
    for &mv in &moves {
        let chased = make_move_with_chase(pos, mv);
        records.push(PlyRecord {
            key: pos.key(),
            check: pos.in_check(),
            chased: Some(chased),
            mv: Some(mv),
        });
    }
    judge(&records, len, 1).unwrap_or(CycleVerdict::Draw)
}

/// Why a move was refused by [`Game::play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// Not ICCS coordinates (`h2e2`, ranks 0-9).
    Malformed(String),
    /// Well-formed but not legal in the position.
    Illegal(Move),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::Malformed(text) => write!(f, "malformed move '{text}'"),
            IllegalMove::Illegal(mv) => write!(f, "illegal move {mv}"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Default no-capture limit in plies (60 moves each).
pub const DEFAULT_NO_CAPTURE_LIMIT: u32 = 120;

/// A game: a start position and the moves played from it, with what the verdict needs.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    records: Vec<PlyRecord>,
    no_capture_limit: u32,
    discount_checks: bool,
}

impl Game {
    /// A game starting from `start` (its FEN counters included).
    pub fn new(start: Position) -> Game {
        let mut start = start;
        start.clear_history();
        let record = PlyRecord {
            key: start.key(),
            check: start.in_check(),
            chased: None,
            mv: None,
        };
        Game {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            records: vec![record],
            no_capture_limit: DEFAULT_NO_CAPTURE_LIMIT,
            discount_checks: false,
        }
    }

    /// Sets the no-capture limit in plies (0 disables it).
    pub fn set_no_capture_limit(&mut self, plies: u32) {
        self.no_capture_limit = plies;
    }

    /// Asian-rules counting for the no-capture limit: checks beyond the tenth of the side that
    /// checked more do not count (two plies each), as Fairy-Stockfish counts. Off by default.
    pub fn set_check_discount(&mut self, on: bool) {
        self.discount_checks = on;
    }

    /// Plies without a capture as the no-capture limit counts them.
    fn no_capture_plies(&self) -> u32 {
        let clock = self.pos.halfmove_clock();
        let n = self.records.len() - 1;
        if !self.discount_checks || n < 20 {
            return clock;
        }
        let end = (clock as usize).min(n);
        let (mut checks_them, mut checks_us) = (0u32, 0u32);
        let mut i = 0;
        while i < end.max(1) {
            checks_them += self.records[n - i].check as u32;
            if i < n {
                checks_us += self.records[n - i - 1].check as u32;
            }
            i += 2;
        }
        let discount = 2 * checks_them.max(checks_us).saturating_sub(10);
        clock.saturating_sub(discount)
    }

    /// The no-capture limit in force, in plies (0 = none).
    pub fn no_capture_limit(&self) -> u32 {
        self.no_capture_limit
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position; the game's moves are made on it, so its history reaches back to
    /// the start.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move. The game may be over already (the verdict is not checked here, so
    /// a referee can keep playing past a draw claim); illegal moves are refused.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if !self.pos.is_legal(mv) {
            return Err(IllegalMove::Illegal(mv));
        }
        let chased = make_move_with_chase(&mut self.pos, mv);
        self.moves.push(mv);
        self.records.push(PlyRecord {
            key: self.pos.key(),
            check: self.pos.in_check(),
            chased: Some(chased),
            mv: Some(mv),
        });
        Ok(())
    }

    /// Parses ICCS coordinates (`h2e2`) and plays the move.
    pub fn play_str(&mut self, text: &str) -> Result<(), IllegalMove> {
        let mv = Move::parse(text).ok_or_else(|| IllegalMove::Malformed(text.to_string()))?;
        self.play(mv)
    }

    /// The verdict after the moves played: no legal move first, then repetition (third
    /// occurrence), then the no-capture limit.
    pub fn verdict(&self) -> Verdict {
        let side = self.pos.side_to_move();
        if self.pos.legal_moves().is_empty() {
            let reason = if self.pos.in_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Verdict::Win {
                winner: side.flip(),
                reason,
            };
        }
        let end = self.pos.halfmove_clock() as usize;
        match judge(&self.records, end, 2) {
            Some(CycleVerdict::Draw) => {
                return Verdict::Draw {
                    reason: Reason::Repetition,
                };
            }
            Some(CycleVerdict::SideToMoveWins(reason)) => {
                return Verdict::Win {
                    winner: side,
                    reason,
                };
            }
            Some(CycleVerdict::SideToMoveLoses(reason)) => {
                return Verdict::Win {
                    winner: side.flip(),
                    reason,
                };
            }
            None => {}
        }
        if self.no_capture_limit > 0 && self.no_capture_plies() >= self.no_capture_limit {
            return Verdict::Draw {
                reason: Reason::NoCaptureLimit,
            };
        }
        Verdict::Ongoing
    }
}
