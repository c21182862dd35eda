//! Looks at a game record move by move: `cargo run --release --example gomoku_probe --
//! "x,y x,y ..." [nodes] [quick]`. For each position it prints the side to move, whether that
//! side wins by VCF or VCT (300,000-node budgets), whether the opponent would with a free
//! move, and the move the search picks at the node budget (with a third argument, the search
//! only).

use qilin::engine::{Limits, SearchControl};
use qilin::gomoku::search::pos::Pos;
use qilin::gomoku::search::threat::{FailCache, NodeBudget, threat_win};
use qilin::gomoku::search::{SearchParams, Searcher};
use qilin::gomoku::{Board, Rule};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let moves = args.get(1).cloned().unwrap_or_default();
    let nodes: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let mut board = Board::new(15, 15, Rule::Freestyle).expect("size");
    for (i, mv) in moves.split_whitespace().enumerate() {
        let (x, y) = mv.split_once(',').expect("x,y");
        let cell = board
            .cell(x.parse().expect("x"), y.parse().expect("y"))
            .expect("on the board");
        let mut pos = Pos::new(&board);
        let us = pos.us();
        let mut check = |color, vct| {
            let mut budget = NodeBudget {
                nodes: 0,
                max: u64::MAX,
            };
            let mut cache = FailCache::new();
            threat_win(&mut pos, color, &mut budget, &mut cache, vct, 300_000)
        };
        let full = args.get(3).is_none();
        let (own_vcf, own_vct) = (full && check(us, false), full && check(us, true));
        let (opp_vcf, opp_vct) = (
            full && check(us.flip(), false),
            full && check(us.flip(), true),
        );
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let control = SearchControl::new(&limits);
        let mut searcher = Searcher::new(64, 1);
        let out = searcher.search(&board, &SearchParams::default(), &control, &mut |_| {});
        let pick = out.best.map(|c| format!("{},{}", c.x(), c.y()));
        println!(
            "ply {i:2} {us:?} played {mv:6} own vcf {own_vcf:5} vct {own_vct:5} | opp vcf {opp_vcf:5} vct {opp_vct:5} | search {:?} {:?}",
            pick, out.score
        );
        board.play(cell);
    }
}
