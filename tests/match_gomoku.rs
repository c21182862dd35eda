//! `qilin match --game gomoku` driven as a program, with `qilin test-engine --proto piskvork`
//! players: every game recorded in JSON, SGF and PSQ, every record re-checked with
//! `qilin referee gomoku`, forfeits for occupied and off-board points, the Piskvork set-up
//! lines (START/RECTSTART, ABOUT, INFO) in the protocol log, and argument and opening errors.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const QILIN: &str = env!("CARGO_BIN_EXE_qilin");

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qilin-gomoku-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `--engine` arguments for a Piskvork test engine with test-engine arguments `extra` and
/// further engine settings `settings`.
fn engine(name: &str, extra: &str, settings: &str) -> String {
    let mut words =
        format!("--engine name={name} cmd={QILIN} arg=test-engine arg=--proto arg=piskvork");
    for word in extra.split_whitespace() {
        words += &format!(" arg={word}");
    }
    if !settings.is_empty() {
        words += " ";
        words += settings;
    }
    words
}

fn run_match(args: &str) -> Output {
    let mut full = vec!["match".to_string()];
    full.extend(args.split_whitespace().map(String::from));
    Command::new(QILIN).args(&full).output().unwrap()
}

/// Runs a match that must succeed.
fn run_ok(args: &str) -> Output {
    let output = run_match(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

// ---- A small JSON reader (objects, strings, integers, null) ----

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Number(i64),
    Text(String),
    Object(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Object(map) => map.get(key).unwrap_or_else(|| panic!("no field {key}")),
            _ => panic!("not an object"),
        }
    }

    fn text(&self, key: &str) -> &str {
        match self.get(key) {
            Json::Text(text) => text,
            other => panic!("{key} is not a string: {other:?}"),
        }
    }

    fn number(&self, key: &str) -> i64 {
        match self.get(key) {
            Json::Number(n) => *n,
            other => panic!("{key} is not a number: {other:?}"),
        }
    }
}

struct JsonReader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

impl JsonReader<'_> {
    fn expect(&mut self, c: char) {
        assert_eq!(self.chars.next(), Some(c));
    }

    fn string(&mut self) -> String {
        self.expect('"');
        let mut out = String::new();
        loop {
            match self.chars.next().expect("unterminated string") {
                '"' => return out,
                '\\' => match self.chars.next().unwrap() {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'u' => {
                        let hex: String = (0..4).map(|_| self.chars.next().unwrap()).collect();
                        out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                    }
                    other => out.push(other),
                },
                c => out.push(c),
            }
        }
    }

    fn value(&mut self) -> Json {
        match self.chars.peek().copied() {
            Some('"') => Json::Text(self.string()),
            Some('{') => {
                self.expect('{');
                let mut map = BTreeMap::new();
                if self.chars.peek() == Some(&'}') {
                    self.chars.next();
                    return Json::Object(map);
                }
                loop {
                    let key = self.string();
                    self.expect(':');
                    let value = self.value();
                    assert!(map.insert(key, value).is_none(), "duplicate key");
                    match self.chars.next() {
                        Some(',') => continue,
                        Some('}') => return Json::Object(map),
                        other => panic!("unexpected {other:?}"),
                    }
                }
            }
            Some('n') => {
                for c in "null".chars() {
                    self.expect(c);
                }
                Json::Null
            }
            _ => {
                let mut raw = String::new();
                while let Some(&c) = self.chars.peek() {
                    if c == '-' || c.is_ascii_digit() {
                        raw.push(c);
                        self.chars.next();
                    } else {
                        break;
                    }
                }
                Json::Number(raw.parse().unwrap_or_else(|_| panic!("bad number '{raw}'")))
            }
        }
    }
}

fn parse_json(line: &str) -> Json {
    let mut reader = JsonReader {
        chars: line.trim().chars().peekable(),
    };
    let value = reader.value();
    assert_eq!(reader.chars.next(), None, "trailing text in {line}");
    value
}

fn read_results(path: &Path) -> Vec<Json> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(parse_json)
        .collect()
}

// ---- A small SGF reader ----

/// One SGF node: property identifiers with their values.
type Node = Vec<(String, Vec<String>)>;

