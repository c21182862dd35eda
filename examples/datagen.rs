//! Self-play data for tuning the evaluation and training the network: plays fast fixed-node
//! games of Qilin against itself from book openings plus a few random plies and writes the
//! quiet positions with the game's result.
//!
//! usage: cargo run --release --example datagen -- [--games N] [--nodes N] [--threads N]
//!        [--seed N] [--random-plies N] [--eval tuned|net|FILE] [--format text|bin] [--out FILE]
//!        cargo run --release --example datagen -- --convert TEXT_FILE --out FILE
//!
//! `--format text` (the default, for `examples/tune.rs`) writes one position per line,
//! `FEN;result;score`, where result is 1, 0.5 or 0 from red's point of view and score is the
//! search's score in centipawns, also from red's side; the file is started afresh.
//!
//! `--format bin` writes the packed records of `qilin::xiangqi::nnue::data` (40 bytes a
//! position, score and result from the side to move's point of view, plies and game number)
//! in game order, and keeps the header's game count up to date. It resumes: when the file
//! exists with the same seed, nodes and random plies, the games already recorded are kept
//! and generation goes on from the next game number (a game depends only on the seed and
//! its number, so the result is the same as an uninterrupted run). `--games` is the total.
//!
//! `--eval` chooses the evaluation the games are searched with: `tuned` (the default, the
//! hand-tuned evaluation), `net` (the network embedded in the binary) or a network file. The
//! binary header records it (the low 32 bits of the network's id, 0 for the tuned one) and a
//! resume must use the same.
//!
//! `--convert` turns a text file into the binary format (games are told apart where the
//! result changes or the move counter does not advance).
//!
//! Positions are kept only when the side to move is not in check, the chosen move is not a
//! capture and the score is not a mate. `--threads` defaults to every core; a progress line
//! goes to stderr every 100 games.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use qilin::engine::{Limits, Score, SearchControl};
use qilin::xiangqi::nnue::Network;
use qilin::xiangqi::nnue::data::{
    self, DataHeader, HEADER_BYTES, Outcome, PackedPosition, RECORD_BYTES,
};
use qilin::xiangqi::search::{SearchParams, Searcher};
use qilin::xiangqi::{Color, Game, Position, Verdict};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

const BOOK: &str = include_str!("../tests/data/xiangqi/openings-book-sample.epd");

#[derive(PartialEq)]
enum Format {
    Text,
    Binary,
}

struct Config {
    games: u64,
    nodes: u64,
    threads: usize,
    seed: u64,
    random_plies: u32,
    /// The network the games are searched with, `None` for the tuned evaluation.
    network: Option<Arc<Network>>,
    format: Format,
    convert: Option<String>,
    out: String,
}

impl Config {
    /// The header's record of the evaluation: 0 for the tuned one, else the network id's
    /// low 32 bits.
    fn eval_id(&self) -> u32 {
        self.network.as_ref().map_or(0, |n| n.id() as u32)
    }
}

fn parse_args() -> Result<Config, String> {
    let mut cfg = Config {
        games: 1000,
        nodes: 6000,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: 1,
        random_plies: 4,
        network: None,
        format: Format::Text,
        convert: None,
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
            "--eval" => {
                cfg.network = match value.as_str() {
                    "tuned" => None,
                    "net" => Some(Arc::new(Network::embedded())),
                    path => Some(Arc::new(
                        Network::load(path).map_err(|e| format!("--eval {path}: {e}"))?,
                    )),
                }
            }
            "--format" => {
                cfg.format = match value.as_str() {
                    "text" => Format::Text,
                    "bin" => Format::Binary,
                    other => return Err(format!("--format: text or bin, not {other}")),
                }
            }
            "--convert" => cfg.convert = Some(value.clone()),
            "--out" => cfg.out = value.clone(),
            other => return Err(format!("unknown argument {other}")),
        }
        i += 2;
    }
    Ok(cfg)
}

/// A recorded position: the position, the search score for the side to move.
struct Sample {
    pos: Position,
    score: i32,
}

