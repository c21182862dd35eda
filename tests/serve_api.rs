//! `qilin serve`'s JSON API over plain TCP: bad input (malformed JSON, illegal moves, huge
//! bodies, unknown games) answered with a JSON error and no change to the game; two games
//! played at once; an analysis whose streamed lines end when it is stopped; the page and its
//! assets served from the binary. Bounds are generous: the machine may be loaded.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running `qilin serve` on a free loopback port, killed on drop.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qilin"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start qilin serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut first = String::new();
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("first line");
        let address = first
            .trim()
            .strip_prefix("qilin serve: listening on http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
            .to_string();
        assert!(address.starts_with("127.0.0.1:"), "{address}");
        Server { child, address }
    }

    /// Sends one request and returns the status, the head and the body.
    fn raw(&self, request: &[u8]) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        // The server may answer before the whole body is sent (a huge body): ignore a
        // write error and read the answer.
        let _ = stream.write_all(request);
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply).to_string();
        let status = reply
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {reply:?}"));
        let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
        (status, head.to_string(), body.to_string())
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let (status, _, text) = self.raw(request.as_bytes());
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("reply to {method} {path} is not JSON ({e}): {text:?}"));
        (status, value)
    }

    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.request("POST", path, &body.to_string())
    }

    fn get(&self, path: &str) -> (u16, Value) {
        self.request("GET", path, "")
    }

    /// A new game; panics unless it was created.
    fn new_game(&self, body: Value) -> Value {
        let (status, state) = self.post("/api/games", body);
        assert_eq!(status, 201, "{state}");
        state
    }

    /// Polls the game until `done` holds (or panics after a minute).
    fn wait_for(&self, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (status, state) = self.get(&format!("/api/games/{id}"));
            assert_eq!(status, 200, "{state}");
            if done(&state) {
                return state;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {state}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("move").to_string())
        .collect()
}

fn id(state: &Value) -> String {
    state["id"].as_str().expect("id").to_string()
}

#[test]
fn bad_requests_get_a_json_error_and_leave_the_game_alone() {
    let server = Server::start(&[]);
    let game = server.new_game(json!({"game": "xiangqi", "red": "human", "black": "human"}));
    let id = id(&game);
    let (status, state) = server.post(&format!("/api/games/{id}/move"), json!({"move": "h2e2"}));
    assert_eq!(status, 200, "{state}");
    let before = server.get(&format!("/api/games/{id}")).1;
    let path = format!("/api/games/{id}/move");

    // Malformed JSON, a body that is not an object, a field of the wrong type.
    for body in [
        "{\"move\":",
        "[1,2]",
        "{\"move\": 7}",
        "{}",
        "\u{0}\u{1}garbage",
    ] {
        let (status, reply) = server.request("POST", &path, body);
        assert_eq!(status, 400, "{body:?}: {reply}");
        assert!(reply["error"].is_string(), "{reply}");
    }
    // Illegal and malformed moves, and a move for the wrong side.
    for mv in ["h2e2", "e0e5", "z9z9", "h9g7h", "a0a9"] {
        let (status, reply) = server.post(&path, json!({"move": mv}));
        assert_eq!(status, 400, "{mv}: {reply}");
        assert!(reply["error"].is_string(), "{reply}");
    }
    // A huge body, announced and sent.
    let huge = format!("{{\"move\": \"{}\"}}", "x".repeat(200_000));
    let (status, reply) = server.request("POST", &path, &huge);
    assert_eq!(status, 413, "{reply}");
    assert!(
        reply["error"].as_str().expect("error").contains("64"),
        "{reply}"
    );
    // Unknown games, actions and bad settings.
    for (path, body) in [
        ("/api/games", json!({"game": "chess"})),
        ("/api/games", json!({"game": "gomoku", "size": 99})),
        ("/api/games", json!({"game": "gomoku", "rule": "go"})),
        ("/api/games", json!({"game": "xiangqi", "red": "robot"})),
        ("/api/games", json!({"game": "xiangqi", "movetime_ms": -5})),
        (&format!("/api/games/{id}/fly") as &str, json!({})),
        (
            &format!("/api/games/{id}/load") as &str,
            json!({"text": "startpos moves h2e2 h2e2"}),
        ),
        (
            &format!("/api/games/{id}/load") as &str,
            json!({"text": "nonsense FEN"}),
        ),
    ] {
        let (status, reply) = server.post(path, body.clone());
        assert_eq!(status, 400, "{path} {body}: {reply}");
        assert!(reply["error"].is_string(), "{reply}");
    }
    let (status, reply) = server.get("/api/games/0123456789abcdef");
    assert_eq!(status, 404, "{reply}");
    let (status, reply) = server.get(&format!("/api/games/{id}/save?format=sgf"));
    assert_eq!(status, 400, "{reply}");

    let after = server.get(&format!("/api/games/{id}")).1;
    assert_eq!(moves(&after), vec!["h2e2".to_string()]);
    assert_eq!(after["board"]["fen"], before["board"]["fen"]);
    // The game still goes on.
    let (status, state) = server.post(&path, json!({"move": "h9g7"}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&state).len(), 2);
}