/// Parses an SGF collection of game trees without variations into their node lists.
fn parse_sgf(text: &str) -> Vec<Vec<Node>> {
    let mut trees = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        match chars.next() {
            None => return trees,
            Some('(') => {}
            Some(other) => panic!("unexpected '{other}' between game trees"),
        }
        let mut nodes: Vec<Node> = Vec::new();
        loop {
            match chars.next().expect("unterminated game tree") {
                c if c.is_whitespace() => {}
                ';' => nodes.push(Vec::new()),
                ')' => break,
                c if c.is_ascii_uppercase() => {
                    let mut ident = c.to_string();
                    while chars.peek().is_some_and(|c| c.is_ascii_uppercase()) {
                        ident.push(chars.next().unwrap());
                    }
                    let mut values = Vec::new();
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                    while chars.peek() == Some(&'[') {
                        chars.next();
                        let mut value = String::new();
                        loop {
                            match chars.next().expect("unterminated value") {
                                ']' => break,
                                '\\' => value.push(chars.next().unwrap()),
                                c => value.push(c),
                            }
                        }
                        values.push(value);
                        while chars.peek().is_some_and(|c| c.is_whitespace()) {
                            chars.next();
                        }
                    }
                    assert!(!values.is_empty(), "property {ident} without a value");
                    nodes
                        .last_mut()
                        .expect("property outside a node")
                        .push((ident, values));
                }
                other => panic!("unexpected '{other}' in a game tree"),
            }
        }
        trees.push(nodes);
    }
}

fn property<'a>(node: &'a Node, ident: &str) -> Option<&'a str> {
    node.iter()
        .find(|(i, _)| i == ident)
        .map(|(_, values)| values[0].as_str())
}

/// SGF letter to a coordinate: `a`-`z` 0-25, `A`-`Z` 26-51.
fn sgf_coordinate(c: char) -> usize {
    match c {
        'a'..='z' => c as usize - 'a' as usize,
        'A'..='Z' => c as usize - 'A' as usize + 26,
        _ => panic!("bad SGF coordinate {c}"),
    }
}

/// The moves of a game tree as `x,y`, checking that colours alternate from black.
fn sgf_moves(nodes: &[Node]) -> Vec<String> {
    let mut moves = Vec::new();
    for (index, node) in nodes[1..].iter().enumerate() {
        let colour = if index % 2 == 0 { "B" } else { "W" };
        let point =
            property(node, colour).unwrap_or_else(|| panic!("node {index} has no {colour}"));
        let letters: Vec<char> = point.chars().collect();
        assert_eq!(letters.len(), 2, "{point}");
        moves.push(format!(
            "{},{}",
            sgf_coordinate(letters[0]),
            sgf_coordinate(letters[1])
        ));
    }
    moves
}

// ---- A small PSQ reader ----

struct Psq {
    width: usize,
    height: usize,
    moves: Vec<String>,
    names: Vec<String>,
    code: i32,
}

/// Parses a Piskvork `.psq` file: header, `x,y,time` lines (from 1), names, end code.
fn parse_psq(text: &str) -> Psq {
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let rest = header.strip_prefix("Piskvorky ").expect("PSQ header");
    let (size, rest) = rest.split_once(", ").unwrap();
    let (width, height) = size.split_once('x').unwrap();
    let (levels, begins) = rest.split_once(", ").unwrap();
    let (first, second) = levels.split_once(':').unwrap();
    assert!(first.parse::<u32>().is_ok() && second.parse::<u32>().is_ok());
    assert_eq!(begins, "0");
    let mut moves = Vec::new();
    let mut tail = Vec::new();
    for line in lines {
        let numbers: Vec<i64> = line.split(',').filter_map(|p| p.parse().ok()).collect();
        if tail.is_empty() && numbers.len() == 3 && line.split(',').count() == 3 {
            assert!(numbers[0] >= 1 && numbers[1] >= 1, "{line}");
            assert!(numbers[2] >= 0, "{line}");
            moves.push(format!("{},{}", numbers[0] - 1, numbers[1] - 1));
        } else {
            tail.push(line.to_string());
        }
    }
    assert_eq!(tail.len(), 3, "names and code: {tail:?}");
    Psq {
        width: width.parse().unwrap(),
        height: height.parse().unwrap(),
        moves,
        names: tail[..2].to_vec(),
        code: tail[2].parse().unwrap(),
    }
}

