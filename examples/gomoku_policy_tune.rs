//! Tunes the Gomoku move-ordering tables (`ORDER_CELL` and `ORDER_LINE` of
//! `src/gomoku/search/weights.rs`) on moves from real games: for each position the ordering
//! value of every candidate cell is read as a logit, and the tables are fitted by gradient
//! descent (Adam) to the cross-entropy of a softmax over the candidates against the move that
//! was played. The softmax temperature is fitted once to the starting tables and then held,
//! so the fitted values keep their units (the search adds history and killer bonuses on the
//! same scale).
//!
//! usage: cargo run --release --example gomoku_policy_tune -- --data FILE [--data FILE ...]
//!        [--valid FILE ...] [--epochs N] [--rate R] [--out FILE]
//!
//! Data lines are `size;rule;moves;result;score` (the `gomoku_tune` format); the last move
//! of each line is the target and the moves before it the position. Positions where either
//! side has a five to make are skipped (the search never orders those moves), and so are
//! targets outside the candidate cells. Rows for the mover's forbidden and five classes, the
//! column for the opponent's five and the line with no pattern for either side stay as they
//! are (the search handles those cells before ordering).

#[path = "common/tuning.rs"]
mod tuning;

use qilin::gomoku::search::pos::Pos;
use qilin::gomoku::search::weights::{ORDER_CELL, ORDER_LINE};
use qilin::gomoku::{Board, Cell, Rule, Threat};

const CLASSES: usize = 14;
const LINE_CODES: usize = 16;
const LINE_BASE: usize = CLASSES * CLASSES;
const FEATURES: usize = LINE_BASE + LINE_CODES * LINE_CODES;

struct Config {
    data: Vec<String>,
    valid: Vec<String>,
    epochs: usize,
    rate: f64,
    out: Option<String>,
}

