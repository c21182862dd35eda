//! Gomoku rules: five detection per rule, renju forbidden points (against an independent,
//! slow implementation that scans lines with stones placed and removed), and the incremental
//! pattern state against a recount over random make/undo sequences.

use qilin::gomoku::{Board, Cell, Color, EndReason, Forbidden, Game, Rule, Stone, Threat, Verdict};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A plain grid with the slow renju check: no tables, no incremental state.
struct Grid {
    size: i32,
    cells: Vec<u8>,
}

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

impl Grid {
    fn from_board(board: &Board) -> Grid {
        let size = board.width() as i32;
        let mut cells = vec![0u8; (size * size) as usize];
        for (cell, color) in board.moves() {
            cells[cell.y() * size as usize + cell.x()] = color.index() as u8 + 1;
        }
        Grid { size, cells }
    }

    fn at(&self, x: i32, y: i32) -> u8 {
        if x < 0 || y < 0 || x >= self.size || y >= self.size {
            3
        } else {
            self.cells[(y * self.size + x) as usize]
        }
    }

    fn set(&mut self, x: i32, y: i32, v: u8) {
        self.cells[(y * self.size + x) as usize] = v;
    }

    /// The black run through (x, y) on direction (dx, dy): first and last step offsets.
    fn run(&self, x: i32, y: i32, (dx, dy): (i32, i32)) -> (i32, i32) {
        let mut lo = 0;
        while self.at(x + (lo - 1) * dx, y + (lo - 1) * dy) == 1 {
            lo -= 1;
        }
        let mut hi = 0;
        while self.at(x + (hi + 1) * dx, y + (hi + 1) * dy) == 1 {
            hi += 1;
        }
        (lo, hi)
    }

    /// Distinct fours through the black stone at (x, y) on a direction: the sets of stones
    /// that one more black stone turns into exactly five.
    fn fours(&mut self, x: i32, y: i32, dir: (i32, i32)) -> usize {
        let mut sets: Vec<Vec<i32>> = Vec::new();
        for k in -4..=4 {
            let (ex, ey) = (x + k * dir.0, y + k * dir.1);
            if k == 0 || self.at(ex, ey) != 0 {
                continue;
            }
            self.set(ex, ey, 1);
            let (lo, hi) = self.run(ex, ey, dir);
            // The five must contain (x, y): offset of (x, y) from e is -k.
            if hi - lo + 1 == 5 && lo <= -k && -k <= hi {
                let set: Vec<i32> = (lo..=hi).filter(|&i| i != 0).map(|i| i + k).collect();
                if !sets.contains(&set) {
                    sets.push(set);
                }
            }
            self.set(ex, ey, 0);
        }
        sets.len()
    }

    /// With black on (x, y): does a point on the direction make a straight four through it
    /// that is not itself forbidden?
    fn real_three(&mut self, x: i32, y: i32, dir: (i32, i32)) -> bool {
        for k in -4..=4 {
            let (ex, ey) = (x + k * dir.0, y + k * dir.1);
            if k == 0 || self.at(ex, ey) != 0 {
                continue;
            }
            self.set(ex, ey, 1);
            let (lo, hi) = self.run(ex, ey, dir);
            let contains = lo <= -k && -k <= hi;
            let straight = hi - lo + 1 == 4
                && contains
                && [(lo - 1, lo - 2), (hi + 1, hi + 2)]
                    .iter()
                    .all(|&(end, beyond)| {
                        self.at(ex + end * dir.0, ey + end * dir.1) == 0
                            && self.at(ex + beyond * dir.0, ey + beyond * dir.1) != 1
                    });
            self.set(ex, ey, 0);
            if straight && self.forbidden(ex, ey).is_none() {
                return true;
            }
        }
        false
    }

    fn forbidden(&mut self, x: i32, y: i32) -> Option<Forbidden> {
        self.set(x, y, 1);
        let result = self.forbidden_placed(x, y);
        self.set(x, y, 0);
        result
    }

    fn forbidden_placed(&mut self, x: i32, y: i32) -> Option<Forbidden> {
        let runs: Vec<i32> = DIRS
            .iter()
            .map(|&d| {
                let (lo, hi) = self.run(x, y, d);
                hi - lo + 1
            })
            .collect();
        if runs.contains(&5) {
            return None;
        }
        if runs.iter().any(|&r| r >= 6) {
            return Some(Forbidden::Overline);
        }
        let fours: Vec<usize> = DIRS.iter().map(|&d| self.fours(x, y, d)).collect();
        if fours.iter().sum::<usize>() >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        let mut threes = 0;
        for (i, &d) in DIRS.iter().enumerate() {
            if fours[i] == 0 && self.real_three(x, y, d) {
                threes += 1;
            }
        }
        (threes >= 2).then_some(Forbidden::DoubleThree)
    }
}

