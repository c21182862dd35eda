//! One browser game: the board, who plays which side, the time or depth a move, the
//! session's own searcher, the running search (an engine move, a hint or an analysis) and
//! the page's event streams. A search runs on its own thread through the engine layer
//! ([`spawn_search_with`]) and reports back by locking the session; no lock is held while
//! searching.

use std::fmt::Display;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossbeam_channel::Sender;
use serde_json::{Value, json};

use super::board::Board;
use crate::engine::spawn_search_with;
use crate::engine::{Limits, Score, Search, SearchControl, SearchEvent, SearchInfo, SearchOutcome};
use crate::gomoku;
use crate::tournament::referee::Outcome;
use crate::xiangqi;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the page.
    Human,
    /// Qilin's engine.
    Engine,
}

impl Player {
    /// `human` or `engine`.
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine => "engine",
        }
    }
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's move: played when the search ends.
    Move,
    /// A hint for the person to move: shown, not played.
    Hint,
    /// An analysis until `stop`: lines streamed, nothing played.
    Analyse,
}

impl Purpose {
    fn name(self) -> &'static str {
        match self {
            Purpose::Move => "move",
            Purpose::Hint => "hint",
            Purpose::Analyse => "analyse",
        }
    }
}

/// The session's searcher when it is at home (not lent to a search thread).
enum Engine {
    Xiangqi(Box<xiangqi::search::Searcher>),
    Gomoku(Box<gomoku::search::Searcher>),
}

/// A search under way.
struct Running {
    purpose: Purpose,
    control: Arc<SearchControl>,
    /// The session's generation when it started: a result for an older one is dropped.
    generation: u64,
    /// The side to move when it started.
    side: usize,
}

/// Limits shared by every session of one server.
#[derive(Debug)]
pub struct Budget {
    /// Searches allowed to run at once (more wait for a slot; analyses are refused).
    pub max_searches: usize,
    /// Searches running now.
    pub running: AtomicUsize,
    /// Hash table size of each session's searcher, MB.
    pub hash_mb: usize,
}

impl Budget {
    /// Takes a search slot if one is free.
    pub fn try_acquire(&self) -> bool {
        self.running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max_searches).then_some(n + 1)
            })
            .is_ok()
    }

    /// Gives a slot back.
    pub fn release(&self) {
        self.running.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A searcher that waits for a search slot of the server's [`Budget`] before it searches,
/// and gives the slot back when it is done.
struct Gated<S> {
    inner: S,
    budget: Arc<Budget>,
}

impl<S: Search> Search for Gated<S> {
    type Game = S::Game;
    type Params = S::Params;
    type Move = S::Move;

    fn run(
        &mut self,
        game: &S::Game,
        params: &S::Params,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchInfo<S::Move>),
    ) -> SearchOutcome<S::Move> {
        // Stopped while waiting: the search below returns at once, with no slot taken.
        let acquired = loop {
            if self.budget.try_acquire() {
                break true;
            }
            if control.stopped() {
                break false;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let outcome = self.inner.run(game, params, control, report);
        if acquired {
            self.budget.release();
        }
        outcome
    }
}

/// A request refused: the HTTP status and the message of the JSON error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 400 bad input, 409 not now, 503 server busy.
    pub status: u16,
    /// What was wrong; the game is unchanged.
    pub message: String,
}

impl Refusal {
    /// A 400 refusal.
    pub fn bad(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 400,
            message: message.into(),
        }
    }

    /// A 409 refusal (the request does not fit the game's state).
    pub fn conflict(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 409,
            message: message.into(),
        }
    }

    /// A 503 refusal (a server limit).
    pub fn busy(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 503,
            message: message.into(),
        }
    }
}

/// How long an engine move or a hint may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Milliseconds a move (when no depth is given).
    pub movetime_ms: u64,
    /// A fixed depth instead of the time.
    pub depth: Option<u32>,
}

