//! `qilin match --shard I/N` and `qilin match-merge`: shards of a match played apart and
//! merged give the games and the table of one run; records of different matches are refused;
//! missing games are named with their shards. Stand-in engines (`qilin test-engine`) draw each
//! move from their seed and the position, so a game is the same whichever run plays it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use qilin::tournament::json::Json;

const QILIN: &str = env!("CARGO_BIN_EXE_qilin");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qilin-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn qilin(args: &[String]) -> Output {
    Command::new(QILIN).args(args).output().unwrap()
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// A match of three test engines (three pairs, four games each) with seed `seed`; `game`
/// chooses Xiangqi or Gomoku settings. Moves come at once, so no time limit is ever near.
fn match_args(seed: u64, gomoku: bool) -> Vec<String> {
    let mut args = vec!["match".to_string()];
    for (name, engine_seed) in [("a", 1), ("b", 2), ("c", 3)] {
        args.extend(words(&format!(
            "--engine name={name} cmd={QILIN} arg=test-engine arg=--seed arg={engine_seed}"
        )));
        if gomoku {
            args.extend(words("arg=--proto arg=piskvork"));
        }
    }
    let rules = if gomoku {
        "--game gomoku --size 15 --rule 0 --turn-time 5000"
    } else {
        "--movetime 5000 --maxplies 80"
    };
    args.extend(words(&format!("{rules} --games 4 --seed {seed}")));
    args
}

fn path_arg(flag: &str, path: &Path) -> Vec<String> {
    vec![flag.to_string(), path.display().to_string()]
}

/// The records of a results file by game number.
fn records(path: &Path) -> BTreeMap<usize, Json> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|line| {
            let record = Json::parse(line).unwrap();
            let number = record.get("game").and_then(Json::as_usize).unwrap();
            (number, record)
        })
        .collect()
}

