//! Tunes the Gomoku evaluation weights on positions labelled with game results (texel's
//! method, as `examples/tune.rs` does for Xiangqi): the evaluation is linear in its weights,
//! so each position is reduced once to its feature counts (`search::trace::trace`) and the
//! weights are fitted by gradient descent (Adam) on the mean squared error between the label
//! and a logistic function of the evaluation.
//!
//! usage: cargo run --release --example gomoku_tune -- --data FILE [--data FILE ...]
//!        [--valid FILE ...] [--epochs N] [--lambda L] [--rate R] [--l2 X] [--score-k K|fit]
//!        [--pcode fit|keep] [--hold-mean H] [--out FILE]
//!
//! `--valid` files are held out: their loss is reported before and after the fit.
//! Data lines are `size;rule;moves;result;score` as written by `gomoku_datagen` (result and
//! score from black's point of view). The label is `lambda * result + (1 - lambda) *
//! logistic(score)`. `--l2 X` adds `X * sum(((w - w0) / 100)^2)` to the loss, pulling weights
//! that few positions inform (rare class pairs) towards their starting values. Scores in
//! another engine's units (a judge's, from `scripts/gomoku-label.py`) need their own logistic
//! scale: `--score-k K` reads the score column as `logistic(score / K)`, and `--score-k fit`
//! fits K to the results (the scale at which the scores best predict them). The logistic
//! scale is fitted once to the starting weights and then held, so the fitted weights keep its
//! units (which the search's margins assume). `--pcode keep` leaves the pattern-combination
//! weights (`PCODE`) as they are and fits the other tables alone. `--hold-mean H` adds
//! `H * ((mean - start) / 100)^2` for each table set's mean evaluation over the data (side to
//! move's view), holding it near where it started (the fits of session 52 moved it down by
//! 100 to 140 and lost; held, they lost less in self-play: `docs/gomoku-experiments.md`).
//! The mean and spread of the evaluation are printed before and after the fit. The result is printed as the evaluation tables of
//! `src/gomoku/search/weights.rs` (to `--out`, default stdout).
//!
//! Each position is weighted with its table set (`TableSet`: renju with black to move, renju
//! with white to move, every other rule), and all sets are fitted together; only the sets the
//! data reaches are printed, the general one as the `CELL`, `LINE`, `PCODE`, `COUNTS` and
//! `TEMPO` constants and a renju one as an `EvalTables` constant of its name.

#[path = "common/tuning.rs"]
mod tuning;

use qilin::gomoku::search::pos::Pos;
use qilin::gomoku::search::trace::{
    CELL_BASE, CLASSES, COUNT_BASE, FEATURES, LINE_BASE, LINE_CODES, PCODE_BASE, PCODES,
    TABLE_SETS, TEMPO_INDEX, TableSet, feature_name, trace, weight_vector,
};

use qilin::gomoku::{Board, Cell, Color, Rule};

/// Weights of every table set, set after set (`set * FEATURES + feature`).
const ALL_WEIGHTS: usize = TABLE_SETS * FEATURES;
type Weights = Vec<f64>;

