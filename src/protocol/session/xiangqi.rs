//! The Xiangqi session, for UCI and UCCI alike: the front end of the shared [`Session`], run by
//! the engine thread. It owns the game, the options and the banned moves, and says what each
//! command means (the text comes from `text/uci.rs` and `text/ucci.rs`). While a search runs it
//! answers `isready`, `stop`, `ponderhit`, `quit` (and `d`) at once, refuses a second `go`,
//! and queues everything else with a message (silently in UCCI batch mode, or once `stop` was
//! sent, since the search is then about to end). Nothing is dropped without a word. The
//! select loop, the queue, the watchdog and the quit grace are the shared core's.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use super::shared::{Core, FrontEnd, Job, Session, StartError, Watchdog};
use crate::engine::{Clock, Limits, Score, SearchControl, SearchInfo, SearchOutcome};
use crate::protocol::text::command::{
    ClockSpec, Command, GoCmd, OptionSetting, ParseError, PositionBase, PositionCmd, Protocol,
    Quoted,
};
use crate::protocol::text::{ucci, uci};
use crate::protocol::{DEFAULT_HASH_MB, EMBEDDED_NET_NAME, Input, Options, SearchParams, Searcher};
use crate::xiangqi::nnue::Network;
use crate::xiangqi::{Game, Move, Position};

/// What the Xiangqi front end remembers about a running job.
pub(crate) struct XiangqiJob {
    /// `go infinite` / UCCI `depth infinite`: only `stop` ends it.
    infinite: bool,
    /// A `go perft` count, not a search.
    perft: bool,
    /// Nothing but `stop` ends it once pondering is over: `infinite`, or a search without
    /// any limit (UCI `go ponder` with no clock after `ponderhit`).
    open_ended: bool,
    /// UCCI: the opponent offered a draw (`go draw`, `ponderhit draw`).
    draw_offered: bool,
    /// The root moves the search may answer (legal, not banned, within `searchmoves`); the
    /// first is the fallback if the search fails to produce one of them.
    allowed: Vec<Move>,
}

/// A `go perft` result: the count under each move counted, and the total (`None` when
/// `stop` or `quit` ended it early).
pub(crate) type PerftResult = (Vec<(Move, u64)>, Option<u64>);

/// The Xiangqi front end's state.
pub(crate) struct Xiangqi {
    protocol: Option<Protocol>,
    options: Options,
    game: Arc<Game>,
    banned: Vec<Move>,
    /// The loaded network (the embedded one until `EvalFile` names another); the searcher
    /// uses it while `options.use_nnue` is on.
    network: Arc<Network>,
}

/// The engine thread of a Xiangqi session.
pub(crate) type XiangqiSession<W> = Session<Xiangqi, W>;

impl<W: Write + 'static> Session<Xiangqi, W> {
    /// A session reading `input` and writing protocol lines to `out`.
    pub(crate) fn new(input: crossbeam_channel::Receiver<Input>, out: W) -> Self {
        let front = Xiangqi {
            protocol: None,
            options: Options::default(),
            game: Arc::new(Game::new(Position::startpos())),
            banned: Vec::new(),
            network: Arc::new(Network::embedded()),
        };
        Session::with_front_end(front, input, out)
    }
}

impl FrontEnd for Xiangqi {
    type Searcher = Searcher;
    type Command = Command;
    type Job = XiangqiJob;
    type Task = PerftResult;

    fn new_searcher(&self) -> Searcher {
        let mut searcher = Searcher::new(self.options.hash_mb, self.options.threads);
        searcher.set_network(self.active_network());
        searcher
    }

    fn read(&mut self, core: &mut Core<Self>, input: Input) -> Option<(Command, Instant)> {
        match input {
            Input::Detected(p) => self.protocol = Some(p),
            Input::Command(cmd, at) => return Some((cmd, at)),
            Input::Bad(e) => error(core, &e),
            Input::Eof => {}
        }
        None
    }

    fn stop_at_end_of_input(job: &Job<XiangqiJob>) -> bool {
        // Finite searches finish and print their move; those only `stop` would end stop.
        job.data.infinite || job.control.pondering()
    }

    fn stop_at_quit(job: &Job<XiangqiJob>) -> bool {
        // A search answers with what it has at once; a perft gets the end of input's grace,
        // so that a piped 'go perft' + 'quit' prints its count.
        !job.data.perft
    }

