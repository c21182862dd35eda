//! Property test of issue 30 item 1: whatever the interleaving of `go`, `stop`, `position`,
//! `ponderhit` and `isready`, sent in one burst without waiting for any answer, every `go`
//! the engine accepted gets exactly one answer (`bestmove`, or the perft count), each within
//! a bound a loaded machine keeps. Seeded, so a failure names the seed that reproduces it.

mod common;

use std::time::Duration;

use common::Engine;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The longest wait for the next line once the burst was sent.
const PATIENCE: Duration = Duration::from_secs(10);
/// How long the engine must stay quiet at the end (no late extra answer).
const QUIET: Duration = Duration::from_secs(1);

/// One random burst in the protocol `hello` speaks, ending with `stop` and `isready`; checks
/// the answers.
fn burst(hello: &str, seed: u64, commands: usize) {
    let ucci = hello == "ucci";
    let gos: &[&str] = if ucci {
        &[
            "go depth infinite",
            "go ponder",
            "go depth 2",
            "go time 300",
            "go ponder time 5000",
        ]
    } else {
        &[
            "go infinite",
            "go ponder",
            "go depth 2",
            "go movetime 100",
            "go ponder wtime 5000 btime 5000",
        ]
    };
    let others = [
        "stop",
        "stop",
        "ponderhit",
        "isready",
        "position startpos",
        "position startpos moves h2e2 h9g7",
    ];
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::start_with(&[]);
    engine.ask(hello, |l| l.ends_with("ok"));
    let (mut searches, mut perfts, mut isready) = (0, 0, 0);
    for _ in 0..commands {
        let line = match rng.random_range(0..10) {
            0..=3 => {
                searches += 1;
                gos[rng.random_range(0..gos.len())]
            }
            4 => {
                perfts += 1;
                "go perft 2"
            }
            _ => others[rng.random_range(0..others.len())],
        };
        isready += usize::from(line == "isready");
        engine.send(line);
    }
    engine.send("stop");
    engine.send("isready");
    isready += 1;
    // Shown with a failure: the burst as sent.
    let sent: Vec<&String> = engine.seen.iter().filter(|l| l.starts_with(">>")).collect();
    eprintln!("seed {seed} ({hello}) sent {sent:?}");
    // Every `isready` is answered; the last one after the last job's answer.
    for _ in 0..isready {
        engine.wait_within(PATIENCE, |l| l == "readyok");
    }
    // Nothing more may come but notes.
    let quiet_start = engine.seen.len();
    std::thread::sleep(QUIET);
    engine.send("isready");
    engine.wait_within(PATIENCE, |l| l == "readyok");
    let late: Vec<&String> = engine.seen[quiet_start..]
        .iter()
        .filter(|l| l.starts_with("bestmove") || l.starts_with("Nodes searched"))
        .collect();
    let refused = |what: &str| {
        let text = format!("already thinking: '{what}' refused");
        engine.seen.iter().filter(|l| l.contains(&text)).count()
    };
    let answered_searches = engine.notes("bestmove");
    let answered_perfts =
        engine.notes("Nodes searched") + engine.notes("info string perft stopped before the end");
    let context = format!(
        "seed {seed} ({hello}); the dialogue ends:\n{}",
        engine.tail()
    );
    assert!(
        late.is_empty(),
        "answers after the end: {late:?}; {context}"
    );
    assert_eq!(
        answered_searches,
        searches - refused("go"),
        "one bestmove per accepted go; {context}"
    );
    assert_eq!(
        answered_perfts,
        perfts - refused("go perft"),
        "one count per accepted perft; {context}"
    );
}

#[test]
fn uci_every_accepted_go_is_answered_once() {
    for seed in 1..=6 {
        burst("uci", seed, 40);
    }
}

#[test]
fn ucci_every_accepted_go_is_answered_once() {
    for seed in 101..=106 {
        burst("ucci", seed, 40);
    }
}

#[test]
fn two_hundred_go_stop_pairs_give_two_hundred_answers() {
    for hello in ["uci", "ucci"] {
        let go = if hello == "uci" {
            "go infinite"
        } else {
            "go depth infinite"
        };
        let mut engine = Engine::start_with(&[]);
        engine.ask(hello, |l| l.ends_with("ok"));
        for i in 0..200 {
            let moves = if i % 2 == 0 { "" } else { " moves h2e2" };
            engine.send(&format!("position startpos{moves}"));
            engine.send(go);
            engine.send("stop");
        }
        engine.send("isready");
        engine.wait_within(PATIENCE, |l| l == "readyok");
        assert_eq!(engine.notes("bestmove"), 200, "{hello}:\n{}", engine.tail());
    }
}
