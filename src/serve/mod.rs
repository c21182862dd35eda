//! `qilin serve`: a small HTTP server with one page (its script and style compiled into the
//! binary) and a JSON API over Qilin's engine layer and referees, so that a person can play
//! and analyse both games in a browser.
//!
//! Shape: a few request threads take requests from [`tiny_http`]; each game is a
//! `Session` with its own searcher; searches run on their own threads and report back by
//! locking their session; the page follows its game over server-sent events. Limits: request
//! bodies ([`MAX_BODY`]), sessions (`--sessions`, each with a `--hash` MB table), searches at
//! once (`--searches`) and event streams; an idle session ends after `--idle` seconds.

mod board;
mod records;
mod session;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::RngExt;
use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response, Server};

use board::Board;
use records::Format;
use session::{Budget, Player, Purpose, Refusal, Session, Thinking};

/// Largest request body read, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The page and its assets, compiled in.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

const USAGE: &str = "\
usage: qilin serve [--port P] [--host H] [--sessions N] [--hash MB] [--searches N] [--idle S]
  --port P       TCP port (default 8080; 0 picks a free one)
  --host H       address to bind (default 127.0.0.1, this machine only)
  --sessions N   games open at once (default 16); memory is bounded by N x the hash size
  --hash MB      transposition table of each game's searcher (default 16)
  --searches N   searches running at once (default 2); more wait, analyses are refused
  --idle S       a game nobody touched for S seconds ends (default 900)
The first line printed is `qilin serve: listening on http://ADDRESS/`.";

/// Settings of a server.
#[derive(Clone, Debug)]
struct Config {
    host: String,
    port: u16,
    sessions: usize,
    hash_mb: usize,
    searches: usize,
    idle: Duration,
}

fn parse_args(args: &[String]) -> Result<Option<Config>, String> {
    let mut config = Config {
        host: "127.0.0.1".to_string(),
        port: 8080,
        sessions: 16,
        hash_mb: 16,
        searches: 2,
        idle: Duration::from_secs(900),
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| format!("{flag} needs a number up to {max}, not '{value}'"))
        };
        match flag {
            "--host" => config.host = value.clone(),
            "--port" => config.port = number(65535)? as u16,
            "--sessions" => config.sessions = number(1024)?.max(1) as usize,
            "--hash" => config.hash_mb = number(4096)?.max(1) as usize,
            "--searches" => config.searches = number(64)?.max(1) as usize,
            "--idle" => config.idle = Duration::from_secs(number(86_400)?.max(1)),
            _ => return Err(format!("unexpected argument '{flag}'")),
        }
        i += 2;
    }
    Ok(Some(config))
}

/// Event streams open at once (each holds a thread).
const MAX_STREAMS: usize = 64;

/// Request threads.
const WORKERS: usize = 4;

/// The server's shared state.
struct Server_ {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    budget: Arc<Budget>,
    config: Config,
    streams: AtomicUsize,
}

