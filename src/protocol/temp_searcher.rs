//! TEMPORARY stand-in for the real Xiangqi search (`crate::xiangqi::search`), with exactly its
//! interface, so that the protocol layer can be built and tested first. Iterative deepening
//! of a plain alpha-beta over legal moves, scored by material only, honouring
//! [`SearchControl`]. The lead replaces it with the real searcher; do not grow it.

use std::collections::HashMap;

use crate::engine::{Bound, Score, SearchControl, SearchInfo, SearchOutcome};
use crate::xiangqi::{Game, Move, MoveList, PieceKind, Position, Square};

/// Options of one search beyond its limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchParams {
    /// Principal variations to report.
    pub multipv: u32,
    /// Root moves that must not be played (UCCI `banmoves`).
    pub banned: Vec<Move>,
    /// When not empty, only these root moves are considered (UCI `searchmoves`).
    pub searchmoves: Vec<Move>,
    /// Randomness of the move choice, 0 = off.
    pub randomness: u32,
}

/// What the hash table knows about a position (UCCI `probe`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HashProbe {
    /// Best move stored.
    pub best: Option<Move>,
    /// Lower bound `(score, depth)`.
    pub lower: Option<(i32, u32)>,
    /// Upper bound `(score, depth)`.
    pub upper: Option<(i32, u32)>,
}

/// Internal mate score.
const MATE: i32 = 30_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - 1000;
/// Deepest iteration.
const MAX_DEPTH: u32 = 64;

/// The stand-in searcher: remembers root results per position key for `probe`.
#[derive(Debug)]
pub struct Searcher {
    hash_mb: usize,
    threads: usize,
    roots: HashMap<u64, (Move, i32, u32)>,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` MB and `threads` threads.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            hash_mb,
            threads,
            roots: HashMap::new(),
        }
    }

    /// Resizes the table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    /// Sets the number of threads.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.roots.clear();
    }

    /// What the table says about `pos`.
    pub fn probe(&self, pos: &Position) -> Option<HashProbe> {
        let &(best, score, depth) = self.roots.get(&pos.key())?;
        Some(HashProbe {
            best: Some(best),
            lower: Some((score, depth)),
            upper: Some((score, depth)),
        })
    }

    /// Searches `game`'s current position until `control` says stop; reports each finished
    /// iteration through `report`.
    pub fn search(
        &mut self,
        game: &Game,
        params: &SearchParams,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchInfo<Move>),
    ) -> SearchOutcome<Move> {
        let mut pos = game.position().clone();
        let mut root: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !params.banned.contains(m))
            .filter(|m| params.searchmoves.is_empty() || params.searchmoves.contains(m))
            .collect();
        let mut outcome = SearchOutcome {
            best: root.first().copied(),
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        };
        if root.is_empty() {
            return outcome;
        }
        let mut walker = Walker {
            control,
            nodes: 0,
            aborted: false,
        };
        let max_depth = control.depth_limit().min(MAX_DEPTH);
        for depth in 1..=max_depth {
            let mut best: Option<(Move, i32, Option<Move>)> = None;
            let mut alpha = -MATE - 1;
            for &mv in &root {
                pos.make_move(mv);
                let mut reply = None;
                let score = -walker.negamax(&mut pos, depth - 1, 1, -MATE - 1, -alpha, &mut reply);
                pos.unmake_move();
                if walker.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best = Some((mv, score, reply));
                }
            }
            if walker.aborted {
                break;
            }
            let Some((mv, score, reply)) = best else {
                break;
            };
            // The best move first in the next iteration.
            if let Some(i) = root.iter().position(|&m| m == mv) {
                root[..=i].rotate_right(1);
            }
            let score = to_score(score);
            outcome = SearchOutcome {
                best: Some(mv),
                ponder: reply,
                score,
                depth,
                nodes: walker.nodes,
            };
            self.roots.insert(pos.key(), (mv, alpha, depth));
            let mut pv = vec![mv];
            pv.extend(reply);
            report(SearchInfo {
                depth,
                seldepth: depth,
                multipv: 1,
                score,
                bound: Bound::Exact,
                nodes: walker.nodes,
                time_ms: control.elapsed_ms(),
                hashfull: 0,
                pv,
            });
            if control.soft_limit_reached(100) || matches!(score, Score::MatePlies(_)) {
                break;
            }
        }
        outcome.nodes = walker.nodes;
        outcome
    }
}

/// Internal score to the engine's [`Score`].
fn to_score(s: i32) -> Score {
    if s > MATE_BOUND {
        Score::MatePlies(MATE - s)
    } else if s < -MATE_BOUND {
        Score::MatePlies(-(MATE + s))
    } else {
        Score::Cp(s)
    }
}

/// Piece values in centipawn-like units.
fn value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 0,
        PieceKind::Advisor | PieceKind::Elephant => 40,
        PieceKind::Horse | PieceKind::Cannon => 100,
        PieceKind::Chariot => 220,
        PieceKind::Pawn => 30,
    }
}

/// Material balance for the side to move.
fn material(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let mut total = 0;
    for i in 0..90 {
        let piece = pos.piece_at(Square::from_index_unchecked(i));
        if let Some(kind) = piece.kind() {
            let v = value(kind);
            total += if piece.color() == us { v } else { -v };
        }
    }
    total
}

/// The recursive part, with its node counter and abort flag.
struct Walker<'a> {
    control: &'a SearchControl,
    nodes: u64,
    aborted: bool,
}

impl Walker<'_> {
    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        best_reply: &mut Option<Move>,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.control.node_limit()
            || (self.nodes.is_multiple_of(1024) && self.control.should_abort(self.nodes))
        {
            self.aborted = true;
            return 0;
        }
        let mut list = MoveList::new();
        pos.generate_legal(&mut list);
        if list.is_empty() {
            // No legal move loses in Xiangqi, in check or not.
            return -(MATE - ply);
        }
        if depth == 0 {
            return material(pos);
        }
        for &mv in list.iter() {
            pos.make_move(mv);
            let mut ignored = None;
            let score = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha, &mut ignored);
            pos.unmake_move();
            if self.aborted {
                return 0;
            }
            if score > alpha {
                alpha = score;
                *best_reply = Some(mv);
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}