    fn info(&mut self, core: &mut Core<Self>, info: &SearchInfo<Move>) {
        match self.protocol {
            Some(Protocol::Ucci) => {
                // UCCI has no words for a bound or a second line.
                if info.multipv <= 1 && info.bound == crate::engine::Bound::Exact {
                    for line in ucci::info(info) {
                        core.emit(&line);
                    }
                }
            }
            _ => core.emit(&uci::info(info)),
        }
    }

    fn done(&mut self, core: &mut Core<Self>, job: Job<XiangqiJob>, outcome: SearchOutcome<Move>) {
        let outcome = self.checked_outcome(core, outcome, &job.data.allowed);
        if let Some(moves) = job.control.mate_limit() {
            match outcome.score.mate_within(moves) {
                Some(n) => message(core, &format!("mate in {n} found")),
                None => message(core, &format!("no mate in {moves} found")),
            }
        }
        self.report_outcome(core, &outcome, job.data.draw_offered);
    }

    fn crashed(&mut self, core: &mut Core<Self>, job: Job<XiangqiJob>, why: &str) {
        message(
            core,
            &format!("search failed ({why}); playing a legal move"),
        );
        let outcome = SearchOutcome {
            best: job.data.allowed.first().copied(),
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        };
        self.report_outcome(core, &outcome, false);
    }

    fn overdue(&mut self, core: &mut Core<Self>, job: Job<XiangqiJob>) {
        // Xiangqi searches are stopped at the hard deadline and waited for, never given up
        // (`Watchdog::Stop`); should one be, the first allowed move answers.
        self.crashed(core, job, "no answer in time");
    }

    fn task_done(&mut self, core: &mut Core<Self>, _: Job<XiangqiJob>, result: PerftResult) {
        let (divide, total) = result;
        for (m, n) in divide {
            core.emit(&format!("{m}: {n}"));
        }
        match total {
            Some(total) => core.emit(&format!("Nodes searched: {total}")),
            None => message(core, "perft stopped before the end"),
        }
    }

    fn farewell(&mut self, core: &mut Core<Self>) {
        if self.protocol == Some(Protocol::Ucci) {
            core.emit("bye");
        }
    }

    fn busy(
        &mut self,
        core: &mut Core<Self>,
        cmd: Command,
        at: Instant,
    ) -> Option<(Command, Instant)> {
        let batch = self.options.batch;
        let Some(job) = core.job() else {
            self.idle(core, cmd, at);
            return None;
        };
        let (stopping, pondering) = (job.stopping, job.control.pondering());
        // While a `go` waits in the queue, a `stop`, `ponderhit` or `isready` after it belongs
        // to it: they wait behind it and act once it started (see `replay_queue`). A `stop`
        // also ends the running search, which came before it.
        if matches!(
            cmd,
            Command::Stop | Command::PonderHit { .. } | Command::IsReady
        ) && core.any_queued(starts_job)
        {
            if cmd == Command::Stop {
                core.stop_job();
            }
            return Some((cmd, at));
        }
        match cmd {
            // Once stopped, the search reports within milliseconds: answering after its
            // `bestmove` keeps the natural order for GUIs that sync with `stop` + `isready`.
            Command::IsReady if stopping => return Some((cmd, at)),
            Command::IsReady => core.emit("readyok"),
            Command::Stop => core.stop_job(),
            Command::PonderHit { draw_offered } => match core.job_mut() {
                Some(job) if pondering => {
                    job.data.draw_offered |= draw_offered;
                    job.control.ponderhit();
                }
                _ => refuse(core, "ponderhit: the search is not pondering; ignored"),
            },
            // The stopped search answers within milliseconds; its move is printed, then the
            // session ends.
            Command::Quit => core.quit_after_answer(),
            Command::Display => self.display(core),
            Command::Go(_) | Command::Perft(_) if !(batch || stopping) => {
                let name = cmd.name();
                refuse(
                    core,
                    &format!("already thinking: '{name}' refused (send 'stop' first)"),
                );
            }
            other => {
                if !(batch || stopping) {
                    let name = other.name();
                    message(
                        core,
                        &format!("busy thinking: '{name}' will be handled when the search ends"),
                    );
                }
                return Some((other, at));
            }
        }
        None
    }

