//! Tunes the Gomoku evaluation weights on positions labelled with game results (texel's
//! method, as `examples/tune.rs` does for Xiangqi): the evaluation is linear in its weights,
//! so each position is reduced once to its feature counts (`search::trace::trace`) and the
//! weights are fitted by gradient descent (Adam) on the mean squared error between the label
//! and a logistic function of the evaluation.
//!
//! usage: cargo run --release --example gomoku_tune -- --data FILE [--data FILE ...]
//!        [--epochs N] [--lambda L] [--rate R] [--out FILE]
//!
//! Data lines are `size;rule;moves;result;score` as written by `gomoku_datagen` (result and
//! score from black's point of view). The label is `lambda * result + (1 - lambda) *
//! logistic(score)`. Forbidden-class and dead-pattern weights stay at zero; the weights are
//! rescaled so the open-three class (`THREAT_TEMPO[Flex3]` plus `THREAT[Flex3]`) keeps its
//! value, which the search's margins assume. The result is printed as the four evaluation
//! tables of `src/gomoku/search/weights.rs` (to `--out`, default stdout).

use std::io::{BufRead, Write};

use qilin::gomoku::search::pos::Pos;
use qilin::gomoku::search::trace::{
    FEATURES, TEMPO_BASE, TEMPO_INDEX, THREAT_BASE, feature_name, trace, weight_vector,
};
use qilin::gomoku::{Board, Cell, Color, Rule, Threat};

struct Config {
    data: Vec<String>,
    epochs: usize,
    lambda: f64,
    rate: f64,
    out: Option<String>,
}

fn parse_args() -> Result<Config, String> {
    let mut cfg = Config {
        data: Vec::new(),
        epochs: 600,
        lambda: 0.7,
        rate: 0.5,
        out: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))?;
        let float = || {
            value
                .parse::<f64>()
                .map_err(|e| format!("{}: {e}", args[i]))
        };
        match args[i].as_str() {
            "--data" => cfg.data.push(value.clone()),
            "--epochs" => cfg.epochs = float()? as usize,
            "--lambda" => cfg.lambda = float()?.clamp(0.0, 1.0),
            "--rate" => cfg.rate = float()?,
            "--out" => cfg.out = Some(value.clone()),
            other => return Err(format!("unknown argument {other}")),
        }
        i += 2;
    }
    if cfg.data.is_empty() {
        return Err("give at least one --data FILE".to_string());
    }
    Ok(cfg)
}

/// One position: feature counts from the side to move's view, and the label for that side.
struct Sample {
    counts: [i32; FEATURES],
    result: f64,
    score: f64,
}

fn parse_line(line: &str) -> Option<Sample> {
    let fields: Vec<&str> = line.trim().split(';').collect();
    let [size, rule, moves, result, score] = fields[..] else {
        return None;
    };
    let size: usize = size.parse().ok()?;
    let rule = Rule::from_number(rule.parse().ok()?)?;
    let mut board = Board::new(size, size, rule).ok()?;
    for text in moves.split_whitespace() {
        let cell = Cell::parse(text)?;
        if !board.contains(cell) || !board.is_empty(cell) {
            return None;
        }
        board.play(cell);
    }
    let black_result: f64 = result.parse().ok()?;
    let black_score: f64 = score.parse().ok()?;
    let black_to_move = board.side_to_move() == Color::Black;
    let pos = Pos::new(&board);
    Some(Sample {
        counts: trace(&pos),
        result: if black_to_move {
            black_result
        } else {
            1.0 - black_result
        },
        score: if black_to_move {
            black_score
        } else {
            -black_score
        },
    })
}

fn sigmoid(x: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-x / k).exp())
}

fn evaluate(sample: &Sample, w: &[f64; FEATURES]) -> f64 {
    sample
        .counts
        .iter()
        .zip(w)
        .map(|(&c, &w)| c as f64 * w)
        .sum()
}

