//! Every repetition case of tests/data/xiangqi/repetition-cases.tsv (copied from the project's
//! shared reference data; its header names the public source) gives the expected verdict right
//! after the last move. Earlier verdicts are allowed only when they already are that verdict
//! (case 1162 plays on past the decision).

use qilin::xiangqi::{Color, Game, Position, Reason, Verdict};

fn expected(result: &str) -> Option<Color> {
    match result {
        "red-wins" => Some(Color::Red),
        "black-wins" => Some(Color::Black),
        "draw" => None,
        other => panic!("unknown result {other}"),
    }
}

#[test]
fn repetition_cases_match_the_spec() {
    let text = include_str!("data/xiangqi/repetition-cases.tsv");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "bad line {line}");
        let (id, desc, fen, moves, result) = (cols[0], cols[1], cols[2], cols[3], cols[4]);
        count += 1;
        let mut game = Game::new(Position::from_fen(fen).unwrap_or_else(|e| panic!("{id}: {e}")));
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let matches = |verdict: Verdict| match (expected(result), verdict) {
            (Some(w), Verdict::Win { winner, reason }) => {
                winner == w && matches!(reason, Reason::PerpetualCheck | Reason::PerpetualChase)
            }
            (None, Verdict::Draw { reason }) => reason == Reason::Repetition,
            _ => false,
        };
        for (i, m) in moves.iter().enumerate() {
            game.play_str(m).unwrap_or_else(|e| panic!("{id}: {e}"));
            let verdict = game.verdict();
            if i + 1 < moves.len() && verdict != Verdict::Ongoing && !matches(verdict) {
                failures.push(format!(
                    "{id} {desc}: ended early after {} plies: {verdict:?}",
                    i + 1
                ));
            }
        }
        let verdict = game.verdict();
        if !matches(verdict) {
            failures.push(format!("{id} {desc}: expected {result}, got {verdict:?}"));
        }
    }
    assert_eq!(count, 32);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
