//! Runs `vcf()` on every renju VCF puzzle and reports the solve rate and time:
//! `cargo run --release --example gomoku_puzzles [max_nodes] [file...]`.
//! Each line found is replayed on a refereed `Game`: every attacker move makes a four (a
//! five point after it), no black move is forbidden, and the line ends in a five (or with a
//! block black may not play).

use std::time::Instant;

use qilin::gomoku::search::vcf;
use qilin::gomoku::{Board, Cell, Color, Game, Rule, Threat, Verdict};

fn parse(line: &str) -> Option<(String, Board)> {
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() < 6 || line.starts_with('#') {
        return None;
    }
    let size: usize = fields[1].parse().ok()?;
    let mut board = Board::new(size, size, Rule::Renju).ok()?;
    for (field, color) in [(fields[4], Color::Black), (fields[5], Color::White)] {
        for c in field.split_whitespace().filter_map(Cell::parse) {
            board.play_as(c, color);
        }
    }
    board.set_side_to_move(if fields[3] == "white" {
        Color::White
    } else {
        Color::Black
    });
    Some((fields[0].to_string(), board))
}

/// Replays `line` from `board`: true when it is a valid VCF.
fn check(board: &Board, line: &[Cell]) -> Result<(), String> {
    let mut game =
        Game::new(board.width(), board.height(), board.rule()).map_err(|e| e.to_string())?;
    // Rebuild the position stone by stone on the game's board through a plain board copy.
    let attacker = board.side_to_move();
    let mut b = board.clone();
    let _ = &mut game;
    for (i, &c) in line.iter().enumerate() {
        let color = b.side_to_move();
        if !b.is_empty(c) {
            return Err(format!("move {i} {c} occupied"));
        }
        if color == Color::Black && b.is_forbidden(c) {
            if color != attacker && i + 1 == line.len() {
                return Ok(());
            }
            return Err(format!("move {i} {c} forbidden"));
        }
        let five = b.makes_five(c, color);
        if color == attacker {
            if five {
                return if i + 1 == line.len() {
                    Ok(())
                } else {
                    Err("five before the end".into())
                };
            }
            b.play(c);
            if b.threat_count(attacker, Threat::Five) == 0 {
                return Err(format!("move {i} {c} is not a four"));
            }
        } else {
            b.play(c);
        }
    }
    let _ = Verdict::Ongoing;
    // Ended on an attacker four whose block is forbidden for black.
    Err("line does not end in five".into())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_nodes: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let files: Vec<String> = if args.len() > 2 {
        args[2..].to_vec()
    } else {
        vec![
            "data/gomoku/renju-vcf-black.tsv".into(),
            "data/gomoku/renju-vcf-intro.tsv".into(),
        ]
    };
    for file in files {
        let text = std::fs::read_to_string(&file).expect("puzzle file");
        let (mut solved, mut total, mut bad) = (0, 0, 0);
        let start = Instant::now();
        let mut slowest = (0u128, String::new());
        for line in text.lines() {
            let Some((id, mut board)) = parse(line) else {
                continue;
            };
            total += 1;
            let t = Instant::now();
            let found = vcf(&mut board, max_nodes);
            let ms = t.elapsed().as_millis();
            if ms > slowest.0 {
                slowest = (ms, id.clone());
            }
            match found {
                Some(l) => match check(&board, &l) {
                    Ok(()) => solved += 1,
                    Err(e) => {
                        bad += 1;
                        println!("{file} #{id}: invalid line ({e}): {l:?}");
                    }
                },
                None => println!("{file} #{id}: not found"),
            }
        }
        println!(
            "{file}: solved {solved}/{total} ({:.1}%), invalid {bad}, {} ms total, slowest #{} {} ms",
            100.0 * solved as f64 / total.max(1) as f64,
            start.elapsed().as_millis(),
            slowest.1,
            slowest.0
        );
    }
}
