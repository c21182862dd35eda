//! The Gomoku bench: fixed positions searched to a fixed depth with one thread and a 16 MB
//! table cleared before each position. The total node count is the search's signature.

use std::time::Instant;

use super::{SearchParams, Searcher};
use crate::engine::{Limits, SearchControl};
use crate::gomoku::{Board, Cell, Color, Rule};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 7;

/// Table size used by the bench.
pub const BENCH_HASH_MB: usize = 16;

/// Bench positions: description, board side, rule, and either a move sequence alternating
/// from black (fourth field, fifth empty) or black's and white's stones with black to move.
/// Openings from the Piskvork and GomocupJudge opening lists (centred), middle games from
/// Qilin's self-play (examples/gomoku_selfplay), and renju VCF puzzles from
/// data/gomoku/renju-vcf-*.tsv.
#[rustfmt::skip]
pub const BENCH_POSITIONS: [(&str, usize, Rule, &str, &str); 10] = [
    ("15 freestyle, piskvork opening 0,0 1,1 0,3", 15, Rule::Freestyle, "7,7 8,8 7,10", ""),
    ("15 freestyle, self-play after 8 moves", 15, Rule::Freestyle,
     "7,5 5,6 5,5 8,5 6,4 4,6 6,6 4,4", ""),
    ("20 freestyle, openings-20 line 1", 20, Rule::Freestyle, "3,2 4,1 7,1", ""),
    ("20 freestyle, self-play after 8 moves", 20, Rule::Freestyle,
     "10,8 8,9 8,8 9,8 7,10 9,7 9,9 11,7", ""),
    ("15 standard, self-play after 8 moves", 15, Rule::Standard,
     "7,5 5,6 5,5 4,5 6,7 6,4 7,7 4,4", ""),
    ("15 renju, opening 7,7 7,6 8,6", 15, Rule::Renju, "7,7 7,6 8,6", ""),
    ("15 renju, self-play after 16 moves", 15, Rule::Renju,
     "7,5 5,6 5,5 6,4 6,7 8,5 4,7 4,8 4,4 3,6 6,6 7,7 3,3 2,2 2,4 2,6", ""),
    ("15 renju, VCF black #2", 15, Rule::Renju,
     "8,6 7,7 3,8 6,9 7,9 3,10 7,10 5,12 6,12 8,12",
     "7,5 4,8 4,9 8,9 2,11 6,11 7,11 8,11 9,12 7,13"),
    ("15 renju, VCF intro #3", 15, Rule::Renju,
     "5,5 9,5 5,6 8,6 6,7 7,7 10,7 6,9 8,9", "10,4 4,5 8,5 6,6 7,6 5,7 11,7 9,8 9,9"),
    ("20 caro, self-play after 12 moves", 20, Rule::Caro,
     "9,9 9,11 11,12 11,10 12,10 10,12 8,10 7,11 10,11 8,9 12,13 14,15", ""),
];

pub use crate::engine::BenchReport;

fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace().filter_map(Cell::parse).collect()
}

/// The board of a bench entry. With `white` empty the `black` list is a move sequence
/// alternating from black; otherwise the two lists are the stones of each colour, black to
/// move.
pub fn bench_board(size: usize, rule: Rule, black: &str, white: &str) -> Board {
    let mut board = match Board::new(size, size, rule) {
        Ok(b) => b,
        Err(e) => unreachable!("bench board size is valid: {e}"),
    };
    if white.is_empty() {
        for c in cells(black) {
            board.play(c);
        }
    } else {
        for c in cells(black) {
            board.play_as(c, Color::Black);
        }
        for c in cells(white) {
            board.play_as(c, Color::White);
        }
        board.set_side_to_move(Color::Black);
    }
    board
}

/// Searches every bench position to `depth` (default `DEFAULT_DEPTH`).
pub fn bench(depth: Option<u32>) -> BenchReport {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).max(1);
    let mut searcher = Searcher::new(BENCH_HASH_MB, 1);
    let params = SearchParams::default();
    let start = Instant::now();
    let mut positions = Vec::with_capacity(BENCH_POSITIONS.len());
    for (name, size, rule, black, white) in BENCH_POSITIONS {
        let board = bench_board(size, rule, black, white);
        searcher.clear();
        let control = SearchControl::new(&Limits {
            depth: Some(depth),
            ..Limits::default()
        });
        let outcome = searcher.search(&board, &params, &control, &mut |_| {});
        positions.push((name.to_string(), outcome.nodes));
    }
    let elapsed_ms = start.elapsed().as_millis() as u64;
    BenchReport::new(positions, elapsed_ms)
}
