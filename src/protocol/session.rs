//! The engine thread: owns the game, the options and the searcher, and runs the idle /
//! thinking state machine. While a search runs it answers `isready`, `stop`, `ponderhit`,
//! `quit` (and `d`) at once, refuses a second `go`, and queues everything else with a
//! message (silently in UCCI batch mode, or once `stop` was sent, since the search is then
//! about to end). Nothing is dropped without a word.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, never, select};

use super::command::{
    ClockSpec, Command, GoCmd, OptionSetting, ParseError, PositionBase, PositionCmd, Protocol,
};
use super::{DEFAULT_HASH_MB, Input, Options, SearchParams, Searcher, ucci, uci};
use crate::engine::{
    Clock, Limits, Score, SearchControl, SearchEvent, SearchInfo, SearchOutcome, spawn_search,
};
use crate::xiangqi::{Game, Move, Position};

/// What the worker threads send back: search events, or a finished `go perft`.
enum Event {
    /// From the search thread.
    Search(SearchEvent<Searcher>),
    /// A `go perft` finished.
    Perft(Vec<(Move, u64)>, u64),
}

/// What is running on the worker thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobKind {
    Search,
    Perft,
}

/// The running job.
struct Job {
    kind: JobKind,
    control: Arc<SearchControl>,
    /// `go infinite` / UCCI `depth infinite`: only `stop` ends it.
    infinite: bool,
    /// UCCI: the opponent offered a draw (`go draw`, `ponderhit draw`).
    draw_offered: bool,
    /// `stop` (or end of input) was sent: commands now wait silently.
    stopping: bool,
    /// The root moves the search may answer (legal, not banned, within `searchmoves`); the
    /// first is the fallback if the search fails to produce one of them.
    allowed: Vec<Move>,
}

/// The engine thread's state.
pub(crate) struct Session<W: Write> {
    input: Receiver<Input>,
    search_tx: Sender<SearchEvent<Searcher>>,
    search_rx: Receiver<SearchEvent<Searcher>>,
    perft_tx: Sender<(Vec<(Move, u64)>, u64)>,
    perft_rx: Receiver<(Vec<(Move, u64)>, u64)>,
    out: W,
    protocol: Option<Protocol>,
    options: Options,
    game: Arc<Game>,
    banned: Vec<Move>,
    searcher: Option<Searcher>,
    job: Option<Job>,
    queue: VecDeque<(Command, Instant)>,
    eof: bool,
    quit: bool,
    /// `quit` arrived while thinking: leave once the stopped search reported, or at this
    /// instant at the latest.
    quit_pending: Option<Instant>,
}

/// How long `quit` waits for a stopped search to hand in its move.
const QUIT_GRACE: Duration = Duration::from_millis(200);

impl<W: Write> Session<W> {
    /// A session reading `input` and writing protocol lines to `out`.
    pub(crate) fn new(input: Receiver<Input>, out: W) -> Session<W> {
        let (search_tx, search_rx) = crossbeam_channel::unbounded();
        let (perft_tx, perft_rx) = crossbeam_channel::unbounded();
        let options = Options::default();
        let searcher = Searcher::new(options.hash_mb, options.threads);
        Session {
            input,
            search_tx,
            search_rx,
            perft_tx,
            perft_rx,
            out,
            protocol: None,
            options,
            game: Arc::new(Game::new(Position::startpos())),
            banned: Vec::new(),
            searcher: Some(searcher),
            job: None,
            queue: VecDeque::new(),
            eof: false,
            quit: false,
            quit_pending: None,
        }
    }

    /// Handles `first` (the input that chose this session), then runs as [`Session::run`].
    pub(crate) fn run_from(mut self, first: Input) -> i32 {
        self.on_input(first);
        self.run()
    }

    /// Runs until `quit` or the end of input (after the last search finished). Returns the
    /// exit code.
    pub(crate) fn run(mut self) -> i32 {
        loop {
            if self.quit {
                return 0;
            }
            if self.job.is_none() && self.quit_pending.is_some() {
                self.do_quit();
                continue;
            }
            if self.job.is_none() {
                if let Some((cmd, at)) = self.queue.pop_front() {
                    self.idle_command(cmd, at);
                    continue;
                }
                if self.eof {
                    return 0;
                }
            }
            let input = if self.eof {
                never()
            } else {
                self.input.clone()
            };
            let search = self.search_rx.clone();
            let perft = self.perft_rx.clone();
            let timeout = self.watchdog_timeout();
            select! {
                recv(input) -> msg => match msg {
                    Ok(item) => self.on_input(item),
                    Err(_) => self.on_eof(),
                },
                recv(search) -> ev => if let Ok(ev) = ev {
                    self.on_event(Event::Search(ev));
                },
                recv(perft) -> ev => if let Ok((divide, total)) = ev {
                    self.on_event(Event::Perft(divide, total));
                },
                default(timeout) => self.on_watchdog(),
            }
        }
    }

