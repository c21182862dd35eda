//! Perft counts for every position and depth of tests/data/xiangqi/perft.txt (copied from the
//! project's shared reference data; its header names the public source).

use qilin::xiangqi::{Position, perft::perft};

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/xiangqi/perft.txt");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('|');
        let fen = fields.next().expect("fen field").to_string();
        let counts = fields
            .map(|f| {
                let (d, n) = f.split_once(':').expect("depth:count");
                (d.parse().expect("depth"), n.parse().expect("count"))
            })
            .collect();
        out.push(Case { fen, counts });
    }
    assert_eq!(out.len(), 49, "the data file holds 49 positions");
    out
}

/// Checks every case whose index is `part` modulo `parts`, at depths within `depths`.
fn check(part: usize, parts: usize, depths: std::ops::RangeInclusive<u32>) {
    for (i, case) in cases().iter().enumerate() {
        if i % parts != part {
            continue;
        }
        let mut pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in &case.counts {
            if depths.contains(&depth) {
                assert_eq!(
                    perft(&mut pos, depth),
                    expected,
                    "{} depth {depth}",
                    case.fen
                );
            }
        }
        assert_eq!(
            pos.fen(),
            Position::from_fen(&case.fen).unwrap().fen(),
            "perft restores the position"
        );
    }
}

#[test]
fn perft_depths_1_to_4() {
    check(0, 1, 1..=4);
}

#[test]
fn perft_depth_5_part_1() {
    check(0, 4, 5..=5);
}

#[test]
fn perft_depth_5_part_2() {
    check(1, 4, 5..=5);
}

#[test]
fn perft_depth_5_part_3() {
    check(2, 4, 5..=5);
}

#[test]
fn perft_depth_5_part_4() {
    check(3, 4, 5..=5);
}
