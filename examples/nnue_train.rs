//! Trains the Xiangqi evaluation network `(1260 -> HIDDEN) x 2 -> 1` (SCReLU) on the packed
//! self-play records of `examples/datagen.rs --format bin` (or `--convert`), on the CPU.
//!
//! usage: cargo run --release --example nnue_train -- --data FILE[,FILE...] --out NET.bin
//!        [--epochs N] [--batch N] [--lr X] [--drop-epoch N] [--lambda X] [--threads N]
//!        [--seed N] [--val-percent N] [--max-score CP] [--checkpoints DIR] [--init CKPT]
//!        [--mirror 0|1] [--export best|last]
//!
//! Target: `lambda * sigmoid(score / SCALE) + (1 - lambda) * result`, both from the side to
//! move's point of view; loss: mean squared error of `sigmoid(output)` against it. AdamW
//! (decay 0.01), weights clipped to +-1.98 after each step, the rate times 0.1 from
//! `--drop-epoch` on. Each batch is cut into a fixed number of chunks whose gradients are
//! summed in chunk order, so the same seed and data give the same bits for any `--threads`.
//! `--mirror 1` trains on every position and its left-right mirror image (the rules are
//! symmetric). Validation holds out whole games (`--val-percent`, chosen by a hash of the game number).
//! Writes a float checkpoint per epoch into `--checkpoints`, the quantised net to `--out`,
//! and a text report beside it (`NET.txt`: command, data, losses, quantisation check). The
//! net written is the epoch with the lowest validation loss (`--export best`, the default:
//! positions of one game share their result, so a long run learns the training games'
//! results by heart) or the last epoch (`--export last`). Each epoch also reports the
//! validation loss against the score alone and against the result alone, which compare
//! across runs with different `--lambda`.

use std::io::Write;
use std::time::Instant;

use qilin::xiangqi::nnue::data::{DataHeader, HEADER_BYTES, PackedPosition, RECORD_BYTES};
use qilin::xiangqi::nnue::features::{self, MAX_ACTIVE};
use qilin::xiangqi::nnue::float::{CLIP, FloatNetwork, screlu};
use qilin::xiangqi::nnue::network::{HIDDEN, SCALE};
use qilin::xiangqi::nnue::{Network, evaluate_fresh};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Gradients are computed in this many chunks per batch, whatever the thread count.
const CHUNKS: usize = 8;

struct Config {
    data: Vec<String>,
    out: String,
    epochs: usize,
    batch: usize,
    lr: f32,
    drop_epoch: usize,
    lambda: f32,
    threads: usize,
    seed: u64,
    val_percent: u64,
    max_score: i16,
    checkpoints: Option<String>,
    init: Option<String>,
    mirror: bool,
    /// Export the epoch with the lowest validation loss (else the last).
    export_best: bool,
}

