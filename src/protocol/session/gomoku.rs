//! The Gomoku session, for Piskvork (Gomocup): the front end of the shared [`Session`], run by
//! the engine thread. It owns the board and the settings, says what each command means and
//! writes every answer (the line formats come from `text/piskvork.rs`); the shared core runs
//! the searches, the queue and the watchdog. Game decisions are the game's: the Swap2 stages
//! ([`crate::gomoku::swap2`]), the move played without a search
//! ([`crate::gomoku::fallback`]) and rule numbers ([`Rule::from_flags`]).
//!
//! While thinking, `END` leaves at once and `YXSTOP` makes the search answer now; every other
//! command waits in a queue and is handled, in order, after the move. Bad input gets `ERROR`
//! (a known command that cannot be done) or `UNKNOWN`, and the position stays as it was.
//!
//! Colours of a `BOARD` block: the side to move is the engine (field 1). With as many own
//! stones as opponent stones the engine is black; with one fewer it is white; otherwise the
//! colour with more stones is black. Under renju the stones come in move order.
//!
//! Rules from `INFO rule`: 0 freestyle, 1 exactly five, 4 renju, 8 caro, 9 caro with exactly
//! five; 2 is taken as renju (see [`Rule::from_flags`]).

use std::io::Write;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;

use super::shared::{Core, FrontEnd, Job, Session, StartError, Watchdog};
use crate::engine::{Limits, Score, Search, SearchControl, SearchInfo, SearchOutcome};
use crate::gomoku::swap2::{Decision, Stage};
use crate::gomoku::{Board, Cell, Color, Rule, fallback};
use crate::protocol::text::command::{Command, ParseError, Quoted, Shown};
use crate::protocol::text::piskvork::{
    BlockKind, BlockStone, DEFAULT_MAX_MEMORY, GomokuCommand, about_line, forbid_line,
};
use crate::protocol::{ENGINE_VERSION, Input};

/// What the session needs from a Gomoku searcher besides [`Search`].
pub(crate) trait GomokuSearcher: Search<Game = Board, Move = Cell> + Sized
where
    Self::Params: Default,
{
    /// A searcher with a table of `hash_mb` megabytes and `threads` threads.
    fn create(hash_mb: usize, threads: usize) -> Self;
    /// New table size and thread count (the table's contents are lost). When the table
    /// cannot be allocated the old one stays (the thread count still changes).
    fn resize(
        &mut self,
        hash_mb: usize,
        threads: usize,
    ) -> Result<(), crate::engine::tt::TableAllocError>;
    /// Forgets everything learnt (new game, `YXHASHCLEAR`).
    fn clear(&mut self);
}

impl GomokuSearcher for crate::gomoku::search::Searcher {
    fn create(hash_mb: usize, threads: usize) -> Self {
        crate::gomoku::search::Searcher::new(hash_mb, threads)
    }

    fn resize(
        &mut self,
        hash_mb: usize,
        threads: usize,
    ) -> Result<(), crate::engine::tt::TableAllocError> {
        self.set_threads(threads);
        self.set_hash_mb(hash_mb)
    }

    fn clear(&mut self) {
        crate::gomoku::search::Searcher::clear(self);
    }
}

/// The quick-move searcher serves the session's tests as a searcher with no table.
#[cfg(test)]
impl GomokuSearcher for fallback::QuickSearcher {
    fn create(_: usize, _: usize) -> Self {
        fallback::QuickSearcher
    }

    fn resize(&mut self, _: usize, _: usize) -> Result<(), crate::engine::tt::TableAllocError> {
        Ok(())
    }

    fn clear(&mut self) {}
}

/// The searcher a Gomoku session uses.
pub(crate) type DefaultSearcher = crate::gomoku::search::Searcher;