// ---- Checks ----

/// `qilin referee gomoku` on a record's moves.
fn referee_verdict(board: &[String], rule: i64, moves: &str) -> String {
    let mut args = vec!["referee".to_string(), "gomoku".to_string()];
    args.extend(board.iter().cloned());
    args.extend([
        "--rule".to_string(),
        rule.to_string(),
        "--moves".to_string(),
        moves.to_string(),
    ]);
    let output = Command::new(QILIN).args(&args).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "the referee refused a recorded game: {moves}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .trim_end()
        .to_string()
}

/// What the referee must say about a record.
fn expected_verdict(record: &Json) -> String {
    let reason = record.text("reason");
    match reason {
        "five" | "overline" | "double-four" | "double-three" => {
            let winner = match record.text("result") {
                "1-0" => "black",
                "0-1" => "white",
                other => panic!("a {reason} with result {other}"),
            };
            format!("result: {winner}-wins reason: {reason}")
        }
        "full-board" => {
            assert_eq!(record.text("result"), "1/2-1/2");
            "result: draw reason: full-board".to_string()
        }
        // Forfeits and the ply cap leave the game undecided by the rules.
        _ => "result: ongoing".to_string(),
    }
}

/// The outputs of one match, checked against each other and against the referee.
struct Checked {
    records: Vec<Json>,
    reasons: Vec<String>,
}

/// Checks every record of a match: JSON fields, the referee's verdict, the SGF tree and the
/// PSQ file of each game. `board` is `--size N` or `--rect W,H` as referee arguments.
fn check_outputs(dir: &Path, games: usize, board: &[String], rule: i64) -> Checked {
    let records = read_results(&dir.join("results.jsonl"));
    assert_eq!(records.len(), games, "every game recorded");
    let mut numbers: Vec<i64> = records.iter().map(|r| r.number("game")).collect();
    numbers.sort();
    assert_eq!(numbers, (1..=games as i64).collect::<Vec<_>>());
    let trees = parse_sgf(&std::fs::read_to_string(dir.join("games.sgf")).unwrap());
    assert_eq!(trees.len(), games, "one SGF game tree per game");
    let (width, height): (usize, usize) = match board {
        [flag, n] if flag == "--size" => (n.parse().unwrap(), n.parse().unwrap()),
        [flag, rect] if flag == "--rect" => {
            let (w, h) = rect.split_once(',').unwrap();
            (w.parse().unwrap(), h.parse().unwrap())
        }
        _ => panic!("bad board {board:?}"),
    };
    let mut reasons = Vec::new();
    for (record, tree) in records.iter().zip(&trees) {
        assert_eq!(record.number("width"), width as i64);
        assert_eq!(record.number("height"), height as i64);
        assert_eq!(record.number("rule"), rule);
        let moves = record.text("moves");
        let list: Vec<String> = moves.split_whitespace().map(String::from).collect();
        assert_eq!(record.number("plies"), list.len() as i64);
        let opening = record.text("opening");
        assert!(moves.starts_with(opening), "{opening} / {moves}");
        assert_eq!(
            record.number("book_plies"),
            opening.split_whitespace().count() as i64
        );
        assert_eq!(
            referee_verdict(board, rule, moves),
            expected_verdict(record),
            "game {}",
            record.number("game")
        );
        for colour in ["black", "white"] {
            assert!(record.number(&format!("{colour}_time_ms")) >= 0);
        }

        // SGF: same players, result, board and moves.
        let root = &tree[0];
        assert_eq!(property(root, "GM"), Some("4"));
        assert_eq!(property(root, "FF"), Some("4"));
        let size = if width == height {
            width.to_string()
        } else {
            format!("{width}:{height}")
        };
        assert_eq!(property(root, "SZ"), Some(size.as_str()));
        assert_eq!(property(root, "PB"), Some(record.text("black")));
        assert_eq!(property(root, "PW"), Some(record.text("white")));
        let re = match record.text("result") {
            "1-0" => "B+",
            "0-1" => "W+",
            _ => "0",
        };
        assert_eq!(property(root, "RE"), Some(re));
        let comment = property(root, "GC").unwrap();
        assert!(comment.contains(record.text("reason")), "{comment}");
        assert!(comment.contains(record.text("rule_name")), "{comment}");
        assert_eq!(sgf_moves(tree), list);

        // PSQ: same board, moves and players.
        let path = dir
            .join("psq")
            .join(format!("game-{:04}.psq", record.number("game")));
        let psq = parse_psq(&std::fs::read_to_string(&path).unwrap());
        assert_eq!((psq.width, psq.height), (width, height));
        assert_eq!(psq.moves, list);
        assert_eq!(psq.names, [record.text("black"), record.text("white")]);
        let code = match record.text("reason") {
            "timeout" => 15,
            "illegal-move" | "crash" | "garbage" | "start-failure" => -2,
            _ => 0,
        };
        assert_eq!(psq.code, code);
        reasons.push(record.text("reason").to_string());
    }
    Checked {
        records: records.clone(),
        reasons,
    }
}

