//! The `perft` and `referee` subcommands driven as a user runs them: arguments in, text and
//! exit status out.

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

#[test]
fn perft_prints_each_root_move_then_the_total() {
    let (code, out, _) = qilin(&["perft", "3"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 45, "44 root moves and the total");
    assert_eq!(lines.last(), Some(&"Nodes searched: 79666"));
    let sum: u64 = lines[..44]
        .iter()
        .map(|l| {
            let (mv, n) = l.split_once(": ").expect("move: count");
            assert_eq!(mv.len(), 4);
            n.parse::<u64>().expect("count")
        })
        .sum();
    assert_eq!(sum, 79666);
    assert!(out.contains("h2e2: "));
}

#[test]
fn perft_from_a_fen() {
    let (code, out, _) = qilin(&[
        "perft",
        "2",
        "--fen",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    ]);
    assert_eq!(code, 0);
    assert!(out.ends_with("Nodes searched: 424\n"), "{out}");
}

#[test]
fn perft_bad_arguments_exit_2() {
    assert_eq!(qilin(&["perft"]).0, 2);
    assert_eq!(qilin(&["perft", "x"]).0, 2);
    assert_eq!(qilin(&["perft", "-1"]).0, 2);
    assert_eq!(qilin(&["perft", "2", "--fen"]).0, 2);
    let (code, _, err) = qilin(&["perft", "2", "--fen", "9/9 w"]);
    assert_eq!(code, 2);
    assert!(err.contains("ranks"), "{err}");
}

fn referee(args: &[&str]) -> (i32, String) {
    let mut full = vec!["referee", "xiangqi"];
    full.extend_from_slice(args);
    let (code, out, _) = qilin(&full);
    (code, out.trim_end().to_string())
}

#[test]
fn referee_verdicts() {
    assert_eq!(referee(&[]), (0, "result: ongoing".into()));
    assert_eq!(
        referee(&["--moves", "h2e2 h9g7 h0g2 i9h9"]),
        (0, "result: ongoing".into())
    );
    assert_eq!(
        referee(&[
            "--fen",
            "3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1",
            "--moves",
            "i0i9"
        ]),
        (0, "result: red-wins reason: checkmate".into())
    );
    assert_eq!(
        referee(&["--fen", "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1"]),
        (0, "result: red-wins reason: stalemate".into())
    );
    // Black's chariot is chased by red's cannon every move: red loses.
    assert_eq!(
        referee(&[
            "--fen",
            "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
            "--moves",
            "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2"
        ]),
        (0, "result: black-wins reason: perpetual-chase".into())
    );
    // Black checks with every move (soldier on e1/f1 against the king): black loses.
    assert_eq!(
        referee(&[
            "--fen",
            "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
            "--moves",
            "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2"
        ]),
        (0, "result: red-wins reason: perpetual-check".into())
    );
    // Horses shuffling: a plain repetition.
    assert_eq!(
        referee(&["--moves", "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9"]),
        (0, "result: draw reason: repetition".into())
    );
    assert_eq!(
        referee(&[
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 118 1",
            "--moves",
            "d0d1 e9e8"
        ]),
        (0, "result: draw reason: no-capture-limit".into())
    );
    assert_eq!(
        referee(&[
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 118 1",
            "--moves",
            "d0d1 e9e8",
            "--no-capture-limit",
            "200"
        ]),
        (0, "result: ongoing".into())
    );
}

/// The referee's error: exit status 2, nothing on stdout, the reason on stderr.
fn referee_error(args: &[&str]) -> String {
    let mut full = vec!["referee", "xiangqi"];
    full.extend_from_slice(args);
    let (code, out, err) = qilin(&full);
    assert_eq!(code, 2, "{args:?}");
    assert_eq!(out, "", "{args:?}: errors go to stderr");
    err.trim_end().to_string()
}

#[test]
fn referee_errors_exit_2_on_stderr() {
    assert_eq!(
        referee_error(&["--moves", "h2e2 h9g7 h2h3"]),
        "error: illegal move h2h3 at ply 3"
    );
    assert_eq!(
        referee_error(&["--moves", "h2e2 zz"]),
        "error: illegal move zz at ply 2"
    );
    assert_eq!(
        referee_error(&["--fen", "rnbakabnr/9/1c5c1 w"]),
        "error: FEN has 3 ranks, expected 10"
    );
    assert_eq!(
        referee_error(&["--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w"]),
        "error: the kings face each other"
    );
    assert!(referee_error(&["--bogus"]).starts_with("error: unexpected argument"));
    assert!(referee_error(&["--no-capture-limit", "x"]).starts_with("error: --no-capture"));
    for args in [&["referee"][..], &["referee", "chess"]] {
        let (code, out, err) = qilin(args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn help_and_version_answer_with_exit_status_zero() {
    for flag in ["--help", "-h", "help"] {
        let (code, out, err) = qilin(&[flag]);
        assert_eq!(code, 0, "{flag}: {err}");
        assert!(out.starts_with("usage: qilin"), "{flag}: {out}");
        for sub in ["bench", "perft", "referee", "match", "test-engine"] {
            assert!(out.contains(&format!("qilin {sub}")), "{flag} names {sub}");
        }
    }
    for flag in ["--version", "-V"] {
        let (code, out, _) = qilin(&[flag]);
        assert_eq!(code, 0);
        assert_eq!(out.trim(), format!("qilin {}", env!("CARGO_PKG_VERSION")));
    }
    let (code, _, err) = qilin(&["frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown subcommand 'frobnicate'"), "{err}");
}

#[test]
fn each_subcommand_prints_its_usage_on_help() {
    for (args, expect) in [
        (&["perft", "--help"][..], "usage: qilin perft"),
        (&["bench", "-h"][..], "usage: qilin bench"),
        (&["referee", "--help"][..], "usage: qilin referee xiangqi"),
        (
            &["referee", "gomoku", "--help"][..],
            "usage: qilin referee gomoku",
        ),
        (
            &["referee", "xiangqi", "-h"][..],
            "usage: qilin referee xiangqi",
        ),
        (&["match", "--help"][..], "usage: qilin match"),
        (&["test-engine", "--help"][..], "usage: qilin test-engine"),
    ] {
        let (code, out, err) = qilin(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains(expect), "{args:?}: {out}");
    }
}