/// The state of one game.
pub struct GameState {
    /// The board and its moves.
    pub board: Board,
    /// Who plays each seat.
    pub players: [Player; 2],
    /// The engine's thinking limit.
    pub thinking: Thinking,
    /// Set when a side resigned (the other wins).
    pub resigned: Option<usize>,
    /// Score after each ply from the first seat's view, in centipawns (mates as +-10000),
    /// `None` where nothing was searched; index 0 is the start.
    pub evals: Vec<Option<i32>>,
    /// The last search's lines by MultiPV index.
    lines: Vec<Value>,
    /// The last hint.
    hint: Option<String>,
    /// A note for the page (a search failure, an engine move refused).
    note: Option<String>,
    /// Milliseconds each seat used, and when the side to move's turn began.
    used_ms: [u64; 2],
    turn_start: Instant,
    searcher: Option<Engine>,
    running: Option<Running>,
    generation: u64,
    /// The page's event streams.
    listeners: Vec<Sender<String>>,
    /// Raised at every broadcast change, so that a page can drop a reply that arrives after
    /// a newer event (an engine may answer before the request that made it move returns).
    version: u64,
    /// Last request, for the idle reaper.
    pub last_used: Instant,
}

/// A game shared between request threads and its search thread.
pub struct Session {
    /// The game.
    pub state: Mutex<GameState>,
    /// Signalled when the searcher comes home.
    home: Condvar,
    /// The server's limits.
    budget: Arc<Budget>,
    /// The session's id.
    pub id: String,
}

/// The first seat's score in centipawns for the graph (a mate is +-10000 less its plies).
fn first_seat_cp(score: Score, side: usize) -> i32 {
    let cp = match score {
        Score::Cp(cp) => cp.clamp(-9000, 9000),
        Score::MatePlies(p) if p > 0 => 10_000 - p,
        Score::MatePlies(p) => -10_000 - p,
    };
    if side == 0 { cp } else { -cp }
}

/// A score as people read it, from the side to move's view: `+1.25`, `M3`, `-M2`.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::MatePlies(p) if p > 0 => format!("M{}", (p + 1) / 2),
        Score::MatePlies(p) => format!("-M{}", (-p + 1) / 2),
    }
}

/// One search line for the page.
fn line_json<M: Display>(info: &SearchInfo<M>, side: usize) -> Value {
    json!({
        "multipv": info.multipv,
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": score_text(info.score),
        "cp": first_seat_cp(info.score, side),
        "bound": format!("{:?}", info.bound).to_lowercase(),
        "nodes": info.nodes,
        "time_ms": info.time_ms,
        "pv": info.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
    })
}

impl Session {
    /// A new game with a searcher of the budget's hash size.
    pub fn new(
        id: String,
        board: Board,
        players: [Player; 2],
        thinking: Thinking,
        budget: Arc<Budget>,
    ) -> Result<Arc<Session>, Refusal> {
        let searcher = new_engine(&board, budget.hash_mb)?;
        let state = GameState {
            board,
            players,
            thinking,
            resigned: None,
            evals: vec![None],
            lines: Vec::new(),
            hint: None,
            note: None,
            used_ms: [0, 0],
            turn_start: Instant::now(),
            searcher: Some(searcher),
            running: None,
            generation: 0,
            listeners: Vec::new(),
            version: 0,
            last_used: Instant::now(),
        };
        let session = Arc::new(Session {
            state: Mutex::new(state),
            home: Condvar::new(),
            budget,
            id,
        });
        {
            let mut state = session.lock();
            session.engine_turn(&mut state);
        }
        Ok(session)
    }

