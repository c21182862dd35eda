//! `qilin bench`: a fixed set of positions searched to a fixed depth with one thread and a
//! 16 MB table cleared before each position. The total node count is the search's signature:
//! any change to search or evaluation behaviour changes it.

use std::sync::Arc;
use std::time::Instant;

use super::Position;
use super::nnue::Network;
use super::rules::Game;
use super::search::{SearchParams, Searcher};
use crate::engine::{Limits, SearchControl};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 14;

/// Table size used by the bench.
pub const BENCH_HASH_MB: usize = 16;

/// Opening, middle-game and end-game positions (the first twelve from Pikafish's benchmark
/// list, as in tests/data/xiangqi/perft.txt; the end games are Qilin's own).
pub const BENCH_FENS: [&str; 16] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
    "1r1akabr1/1c7/2n1b1n2/p1p1p3p/6p2/PN3R3/1cP1P1P1P/2C1C1N2/1R7/2BAKAB2 b - - 0 1",
    "2b1ka2r/3na2c1/4b3n/8R/8C/4C1P2/P1P1P3P/4B1N2/1r2A4/2BAK4 w - - 0 1",
    "2bckab2/4a4/5n3/CR3N2p/5r3/P3P1B2/9/2n1B4/4A4/3AK1C2 w - - 0 1",
    "2b1kab1C/1N2a4/n3ccn2/p5r1p/4p4/P1P2RN2/2r1P3P/C3B4/4A4/2BAK2R1 w - - 0 1",
    "2bakab2/9/2n1c1R1c/3r4p/4N4/r8/6P1P/6C1C/4A4/1RBAK1B2 w - - 0 1",
    "2bak1b1r/4a4/2n4cn/p6C1/4pN3/P2N4R/4P1P1P/3CB4/4A2r1/c1BAKR3 w - - 0 1",
    "1r2kabr1/4a4/2C1b2c1/p3p3p/1c3n3/2p3R2/P3P3P/N3C1N2/7R1/2BAKAB2 b - - 0 1",
    "3k5/4a4/4b4/9/2p6/9/9/4B4/4A4/2R1K4 w - - 0 1",
    "4k4/4a4/3a5/9/4P4/2n6/9/9/4A4/3AK1N2 w - - 0 1",
    "2b1k4/4a4/4ba3/6C2/9/9/2p6/4B4/9/4K4 b - - 0 1",
    "3ak4/9/4b4/p8/9/6R2/9/4B4/2r1A4/4K4 w - - 0 1",
];

pub use crate::engine::BenchReport;

/// Searches every bench position to `depth` (default `DEFAULT_DEPTH`) with the tuned
/// evaluation.
pub fn bench(depth: Option<u32>) -> BenchReport {
    bench_with(depth, None)
}

/// [`bench()`] with the evaluation network `network` (`None`: the tuned evaluation).
pub fn bench_with(depth: Option<u32>, network: Option<Arc<Network>>) -> BenchReport {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).max(1);
    let mut searcher = Searcher::new(BENCH_HASH_MB, 1);
    searcher.set_network(network);
    let params = SearchParams::default();
    let start = Instant::now();
    let mut positions = Vec::with_capacity(BENCH_FENS.len());
    for fen in BENCH_FENS {
        let pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => unreachable!("bench FEN {fen} is valid: {e}"),
        };
        searcher.clear();
        let control = SearchControl::new(&Limits {
            depth: Some(depth),
            ..Limits::default()
        });
        let outcome = searcher.search(&Game::new(pos), &params, &control, &mut |_| {});
        positions.push((fen.to_string(), outcome.nodes));
    }
    let elapsed_ms = start.elapsed().as_millis() as u64;
    BenchReport::new(positions, elapsed_ms)
}