fn parse_args() -> Result<Config, String> {
    let mut cfg = Config {
        data: Vec::new(),
        valid: Vec::new(),
        epochs: 300,
        rate: 2.0,
        out: None,
    };
    for (flag, value) in tuning::flag_pairs()? {
        let number = || tuning::number(&flag, &value);
        match flag.as_str() {
            "--data" => cfg.data.push(value.clone()),
            "--valid" => cfg.valid.push(value.clone()),
            "--epochs" => cfg.epochs = number()? as usize,
            "--rate" => cfg.rate = number()?,
            "--out" => cfg.out = Some(value.clone()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if cfg.data.is_empty() {
        return Err("give at least one --data FILE".to_string());
    }
    Ok(cfg)
}

/// One candidate cell: its class pair index and both sides' pattern words.
#[derive(Clone, Copy)]
struct Candidate {
    pair: u8,
    own: u16,
    theirs: u16,
}

impl Candidate {
    /// Calls `f` with each feature index the candidate's value sums.
    fn for_each_feature(self, mut f: impl FnMut(usize)) {
        f(self.pair as usize);
        for d in 0..4 {
            let own = ((self.own >> (4 * d)) & 15) as usize;
            let theirs = ((self.theirs >> (4 * d)) & 15) as usize;
            f(LINE_BASE + own * LINE_CODES + theirs);
        }
    }

    fn value(self, w: &[f64; FEATURES]) -> f64 {
        let mut v = 0.0;
        self.for_each_feature(|i| v += w[i]);
        v
    }
}

/// One position: its candidates, the played one first.
struct Sample {
    candidates: Vec<Candidate>,
}

fn parse_line(line: &str) -> Option<Sample> {
    let fields: Vec<&str> = line.trim().split(';').collect();
    let [size, rule, moves, _, _] = fields[..] else {
        return None;
    };
    let size: usize = size.parse().ok()?;
    let rule = Rule::from_number(rule.parse().ok()?)?;
    let mut board = Board::new(size, size, rule).ok()?;
    let cells: Vec<Cell> = moves
        .split_whitespace()
        .map(Cell::parse)
        .collect::<Option<_>>()?;
    let (&target, before) = cells.split_last()?;
    for &cell in before {
        if !board.contains(cell) || !board.is_empty(cell) {
            return None;
        }
        board.play(cell);
    }
    if !board.contains(target) || !board.is_empty(target) {
        return None;
    }
    let us = board.side_to_move();
    let them = us.flip();
    if board.threat_count(us, Threat::Five) > 0 || board.threat_count(them, Threat::Five) > 0 {
        return None;
    }
    let pos = Pos::new(&board);
    let mut candidates = Vec::new();
    let mut found = false;
    pos.for_each_candidate(|c| {
        let ours = board.threat(c, us);
        if ours == Threat::Forbidden {
            return;
        }
        let candidate = Candidate {
            pair: (ours as usize * CLASSES + board.threat(c, them) as usize) as u8,
            own: board.pattern_word(c, us),
            theirs: board.pattern_word(c, them),
        };
        if c == target {
            found = true;
            candidates.insert(0, candidate);
        } else {
            candidates.push(candidate);
        }
    });
    (found && candidates.len() > 1).then_some(Sample { candidates })
}

/// Mean cross-entropy of the played moves at temperature `t`, its gradient, and the share of
/// positions whose played move has the highest value.
fn loss(data: &[Sample], w: &[f64; FEATURES], t: f64) -> (f64, [f64; FEATURES], f64) {
    let mut total = 0.0;
    let mut top = 0usize;
    let mut grad = [0.0; FEATURES];
    let mut values = Vec::new();
    for s in data {
        values.clear();
        values.extend(s.candidates.iter().map(|c| c.value(w) / t));
        let max = values.iter().cloned().fold(f64::MIN, f64::max);
        if values[0] >= max {
            top += 1;
        }
        let sum: f64 = values.iter().map(|v| (v - max).exp()).sum();
        total += -(values[0] - max - sum.ln());
        for (i, c) in s.candidates.iter().enumerate() {
            let p = (values[i] - max).exp() / sum;
            let d = (p - if i == 0 { 1.0 } else { 0.0 }) / t;
            if d.abs() > 1e-12 {
                c.for_each_feature(|f| grad[f] += d);
            }
        }
    }
    let n = data.len().max(1) as f64;
    grad.iter_mut().for_each(|g| *g /= n);
    (total / n, grad, top as f64 / n)
}

/// The temperature that best fits the played moves with the starting tables.
fn fit_temperature(data: &[Sample], w: &[f64; FEATURES]) -> f64 {
    let mut best = (f64::MAX, 100.0);
    let mut t = 5.0;
    while t <= 5000.0 {
        let (l, _, _) = loss(data, w, t);
        if l < best.0 {
            best = (l, t);
        }
        t *= 1.15;
    }
    best.1
}

/// Features the tuner leaves alone (see the header).
fn frozen(i: usize) -> bool {
    if i >= LINE_BASE {
        return i == FEATURES - 1;
    }
    let (ours, theirs) = (i / CLASSES, i % CLASSES);
    ours == Threat::Forbidden as usize
        || ours == Threat::Five as usize
        || theirs == Threat::Five as usize
}

fn start_weights() -> [f64; FEATURES] {
    let mut w = [0.0; FEATURES];
    for (ours, row) in ORDER_CELL.iter().enumerate() {
        for (theirs, &v) in row.iter().enumerate() {
            w[ours * CLASSES + theirs] = f64::from(v);
        }
    }
    for (ours, row) in ORDER_LINE.iter().enumerate() {
        for (theirs, &v) in row.iter().enumerate() {
            w[LINE_BASE + ours * LINE_CODES + theirs] = f64::from(v);
        }
    }
    w
}

fn render(w: &[i32; FEATURES]) -> String {
    let list = |range: std::ops::Range<usize>, width: usize| {
        w[range]
            .iter()
            .map(|v| format!("{v:>width$}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut text = String::from("#[rustfmt::skip]\npub const ORDER_CELL: [[i32; 14]; 14] = [\n");
    for ours in 0..CLASSES {
        let start = ours * CLASSES;
        text += &format!("    [{}],\n", list(start..start + CLASSES, 7));
    }
    text += "];\n\n#[rustfmt::skip]\npub const ORDER_LINE: [[i32; 16]; 16] = [\n";
    for ours in 0..LINE_CODES {
        let start = LINE_BASE + ours * LINE_CODES;
        text += &format!("    [{}],\n", list(start..start + LINE_CODES, 5));
    }
    text += "];\n";
    text
}

fn main() {
    const TOOL: &str = "gomoku_policy_tune";
    let cfg = parse_args().unwrap_or_else(|e| tuning::fail(TOOL, &e));
    let data = tuning::load(&cfg.data, parse_line).unwrap_or_else(|e| tuning::fail(TOOL, &e));
    let valid = tuning::load(&cfg.valid, parse_line).unwrap_or_else(|e| tuning::fail(TOOL, &e));
    eprintln!("{} positions, {} held out", data.len(), valid.len());
    let start = start_weights();
    let mut w = start;
    let t = fit_temperature(&data, &w);
    let report = |w: &[f64; FEATURES], when: &str| {
        let (l, _, top) = loss(&data, w, t);
        eprintln!(
            "{when}: loss {l:.5}, played move ranked first {:.1}%",
            100.0 * top
        );
        if !valid.is_empty() {
            let (l, _, top) = loss(&valid, w, t);
            eprintln!(
                "{when} (held out): loss {l:.5}, played move ranked first {:.1}%",
                100.0 * top
            );
        }
    };
    eprintln!("temperature {t:.1}");
    report(&w, "before");
    let mut adam = tuning::Adam::new(FEATURES, cfg.rate);
    for epoch in 1..=cfg.epochs {
        let (l, g, _) = loss(&data, &w, t);
        adam.step(&mut w, &g, frozen);
        if epoch.is_multiple_of(50) || epoch == cfg.epochs {
            eprintln!("epoch {epoch}: loss {l:.5}");
        }
    }
    report(&w, "after");
    let rounded: [i32; FEATURES] = w.map(|x| x.round() as i32);
    let text = render(&rounded);
    if let Err(e) = tuning::write_text(cfg.out.as_deref(), &text) {
        tuning::fail(TOOL, &e);
    }
}
