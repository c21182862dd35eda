//! The Piskvork side of the runner in isolation: two `qilin test-engine --proto piskvork`
//! players driven by the game loop under a stand-in referee that only knows which cells are
//! free (no five detection, so games run to the ply cap). Proves START/ABOUT/INFO/BEGIN/TURN/
//! BOARD/RESTART and `time_left`, and the illegal-move forfeit, over the real protocol.
//! Whole Gomoku matches with the real referee are in `match_gomoku.rs`.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use qilin::gomoku::Rule;
use qilin::protocol::Protocol;
use qilin::tournament::args::{EngineSpec, GameChoice, TimeControl};
use qilin::tournament::game::{GameResult, GameRules, play_game};
use qilin::tournament::player::{MatchSetup, Player};
use qilin::tournament::process::ProtocolLog;
use qilin::tournament::referee::{Outcome, Referee};

const QILIN: &str = env!("CARGO_BIN_EXE_qilin");
const SIZE: u32 = 15;

/// Free-cell-only Gomoku stand-in: black (seat 0) moves first.
struct FreeCellReferee {
    moves: Vec<String>,
}

impl Referee for FreeCellReferee {
    fn colour_names(&self) -> [&'static str; 2] {
        ["black", "white"]
    }
    fn root(&self) -> &str {
        ""
    }
    fn moves(&self) -> &[String] {
        &self.moves
    }
    fn side_to_move(&self) -> usize {
        self.moves.len() % 2
    }
    fn play(&mut self, notation: &str) -> Result<(), String> {
        let (x, y) = notation.split_once(',').ok_or("not x,y")?;
        let (x, y): (u32, u32) = (
            x.parse().map_err(|_| "bad x")?,
            y.parse().map_err(|_| "bad y")?,
        );
        if x >= SIZE || y >= SIZE {
            return Err(format!("{notation} is off the board"));
        }
        if self.moves.iter().any(|m| m == notation) {
            return Err(format!("{notation} is occupied"));
        }
        self.moves.push(notation.to_string());
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
}

fn spec(name: &str, extra: &[&str]) -> EngineSpec {
    let mut args = vec![
        "test-engine".to_string(),
        "--proto".into(),
        "piskvork".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    EngineSpec {
        name: name.to_string(),
        command: QILIN.to_string(),
        args,
        dir: None,
        protocol: Some(Protocol::Piskvork),
        ranks_one_based: false,
        options: Vec::new(),
    }
}

fn rules(time: TimeControl, max_plies: u32) -> GameRules {
    GameRules {
        time,
        time_margin_ms: 200,
        max_wait: Duration::from_secs(5),
        max_plies: Some(max_plies),
        resign: None,
        draw: None,
    }
}

#[test]
fn piskvork_players_play_through_the_game_loop() {
    let dir = std::env::temp_dir().join(format!("qilin-piskvork-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log_path = dir.join("protocol.log");
    let time = TimeControl {
        turn_time_ms: Some(1000),
        match_time_ms: Some(20_000),
        ..TimeControl::default()
    };
    let setup = MatchSetup {
        game: GameChoice::Gomoku {
            width: SIZE as usize,
            height: SIZE as usize,
            rule: Rule::Standard,
        },
        time,
        max_wait: Duration::from_secs(5),
        log: Some(Arc::new(ProtocolLog::create(&log_path).unwrap())),
    };
    let detected = Mutex::new(None);
    let mut black = Player::start(&spec("first", &["--seed", "1"]), &setup, &detected).unwrap();
    let mut white = Player::start(&spec("second", &["--seed", "2"]), &setup, &detected).unwrap();
    let stop = AtomicBool::new(false);

    // Game 1 from the empty board: BEGIN, then TURN.
    let mut referee = FreeCellReferee { moves: Vec::new() };
    let game = play_game(
        [&mut black, &mut white],
        &mut referee,
        &rules(time, 20),
        &stop,
    )
    .unwrap();
    assert_eq!(game.end.reason, "max-plies");
    assert_eq!(game.moves.len(), 20);

    // Game 2 from a three-stone opening: RESTART, then BOARD for white... and for black.
    let mut referee = FreeCellReferee {
        moves: vec!["7,7".into(), "8,8".into(), "7,8".into()],
    };
    let game = play_game(
        [&mut black, &mut white],
        &mut referee,
        &rules(time, 10),
        &stop,
    )
    .unwrap();
    assert_eq!(game.end.reason, "max-plies");
    assert_eq!(game.moves.iter().filter(|m| m.book).count(), 3);
    for player in [&black, &white] {
        let about = player.about().expect("the test engine answers ABOUT");
        assert_eq!(about.name(), Some("qilin-test-engine"));
        assert_eq!(about.version(), Some("1"));
    }
    black.shut_down();
    white.shut_down();

    let log = std::fs::read_to_string(&log_path).unwrap();
    for expected in [
        "> START 15",
        "< OK",
        "> INFO timeout_turn 1000",
        "> INFO timeout_match 20000",
        "> ABOUT",
        "> INFO max_memory 367001600",
        "> INFO rule 1",
        "> BEGIN",
        "> TURN ",
        "> INFO time_left ",
        "> RESTART",
        "> BOARD",
        "> 7,7,2",
        "> 8,8,1",
        "> 7,8,2",
        "> DONE",
        "> END",
    ] {
        assert!(
            log.contains(expected),
            "missing '{expected}' in the log:\n{log}"
        );
    }
}

#[test]
fn piskvork_illegal_move_loses() {
    let setup = MatchSetup {
        game: GameChoice::Gomoku {
            width: SIZE as usize,
            height: SIZE as usize,
            rule: Rule::Freestyle,
        },
        time: TimeControl {
            turn_time_ms: Some(1000),
            ..TimeControl::default()
        },
        max_wait: Duration::from_secs(5),
        log: None,
    };
    let detected = Mutex::new(None);
    let mut good = Player::start(&spec("good", &[]), &setup, &detected).unwrap();
    let mut bad = Player::start(
        &spec("bad", &["--mode", "illegal", "--after", "2"]),
        &setup,
        &detected,
    )
    .unwrap();
    let mut referee = FreeCellReferee { moves: Vec::new() };
    let stop = AtomicBool::new(false);
    let game = play_game(
        [&mut good, &mut bad],
        &mut referee,
        &rules(setup.time, 50),
        &stop,
    )
    .unwrap();
    assert_eq!(game.end.reason, "illegal-move");
    assert_eq!(game.end.result, GameResult::Win(0));
    // Two good white moves, then the illegal one on black's fourth turn.
    assert_eq!(game.moves.len(), 5);
    assert!(!bad.is_healthy());
    good.shut_down();
    bad.kill();
}