    fn idle(&mut self, core: &mut Core<Self>, cmd: Command, at: Instant) {
        match cmd {
            Command::Handshake(p) => self.handshake(core, p),
            Command::IsReady => core.emit("readyok"),
            Command::SetOption(setting) => self.set_option(core, setting),
            Command::Position(p) => match build_game(&p) {
                Ok(game) => {
                    self.game = Arc::new(game);
                    self.banned.clear();
                }
                Err(why) => refuse(core, &format!("{why}; position unchanged")),
            },
            Command::BanMoves(moves) => self.ban_moves(core, moves),
            Command::Go(go) => {
                self.go(core, go, at);
                self.replay_queue(core);
            }
            Command::Perft(depth) => {
                self.perft(core, depth);
                self.replay_queue(core);
            }
            Command::PonderHit { .. } => {
                refuse(core, "ponderhit: no search is running; ignored");
            }
            Command::Stop => match self.protocol {
                Some(Protocol::Ucci) => core.emit("nobestmove"),
                _ => message(core, "stop: no search is running"),
            },
            Command::Probe(p) => self.probe(core, &p),
            Command::NewGame => {
                if let Some(s) = core.searcher_mut() {
                    s.clear();
                }
                self.banned.clear();
            }
            Command::Display => self.display(core),
            Command::Quit => self.do_quit(core),
            // The reader sends Piskvork commands only to a Gomoku session.
            Command::Gomoku(_) => refuse(core, "a Piskvork command in a Xiangqi session"),
        }
    }
}

/// True for the commands that start a job (and get exactly one answer).
fn starts_job(cmd: &Command) -> bool {
    matches!(cmd, Command::Go(_) | Command::Perft(_))
}

/// A message for the GUI's log (`info string`).
fn message(core: &mut Core<Xiangqi>, text: &str) {
    core.emit(&format!("info string {text}"));
}

/// Reports bad input.
fn error(core: &mut Core<Xiangqi>, error: &ParseError) {
    core.emit(&format!("info string error: {error}"));
}

/// Reports a command refused or failed in the current state.
fn refuse(core: &mut Core<Xiangqi>, text: &str) {
    core.emit(&format!("info string error: {text}"));
}

impl Xiangqi {
    /// The network the searcher should use: `None` for the tuned evaluation.
    fn active_network(&self) -> Option<Arc<Network>> {
        self.options.use_nnue.then(|| Arc::clone(&self.network))
    }

    /// Loads the network `EvalFile` names (empty or `<embedded>`: the built-in one); a file
    /// that cannot be used is refused with its reason and the current network is kept.
    fn load_network(&mut self, core: &mut Core<Self>, file: String) {
        let embedded = file.is_empty() || file == EMBEDDED_NET_NAME;
        let loaded = if embedded {
            Ok(Network::embedded())
        } else {
            Network::load(&file)
        };
        match loaded {
            Ok(net) => {
                self.network = Arc::new(net);
                self.options.eval_file = if embedded { String::new() } else { file };
                let text = format!(
                    "EvalFile {}: network {:016x} loaded",
                    self.options.eval_file_shown(),
                    self.network.id()
                );
                message(core, &text);
            }
            Err(e) => refuse(
                core,
                &format!(
                    "EvalFile {} refused: {e}; network {:016x} ({}) kept",
                    Quoted(&file),
                    self.network.id(),
                    self.options.eval_file_shown()
                ),
            ),
        }
    }

    fn do_quit(&mut self, core: &mut Core<Self>) {
        self.farewell(core);
        core.quit();
    }

    /// After a `go` or `perft` (taken from the queue, or not: then the queue is empty), hands
    /// the commands queued behind it, up to the next queued job, to the job it started as if
    /// they arrived now, so that a `stop` or `ponderhit` sent while it waited acts on it.
    /// When it was answered at once, its `stop` and `ponderhit` have nothing left to do and
    /// are dropped; the other commands stay queued in order. The job is stopped at once when
    /// a `stop` comes later in the queue, or when a later `go` waits behind a job that only
    /// `stop` would end: every queued `go` is then answered in turn.
    fn replay_queue(&mut self, core: &mut Core<Self>) {
        let mut head = core.take_queue();
        let next_job = head.iter().position(|(cmd, _)| starts_job(cmd));
        let rest = head.split_off(next_job.unwrap_or(head.len()));
        let mut kept = std::collections::VecDeque::new();
        for (cmd, at) in head {
            let item = if core.job().is_some() {
                self.busy(core, cmd, at)
            } else if matches!(cmd, Command::Stop | Command::PonderHit { .. }) {
                None
            } else {
                Some((cmd, at))
            };
            kept.extend(item);
        }
        // A later `stop` ends every job before it; a later `go` ends one that would wait
        // for a `stop` that then never comes.
        let stopped_later = rest.iter().any(|(cmd, _)| *cmd == Command::Stop);
        let waits_for_stop = core
            .job()
            .is_some_and(|job| job.data.open_ended || job.control.pondering());
        if stopped_later || (waits_for_stop && !rest.is_empty()) {
            core.stop_job();
        }
        kept.extend(rest);
        core.restore_queue(kept);
    }

