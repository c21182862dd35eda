//! Game-neutral search score units: mate scores, their transposition-table adjustment by ply,
//! and the conversion to the reported [`Score`]. A game's search uses these so that every
//! game reports mates the same way.
//!
//! Internally a score is an `i32` from the side to move's point of view. Winning at ply `n`
//! (counted from the root) scores `MATE - n`; losing there scores `-(MATE - n)`. The table
//! stores mate scores relative to the node (`score_to_tt`) and turns them back into
//! root-relative scores when probed (`score_from_tt`).

use super::Score;

/// Deepest ply a search may reach, threat sequences included.
pub const MAX_PLY: usize = 128;
/// Score of winning at the root itself; a win `n` plies from the root scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at least this large in magnitude are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// Larger than any score.
pub const INFINITE: i32 = 31_000;

/// The score of winning `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of losing `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -(MATE - ply as i32)
}

/// True for a forced win or loss.
#[inline]
pub const fn is_mate(v: i32) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// A score searched at `ply`, made relative to that node for the table.
#[inline]
pub fn score_to_tt(v: i32, ply: usize) -> i16 {
    let v = if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    };
    v.clamp(-MATE, MATE) as i16
}

/// A table score probed at `ply`, made relative to the root again.
#[inline]
pub fn score_from_tt(v: i16, ply: usize) -> i32 {
    let v = v as i32;
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// The reported form of an internal score, with `units_per_cp` internal units per centipawn.
pub fn report_score(v: i32, units_per_cp: i32) -> Score {
    if v >= MATE_BOUND {
        Score::MatePlies(MATE - v)
    } else if v <= -MATE_BOUND {
        Score::MatePlies(-(MATE + v))
    } else {
        Score::Cp(v / units_per_cp.max(1))
    }
}

/// A root move with its latest score and principal variation, for any game's move type.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Score of the last completed search of this move (`-INFINITE` when not searched).
    pub score: i32,
    /// Score from the previous iteration.
    pub prev_score: i32,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<M>,
    /// Deepest ply reached under this move.
    pub seldepth: u32,
}

impl<M: Copy> RootMove<M> {
    /// An unsearched root move.
    pub fn new(mv: M) -> RootMove<M> {
        RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            pv: vec![mv],
            seldepth: 0,
        }
    }

    /// Records a search of this move: its `score`, its line (the move, then `child_pv`, the
    /// line below it) and the deepest ply reached.
    pub fn record(&mut self, score: i32, child_pv: impl Iterator<Item = M>, seldepth: u32) {
        self.score = score;
        self.seldepth = seldepth;
        self.pv.clear();
        self.pv.push(self.mv);
        self.pv.extend(child_pv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in [0usize, 1, 7, 40] {
            for v in [mate_in(ply + 3), mated_in(ply + 5), 0, 123, -456] {
                assert_eq!(score_from_tt(score_to_tt(v, ply), ply), v);
            }
        }
        // Stored relative to the node: a mate in 3 from a node at ply 10 probed at ply 2.
        assert_eq!(score_from_tt(score_to_tt(mate_in(13), 10), 2), mate_in(5));
        assert_eq!(report_score(mate_in(3), 1), Score::MatePlies(3));
        assert_eq!(report_score(mated_in(4), 1), Score::MatePlies(-4));
        assert_eq!(report_score(80, 4), Score::Cp(20));
    }
}