fn parse_args() -> Result<Config, String> {
    let mut cfg = Config {
        data: Vec::new(),
        out: "xiangqi-net.bin".to_string(),
        epochs: 10,
        batch: 16384,
        lr: 0.001,
        drop_epoch: usize::MAX,
        lambda: 0.5,
        threads: 2,
        seed: 1,
        val_percent: 5,
        max_score: 3000,
        checkpoints: None,
        init: None,
        mirror: false,
        export_best: true,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [flag, value] = pair else {
            return Err(format!("{} needs a value", pair[0]));
        };
        let bad = |e: &dyn std::fmt::Display| format!("{flag}: {e}");
        let int = || value.parse::<u64>().map_err(|e| bad(&e));
        let real = || value.parse::<f32>().map_err(|e| bad(&e));
        match flag.as_str() {
            "--data" => cfg.data = value.split(',').map(str::to_string).collect(),
            "--out" => cfg.out = value.clone(),
            "--epochs" => cfg.epochs = int()? as usize,
            "--batch" => cfg.batch = int()?.max(1) as usize,
            "--lr" => cfg.lr = real()?,
            "--drop-epoch" => cfg.drop_epoch = int()? as usize,
            "--lambda" => cfg.lambda = real()?.clamp(0.0, 1.0),
            "--threads" => cfg.threads = int()?.clamp(1, 64) as usize,
            "--seed" => cfg.seed = int()?,
            "--val-percent" => cfg.val_percent = int()?.min(50),
            "--max-score" => cfg.max_score = int()?.min(i16::MAX as u64) as i16,
            "--checkpoints" => cfg.checkpoints = Some(value.clone()),
            "--init" => cfg.init = Some(value.clone()),
            "--mirror" => cfg.mirror = int()? != 0,
            "--export" => {
                cfg.export_best = match value.as_str() {
                    "best" => true,
                    "last" => false,
                    other => return Err(format!("--export: best or last, not {other}")),
                }
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if cfg.data.is_empty() {
        return Err("--data FILE is required".to_string());
    }
    Ok(cfg)
}

/// Reads the records of the data files (skipping damaged ones) and the data's description.
fn load(cfg: &Config) -> Result<(Vec<PackedPosition>, String), String> {
    let mut out = Vec::new();
    let mut described = Vec::new();
    for path in &cfg.data {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let header = DataHeader::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
        let body = &bytes[HEADER_BYTES..];
        let before = out.len();
        for chunk in body.chunks_exact(RECORD_BYTES) {
            let mut rec = [0u8; RECORD_BYTES];
            rec.copy_from_slice(chunk);
            if let Some(p) = PackedPosition::from_bytes(rec) {
                out.push(p);
            }
        }
        described.push(format!(
            "{path}: {} records read of {} in the header, {} games, {} bytes, FNV-1a {:016x}",
            out.len() - before,
            header.positions,
            header.games,
            bytes.len(),
            qilin::xiangqi::nnue::network::fnv1a(&bytes)
        ));
    }
    Ok((out, described.join("\n")))
}

/// A training sample: a record, seen as it is or mirrored left to right (the rules are
/// symmetric, so the mirror image has the same score and result).
type Sample = (PackedPosition, bool);

/// The features of a sample: side to move's perspective, then the other's.
fn record_features(
    (rec, mirror): &Sample,
    us: &mut [usize; MAX_ACTIVE],
    them: &mut [usize; MAX_ACTIVE],
) -> usize {
    let side = rec.side_to_move();
    let mut n = 0;
    rec.pieces(|piece, sq| {
        let sq = if *mirror { sq.flip_file() } else { sq };
        us[n] = features::index(side, piece, sq);
        them[n] = features::index(side.flip(), piece, sq);
        n += 1;
    });
    n
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target for a record.
fn target(rec: &PackedPosition, lambda: f32) -> f32 {
    lambda * sigmoid(f32::from(rec.score()) / SCALE as f32) + (1.0 - lambda) * rec.outcome().value()
}

/// Adds the gradient of `records`' summed loss to `grad` (flattened like the network) and
/// returns the summed loss.
fn gradient(net: &FloatNetwork, records: &[Sample], lambda: f32, grad: &mut [f32]) -> f64 {
    let ft_len = net.ft_weights.len();
    let (g_ft, rest) = grad.split_at_mut(ft_len);
    let (g_bias, rest) = rest.split_at_mut(HIDDEN);
    let (g_out, g_out_bias) = rest.split_at_mut(2 * HIDDEN);
    let mut us = [0usize; MAX_ACTIVE];
    let mut them = [0usize; MAX_ACTIVE];
    let mut acc = [[0f32; HIDDEN]; 2];
    let mut loss = 0f64;
    for rec in records {
        let n = record_features(rec, &mut us, &mut them);
        let lists = [&us[..n], &them[..n]];
        let mut out = net.out_bias;
        for half in 0..2 {
            net.accumulate(lists[half], &mut acc[half]);
            let w = &net.out_weights[half * HIDDEN..(half + 1) * HIDDEN];
            out += acc[half]
                .iter()
                .zip(w)
                .map(|(&a, &w)| screlu(a) * w)
                .sum::<f32>();
        }
        let p = sigmoid(out);
        let t = target(&rec.0, lambda);
        loss += f64::from((p - t) * (p - t));
        let d = 2.0 * (p - t) * p * (1.0 - p);
        g_out_bias[0] += d;
        for half in 0..2 {
            let w = &net.out_weights[half * HIDDEN..(half + 1) * HIDDEN];
            let go = &mut g_out[half * HIDDEN..(half + 1) * HIDDEN];
            let mut da = [0f32; HIDDEN];
            for j in 0..HIDDEN {
                let a = acc[half][j];
                go[j] += d * screlu(a);
                if a > 0.0 && a < 1.0 {
                    da[j] = d * w[j] * 2.0 * a;
                }
            }
            for j in 0..HIDDEN {
                g_bias[j] += da[j];
            }
            for &f in lists[half] {
                for (g, &x) in g_ft[f * HIDDEN..(f + 1) * HIDDEN].iter_mut().zip(&da) {
                    *g += x;
                }
            }
        }
    }
    loss
}

/// The summed loss and gradient of a batch over `CHUNKS` chunks on `threads` threads,
/// added in chunk order.
fn batch_gradient(
    net: &FloatNetwork,
    batch: &[Sample],
    cfg: &Config,
    grads: &mut [Vec<f32>],
) -> (f64, Vec<f32>) {
    let per = batch.len().div_ceil(CHUNKS);
    let mut losses = [0f64; CHUNKS];
    std::thread::scope(|scope| {
        let mut work: Vec<Vec<(usize, &mut Vec<f32>, &mut f64)>> =
            (0..cfg.threads).map(|_| Vec::new()).collect();
        for (i, (g, l)) in grads.iter_mut().zip(losses.iter_mut()).enumerate() {
            work[i % cfg.threads].push((i, g, l));
        }
        for jobs in work {
            scope.spawn(move || {
                for (i, g, l) in jobs {
                    g.iter_mut().for_each(|x| *x = 0.0);
                    let lo = (i * per).min(batch.len());
                    let hi = ((i + 1) * per).min(batch.len());
                    *l = gradient(net, &batch[lo..hi], cfg.lambda, g);
                }
            });
        }
    });
    let mut total = grads[0].clone();
    for g in &grads[1..] {
        for (t, &x) in total.iter_mut().zip(g) {
            *t += x;
        }
    }
    (losses.iter().sum(), total)
}

/// AdamW over the flattened parameters.
struct AdamW {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
}

impl AdamW {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPS: f32 = 1e-8;
    const DECAY: f32 = 0.01;

    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32) {
        self.steps += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.steps);
        let c2 = 1.0 - Self::BETA2.powi(self.steps);
        for i in 0..w.len() {
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * g[i];
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * g[i] * g[i];
            let update = (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + Self::EPS);
            w[i] = (w[i] * (1.0 - lr * Self::DECAY) - lr * update).clamp(-CLIP, CLIP);
        }
    }
}

/// Mean validation losses: against the target blended with `--lambda`, against the score
/// alone and against the result alone (the last two compare across `--lambda` values).
struct ValidationLosses {
    blend: f64,
    score: f64,
    result: f64,
}

/// The mean losses over `records`, from one forward pass each (no gradient).
fn validation_losses(net: &FloatNetwork, records: &[Sample], lambda: f32) -> ValidationLosses {
    let mut us = [0usize; MAX_ACTIVE];
    let mut them = [0usize; MAX_ACTIVE];
    let mut sums = [0f64; 3];
    for rec in records {
        let n = record_features(rec, &mut us, &mut them);
        let p = sigmoid(net.forward(&us[..n], &them[..n]));
        for (sum, l) in sums.iter_mut().zip([lambda, 1.0, 0.0]) {
            let t = target(&rec.0, l);
            *sum += f64::from((p - t) * (p - t));
        }
    }
    let n = records.len().max(1) as f64;
    ValidationLosses {
        blend: sums[0] / n,
        score: sums[1] / n,
        result: sums[2] / n,
    }
}

/// Whether a game belongs to the validation set.
fn is_validation(game: u32, seed: u64, percent: u64) -> bool {
    let mut z = u64::from(game) ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) % 100 < percent
}

fn initial(cfg: &Config) -> Result<FloatNetwork, String> {
    if let Some(path) = &cfg.init {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let v: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        return FloatNetwork::unflatten(&v).ok_or_else(|| format!("{path}: wrong size"));
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
    let mut net = FloatNetwork::zeros();
    for w in net.ft_weights.iter_mut() {
        *w = rng.random_range(-0.1f32..0.1);
    }
    for w in net.ft_bias.iter_mut() {
        *w = rng.random_range(0.0f32..0.2);
    }
    for w in net.out_weights.iter_mut() {
        *w = rng.random_range(-0.2f32..0.2);
    }
    Ok(net)
}

/// Quantised versus float output, and the quantised net against the search score, over up to
/// `limit` records: (mean |difference| cp, max |difference| cp, correlation with the score,
/// standard deviations of the quantised eval and of the score in cp).
fn check_quantised(
    float: &FloatNetwork,
    net: &Network,
    records: &[PackedPosition],
) -> (f64, f64, f64, f64, f64) {
    let (mut sum_diff, mut max_diff) = (0f64, 0f64);
    let mut pairs = Vec::new();
    let mut us = [0usize; MAX_ACTIVE];
    let mut them = [0usize; MAX_ACTIVE];
    for rec in records {
        let Some(pos) = rec.position() else { continue };
        let n = record_features(&(*rec, false), &mut us, &mut them);
        let f = f64::from(float.forward_cp(&us[..n], &them[..n]));
        let q = f64::from(evaluate_fresh(net, &pos));
        sum_diff += (f - q).abs();
        max_diff = max_diff.max((f - q).abs());
        pairs.push((q, f64::from(rec.score())));
    }
    let n = pairs.len().max(1) as f64;
    let (mx, my) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for &(x, y) in &pairs {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    (
        sum_diff / n,
        max_diff,
        sxy / (sxx * syy).sqrt().max(1e-12),
        (sxx / n).sqrt(),
        (syy / n).sqrt(),
    )
}

fn write_f32s(path: &str, v: &[f32]) -> Result<(), String> {
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(path, bytes).map_err(|e| format!("{path}: {e}"))
}

fn run(cfg: &Config) -> Result<(), String> {
    let started = Instant::now();
    let (records, described) = load(cfg)?;
    let kept: Vec<PackedPosition> = records
        .into_iter()
        .filter(|r| r.score().abs() <= cfg.max_score)
        .collect();
    let (valid, train): (Vec<_>, Vec<_>) = kept
        .into_iter()
        .partition(|r| is_validation(r.game(), cfg.seed, cfg.val_percent));
    let mut train: Vec<Sample> = train
        .into_iter()
        .flat_map(|r| {
            [(r, false), (r, true)]
                .into_iter()
                .take(1 + cfg.mirror as usize)
        })
        .collect();
    let valid_samples: Vec<Sample> = valid.iter().map(|&r| (r, false)).collect();
    eprintln!(
        "{} training and {} validation positions, {:.1} s",
        train.len(),
        valid.len(),
        started.elapsed().as_secs_f64()
    );
    if train.is_empty() {
        return Err("no training positions".to_string());
    }
    let mut net = initial(cfg)?;
    let mut params = net.flatten();
    let mut adam = AdamW {
        m: vec![0.0; params.len()],
        v: vec![0.0; params.len()],
        steps: 0,
    };
    let mut grads = vec![vec![0f32; params.len()]; CHUNKS];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed ^ 0x5eed);
    let mut log = Vec::new();
    // The epoch to export: (epoch, validation loss, network).
    let mut best: Option<(usize, f64, FloatNetwork)> = None;
    let batches = train.len().div_ceil(cfg.batch);
    for epoch in 1..=cfg.epochs {
        // Fisher-Yates with the seeded generator.
        for i in (1..train.len()).rev() {
            let j = rng.random_range(0..=i);
            train.swap(i, j);
        }
        let lr = if epoch >= cfg.drop_epoch {
            cfg.lr * 0.1
        } else {
            cfg.lr
        };
        let mut epoch_loss = 0f64;
        let mut seen = 0usize;
        for (b, batch) in train.chunks(cfg.batch).enumerate() {
            let (loss, mut g) = batch_gradient(&net, batch, cfg, &mut grads);
            let scale = 1.0 / batch.len() as f32;
            g.iter_mut().for_each(|x| *x *= scale);
            adam.step(&mut params, &g, lr);
            net = FloatNetwork::unflatten(&params).ok_or("parameter count")?;
            epoch_loss += loss;
            seen += batch.len();
            if (b + 1) % 20 == 0 || b + 1 == batches {
                eprint!(
                    "\repoch {epoch}/{} batch {}/{batches} loss {:.6} {:.0} pos/s   ",
                    cfg.epochs,
                    b + 1,
                    epoch_loss / seen as f64,
                    (seen as f64 + ((epoch - 1) * train.len()) as f64)
                        / started.elapsed().as_secs_f64()
                );
            }
        }
        let train_loss = epoch_loss / seen as f64;
        let ValidationLosses {
            blend: val_loss,
            score: val_score,
            result: val_result,
        } = validation_losses(&net, &valid_samples, cfg.lambda);
        eprintln!(
            "\repoch {epoch}: train loss {train_loss:.6}, validation loss {val_loss:.6} (score {val_score:.6}, result {val_result:.6}), lr {lr}, {:.0} s",
            started.elapsed().as_secs_f64()
        );
        log.push(format!(
            "epoch {epoch}: train {train_loss:.6} validation {val_loss:.6} (score {val_score:.6}, result {val_result:.6}) lr {lr}"
        ));
        if !cfg.export_best || best.as_ref().is_none_or(|(_, loss, _)| val_loss < *loss) {
            best = Some((epoch, val_loss, net.clone()));
        }
        if let Some(dir) = &cfg.checkpoints {
            std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: {e}"))?;
            write_f32s(&format!("{dir}/epoch-{epoch}.f32"), &params)?;
        }
    }
    let (export_epoch, _, net) = best.ok_or("no epoch was trained")?;
    log.push(format!(
        "exported: epoch {export_epoch} ({})",
        if cfg.export_best {
            "lowest validation loss"
        } else {
            "the last"
        }
    ));
    let quantised = net.quantise().map_err(|e| format!("export: {e}"))?;
    let bytes = quantised.to_bytes();
    std::fs::write(&cfg.out, &bytes).map_err(|e| format!("{}: {e}", cfg.out))?;
    let check: Vec<PackedPosition> = valid.iter().take(10_000).copied().collect();
    let (mean, max, corr, sd_eval, sd_score) = check_quantised(&net, &quantised, &check);
    let report_path = format!("{}.txt", cfg.out.trim_end_matches(".bin"));
    let command: Vec<String> = std::env::args().collect();
    let mut report = String::new();
    report.push_str(&format!(
        "net: {} ({} bytes, id {:016x})\n",
        cfg.out,
        bytes.len(),
        quantised.id()
    ));
    report.push_str(&format!(
        "architecture: (1260 -> {HIDDEN}) x 2 -> 1, SCReLU, QA 255, QB 64, SCALE {SCALE}\n"
    ));
    report.push_str(&format!(
        "command: cargo run --release --example nnue_train -- {}\n",
        command[1..].join(" ")
    ));
    report.push_str(&format!("data:\n{described}\n"));
    report.push_str(&format!(
        "positions: {} training samples{}, {} validation (whole games, {}%), |score| <= {}\n",
        train.len(),
        if cfg.mirror {
            " (positions and their mirror images)"
        } else {
            ""
        },
        valid.len(),
        cfg.val_percent,
        cfg.max_score
    ));
    report.push_str(&format!(
        "settings: epochs {}, batch {}, lr {} (x0.1 from epoch {}), lambda {} (score weight), AdamW decay 0.01, seed {}, threads {}\n",
        cfg.epochs, cfg.batch, cfg.lr,
        if cfg.drop_epoch == usize::MAX { "never".to_string() } else { cfg.drop_epoch.to_string() },
        cfg.lambda, cfg.seed, cfg.threads
    ));
    for line in &log {
        report.push_str(line);
        report.push('\n');
    }
    report.push_str(&format!(
        "quantised vs float on {} validation positions: mean |diff| {mean:.2} cp, max {max:.1} cp\n",
        check.len()
    ));
    report.push_str(&format!(
        "correlation of the quantised eval with the search score (validation): {corr:.3}; standard deviation {sd_eval:.0} cp (eval) and {sd_score:.0} cp (score)\n"
    ));
    report.push_str(&format!(
        "training time: {:.0} s\n",
        started.elapsed().as_secs_f64()
    ));
    std::fs::File::create(&report_path)
        .and_then(|mut f| f.write_all(report.as_bytes()))
        .map_err(|e| format!("{report_path}: {e}"))?;
    eprint!("{report}");
    Ok(())
}

fn main() {
    if let Err(e) = parse_args().and_then(|cfg| run(&cfg)) {
        eprintln!("nnue_train: {e}");
        std::process::exit(2);
    }
}