/// One finished game: the recorded positions and red's result.
fn play_game(book: &[Position], cfg: &Config, game_no: u64) -> (Vec<Sample>, f32) {
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
    searcher.set_network(cfg.network.clone());
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
                    let mut kept = pos.clone();
                    kept.clear_history();
                    records.push(Sample {
                        pos: kept,
                        score: cp,
                    });
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

/// The packed record of a sample.
fn pack(pos: &Position, score: i32, red_result: f32, game_no: u64) -> Option<PackedPosition> {
    let outcome = Outcome::from_red(red_result, pos.side_to_move());
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    PackedPosition::new(pos, score, outcome, data::ply_of(pos), game_no as u32)
}

/// Where finished games go: text lines as they come, or binary records in game order.
enum Sink {
    Text(BufWriter<File>),
    Binary {
        file: File,
        header: DataHeader,
        /// Games finished out of order, waiting for the games before them.
        pending: BTreeMap<u64, Vec<PackedPosition>>,
    },
}

impl Sink {
    fn add(&mut self, game_no: u64, samples: &[Sample], red_result: f32) -> std::io::Result<()> {
        match self {
            Sink::Text(w) => {
                let mut text = String::new();
                for s in samples {
                    let red = if s.pos.side_to_move() == Color::Red {
                        1
                    } else {
                        -1
                    };
                    text.push_str(&format!("{};{red_result};{}\n", s.pos.fen(), s.score * red));
                }
                w.write_all(text.as_bytes())
            }
            Sink::Binary {
                file,
                header,
                pending,
            } => {
                let recs = samples
                    .iter()
                    .filter_map(|s| pack(&s.pos, s.score, red_result, game_no))
                    .collect();
                pending.insert(game_no, recs);
                let mut bytes = Vec::new();
                while let Some(recs) = pending.remove(&header.games) {
                    for r in &recs {
                        bytes.extend_from_slice(r.as_bytes());
                    }
                    header.games += 1;
                    header.positions += recs.len() as u64;
                }
                if bytes.is_empty() {
                    return Ok(());
                }
                file.seek(SeekFrom::End(0))?;
                file.write_all(&bytes)?;
                file.flush()?;
                // The records are written before the header counts them, so an interrupted
                // run leaves at worst records that the next run cuts off.
                file.seek(SeekFrom::Start(0))?;
                file.write_all(&header.to_bytes())
            }
        }
    }

    fn finish(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Text(w) => w.flush(),
            Sink::Binary { file, .. } => file.sync_all(),
        }
    }
}

/// Opens the binary output, resuming a run with the same settings. Returns the sink and
/// the first game number to play.
fn open_binary(cfg: &Config) -> Result<(Sink, u64), String> {
    let wanted = DataHeader {
        seed: cfg.seed,
        nodes: cfg.nodes,
        random_plies: cfg.random_plies,
        eval_id: cfg.eval_id(),
        games: 0,
        positions: 0,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&cfg.out)
        .map_err(|e| format!("{}: {e}", cfg.out))?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    let header = if len == 0 {
        file.write_all(&wanted.to_bytes())
            .map_err(|e| e.to_string())?;
        wanted
    } else {
        let mut b = [0u8; HEADER_BYTES];
        file.read_exact(&mut b)
            .map_err(|e| format!("{}: {e}", cfg.out))?;
        let h = DataHeader::from_bytes(&b).map_err(|e| format!("{}: {e}", cfg.out))?;
        // The same settings: the header less its progress counts.
        if (DataHeader {
            games: 0,
            positions: 0,
            ..h
        }) != wanted
        {
            let eval = match h.eval_id {
                0 => "the tuned evaluation".to_string(),
                id => format!("the network whose id ends in {id:08x}"),
            };
            return Err(format!(
                "{} was made with seed {}, {} nodes, {} random plies and {eval}: resume with those",
                cfg.out, h.seed, h.nodes, h.random_plies
            ));
        }
        let keep = HEADER_BYTES as u64 + h.positions * RECORD_BYTES as u64;
        if len < keep {
            return Err(format!("{}: shorter than its header says", cfg.out));
        }
        file.set_len(keep).map_err(|e| e.to_string())?;
        eprintln!(
            "resuming {} at game {} ({} positions)",
            cfg.out, h.games, h.positions
        );
        h
    };
    let first = header.games;
    Ok((
        Sink::Binary {
            file,
            header,
            pending: BTreeMap::new(),
        },
        first,
    ))
}