    // ----- output -------------------------------------------------------------------------

    /// Writes one line and flushes it. A closed stdout means the GUI is gone: quit.
    fn emit(&mut self, line: &str) {
        let ok = writeln!(self.out, "{line}").and_then(|()| self.out.flush());
        if ok.is_err() {
            self.quit = true;
        }
    }

    /// A message for the GUI's log (`info string`).
    fn message(&mut self, text: &str) {
        self.emit(&format!("info string {text}"));
    }

    /// Reports bad input.
    fn error(&mut self, error: &ParseError) {
        self.emit(&format!("info string error: {error}"));
    }

    /// Reports a command refused or failed in the current state.
    fn refuse(&mut self, text: &str) {
        self.emit(&format!("info string error: {text}"));
    }

    // ----- input dispatch -----------------------------------------------------------------

    fn on_input(&mut self, item: Input) {
        match item {
            Input::Detected(p) => self.protocol = Some(p),
            Input::Command(cmd, at) => {
                if self.job.is_some() {
                    self.busy_command(cmd, at);
                } else {
                    self.idle_command(cmd, at);
                }
            }
            Input::Bad(e) => self.error(&e),
            Input::Eof => self.on_eof(),
        }
    }

    /// End of input: finite searches finish and print their move; searches that only `stop`
    /// would end are stopped. Then the session ends.
    fn on_eof(&mut self) {
        self.eof = true;
        if let Some(job) = self.job.as_mut()
            && (job.infinite || job.control.pondering())
        {
            job.stopping = true;
            job.control.stop();
        }
    }

    fn on_event(&mut self, event: Event) {
        match event {
            Event::Search(SearchEvent::Info(info)) => self.report_info(&info),
            Event::Search(SearchEvent::Done(searcher, outcome)) => {
                self.searcher = Some(*searcher);
                let Some(job) = self.job.take() else { return };
                let outcome = self.checked_outcome(outcome, &job.allowed);
                self.report_outcome(&outcome, job.draw_offered);
            }
            Event::Search(SearchEvent::Crashed(why)) => {
                let fallback = self.job.take().and_then(|j| j.allowed.first().copied());
                self.message(&format!("search failed ({why}); playing a legal move"));
                self.searcher = Some(Searcher::new(self.options.hash_mb, self.options.threads));
                let outcome = SearchOutcome {
                    best: fallback,
                    ponder: None,
                    score: Score::Cp(0),
                    depth: 0,
                    nodes: 0,
                };
                self.report_outcome(&outcome, false);
            }
            Event::Perft(divide, total) => {
                self.job = None;
                for (m, n) in divide {
                    self.emit(&format!("{m}: {n}"));
                }
                self.emit(&format!("Nodes searched: {total}"));
            }
        }
    }

    /// How long to sleep before the time manager's hard deadline needs enforcing here too (a
    /// safety net behind the search's own checks).
    fn watchdog_timeout(&self) -> Duration {
        const IDLE: Duration = Duration::from_secs(3600);
        if let Some(t) = self.quit_pending {
            return t.saturating_duration_since(Instant::now());
        }
        match &self.job {
            Some(job)
                if job.kind == JobKind::Search
                    && !job.infinite
                    && !job.stopping
                    && !job.control.pondering()
                    && job.control.hard_ms() != u64::MAX =>
            {
                let left = job
                    .control
                    .hard_ms()
                    .saturating_sub(job.control.clock_elapsed_ms());
                Duration::from_millis(left + 1)
            }
            _ => IDLE,
        }
    }

    fn on_watchdog(&mut self) {
        if self.quit_pending.is_some_and(|t| Instant::now() >= t) {
            return self.do_quit();
        }
        if let Some(job) = self.job.as_mut()
            && job.kind == JobKind::Search
            && !job.infinite
            && !job.control.pondering()
            && job.control.clock_elapsed_ms() >= job.control.hard_ms()
        {
            job.stopping = true;
            job.control.stop();
        }
    }

    // ----- thinking state -----------------------------------------------------------------

