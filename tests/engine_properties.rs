//! Property tests of the whole engine loop (issue 11): random sequences of legal and illegal
//! commands, in each protocol, against a reference kept by the test. Whatever the engine is
//! sent, every bad command is answered with an error and leaves the position as it was, and
//! afterwards the engine's position equals the reference replay and `isready` / `ABOUT` still
//! answer. Seeded, so a failure names the seed that reproduces it.

mod common;

use common::Engine;

use qilin::xiangqi::{Move, Position};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A random game of up to `plies` plies from the start, as its moves.
fn random_game(rng: &mut StdRng, plies: usize) -> Vec<Move> {
    let mut position = Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = position.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal.iter().copied().nth(rng.random_range(0..legal.len()));
        let Some(mv) = mv else { break };
        position.make_move(mv);
        moves.push(mv);
    }
    moves
}

fn position_after(moves: &[Move]) -> Position {
    let mut position = Position::startpos();
    for &mv in moves {
        position.make_move(mv);
    }
    position
}

fn move_list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The UCI or UCCI property: `steps` random commands, then the engine's FEN (`d`) must be the
/// reference's.
fn xiangqi_property(hello: &str, seed: u64, steps: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::start_with(&[]);
    engine.ask(hello, |l| l.ends_with("ok"));
    let error_prefix = "info string";
    let mut reference = Position::startpos();
    for _ in 0..steps {
        let plies = rng.random_range(0..40);
        let game = random_game(&mut rng, plies);
        let cut = rng.random_range(0..=game.len());
        match rng.random_range(0..9) {
            // A legal position from the start position.
            0 | 1 => {
                engine.send(&format!("position startpos moves {}", move_list(&game)));
                reference = position_after(&game);
            }
            // A legal position from a FEN, with moves after it.
            2 => {
                let root = position_after(&game[..cut]);
                engine.send(&format!(
                    "position fen {} moves {}",
                    root.fen(),
                    move_list(&game[cut..])
                ));
                reference = position_after(&game);
            }
            // An illegal move at the end of a legal list: refused, position kept.
            3 => {
                let mut text = move_list(&game[..cut]);
                text.push_str(if rng.random_range(0..2) == 0 {
                    " a0a0"
                } else {
                    " e9e8 e0e1 e9e8"
                });
                let before = engine.seen.len();
                engine.send(&format!("position startpos moves {}", text.trim_start()));
                engine.ask("isready", |l| l == "readyok");
                let refused = engine.seen[before..]
                    .iter()
                    .any(|l| l.starts_with(error_prefix) && l.contains("error"));
                // "e9e8 e0e1 e9e8" can be legal after some lists; then it is the position.
                if !refused {
                    let mut replay = position_after(&game[..cut]);
                    for word in text.split_whitespace().skip(cut) {
                        let mv = Move::parse(word).expect("a move");
                        assert!(replay.is_legal(mv), "accepted an illegal {word}");
                        replay.make_move(mv);
                    }
                    reference = replay;
                }
            }
            // A bad FEN: refused, position kept.
            4 => engine.send("position fen rnbakabnr/9/1c5c1 w - - 0 1"),
            // Garbage and bad options.
            5 => {
                let garbage = [
                    "go depth x",
                    "setoption name Hash value -5",
                    "position",
                    "xyzzy \u{1b}[2J",
                    "go movetime 1e3",
                    "banmoves zz",
                    "position fen",
                ];
                engine.send(garbage[rng.random_range(0..garbage.len())]);
            }
            // A short search: answered with a legal move, position unchanged.
            6 => {
                let line = engine.ask("go depth 2", |l| {
                    l.starts_with("bestmove") || l == "nobestmove"
                });
                if let Some(word) = line.split_whitespace().nth(1)
                    && word != "(none)"
                {
                    let mv = Move::parse(word).expect("a move");
                    assert!(reference.is_legal(mv), "seed {seed}: {line}");
                }
            }
            7 => {
                engine.ask("isready", |l| l == "readyok");
            }
            _ => engine.send(""),
        }
    }
    let fen = engine.ask("d", |l| l.starts_with("FEN: "));
    assert_eq!(
        fen,
        format!("FEN: {}", reference.fen()),
        "{hello} seed {seed}:\n{}",
        engine.tail()
    );
    engine.ask("isready", |l| l == "readyok");
}

#[test]
fn uci_random_dialogues_keep_the_reference_position() {
    for seed in 0..12 {
        xiangqi_property("uci", seed, 40);
    }
}

#[test]
fn ucci_random_dialogues_keep_the_reference_position() {
    for seed in 100..112 {
        xiangqi_property("ucci", seed, 40);
    }
}

