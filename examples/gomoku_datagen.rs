//! Self-play data for tuning the Gomoku evaluation: fast fixed-node games of Qilin against
//! itself from random three-stone openings near the centre (plus one random stone), keeping
//! the quiet positions with the game's result.
//!
//! usage: cargo run --release --example gomoku_datagen -- [--games N] [--nodes N]
//!        [--rule R] [--size N] [--threads N] [--seed N] [--out FILE] [--keep quiet|all]
//!
//! Output, one position per line: `size;rule;moves;result;score`, where `moves` are the
//! stones from the empty board as `x,y` (black first), `result` is 1, 0.5 or 0 from black's
//! point of view and `score` the search's score from black's point of view. A position is
//! kept when neither side has a five or an open four to play, the search saw no forced
//! win, and at least five stones are on the board: the evaluation is tuned on quiet
//! positions, the threats are the search's business. `--keep all` keeps every position with
//! at least five stones where the side to move has no five to play (the positions the
//! search's evaluation meets, threats included), a found forced win or loss written as
//! +-`MATE_SCORE`: for labelling by a judge engine (`scripts/gomoku-label.py`).

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use qilin::engine::{Limits, Score, SearchControl};
use qilin::gomoku::search::{SearchParams, Searcher};
use qilin::gomoku::{Cell, Color, Game, Rule, Threat, Verdict};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

struct Config {
    games: u64,
    nodes: u64,
    rule: Rule,
    size: usize,
    threads: usize,
    seed: u64,
    out: String,
    keep_all: bool,
}

/// The score written for a position whose search found a forced win (negated for a loss).
const MATE_SCORE: i32 = 20_000;

fn parse_args() -> Result<Config, String> {
    let mut cfg = Config {
        games: 500,
        nodes: 8000,
        rule: Rule::Freestyle,
        size: 15,
        threads: 1,
        seed: 1,
        out: "gomoku-datagen.txt".to_string(),
        keep_all: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|e| format!("{}: {e}", args[i]))
        };
        match args[i].as_str() {
            "--games" => cfg.games = number()?,
            "--nodes" => cfg.nodes = number()?.max(1),
            "--rule" => cfg.rule = Rule::parse(value).ok_or(format!("unknown rule {value}"))?,
            "--size" => cfg.size = (number()? as usize).clamp(9, 32),
            "--threads" => cfg.threads = number()?.max(1) as usize,
            "--seed" => cfg.seed = number()?,
            "--out" => cfg.out = value.clone(),
            "--keep" => {
                cfg.keep_all = match value.as_str() {
                    "all" => true,
                    "quiet" => false,
                    other => return Err(format!("--keep takes quiet or all, not {other}")),
                }
            }
            other => return Err(format!("unknown argument {other}")),
        }
        i += 2;
    }
    Ok(cfg)
}

/// One game: its kept positions (moves so far, score from black's view) and the result.
fn play_game(cfg: &Config, seed: u64, searcher: &mut Searcher) -> (Vec<(String, i32)>, f64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(cfg.size, cfg.size, cfg.rule).expect("a valid size");
    searcher.clear();
    let c = cfg.size / 2;
    while game.board().stone_count() < 4 {
        let spread = if game.board().stone_count() < 3 { 2 } else { 3 };
        let x = c + rng.random_range(0..=2 * spread) - spread;
        let y = c + rng.random_range(0..=2 * spread) - spread;
        let Some(cell) = Cell::from_xy(x, y) else {
            continue;
        };
        if game.board().is_empty(cell) && game.play(cell) != Ok(Verdict::Ongoing) {
            // A random stone that ends the game (a renju forbidden point): start again.
            return play_game(cfg, seed.wrapping_add(0x9e37_79b9), searcher);
        }
    }
    let params = SearchParams::default();
    let mut positions = Vec::new();
    let verdict = loop {
        let control = SearchControl::new(&Limits {
            nodes: Some(cfg.nodes),
            ..Limits::default()
        });
        let board = game.board();
        let side = board.side_to_move();
        let out = searcher.search(board, &params, &control, &mut |_| {});
        let Some(best) = out.best else {
            break Verdict::Draw;
        };
        let quiet = [side, side.flip()].iter().all(|&color| {
            board.threat_count(color, Threat::Five) == 0
                && board.threat_count(color, Threat::Flex4) == 0
        });
        let score = match out.score {
            Score::Cp(cp) => Some(cp),
            Score::MatePlies(plies) if cfg.keep_all => Some(MATE_SCORE * plies.signum()),
            Score::MatePlies(_) => None,
        };
        let wanted = if cfg.keep_all {
            board.threat_count(side, Threat::Five) == 0
        } else {
            quiet
        };
        if let Some(cp) = score
            && wanted
            && board.stone_count() >= 5
        {
            let from_black = if side == Color::Black { cp } else { -cp };
            let moves: Vec<String> = board.moves().map(|(cell, _)| cell.to_string()).collect();
            positions.push((moves.join(" "), from_black));
        }
        match game.play(best) {
            Ok(Verdict::Ongoing) => {}
            Ok(verdict) => break verdict,
            Err(error) => panic!("the search played an illegal move {best}: {error}"),
        }
    };
    let result = match verdict {
        Verdict::Win {
            winner: Color::Black,
            ..
        } => 1.0,
        Verdict::Win { .. } => 0.0,
        _ => 0.5,
    };
    (positions, result)
}

fn main() {
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gomoku_datagen: {e}");
            std::process::exit(2);
        }
    };
    let file = match std::fs::File::create(&cfg.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("gomoku_datagen: cannot create {}: {e}", cfg.out);
            std::process::exit(2);
        }
    };
    let out = Mutex::new(std::io::BufWriter::new(file));
    let next_game = AtomicU64::new(0);
    let written = AtomicU64::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads {
            scope.spawn(|| {
                let mut searcher = Searcher::new(16, 1);
                loop {
                    let g = next_game.fetch_add(1, Ordering::Relaxed);
                    if g >= cfg.games {
                        break;
                    }
                    let (positions, result) =
                        play_game(&cfg, cfg.seed.wrapping_mul(1_000_003) + g, &mut searcher);
                    let mut text = String::new();
                    for (moves, score) in &positions {
                        text += &format!(
                            "{};{};{moves};{result};{score}\n",
                            cfg.size,
                            cfg.rule.number()
                        );
                    }
                    if let Ok(mut w) = out.lock() {
                        let _ = w.write_all(text.as_bytes());
                    }
                    let total = written.fetch_add(positions.len() as u64, Ordering::Relaxed)
                        + positions.len() as u64;
                    if (g + 1).is_multiple_of(50) {
                        eprintln!(
                            "{} games, {total} positions, {:.0} s",
                            g + 1,
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    if let Ok(mut w) = out.lock() {
        let _ = w.flush();
    }
    eprintln!(
        "{} games, {} positions in {}",
        cfg.games,
        written.load(Ordering::Relaxed),
        cfg.out
    );
}
