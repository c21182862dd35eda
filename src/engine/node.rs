//! Game-neutral steps of an alpha-beta node: the transposition-table cut-off, the bound a
//! searched node stores, and the triangular principal-variation table.
//!
//! Scores are the internal `i32` of [`score`](super::score), root-relative; the table holds
//! them node-relative, and [`tt_cutoff`] moves them back by the node's ply.

use super::score::{MAX_PLY, score_from_tt};
use super::tt::{TtBound, TtData};

/// The score a table entry decides the node with, probed at `ply` in the window
/// `alpha..beta`: the entry's score when it is exact, a lower bound at or above `beta`, or an
/// upper bound at or below `alpha`; `None` when the node must be searched. Whether the
/// entry is deep enough (and whether a PV node may cut at all) is the caller's to decide.
#[inline]
pub fn tt_cutoff(entry: &TtData, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let v = score_from_tt(entry.score, ply);
    let usable = match entry.bound {
        TtBound::Exact => true,
        TtBound::Lower => v >= beta,
        TtBound::Upper => v <= alpha,
    };
    usable.then_some(v)
}

/// The bound of a node searched to the score `best` under `beta`: a lower bound when it
/// failed high, exact when `raised_alpha` (a PV node whose best move beat alpha), else an
/// upper bound.
#[inline]
pub fn node_bound(best: i32, beta: i32, raised_alpha: bool) -> TtBound {
    if best >= beta {
        TtBound::Lower
    } else if raised_alpha {
        TtBound::Exact
    } else {
        TtBound::Upper
    }
}

/// A late-move reduction of `base` plies adjusted as every game does: one ply less at a
/// PV node, one more at an expected cut node, `history_plies` less for a move whose history
/// is good (more for a bad one), and kept within `0..=new_depth - 1`.
#[inline(always)]
pub fn late_move_reduction(
    base: i32,
    pv_node: bool,
    cut_node: bool,
    history_plies: i32,
    new_depth: i32,
) -> i32 {
    (base - pv_node as i32 + cut_node as i32 - history_plies).clamp(0, new_depth - 1)
}

/// The score of a move after the first at a node, by principal variation search: a
/// null-window search `r` plies shallower than `new_depth`, again at `new_depth` when that
/// beats alpha (with `research_cut` as the child's cut-node flag), and, at a PV node, with
/// the full window when the score lands inside it. `child(alpha, beta, depth, cut_node)`
/// searches the position after the move from the opponent's side.
#[inline(always)]
pub fn pvs_later_move(
    mut child: impl FnMut(i32, i32, i32, bool) -> i32,
    alpha: i32,
    beta: i32,
    new_depth: i32,
    r: i32,
    pv_node: bool,
    research_cut: bool,
) -> i32 {
    let mut v = -child(-alpha - 1, -alpha, new_depth - r, true);
    if v > alpha && r > 0 {
        v = -child(-alpha - 1, -alpha, new_depth, research_cut);
    }
    if pv_node && v > alpha && v < beta {
        v = -child(-beta, -alpha, new_depth, false);
    }
    v
}

/// What a node's move loop has found so far: the best score and move, and alpha.
#[derive(Clone, Copy, Debug)]
pub struct NodeBest<M> {
    /// Best score so far (the stand-pat score, or `-INFINITE` before any move).
    pub score: i32,
    /// The move that raised alpha last, if any.
    pub mv: Option<M>,
    /// The lower edge of the window, raised by every better move below beta.
    pub alpha: i32,
}

impl<M: Copy> NodeBest<M> {
    /// Nothing found yet: `score` to beat, window from `alpha`.
    #[inline(always)]
    pub fn new(score: i32, alpha: i32) -> NodeBest<M> {
        NodeBest {
            score,
            mv: None,
            alpha,
        }
    }

