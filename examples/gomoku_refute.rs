//! Lists the moves that refute the opponent's threat win in a position:
//! `cargo run --release --example gomoku_refute -- "x,y x,y ..." [nodes]`.

use qilin::gomoku::search::pos::Pos;
use qilin::gomoku::search::threat::{FailCache, NodeBudget, still_loses, threat_win};
use qilin::gomoku::{Board, Rule};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let moves = args.get(1).cloned().unwrap_or_default();
    let nodes: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let mut board = Board::new(15, 15, Rule::Freestyle).expect("size");
    for mv in moves.split_whitespace() {
        let (x, y) = mv.split_once(',').expect("x,y");
        let cell = board
            .cell(x.parse().expect("x"), y.parse().expect("y"))
            .expect("on the board");
        board.play(cell);
    }
    let mut pos = Pos::new(&board);
    let them = pos.us().flip();
    let mut cache = FailCache::new();
    let mut budget = NodeBudget {
        nodes: 0,
        max: u64::MAX,
    };
    let threat = threat_win(&mut pos, them, &mut budget, &mut cache, true, nodes);
    println!("opponent threat win: {threat} ({} nodes)", budget.nodes);
    let mut cells = Vec::new();
    pos.for_each_candidate(|c| cells.push(c));
    for c in cells {
        let mut b = NodeBudget {
            nodes: 0,
            max: u64::MAX,
        };
        let loses = still_loses(&mut pos, c, &mut b, &mut cache, true, nodes);
        println!(
            "{},{}: loses {loses} ({} nodes) them {:?} us {:?}",
            c.x(),
            c.y(),
            b.nodes,
            pos.board.threat(c, them),
            pos.board.threat(c, them.flip())
        );
    }
}