/// `qilin serve ...`: runs until killed; returns the exit status on a bad start.
pub fn main(args: &[String]) -> i32 {
    let config = match parse_args(args) {
        Ok(Some(config)) => config,
        Ok(None) => {
            println!("{USAGE}");
            return 0;
        }
        Err(why) => {
            eprintln!("qilin serve: {why}\n{USAGE}");
            return 2;
        }
    };
    let server = match Server::http((config.host.as_str(), config.port)) {
        Ok(server) => Arc::new(server),
        Err(why) => {
            eprintln!(
                "qilin serve: cannot listen on {}:{}: {why}",
                config.host, config.port
            );
            return 1;
        }
    };
    let address = server.server_addr().to_ip().map_or_else(
        || format!("{}:{}", config.host, config.port),
        |a| a.to_string(),
    );
    println!("qilin serve: listening on http://{address}/");
    eprintln!(
        "qilin serve: at most {} games x {} MB hash, {} searches at once, idle games end after {} s",
        config.sessions,
        config.hash_mb,
        config.searches,
        config.idle.as_secs()
    );
    let _ = std::io::stdout().flush();
    let shared = Arc::new(Server_ {
        sessions: Mutex::new(HashMap::new()),
        budget: Arc::new(Budget {
            max_searches: config.searches,
            running: AtomicUsize::new(0),
            hash_mb: config.hash_mb,
        }),
        config,
        streams: AtomicUsize::new(0),
    });
    let reaper = Arc::clone(&shared);
    let _ = std::thread::Builder::new()
        .name("reaper".into())
        .spawn(move || {
            loop {
                std::thread::sleep(Duration::from_secs(1));
                reaper.reap();
            }
        });
    let mut workers = Vec::new();
    for n in 0..WORKERS {
        let server = Arc::clone(&server);
        let shared = Arc::clone(&shared);
        let worker = std::thread::Builder::new()
            .name(format!("http-{n}"))
            .spawn(move || {
                while let Ok(request) = server.recv() {
                    shared.handle(request);
                }
            });
        if let Ok(worker) = worker {
            workers.push(worker);
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    1
}

/// A JSON response.
fn reply(request: Request, status: u16, body: &Value) {
    let response = Response::from_string(body.to_string())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"));
    let _ = request.respond(response);
}

/// A JSON error: `{"error": message}`.
fn refuse(request: Request, refusal: &Refusal) {
    reply(request, refusal.status, &json!({"error": refusal.message}));
}

fn header(name: &str, value: &str) -> Header {
    // Both are ASCII constants of this module, so the header is always valid.
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|_| Header::from_bytes(&b"X-Bad"[..], &b"1"[..]).expect("valid header"))
}

/// The refusal of a body over [`MAX_BODY`].
fn too_big() -> Refusal {
    Refusal {
        status: 413,
        message: format!("request body over {} KiB", MAX_BODY / 1024),
    }
}

/// Reads a JSON object body (an empty body is `{}`); refuses huge or malformed ones.
fn read_body(request: &mut Request) -> Result<Value, Refusal> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Refusal::bad(format!("cannot read the body: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(too_big());
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let value: Value =
        serde_json::from_slice(&bytes).map_err(|e| Refusal::bad(format!("malformed JSON: {e}")))?;
    if !value.is_object() {
        return Err(Refusal::bad("the body must be a JSON object"));
    }
    Ok(value)
}

/// A field that must be a string when present.
fn string_field<'a>(body: &'a Value, name: &str) -> Result<Option<&'a str>, Refusal> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(Refusal::bad(format!("'{name}' must be a string"))),
    }
}

/// A field that must be a whole number in `range` when present.
fn number_field(
    body: &Value,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<Option<u64>, Refusal> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|n| range.contains(n))
            .map(Some)
            .ok_or_else(|| {
                Refusal::bad(format!(
                    "'{name}' must be a whole number from {} to {}",
                    range.start(),
                    range.end()
                ))
            }),
    }
}

impl Server_ {
    /// Ends sessions idle for too long.
    fn reap(&self) {
        let idle = self.config.idle;
        let mut ended = Vec::new();
        {
            let mut sessions = self.lock_sessions();
            sessions.retain(|_, s| {
                let keep = s.lock().last_used.elapsed() < idle;
                if !keep {
                    ended.push(Arc::clone(s));
                }
                keep
            });
        }
        for session in ended {
            session.close();
        }
    }

