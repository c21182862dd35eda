//! Tunes the evaluation weights on positions labelled with game results (texel's method): the
//! evaluation is linear in its weights, so each position is reduced once to its term counts
//! (`eval::trace`) and the weights are fitted by gradient descent (Adam) on the mean squared
//! error between the label and a logistic function of the evaluation.
//!
//! usage: cargo run --release --example tune -- --data FILE [--data FILE ...] [--epochs N]
//!        [--lambda L] [--rate R] [--limit N] [--threads N] [--out FILE]
//!
//! Data lines are `FEN;result;score` as written by the datagen example (result from red's
//! point of view, score in centipawns from red's point of view). The label is
//! `lambda * result + (1 - lambda) * logistic(score)`. The fitted weights are written in the
//! format of `src/xiangqi/search/weights.rs` to `--out` (default: stdout).

use std::io::{BufRead, Write};

use qilin::xiangqi::Position;
use qilin::xiangqi::search::eval::{
    FULL_SCALE, HALF, MATERIAL_BASE, MAX_PHASE, NUM_WEIGHTS, PST_BASE, SCALAR_BASE, SCALAR_NAMES,
    SCALARS, WEIGHTS, trace,
};

struct Config {
    data: Vec<String>,
    epochs: usize,
    lambda: f64,
    rate: f64,
    limit: usize,
    threads: usize,
    out: Option<String>,
}

fn parse_args() -> Result<Config, String> {
    let mut cfg = Config {
        data: Vec::new(),
        epochs: 400,
        lambda: 0.7,
        rate: 1.0,
        limit: usize::MAX,
        threads: 2,
        out: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))?
            .clone();
        let float = || {
            value
                .parse::<f64>()
                .map_err(|e| format!("{}: {e}", args[i]))
        };
        match args[i].as_str() {
            "--data" => cfg.data.push(value.clone()),
            "--epochs" => cfg.epochs = float()? as usize,
            "--lambda" => cfg.lambda = float()?,
            "--rate" => cfg.rate = float()?,
            "--limit" => cfg.limit = float()? as usize,
            "--threads" => cfg.threads = (float()? as usize).max(1),
            "--out" => cfg.out = Some(value.clone()),
            other => return Err(format!("unknown argument {other}")),
        }
        i += 2;
    }
    if cfg.data.is_empty() {
        return Err("no --data file".to_string());
    }
    Ok(cfg)
}

/// One training position, reduced to its term counts.
struct Sample {
    /// Range of this sample's entries in `Data::counts`.
    start: u32,
    end: u32,
    /// Middle-game share of the taper, phase / MAX_PHASE.
    mg: f32,
    /// The win scale of red, black as the leading side, as a fraction.
    scale: [f32; 2],
    result: f32,
    score: f32,
}

struct Data {
    counts: Vec<(u16, i16)>,
    samples: Vec<Sample>,
}

fn load(cfg: &Config) -> Result<Data, String> {
    let mut data = Data {
        counts: Vec::new(),
        samples: Vec::new(),
    };
    for path in &cfg.data {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for line in std::io::BufReader::new(file).lines() {
            if data.samples.len() >= cfg.limit {
                break;
            }
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            let mut fields = line.split(';');
            let (Some(fen), Some(result), Some(score)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let (Ok(pos), Ok(result), Ok(score)) = (
                Position::from_fen(fen),
                result.parse::<f32>(),
                score.parse::<f32>(),
            ) else {
                continue;
            };
            let t = trace(&pos);
            let start = data.counts.len() as u32;
            data.counts.extend_from_slice(&t.counts);
            data.samples.push(Sample {
                start,
                end: data.counts.len() as u32,
                mg: t.phase as f32 / MAX_PHASE as f32,
                scale: t.scale.map(|x| x as f32 / FULL_SCALE as f32),
                result,
                score,
            });
        }
    }
    Ok(data)
}

/// Logistic win expectation of an evaluation in internal units.
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0).exp())
}