/// Mean squared error against the labels, and its gradient.
fn loss(data: &[Sample], w: &[f64; FEATURES], k: f64, lambda: f64) -> (f64, [f64; FEATURES]) {
    let mut total = 0.0;
    let mut grad = [0.0; FEATURES];
    for s in data {
        let label = lambda * s.result + (1.0 - lambda) * sigmoid(s.score, k);
        let p = sigmoid(evaluate(s, w), k);
        let e = p - label;
        total += e * e;
        let d = 2.0 * e * p * (1.0 - p) / k;
        for (g, &c) in grad.iter_mut().zip(&s.counts) {
            if c != 0 {
                *g += d * c as f64;
            }
        }
    }
    let n = data.len().max(1) as f64;
    grad.iter_mut().for_each(|g| *g /= n);
    (total / n, grad)
}

/// The logistic scale that best fits the results with the current weights.
fn fit_k(data: &[Sample], w: &[f64; FEATURES]) -> f64 {
    let mut best = (f64::MAX, 100.0);
    let mut k = 20.0;
    while k <= 2000.0 {
        let (l, _) = loss(data, w, k, 1.0);
        if l < best.0 {
            best = (l, k);
        }
        k *= 1.1;
    }
    best.1
}

/// Features the tuner leaves alone: forbidden classes and dead or overline patterns.
fn frozen(i: usize) -> bool {
    let forbidden = Threat::Forbidden as usize;
    i <= 1 || i == THREAT_BASE + forbidden || i == TEMPO_BASE + forbidden
}

fn render(w: &[i32; FEATURES]) -> String {
    let list = |range: std::ops::Range<usize>| {
        w[range]
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "pub const PATTERN: [i32; 15] = [{}];\npub const THREAT: [i32; 14] = [{}];\n\
         pub const THREAT_TEMPO: [i32; 14] = [{}];\npub const TEMPO: i32 = {};\n",
        list(0..THREAT_BASE),
        list(THREAT_BASE..TEMPO_BASE),
        list(TEMPO_BASE..TEMPO_INDEX),
        w[TEMPO_INDEX]
    )
}

fn main() {
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gomoku_tune: {e}");
            std::process::exit(2);
        }
    };
    let mut data = Vec::new();
    for path in &cfg.data {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("gomoku_tune: {path}: {e}");
                std::process::exit(2);
            }
        };
        for line in std::io::BufReader::new(file).lines().map_while(Result::ok) {
            if let Some(sample) = parse_line(&line) {
                data.push(sample);
            }
        }
    }
    eprintln!("{} positions", data.len());
    let start = weight_vector();
    let mut w: [f64; FEATURES] = start.map(f64::from);
    let k = fit_k(&data, &w);
    let (initial, _) = loss(&data, &w, k, cfg.lambda);
    eprintln!("K = {k:.1}, initial loss {initial:.6}");
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = [0.0; FEATURES];
    let mut v = [0.0; FEATURES];
    for epoch in 1..=cfg.epochs {
        let (l, g) = loss(&data, &w, k, cfg.lambda);
        for i in (0..FEATURES).filter(|&i| !frozen(i)) {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let mh = m[i] / (1.0 - beta1.powi(epoch as i32));
            let vh = v[i] / (1.0 - beta2.powi(epoch as i32));
            w[i] -= cfg.rate * mh / (vh.sqrt() + eps);
        }
        if epoch.is_multiple_of(100) || epoch == cfg.epochs {
            eprintln!("epoch {epoch}: loss {l:.6}");
        }
    }
    let (last, _) = loss(&data, &w, k, cfg.lambda);
    eprintln!("final loss {last:.6} (initial {initial:.6})");
    let flex3 = Threat::Flex3 as usize;
    let anchor = |w: &[f64; FEATURES]| w[THREAT_BASE + flex3] + w[TEMPO_BASE + flex3];
    let before = anchor(&start.map(f64::from));
    let after = anchor(&w);
    if after > 0.0 && before > 0.0 {
        let factor = before / after;
        w.iter_mut().for_each(|x| *x *= factor);
        eprintln!("weights scaled by {factor:.3} to keep the units");
    }
    let rounded: [i32; FEATURES] = w.map(|x| x.round() as i32);
    for i in 0..FEATURES {
        if rounded[i] != start[i] {
            eprintln!(
                "{:<28} {:>6} -> {:>6}",
                feature_name(i),
                start[i],
                rounded[i]
            );
        }
    }
    let text = render(&rounded);
    match &cfg.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("gomoku_tune: {path}: {e}");
                std::process::exit(2);
            }
        }
        None => {
            let _ = std::io::stdout().write_all(text.as_bytes());
        }
    }
}