/// What must be equal game for game: everything but thinking times and the shard.
fn game_of(record: &Json) -> Vec<(String, Json)> {
    let Json::Object(members) = record else {
        panic!("a record is not an object")
    };
    members
        .iter()
        .filter(|(key, _)| !key.ends_with("_time_ms") && key != "shard")
        .cloned()
        .collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Plays the whole match in one run and as three shards; returns the directory.
fn play_whole_and_shards(name: &str, gomoku: bool) -> PathBuf {
    let dir = scratch(name);
    let (collection, flag) = if gomoku {
        ("sgf", "--sgf")
    } else {
        ("pgn", "--pgn")
    };
    let mut whole = match_args(7, gomoku);
    whole.extend(words("--concurrency 2"));
    whole.extend(path_arg("--results", &dir.join("one.jsonl")));
    whole.extend(path_arg(flag, &dir.join(format!("one.{collection}"))));
    let output = qilin(&whole);
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::write(dir.join("one.txt"), &output.stdout).unwrap();
    for shard in 0..3 {
        let mut args = match_args(7, gomoku);
        args.extend(words(&format!("--shard {shard}/3")));
        args.extend(path_arg("--results", &dir.join(format!("s{shard}.jsonl"))));
        args.extend(path_arg(flag, &dir.join(format!("s{shard}.{collection}"))));
        if gomoku {
            args.extend(path_arg("--psq", &dir.join(format!("psq{shard}"))));
        }
        let output = qilin(&args);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    dir
}

fn merge(dir: &Path, inputs: &[&str], extra: &[String]) -> Output {
    let mut args = vec!["match-merge".to_string()];
    args.extend(inputs.iter().map(|i| dir.join(i).display().to_string()));
    args.extend(extra.iter().cloned());
    qilin(&args)
}

#[test]
fn three_shards_merged_equal_one_run_game_for_game() {
    let dir = play_whole_and_shards("xiangqi", false);
    // Each shard played a disjoint part: whole pairs of games, all stamped with their shard.
    let mut seen = BTreeMap::new();
    for shard in 0..3 {
        for (number, record) in records(&dir.join(format!("s{shard}.jsonl"))) {
            assert_eq!(
                record.get("shard").and_then(Json::as_str),
                Some(format!("{shard}/3").as_str())
            );
            assert!(seen.insert(number, shard).is_none(), "game {number} twice");
        }
    }
    assert_eq!(
        seen.keys().copied().collect::<Vec<_>>(),
        (1..=12).collect::<Vec<_>>()
    );
    assert!(
        seen.values()
            .all(|&s| seen.values().filter(|&&t| t == s).count() == 4)
    );
    let output = merge(
        &dir,
        &[
            "s2.jsonl", "s0.jsonl", "s1.jsonl", "s0.pgn", "s1.pgn", "s2.pgn",
        ],
        &[
            path_arg("--results", &dir.join("merged.jsonl")),
            path_arg("--pgn", &dir.join("merged.pgn")),
        ]
        .concat(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("all 12 games are here"),
        "{}",
        stderr(&output)
    );
    // The same table as the single run, and the same games.
    let table = std::fs::read_to_string(dir.join("one.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout), table);
    assert!(table.starts_with("Games played: 12\n"), "{table}");
    let one = records(&dir.join("one.jsonl"));
    let merged = records(&dir.join("merged.jsonl"));
    assert_eq!(one.len(), 12);
    for (number, record) in &one {
        assert_eq!(game_of(record), game_of(&merged[number]), "game {number}");
    }
    // The merged results are in game order; the merged PGN holds every game once, in order.
    let text = std::fs::read_to_string(dir.join("merged.jsonl")).unwrap();
    let order: Vec<usize> = text
        .lines()
        .map(|l| {
            Json::parse(l)
                .unwrap()
                .get("game")
                .and_then(Json::as_usize)
                .unwrap()
        })
        .collect();
    assert_eq!(order, (1..=12).collect::<Vec<_>>());
    let pgn = std::fs::read_to_string(dir.join("merged.pgn")).unwrap();
    let rounds: Vec<String> = pgn
        .lines()
        .filter(|l| l.starts_with("[Round "))
        .map(String::from)
        .collect();
    let expected: Vec<String> = (1..=12).map(|n| format!("[Round \"1.{n}\"]")).collect();
    assert_eq!(rounds, expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gomoku_shards_merge_with_their_sgf_and_psq() {
    let dir = play_whole_and_shards("gomoku", true);
    let output = merge(
        &dir,
        &[
            "s0.jsonl", "s1.jsonl", "s2.jsonl", "s0.sgf", "s1.sgf", "s2.sgf", "psq0", "psq1",
            "psq2",
        ],
        &[
            path_arg("--results", &dir.join("merged.jsonl")),
            path_arg("--sgf", &dir.join("merged.sgf")),
            path_arg("--psq", &dir.join("psq")),
        ]
        .concat(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let table = std::fs::read_to_string(dir.join("one.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout), table);
    let one = records(&dir.join("one.jsonl"));
    let merged = records(&dir.join("merged.jsonl"));
    for (number, record) in &one {
        assert_eq!(game_of(record), game_of(&merged[number]), "game {number}");
    }
    let sgf = std::fs::read_to_string(dir.join("merged.sgf")).unwrap();
    assert_eq!(sgf.matches("(;GM[4]").count(), 12);
    for number in 1..=12 {
        assert!(
            dir.join("psq")
                .join(format!("game-{number:04}.psq"))
                .is_file()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_merge_of_different_matches_is_refused_naming_the_difference() {
    let dir = scratch("mixed");
    for (shard, seed) in [(0, 7), (1, 8)] {
        let mut args = match_args(seed, false);
        args.extend(words(&format!("--shard {shard}/2")));
        args.extend(path_arg("--results", &dir.join(format!("s{shard}.jsonl"))));
        assert!(qilin(&args).status.success());
    }
    let output = merge(&dir, &["s0.jsonl", "s1.jsonl"], &[]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("a record of another match"), "{message}");
    assert!(message.contains("seed: 7 vs 8"), "{message}");
    assert!(output.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_shards_are_named_and_a_later_merge_completes() {
    let dir = scratch("missing");
    for shard in [0, 2] {
        let mut args = match_args(7, false);
        args.extend(words(&format!("--shard {shard}/3")));
        args.extend(path_arg("--results", &dir.join(format!("s{shard}.jsonl"))));
        assert!(qilin(&args).status.success());
    }
    // A shard cut off in the middle of a record: the partial line is skipped and said so.
    let mut cut = std::fs::read_to_string(dir.join("s2.jsonl")).unwrap();
    let last_start = cut.trim_end().rfind('\n').unwrap() + 1;
    cut.truncate(last_start + 40);
    std::fs::write(dir.join("s2.jsonl"), &cut).unwrap();
    let output = merge(&dir, &["s0.jsonl", "s2.jsonl"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains("not a whole record, skipped"), "{message}");
    assert!(message.contains("5 of 12 games missing"), "{message}");
    assert!(message.contains("shard 1/3: 4 games missing"), "{message}");
    assert!(message.contains("shard 2/3: 1 games missing"), "{message}");
    let table = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(table.starts_with("Games played: 7\n"), "{table}");
    // The missing shard arrives (and the cut one is played again): the merge is complete.
    for shard in [1, 2] {
        let mut args = match_args(7, false);
        args.extend(words(&format!("--shard {shard}/3")));
        args.extend(path_arg("--results", &dir.join(format!("s{shard}.jsonl"))));
        assert!(qilin(&args).status.success());
    }
    let output = merge(&dir, &["s0.jsonl", "s1.jsonl", "s2.jsonl"], &[]);
    assert!(
        stderr(&output).contains("all 12 games are here"),
        "{}",
        stderr(&output)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
