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

/// Perft split by root move: each legal move with its leaf count, and the total.
pub fn perft_divide(pos: &mut Position, depth: u32) -> (Vec<(Move, u64)>, u64) {
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut counts = Vec::with_capacity(list.len());
    let mut total = 0;
    if depth == 0 {
        return (counts, 1);
    }
    for &mv in list.iter() {
        pos.make_move(mv);
        let n = perft(pos, depth - 1);
        pos.unmake_move();
        counts.push((mv, n));
        total += n;
    }
    (counts, total)
}
