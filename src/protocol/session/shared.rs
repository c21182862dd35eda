//! The session core shared by every game and protocol family, run by the engine thread (the
//! thread that called [`run_session`](crate::protocol::run_session)): one select loop over the
//! reader thread's input, the search events (tagged with the id of the job they belong to), the
//! results of other jobs (such as perft) and a watchdog timeout; the queue of commands that
//! arrive while a job runs (answered in order once it ended); the grace a delayed quit gives a
//! stopped search; the end of input; the searcher's trips to the search thread and back; and
//! the output writer.
//!
//! What a command means, what is urgent while thinking, and every line of protocol text
//! belong to a [`FrontEnd`], one per game (UCI/UCCI for Xiangqi in `session/xiangqi.rs`,
//! Piskvork for Gomoku in `session/gomoku.rs`). Adding a game or a protocol family means
//! writing a front end; this module stays as it is.

use std::collections::VecDeque;
use std::io::Write;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, never, select};

use crate::engine::{
    Limits, Search, SearchControl, SearchEvent, SearchInfo, SearchOutcome, spawn_search_with,
};
use crate::protocol::Input;

/// The game's move, as the front end's searcher reports it.
pub(crate) type MoveOf<F> = <<F as FrontEnd>::Searcher as Search>::Move;

/// How long a delayed quit waits for a stopped search to hand in its move.
const QUIT_GRACE: Duration = Duration::from_millis(200);
/// After the input ended, how long a job with no time limit of its own (a search limited by
/// depth or nodes, a mate search, perft) may go on before it is stopped and answers with
/// what it has. Jobs limited by time end by themselves; infinite ones stop at once.
const END_OF_INPUT_GRACE: Duration = Duration::from_secs(2);
/// How long the loop sleeps when nothing is due.
const IDLE: Duration = Duration::from_secs(3600);
/// How often a job whose watchdog gives up checks its deadline when it has none yet.
const POLL: Duration = Duration::from_millis(500);

/// What a protocol family adds to the [`Core`]: its commands, its state, its text.
pub(crate) trait FrontEnd: Sized {
    /// The searcher the session drives.
    type Searcher: Search;
    /// A command as it is handled or queued.
    type Command;
    /// What the front end remembers about a running job.
    type Job;
    /// The result of a job that is not a search (perft); `()` when there are none.
    type Task: Send + 'static;

    /// A fresh searcher with the current settings (also replaces one lost in a crash).
    fn new_searcher(&self) -> Self::Searcher;

    /// Turns a line the reader sent into a command, or deals with it at once (`None`). Never
    /// sees [`Input::Eof`]: the core handles the end of input.
    fn read(&mut self, core: &mut Core<Self>, input: Input) -> Option<(Self::Command, Instant)>;

    /// Handles a command while no job runs.
    fn idle(&mut self, core: &mut Core<Self>, cmd: Self::Command, at: Instant);

    /// Handles a command that arrived while a job runs, if it is urgent, and returns `None`;
    /// otherwise returns it to be queued and handled by [`FrontEnd::idle`] after the job.
    fn busy(
        &mut self,
        core: &mut Core<Self>,
        cmd: Self::Command,
        at: Instant,
    ) -> Option<(Self::Command, Instant)>;

    /// Whether the end of input stops this job now. Otherwise it runs to its time limit, or,
    /// without one, for [`END_OF_INPUT_GRACE`] more at most.
    fn stop_at_end_of_input(job: &Job<Self::Job>) -> bool;

    /// Whether a delayed quit ([`Core::quit_after_answer`]) stops this job now. Otherwise it
    /// gets the same grace as at the end of input.
    fn stop_at_quit(_job: &Job<Self::Job>) -> bool {
        true
    }

    /// Reports one progress report of the running search.
    fn info(&mut self, core: &mut Core<Self>, info: &SearchInfo<MoveOf<Self>>);

    /// Answers for a finished search.
    fn done(
        &mut self,
        core: &mut Core<Self>,
        job: Job<Self::Job>,
        outcome: SearchOutcome<MoveOf<Self>>,
    );