    /// Takes the score `v` of `mv` at `ply`: a better score becomes the best; one above
    /// alpha makes `mv` the best move and, when `pv` is given (a PV node), the head of the
    /// line at `ply`. Returns true on a cut-off (`v >= beta`), leaving alpha as it was.
    #[inline(always)]
    pub fn take(
        &mut self,
        v: i32,
        mv: M,
        beta: i32,
        pv: Option<&mut PvTable<M>>,
        ply: usize,
    ) -> bool {
        if v > self.score {
            self.score = v;
            if v > self.alpha {
                self.mv = Some(mv);
                if let Some(pv) = pv {
                    pv.update(ply, mv);
                }
                if v >= beta {
                    return true;
                }
                self.alpha = v;
            }
        }
        false
    }
}

/// The triangular principal-variation table of one search thread: the line found at each
/// ply, built from the child's line when a move raises alpha. `M` is the game's move. A
/// line is at most `MAX_PLY` moves.
#[derive(Clone, Debug)]
pub struct PvTable<M> {
    lines: Vec<[Option<M>; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl<M: Copy> PvTable<M> {
    /// Empty lines at every ply.
    pub fn new() -> PvTable<M> {
        PvTable {
            lines: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            len: [0; MAX_PLY + 1],
        }
    }

    /// Empties the line at `ply` (a node does this as it starts).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// Makes `mv` alone the line at `ply` (a win found without a search below).
    #[inline]
    pub fn set_single(&mut self, ply: usize, mv: M) {
        self.lines[ply][0] = Some(mv);
        self.len[ply] = 1;
    }

    /// Makes `mv` followed by the line at `ply + 1` the line at `ply`.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: M) {
        self.lines[ply][0] = Some(mv);
        let n = self.len[ply + 1].min(MAX_PLY - 1);
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.len[ply] = n + 1;
    }

    /// The moves of the line at `ply`, first move first.
    #[inline]
    pub fn line(&self, ply: usize) -> impl Iterator<Item = M> + '_ {
        self.lines[ply][..self.len[ply]].iter().flatten().copied()
    }
}

impl<M: Copy> Default for PvTable<M> {
    fn default() -> Self {
        PvTable::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::{mate_in, score_to_tt};

    fn entry(score: i32, ply: usize, bound: TtBound) -> TtData {
        TtData {
            move_bits: 0,
            score: score_to_tt(score, ply),
            eval: 0,
            depth: 5,
            bound,
        }
    }

    #[test]
    fn an_entry_cuts_only_when_its_bound_decides_the_window() {
        assert_eq!(tt_cutoff(&entry(50, 0, TtBound::Exact), 0, 10, 0), Some(50));
        assert_eq!(tt_cutoff(&entry(50, 0, TtBound::Lower), 0, 10, 0), Some(50));
        assert_eq!(tt_cutoff(&entry(5, 0, TtBound::Lower), 0, 10, 0), None);
        assert_eq!(tt_cutoff(&entry(-5, 0, TtBound::Upper), 0, 10, 0), Some(-5));
        assert_eq!(tt_cutoff(&entry(5, 0, TtBound::Upper), 0, 10, 0), None);
        // A mate stored at ply 6 and probed at ply 2 is four plies nearer the root.
        let e = entry(mate_in(9), 6, TtBound::Exact);
        assert_eq!(tt_cutoff(&e, 0, 10, 2), Some(mate_in(5)));
        assert_eq!(node_bound(10, 10, false), TtBound::Lower);
        assert_eq!(node_bound(5, 10, true), TtBound::Exact);
        assert_eq!(node_bound(5, 10, false), TtBound::Upper);
    }

    #[test]
    fn a_line_is_the_move_then_the_childs_line() {
        let mut pv = PvTable::<u8>::new();
        pv.set_single(3, 7);
        pv.update(2, 6);
        pv.update(1, 5);
        assert_eq!(pv.line(1).collect::<Vec<_>>(), vec![5, 6, 7]);
        pv.clear(3);
        pv.update(2, 4);
        assert_eq!(pv.line(2).collect::<Vec<_>>(), vec![4]);
    }
}
