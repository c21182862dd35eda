//! One search with the info lines printed: `cargo run --release --example gomoku_think --
//! <rule> <size> <ms> <threads> [x,y ...]` (moves alternate from black).

use qilin::engine::{Limits, SearchControl};
use qilin::gomoku::search::{SearchParams, Searcher};
use qilin::gomoku::{Board, Cell, Rule};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule = args
        .get(1)
        .and_then(|a| Rule::parse(a))
        .unwrap_or(Rule::Freestyle);
    let size: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(15);
    let ms: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let threads: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut board = Board::new(size, size, rule).expect("size");
    for c in args.iter().skip(5).filter_map(|a| Cell::parse(a)) {
        board.play(c);
    }
    let mut searcher = Searcher::new(64, threads);
    let control = SearchControl::new(&Limits {
        movetime_ms: Some(ms),
        ..Limits::default()
    });
    let out = searcher.search(&board, &SearchParams::default(), &control, &mut |i| {
        let pv: Vec<String> = i.pv.iter().map(|c| c.to_string()).collect();
        println!(
            "depth {} seldepth {} score {:?} nodes {} time {} ms pv {}",
            i.depth,
            i.seldepth,
            i.score,
            i.nodes,
            i.time_ms,
            pv.join(" ")
        );
    });
    println!(
        "best {:?} score {:?} depth {} nodes {} in {} ms",
        out.best.map(|c| c.to_string()),
        out.score,
        out.depth,
        out.nodes,
        control.elapsed_ms()
    );
}