    fn busy_command(&mut self, cmd: Command, at: Instant) {
        let batch = self.options.batch;
        let Some(job) = self.job.as_mut() else {
            return self.idle_command(cmd, at);
        };
        match cmd {
            // Once stopped, the search reports within milliseconds: answering after its
            // `bestmove` keeps the natural order for GUIs that sync with `stop` + `isready`.
            Command::IsReady if job.stopping => self.queue.push_back((cmd, at)),
            Command::IsReady => self.emit("readyok"),
            Command::Stop => {
                if job.kind == JobKind::Perft {
                    self.message("perft cannot be interrupted; it ends by itself");
                } else {
                    job.stopping = true;
                    job.control.stop();
                }
            }
            Command::PonderHit { draw_offered } => {
                if job.control.pondering() {
                    job.draw_offered |= draw_offered;
                    job.control.ponderhit();
                } else {
                    self.refuse("ponderhit: the search is not pondering; ignored");
                }
            }
            Command::Quit if job.kind == JobKind::Search => {
                // The stopped search answers within milliseconds; its move is printed, then
                // the session ends (see `quit_pending`).
                job.stopping = true;
                job.control.stop();
                self.quit_pending = Some(Instant::now() + QUIT_GRACE);
            }
            Command::Quit => self.do_quit(),
            Command::Display => self.display(),
            Command::Go(_) | Command::Perft(_) if !(batch || job.stopping) => {
                let name = cmd.name();
                self.refuse(&format!(
                    "already thinking: '{name}' refused (send 'stop' first)"
                ));
            }
            other => {
                if !(batch || job.stopping) {
                    let name = other.name();
                    self.message(&format!(
                        "busy thinking: '{name}' will be handled when the search ends"
                    ));
                }
                self.queue.push_back((other, at));
            }
        }
    }

    fn do_quit(&mut self) {
        if self.protocol == Some(Protocol::Ucci) {
            self.emit("bye");
        }
        self.quit = true;
    }

    // ----- idle state ---------------------------------------------------------------------

    fn idle_command(&mut self, cmd: Command, at: Instant) {
        match cmd {
            Command::Handshake(p) => self.handshake(p),
            Command::IsReady => self.emit("readyok"),
            Command::SetOption(setting) => self.set_option(setting),
            Command::Position(p) => match build_game(&p) {
                Ok(game) => {
                    self.game = Arc::new(game);
                    self.banned.clear();
                }
                Err(why) => self.refuse(&format!("{why}; position unchanged")),
            },
            Command::BanMoves(moves) => self.ban_moves(moves),
            Command::Go(go) => self.go(go, at),
            Command::Perft(depth) => self.perft(depth),
            Command::PonderHit { .. } => self.refuse("ponderhit: no search is running; ignored"),
            Command::Stop => match self.protocol {
                Some(Protocol::Ucci) => self.emit("nobestmove"),
                _ => self.message("stop: no search is running"),
            },
            Command::Probe(p) => self.probe(&p),
            Command::NewGame => {
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.banned.clear();
            }
            Command::Display => self.display(),
            Command::Quit => self.do_quit(),
            // The reader sends Piskvork commands only to a Gomoku session.
            Command::Gomoku(_) => self.refuse("a Piskvork command in a Xiangqi session"),
        }
    }

    fn handshake(&mut self, asked: Protocol) {
        match self.protocol {
            Some(p) if p == asked => {
                let lines = match p {
                    Protocol::Ucci => ucci::handshake(&self.options),
                    _ => uci::handshake(&self.options),
                };
                for line in lines {
                    self.emit(&line);
                }
            }
            Some(p) => {
                let word = if asked == Protocol::Ucci {
                    "ucci"
                } else {
                    "uci"
                };
                self.message(&format!(
                    "this session speaks {}; '{word}' ignored",
                    p.name()
                ));
            }
            None => {}
        }
    }