/// Output flags writing into `dir`.
fn outputs(dir: &Path) -> String {
    format!(
        "--results {} --sgf {} --psq {} --log {}",
        dir.join("results.jsonl").display(),
        dir.join("games.sgf").display(),
        dir.join("psq").display(),
        dir.join("protocol.log").display()
    )
}

fn board_args(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

fn read_log(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("protocol.log")).unwrap()
}

#[test]
fn freestyle_15x15_games_agree_with_the_referee() {
    let dir = scratch("freestyle");
    let args = format!(
        "{} {} --game gomoku --size 15 --rule 0 --turn-time 2000 --match-time 60000 \
         --games 6 --concurrency 2 {}",
        engine("a", "--seed 1", ""),
        engine("b", "--seed 2", ""),
        outputs(&dir)
    );
    let output = run_ok(&args);
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("a vs b"), "{table}");
    let checked = check_outputs(&dir, 6, &board_args("--size 15"), 0);
    // Random movers end freestyle games by a five or a full board, never a forfeit.
    for reason in &checked.reasons {
        assert!(reason == "five" || reason == "full-board", "{reason}");
    }
    for record in &checked.records {
        assert_eq!(record.text("rule_name"), "freestyle");
        let about = record.get("black_about");
        assert_eq!(about.text("name"), "qilin-test-engine");
        assert_eq!(about.text("version"), "1");
        // The first built-in opening, twice (colours swapped), then the next ones.
        let opening = record.text("opening");
        let expected = match record.number("game") {
            1 | 2 => "7,7 8,7 8,10",
            3 | 4 => "7,7 8,8 7,10",
            _ => "7,7 8,7 7,10",
        };
        assert_eq!(opening, expected);
    }
    let log = read_log(&dir);
    for expected in [
        "> START 15",
        "> ABOUT",
        "> INFO timeout_turn 2000",
        "> INFO timeout_match 60000",
        "> INFO max_memory 367001600",
        "> INFO rule 0",
        "> INFO time_left ",
        "> RESTART",
        "> BOARD",
        "> END",
    ] {
        assert!(log.contains(expected), "missing '{expected}' in the log");
    }
    assert!(!log.contains("RECTSTART"));
}

#[test]
fn renju_15x15_games_agree_with_the_referee() {
    let dir = scratch("renju");
    let args = format!(
        "{} {} --game gomoku --size 15 --rule renju --turn-time 2000 --games 8 --seed 5 \
         --random-openings {}",
        engine("a", "--seed 3", ""),
        engine("b", "--seed 4", ""),
        outputs(&dir)
    );
    run_ok(&args);
    let checked = check_outputs(&dir, 8, &board_args("--size 15"), 4);
    for reason in &checked.reasons {
        assert!(
            [
                "five",
                "overline",
                "double-four",
                "double-three",
                "full-board"
            ]
            .contains(&reason.as_str()),
            "{reason}"
        );
    }
    // Random black stones run into forbidden points: at least one game ends that way.
    assert!(
        checked
            .reasons
            .iter()
            .any(|r| r.starts_with("double") || r == "overline"),
        "{:?}",
        checked.reasons
    );
    assert!(read_log(&dir).contains("> INFO rule 4"));
}