    /// Locks the game (a poisoned lock is taken over: the state is kept consistent by
    /// every writer before it can panic).
    pub fn lock(&self) -> MutexGuard<'_, GameState> {
        match self.state.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Stops any search and waits (a few seconds at most) until the searcher is home, so
    /// that the game may change. Results of the stopped search are dropped.
    pub fn settle<'a>(
        &'a self,
        mut state: MutexGuard<'a, GameState>,
    ) -> Result<MutexGuard<'a, GameState>, Refusal> {
        if let Some(running) = state.running.take() {
            running.control.stop();
            state.generation += 1;
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while state.searcher.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Refusal::busy("the engine did not stop in time; try again"));
            }
            state = match self.home.wait_timeout(state, left) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        Ok(state)
    }

    /// Stops an analysis or hint (not an engine move, which must be played).
    pub fn stop(&self, state: &mut GameState) {
        if let Some(running) = &state.running
            && running.purpose != Purpose::Move
        {
            running.control.stop();
        }
    }

    /// Plays a person's move; refused when it is not a person's turn or not legal.
    pub fn human_move<'a>(
        self: &'a Arc<Self>,
        state: MutexGuard<'a, GameState>,
        text: &str,
    ) -> Result<MutexGuard<'a, GameState>, Refusal> {
        if state.players[state.board.side_to_move()] == Player::Engine {
            return Err(Refusal::conflict("it is the engine's turn"));
        }
        if let Some(ending) = state.ending() {
            return Err(Refusal::conflict(format!(
                "the game is over ({})",
                ending.reason
            )));
        }
        // Check the move on a copy first, so that a refused move leaves any analysis running.
        let mut trial = state.board.clone();
        trial.play(text).map_err(Refusal::bad)?;
        let mut state = self.settle(state)?;
        state.board = trial;
        state.moved(None);
        self.engine_turn(&mut state);
        self.broadcast(&mut state, "state");
        Ok(state)
    }

    /// Takes back `plies` moves (by default back to a person's turn).
    pub fn undo<'a>(
        &'a self,
        state: MutexGuard<'a, GameState>,
        plies: Option<usize>,
    ) -> Result<MutexGuard<'a, GameState>, Refusal> {
        if state.board.ply() == 0 {
            return Err(Refusal::conflict("no move to take back"));
        }
        let mut state = self.settle(state)?;
        let plies = plies.unwrap_or_else(|| {
            let mut n = 1;
            let ply = state.board.ply();
            // Back to a person's turn when the other side is the engine.
            while n < ply && state.players[(state.board.side_to_move() + n) % 2] == Player::Engine {
                n += 1;
            }
            n
        });
        state.board.undo(plies);
        let ply = state.board.ply();
        state.evals.truncate(ply + 1);
        state.resigned = None;
        state.hint = None;
        state.lines.clear();
        state.turn_start = Instant::now();
        // After an undo the engine waits: the person may want to play the other side.
        self.broadcast(&mut state, "state");
        Ok(state)
    }

    /// Replaces the game (a loaded record), keeping the players and limits.
    pub fn replace<'a>(
        &'a self,
        state: MutexGuard<'a, GameState>,
        board: Board,
    ) -> Result<MutexGuard<'a, GameState>, Refusal> {
        let mut state = self.settle(state)?;
        if board.kind() != state.board.kind() || !same_size(&board, &state.board) {
            state.searcher = Some(new_engine(&board, self.budget.hash_mb)?);
        }
        let ply = board.ply();
        state.board = board;
        state.evals = vec![None; ply + 1];
        state.resigned = None;
        state.hint = None;
        state.lines.clear();
        state.used_ms = [0, 0];
        state.turn_start = Instant::now();
        self.broadcast(&mut state, "state");
        Ok(state)
    }

    /// The side to move resigns.
    pub fn resign<'a>(
        &'a self,
        state: MutexGuard<'a, GameState>,
    ) -> Result<MutexGuard<'a, GameState>, Refusal> {
        if state.ending().is_some() {
            return Err(Refusal::conflict("the game is over already"));
        }
        let mut state = self.settle(state)?;
        let side = state.board.side_to_move();
        let loser = if state.players[side] == Player::Human {
            side
        } else {
            1 - side
        };
        state.resigned = Some(loser);
        self.broadcast(&mut state, "state");
        Ok(state)
    }

    /// Starts a hint or an analysis for the side to move.
    pub fn think(
        self: &Arc<Self>,
        state: &mut GameState,
        purpose: Purpose,
        multipv: u32,
    ) -> Result<(), Refusal> {
        if state.ending().is_some() {
            return Err(Refusal::conflict("the game is over"));
        }
        if let Some(running) = &state.running {
            return Err(Refusal::conflict(format!(
                "the engine is busy ({}); stop it first",
                running.purpose.name()
            )));
        }
        if state.searcher.is_none() {
            return Err(Refusal::busy("the engine is stopping; try again"));
        }
        if purpose == Purpose::Analyse
            && self.budget.running.load(Ordering::Acquire) >= self.budget.max_searches
        {
            return Err(Refusal::busy(format!(
                "all {} search slots are in use; try again later",
                self.budget.max_searches
            )));
        }
        self.start(state, purpose, multipv);
        Ok(())
    }

    /// Starts the engine's move when it is the engine's turn and nothing runs.
    fn engine_turn(self: &Arc<Self>, state: &mut GameState) {
        if state.running.is_none()
            && state.ending().is_none()
            && state.players[state.board.side_to_move()] == Player::Engine
        {
            self.start(state, Purpose::Move, 1);
        }
    }

    /// Lends the searcher to a new search thread.
    fn start(self: &Arc<Self>, state: &mut GameState, purpose: Purpose, multipv: u32) {
        let Some(engine) = state.searcher.take() else {
            return;
        };
        let limits = match purpose {
            Purpose::Analyse => Limits {
                infinite: true,
                ..Limits::default()
            },
            _ => Limits {
                depth: state.thinking.depth,
                movetime_ms: state
                    .thinking
                    .depth
                    .is_none()
                    .then_some(state.thinking.movetime_ms),
                move_overhead_ms: 10,
                ..Limits::default()
            },
        };
        let control = Arc::new(SearchControl::new(&limits));
        let generation = state.generation;
        let side = state.board.side_to_move();
        state.lines.clear();
        if purpose != Purpose::Move {
            state.hint = None;
        }
        let spawned = match (engine, &state.board) {
            (Engine::Xiangqi(searcher), Board::Xiangqi(game)) => {
                let params = xiangqi::search::SearchParams {
                    multipv: multipv.clamp(1, 8),
                    ..Default::default()
                };
                self.spawn(
                    *searcher,
                    game.clone(),
                    params,
                    &control,
                    generation,
                    Engine::Xiangqi,
                )
            }
            (Engine::Gomoku(searcher), Board::Gomoku(game, _)) => self.spawn(
                *searcher,
                game.board().clone(),
                gomoku::search::SearchParams::default(),
                &control,
                generation,
                Engine::Gomoku,
            ),
            _ => Err(std::io::Error::other("the searcher is of the other game")),
        };
        match spawned {
            Ok(()) => {
                state.running = Some(Running {
                    purpose,
                    control,
                    generation,
                    side,
                });
            }
            Err(why) => {
                // The searcher was lost with the thread that did not start: a new one (its
                // table is only a cache).
                state.searcher = new_engine(&state.board, self.budget.hash_mb).ok();
                state.note = Some(format!("could not start a search: {why}"));
            }
        }
    }

    /// Moves `searcher` onto a search thread; its events come back to [`Session::event`].
    /// `Err` when no thread could be started (the searcher is then lost).
    fn spawn<S>(
        self: &Arc<Self>,
        searcher: S,
        game: S::Game,
        params: S::Params,
        control: &Arc<SearchControl>,
        generation: u64,
        home: fn(Box<S>) -> Engine,
    ) -> std::io::Result<()>
    where
        S: Search,
        S::Move: Display,
    {
        let session = Arc::clone(self);
        let gated = Gated {
            inner: searcher,
            budget: Arc::clone(&self.budget),
        };
        spawn_search_with(
            gated,
            Arc::new(game),
            params,
            Arc::clone(control),
            move |event: SearchEvent<Gated<S>>| session.event(event, generation, home),
        )
    }

    /// Handles a search thread's report.
    fn event<S>(
        self: &Arc<Self>,
        event: SearchEvent<Gated<S>>,
        generation: u64,
        home: fn(Box<S>) -> Engine,
    ) where
        S: Search,
        S::Move: Display,
    {
        let mut state = self.lock();
        let current = state
            .running
            .as_ref()
            .filter(|r| r.generation == generation)
            .map(|r| (r.purpose, r.side));
        match event {
            SearchEvent::Info(info) => {
                if let Some((_, side)) = current {
                    let line = line_json(&info, side);
                    let index = (info.multipv.max(1) - 1) as usize;
                    if state.lines.len() <= index {
                        state.lines.resize(index + 1, Value::Null);
                    }
                    state.lines[index] = line.clone();
                    if index == 0 {
                        let ply = state.board.ply();
                        state.evals[ply] = Some(first_seat_cp(info.score, side));
                    }
                    state.send(&format!("event: info\ndata: {line}\n\n"));
                }
            }
            SearchEvent::Done(gated, outcome) => {
                state.searcher = Some(home(Box::new(gated.inner)));
                self.home.notify_all();
                if let Some((purpose, side)) = current {
                    state.running = None;
                    let best = outcome.best.map(|m| m.to_string());
                    match purpose {
                        Purpose::Move => {
                            let played = best
                                .as_deref()
                                .map(|m| state.board.play(m))
                                .unwrap_or_else(|| Err("the engine found no move".to_string()));
                            match played {
                                Ok(()) => {
                                    let cp = first_seat_cp(outcome.score, side);
                                    state.moved(Some(cp));
                                }
                                Err(why) => state.note = Some(why),
                            }
                            self.engine_turn(&mut state);
                        }
                        Purpose::Hint => state.hint = best,
                        Purpose::Analyse => {}
                    }
                    let end = json!({"purpose": purpose.name(), "best": state.hint});
                    state.send(&format!("event: searchend\ndata: {end}\n\n"));
                    self.broadcast(&mut state, "state");
                }
            }
            SearchEvent::Crashed(why) => {
                // The searcher is lost with the thread: build a new one.
                state.searcher = new_engine(&state.board, self.budget.hash_mb).ok();
                self.home.notify_all();
                if current.is_some() {
                    state.running = None;
                    state.note = Some(format!("the search failed ({why})"));
                    self.broadcast(&mut state, "state");
                }
            }
        }
    }

    /// Sends the state to every event stream.
    pub fn broadcast(&self, state: &mut GameState, event: &str) {
        state.version += 1;
        let body = state.to_json(&self.id);
        state.send(&format!("event: {event}\ndata: {body}\n\n"));
    }

    /// Stops the search for good (the session ends).
    pub fn close(&self) {
        let mut state = self.lock();
        if let Some(running) = state.running.take() {
            running.control.stop();
            state.generation += 1;
        }
        state.listeners.clear();
    }

    /// Adds an event stream; it gets the state at once.
    pub fn listen(&self, sender: Sender<String>) {
        let mut state = self.lock();
        let body = state.to_json(&self.id);
        let _ = sender.send(format!("event: state\ndata: {body}\n\n"));
        state.listeners.push(sender);
    }
}

