//! What the Gomoku tuning examples share: their `--flag value` arguments, reading position
//! files, the Adam optimiser, and writing the fitted tables. Included by each example with
//! `#[path = "common/tuning.rs"] mod tuning;`.

use std::io::{BufRead, Write};

/// Prints `tool: message` and exits with status 2 (bad arguments or unreadable files).
pub fn fail(tool: &str, message: &str) -> ! {
    eprintln!("{tool}: {message}");
    std::process::exit(2)
}

/// The command line as `--flag value` pairs, in order.
pub fn flag_pairs() -> Result<Vec<(String, String)>, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    args.chunks(2)
        .map(|pair| match pair {
            [flag, value] => Ok((flag.clone(), value.clone())),
            [flag] => Err(format!("{flag} needs a value")),
            _ => Err("empty argument".to_string()),
        })
        .collect()
}

/// `value` of `flag` as a number.
pub fn number(flag: &str, value: &str) -> Result<f64, String> {
    value.parse::<f64>().map_err(|e| format!("{flag}: {e}"))
}

/// Every line of every file in `paths` that `parse` accepts.
pub fn load<T>(paths: &[String], parse: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    let mut data = Vec::new();
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for line in std::io::BufReader::new(file).lines().map_while(Result::ok) {
            if let Some(sample) = parse(&line) {
                data.push(sample);
            }
        }
    }
    Ok(data)
}

/// Adam (first and second moment estimates with bias correction) over a weight vector.
pub struct Adam {
    rate: f64,
    steps: i32,
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPS: f64 = 1e-8;

    /// An optimiser for `len` weights with step size `rate`.
    pub fn new(len: usize, rate: f64) -> Adam {
        Adam {
            rate,
            steps: 0,
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// One step down the gradient `g`, leaving the weights `frozen` says to keep.
    pub fn step(&mut self, w: &mut [f64], g: &[f64], frozen: impl Fn(usize) -> bool) {
        self.steps += 1;
        let (c1, c2) = (
            1.0 - Self::BETA1.powi(self.steps),
            1.0 - Self::BETA2.powi(self.steps),
        );
        for i in (0..w.len()).filter(|&i| !frozen(i)) {
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * g[i];
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * g[i] * g[i];
            w[i] -= self.rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + Self::EPS);
        }
    }
}

/// Writes `text` to the file `out`, or to standard output when there is none.
pub fn write_text(out: Option<&str>, text: &str) -> Result<(), String> {
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{path}: {e}")),
        None => {
            let _ = std::io::stdout().write_all(text.as_bytes());
            Ok(())
        }
    }
}