/// Converts a text file to the binary format.
fn convert(input: &str, out: &str) -> Result<DataHeader, String> {
    let reader = std::io::BufReader::new(File::open(input).map_err(|e| format!("{input}: {e}"))?);
    let mut w = BufWriter::new(File::create(out).map_err(|e| format!("{out}: {e}"))?);
    let mut header = DataHeader::default();
    w.write_all(&header.to_bytes()).map_err(|e| e.to_string())?;
    let mut last: Option<(f32, u16)> = None;
    let mut game = 0u64;
    let mut skipped = 0u64;
    for line in reader.lines().map_while(Result::ok) {
        let Some((pos, result, red_score)) = data::parse_text_line(&line) else {
            skipped += 1;
            continue;
        };
        let ply = data::ply_of(&pos);
        if let Some((r, p)) = last
            && (r != result || ply <= p)
        {
            game += 1;
        }
        last = Some((result, ply));
        let red = if pos.side_to_move() == Color::Red {
            1
        } else {
            -1
        };
        match pack(&pos, red_score * red, result, game) {
            Some(rec) => {
                w.write_all(rec.as_bytes()).map_err(|e| e.to_string())?;
                header.positions += 1;
            }
            None => skipped += 1,
        }
    }
    header.games = if last.is_some() { game + 1 } else { 0 };
    w.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    w.write_all(&header.to_bytes()).map_err(|e| e.to_string())?;
    w.flush().map_err(|e| e.to_string())?;
    if skipped > 0 {
        eprintln!("{skipped} unreadable lines skipped");
    }
    Ok(header)
}

fn run(cfg: &Config) -> Result<(), String> {
    if let Some(input) = &cfg.convert {
        let h = convert(input, &cfg.out)?;
        eprintln!(
            "{}: {} positions from {} games",
            cfg.out, h.positions, h.games
        );
        return Ok(());
    }
    let book: Vec<Position> = BOOK
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| Position::from_fen(l.trim()).ok())
        .collect();
    let (sink, first) = match cfg.format {
        Format::Text => {
            let file = File::create(&cfg.out).map_err(|e| format!("{}: {e}", cfg.out))?;
            (Sink::Text(BufWriter::new(file)), 0)
        }
        Format::Binary => open_binary(cfg)?,
    };
    let out = Mutex::new(sink);
    let next = AtomicU64::new(first);
    let positions = AtomicU64::new(0);
    let failed = Mutex::new(None);
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads {
            scope.spawn(|| {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= cfg.games {
                        break;
                    }
                    let (samples, result) = play_game(&book, cfg, n);
                    let total = positions.fetch_add(samples.len() as u64, Ordering::Relaxed)
                        + samples.len() as u64;
                    if let Ok(mut w) = out.lock()
                        && let Err(e) = w.add(n, &samples, result)
                    {
                        if let Ok(mut f) = failed.lock() {
                            *f = Some(e.to_string());
                        }
                        next.store(cfg.games, Ordering::Relaxed);
                    }
                    if (n + 1).is_multiple_of(100) {
                        let secs = started.elapsed().as_secs_f64();
                        eprintln!(
                            "game {}/{}, {} positions this run, {:.0} positions/s, {:.0} s",
                            n + 1,
                            cfg.games,
                            total,
                            total as f64 / secs.max(1e-9),
                            secs
                        );
                    }
                }
            });
        }
    });
    if let Ok(Some(e)) = failed.lock().map(|f| f.clone()) {
        return Err(format!("{}: {e}", cfg.out));
    }
    out.lock()
        .map_err(|_| "a writer thread panicked".to_string())?
        .finish()
        .map_err(|e| e.to_string())
}

fn main() {
    let result = parse_args().and_then(|cfg| run(&cfg));
    if let Err(e) = result {
        eprintln!("datagen: {e}");
        std::process::exit(2);
    }
}