/// A searcher for `board`'s game with a table of `hash_mb` MB.
fn new_engine(board: &Board, hash_mb: usize) -> Result<Engine, Refusal> {
    Ok(match board {
        Board::Xiangqi(_) => Engine::Xiangqi(Box::new(xiangqi::search::Searcher::new(hash_mb, 1))),
        Board::Gomoku(..) => Engine::Gomoku(Box::new(gomoku::search::Searcher::new(hash_mb, 1))),
    })
}

/// True when both boards are of one game and size (so the searcher can be kept).
fn same_size(a: &Board, b: &Board) -> bool {
    match (a, b) {
        (Board::Xiangqi(_), Board::Xiangqi(_)) => true,
        (Board::Gomoku(x, _), Board::Gomoku(y, _)) => {
            x.board().width() == y.board().width() && x.board().height() == y.board().height()
        }
        _ => false,
    }
}

impl GameState {
    /// The end of the game: a resignation or the referee's verdict.
    pub fn ending(&self) -> Option<Outcome> {
        match self.resigned {
            Some(loser) => Some(Outcome {
                winner: Some(1 - loser),
                reason: "resignation".to_string(),
            }),
            None => self.board.ending(),
        }
    }

    /// Book-keeping after a move: the clock, the graph, the old hint and lines.
    fn moved(&mut self, cp: Option<i32>) {
        let mover = 1 - self.board.side_to_move();
        self.used_ms[mover] += self.turn_start.elapsed().as_millis() as u64;
        self.turn_start = Instant::now();
        let ply = self.board.ply();
        self.evals.truncate(ply);
        while self.evals.len() < ply {
            self.evals.push(None);
        }
        self.evals.push(cp);
        self.hint = None;
        self.note = None;
    }