struct Config {
    data: Vec<String>,
    valid: Vec<String>,
    epochs: usize,
    lambda: f64,
    rate: f64,
    l2: f64,
    /// The score column's logistic scale: `None` for the evaluation's own, `Some(None)` to
    /// fit it to the results, `Some(Some(k))` as given.
    score_k: Option<Option<f64>>,
    /// Leave the `PCODE` weights as they are (fit the other tables alone).
    freeze_pcode: bool,
    /// Weight of the penalty `hold_mean * ((mean - start mean) / 100)^2` that holds each table
    /// set's mean evaluation (side to move's view) over the data near its starting value.
    hold_mean: f64,
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
        score_k: None,
        hold_mean: 0.0,
        freeze_pcode: false,
        out: None,
    };
    for (flag, value) in tuning::flag_pairs()? {
        let number = || tuning::number(&flag, &value);
        match flag.as_str() {
            "--data" => cfg.data.push(value.clone()),
            "--valid" => cfg.valid.push(value.clone()),
            "--epochs" => cfg.epochs = number()? as usize,
            "--lambda" => cfg.lambda = number()?.clamp(0.0, 1.0),
            "--rate" => cfg.rate = number()?,
            "--l2" => cfg.l2 = number()?.max(0.0),
            "--hold-mean" => cfg.hold_mean = number()?.max(0.0),
            "--score-k" if value == "fit" => cfg.score_k = Some(None),
            "--score-k" => {
                let k = number()?;
                if k.is_nan() || k <= 0.0 {
                    return Err(format!("--score-k must be positive, not {value}"));
                }
                cfg.score_k = Some(Some(k));
            }
            "--out" => cfg.out = Some(value.clone()),
            "--pcode" => match value.as_str() {
                "fit" => cfg.freeze_pcode = false,
                "keep" => cfg.freeze_pcode = true,
                _ => return Err(format!("--pcode takes fit or keep, not {value}")),
            },
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if cfg.data.is_empty() {
        return Err("give at least one --data FILE".to_string());
    }
    Ok(cfg)
}

/// One position: its non-zero feature counts (index into the flat vector of all sets' weights,
/// count) from the side to move's view, and the label for that side.
struct Sample {
    set: TableSet,
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
    let (set, counts) = trace(&pos);
    let base = set.index() * FEATURES;
    Some(Sample {
        set,
        counts: counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c != 0)
            .map(|(i, &c)| ((base + i) as u16, f64::from(c)))
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

fn evaluate(sample: &Sample, w: &[f64]) -> f64 {
    sample.counts.iter().map(|&(i, c)| c * w[i as usize]).sum()
}

/// The mean and the standard deviation of the evaluation (side to move's view) over `data`:
/// the balance and the scale that the search's margins were set for.
fn spread(data: &[Sample], w: &[f64]) -> (f64, f64) {
    let n = data.len().max(1) as f64;
    let mean = data.iter().map(|s| evaluate(s, w)).sum::<f64>() / n;
    let var = data
        .iter()
        .map(|s| (evaluate(s, w) - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, var.sqrt())
}

/// Each table set's mean evaluation (side to move's view) over its positions in `data`, and
/// how many positions it has there.
fn set_means(data: &[Sample], w: &[f64]) -> ([f64; TABLE_SETS], [usize; TABLE_SETS]) {
    let mut sums = [0.0; TABLE_SETS];
    let mut counts = [0usize; TABLE_SETS];
    for s in data {
        sums[s.set.index()] += evaluate(s, w);
        counts[s.set.index()] += 1;
    }
    (
        std::array::from_fn(|i| sums[i] / counts[i].max(1) as f64),
        counts,
    )
}

/// Adds `weight * ((mean - start) / 100)^2` for each table set's mean evaluation over its
/// positions in `data` to the loss, and its gradient (a weight's share of a set's mean is
/// its mean count there).
fn hold(
    weight: f64,
    data: &[Sample],
    w: &[f64],
    start: &[f64; TABLE_SETS],
    loss: &mut f64,
    grad: &mut [f64],
) {
    if weight == 0.0 {
        return;
    }
    let (now, per_set) = set_means(data, w);
    for (&m, &m0) in now.iter().zip(start) {
        *loss += weight * ((m - m0) / 100.0).powi(2);
    }
    for s in data {
        let i = s.set.index();
        let d = weight * 2.0 * (now[i] - start[i]) / 10_000.0 / per_set[i].max(1) as f64;
        for &(j, c) in &s.counts {
            grad[j as usize] += d * c;
        }
    }
}

/// Mean squared error against the labels, and its gradient.
fn loss(data: &[Sample], w: &[f64], k: f64, lambda: f64) -> (f64, Weights) {
    let mut total = 0.0;
    let mut grad = vec![0.0; ALL_WEIGHTS];
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
fn fit_k(data: &[Sample], w: &[f64]) -> f64 {
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

/// The logistic scale at which the score column best predicts the results.
fn fit_score_k(data: &[Sample]) -> f64 {
    let mut best = (f64::MAX, 100.0);
    let mut k = 20.0;
    while k <= 5000.0 {
        let l: f64 = data
            .iter()
            .map(|s| (sigmoid(s.score, k) - s.result).powi(2))
            .sum();
        if l < best.0 {
            best = (l, k);
        }
        k *= 1.05;
    }
    best.1
}

/// Weights the tuner leaves alone: each set's line pair with no pattern for either side,
/// and with `freeze_pcode` the pattern combinations.
fn frozen(i: usize, freeze_pcode: bool) -> bool {
    let feature = i % FEATURES;
    feature == LINE_BASE + LINE_CODES * LINE_CODES - 1
        || (freeze_pcode && (PCODE_BASE..PCODE_BASE + 2 * PCODES).contains(&feature))
}

/// Adds the pull towards the starting weights to a loss and its gradient.
fn regularise(l2: f64, w: &[f64], start: &[f64], loss: &mut f64, grad: &mut [f64]) {
    for i in 0..w.len() {
        let d = (w[i] - start[i]) / 100.0;
        *loss += l2 * d * d;
        grad[i] += 2.0 * l2 * d / 100.0;
    }
}

/// One table set's weights as Rust source: the general set as its four constants, another
/// as an `EvalTables` constant named after the set.
fn render(set: TableSet, w: &[i32]) -> String {
    let values = |start: usize, len: usize, width: usize| {
        let items: Vec<String> = w[start..start + len]
            .iter()
            .map(|v| format!("{v:>width$}"))
            .collect();
        items.join(", ")
    };
    let row = |start: usize, len: usize, width: usize, indent: &str| {
        format!("{indent}    [{}],\n", values(start, len, width))
    };
    let general = set == TableSet::General;
    let indent = if general { "" } else { "    " };
    let open = |name: &str, field: &str, ty: &str| {
        if general {
            format!("#[rustfmt::skip]\npub const {name}: {ty} = [\n")
        } else {
            format!("    #[rustfmt::skip]\n    {field}: [\n")
        }
    };
    let close = if general { "];\n\n" } else { "    ],\n" };
    let mut text = String::new();
    if !general {
        text += &format!("pub const {}: EvalTables = EvalTables {{\n", set.name());
    }
    text += &open("CELL", "cell", "[[i32; 14]; 14]");
    for ours in 0..CLASSES {
        text += &row(CELL_BASE + ours * CLASSES, CLASSES, 4, indent);
    }
    text += close;
    text += &open("LINE", "line", "[[i32; 16]; 16]");
    for ours in 0..LINE_CODES {
        text += &row(LINE_BASE + ours * LINE_CODES, LINE_CODES, 4, indent);
    }
    text += close;
    // The combinations, 14 to a line. Their table is large and read only at compile time.
    if general {
        text += "#[allow(clippy::large_const_arrays)]\n";
    }
    text += &open("PCODE", "pcode", "[[i32; PCODES]; 2]");
    for side in 0..2 {
        text += &format!("{indent}    [\n");
        for chunk in (0..PCODES).step_by(14) {
            let start = PCODE_BASE + side * PCODES + chunk;
            let len = 14.min(PCODES - chunk);
            text += &format!("{indent}        {},\n", values(start, len, 4));
        }
        text += &format!("{indent}    ],\n");
    }
    text += close;
    text += &open("COUNTS", "counts", "[[i32; 6]; 4]");
    for kind in 0..4 {
        text += &row(COUNT_BASE + kind * 6, 6, 0, indent);
    }
    text += close;
    if general {
        text += &format!("pub const TEMPO: i32 = {};\n", w[TEMPO_INDEX]);
    } else {
        text += &format!("    tempo: {},\n}};\n", w[TEMPO_INDEX]);
    }
    text
}

fn main() {
    const TOOL: &str = "gomoku_tune";
    let cfg = parse_args().unwrap_or_else(|e| tuning::fail(TOOL, &e));
    let mut data = tuning::load(&cfg.data, parse_line).unwrap_or_else(|e| tuning::fail(TOOL, &e));
    let mut valid = tuning::load(&cfg.valid, parse_line).unwrap_or_else(|e| tuning::fail(TOOL, &e));
    let mut per_set = [0usize; TABLE_SETS];
    for s in &data {
        per_set[s.set.index()] += 1;
    }
    eprintln!("{} positions", data.len());
    for set in TableSet::ALL {
        eprintln!("  {:<12} {}", set.name(), per_set[set.index()]);
    }
    let start: Vec<i32> = TableSet::ALL
        .iter()
        .flat_map(|&set| weight_vector(set))
        .collect();
    let start_f: Weights = start.iter().map(|&v| f64::from(v)).collect();
    let mut w = start_f.clone();
    let k = fit_k(&data, &w);
    if let Some(given) = cfg.score_k {
        // Scores in foreign units: rescale them to the evaluation's, so that one logistic
        // scale serves both.
        let score_k = given.unwrap_or_else(|| fit_score_k(&data));
        eprintln!("score scale {score_k:.1}: scores times {:.4}", k / score_k);
        for s in data.iter_mut().chain(valid.iter_mut()) {
            s.score *= k / score_k;
        }
    }
    let (initial, _) = loss(&data, &w, k, cfg.lambda);
    eprintln!("K = {k:.1}, initial loss {initial:.6}");
    let report_valid = |w: &[f64], when: &str| {
        if !valid.is_empty() {
            let (l, _) = loss(&valid, w, k, cfg.lambda);
            eprintln!("validation loss {when}: {l:.6} ({} positions)", valid.len());
        }
    };
    report_valid(&w, "before");
    let mut adam = tuning::Adam::new(ALL_WEIGHTS, cfg.rate);
    let (start_means, _) = set_means(&data, &w);
    for epoch in 1..=cfg.epochs {
        let (mut l, mut g) = loss(&data, &w, k, cfg.lambda);
        regularise(cfg.l2, &w, &start_f, &mut l, &mut g);
        hold(cfg.hold_mean, &data, &w, &start_means, &mut l, &mut g);
        adam.step(&mut w, &g, |i| frozen(i, cfg.freeze_pcode));
        if epoch.is_multiple_of(100) || epoch == cfg.epochs {
            eprintln!("epoch {epoch}: loss {l:.6}");
        }
    }
    let (last, _) = loss(&data, &w, k, cfg.lambda);
    eprintln!("final loss {last:.6} (initial {initial:.6})");
    report_valid(&w, "after");
    for (when, weights) in [("before", &start_f), ("after", &w)] {
        let (mean, sd) = spread(&data, weights);
        eprintln!("evaluation {when}: mean {mean:.1}, standard deviation {sd:.1} (side to move)");
    }
    let rounded: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    let mut text = String::new();
    for set in TableSet::ALL {
        if per_set[set.index()] == 0 {
            continue;
        }
        let base = set.index() * FEATURES;
        for i in 0..FEATURES {
            if rounded[base + i] != start[base + i] {
                eprintln!(
                    "{} {:<28} {:>6} -> {:>6}",
                    set.name(),
                    feature_name(i),
                    start[base + i],
                    rounded[base + i]
                );
            }
        }
        text += &format!("// {}\n", set.name());
        text += &render(set, &rounded[base..base + FEATURES]);
        text += "\n";
    }
    if let Err(e) = tuning::write_text(cfg.out.as_deref(), &text) {
        tuning::fail(TOOL, &e);
    }
}
