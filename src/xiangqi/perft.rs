//! Perft: counts the leaf nodes of the legal move tree, the standard test of a move
//! generator. The last ply is counted in bulk (the length of the legal move list).

use super::movegen::MoveList;
use super::position::Position;
use super::types::Move;

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &mv in list.iter() {
        pos.make_move(mv);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Subtrees at least this deep check the stop condition of [`perft_divide_until`].
const STOP_CHECK_DEPTH: u32 = 4;

/// [`perft`] that gives up (`None`) once `stop()` says so; `stop` is asked at the nodes with
/// at least [`STOP_CHECK_DEPTH`] plies to go, so a stop is seen within a few milliseconds.
fn perft_until(pos: &mut Position, depth: u32, stop: &dyn Fn() -> bool) -> Option<u64> {
    if depth < STOP_CHECK_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop() {
        return None;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut nodes = 0;
    for &mv in list.iter() {
        pos.make_move(mv);
        let n = perft_until(pos, depth - 1, stop);
        pos.unmake_move();
        nodes += n?;
    }
    Some(nodes)
}

/// [`perft_divide`] that gives up once `stop()` says so: the root moves counted so far, and
/// whether it was stopped before the end.
pub fn perft_divide_until(
    pos: &mut Position,
    depth: u32,
    stop: &dyn Fn() -> bool,
) -> (Vec<(Move, u64)>, Option<u64>) {
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut counts = Vec::with_capacity(list.len());
    if depth == 0 {
        return (counts, Some(1));
    }
    let mut total = 0;
    for &mv in list.iter() {
        if stop() {
            return (counts, None);
        }
        pos.make_move(mv);
        let n = perft_until(pos, depth - 1, stop);
        pos.unmake_move();
        match n {
            Some(n) => {
                counts.push((mv, n));
                total += n;
            }
            None => return (counts, None),
        }
    }
    (counts, Some(total))
}

/// Perft split by root move: each legal move with its leaf count, and the total.
pub fn perft_divide(pos: &mut Position, depth: u32) -> (Vec<(Move, u64)>, u64) {
    let (counts, total) = perft_divide_until(pos, depth, &|| false);
    (counts, total.unwrap_or_default())
}