fn cell(x: usize, y: usize) -> Cell {
    Cell::from_xy(x, y).unwrap()
}

/// A renju board with the given black and white stones ("x,y x,y ..."), black to move.
fn renju_position(black: &str, white: &str) -> Board {
    let mut board = Board::new(15, 15, Rule::Renju).unwrap();
    board.set_self_check(true);
    for (stones, color) in [(black, Color::Black), (white, Color::White)] {
        for text in stones.split_whitespace() {
            board.play_as(Cell::parse(text).unwrap(), color);
        }
    }
    board.set_side_to_move(Color::Black);
    board
}

fn kind_at(board: &Board, x: usize, y: usize) -> Option<Forbidden> {
    let c = cell(x, y);
    let kind = board.forbidden_kind(c);
    assert_eq!(
        board.is_forbidden(c),
        kind.is_some(),
        "classes disagree at {c}"
    );
    assert_eq!(
        Grid::from_board(board).forbidden(x as i32, y as i32),
        kind,
        "slow check disagrees at {c}"
    );
    kind
}

#[test]
fn overline_is_forbidden_and_exact_five_wins() {
    // Black 3,7 4,7 6,7 7,7 8,7: 5,7 makes six.
    let board = renju_position("3,7 4,7 6,7 7,7 8,7", "0,0 0,2 0,4 0,6 0,8");
    assert_eq!(kind_at(&board, 5, 7), Some(Forbidden::Overline));
    // Black 3,7 4,7 6,7 7,7: 5,7 makes exactly five.
    let board = renju_position("3,7 4,7 6,7 7,7", "0,0 0,2 0,4 0,6");
    assert_eq!(kind_at(&board, 5, 7), None);
    assert_eq!(board.threat(cell(5, 7), Color::Black), Threat::Five);
}

#[test]
fn double_fours_on_two_lines_and_on_one_line() {
    // Two lines: a horizontal and a vertical closed four through 7,7.
    let board = renju_position("4,7 5,7 6,7 7,4 7,5 7,6", "3,7 7,3 0,0 0,2 0,4 0,6");
    assert_eq!(kind_at(&board, 7, 7), Some(Forbidden::DoubleFour));
    // One line: X.X?X.X with the middle played.
    let board = renju_position("3,7 5,7 7,7 9,7", "0,0 0,2 0,4 0,6");
    assert_eq!(kind_at(&board, 6, 7), Some(Forbidden::DoubleFour));
    // Four-four that also makes exactly five elsewhere wins.
    let board = renju_position(
        "4,7 5,7 6,7 7,4 7,5 7,6 3,3 4,4 5,5 6,6",
        "3,7 7,3 0,0 0,2 0,4 0,6 0,8 0,10 0,12 0,14",
    );
    assert_eq!(kind_at(&board, 7, 7), None);
}

#[test]
fn double_three_and_false_double_three() {
    // Open threes on a row and a column through 7,7.
    let board = renju_position("5,7 6,7 7,5 7,6", "0,0 0,2 0,4 0,6");
    assert_eq!(kind_at(&board, 7, 7), Some(Forbidden::DoubleThree));
    // A broken three counts too.
    let board = renju_position("4,7 6,7 7,5 7,6", "0,0 0,2 0,4 0,6");
    assert_eq!(kind_at(&board, 7, 7), Some(Forbidden::DoubleThree));
    // One of the threes is blocked at one end: not open, no double three.
    let board = renju_position("5,7 6,7 7,5 7,6", "4,7 0,2 0,4 0,6");
    assert_eq!(kind_at(&board, 7, 7), None);
    // The horizontal three at 8,7 can only become a straight four next to black 3,7 (six).
    let board = renju_position("5,7 6,7 7,5 7,6 3,7", "9,7 0,2 0,4 0,6 0,8");
    assert_eq!(kind_at(&board, 7, 7), None);
}