#[test]
fn board_20x20_with_the_20_openings_file() {
    let dir = scratch("twenty");
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/gomoku/openings-20.txt");
    let args = format!(
        "{} {} --game gomoku --size 20 --turn-time 2000 --games 4 --openings {} {}",
        engine("a", "--seed 5", ""),
        engine("b", "--seed 6", ""),
        openings.display(),
        outputs(&dir)
    );
    run_ok(&args);
    let checked = check_outputs(&dir, 4, &board_args("--size 20"), 0);
    // The file's first line `-7,-8, -6,-9, -3,-9` from the centre 10,10, then its second.
    assert_eq!(checked.records[0].text("opening"), "3,2 4,1 7,1");
    assert_eq!(checked.records[1].text("opening"), "3,2 4,1 7,1");
    assert_eq!(
        checked.records[2].text("opening"),
        "8,1 6,1 4,1 8,9 7,9 5,4 6,5"
    );
    assert!(read_log(&dir).contains("> START 20"));
}

#[test]
fn rectangle_uses_rectstart() {
    let dir = scratch("rect");
    let args = format!(
        "{} {} --game gomoku --rect 12,9 --rule 1 --turn-time 2000 --games 4 {}",
        engine("a", "--seed 7", ""),
        engine("b", "--seed 8", ""),
        outputs(&dir)
    );
    run_ok(&args);
    let checked = check_outputs(&dir, 4, &board_args("--rect 12,9"), 1);
    // Every stone on the board.
    for record in &checked.records {
        for mv in record.text("moves").split_whitespace() {
            let (x, y) = mv.split_once(',').unwrap();
            assert!(x.parse::<usize>().unwrap() < 12 && y.parse::<usize>().unwrap() < 9);
        }
        assert_eq!(
            record.text("opening").split_whitespace().next(),
            Some("6,4")
        );
    }
    let log = read_log(&dir);
    assert!(log.contains("> RECTSTART 12,9"), "no RECTSTART");
    assert!(!log.contains("> START "), "START sent for a rectangle");
    assert!(log.contains("> INFO rule 1"));
}

/// Two games against an engine that misbehaves after two good moves: it loses both.
fn assert_forfeits(name: &str, mode: &str, reason: &str, detail: &str) {
    let dir = scratch(name);
    let args = format!(
        "{} {} --game gomoku --size 15 --turn-time 2000 --games 2 {}",
        engine("good", "--seed 1", ""),
        engine("bad", &format!("--mode {mode} --after 2"), ""),
        outputs(&dir)
    );
    run_ok(&args);
    let checked = check_outputs(&dir, 2, &board_args("--size 15"), 0);
    for record in &checked.records {
        assert_eq!(record.text("reason"), reason);
        let bad_is_black = record.text("black") == "bad";
        assert_eq!(
            record.text("result"),
            if bad_is_black { "0-1" } else { "1-0" }
        );
        assert!(
            record.text("detail").contains(detail),
            "{}",
            record.text("detail")
        );
        // The opening's three stones, the bad engine's two good moves and the good engine's
        // moves between (three when the bad engine is black, which moves after white); the
        // refused move is not recorded.
        let plies = record.number("plies");
        assert_eq!(plies, if bad_is_black { 8 } else { 7 });
    }
}

#[test]
fn occupied_point_loses_by_illegal_move() {
    assert_forfeits("occupied", "occupied", "illegal-move", "is occupied");
}

#[test]
fn off_board_point_loses_by_illegal_move() {
    assert_forfeits("offboard", "offboard", "illegal-move", "off the board");
}

#[test]
fn crash_garbage_and_silence_lose() {
    assert_forfeits("crash", "crash", "crash", "exited");
    assert_forfeits("garbage", "garbage", "garbage", "is not a move");
    assert_forfeits("hang", "hang", "timeout", "in time");
}

