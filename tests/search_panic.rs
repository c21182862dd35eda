//! A panic inside a search must not end a tournament game (issue 11): the shipped binary
//! unwinds (`panic = "unwind"` in the release profile), the session answers with a legal
//! move and a note, replaces its searcher and goes on. The panic is injected with the
//! `QILIN_FAULT=search-panic` environment variable.

mod common;

use common::Engine;

use qilin::xiangqi::{Move, Position};

#[test]
fn uci_and_ucci_answer_a_legal_move_after_a_search_panic_and_go_on() {
    for hello in ["uci", "ucci"] {
        let mut engine = Engine::start_with(&[("QILIN_FAULT", "search-panic")]);
        engine.ask(hello, |l| l.ends_with("ok"));
        engine.send("position startpos moves h2e2");
        let mut position = Position::startpos();
        position.make_move(Move::parse("h2e2").expect("move"));
        for _ in 0..2 {
            let line = engine.ask("go depth 5", |l| l.starts_with("bestmove"));
            let text = line.split_whitespace().nth(1).unwrap_or("");
            let mv = Move::parse(text).unwrap_or_else(|| panic!("{hello}: {line}"));
            assert!(position.is_legal(mv), "{hello}: {line}");
            engine.ask("isready", |l| l == "readyok");
        }
        assert_eq!(
            engine.notes("info string search failed (fault injected"),
            2,
            "{hello}: {:?}",
            engine.seen
        );
    }
}

#[test]
fn piskvork_answers_a_move_after_a_search_panic_and_goes_on() {
    let mut engine = Engine::start_with(&[("QILIN_FAULT", "search-panic")]);
    engine.ask("START 15", |l| l == "OK");
    let is_move = |l: &str| {
        l.split_once(',').is_some_and(|(x, y)| {
            x.parse::<u32>().is_ok_and(|x| x < 15) && y.parse::<u32>().is_ok_and(|y| y < 15)
        })
    };
    let first = engine.ask("BEGIN", is_move);
    let second = engine.ask("TURN 7,8", is_move);
    assert!(second != first && second != "7,8", "{first} {second}");
    engine.ask("ABOUT", |l| l.starts_with("name="));
    assert_eq!(
        engine.notes("MESSAGE search failed (fault injected"),
        2,
        "{:?}",
        engine.seen
    );
}