    /// Answers for a search that panicked (the searcher was already replaced).
    fn crashed(&mut self, core: &mut Core<Self>, job: Job<Self::Job>, why: &str);

    /// Answers for a search that missed its deadline by more than the watchdog's grace (it
    /// was stopped and is no longer waited for; a replacement searcher is ready).
    fn overdue(&mut self, core: &mut Core<Self>, job: Job<Self::Job>);

    /// Answers for a finished task.
    fn task_done(&mut self, core: &mut Core<Self>, job: Job<Self::Job>, result: Self::Task);

    /// Last words of a delayed quit (see [`Core::quit_after_answer`]), before leaving.
    fn farewell(&mut self, core: &mut Core<Self>);
}

/// What the watchdog does about a job's hard deadline (a safety net behind the search's
/// own checks of its time limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Watchdog {
    /// Nothing: the job ends by itself or by `stop` (infinite searches, tasks).
    Off,
    /// Stop the search once its clock passed the hard limit (not while pondering, not once
    /// stopping), then wait for its answer.
    Stop,
    /// Once the hard limit plus this grace passed since the job started, stop the search,
    /// stop waiting for it and answer for it ([`FrontEnd::overdue`]).
    GiveUp(Duration),
}

/// The running job: its control block, its state and the front end's data about it.
pub(crate) struct Job<D> {
    id: u64,
    watchdog: Watchdog,
    /// The search's control block (a task gets one without limits).
    pub(crate) control: Arc<SearchControl>,
    /// The job was told to stop (by a command, the watchdog or the end of input).
    pub(crate) stopping: bool,
    /// When the job was asked for (its line was read).
    pub(crate) started: Instant,
    /// The front end's data.
    pub(crate) data: D,
}

impl<D> Job<D> {
    /// When the end of input, which came at `eof`, stops this job: `None` for a job with a
    /// time limit (it ends by itself) or one already stopping.
    fn end_of_input_deadline(&self, eof: Option<Instant>) -> Option<Instant> {
        let eof = eof?;
        let timed = self.control.hard_ms() != u64::MAX;
        (!timed && !self.stopping).then(|| eof.max(self.started) + END_OF_INPUT_GRACE)
    }

    /// How long until the watchdog must look at this job.
    fn timeout(&self) -> Duration {
        let hard = self.control.hard_ms();
        match self.watchdog {
            Watchdog::Stop if !self.stopping && !self.control.pondering() && hard != u64::MAX => {
                let left = hard.saturating_sub(self.control.clock_elapsed_ms());
                Duration::from_millis(left + 1)
            }
            Watchdog::Off | Watchdog::Stop => IDLE,
            Watchdog::GiveUp(_) if hard == u64::MAX => POLL,
            Watchdog::GiveUp(grace) => (Duration::from_millis(hard) + grace)
                .saturating_sub(self.started.elapsed())
                .max(Duration::from_millis(5)),
        }
    }
}

/// Why a search did not start.
pub(crate) enum StartError<D> {
    /// The searcher is out on another search (a bug).
    NoSearcher(D),
    /// The search thread could not be started; the searcher went with it, so the front end
    /// gives the core a new one ([`Core::set_searcher`]).
    Spawn(std::io::Error, D),
}

/// The game-neutral state of the engine thread, as front ends see it.
pub(crate) struct Core<F: FrontEnd> {
    input: Receiver<Input>,
    events_tx: Sender<(u64, SearchEvent<F::Searcher>)>,
    events_rx: Receiver<(u64, SearchEvent<F::Searcher>)>,
    tasks_tx: Sender<(u64, F::Task)>,
    tasks_rx: Receiver<(u64, F::Task)>,
    out: Box<dyn Write>,
    searcher: Option<F::Searcher>,
    job: Option<Job<F::Job>>,
    next_job_id: u64,
    /// Commands that came while a job ran, with the moments their lines were read.
    queue: VecDeque<(F::Command, Instant)>,
    /// When the input ended (`None` while it goes on), or a delayed quit came.
    eof_at: Option<Instant>,
    quit: bool,
    /// A delayed quit came: the session leaves once the jobs it let finish answered.
    quitting: bool,
    /// A quit waits for the stopped search's answer until then at the latest.
    quit_pending: Option<Instant>,
}