#[test]
fn about_answers_and_options_reach_the_records_and_the_engines() {
    let dir = scratch("about");
    // Only a match time: it is sent as the turn time too, never `timeout_turn 0`.
    let args = format!(
        "{} {} --game gomoku --size 15 --match-time 30000 --games 2 {}",
        engine(
            "late",
            "--about late --seed 1",
            "option.max_memory=1000 option.thread_num=1"
        ),
        engine("mute", "--about unknown --seed 2", ""),
        outputs(&dir)
    );
    run_ok(&args);
    let checked = check_outputs(&dir, 2, &board_args("--size 15"), 0);
    for record in &checked.records {
        let (late, mute) = if record.text("black") == "late" {
            ("black_about", "white_about")
        } else {
            ("white_about", "black_about")
        };
        // A late answer is taken when it comes, before the engine's first move.
        assert_eq!(record.get(late).text("name"), "qilin-test-engine");
        assert_eq!(record.get(mute), &Json::Null);
        assert!(
            record.text("reason") == "five" || record.text("reason") == "full-board",
            "{}",
            record.text("reason")
        );
    }
    let log = read_log(&dir);
    assert!(log.contains("> INFO timeout_turn 30000"));
    assert!(!log.contains("timeout_turn 0"));
    assert!(log.contains("> INFO time_left "));
    let late_lines: Vec<&str> = log
        .lines()
        .filter(|l| l.contains(" late(") && l.contains("> INFO"))
        .collect();
    let position = |text: &str| {
        late_lines
            .iter()
            .position(|l| l.ends_with(text))
            .unwrap_or_else(|| panic!("no '{text}' for the engine late"))
    };
    assert!(position("INFO game_type 1") < position("INFO max_memory 1000"));
    assert!(position("INFO max_memory 1000") < position("INFO thread_num 1"));
    assert!(!late_lines.iter().any(|l| l.ends_with("367001600")));
    assert!(
        log.lines()
            .any(|l| l.contains(" mute(") && l.ends_with("> INFO max_memory 367001600"))
    );
}

#[test]
fn silent_about_is_tolerated() {
    let dir = scratch("silent");
    let args = format!(
        "{} {} --game gomoku --size 15 --turn-time 2000 --games 2 {}",
        engine("quiet", "--about silent", ""),
        engine("b", "", ""),
        outputs(&dir)
    );
    run_ok(&args);
    let checked = check_outputs(&dir, 2, &board_args("--size 15"), 0);
    for record in &checked.records {
        let quiet = if record.text("black") == "quiet" {
            "black_about"
        } else {
            "white_about"
        };
        assert_eq!(record.get(quiet), &Json::Null);
    }
}

#[test]
fn bad_openings_files_name_the_line() {
    let dir = scratch("openings");
    let cases = [
        (
            "# header\n0,0, 1,1\n0,0, 9,0\n",
            "line 3",
            "off the 15x15 board",
        ),
        ("0,0, 1,1, 0,0\n", "line 1", "occupied"),
        (
            "0,0, 0,7, 1,0, 1,7, 2,0, 2,7, 3,0, 3,7, 4,0\n",
            "line 1",
            "black-wins reason: five",
        ),
        (
            "0,0, -7,-7, 1,0, -7,-5, 2,1, -7,-3, 2,2, -7,-1, 2,0\n",
            "line 1",
            "white-wins reason: double-three",
        ),
        ("0,0, 1\n", "line 1", "odd"),
    ];
    for (index, (text, line, what)) in cases.iter().enumerate() {
        let path = dir.join(format!("openings-{index}.txt"));
        std::fs::write(&path, text).unwrap();
        let output = run_match(&format!(
            "{} {} --game gomoku --size 15 --rule 4 --turn-time 100 --openings {}",
            engine("a", "", ""),
            engine("b", "", ""),
            path.display()
        ));
        assert_eq!(output.status.code(), Some(2), "{text}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(line) && stderr.contains(what),
            "{text}: {stderr}"
        );
    }
}

#[test]
fn bad_arguments_exit_with_status_2() {
    let engines = format!("{} {}", engine("a", "", ""), engine("b", "", ""));
    for bad in [
        format!("{engines} --game gomoku --size 15 --turn-time 100 --pgn x.pgn"),
        format!("{engines} --game gomoku --size 15 --rule 2 --turn-time 100"),
        format!("{engines} --game gomoku --rect 40,3 --turn-time 100"),
        format!("{engines} --game gomoku --size 15 --rect 9,9 --turn-time 100"),
        format!("{engines} --game gomoku --size 15"),
        format!("{engines} --game xiangqi --movetime 100 --sgf x.sgf"),
        format!("{engines} --game xiangqi --movetime 100 --psq d"),
    ] {
        let output = run_match(&bad);
        assert_eq!(output.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("qilin match: "), "{bad}: {stderr}");
    }
}