    /// Sends `text` to every stream, dropping closed ones.
    fn send(&mut self, text: &str) {
        self.listeners
            .retain(|l| l.try_send(text.to_string()).is_ok());
    }

    /// The whole state as the API returns it.
    pub fn to_json(&self, id: &str) -> Value {
        let ending = self.ending().map(|e| {
            let result = match e.winner {
                Some(0) => "1-0",
                Some(_) => "0-1",
                None => "1/2-1/2",
            };
            json!({
                "result": result,
                "winner": e.winner.map(|w| self.board.colours()[w]),
                "reason": e.reason,
            })
        });
        let side = self.board.side_to_move();
        let running = self.ending().is_none().then_some(side);
        json!({
            "id": id,
            "version": self.version,
            "game": self.board.kind(),
            "colours": self.board.colours(),
            "players": [self.players[0].name(), self.players[1].name()],
            "movetime_ms": self.thinking.movetime_ms,
            "depth": self.thinking.depth,
            "board": self.board.to_json(),
            "moves": self.board.moves(),
            "to_move": side,
            "ending": ending,
            "evals": self.evals,
            "thinking": self.running.as_ref().map(|r| r.purpose.name()),
            "lines": self.lines.iter().filter(|l| !l.is_null()).collect::<Vec<_>>(),
            "hint": self.hint,
            "note": self.note,
            "clock": {
                "used_ms": self.used_ms,
                "running": running,
                "turn_ms": self.turn_start.elapsed().as_millis() as u64,
            },
        })
    }
}
