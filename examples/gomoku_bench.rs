//! The Gomoku bench (the CLI's `bench` is Xiangqi's): `cargo run --release --example
//! gomoku_bench [depth]`. Prints each position's nodes, the total (the search's signature)
//! and nodes per second.

fn main() {
    let depth = std::env::args().nth(1).and_then(|a| a.parse().ok());
    let report = qilin::gomoku::search::bench(depth);
    for (i, (name, nodes)) in report.positions.iter().enumerate() {
        println!("Position {:>2}: {nodes:>10}  {name}", i + 1);
    }
    println!("Nodes searched: {}", report.total_nodes);
    println!("Time: {} ms", report.elapsed_ms);
    println!("Nodes/second: {}", report.nps);
}
