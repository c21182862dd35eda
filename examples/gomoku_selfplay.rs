//! Fast self-play to sanity-check the Gomoku search: `cargo run --release --example
//! gomoku_selfplay [games] [nodes|<ms>ms] [rule] [size] [key=value,...]`. With the last argument
//! (`vct`, `vct_nodes`, `vcf_nodes`, `qvcf_nodes`, `qvcf_depth`, `quiet_four_plies`,
//! `defend_nodes`, `defend_vct`), player B with those
//! settings plays player A (defaults), each opening twice with colours swapped, and B's
//! score is printed. Each game starts from a random
//! three-stone opening near the centre (seeded); both sides search a fixed node budget. It
//! reports results, game lengths and every claimed forced win that the claimant did not
//! convert (a false mate claim is a search bug).

use qilin::engine::{Limits, Score, SearchControl};
use qilin::gomoku::search::{SearchParams, Searcher};
use qilin::gomoku::{Cell, Color, Game, Rule, Verdict};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    // A budget ending in "ms" is a fixed time a move, otherwise nodes.
    let budget = args.get(2).cloned().unwrap_or_else(|| "50000".to_string());
    let movetime: Option<u64> = budget.strip_suffix("ms").and_then(|t| t.parse().ok());
    let nodes: u64 = budget.parse().unwrap_or(50_000);
    let rule = args
        .get(3)
        .and_then(|a| Rule::parse(a))
        .unwrap_or(Rule::Freestyle);
    let size: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(15);
    let params_a = SearchParams::default();
    let mut params_b = SearchParams::default();
    let ab = args.len() > 5;
    if ab {
        for setting in args[5].split(',') {
            let (key, value) = setting.split_once('=').expect("key=value");
            let n: u64 = value.parse().expect("a number");
            match key {
                "vct" => params_b.vct = n != 0,
                "vct_nodes" => params_b.vct_nodes = n,
                "vcf_nodes" => params_b.vcf_nodes = n,
                "qvcf_nodes" => params_b.qvcf_nodes = n,
                "qvcf_depth" => params_b.qvcf_depth = n as u32,
                "quiet_four_plies" => params_b.quiet_four_plies = n as u32,
                "defend_nodes" => params_b.defend_nodes = n,
                "defend_vct" => params_b.defend_vct = n != 0,
                _ => panic!("unknown setting {key}"),
            }
        }
    }
    let mut b_score = 0.0f64;
    let mut wins = [0usize; 2];
    let mut draws = 0;
    let mut false_claims = 0;
    let mut total_plies = 0;
    let start = std::time::Instant::now();
    for g in 0..games {
        let mut game = Game::new(size, size, rule).expect("size");
        let mut searchers = [Searcher::new(32, 1), Searcher::new(32, 1)];
        // Games come in pairs on the same opening: B is black in even games.
        let mut rng = StdRng::seed_from_u64(7 + if ab { g - g % 2 } else { g } as u64);
        let b_color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let c = size / 2;
        // A random opening of three stones within two of the centre.
        while game.board().stone_count() < 3 {
            let x = c + rng.random_range(0..5) - 2;
            let y = c + rng.random_range(0..5) - 2;
            let cell = Cell::from_xy(x, y).expect("cell");
            if game.board().is_empty(cell) {
                let _ = game.play(cell);
            }
        }
        let mut claims: Vec<(Color, usize, i32)> = Vec::new();
        let verdict = loop {
            let control = SearchControl::new(&Limits {
                nodes: movetime.is_none().then_some(nodes),
                movetime_ms: movetime,
                ..Limits::default()
            });
            let side = game.side_to_move();
            let is_b = ab && side == b_color;
            let out = searchers[usize::from(is_b)].search(
                game.board(),
                if is_b { &params_b } else { &params_a },
                &control,
                &mut |_| {},
            );
            let Some(mv) = out.best else {
                break Verdict::Draw;
            };
            if let Score::MatePlies(p) = out.score
                && p > 0
            {
                claims.push((side, game.board().stone_count(), p));
            }
            match game.play(mv) {
                Ok(Verdict::Ongoing) => {}
                Ok(v) => break v,
                Err(e) => panic!("illegal move {mv}: {e}"),
            }
        };
        total_plies += game.board().stone_count();
        let record: Vec<String> = game.board().moves().map(|(c, _)| c.to_string()).collect();
        println!("game {g}: {verdict}: {}", record.join(" "));
        let winner = match verdict {
            Verdict::Win { winner, reason } => {
                wins[winner.index()] += 1;
                if reason.name() != "five" {
                    println!("game {g}: {} lost by {reason}", winner.flip().name());
                }
                Some(winner)
            }
            _ => {
                draws += 1;
                None
            }
        };
        b_score += match winner {
            Some(w) if w == b_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        for (side, at, p) in &claims {
            if Some(*side) != winner {
                false_claims += 1;
                println!(
                    "game {g}: {} claimed a win in {p} plies at stone {at} but did not win: {:?}",
                    side.name(),
                    game.board()
                );
                break;
            }
        }
    }
    println!(
        "{games} games {rule} {size}x{size}, {budget} a move: black {} white {} draws {draws}, \
         mean length {:.1}, games with false win claims {false_claims}, {:.1} s",
        wins[0],
        wins[1],
        total_plies as f64 / games.max(1) as f64,
        start.elapsed().as_secs_f64()
    );
    if ab {
        println!("B scored {b_score} of {games}");
    }
}