    fn handshake(&mut self, core: &mut Core<Self>, asked: Protocol) {
        match self.protocol {
            Some(p) if p == asked => {
                let lines = match p {
                    Protocol::Ucci => ucci::handshake(&self.options),
                    _ => uci::handshake(&self.options),
                };
                for line in lines {
                    core.emit(&line);
                }
            }
            Some(p) => {
                let word = if asked == Protocol::Ucci {
                    "ucci"
                } else {
                    "uci"
                };
                message(
                    core,
                    &format!("this session speaks {}; {} ignored", p.name(), Quoted(word)),
                );
            }
            None => {}
        }
    }

    fn set_option(&mut self, core: &mut Core<Self>, setting: OptionSetting) {
        match setting {
            OptionSetting::Hash(mb) => {
                let mb = if mb == 0 { DEFAULT_HASH_MB } else { mb };
                let resized = match core.searcher_mut() {
                    Some(s) => s.set_hash_mb(mb),
                    None => Ok(()),
                };
                match resized {
                    Ok(()) => self.options.hash_mb = mb,
                    Err(e) => refuse(
                        core,
                        &format!("{e}; the {} MB table is kept", self.options.hash_mb),
                    ),
                }
            }
            OptionSetting::Threads(n) => {
                let n = if n == 0 {
                    std::thread::available_parallelism().map_or(1, |n| n.get())
                } else {
                    n
                };
                self.options.threads = n;
                if let Some(s) = core.searcher_mut() {
                    s.set_threads(n);
                }
                if let Some(note) = super::notes::threads_note(&format!("Threads {n}"), n) {
                    message(core, &note);
                }
            }
            OptionSetting::MultiPv(n) => self.options.multipv = n,
            OptionSetting::Ponder(b) => self.options.ponder = b,
            OptionSetting::MoveOverhead(ms) => self.options.move_overhead_ms = ms,
            OptionSetting::ClearHash => {
                if let Some(s) = core.searcher_mut() {
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
                    message(
                        core,
                        "usebook: Qilin has no opening book yet; searching instead",
                    );
                }
            }
            OptionSetting::BookFiles(files) => self.options.bookfiles = files,
            OptionSetting::UseNnue(b) => self.options.use_nnue = b,
            OptionSetting::EvalFile(file) => self.load_network(core, file),
            OptionSetting::Variant(v) => {
                if !v.eq_ignore_ascii_case("xiangqi") {
                    message(
                        core,
                        &format!(
                            "UCI_Variant {} ignored: Qilin plays xiangqi only",
                            Quoted(&v)
                        ),
                    );
                }
            }
            OptionSetting::Ignored(name) => {
                message(
                    core,
                    &format!("option {} is not used by Qilin; ignored", Quoted(&name)),
                );
            }
        }
        let network = self.active_network();
        if let Some(s) = core.searcher_mut() {
            s.set_network(network);
        }
        if self.options.debug {
            let text = format!("options now {:?}", self.options);
            message(core, &text);
        }
    }

