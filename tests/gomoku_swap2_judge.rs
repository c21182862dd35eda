//! Swap2 decisions judged by a deeper search (issue 32 item 5): whatever the engine decides
//! at three stones (swap, stay white with a move, or put two more) and at five stones (swap
//! or take white with a move), a search ten times as long must not find that the decision
//! handed the opponent a clearly better side.
//!
//! The stages run exactly as the Piskvork session runs them (`Stage::position`, a search,
//! `Stage::decide`, again on `SearchAgain`), with a node limit per search so the test is
//! reproducible on a loaded machine.

use qilin::engine::{Limits, Score, SearchControl};
use qilin::gomoku::search::{SearchParams, Searcher};
use qilin::gomoku::swap2::{Decision, MARGIN, Stage};
use qilin::gomoku::{Board, Cell, Color, Rule};

/// Nodes for each of the engine's Swap2 searches.
const DECIDE_NODES: u64 = 20_000;
/// Nodes for the judge's search.
const JUDGE_NODES: u64 = 200_000;
/// A side is clearly better when the judge gives it this much or more (centipawn units of
/// the evaluation), or a mate.
const CLEAR: i32 = 3 * MARGIN;

fn search(board: &Board, nodes: u64) -> (Option<Cell>, Score) {
    let mut searcher = Searcher::new(16, 1);
    let control = SearchControl::new(&Limits {
        nodes: Some(nodes),
        ..Limits::default()
    });
    let out = searcher.search(board, &SearchParams::default(), &control, &mut |_| {});
    (out.best, out.score)
}

/// The judge's score for the side to move of `board`, mates as ±100,000.
fn judge(board: &Board) -> i32 {
    match search(board, JUDGE_NODES).1 {
        Score::Cp(cp) => cp,
        Score::MatePlies(n) if n > 0 => 100_000,
        Score::MatePlies(_) => -100_000,
    }
}

/// Runs a Swap2 turn from `board` (3 or 5 stones) to its final decision; returns the
/// decision and the board with the stones played on the way (the fourth stone).
fn run_turn(mut board: Board) -> (Decision, Board) {
    let mut stage = Stage::for_stones(&board, board.stone_count()).expect("3 or 5 stones");
    for _ in 0..20 {
        let searched = stage.position(board.clone());
        let (best, score) = search(&searched, DECIDE_NODES);
        match stage.decide(&board, best, score, false) {
            Decision::SearchAgain { play, next } => {
                if let Some(cell) = play {
                    board.play(cell);
                }
                stage = next;
            }
            decision => return (decision, board),
        }
    }
    panic!("the stages did not end");
}

fn board_of(moves: &[(usize, usize)]) -> Board {
    let mut board = Board::new(15, 15, Rule::Freestyle).expect("size");
    for &(x, y) in moves {
        board.play(Cell::from_xy(x, y).expect("on the board"));
    }
    board
}

/// What the judge says about the side the engine gave the opponent (the opponent's score,
/// or for a handed-over choice the better side's), with a description for the message.
fn opponents_best(decision: &Decision, board: &Board) -> (i32, String) {
    match decision {
        // The engine takes black; the opponent is white, to move.
        Decision::Swap => (judge(board), "after SWAP, white to move".to_string()),
        Decision::Stones { play, announce } => {
            let mut after = board.clone();
            for &cell in play {
                after.play(cell);
            }
            if announce.len() == 2 {
                // Put two: the opponent picks the better colour.
                let white = judge(&after);
                (white.abs(), format!("after {announce:?}, |white's score|"))
            } else {
                // The engine stays white with a move: the opponent is black, to move.
                assert_eq!(after.side_to_move(), Color::Black);
                (judge(&after), format!("after {announce:?}, black to move"))
            }
        }
        other => panic!("no Swap2 answer: {other:?}"),
    }
}

#[test]
fn swap2_decisions_do_not_hand_over_a_clearly_better_side() {
    // Three-stone openings (black, white, black): the engine's own candidate shapes, a few
    // others near balance, and two that favour black (where swapping is right).
    let three: &[[(usize, usize); 3]] = &[
        [(7, 7), (8, 7), (8, 10)],
        [(7, 7), (8, 8), (7, 10)],
        [(7, 7), (8, 7), (10, 7)],
        [(7, 7), (7, 8), (9, 5)],
        [(7, 7), (6, 8), (9, 5)],
        [(7, 7), (9, 9), (8, 6)],
        [(7, 7), (3, 3), (8, 8)],
        [(7, 7), (12, 2), (7, 8)],
    ];
    // Five-stone positions (black, white, black, white, black).
    let five: &[[(usize, usize); 5]] = &[
        [(7, 7), (8, 7), (8, 10), (7, 8), (9, 9)],
        [(7, 7), (8, 8), (7, 10), (6, 9), (8, 9)],
        [(7, 7), (8, 7), (10, 7), (9, 8), (9, 6)],
        [(7, 7), (2, 2), (8, 8), (12, 12), (6, 6)],
    ];
    let mut checked = 0;
    let mut failures = Vec::new();
    let positions = three
        .iter()
        .map(|m| board_of(m))
        .chain(five.iter().map(|m| board_of(m)));
    for board in positions {
        let (decision, after) = run_turn(board.clone());
        let (score, what) = opponents_best(&decision, &after);
        checked += 1;
        if score >= CLEAR {
            failures.push(format!("{board:?}: {decision:?}, judge {score} {what}"));
        }
    }
    assert_eq!(checked, three.len() + five.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