    fn set_option(&mut self, setting: OptionSetting) {
        match setting {
            OptionSetting::Hash(mb) => {
                let mb = if mb == 0 { DEFAULT_HASH_MB } else { mb };
                self.options.hash_mb = mb;
                if let Some(s) = self.searcher.as_mut() {
                    s.set_hash_mb(mb);
                }
            }
            OptionSetting::Threads(n) => {
                let n = if n == 0 {
                    std::thread::available_parallelism().map_or(1, |n| n.get())
                } else {
                    n
                };
                self.options.threads = n;
                if let Some(s) = self.searcher.as_mut() {
                    s.set_threads(n);
                }
            }
            OptionSetting::MultiPv(n) => self.options.multipv = n,
            OptionSetting::Ponder(b) => self.options.ponder = b,
            OptionSetting::MoveOverhead(ms) => self.options.move_overhead_ms = ms,
            OptionSetting::ClearHash => {
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
            }
            OptionSetting::UseMillisec(b) => self.options.usemillisec = b,
            OptionSetting::Batch(b) => self.options.batch = b,
            OptionSetting::Debug(b) => self.options.debug = b,
            OptionSetting::Randomness(r) => self.options.randomness = r,
            OptionSetting::UseBook(b) => {
                self.options.usebook = b;
                if b {
                    self.message("usebook: Qilin has no opening book yet; searching instead");
                }
            }
            OptionSetting::BookFiles(files) => self.options.bookfiles = files,
            OptionSetting::Variant(v) => {
                if !v.eq_ignore_ascii_case("xiangqi") {
                    self.message(&format!(
                        "UCI_Variant '{v}' ignored: Qilin plays xiangqi only"
                    ));
                }
            }
            OptionSetting::Ignored(name) => {
                self.message(&format!("option '{name}' is not used by Qilin; ignored"));
            }
        }
        if self.options.debug {
            let text = format!("options now {:?}", self.options);
            self.message(&text);
        }
    }

    fn ban_moves(&mut self, moves: Vec<Move>) {
        let pos = self.game.position();
        let not_legal: Vec<String> = moves
            .iter()
            .filter(|&&m| !pos.is_legal(m))
            .map(|m| m.to_string())
            .collect();
        if !not_legal.is_empty() {
            let text = format!(
                "banmoves: {} not legal here (banned anyway)",
                not_legal.join(" ")
            );
            self.message(&text);
        }
        self.banned = moves;
    }

    fn no_move(&mut self) {
        match self.protocol {
            Some(Protocol::Ucci) => self.emit("nobestmove"),
            _ => self.emit("bestmove (none)"),
        }
    }