impl<F: FrontEnd> Core<F> {
    /// Writes one line and flushes it. A closed output means the other side is gone: quit.
    pub(crate) fn emit(&mut self, line: &str) {
        let ok = writeln!(self.out, "{line}").and_then(|()| self.out.flush());
        if ok.is_err() {
            self.quit = true;
        }
    }

    /// The running job, if any.
    pub(crate) fn job(&self) -> Option<&Job<F::Job>> {
        self.job.as_ref()
    }

    /// The running job, to change its data.
    pub(crate) fn job_mut(&mut self) -> Option<&mut Job<F::Job>> {
        self.job.as_mut()
    }

    /// Tells the running job to stop (it still answers).
    pub(crate) fn stop_job(&mut self) {
        if let Some(job) = self.job.as_mut() {
            job.stopping = true;
            job.control.stop();
        }
    }

    /// True when a queued command satisfies `pred`.
    pub(crate) fn any_queued(&self, pred: impl Fn(&F::Command) -> bool) -> bool {
        self.queue.iter().any(|(cmd, _)| pred(cmd))
    }

    /// Takes the whole queue of waiting commands (oldest first), leaving it empty.
    pub(crate) fn take_queue(&mut self) -> VecDeque<(F::Command, Instant)> {
        std::mem::take(&mut self.queue)
    }

    /// Puts `queue` back in front of whatever was queued since [`Core::take_queue`].
    pub(crate) fn restore_queue(&mut self, mut queue: VecDeque<(F::Command, Instant)>) {
        queue.append(&mut self.queue);
        self.queue = queue;
    }

    /// The searcher, when it is at home.
    pub(crate) fn searcher(&self) -> Option<&F::Searcher> {
        self.searcher.as_ref()
    }

    /// The searcher, when it is at home, to change its settings.
    pub(crate) fn searcher_mut(&mut self) -> Option<&mut F::Searcher> {
        self.searcher.as_mut()
    }

    /// Replaces the searcher (or gives one when it is out).
    pub(crate) fn set_searcher(&mut self, searcher: F::Searcher) {
        self.searcher = Some(searcher);
    }

    /// True once the input has ended.
    pub(crate) fn at_eof(&self) -> bool {
        self.eof_at.is_some()
    }

    /// Ends the session now.
    pub(crate) fn quit(&mut self) {
        self.quit = true;
    }

    /// Ends the session once the running job and the commands queued before the quit were
    /// answered, with [`FrontEnd::farewell`]: like the end of input (nothing more is read),
    /// except that the jobs [`FrontEnd::stop_at_quit`] names are stopped at once, and the
    /// session waits for a stopped job's answer only a short grace.
    pub(crate) fn quit_after_answer(&mut self) {
        self.quitting = true;
        self.eof_at.get_or_insert_with(Instant::now);
    }

    /// Sends the searcher to search `game` on its own thread; its events come back to the
    /// front end tagged with this job's id, so a late answer of a job given up is dropped.
    pub(crate) fn start_search(
        &mut self,
        game: Arc<<F::Searcher as Search>::Game>,
        params: <F::Searcher as Search>::Params,
        control: Arc<SearchControl>,
        started: Instant,
        watchdog: Watchdog,
        data: F::Job,
    ) -> Result<(), StartError<F::Job>> {
        let Some(searcher) = self.searcher.take() else {
            return Err(StartError::NoSearcher(data));
        };
        self.next_job_id += 1;
        let id = self.next_job_id;
        let events = self.events_tx.clone();
        let spawned = spawn_search_with(searcher, game, params, Arc::clone(&control), move |ev| {
            let _ = events.send((id, ev));
        });
        if let Err(e) = spawned {
            return Err(StartError::Spawn(e, data));
        }
        self.job = Some(Job {
            id,
            watchdog,
            control,
            stopping: false,
            started,
            data,
        });
        Ok(())
    }