    fn ban_moves(&mut self, core: &mut Core<Self>, moves: Vec<Move>) {
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
            message(core, &text);
        }
        self.banned = moves;
    }

    fn no_move(&mut self, core: &mut Core<Self>) {
        match self.protocol {
            Some(Protocol::Ucci) => core.emit("nobestmove"),
            _ => core.emit("bestmove (none)"),
        }
    }

    /// Converts `go` into engine limits and starts the search thread.
    fn go(&mut self, core: &mut Core<Self>, go: GoCmd, at: Instant) {
        if !go.clamped.is_empty() {
            let notes: Vec<String> = go.clamped.iter().map(ToString::to_string).collect();
            message(core, &format!("go: {}", notes.join(", ")));
        }
        let ucci = self.protocol == Some(Protocol::Ucci);
        if ucci && go.depth == Some(0) {
            // Static evaluation only: nothing is searched, no move is chosen.
            return core.emit("nobestmove");
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
            message(
                core,
                "go: no legal move among 'searchmoves'; searching all moves",
            );
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
                        message(
                            core,
                            "go: no clock for the side to move; thinking until 'stop'",
                        );
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
        if allowed.is_empty() && !(limits.infinite || limits.ponder) {
            return self.no_move(core);
        }
        // With no move allowed, an infinite or ponder search still waits for `stop` or
        // `ponderhit` (the search does) and answers then, once.
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
            message(core, &text);
        }
        let open_ended = limits.infinite
            || (control.hard_ms() == u64::MAX
                && limits.depth.is_none()
                && limits.nodes.is_none()
                && limits.mate_moves.is_none());
        let data = XiangqiJob {
            infinite: limits.infinite,
            perft: false,
            open_ended,
            draw_offered: go.draw_offered,
            allowed,
        };
        let watchdog = if limits.infinite {
            Watchdog::Off
        } else {
            Watchdog::Stop
        };
        match core.start_search(game, params, control, at, watchdog, data) {
            Ok(()) => {}
            Err(StartError::NoSearcher(_)) => refuse(core, "internal: the searcher is busy"),
            Err(StartError::Spawn(e, _)) => {
                core.set_searcher(self.new_searcher());
                refuse(core, &format!("cannot start the search thread: {e}"));
            }
        }
    }

    fn perft(&mut self, core: &mut Core<Self>, depth: u32) {
        let mut pos = self.game.position().clone();
        let data = XiangqiJob {
            infinite: false,
            perft: true,
            open_ended: false,
            draw_offered: false,
            allowed: Vec::new(),
        };
        let started = core.start_task("qilin-perft", data, move |control| {
            crate::xiangqi::perft::perft_divide_until(&mut pos, depth, &|| control.stopped())
        });
        if let Err(e) = started {
            refuse(core, &format!("cannot start perft: {e}"));
        }
    }

    fn probe(&mut self, core: &mut Core<Self>, p: &PositionCmd) {
        match build_game(p) {
            Ok(game) => {
                let probe = core.searcher().and_then(|s| s.probe(game.position()));
                let line = ucci::pophash(probe.as_ref());
                core.emit(&line);
            }
            Err(why) => refuse(core, &format!("probe: {why}")),
        }
    }

    fn display(&mut self, core: &mut Core<Self>) {
        // The diagram ends with the FEN and key lines.
        let board = self.game.position().to_string();
        for line in board.lines() {
            core.emit(line);
        }
    }

    /// Never lets a search bug lose the game by protocol: a missing or forbidden best move is
    /// replaced by an allowed one, and a ponder move that is not legal after it is dropped.
    fn checked_outcome(
        &mut self,
        core: &mut Core<Self>,
        mut outcome: SearchOutcome<Move>,
        allowed: &[Move],
    ) -> SearchOutcome<Move> {
        let best_ok = outcome.best.is_some_and(|m| allowed.contains(&m));
        if !best_ok && let Some(&fallback) = allowed.first() {
            let what = outcome
                .best
                .map_or_else(|| "no move".to_string(), |m| format!("'{m}'"));
            message(
                core,
                &format!("search answered {what}, which is not allowed; playing {fallback}"),
            );
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

    fn report_outcome(
        &mut self,
        core: &mut Core<Self>,
        outcome: &SearchOutcome<Move>,
        draw_offered: bool,
    ) {
        let line = match self.protocol {
            Some(Protocol::Ucci) => ucci::bestmove(outcome, draw_offered),
            _ => uci::bestmove(outcome),
        };
        core.emit(&line);
    }
}

/// Builds the game a `position` (or `probe`) command describes, or says why it cannot.
fn build_game(cmd: &PositionCmd) -> Result<Game, String> {
    let pos = match &cmd.base {
        PositionBase::Startpos => Position::startpos(),
        PositionBase::Fen(fen) => {
            Position::from_fen(fen).map_err(|e| format!("bad FEN {}: {e}", Quoted(fen)))?
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
