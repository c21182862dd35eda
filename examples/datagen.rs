//! Self-play data for tuning the evaluation: plays fast fixed-node games of Qilin against
//! itself from book openings plus a few random plies and writes the quiet positions with the
//! game's result.
//!
//! usage: cargo run --release --example datagen -- [--games N] [--nodes N] [--threads N]
//!        [--seed N] [--random-plies N] [--out FILE]
//!
//! Output, one position per line: `FEN;result;score` where result is 1, 0.5 or 0 from red's
//! point of view and score is the search's score in centipawns, also from red's side.
//! Positions are kept only when the side to move is not in check, the chosen move is not a
//! capture and the score is not a mate: the evaluation is tuned on quiet positions.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use qilin::engine::{Limits, Score, SearchControl};
use qilin::xiangqi::search::{SearchParams, Searcher};
use qilin::xiangqi::{Color, Game, Position, Verdict};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

const BOOK: &str = include_str!("../tests/data/xiangqi/openings-book-sample.epd");

struct Config {
    games: u64,
    nodes: u64,
    threads: usize,
    seed: u64,
    random_plies: u32,
    out: String,
}

fn parse_args() -> Result<Config, String> {
    let mut cfg = Config {
        games: 1000,
        nodes: 6000,
        threads: 2,
        seed: 1,
        random_plies: 4,
        out: "datagen.txt".to_string(),
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
            "--nodes" => cfg.nodes = number()?,
            "--threads" => cfg.threads = number()?.max(1) as usize,
            "--seed" => cfg.seed = number()?,
            "--random-plies" => cfg.random_plies = number()? as u32,
            "--out" => cfg.out = value.clone(),
            other => return Err(format!("unknown argument {other}")),
        }
        i += 2;
    }
    Ok(cfg)
}

/// One finished game: the recorded positions (FEN, red-relative score) and red's result.
fn play_game(book: &[Position], cfg: &Config, game_no: u64) -> (Vec<(String, i32)>, f32) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed.wrapping_mul(1_000_003) ^ game_no);
    let start = book[rng.random_range(0..book.len())].clone();
    let mut game = Game::new(start);
    for _ in 0..cfg.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        if game.play(mv).is_err() {
            break;
        }
    }
    let mut searcher = Searcher::new(8, 1);
    let params = SearchParams::default();
    let mut records = Vec::new();
    let mut decisive_streak = 0;
    let mut last_sign = 0;
    for _ply in 0..400 {
        match game.verdict() {
            Verdict::Ongoing => {}
            Verdict::Win { winner, .. } => {
                return (records, if winner == Color::Red { 1.0 } else { 0.0 });
            }
            Verdict::Draw { .. } => return (records, 0.5),
        }
        let control = SearchControl::new(&Limits {
            nodes: Some(cfg.nodes),
            ..Limits::default()
        });
        let outcome = searcher.search(&game, &params, &control, &mut |_| {});
        let Some(mv) = outcome.best else {
            break;
        };
        let pos = game.position();
        let red = if pos.side_to_move() == Color::Red {
            1
        } else {
            -1
        };
        match outcome.score {
            Score::Cp(cp) => {
                let quiet = !pos.in_check() && pos.piece_at(mv.to()).is_empty();
                if quiet {
                    records.push((pos.fen(), cp * red));
                }
                let sign = (cp * red).signum();
                if cp.abs() >= 600 && sign == last_sign {
                    decisive_streak += 1;
                } else {
                    decisive_streak = 0;
                }
                last_sign = if cp.abs() >= 600 { sign } else { 0 };
                if decisive_streak >= 8 {
                    return (records, if sign > 0 { 1.0 } else { 0.0 });
                }
            }
            Score::MatePlies(n) => {
                let red_wins = (n > 0) == (red > 0);
                return (records, if red_wins { 1.0 } else { 0.0 });
            }
        }
        if game.play(mv).is_err() {
            break;
        }
    }
    (records, 0.5)
}

fn main() {
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("datagen: {e}");
            std::process::exit(2);
        }
    };
    let book: Vec<Position> = BOOK
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| Position::from_fen(l.trim()).ok())
        .collect();
    let file = match std::fs::File::create(&cfg.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("datagen: {}: {e}", cfg.out);
            std::process::exit(2);
        }
    };
    let out = Mutex::new(std::io::BufWriter::new(file));
    let next = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads {
            scope.spawn(|| {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= cfg.games {
                        break;
                    }
                    let (records, result) = play_game(&book, &cfg, n);
                    let mut text = String::new();
                    for (fen, score) in &records {
                        text.push_str(&format!("{fen};{result};{score}\n"));
                    }
                    let total = positions.fetch_add(records.len() as u64, Ordering::Relaxed)
                        + records.len() as u64;
                    if let Ok(mut w) = out.lock() {
                        let _ = w.write_all(text.as_bytes());
                    }
                    if (n + 1).is_multiple_of(100) {
                        eprintln!(
                            "{} games, {} positions, {:.0} s",
                            n + 1,
                            total,
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    if let Ok(mut w) = out.lock() {
        let _ = w.flush();
    }
}