    /// Runs `work` on a thread of its own (`name`) as the running job; its result comes back
    /// to [`FrontEnd::task_done`]. A task cannot be stopped.
    pub(crate) fn start_task(
        &mut self,
        name: &str,
        data: F::Job,
        work: impl FnOnce(&SearchControl) -> F::Task + Send + 'static,
    ) -> std::io::Result<()> {
        let id = self.next_job_id + 1;
        let tx = self.tasks_tx.clone();
        let control = Arc::new(SearchControl::new(&Limits::default()));
        let task_control = Arc::clone(&control);
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let _ = tx.send((id, work(&task_control)));
            })?;
        self.next_job_id = id;
        self.job = Some(Job {
            id,
            watchdog: Watchdog::Off,
            control,
            stopping: false,
            started: Instant::now(),
            data,
        });
        Ok(())
    }
}

/// One engine thread: the [`Core`] and the front end of its protocol family. `W` is the
/// output's type.
pub(crate) struct Session<F: FrontEnd, W> {
    core: Core<F>,
    front: F,
    out: PhantomData<fn(W)>,
}

impl<F: FrontEnd, W: Write + 'static> Session<F, W> {
    /// A session of `front` reading `input` and writing to `out`.
    pub(crate) fn with_front_end(front: F, input: Receiver<Input>, out: W) -> Self {
        let (events_tx, events_rx) = crossbeam_channel::unbounded();
        let (tasks_tx, tasks_rx) = crossbeam_channel::unbounded();
        let searcher = front.new_searcher();
        Session {
            core: Core {
                input,
                events_tx,
                events_rx,
                tasks_tx,
                tasks_rx,
                out: Box::new(out),
                searcher: Some(searcher),
                job: None,
                next_job_id: 0,
                queue: VecDeque::new(),
                eof_at: None,
                quit: false,
                quitting: false,
                quit_pending: None,
            },
            front,
            out: PhantomData,
        }
    }

    /// Handles `first` (the input that chose this session), then runs as [`Session::run`].
    pub(crate) fn run_from(mut self, first: Input) -> i32 {
        self.on_input(first);
        self.run()
    }

    /// Runs until quit, or the end of input: then the jobs the front end lets finish finish,
    /// and the commands that came before the end are answered in order before the session
    /// ends. Returns the exit code.
    pub(crate) fn run(mut self) -> i32 {
        loop {
            if self.core.quit {
                return 0;
            }
            if self.core.job.is_none() {
                if let Some((cmd, at)) = self.core.queue.pop_front() {
                    self.front.idle(&mut self.core, cmd, at);
                    // A job started from the queue after the input ended (say a second
                    // `go infinite`) gets the same end-of-input treatment as a running one.
                    if self.core.at_eof() {
                        self.stop_job_at_end_of_input();
                    }
                    continue;
                }
                if self.core.quitting {
                    self.leave();
                    continue;
                }
                if self.core.at_eof() {
                    return 0;
                }
            }
            let input = if self.core.at_eof() {
                never()
            } else {
                self.core.input.clone()
            };
            let events = self.core.events_rx.clone();
            let tasks = self.core.tasks_rx.clone();
            let timeout = self.watchdog_timeout();
            select! {
                recv(input) -> msg => match msg {
                    Ok(item) => self.on_input(item),
                    Err(_) => self.on_eof(),
                },
                recv(events) -> ev => if let Ok((id, ev)) = ev {
                    self.on_event(id, ev);
                },
                recv(tasks) -> done => if let Ok((id, result)) = done {
                    self.on_task(id, result);
                },
                default(timeout) => self.on_watchdog(),
            }
        }
    }

    fn leave(&mut self) {
        self.front.farewell(&mut self.core);
        self.core.quit = true;
    }

    fn on_input(&mut self, item: Input) {
        if let Input::Eof = item {
            return self.on_eof();
        }
        let Some((cmd, at)) = self.front.read(&mut self.core, item) else {
            return;
        };
        if self.core.job.is_some() {
            if let Some(queued) = self.front.busy(&mut self.core, cmd, at) {
                self.core.queue.push_back(queued);
            }
        } else {
            self.front.idle(&mut self.core, cmd, at);
        }
        if self.core.quitting {
            self.stop_job_at_end_of_input();
        }
    }

    /// End of input: the running job stops if the front end says so; the session ends once
    /// the queue is empty.
    fn on_eof(&mut self) {
        self.core.eof_at = Some(Instant::now());
        self.stop_job_at_end_of_input();
    }

    /// Stops the running job if the front end says the end of input (or the quit) ends it.
    /// After a quit, the session waits a short grace for a stopped job, none for the others.
    fn stop_job_at_end_of_input(&mut self) {
        let Some(job) = self.core.job.as_ref() else {
            return;
        };
        if self.core.quitting {
            if F::stop_at_quit(job) {
                self.core.stop_job();
                self.core.quit_pending = Some(Instant::now() + QUIT_GRACE);
            } else {
                self.core.quit_pending = None;
            }
        } else if F::stop_at_end_of_input(job) {
            self.core.stop_job();
        }
    }

    fn is_current(&self, id: u64) -> bool {
        self.core.job.as_ref().is_some_and(|job| job.id == id)
    }

    fn on_event(&mut self, id: u64, event: SearchEvent<F::Searcher>) {
        let current = self.is_current(id);
        match event {
            SearchEvent::Info(info) if current => self.front.info(&mut self.core, &info),
            SearchEvent::Info(_) => {}
            SearchEvent::Done(searcher, outcome) => {
                // A search given up comes home too late to answer; its searcher is kept only
                // if no replacement was made.
                if self.core.searcher.is_none() {
                    self.core.searcher = Some(*searcher);
                }
                if current && let Some(job) = self.core.job.take() {
                    self.front.done(&mut self.core, job, outcome);
                }
            }
            SearchEvent::Crashed(why) => {
                if current || self.core.searcher.is_none() {
                    self.core.searcher = Some(self.front.new_searcher());
                }
                if current && let Some(job) = self.core.job.take() {
                    self.front.crashed(&mut self.core, job, &why);
                }
            }
        }
    }

    fn on_task(&mut self, id: u64, result: F::Task) {
        if self.is_current(id)
            && let Some(job) = self.core.job.take()
        {
            self.front.task_done(&mut self.core, job, result);
        }
    }

    fn watchdog_timeout(&self) -> Duration {
        if let Some(t) = self.core.quit_pending {
            return t.saturating_duration_since(Instant::now());
        }
        let Some(job) = self.core.job.as_ref() else {
            return IDLE;
        };
        let timeout = job.timeout();
        match job.end_of_input_deadline(self.core.eof_at) {
            Some(at) => timeout.min(at.saturating_duration_since(Instant::now())),
            None => timeout,
        }
    }

    fn on_watchdog(&mut self) {
        if self.core.quit_pending.is_some_and(|t| Instant::now() >= t) {
            return self.leave();
        }
        let Some(job) = self.core.job.as_mut() else {
            return;
        };
        if job
            .end_of_input_deadline(self.core.eof_at)
            .is_some_and(|at| Instant::now() >= at)
        {
            if self.core.quitting {
                self.core.quit_pending = Some(Instant::now() + QUIT_GRACE);
            }
            return self.core.stop_job();
        }
        let hard = job.control.hard_ms();
        match job.watchdog {
            Watchdog::Off => {}
            Watchdog::Stop => {
                if !job.control.pondering() && job.control.clock_elapsed_ms() >= hard {
                    self.core.stop_job();
                }
            }
            Watchdog::GiveUp(_) if hard == u64::MAX => {}
            Watchdog::GiveUp(grace) => {
                let elapsed = job.started.elapsed();
                let hard = Duration::from_millis(hard);
                if elapsed >= hard && !job.stopping {
                    self.core.stop_job();
                }
                if elapsed >= hard + grace
                    && let Some(job) = self.core.job.take()
                {
                    job.control.stop();
                    if self.core.searcher.is_none() {
                        self.core.searcher = Some(self.front.new_searcher());
                    }
                    self.front.overdue(&mut self.core, job);
                }
            }
        }
    }
}
