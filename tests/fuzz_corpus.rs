//! Replays every committed fuzz input (`fuzz/corpus/<target>/*`, and any regression inputs in
//! `fuzz/regressions/<target>/*`) through the same target code `cargo fuzz` runs
//! (`qilin::fuzzing`), so the normal suite keeps what the fuzzers found. Inputs run on a few
//! threads at once: many engine-loop inputs mostly wait for a search's small time limit.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Threads replaying inputs at once.
const THREADS: usize = 8;

#[test]
fn every_committed_fuzz_input_still_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut work: Vec<(&str, qilin::fuzzing::Target, PathBuf)> = Vec::new();
    for (name, target) in qilin::fuzzing::TARGETS {
        let before = work.len();
        for dir in ["corpus", "regressions"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir).join(name)) else {
                continue;
            };
            let mut paths: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            work.extend(paths.into_iter().map(|p| (name, target, p)));
        }
        assert!(work.len() > before, "no committed inputs for {name}");
    }
    let queue = Mutex::new(work.into_iter());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..THREADS {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some((name, target, path)) = next else {
                        break;
                    };
                    let data = std::fs::read(&path).expect("read a fuzz input");
                    if std::panic::catch_unwind(|| target(&data)).is_err() {
                        let mut failures = failures.lock().unwrap_or_else(|e| e.into_inner());
                        failures.push(format!("{name}: {}", path.display()));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    assert!(
        failures.is_empty(),
        "failing inputs:\n{}",
        failures.join("\n")
    );
}