/// Weights as `[mg, eg]` pairs in f64.
type Weights = Vec<[f64; 2]>;

/// Evaluation of a sample from red's point of view and the scale applied to it.
fn evaluate(data: &Data, s: &Sample, w: &Weights) -> (f64, f64) {
    let mut mg = 0.0;
    let mut eg = 0.0;
    for &(i, c) in &data.counts[s.start as usize..s.end as usize] {
        let c = c as f64;
        mg += c * w[i as usize][0];
        eg += c * w[i as usize][1];
    }
    let phase = s.mg as f64;
    let e = mg * phase + eg * (1.0 - phase);
    let strong = if e > 0.0 { 0 } else { 1 };
    let scale = if e != 0.0 {
        s.scale[strong] as f64
    } else {
        1.0
    };
    (e * scale, scale)
}

fn label(s: &Sample, k: f64, lambda: f64) -> f64 {
    lambda * s.result as f64 + (1.0 - lambda) * sigmoid(k, 4.0 * s.score as f64)
}

/// Mean squared error and (when `grad` is given) its gradient, over all samples.
fn loss(
    data: &Data,
    w: &Weights,
    k: f64,
    lambda: f64,
    threads: usize,
    grad: bool,
) -> (f64, Weights) {
    let chunk = data.samples.len().div_ceil(threads);
    let parts: Vec<(f64, Weights)> = std::thread::scope(|scope| {
        let handles: Vec<_> = data
            .samples
            .chunks(chunk.max(1))
            .map(|part| {
                scope.spawn(move || {
                    let mut total = 0.0;
                    let mut g = vec![[0.0; 2]; if grad { NUM_WEIGHTS } else { 0 }];
                    for s in part {
                        let (e, scale) = evaluate(data, s, w);
                        let p = sigmoid(k, e);
                        let err = p - label(s, k, lambda);
                        total += err * err;
                        if grad {
                            let d = 2.0 * err * p * (1.0 - p) * k / 400.0 * scale;
                            let phase = s.mg as f64;
                            for &(i, c) in &data.counts[s.start as usize..s.end as usize] {
                                let c = c as f64 * d;
                                g[i as usize][0] += c * phase;
                                g[i as usize][1] += c * (1.0 - phase);
                            }
                        }
                    }
                    (total, g)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or((0.0, Vec::new())))
            .collect()
    });
    let n = data.samples.len().max(1) as f64;
    let mut total = 0.0;
    let mut g = vec![[0.0; 2]; if grad { NUM_WEIGHTS } else { 0 }];
    for (t, part) in parts {
        total += t;
        for (acc, x) in g.iter_mut().zip(part) {
            acc[0] += x[0] / n;
            acc[1] += x[1] / n;
        }
    }
    (total / n, g)
}

/// The logistic scale that best fits the results with the current weights.
fn fit_k(data: &Data, w: &Weights, threads: usize) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        let la = loss(data, w, a, 1.0, threads, false).0;
        let lb = loss(data, w, b, 1.0, threads, false).0;
        if la < lb {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn render(w: &Weights) -> String {
    let r = |i: usize| (w[i][0].round() as i32, w[i][1].round() as i32);
    let kinds = [
        "king", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
    ];
    let mut o = String::new();
    o.push_str(
        "//! Evaluation weights (middle game, end game), written by `cargo run --release --example tune`.\n\
         //! Units: internal evaluation units (a horse is about 400). Piece-square rows run from the\n\
         //! enemy's back rank (row 0) to the own back rank (row 9); columns are files a..e from the\n\
         //! piece owner's left, files f..i mirror d..a.\n\n\
         use super::eval::Pair;\n\n\
         /// Material by `PieceKind::index()`.\n\
         pub const MATERIAL: [Pair; 7] = [\n",
    );
    for (k, name) in kinds.iter().enumerate() {
        let (a, b) = r(MATERIAL_BASE + k);
        o.push_str(&format!("    Pair({a}, {b}), // {name}\n"));
    }
    o.push_str(
        "];\n\n/// Piece-square bonuses by `PieceKind::index()`, half tables of 10 rows x 5 columns.\n\
         #[rustfmt::skip]\npub const PST: [[Pair; 50]; 7] = [\n",
    );
    for (k, name) in kinds.iter().enumerate() {
        o.push_str(&format!("    // {name}\n    [\n"));
        for row in 0..10 {
            o.push_str("       ");
            for col in 0..5 {
                let (a, b) = r(PST_BASE + k * HALF + row * 5 + col);
                o.push_str(&format!(" Pair({a:4}, {b:4}),"));
            }
            o.push('\n');
        }
        o.push_str("    ],\n");
    }
    o.push_str(&format!(
        "];\n\n/// The other terms, in the order of `eval::SCALAR_NAMES`.\npub const SCALARS: [Pair; {SCALARS}] = [\n"
    ));
    for (i, name) in SCALAR_NAMES.iter().enumerate() {
        let (a, b) = r(SCALAR_BASE + i);
        o.push_str(&format!("    Pair({a}, {b}), // {name}\n"));
    }
    o.push_str("];\n");
    o
}

fn main() {
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tune: {e}");
            std::process::exit(2);
        }
    };
    let started = std::time::Instant::now();
    let data = match load(&cfg) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("tune: {e}");
            std::process::exit(2);
        }
    };
    eprintln!(
        "{} positions, {} counts, loaded in {:.1} s",
        data.samples.len(),
        data.counts.len(),
        started.elapsed().as_secs_f64()
    );
    let mut w: Weights = WEIGHTS.iter().map(|p| [p.0 as f64, p.1 as f64]).collect();
    let k = fit_k(&data, &w, cfg.threads);
    let (initial, _) = loss(&data, &w, k, cfg.lambda, cfg.threads, false);
    eprintln!("K = {k:.4}, initial loss {initial:.6}");

    // Adam.
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0f64; 2]; NUM_WEIGHTS];
    let mut v = vec![[0.0f64; 2]; NUM_WEIGHTS];
    for epoch in 1..=cfg.epochs {
        let (l, g) = loss(&data, &w, k, cfg.lambda, cfg.threads, true);
        for i in 0..NUM_WEIGHTS {
            for p in 0..2 {
                m[i][p] = beta1 * m[i][p] + (1.0 - beta1) * g[i][p];
                v[i][p] = beta2 * v[i][p] + (1.0 - beta2) * g[i][p] * g[i][p];
                let mh = m[i][p] / (1.0 - beta1.powi(epoch as i32));
                let vh = v[i][p] / (1.0 - beta2.powi(epoch as i32));
                w[i][p] -= cfg.rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch.is_multiple_of(50) || epoch == cfg.epochs {
            eprintln!(
                "epoch {epoch}: loss {l:.6} ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
    }
    let (last, _) = loss(&data, &w, k, cfg.lambda, cfg.threads, false);
    eprintln!("final loss {last:.6} (initial {initial:.6})");
    // Keep the units: the search's margins assume a horse of about 400. Scale every weight so
    // that horse, chariot and cannon weigh together what they did before.
    let majors = [3, 4, 5].map(|kind| MATERIAL_BASE + kind);
    let before: f64 = majors.iter().map(|&i| WEIGHTS[i].0 as f64).sum();
    let after: f64 = majors.iter().map(|&i| w[i][0]).sum();
    if after > 0.0 {
        let factor = before / after;
        for x in &mut w {
            x[0] *= factor;
            x[1] *= factor;
        }
        eprintln!("weights scaled by {factor:.3} to keep the units");
    }
    let text = render(&w);
    match &cfg.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("tune: {path}: {e}");
                std::process::exit(2);
            }
        }
        None => {
            let _ = std::io::stdout().write_all(text.as_bytes());
        }
    }
}