    /// Converts `go` into engine limits and starts the search thread.
    fn go(&mut self, go: GoCmd, at: Instant) {
        let ucci = self.protocol == Some(Protocol::Ucci);
        if ucci && go.depth == Some(0) {
            // Static evaluation only: nothing is searched, no move is chosen.
            return self.emit("nobestmove");
        }
        let game = Arc::clone(&self.game);
        let pos = game.position();
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let searchmoves: Vec<Move> = go
            .searchmoves
            .iter()
            .copied()
            .filter(|m| legal.contains(m))
            .collect();
        if !go.searchmoves.is_empty() && searchmoves.is_empty() {
            self.message("go: no legal move among 'searchmoves'; searching all moves");
        }
        let banned = if ucci {
            self.banned.clone()
        } else {
            Vec::new()
        };
        let allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !banned.contains(m))
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
            .collect();
        if allowed.is_empty() {
            return self.no_move();
        }
        let side_is_red = pos.side_to_move() == crate::xiangqi::Color::Red;
        let mut limits = Limits {
            depth: go.depth.map(|d| d.max(1)),
            nodes: go.nodes,
            movetime_ms: go.movetime_ms,
            clock: None,
            mate_moves: go.mate,
            infinite: go.infinite,
            ponder: go.ponder,
            move_overhead_ms: self.options.move_overhead_ms,
            ..Limits::default()
        };
        match go.clock {
            ClockSpec::None => {}
            ClockSpec::Uci {
                red_ms,
                black_ms,
                red_inc_ms,
                black_inc_ms,
                movestogo,
            } => {
                let (time, inc) = if side_is_red {
                    (red_ms, red_inc_ms)
                } else {
                    (black_ms, black_inc_ms)
                };
                match time {
                    Some(time_ms) => {
                        limits.clock = Some(Clock {
                            time_ms,
                            inc_ms: inc.unwrap_or(0),
                            movestogo,
                        })
                    }
                    None if limits.depth.is_none()
                        && limits.nodes.is_none()
                        && limits.movetime_ms.is_none()
                        && limits.mate_moves.is_none() =>
                    {
                        self.message("go: no clock for the side to move; thinking until 'stop'");
                        limits.infinite = true;
                    }
                    None => {}
                }
            }
            ClockSpec::Ucci {
                time,
                movestogo,
                increment,
                opptime: _,
            } => {
                let ms = self.options.usemillisec;
                limits.clock = Some(Clock {
                    time_ms: time.to_ms(ms),
                    inc_ms: increment.map_or(0, |i| i.to_ms(ms)),
                    movestogo,
                });
            }
        }
        let params = SearchParams {
            multipv: if ucci { 1 } else { self.options.multipv },
            banned,
            searchmoves,
            randomness: self.options.randomness,
        };
        let control = Arc::new(SearchControl::with_origin(&limits, at));
        if self.options.debug {
            let show = |ms: u64| {
                if ms == u64::MAX {
                    "none".to_string()
                } else {
                    format!("{ms} ms")
                }
            };
            let text = format!(
                "go: {limits:?}; soft limit {}, hard limit {}",
                show(control.soft_ms()),
                show(control.hard_ms())
            );
            self.message(&text);
        }
        let Some(searcher) = self.searcher.take() else {
            return self.refuse("internal: the searcher is busy");
        };
        let spawned = spawn_search(
            searcher,
            game,
            params,
            Arc::clone(&control),
            self.search_tx.clone(),
        );
        if let Err(e) = spawned {
            self.searcher = Some(Searcher::new(self.options.hash_mb, self.options.threads));
            return self.refuse(&format!("cannot start the search thread: {e}"));
        }
        self.job = Some(Job {
            kind: JobKind::Search,
            control,
            infinite: limits.infinite,
            draw_offered: go.draw_offered,
            stopping: false,
            allowed,
        });
    }

    fn perft(&mut self, depth: u32) {
        let mut pos = self.game.position().clone();
        let tx = self.perft_tx.clone();
        let spawned = std::thread::Builder::new()
            .name("qilin-perft".into())
            .spawn(move || {
                let (divide, total) = crate::xiangqi::perft::perft_divide(&mut pos, depth);
                let _ = tx.send((divide, total));
            });
        match spawned {
            Ok(_) => {
                self.job = Some(Job {
                    kind: JobKind::Perft,
                    control: Arc::new(SearchControl::new(&Limits::default())),
                    infinite: false,
                    draw_offered: false,
                    stopping: false,
                    allowed: Vec::new(),
                });
            }
            Err(e) => self.refuse(&format!("cannot start perft: {e}")),
        }
    }

    fn probe(&mut self, p: &PositionCmd) {
        match build_game(p) {
            Ok(game) => {
                let probe = self
                    .searcher
                    .as_ref()
                    .and_then(|s| s.probe(game.position()));
                let line = ucci::pophash(probe.as_ref());
                self.emit(&line);
            }
            Err(why) => self.refuse(&format!("probe: {why}")),
        }
    }

    fn display(&mut self) {
        // The diagram ends with the FEN and key lines.
        let board = self.game.position().to_string();
        for line in board.lines() {
            self.emit(line);
        }
    }

    // ----- search reports -----------------------------------------------------------------

    fn report_info(&mut self, info: &SearchInfo<Move>) {
        match self.protocol {
            Some(Protocol::Ucci) => {
                if info.multipv <= 1 {
                    for line in ucci::info(info) {
                        self.emit(&line);
                    }
                }
            }
            _ => {
                let line = uci::info(info);
                self.emit(&line);
            }
        }
    }

    /// Never lets a search bug lose the game by protocol: a missing or forbidden best move is
    /// replaced by an allowed one, and a ponder move that is not legal after it is dropped.
    fn checked_outcome(
        &mut self,
        mut outcome: SearchOutcome<Move>,
        allowed: &[Move],
    ) -> SearchOutcome<Move> {
        let best_ok = outcome.best.is_some_and(|m| allowed.contains(&m));
        if !best_ok && let Some(&fallback) = allowed.first() {
            let what = outcome
                .best
                .map_or_else(|| "no move".to_string(), |m| format!("'{m}'"));
            self.message(&format!(
                "search answered {what}, which is not allowed; playing {fallback}"
            ));
            outcome.best = Some(fallback);
            outcome.ponder = None;
        }
        if let (Some(best), Some(ponder)) = (outcome.best, outcome.ponder) {
            let mut after = self.game.position().clone();
            after.make_move(best);
            if !after.is_legal(ponder) {
                outcome.ponder = None;
            }
        }
        outcome
    }

    fn report_outcome(&mut self, outcome: &SearchOutcome<Move>, draw_offered: bool) {
        let line = match self.protocol {
            Some(Protocol::Ucci) => ucci::bestmove(outcome, draw_offered),
            _ => uci::bestmove(outcome),
        };
        self.emit(&line);
    }
}

/// Builds the game a `position` (or `probe`) command describes, or says why it cannot.
fn build_game(cmd: &PositionCmd) -> Result<Game, String> {
    let pos = match &cmd.base {
        PositionBase::Startpos => Position::startpos(),
        PositionBase::Fen(fen) => {
            Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?
        }
    };
    let mut game = Game::new(pos);
    for (i, &m) in cmd.moves.iter().enumerate() {
        if game.play(m).is_err() {
            return Err(format!("illegal move '{m}' (move {} of the list)", i + 1));
        }
    }
    Ok(game)
}