    fn lock_sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Session>>> {
        match self.sessions.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn handle(self: &Arc<Self>, mut request: Request) {
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let method = request.method().clone();
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        match (&method, parts.as_slice()) {
            (Method::Get, []) => asset(request, INDEX_HTML, "text/html; charset=utf-8"),
            (Method::Get, ["app.js"]) => asset(request, APP_JS, "text/javascript; charset=utf-8"),
            (Method::Get, ["app.css"]) => asset(request, APP_CSS, "text/css; charset=utf-8"),
            (Method::Get, ["api", "status"]) => {
                let sessions = self.lock_sessions().len();
                let body = json!({
                    "sessions": sessions,
                    "max_sessions": self.config.sessions,
                    "hash_mb": self.config.hash_mb,
                    "searches": self.budget.running.load(Ordering::Acquire),
                    "max_searches": self.budget.max_searches,
                    "streams": self.streams.load(Ordering::Acquire),
                });
                reply(request, 200, &body);
            }
            (Method::Post, ["api", "games"]) => {
                match read_body(&mut request).and_then(|body| self.new_game(&body)) {
                    Ok(body) => reply(request, 201, &body),
                    Err(refusal) => refuse(request, &refusal),
                }
            }
            (_, ["api", "games", id, rest @ ..]) => {
                let session = self.lock_sessions().get(*id).cloned();
                let Some(session) = session else {
                    return refuse(
                        request,
                        &Refusal {
                            status: 404,
                            message: format!("no game '{id}' (it may have ended when idle)"),
                        },
                    );
                };
                session.lock().last_used = Instant::now();
                match (&method, rest) {
                    (Method::Get, ["events"]) => self.stream(request, session),
                    (Method::Delete, []) => {
                        self.lock_sessions().remove(*id);
                        session.close();
                        reply(request, 200, &json!({"ended": id}));
                    }
                    (Method::Get, []) => {
                        let body = session.lock().to_json(&session.id);
                        reply(request, 200, &body);
                    }
                    (Method::Get, ["save"]) => {
                        let format = query
                            .split('&')
                            .find_map(|kv| kv.strip_prefix("format="))
                            .unwrap_or("pos");
                        match Format::parse(format)
                            .ok_or_else(|| Refusal::bad(format!("unknown format '{format}'")))
                            .and_then(|f| records::save(&session.lock(), f).map(|t| (f, t)))
                        {
                            Ok((f, text)) => reply(
                                request,
                                200,
                                &json!({"format": format!("{f:?}").to_lowercase(), "text": text}),
                            ),
                            Err(refusal) => refuse(request, &refusal),
                        }
                    }
                    (Method::Post, [action]) => {
                        let action = action.to_string();
                        match read_body(&mut request)
                            .and_then(|body| game_action(&session, &action, &body))
                        {
                            Ok(body) => reply(request, 200, &body),
                            Err(refusal) => refuse(request, &refusal),
                        }
                    }
                    _ => refuse(
                        request,
                        &Refusal::bad(format!("no such request: {method} {path}")),
                    ),
                }
            }
            _ => refuse(
                request,
                &Refusal {
                    status: 404,
                    message: format!("no such request: {method} {path}"),
                },
            ),
        }
    }

    /// `POST /api/games`: a new session.
    fn new_game(&self, body: &Value) -> Result<Value, Refusal> {
        let game = string_field(body, "game")?.unwrap_or("xiangqi");
        let board = match game {
            "xiangqi" => Board::xiangqi(),
            "gomoku" => {
                let size = number_field(body, "size", 5..=32)?.unwrap_or(15) as usize;
                let width = number_field(body, "width", 5..=32)?.map_or(size, |n| n as usize);
                let height = number_field(body, "height", 5..=32)?.map_or(size, |n| n as usize);
                let rule = match body.get("rule") {
                    None | Some(Value::Null) => crate::gomoku::Rule::Freestyle,
                    Some(Value::Number(n)) => n
                        .as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .and_then(crate::gomoku::Rule::from_number)
                        .ok_or_else(|| Refusal::bad(format!("unknown rule {n}")))?,
                    Some(Value::String(s)) => crate::gomoku::Rule::parse(s)
                        .ok_or_else(|| Refusal::bad(format!("unknown rule '{s}'")))?,
                    Some(_) => return Err(Refusal::bad("'rule' must be a name or number")),
                };
                Board::gomoku(width, height, rule).map_err(Refusal::bad)?
            }
            other => {
                return Err(Refusal::bad(format!(
                    "unknown game '{other}' (xiangqi or gomoku)"
                )));
            }
        };
        let mut players = [Player::Human, Player::Engine];
        for (seat, colour) in board.colours().iter().enumerate() {
            match string_field(body, colour)? {
                None => {}
                Some("human") => players[seat] = Player::Human,
                Some("engine") => players[seat] = Player::Engine,
                Some(other) => {
                    return Err(Refusal::bad(format!(
                        "'{colour}' must be 'human' or 'engine', not '{other}'"
                    )));
                }
            }
        }
        let thinking = Thinking {
            movetime_ms: number_field(body, "movetime_ms", 10..=600_000)?.unwrap_or(1000),
            depth: number_field(body, "depth", 1..=64)?.map(|d| d as u32),
        };
        let mut sessions = self.lock_sessions();
        if sessions.len() >= self.config.sessions {
            return Err(Refusal::busy(format!(
                "{} games are open, the most this server keeps; end one or wait",
                sessions.len()
            )));
        }
        let id = loop {
            let id = format!("{:016x}", rand::rng().random::<u64>());
            if !sessions.contains_key(&id) {
                break id;
            }
        };
        let session = Session::new(
            id.clone(),
            board,
            players,
            thinking,
            Arc::clone(&self.budget),
        )?;
        sessions.insert(id.clone(), Arc::clone(&session));
        drop(sessions);
        let body = session.lock().to_json(&id);
        Ok(body)
    }

    /// `GET /api/games/ID/events`: the game's server-sent events (`state` after each change,
    /// `info` for each search line, `searchend`), with a comment line every 15 s.
    fn stream(self: &Arc<Self>, request: Request, session: Arc<Session>) {
        if self.streams.fetch_add(1, Ordering::AcqRel) >= MAX_STREAMS {
            self.streams.fetch_sub(1, Ordering::AcqRel);
            return refuse(request, &Refusal::busy("too many event streams open"));
        }
        let (sender, receiver) = crossbeam_channel::bounded::<String>(256);
        let shared = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("events".into())
            .spawn(move || {
                let mut out = request.into_writer();
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                            Cache-Control: no-store\r\nConnection: close\r\n\r\n";
                let mut ok = out
                    .write_all(head.as_bytes())
                    .and_then(|()| out.flush())
                    .is_ok();
                session.listen(sender);
                drop(session);
                while ok {
                    let text = match receiver.recv_timeout(Duration::from_secs(15)) {
                        Ok(text) => text,
                        Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                            ": keep-alive\n\n".to_string()
                        }
                        Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
                    };
                    ok = out
                        .write_all(text.as_bytes())
                        .and_then(|()| out.flush())
                        .is_ok();
                }
                shared.streams.fetch_sub(1, Ordering::AcqRel);
            });
        if spawned.is_err() {
            self.streams.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// Serves a compiled-in asset.
fn asset(request: Request, text: &'static str, kind: &str) {
    let response = Response::from_string(text).with_header(header("Content-Type", kind));
    let _ = request.respond(response);
}

/// `POST /api/games/ID/<action>`: move, undo, hint, analyse, stop, resign, load.
fn game_action(session: &Arc<Session>, action: &str, body: &Value) -> Result<Value, Refusal> {
    let state = session.lock();
    let state = match action {
        "move" => {
            let text = string_field(body, "move")?
                .ok_or_else(|| Refusal::bad("'move' is missing (e.g. \"h2e2\" or \"7,7\")"))?;
            session.human_move(state, text)?
        }
        "undo" => {
            let plies = number_field(body, "plies", 1..=10_000)?.map(|n| n as usize);
            session.undo(state, plies)?
        }
        "hint" | "analyse" => {
            let mut state = state;
            let purpose = if action == "hint" {
                Purpose::Hint
            } else {
                Purpose::Analyse
            };
            let multipv = number_field(body, "multipv", 1..=8)?.unwrap_or(3) as u32;
            session.think(&mut state, purpose, multipv)?;
            session.broadcast(&mut state, "state");
            state
        }
        "stop" => {
            let mut state = state;
            session.stop(&mut state);
            state
        }
        "resign" => session.resign(state)?,
        "load" => {
            let text =
                string_field(body, "text")?.ok_or_else(|| Refusal::bad("'text' is missing"))?;
            let format = match string_field(body, "format")? {
                None => None,
                Some(f) => Some(
                    Format::parse(f)
                        .ok_or_else(|| Refusal::bad(format!("unknown format '{f}'")))?,
                ),
            };
            let board = records::load(text, format, &state.board)?;
            session.replace(state, board)?
        }
        other => return Err(Refusal::bad(format!("unknown action '{other}'"))),
    };
    Ok(state.to_json(&session.id))
}
