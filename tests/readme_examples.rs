//! The UCI and UCCI example dialogues of README.md, read from README.md itself, run against
//! the built binary: every `>` line is sent, and every `<` line shown must come, in order,
//! the very next line unless a `< ...` line before it allows others in between. A fixed-depth
//! one-thread search is deterministic, so only the timings (`nps`, `time`) are not compared.

mod common;

use std::time::Duration;

use common::Engine;

/// The longest wait for one line.
const PATIENCE: Duration = Duration::from_secs(10);

/// `line` with the number after each `nps` and `time` word replaced by `#`.
fn without_timings(line: &str) -> String {
    let mut out = Vec::new();
    let mut timing = false;
    for word in line.split_whitespace() {
        out.push(if timing { "#" } else { word });
        timing = word == "nps" || word == "time";
    }
    out.join(" ")
}

/// The README's fenced blocks whose first line is `first`.
fn blocks_starting_with(readme: &str, first: &str) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some(Vec::new()),
            }
        } else if let Some(block) = current.as_mut() {
            block.push(line.trim_end().to_string());
        }
    }
    blocks.retain(|b| b.first().is_some_and(|l| l == first));
    blocks
}

/// Plays one README dialogue and checks the lines it shows.
fn play(block: &[String]) {
    let mut engine = Engine::start_with(&[]);
    let mut skip = false;
    for line in block {
        if let Some(sent) = line.strip_prefix("> ") {
            engine.send(sent);
        } else if line == "< ..." {
            skip = true;
        } else if let Some(shown) = line.strip_prefix("< ") {
            let wanted = without_timings(shown);
            let got = if skip {
                engine.wait_within(PATIENCE, |l| without_timings(l) == wanted)
            } else {
                engine.wait_within(PATIENCE, |_| true)
            };
            assert_eq!(
                without_timings(&got),
                wanted,
                "README line {shown:?}; the dialogue so far:\n{}",
                engine.tail()
            );
            skip = false;
        } else {
            panic!("README dialogue line {line:?} is neither '> ...' nor '< ...'");
        }
    }
}

#[test]
fn readme_xiangqi_dialogues_match_the_binary() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).expect("README.md is readable");
    for hello in ["> uci", "> ucci"] {
        let blocks = blocks_starting_with(&readme, hello);
        assert_eq!(blocks.len(), 1, "one README dialogue starts with {hello:?}");
        play(&blocks[0]);
    }
}

#[test]
fn timings_are_masked_and_nothing_else() {
    assert_eq!(
        without_timings("info depth 6 nodes 3321 nps 830250 hashfull 0 time 4 pv b7e7"),
        "info depth 6 nodes 3321 nps # hashfull 0 time # pv b7e7"
    );
    assert_eq!(
        without_timings("info time 15 nodes 79"),
        "info time # nodes 79"
    );
}
