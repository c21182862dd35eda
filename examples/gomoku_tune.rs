//! Tunes the Gomoku evaluation weights on positions labelled with game results (texel's
//! method, as `examples/tune.rs` does for Xiangqi): the evaluation is linear in its weights,
//! so each position is reduced once to its feature counts (`search::trace::trace`) and the
//! weights are fitted by gradient descent (Adam) on the mean squared error between the label
//! and a logistic function of the evaluation.
//!
//! usage: cargo run --release --example gomoku_tune -- --data FILE [--data FILE ...]
//!        [--valid FILE ...] [--epochs N] [--lambda L] [--rate R] [--l2 X] [--out FILE]
//!
//! `--valid` files are held out: their loss is reported before and after the fit.
//! Data lines are `size;rule;moves;result;score` as written by `gomoku_datagen` (result and
//! score from black's point of view). The label is `lambda * result + (1 - lambda) *
//! logistic(score)`. `--l2 X` adds `X * sum(((w - w0) / 100)^2)` to the loss, pulling weights
//! that few positions inform (rare class pairs) towards their starting values. The logistic scale is fitted once to the starting
//! weights and then held, so the fitted weights keep its units (which the search's margins
//! assume). The result is printed as the evaluation tables of
//! `src/gomoku/search/weights.rs` (to `--out`, default stdout).

use std::io::{BufRead, Write};

use qilin::gomoku::search::pos::Pos;
use qilin::gomoku::search::trace::{
    CELL_BASE, CLASSES, COUNT_BASE, FEATURES, LINE_BASE, LINE_CODES, TEMPO_INDEX, feature_name,
    trace, weight_vector,
};
use qilin::gomoku::{Board, Cell, Color, Rule};

struct Config {
    data: Vec<String>,
    valid: Vec<String>,
    epochs: usize,
    lambda: f64,
    rate: f64,
    l2: f64,
    out: Option<String>,
}

fn parse_args() -> Result<Config, String> {
    let mut cfg = Config {
        data: Vec::new(),
        valid: Vec::new(),
        epochs: 600,
        lambda: 0.7,
        rate: 0.5,
        l2: 0.0,
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
            "--valid" => cfg.valid.push(value.clone()),
            "--epochs" => cfg.epochs = float()? as usize,
            "--lambda" => cfg.lambda = float()?.clamp(0.0, 1.0),
            "--rate" => cfg.rate = float()?,
            "--l2" => cfg.l2 = float()?.max(0.0),
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

/// One position: its non-zero feature counts (index, count) from the side to move's view,
/// and the label for that side.
struct Sample {
    counts: Vec<(u16, f64)>,
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
        counts: trace(&pos)
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0)
            .map(|(i, &c)| (i as u16, f64::from(c)))
            .collect(),
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
    sample.counts.iter().map(|&(i, c)| c * w[i as usize]).sum()
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
        for &(i, c) in &s.counts {
            grad[i as usize] += d * c;
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

/// Features the tuner leaves alone: the line pair with no pattern for either side.
fn frozen(i: usize) -> bool {
    i == LINE_BASE + LINE_CODES * LINE_CODES - 1
}

/// Adds the pull towards the starting weights to a loss and its gradient.
fn regularise(
    l2: f64,
    w: &[f64; FEATURES],
    start: &[f64; FEATURES],
    loss: &mut f64,
    grad: &mut [f64; FEATURES],
) {
    for i in 0..FEATURES {
        let d = (w[i] - start[i]) / 100.0;
        *loss += l2 * d * d;
        grad[i] += 2.0 * l2 * d / 100.0;
    }
}

fn render(w: &[i32; FEATURES]) -> String {
    let row = |start: usize, len: usize, width: usize| {
        let items: Vec<String> = w[start..start + len]
            .iter()
            .map(|v| format!("{v:>width$}"))
            .collect();
        format!("    [{}],\n", items.join(", "))
    };
    let mut text = String::from("#[rustfmt::skip]\npub const CELL: [[i32; 14]; 14] = [\n");
    for ours in 0..CLASSES {
        text += &row(CELL_BASE + ours * CLASSES, CLASSES, 4);
    }
    text += "];\n\n#[rustfmt::skip]\npub const LINE: [[i32; 16]; 16] = [\n";
    for ours in 0..LINE_CODES {
        text += &row(LINE_BASE + ours * LINE_CODES, LINE_CODES, 4);
    }
    text += "];\n\n#[rustfmt::skip]\npub const COUNTS: [[i32; 6]; 4] = [\n";
    for kind in 0..4 {
        text += &row(COUNT_BASE + kind * 6, 6, 0);
    }
    text += &format!("];\n\npub const TEMPO: i32 = {};\n", w[TEMPO_INDEX]);
    text
}

/// The positions of every file in `paths`.
fn load(paths: &[String]) -> Result<Vec<Sample>, String> {
    let mut data = Vec::new();
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for line in std::io::BufReader::new(file).lines().map_while(Result::ok) {
            if let Some(sample) = parse_line(&line) {
                data.push(sample);
            }
        }
    }
    Ok(data)
}

fn main() {
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gomoku_tune: {e}");
            std::process::exit(2);
        }
    };
    let data = match load(&cfg.data) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("gomoku_tune: {e}");
            std::process::exit(2);
        }
    };
    let valid = match load(&cfg.valid) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("gomoku_tune: {e}");
            std::process::exit(2);
        }
    };
    eprintln!("{} positions", data.len());
    let start = weight_vector();
    let start_f = start.map(f64::from);
    let mut w: [f64; FEATURES] = start_f;
    let k = fit_k(&data, &w);
    let (initial, _) = loss(&data, &w, k, cfg.lambda);
    eprintln!("K = {k:.1}, initial loss {initial:.6}");
    let report_valid = |w: &[f64; FEATURES], when: &str| {
        if !valid.is_empty() {
            let (l, _) = loss(&valid, w, k, cfg.lambda);
            eprintln!("validation loss {when}: {l:.6} ({} positions)", valid.len());
        }
    };
    report_valid(&w, "before");
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = [0.0; FEATURES];
    let mut v = [0.0; FEATURES];
    for epoch in 1..=cfg.epochs {
        let (mut l, mut g) = loss(&data, &w, k, cfg.lambda);
        regularise(cfg.l2, &w, &start_f, &mut l, &mut g);
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
    report_valid(&w, "after");
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