/// Memory kept for everything but the hash table: pattern tables, boards, stacks, code.
const MEMORY_BESIDES_HASH: u64 = 64 << 20;
/// What a one-thread Gomoku process uses besides its table, measured: the soak's peak
/// resident memory with a 1 MB table was 12.0 MB (20x20, README "Reliability"; a 15x15 game
/// peaks near 8.3 MB). See [`small_memory_note`].
const MEASURED_BESIDES_HASH: u64 = 12 << 20;
/// Hash size when the manager sets none, in MB (less when the memory limit says so).
const DEFAULT_HASH_MB: u64 = 128;
/// Milliseconds kept back on every move for the pipe and the manager's timing.
const MOVE_OVERHEAD_MS: u64 = 30;
/// The turn time when the manager gives none.
const DEFAULT_TURN_MS: u64 = 5_000;
/// `time_left` values meaning "no limit".
const UNLIMITED_TIME: i64 = 2_147_483_647;
/// Most threads accepted from `INFO thread_num`.
const MAX_THREADS: usize = 256;
/// How long after its hard deadline a search may take to answer before the session answers
/// for it with a quick move.
const WATCHDOG_GRACE: Duration = Duration::from_millis(150);

/// Everything `INFO` sets.
#[derive(Clone, Debug)]
struct Settings {
    timeout_turn_ms: u64,
    timeout_match_ms: u64,
    time_left_ms: Option<i64>,
    max_memory: u64,
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
    threads: usize,
    hash_kb: Option<u64>,
    rule: Rule,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            timeout_turn_ms: DEFAULT_TURN_MS,
            timeout_match_ms: 0,
            time_left_ms: None,
            max_memory: 0,
            max_depth: None,
            max_nodes: None,
            threads: 1,
            hash_kb: None,
            rule: Rule::Freestyle,
        }
    }
}

impl Settings {
    /// The hash size that keeps the process under the memory limit.
    fn hash_mb(&self) -> usize {
        let limit = if self.max_memory == 0 {
            DEFAULT_MAX_MEMORY
        } else {
            self.max_memory
        };
        let cap = limit.saturating_sub(MEMORY_BESIDES_HASH) >> 20;
        let wanted = self.hash_kb.map_or(DEFAULT_HASH_MB, |kb| kb >> 10);
        wanted.min(cap).max(1) as usize
    }
}

/// The one rule for `START n` and `RECTSTART w,h`: each side 1 to 32, and the longer one
/// at least 5, so that a five fits (`START n`: 5 to 32). The message says which part fails.
fn playable_size(width: usize, height: usize) -> Result<(), String> {
    let name = if width == height {
        format!("size {width}")
    } else {
        format!("board {width}x{height}")
    };
    if !(1..=32).contains(&width) || !(1..=32).contains(&height) {
        Err(format!("unsupported {name}: each side 1 to 32"))
    } else if width.max(height) < 5 {
        Err(format!(
            "unsupported {name}: no five fits (the longer side must be 5 to 32)"
        ))
    } else {
        Ok(())
    }
}

/// The note for a `max_memory` below the room Qilin keeps besides its hash table: what
/// happens (the smallest table) and whether the process fits (it needs about
/// [`MEASURED_BESIDES_HASH`] besides the table).
fn small_memory_note(bytes: u64) -> String {
    let need = MEASURED_BESIDES_HASH + (1 << 20);
    let fits = if bytes >= need {
        "which fits".to_string()
    } else {
        format!(
            "so the process may use more than {bytes} bytes (a one-thread game needs up to \
             about {need})"
        )
    };
    format!(
        "INFO max_memory {bytes}: less than the {MEMORY_BESIDES_HASH} bytes kept for \
         everything but the hash table; using the smallest table, 1 MB, {fits}"
    )
}

/// What a running search is for.
#[derive(Clone, Debug)]
enum Purpose {
    /// Answer with a move and play it.
    Move,
    /// A stage of a Swap2 opening (`SWAP2BOARD`); `turn_start` is when the turn's command
    /// came: the stage's searches share the one turn.
    Swap2 { stage: Stage, turn_start: Instant },
}

/// What the Gomoku front end remembers about a running search.
pub(crate) struct GomokuJob {
    purpose: Purpose,
    /// The position searched (for the fallback move).
    board: Board,
}

/// The Gomoku (Piskvork) front end's state.
pub(crate) struct Gomoku<S> {
    settings: Settings,
    board: Option<Board>,
    /// Problems with `INFO` values, told before the next answer.
    notes: Vec<String>,
    /// Thinking time used in this game (for `timeout_match` without `time_left`).
    used_ms: u64,
    searcher: PhantomData<fn() -> S>,
}

/// The engine thread of a Gomoku session, with the searcher `S`.
pub(crate) type GomokuSession<W, S = DefaultSearcher> = Session<Gomoku<S>, W>;

