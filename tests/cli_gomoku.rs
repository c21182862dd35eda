//! `qilin referee gomoku` driven as a user runs it: arguments in, verdict lines and exit
//! status out.

use std::process::Command;

fn qilin(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qilin"))
        .args(args)
        .output()
        .expect("run qilin");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `qilin referee gomoku <board and rule> --moves <moves>`: status and stdout.
fn referee(board: &[&str], moves: &str) -> (i32, String) {
    let mut args = vec!["referee", "gomoku"];
    args.extend_from_slice(board);
    args.extend_from_slice(&["--moves", moves]);
    let (code, out, _) = qilin(&args);
    (code, out.trim_end().to_string())
}

fn ok(line: &str) -> (i32, String) {
    (0, line.to_string())
}

/// Black's row of five from 7,7 to 11,7, white's stones on the left edge.
const BLACK_FIVE: &str = "7,7 0,0 8,7 0,2 9,7 0,4 10,7 0,6 11,7";
/// Black 1,7 2,7 3,7 5,7 6,7, then 4,7: a row of six.
const BLACK_SIX: &str = "1,7 0,0 2,7 2,0 3,7 4,0 5,7 6,0 6,7 8,0 4,7";
/// Black's last stone 7,7 makes two fours (column 7 and row 7), white far away.
const DOUBLE_FOUR: &str = "7,3 14,14 7,4 14,12 7,5 14,10 3,7 12,14 4,7 10,14 5,7 0,14 7,7";
/// Black's last stone 9,7 makes two open threes (row 7 and column 9).
const DOUBLE_THREE: &str = "7,7 0,0 8,7 0,2 9,8 0,4 9,9 0,6 9,7";
/// GomocupJudge's renju rule check `h8h9i7i9h10i6i11i12`: 6,8 is forbidden for black.
const RULE_CHECK: &str = "7,7 7,8 8,6 8,8 7,9 8,5 8,10 8,11";

#[test]
fn every_reason_and_the_empty_board() {
    let size15 = ["--size", "15"];
    assert_eq!(referee(&size15, ""), ok("result: ongoing"));
    assert_eq!(
        qilin(&["referee", "gomoku", "--size", "15"]).1,
        "result: ongoing\n"
    );
    assert_eq!(referee(&size15, "7,7 8,8 9,9"), ok("result: ongoing"));
    assert_eq!(
        referee(&size15, BLACK_FIVE),
        ok("result: black-wins reason: five")
    );
    // White's five: black wastes a move first.
    assert_eq!(
        referee(&size15, "0,0 7,7 0,2 8,7 0,4 9,7 0,6 10,7 14,14 11,7"),
        ok("result: white-wins reason: five")
    );
    let renju = ["--size", "15", "--rule", "4"];
    assert_eq!(
        referee(&renju, BLACK_SIX),
        ok("result: white-wins reason: overline")
    );
    assert_eq!(
        referee(&renju, DOUBLE_FOUR),
        ok("result: white-wins reason: double-four")
    );
    assert_eq!(
        referee(&renju, DOUBLE_THREE),
        ok("result: white-wins reason: double-three")
    );
    // The same shapes are no crime under freestyle.
    assert_eq!(referee(&size15, DOUBLE_THREE), ok("result: ongoing"));
    assert_eq!(
        referee(&size15, BLACK_SIX),
        ok("result: black-wins reason: five")
    );
    assert_eq!(
        referee(&["--size", "5"], &full_board_without_five()),
        ok("result: draw reason: full-board")
    );
}

/// A 5x5 filling with no five for either colour, black and white alternating:
/// rows `BBWWB`, `WWBBW`, ... (13 black stones, 12 white).
fn full_board_without_five() -> String {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for y in 0..5 {
        for x in 0..5 {
            let black_here = if y % 2 == 0 {
                x < 2 || x == 4
            } else {
                x == 2 || x == 3
            };
            if black_here {
                black.push(format!("{x},{y}"));
            } else {
                white.push(format!("{x},{y}"));
            }
        }
    }
    assert_eq!((black.len(), white.len()), (13, 12));
    let mut moves = Vec::new();
    for (i, b) in black.iter().enumerate() {
        moves.push(b.clone());
        if let Some(w) = white.get(i) {
            moves.push(w.clone());
        }
    }
    moves.join(" ")
}

#[test]
fn full_board_draw_needs_every_point() {
    let all = full_board_without_five();
    let without_last: Vec<&str> = all.split_whitespace().take(24).collect();
    assert_eq!(
        referee(&["--size", "5"], &without_last.join(" ")),
        ok("result: ongoing")
    );
}

#[test]
fn standard_and_caro_variants() {
    // Standard (exactly five): six in a row is nothing, for black...
    assert_eq!(
        referee(&["--size", "15", "--rule", "1"], BLACK_SIX),
        ok("result: ongoing")
    );
    // ... and names work as well as numbers.
    assert_eq!(
        referee(&["--size", "15", "--rule", "standard"], BLACK_FIVE),
        ok("result: black-wins reason: five")
    );
    // Renju: white's six wins.
    assert_eq!(
        referee(
            &["--size", "15", "--rule", "renju"],
            "0,0 1,7 0,2 2,7 0,4 3,7 0,6 5,7 14,14 6,7 14,12 4,7"
        ),
        ok("result: white-wins reason: five")
    );
    // Caro: a five with white stones at both ends does not win; the edge does not block.
    let blocked = "3,7 2,7 4,7 8,7 5,7 0,0 6,7 0,2 7,7";
    assert_eq!(
        referee(&["--size", "15", "--rule", "8"], blocked),
        ok("result: ongoing")
    );
    assert_eq!(
        referee(&["--size", "15", "--rule", "caro-exact"], blocked),
        ok("result: ongoing")
    );
    assert_eq!(
        referee(&["--size", "15", "--rule", "0"], blocked),
        ok("result: black-wins reason: five")
    );
    assert_eq!(
        referee(
            &["--size", "15", "--rule", "8"],
            "0,7 5,7 1,7 8,7 2,7 0,0 3,7 0,2 4,7"
        ),
        ok("result: black-wins reason: five")
    );
}

#[test]
fn moves_after_the_end_are_ignored_with_a_note() {
    let (code, out, err) = qilin(&[
        "referee", "gomoku", "--size", "15", "--moves", BLACK_FIVE, "--moves", "3,3 4,4",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, "result: black-wins reason: five\n");
    assert!(err.starts_with("note: "), "{err}");
    assert!(err.contains("2 further move(s) ignored"), "{err}");
    // Even an occupied point after the end is only ignored.
    assert_eq!(
        referee(&["--size", "15"], &format!("{BLACK_FIVE} 7,7")),
        ok("result: black-wins reason: five")
    );
}

#[test]
fn moves_may_be_split_over_several_flags() {
    let (code, out, _) = qilin(&[
        "referee",
        "gomoku",
        "--size",
        "15",
        "--moves",
        "7,7 0,0 8,7",
        "--moves",
        "",
        "--moves",
        "0,2 9,7 0,4 10,7 0,6",
        "--moves",
        "11,7",
    ]);
    assert_eq!(
        (code, out.as_str()),
        (0, "result: black-wins reason: five\n")
    );
}

#[test]
fn forbidden_points_are_listed_for_renju_only() {
    let (code, out, _) = qilin(&[
        "referee",
        "gomoku",
        "--size",
        "15",
        "--rule",
        "4",
        "--moves",
        RULE_CHECK,
        "--forbidden",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "result: ongoing");
    let points: Vec<&str> = lines[1]
        .strip_prefix("forbidden:")
        .expect("forbidden line")
        .split_whitespace()
        .collect();
    assert!(points.contains(&"6,8"), "{out}");
    // Black playing there loses.
    assert_eq!(
        referee(
            &["--size", "15", "--rule", "4"],
            &format!("{RULE_CHECK} 6,8")
        ),
        ok("result: white-wins reason: double-three")
    );
    // The same stones under freestyle: no forbidden points, and an empty list.
    let (code, out, _) = qilin(&[
        "referee",
        "gomoku",
        "--size",
        "15",
        "--moves",
        RULE_CHECK,
        "--forbidden",
    ]);
    assert_eq!((code, out.as_str()), (0, "result: ongoing\nforbidden:\n"));
    // Renju on an empty board: none either.
    let (_, out, _) = qilin(&[
        "referee",
        "gomoku",
        "--size",
        "15",
        "--rule",
        "renju",
        "--forbidden",
    ]);
    assert_eq!(out, "result: ongoing\nforbidden:\n");
    // Before the double-four point is played, it is listed.
    let (before, _) = DOUBLE_FOUR.rsplit_once(' ').unwrap();
    let (_, out, _) = qilin(&[
        "referee",
        "gomoku",
        "--size",
        "15",
        "--rule",
        "4",
        "--moves",
        before,
        "--forbidden",
    ]);
    let forbidden = out.lines().nth(1).unwrap_or_default();
    assert!(forbidden.split_whitespace().any(|p| p == "7,7"), "{out}");
}

#[test]
fn rectangles() {
    // 9 columns, 1 row, filled alternately: no five, a full board.
    assert_eq!(
        referee(&["--rect", "9,1"], "0,0 1,0 2,0 3,0 4,0 5,0 6,0 7,0 8,0"),
        ok("result: draw reason: full-board")
    );
    // A tall board: x up to 3, y up to 19.
    assert_eq!(
        referee(
            &["--rect", "4,20"],
            "0,15 1,0 0,16 1,2 0,17 1,4 0,18 1,6 0,19"
        ),
        ok("result: black-wins reason: five")
    );
    let (code, _, err) = qilin(&["referee", "gomoku", "--rect", "4,20", "--moves", "4,0"]);
    assert_eq!(code, 2);
    assert!(err.contains("off the board"), "{err}");
    assert_eq!(
        referee(&["--rect", "1,1"], "0,0"),
        ok("result: draw reason: full-board")
    );
}

#[test]
fn help_prints_usage() {
    let (code, out, _) = qilin(&["referee", "gomoku", "--help"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("usage: qilin referee gomoku"), "{out}");
}

#[test]
fn errors_exit_2_with_nothing_on_stdout() {
    let cases: &[(&[&str], &str)] = &[
        (&["--size", "15", "--moves", "7,7 8,8 7,7"], "occupied"),
        (&["--size", "15", "--moves", "15,0"], "off the board"),
        (&["--size", "15", "--moves", "7,-1"], "off the board"),
        (&["--size", "15", "--moves", "a,b"], "malformed"),
        (&["--size", "15", "--moves", "7,7 77"], "malformed"),
        (&["--size", "15", "--moves", "7,7,7"], "malformed"),
        (&["--size", "4"], "--size"),
        (&["--size", "33"], "--size"),
        (&["--size", "x"], "--size"),
        (&["--rect", "0,5"], "--rect"),
        (&["--rect", "5,33"], "--rect"),
        (&["--rect", "5"], "--rect"),
        (&["--size", "15", "--rect", "5,5"], "one board size"),
        (&[], "missing board size"),
        (&["--size", "15", "--rule", "2"], "rule"),
        (&["--size", "15", "--rule", "gomoku"], "rule"),
        (&["--size", "15", "--bogus"], "--bogus"),
        (&["--size", "15", "--moves"], "--moves"),
        (&["--size"], "--size"),
    ];
    for (args, expected) in cases {
        let mut full = vec!["referee", "gomoku"];
        full.extend_from_slice(args);
        let (code, out, err) = qilin(&full);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(out, "", "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    // The move number of the bad move is given.
    let (_, _, err) = qilin(&[
        "referee",
        "gomoku",
        "--size",
        "15",
        "--moves",
        "7,7 8,8 7,7",
    ]);
    assert!(err.contains("move 3"), "{err}");
}

#[test]
fn xiangqi_referee_is_unchanged() {
    let (code, out, _) = qilin(&["referee", "xiangqi", "--moves", "h2e2 h9g7"]);
    assert_eq!((code, out.as_str()), (0, "result: ongoing\n"));
}

#[test]
fn set_up_stones_come_before_the_moves() {
    // Black's double three at 7,7 as set-up stones; no order of play is needed.
    let board = [
        "referee",
        "gomoku",
        "--size",
        "15",
        "--rule",
        "renju",
        "--black",
        "5,7 6,7 7,5 7,6",
        "--white",
        "0,0 0,2 0,4 0,6",
    ];
    let (code, out, _) = qilin(&[&board[..], &["--forbidden"]].concat());
    assert_eq!(
        (code, out.as_str()),
        (0, "result: ongoing\nforbidden: 7,7\n")
    );
    let (code, out, _) = qilin(&[&board[..], &["--moves", "7,7"]].concat());
    assert_eq!(
        (code, out.trim_end()),
        (0, "result: white-wins reason: double-three")
    );
    // One more black stone than white: white moves first.
    let (code, out, _) = qilin(&[
        "referee",
        "gomoku",
        "--size",
        "15",
        "--black",
        "1,1 2,1 3,1 4,1",
        "--white",
        "9,9 9,10 9,11",
        "--black",
        "5,5",
        "--moves",
        "9,12 0,0 9,13",
    ]);
    assert_eq!(
        (code, out.trim_end()),
        (0, "result: white-wins reason: five")
    );
    // Set-up errors: a repeated point, an off-board point, a five already made, garbage.
    for (black, white) in [
        ("1,1 1,1", ""),
        ("20,1", ""),
        ("1,1 2,2 3,3 4,4 5,5", "9,9"),
        ("x", ""),
    ] {
        let (code, out, err) = qilin(&[
            "referee", "gomoku", "--size", "15", "--black", black, "--white", white,
        ]);
        assert_eq!(code, 2, "{black} / {white}: {out}");
        assert!(out.is_empty() && err.starts_with("error: "), "{err}");
    }
}