#[test]
fn recursive_double_three() {
    // At 7,7 black gets a row three (5,7 6,7) and a column three (7,5 7,6). White 7,9 leaves
    // the column one straight-four point, 7,4.
    let base = "5,7 6,7 7,5 7,6";
    let board = renju_position(base, "7,9 0,2 0,4 0,6");
    assert_eq!(kind_at(&board, 7, 7), Some(Forbidden::DoubleThree));
    // Black 5,4 6,4 (row) and 8,3 9,2 (anti-diagonal) make 7,4 itself a double-three point,
    // so the column three through 7,7 is false and 7,7 may be played.
    let crowded = format!("{base} 5,4 6,4 8,3 9,2");
    let board = renju_position(&crowded, "7,9 0,2 0,4 0,6 0,8 0,10 0,12 0,14");
    assert_eq!(kind_at(&board, 7, 4), Some(Forbidden::DoubleThree));
    assert_eq!(kind_at(&board, 7, 7), None, "false double three");
    // Without white 7,9 the column has a second straight-four point, 7,8, which is free.
    let board = renju_position(&crowded, "0,0 0,2 0,4 0,6 0,8 0,10 0,12 0,14");
    assert_eq!(kind_at(&board, 7, 7), Some(Forbidden::DoubleThree));
    // A white stone far away changes nothing; one that blocks the row three frees 7,7
    // through the incremental update as well.
    let mut board = renju_position(base, "7,9 0,2 0,4 0,6");
    board.play_as(Cell::parse("3,7").unwrap(), Color::White);
    board.set_side_to_move(Color::Black);
    assert_eq!(kind_at(&board, 7, 7), Some(Forbidden::DoubleThree));
    board.play_as(Cell::parse("4,7").unwrap(), Color::White);
    board.set_side_to_move(Color::Black);
    assert_eq!(kind_at(&board, 7, 7), None);
    board.undo();
    assert_eq!(kind_at(&board, 7, 7), Some(Forbidden::DoubleThree));
}

#[test]
fn shared_rule_check_renju() {
    // rule-checks.txt: h8h9i7i9h10i6i11i12, black must not play g9 (6,8).
    let mut game = Game::new(15, 15, Rule::Renju).unwrap();
    for mv in ["7,7", "7,8", "8,6", "8,8", "7,9", "8,5", "8,10", "8,11"] {
        assert_eq!(game.play_str(mv), Ok(Verdict::Ongoing));
    }
    assert!(game.board().forbidden_kind(cell(6, 8)).is_some());
    assert!(game.board().forbidden_points().contains(&cell(6, 8)));
    let verdict = game.play_str("6,8").unwrap();
    assert!(matches!(
        verdict,
        Verdict::Win {
            winner: Color::White,
            ..
        }
    ));
}

#[test]
fn fives_by_rule() {
    let play = |rule: Rule, moves: &[&str]| {
        let mut game = Game::new(15, 15, rule).unwrap();
        let mut last = Verdict::Ongoing;
        for mv in moves {
            last = game.play_str(mv).unwrap();
        }
        last
    };
    let black_five = [
        "0,0", "0,5", "1,0", "1,5", "2,0", "2,5", "3,0", "3,5", "4,0",
    ];
    let win = |winner| Verdict::Win {
        winner,
        reason: EndReason::Five,
    };
    for rule in Rule::ALL {
        // Edge does not block under caro.
        assert_eq!(play(rule, &black_five), win(Color::Black), "{rule}");
    }
    // Black makes six by filling the gap: freestyle and caro win, exact rules do not.
    let six = [
        "0,0", "0,5", "1,0", "1,5", "2,0", "2,5", "4,0", "3,6", "5,0", "9,9", "3,0",
    ];
    assert_eq!(play(Rule::Freestyle, &six), win(Color::Black));
    assert_eq!(play(Rule::Caro, &six), win(Color::Black));
    assert_eq!(play(Rule::Standard, &six), Verdict::Ongoing);
    assert_eq!(play(Rule::CaroExact, &six), Verdict::Ongoing);
    assert_eq!(
        play(Rule::Renju, &six),
        Verdict::Win {
            winner: Color::White,
            reason: EndReason::Overline
        }
    );
    // White's overline wins under renju, not under standard.
    let white_six = [
        "0,14", "0,0", "2,14", "1,0", "4,14", "2,0", "6,14", "4,0", "8,14", "5,0", "9,10", "3,0",
    ];
    assert_eq!(play(Rule::Renju, &white_six), win(Color::White));
    assert_eq!(play(Rule::Standard, &white_six), Verdict::Ongoing);
    // Caro: a five blocked at both ends by white does not win; one open end does.
    let blocked = [
        "1,3", "0,3", "2,3", "6,3", "3,3", "9,9", "4,3", "9,11", "5,3",
    ];
    assert_eq!(play(Rule::Caro, &blocked), Verdict::Ongoing);
    assert_eq!(play(Rule::Freestyle, &blocked), win(Color::Black));
    let open_end = [
        "1,3", "0,3", "2,3", "9,5", "3,3", "9,9", "4,3", "9,11", "5,3",
    ];
    assert_eq!(play(Rule::Caro, &open_end), win(Color::Black));
}