impl<W: Write + 'static, S: GomokuSearcher> Session<Gomoku<S>, W>
where
    S::Params: Default,
{
    /// A session reading `input` and writing to `out`. It runs until `END`, or the end of
    /// input: then the running search is stopped, and the commands that came before the
    /// end are answered (their searches stopped at once) in order before the session ends.
    pub(crate) fn new(input: Receiver<Input>, out: W) -> Self {
        let front = Gomoku {
            settings: Settings::default(),
            board: None,
            notes: Vec::new(),
            used_ms: 0,
            searcher: PhantomData,
        };
        Session::with_front_end(front, input, out)
    }
}

impl<S: GomokuSearcher> FrontEnd for Gomoku<S>
where
    S::Params: Default,
{
    type Searcher = S;
    /// Bad lines are queued too, to keep the answers in order.
    type Command = Result<GomokuCommand, ParseError>;
    type Job = GomokuJob;
    type Task = ();

    fn new_searcher(&self) -> S {
        S::create(self.settings.hash_mb(), self.settings.threads)
    }

    fn read(&mut self, core: &mut Core<Self>, input: Input) -> Option<(Self::Command, Instant)> {
        match input {
            Input::Detected(_) | Input::Eof => None,
            Input::Bad(error) => Some((Err(error), Instant::now())),
            Input::Command(Command::Gomoku(cmd), at) => Some((Ok(cmd), at)),
            Input::Command(other, _) => {
                let name = other.name();
                core.emit(&format!("UNKNOWN '{name}' is not a Piskvork command"));
                None
            }
        }
    }

    fn idle(&mut self, core: &mut Core<Self>, cmd: Self::Command, at: Instant) {
        match cmd {
            Ok(cmd) => self.command(core, cmd, at),
            Err(error) => self.bad_input(core, error),
        }
    }

    fn busy(
        &mut self,
        core: &mut Core<Self>,
        cmd: Self::Command,
        at: Instant,
    ) -> Option<(Self::Command, Instant)> {
        match cmd {
            Ok(GomokuCommand::End) => core.quit(),
            Ok(GomokuCommand::YxStop) => core.stop_job(),
            other => return Some((other, at)),
        }
        None
    }

    fn stop_at_end_of_input(_: &Job<GomokuJob>) -> bool {
        true
    }

    fn info(&mut self, core: &mut Core<Self>, info: &SearchInfo<Cell>) {
        self.report(core, info);
    }

    fn done(&mut self, core: &mut Core<Self>, job: Job<GomokuJob>, outcome: SearchOutcome<Cell>) {
        self.used_ms += job.started.elapsed().as_millis() as u64;
        let best = fallback::checked_or_quick(&job.data.board, outcome.best);
        self.finish(core, job.data.purpose, job.stopping, best, outcome.score);
    }

    fn crashed(&mut self, core: &mut Core<Self>, job: Job<GomokuJob>, why: &str) {
        core.emit(&format!(
            "MESSAGE search failed ({why}); playing a quick move"
        ));
        self.answer_fallback(core, &job.data.board, job.data.purpose);
    }

    fn overdue(&mut self, core: &mut Core<Self>, job: Job<GomokuJob>) {
        core.emit("MESSAGE the search did not answer in time; playing a quick move");
        self.answer_fallback(core, &job.data.board, job.data.purpose);
    }

    fn task_done(&mut self, _: &mut Core<Self>, _: Job<GomokuJob>, (): ()) {}

    fn farewell(&mut self, _: &mut Core<Self>) {}
}

/// Says `ERROR` and why.
fn refuse<S: GomokuSearcher>(core: &mut Core<Gomoku<S>>, text: &str)
where
    S::Params: Default,
{
    core.emit(&format!("ERROR {text}"));
}