const SIZE: usize = 15;

/// A Gomoku reference board: 0 empty, 1 and 2 the two colours.
struct Board([[u8; SIZE]; SIZE]);

impl Board {
    fn has_five(&self) -> bool {
        for y in 0..SIZE {
            for x in 0..SIZE {
                let c = self.0[y][x];
                if c == 0 {
                    continue;
                }
                for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
                    let run = (0..5)
                        .take_while(|&k| {
                            let (nx, ny) = (x as i32 + dx * k, y as i32 + dy * k);
                            (0..SIZE as i32).contains(&nx)
                                && (0..SIZE as i32).contains(&ny)
                                && self.0[ny as usize][nx as usize] == c
                        })
                        .count();
                    if run == 5 {
                        return true;
                    }
                }
            }
        }
        false
    }
}

fn parse_point(line: &str) -> Option<(usize, usize)> {
    let (x, y) = line.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// The Piskvork property: random TURN/PLAY/TAKEBACK/BOARD and bad commands; afterwards
/// TAKEBACK answers OK exactly on the reference's stones.
fn piskvork_property(seed: u64, steps: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::start_with(&[]);
    engine.ask(&format!("START {SIZE}"), |l| l == "OK");
    engine.send("INFO timeout_turn 40");
    let mut board = Board([[0; SIZE]; SIZE]);
    let mut stones = 0;
    let is_move = |l: &str| parse_point(l).is_some();
    for _ in 0..steps {
        if board.has_five() || stones > 150 {
            engine.ask("RESTART", |l| l == "OK");
            board = Board([[0; SIZE]; SIZE]);
            stones = 0;
        }
        let (x, y) = (rng.random_range(0..SIZE), rng.random_range(0..SIZE));
        let free = board.0[y][x] == 0;
        match rng.random_range(0..8) {
            0 | 1 => {
                if free {
                    let answer = engine.ask(&format!("TURN {x},{y}"), is_move);
                    board.0[y][x] = 2;
                    let (ax, ay) = parse_point(&answer).expect("a point");
                    assert_eq!(board.0[ay][ax], 0, "seed {seed}: {answer} is taken");
                    board.0[ay][ax] = 1;
                    stones += 2;
                } else {
                    engine.ask(&format!("TURN {x},{y}"), |l| l.starts_with("ERROR"));
                }
            }
            2 => {
                let answer = engine.ask(&format!("PLAY {x},{y}"), |l| {
                    is_move(l) || l.starts_with("ERROR")
                });
                assert_eq!(answer.starts_with("ERROR"), !free, "seed {seed}: {answer}");
                if free {
                    board.0[y][x] = 1;
                    stones += 1;
                }
            }
            3 => {
                let answer = engine.ask(&format!("TAKEBACK {x},{y}"), |l| {
                    l == "OK" || l.starts_with("ERROR")
                });
                assert_eq!(answer == "OK", !free, "seed {seed}: {answer}");
                if !free {
                    board.0[y][x] = 0;
                    stones -= 1;
                }
            }
            4 => {
                let bad = [
                    format!("TURN {},{y}", SIZE + x),
                    "TURN 3".to_string(),
                    "TURN -1,4".to_string(),
                    "TAKEBACK x,y".to_string(),
                    "FROB 1,2".to_string(),
                    format!("PLAY {x},{}", 99 + y),
                ];
                let line = &bad[rng.random_range(0..bad.len())];
                engine.ask(line, |l| l.starts_with("ERROR") || l.starts_with("UNKNOWN"));
            }
            5 => {
                // A block with a stone given twice: refused, the board kept.
                engine.send("BOARD");
                engine.send(&format!("{x},{y},1"));
                engine.send(&format!("{x},{y},2"));
                engine.ask("DONE", |l| l.starts_with("ERROR"));
            }
            // INFO has no answer; a bad value is noted with the next move's messages.
            6 => engine.send("INFO timeout_turn abc"),
            _ => {
                engine.ask("ABOUT", |l| l.starts_with("name="));
            }
        }
    }
    for y in 0..SIZE {
        for x in 0..SIZE {
            let answer = engine.ask(&format!("TAKEBACK {x},{y}"), |l| {
                l == "OK" || l.starts_with("ERROR")
            });
            assert_eq!(
                answer == "OK",
                board.0[y][x] != 0,
                "seed {seed}: {x},{y}:\n{}",
                engine.tail()
            );
        }
    }
    engine.ask("ABOUT", |l| l.starts_with("name="));
}

#[test]
fn piskvork_random_dialogues_keep_the_reference_board() {
    for seed in 0..6 {
        piskvork_property(seed, 60);
    }
}
