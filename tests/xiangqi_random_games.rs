//! Random games (seeded, so every run checks the same positions) that cross-check the move
//! generator against the square-by-square legality test, the incremental Zobrist key against
//! recomputation, FEN round trips, and make/unmake restoring the position.

use qilin::xiangqi::{GenType, Move, MoveList, Position, Square};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

fn all_squares() -> impl Iterator<Item = Square> {
    (0..90).map(Square::from_index_unchecked)
}

fn check_position(pos: &mut Position) {
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "incremental key at {}",
        pos.fen()
    );
    let reparsed = Position::from_fen(&pos.fen()).expect("own FEN parses");
    assert_eq!(reparsed.fen(), pos.fen());
    assert_eq!(reparsed.key(), pos.key());

    let mut pseudo = MoveList::new();
    pos.generate_pseudo(&mut pseudo, GenType::All);
    let mut legal = MoveList::new();
    pos.generate_legal(&mut legal);
    let mut captures = MoveList::new();
    pos.generate_pseudo(&mut captures, GenType::Captures);
    let mut quiets = MoveList::new();
    pos.generate_pseudo(&mut quiets, GenType::Quiets);
    assert_eq!(captures.len() + quiets.len(), pseudo.len());

    for from in all_squares() {
        for to in all_squares() {
            if from == to {
                continue;
            }
            let mv = Move::new(from, to);
            let is_pseudo = pos.is_pseudo_legal(mv);
            assert_eq!(
                is_pseudo,
                pseudo.contains(&mv),
                "pseudo {mv} at {}",
                pos.fen()
            );
            if is_pseudo {
                let is_capture = !pos.piece_at(to).is_empty();
                assert_eq!(captures.contains(&mv), is_capture, "capture split {mv}");
                // Legal exactly when making it leaves the own king safe and kings not facing.
                let mut after = pos.clone();
                after.make_move(mv);
                let safe = !after.is_king_attacked(pos.side_to_move());
                assert_eq!(safe, legal.contains(&mv), "legal {mv} at {}", pos.fen());
                assert_eq!(pos.is_legal(mv), safe, "is_legal {mv} at {}", pos.fen());
            } else {
                assert!(!legal.contains(&mv));
                assert!(!pos.is_legal(mv));
            }
        }
    }
}

fn random_games(seed: u64, games: usize, max_plies: usize, fens: &[&str]) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for g in 0..games {
        let fen = fens[g % fens.len()];
        let mut pos = Position::from_fen(fen).expect("test FEN");
        let mut played = Vec::new();
        for _ in 0..max_plies {
            check_position(&mut pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                assert!(pos.legal_moves().is_empty());
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let before = pos.fen();
            let key = pos.key();
            pos.make_move(mv);
            pos.unmake_move();
            assert_eq!(pos.fen(), before, "unmake {mv}");
            assert_eq!(pos.key(), key);
            pos.make_move(mv);
            played.push(before);
        }
        // Unwinding the whole game gives back every position in turn.
        while let Some(before) = played.pop() {
            pos.unmake_move();
            assert_eq!(pos.fen(), before);
        }
    }
}

#[test]
fn random_games_from_the_start() {
    random_games(1, 40, 160, &[qilin::xiangqi::START_FEN]);
}

#[test]
fn random_games_from_middlegames_and_endgames() {
    let text = include_str!("data/xiangqi/perft.txt");
    let fens: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('|').next())
        .collect();
    random_games(2, 60, 80, &fens);
}