#[test]
fn bad_moves_and_full_board() {
    let mut game = Game::new(5, 5, Rule::Freestyle).unwrap();
    assert!(game.play_str("5,0").is_err());
    assert!(game.play_str("-1,0").is_err());
    assert!(game.play_str("1;2").is_err());
    game.play_str("0,0").unwrap();
    assert!(game.play_str("0,0").is_err());
    assert_eq!(game.board().stone_count(), 1);
    // Fill a 5x5 board without a five: rows alternate in pairs.
    let mut game = Game::new(5, 5, Rule::Freestyle).unwrap();
    let mut black = Vec::new();
    let mut white = Vec::new();
    for y in 0..5 {
        for x in 0..5 {
            let black_here = ((x + 2 * y) % 4) < 2;
            if black_here {
                black.push((x, y));
            } else {
                white.push((x, y));
            }
        }
    }
    assert_eq!(black.len(), 13);
    let mut verdict = Verdict::Ongoing;
    for i in 0..25 {
        let (x, y) = if i % 2 == 0 {
            black[i / 2]
        } else {
            white[i / 2]
        };
        verdict = game.play_str(&format!("{x},{y}")).unwrap();
        if i < 24 {
            assert_eq!(verdict, Verdict::Ongoing, "move {i}");
        }
    }
    assert_eq!(verdict, Verdict::Draw);
    assert_eq!(
        game.play_str("0,0"),
        Err(qilin::gomoku::PlayError::GameOver)
    );
}

#[test]
fn random_renju_positions_match_the_slow_check() {
    let mut rng = StdRng::seed_from_u64(2026);
    let mut forbidden_seen = [0usize; 3];
    for _ in 0..600 {
        let mut board = Board::new(15, 15, Rule::Renju).unwrap();
        let stones = rng.random_range(10..=60);
        let mut placed = 0;
        while placed < stones {
            // Stones cluster near the centre, black a little denser, as in real games.
            let x = (7 + rng.random_range(-5i32..=5)) as usize;
            let y = (7 + rng.random_range(-5i32..=5)) as usize;
            let c = cell(x, y);
            let color = if placed % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if !board.is_empty(c) || board.makes_five(c, color) {
                placed += 1; // keep the count moving even on a skipped point
                continue;
            }
            board.play_as(c, color);
            placed += 1;
        }
        board.set_side_to_move(Color::Black);
        board.verify().unwrap();
        let grid = Grid::from_board(&board);
        let mut grid = grid;
        for c in board.empty_cells().collect::<Vec<_>>() {
            let expected = grid.forbidden(c.x() as i32, c.y() as i32);
            assert_eq!(board.forbidden_kind(c), expected, "at {c} in {board:?}");
            assert_eq!(board.is_forbidden(c), expected.is_some(), "class at {c}");
            if let Some(kind) = expected {
                forbidden_seen[kind as usize] += 1;
            }
        }
    }
    // The sample must exercise every kind, or the comparison proves little.
    assert!(forbidden_seen.iter().all(|&n| n >= 3), "{forbidden_seen:?}");
}

#[test]
fn random_make_undo_keeps_the_incremental_state_exact() {
    let mut rng = StdRng::seed_from_u64(7);
    for rule in Rule::ALL {
        for &(width, height) in &[(15, 15), (20, 20), (7, 12), (32, 32)] {
            let mut board = Board::new(width, height, rule).unwrap();
            board.set_self_check(true);
            let start_hash = board.hash();
            for _ in 0..120 {
                if board.stone_count() > 0 && rng.random_range(0..4) == 0 {
                    board.undo();
                    continue;
                }
                let x = rng.random_range(0..width.min(12));
                let y = rng.random_range(0..height.min(12));
                let c = cell(x, y);
                if board.is_empty(c) {
                    board.play(c);
                }
            }
            while board.undo().is_some() {}
            assert_eq!(board.hash(), start_hash);
            assert_eq!(board.stone(cell(0, 0)), Stone::Empty);
        }
    }
}

#[test]
fn five_classes_agree_with_the_direct_scan() {
    let mut rng = StdRng::seed_from_u64(11);
    for rule in Rule::ALL {
        for _ in 0..40 {
            let mut board = Board::new(15, 15, rule).unwrap();
            for _ in 0..rng.random_range(20..80) {
                let c = cell(rng.random_range(3..12), rng.random_range(3..12));
                let color = board.side_to_move();
                if board.is_empty(c) && !board.makes_five(c, color) {
                    board.play(c);
                }
            }
            for c in board.empty_cells().collect::<Vec<_>>() {
                for color in Color::BOTH {
                    assert_eq!(
                        board.threat(c, color) == Threat::Five,
                        board.makes_five(c, color),
                        "{rule} {c} {color:?} {board:?}"
                    );
                }
            }
        }
    }
}
