//! Measures the Gomoku board's make+undo speed with the incremental pattern update, and the
//! time to build a rule's pattern tables: `cargo run --release --example gomoku_speed`.
//!
//! Each run plays 20,000 (or the first argument's number of) random games of 20 to 80 stones in the middle 10 x 10 of the board
//! (seeded, the same every run), undoing every move, and reports make+undo pairs per second. Compare two
//! builds in one run, or with callgrind, never across noisy runs.

use std::time::Instant;

use qilin::gomoku::{Board, Cell, Rule, RuleTables};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn main() {
    // An optional argument sets the number of games (20,000 by default; fewer for callgrind).
    let game_count: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        let start = Instant::now();
        let _ = RuleTables::get(rule);
        println!(
            "tables {:<10} built in {:>4} ms",
            rule.name(),
            start.elapsed().as_millis()
        );
    }
    for (size, rule) in [
        (15, Rule::Freestyle),
        (15, Rule::Renju),
        (20, Rule::Freestyle),
        (20, Rule::Caro),
    ] {
        let mut board = Board::new(size, size, rule).expect("a valid size");
        // The games are drawn first, so the timing covers make and undo alone.
        let mut rng = StdRng::seed_from_u64(1);
        let lo = size / 2 - 5;
        let games: Vec<Vec<Cell>> = (0..game_count)
            .map(|_| {
                let mut cells: Vec<Cell> = (lo..lo + 10)
                    .flat_map(|y| (lo..lo + 10).filter_map(move |x| Cell::from_xy(x, y)))
                    .collect();
                let stones = rng.random_range(20..80);
                for i in 0..stones {
                    let j = rng.random_range(i..cells.len());
                    cells.swap(i, j);
                }
                cells.truncate(stones);
                cells
            })
            .collect();
        let mut pairs: u64 = 0;
        let start = Instant::now();
        for game in &games {
            for &cell in game {
                board.play(cell);
            }
            while board.undo().is_some() {
                pairs += 1;
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{size}x{size} {:<10} {pairs} make+undo in {seconds:.2} s: {:.2} M/s",
            rule.name(),
            pairs as f64 / seconds / 1e6
        );
    }
}