impl<S: GomokuSearcher> Gomoku<S>
where
    S::Params: Default,
{
    fn flush_notes(&mut self, core: &mut Core<Self>) {
        for note in std::mem::take(&mut self.notes) {
            core.emit(&format!("MESSAGE {note}"));
        }
    }

    fn bad_input(&mut self, core: &mut Core<Self>, error: ParseError) {
        self.flush_notes(core);
        match error {
            ParseError::UnknownCommand(_) => core.emit(&format!("UNKNOWN {error}")),
            _ => core.emit(&format!("ERROR {error}")),
        }
    }

    fn command(&mut self, core: &mut Core<Self>, cmd: GomokuCommand, at: Instant) {
        if !matches!(cmd, GomokuCommand::Info { .. }) {
            self.flush_notes(core);
        }
        match cmd {
            GomokuCommand::Start { width, height } => self.start(core, width, height),
            GomokuCommand::Restart => match self.board.as_ref() {
                Some(board) => {
                    let (width, height) = (board.width(), board.height());
                    self.start(core, width, height);
                }
                None => refuse(core, "RESTART before START"),
            },
            GomokuCommand::Begin => match self.board.as_ref().map(Board::stone_count) {
                None => refuse(core, "no board: send START first"),
                // BEGIN opens a game on the empty board; a new game starts with RESTART.
                Some(0) => self.think(core, Purpose::Move, at),
                Some(n) => refuse(
                    core,
                    &format!(
                        "BEGIN is for the empty board and this one has {n} stones: send \
                         RESTART or START first, or BOARD for a position; position unchanged"
                    ),
                ),
            },
            GomokuCommand::Turn(x, y) => {
                let Some(cell) = self.free_cell(core, x, y) else {
                    return;
                };
                if let Some(board) = self.board.as_mut() {
                    board.play(cell);
                }
                self.think(core, Purpose::Move, at);
            }
            GomokuCommand::Play(x, y) => {
                let Some(cell) = self.free_cell(core, x, y) else {
                    return;
                };
                if let Some(board) = self.board.as_mut() {
                    board.play(cell);
                }
                core.emit(&format!("{x},{y}"));
            }
            GomokuCommand::TakeBack(x, y) => self.take_back(core, x, y),
            GomokuCommand::Block { kind, stones } => self.block(core, kind, &stones, at),
            GomokuCommand::Info { key, value } => self.set_info(core, &key, &value),
            GomokuCommand::End => core.quit(),
            GomokuCommand::About => core.emit(&about_line(ENGINE_VERSION)),
            GomokuCommand::YxStop => {}
            GomokuCommand::YxShowForbid => {
                let points: Vec<(usize, usize)> = self
                    .board
                    .as_ref()
                    .map(|b| {
                        b.forbidden_points()
                            .into_iter()
                            .map(|c| (c.x(), c.y()))
                            .collect()
                    })
                    .unwrap_or_default();
                core.emit(&forbid_line(&points));
            }
            GomokuCommand::YxShowInfo => {
                let s = self.settings.clone();
                core.emit(&format!(
                    "MESSAGE INFO rule {} timeout_turn {} timeout_match {} max_memory {} \
                     thread_num {} hash_size {} MAX_THREAD_NUM {MAX_THREADS}",
                    s.rule.number(),
                    s.timeout_turn_ms,
                    s.timeout_match_ms,
                    s.max_memory,
                    s.threads,
                    s.hash_mb() << 10,
                ));
            }
            GomokuCommand::YxHashClear => {
                if let Some(s) = core.searcher_mut() {
                    s.clear();
                }
            }
        }
    }

    fn board_or_error(&mut self, core: &mut Core<Self>) -> Option<&mut Board> {
        if self.board.is_none() {
            refuse(core, "no board: send START first");
        }
        self.board.as_mut()
    }

    /// The free cell at `x`, `y`, or an `ERROR` and `None`.
    fn free_cell(&mut self, core: &mut Core<Self>, x: usize, y: usize) -> Option<Cell> {
        let board = self.board_or_error(core)?;
        let Some(cell) = board.cell(x, y) else {
            let (w, h) = (board.width(), board.height());
            refuse(core, &format!("point {x},{y} is off the {w}x{h} board"));
            return None;
        };
        if !board.is_empty(cell) {
            refuse(core, &format!("point {x},{y} is occupied"));
            return None;
        }
        Some(cell)
    }

    fn start(&mut self, core: &mut Core<Self>, width: usize, height: usize) {
        if let Err(why) = playable_size(width, height) {
            return refuse(core, &why);
        }
        match Board::new(width, height, self.settings.rule) {
            Ok(board) => {
                self.board = Some(board);
                self.used_ms = 0;
                if let Some(s) = core.searcher_mut() {
                    s.clear();
                }
                core.emit("OK");
            }
            Err(error) => refuse(core, &error.to_string()),
        }
    }

    fn take_back(&mut self, core: &mut Core<Self>, x: usize, y: usize) {
        let Some(board) = self.board_or_error(core) else {
            return;
        };
        let Some(cell) = board.cell(x, y).filter(|&c| !board.is_empty(c)) else {
            return refuse(core, &format!("TAKEBACK {x},{y}: no stone there"));
        };
        if board.last_move().map(|(c, _)| c) == Some(cell) {
            board.undo();
        } else {
            // Rebuild without that stone, keeping the others' order and colours.
            let moves: Vec<(Cell, Color)> = board.moves().filter(|&(c, _)| c != cell).collect();
            let side = board.side_to_move();
            let rebuilt = Board::new(board.width(), board.height(), board.rule()).map(|mut b| {
                for (c, color) in moves {
                    b.play_as(c, color);
                }
                b.set_side_to_move(side.flip());
                b
            });
            match rebuilt {
                Ok(b) => *board = b,
                Err(error) => return refuse(core, &error.to_string()),
            }
        }
        core.emit("OK");
    }

    /// A position from a block's stones, or why not. `swap2` blocks give colours by order.
    fn position(&self, stones: &[BlockStone], swap2: bool) -> Result<Board, String> {
        let Some(current) = self.board.as_ref() else {
            return Err("no board: send START first".to_string());
        };
        let mut board = Board::new(current.width(), current.height(), current.rule())
            .map_err(|e| e.to_string())?;
        let stones: Vec<&BlockStone> = stones.iter().filter(|s| s.field != 3).collect();
        let own = stones.iter().filter(|s| s.field == 1).count();
        let opponent = stones.iter().filter(|s| s.field == 2).count();
        let own_color = if opponent == own + 1 || opponent > own {
            Color::White
        } else {
            Color::Black
        };
        for (index, stone) in stones.iter().enumerate() {
            let Some(cell) = board.cell(stone.x, stone.y) else {
                return Err(format!("point {},{} is off the board", stone.x, stone.y));
            };
            if !board.is_empty(cell) {
                return Err(format!("point {},{} is given twice", stone.x, stone.y));
            }
            let color = match (swap2, stone.field) {
                (true, _) | (_, 0) => {
                    if index % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    }
                }
                (false, 1) => own_color,
                _ => own_color.flip(),
            };
            board.play_as(cell, color);
        }
        if swap2 {
            let side = if stones.len().is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            board.set_side_to_move(side);
        } else {
            board.set_side_to_move(own_color);
        }
        Ok(board)
    }

    fn block(
        &mut self,
        core: &mut Core<Self>,
        kind: BlockKind,
        stones: &[BlockStone],
        at: Instant,
    ) {
        let board = match self.position(stones, kind == BlockKind::Swap2) {
            Ok(board) => board,
            Err(why) => return refuse(core, &format!("{why}; position unchanged")),
        };
        match kind {
            BlockKind::YxBoard => self.board = Some(board),
            BlockKind::Board => {
                self.board = Some(board);
                self.think(core, Purpose::Move, at);
            }
            BlockKind::Swap2 => {
                let Some(stage) = Stage::for_stones(&board, stones.len()) else {
                    let n = stones.len();
                    return refuse(
                        core,
                        &format!("SWAP2BOARD needs 0, 3 or 5 stones, got {n}; position unchanged"),
                    );
                };
                self.board = Some(board);
                self.think(
                    core,
                    Purpose::Swap2 {
                        stage,
                        turn_start: at,
                    },
                    at,
                );
            }
        }
    }

    fn set_info(&mut self, core: &mut Core<Self>, key: &str, value: &str) {
        let number = || value.trim().parse::<i64>().ok();
        let bad = || format!("INFO {}: bad value {} ignored", Shown(key), Quoted(value));
        match key {
            "timeout_turn" => match number() {
                Some(n) if n >= 0 => self.settings.timeout_turn_ms = n as u64,
                _ => self.notes.push(bad()),
            },
            "timeout_match" => match number() {
                Some(n) if n >= 0 => self.settings.timeout_match_ms = n as u64,
                _ => self.notes.push(bad()),
            },
            "time_left" => match number() {
                Some(n) => self.settings.time_left_ms = Some(n),
                None => self.notes.push(bad()),
            },
            "max_memory" => match number() {
                Some(n) if n >= 0 => {
                    self.settings.max_memory = n as u64;
                    if n > 0 && (n as u64) < MEMORY_BESIDES_HASH + (1 << 20) {
                        self.notes.push(small_memory_note(n as u64));
                    }
                    self.resize_searcher(core);
                }
                _ => self.notes.push(bad()),
            },
            "max_depth" => match number() {
                Some(n) if n > 0 => self.settings.max_depth = Some(n.min(1000) as u32),
                Some(0) => self.settings.max_depth = None,
                _ => self.notes.push(bad()),
            },
            "max_node" => match number() {
                Some(n) if n > 0 => self.settings.max_nodes = Some(n as u64),
                Some(0) => self.settings.max_nodes = None,
                _ => self.notes.push(bad()),
            },
            "thread_num" => match number() {
                Some(n) if n > 0 => {
                    let threads = usize::try_from(n).map_or(MAX_THREADS, |n| n.min(MAX_THREADS));
                    if threads as i64 != n {
                        self.notes.push(format!(
                            "INFO thread_num {n}: at most {MAX_THREADS}; using {MAX_THREADS}"
                        ));
                    }
                    self.notes.extend(super::notes::threads_note(
                        &format!("INFO thread_num {threads}"),
                        threads,
                    ));
                    self.settings.threads = threads;
                    self.resize_searcher(core);
                }
                _ => self.notes.push(bad()),
            },
            "hash_size" => match number() {
                Some(n) if n >= 0 => {
                    self.settings.hash_kb = (n > 0).then_some(n as u64);
                    self.resize_searcher(core);
                }
                _ => self.notes.push(bad()),
            },
            "rule" => match number() {
                Some(n) if (0..=15).contains(&n) => {
                    let rule = Rule::from_flags(n as u32);
                    if n & 2 != 0 && n != 2 {
                        self.notes
                            .push(format!("INFO rule {n}: the continuous game is not played"));
                    }
                    self.set_rule(rule);
                }
                _ => self.notes.push(bad()),
            },
            // game_type, folder, evaluate and keys of other managers need nothing here.
            _ => {}
        }
    }

    fn set_rule(&mut self, rule: Rule) {
        self.settings.rule = rule;
        let Some(board) = self.board.as_ref() else {
            return;
        };
        if board.rule() == rule {
            return;
        }
        let moves: Vec<(Cell, Color)> = board.moves().collect();
        let side = board.side_to_move();
        if let Ok(mut rebuilt) = Board::new(board.width(), board.height(), rule) {
            for (cell, color) in moves {
                rebuilt.play_as(cell, color);
            }
            rebuilt.set_side_to_move(side);
            self.board = Some(rebuilt);
        }
    }

    fn resize_searcher(&mut self, core: &mut Core<Self>) {
        let (hash, threads) = (self.settings.hash_mb(), self.settings.threads);
        if let Some(s) = core.searcher_mut()
            && let Err(e) = s.resize(hash, threads)
        {
            core.emit(&format!("ERROR {e}; the previous table is kept"));
        }
    }

    // ----- thinking -----------------------------------------------------------------------

    /// The match time left (ms), if the game is timed: the manager's `time_left` when sent,
    /// else `timeout_match` less the time used.
    fn limits_match_left(&self) -> Option<u64> {
        let s = &self.settings;
        match s.time_left_ms {
            Some(left) if left >= UNLIMITED_TIME => None,
            Some(left) => Some(left.max(0) as u64),
            None if s.timeout_match_ms > 0 => Some(s.timeout_match_ms.saturating_sub(self.used_ms)),
            None => None,
        }
    }

    /// The limits of the next search: Gomocup turn and match time, depth and node caps.
    fn limits(&self, board: &Board) -> Limits {
        let s = &self.settings;
        let match_left_ms = self.limits_match_left();
        let empty = board.width() * board.height() - board.stone_count();
        Limits {
            depth: s.max_depth,
            nodes: s.max_nodes,
            // `timeout_turn 0` asks for a move at once.
            turn_ms: Some(s.timeout_turn_ms.max(MOVE_OVERHEAD_MS + 5)),
            match_left_ms,
            moves_left: Some((empty / 8).clamp(8, 25) as u32),
            move_overhead_ms: MOVE_OVERHEAD_MS,
            ..Limits::default()
        }
    }

    /// The ms a Swap2 turn may take: the turn limit, and a tenth of the match time left.
    fn swap2_turn_ms(&self) -> u64 {
        let turn = self.settings.timeout_turn_ms.max(MOVE_OVERHEAD_MS + 5);
        match self.limits_match_left() {
            Some(left) => turn.min(left / 10),
            None => turn,
        }
    }

    fn think(&mut self, core: &mut Core<Self>, purpose: Purpose, at: Instant) {
        let Some(board) = self.board.clone() else {
            return refuse(core, "no board: send START first");
        };
        let board = match &purpose {
            Purpose::Swap2 { stage, .. } => stage.position(board),
            Purpose::Move => board,
        };
        if board.is_full() {
            return refuse(core, "the board is full");
        }
        if let Some((cell, color)) = fallback::five_made(&board) {
            let color = color.name();
            core.emit(&format!(
                "MESSAGE the game is over: {color} made five at {cell}"
            ));
        }
        let mut limits = self.limits(&board);
        if let Purpose::Swap2 { stage, turn_start } = &purpose {
            // Share what is left of the turn between the stage's searches still to come.
            let left = stage.searches_left();
            let elapsed = turn_start.elapsed().as_millis() as u64;
            limits.turn_ms = limits
                .turn_ms
                .map(|t| (t.saturating_sub(elapsed) / left).max(MOVE_OVERHEAD_MS + 5));
            limits.match_left_ms = limits
                .match_left_ms
                .map(|t| t.saturating_sub(elapsed) / left);
        }
        let control = Arc::new(SearchControl::with_origin(&limits, at));
        if core.at_eof() {
            control.stop();
        }
        let data = GomokuJob {
            purpose,
            board: board.clone(),
        };
        let watchdog = Watchdog::GiveUp(WATCHDOG_GRACE);
        match core.start_search(
            Arc::new(board),
            S::Params::default(),
            control,
            at,
            watchdog,
            data,
        ) {
            Ok(()) => {}
            Err(StartError::NoSearcher(_)) => refuse(core, "internal: no searcher"),
            Err(StartError::Spawn(_, data)) => {
                core.set_searcher(self.new_searcher());
                self.answer_fallback(core, &data.board, data.purpose);
            }
        }
    }

    /// Answers for a search that failed or hangs, with a quick move.
    fn answer_fallback(&mut self, core: &mut Core<Self>, board: &Board, purpose: Purpose) {
        self.finish(
            core,
            purpose,
            true,
            fallback::quick_move(board),
            Score::Cp(0),
        );
    }

    /// Turns a finished search into the answer its purpose calls for; `stopping` when the
    /// search was cut short (the answer then takes no more time).
    fn finish(
        &mut self,
        core: &mut Core<Self>,
        purpose: Purpose,
        stopping: bool,
        best: Option<Cell>,
        score: Score,
    ) {
        let (stage, turn_start) = match purpose {
            Purpose::Move => {
                return match best {
                    Some(cell) => {
                        if let Some(board) = self.board.as_mut()
                            && board.is_empty(cell)
                        {
                            board.play(cell);
                        }
                        core.emit(&cell.to_string());
                    }
                    None => refuse(core, "no move: the board is full"),
                };
            }
            Purpose::Swap2 { stage, turn_start } => (stage, turn_start),
        };
        // No time for another search in this turn: the stage answers now.
        let turn_ms = self.swap2_turn_ms();
        let stopping = stopping
            || turn_start.elapsed().as_millis() as u64 + 2 * (MOVE_OVERHEAD_MS + 5) > turn_ms;
        let Some(board) = self.board.clone() else {
            return refuse(core, "no board: send START first");
        };
        match stage.decide(&board, best, score, stopping) {
            Decision::Stones { play, announce } => {
                if let Some(board) = self.board.as_mut() {
                    for cell in play {
                        if board.is_empty(cell) {
                            board.play(cell);
                        }
                    }
                }
                let text: Vec<String> = announce.iter().map(Cell::to_string).collect();
                core.emit(&text.join(" "));
            }
            Decision::Swap => core.emit("SWAP"),
            Decision::SearchAgain { play, next } => {
                if let (Some(board), Some(cell)) = (self.board.as_mut(), play) {
                    board.play(cell);
                }
                self.think(
                    core,
                    Purpose::Swap2 {
                        stage: next,
                        turn_start,
                    },
                    Instant::now(),
                );
            }
            Decision::BoardFull => refuse(core, "no move: the board is full"),
            Decision::NoOpening => refuse(core, "no opening fits this board"),
        }
    }

    /// One `MESSAGE` line per finished iteration.
    fn report(&mut self, core: &mut Core<Self>, info: &SearchInfo<Cell>) {
        let score = match info.score {
            Score::Cp(cp) => cp.to_string(),
            Score::MatePlies(n) if n >= 0 => format!("+M{n}"),
            Score::MatePlies(n) => format!("-M{}", -n),
        };
        let nps = info.nodes.saturating_mul(1000) / info.time_ms.max(1);
        let pv: Vec<String> = info.pv.iter().map(Cell::to_string).collect();
        core.emit(&format!(
            "MESSAGE depth {}-{} ev {score} n {} n/s {nps} tm {} pv {}",
            info.depth,
            info.seldepth,
            info.nodes,
            info.time_ms,
            pv.join(" ")
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::fallback::QuickSearcher;
    use crate::protocol::LineReader;
    use std::sync::Mutex;

    /// A writer whose bytes can be read after the session has gone.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            match self.0.lock() {
                Ok(mut bytes) => bytes.extend_from_slice(buf),
                Err(poisoned) => poisoned.into_inner().extend_from_slice(buf),
            }
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Runs a session with the quick searcher over `lines` (then end of input).
    fn dialogue(lines: &[&str]) -> Vec<String> {
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut reader = LineReader::new();
        for line in lines {
            for item in reader.read(line, Instant::now()) {
                tx.send(item).expect("channel");
            }
        }
        drop(tx);
        let out = Shared::default();
        let session = GomokuSession::<_, QuickSearcher>::new(rx, out.clone());
        // The first input (the detection) is consumed by `run` like any other.
        assert_eq!(session.run(), 0);
        let bytes = out.0.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|l| !l.starts_with("MESSAGE depth"))
            .map(String::from)
            .collect()
    }

    #[test]
    fn a_session_keeps_its_position_through_bad_input() {
        let out = dialogue(&[
            "START 15",
            "TURN 7,7",
            "TURN 7,7",
            "BOARD",
            "1,1,1",
            "1,1,2",
            "DONE",
            "TAKEBACK 7,7",
            "TAKEBACK 7,7",
            "YXSHOWFORBID",
            "INFO rule 4",
            "YXBOARD",
            "5,7,1",
            "0,0,2",
            "6,7,1",
            "0,2,2",
            "7,5,1",
            "0,4,2",
            "7,6,1",
            "0,6,2",
            "DONE",
            "YXSHOWFORBID",
            "RESTART",
            "YXSHOWFORBID",
        ]);
        assert_eq!(out[0], "OK");
        assert!(Cell::parse(&out[1]).is_some(), "{out:?}");
        assert_eq!(out[2], "ERROR point 7,7 is occupied");
        assert_eq!(out[3], "ERROR point 1,1 is given twice; position unchanged");
        assert_eq!(out[4], "OK");
        assert_eq!(out[5], "ERROR TAKEBACK 7,7: no stone there");
        assert_eq!(out[6], "FORBID .");
        assert_eq!(out[7], "FORBID 0707.");
        assert_eq!(out[8], "OK");
        assert_eq!(out[9], "FORBID .");
        assert_eq!(out.len(), 10, "{out:?}");
    }

    #[test]
    fn hash_fits_the_memory_limit() {
        let mut s = Settings::default();
        assert_eq!(s.hash_mb(), DEFAULT_HASH_MB as usize);
        s.max_memory = 100 << 20;
        assert_eq!(s.hash_mb(), 36);
        s.hash_kb = Some(8 << 10);
        assert_eq!(s.hash_mb(), 8);
        s.max_memory = 1000;
        assert_eq!(s.hash_mb(), 1);
    }
}