#[test]
fn two_games_are_played_at_once_against_the_engine() {
    let server = Server::start(&["--searches", "2"]);
    let xiangqi = server.new_game(json!({"game": "xiangqi", "red": "human", "black": "engine",
        "depth": 3}));
    let gomoku = server.new_game(json!({"game": "gomoku", "size": 15, "rule": "renju",
        "black": "human", "white": "engine", "depth": 3}));
    let (x, g) = (id(&xiangqi), id(&gomoku));
    assert_ne!(x, g);
    let (status, reply) = server.post(&format!("/api/games/{x}/move"), json!({"move": "h2e2"}));
    assert_eq!(status, 200, "{reply}");
    let (status, reply) = server.post(&format!("/api/games/{g}/move"), json!({"move": "7,7"}));
    assert_eq!(status, 200, "{reply}");
    // Both engines answer, each in its own game.
    let xs = server.wait_for(&x, "the xiangqi reply", |s| moves(s).len() == 2);
    let gs = server.wait_for(&g, "the gomoku reply", |s| moves(s).len() == 2);
    assert_eq!(moves(&xs)[0], "h2e2");
    assert_eq!(moves(&gs)[0], "7,7");
    assert!(moves(&gs)[1].contains(','), "{gs}");
    assert_eq!(xs["evals"].as_array().expect("evals").len(), 3, "{xs}");
    // A move while the engine is thinking or by the engine's side is refused.
    let (status, reply) = server.post(&format!("/api/games/{g}/move"), json!({"move": "7,7"}));
    assert_eq!(status, 400, "{reply}");
    // Undo takes back the engine's reply and the person's move.
    let (status, state) = server.post(&format!("/api/games/{x}/undo"), json!({}));
    assert_eq!(status, 200, "{state}");
    assert!(moves(&state).is_empty(), "{state}");
    assert_eq!(moves(&server.get(&format!("/api/games/{g}")).1).len(), 2);
    // Save and load round trip.
    let (status, saved) = server.get(&format!("/api/games/{g}/save?format=sgf"));
    assert_eq!(status, 200, "{saved}");
    let (status, loaded) = server.post(
        &format!("/api/games/{x}/load"),
        json!({"text": "startpos moves h2e2 h9g7 h0g2"}),
    );
    assert_eq!(status, 200, "{loaded}");
    assert_eq!(moves(&loaded), vec!["h2e2", "h9g7", "h0g2"]);
    let (_, status_reply) = server.get("/api/status");
    assert_eq!(status_reply["sessions"], 2, "{status_reply}");
    // The session limit holds.
    let small = Server::start(&["--sessions", "1"]);
    small.new_game(json!({"game": "gomoku"}));
    let (status, reply) = small.post("/api/games", json!({"game": "gomoku"}));
    assert_eq!(status, 503, "{reply}");
}

#[test]
fn an_analysis_streams_lines_until_stopped() {
    let server = Server::start(&[]);
    let game = server.new_game(json!({"game": "xiangqi", "red": "human", "black": "human"}));
    let id = id(&game);
    let mut stream = TcpStream::connect(&server.address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    write!(
        stream,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
    )
    .expect("request");
    let mut events = BufReader::new(stream);
    let mut next_event = || -> (String, Value) {
        let mut name = String::new();
        let mut data = String::new();
        loop {
            let mut line = String::new();
            let n = events.read_line(&mut line).expect("event line");
            assert!(n > 0, "the stream ended");
            let line = line.trim_end();
            if let Some(v) = line.strip_prefix("event: ") {
                name = v.to_string();
            } else if let Some(v) = line.strip_prefix("data: ") {
                data = v.to_string();
            } else if line.is_empty() && !name.is_empty() {
                return (name, serde_json::from_str(&data).expect("JSON data"));
            }
        }
    };
    // The headers, then the state at once.
    let (name, state) = next_event();
    assert_eq!(name, "state");
    assert_eq!(state["id"], id.as_str());

    let (status, reply) = server.post(&format!("/api/games/{id}/analyse"), json!({"multipv": 2}));
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["thinking"], "analyse");
    // A second search while it runs is refused.
    let (status, reply) = server.post(&format!("/api/games/{id}/hint"), json!({}));
    assert_eq!(status, 409, "{reply}");
    let mut infos = Vec::new();
    while infos.len() < 4 {
        let (name, data) = next_event();
        if name == "info" {
            infos.push(data);
        }
    }
    assert!(infos.iter().any(|i| i["multipv"] == 2), "{infos:?}");
    assert!(
        infos
            .iter()
            .all(|i| i["pv"].as_array().is_some_and(|pv| !pv.is_empty()))
    );
    let (status, _) = server.post(&format!("/api/games/{id}/stop"), json!({}));
    assert_eq!(status, 200);
    // The lines end with `searchend`, then a state with no search running.
    loop {
        let (name, data) = next_event();
        if name == "searchend" {
            assert_eq!(data["purpose"], "analyse");
            break;
        }
        assert_eq!(name, "info", "{data}");
    }
    let (name, state) = next_event();
    assert_eq!(name, "state");
    assert!(state["thinking"].is_null(), "{state}");
    assert!(
        moves(&state).is_empty(),
        "an analysis plays no move: {state}"
    );
}

#[test]
fn the_page_and_its_assets_are_served() {
    let server = Server::start(&[]);
    for (path, kind, needle) in [
        ("/", "text/html", "<script src=\"/app.js\">"),
        ("/app.js", "text/javascript", "EventSource"),
        ("/app.css", "text/css", "#board"),
    ] {
        let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let (status, head, body) = server.raw(request.as_bytes());
        assert_eq!(status, 200, "{path}");
        assert!(head.contains(kind), "{path}: {head}");
        assert!(body.contains(needle), "{path}");
    }
}
