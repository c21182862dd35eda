//! The search thread, game-agnostic: the engine thread moves a searcher onto a fresh thread
//! with a shared [`SearchControl`]; the thread streams [`SearchInfo`] reports and hands the
//! searcher back with its [`SearchOutcome`] over a channel. No lock is held across a search.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use crossbeam_channel::Sender;

use super::{SearchControl, SearchInfo, SearchOutcome};

/// A game's searcher as the search thread drives it.
pub trait Search: Send + 'static {
    /// What is searched (position plus history).
    type Game: Send + Sync + 'static;
    /// Per-search options (banned moves, MultiPV, ...).
    type Params: Send + 'static;
    /// The game's move.
    type Move: Send + 'static;

    /// Searches until `control` says stop (or a limit is reached), reporting progress.
    fn run(
        &mut self,
        game: &Self::Game,
        params: &Self::Params,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchInfo<Self::Move>),
    ) -> SearchOutcome<Self::Move>;
}

/// What the search thread sends back.
#[derive(Debug)]
pub enum SearchEvent<S: Search> {
    /// A progress report.
    Info(SearchInfo<S::Move>),
    /// The search ended; the searcher comes home with the result.
    Done(Box<S>, SearchOutcome<S::Move>),
    /// The search panicked (a bug): the searcher is lost, the message says why.
    Crashed(String),
}

/// Starts `searcher` on its own thread. When the search returns while pondering or in
/// infinite mode, the thread blocks on [`SearchControl::wait_for_release`] (the protocols
/// forbid the answer before `stop` / `ponderhit`) before sending [`SearchEvent::Done`].
pub fn spawn_search<S: Search>(
    searcher: S,
    game: Arc<S::Game>,
    params: S::Params,
    control: Arc<SearchControl>,
    events: Sender<SearchEvent<S>>,
) -> std::io::Result<()> {
    spawn_search_with(searcher, game, params, control, move |event| {
        let _ = events.send(event);
    })
}

/// The environment variable that injects faults for tests of the recovery paths: with the
/// value `search-panic`, every search panics as it starts (the session must answer with a
/// legal move and go on).
pub const FAULT_VARIABLE: &str = "QILIN_FAULT";

/// True when [`FAULT_VARIABLE`] asks searches to panic.
fn search_panic_injected() -> bool {
    std::env::var_os(FAULT_VARIABLE).is_some_and(|v| v == "search-panic")
}

/// Like [`spawn_search`], but hands every event to `send` (for example to tag it with the
/// id of the job it belongs to before it goes on a channel shared by several searches).
pub fn spawn_search_with<S, F>(
    mut searcher: S,
    game: Arc<S::Game>,
    params: S::Params,
    control: Arc<SearchControl>,
    send: F,
) -> std::io::Result<()>
where
    S: Search,
    F: Fn(SearchEvent<S>) + Send + 'static,
{
    std::thread::Builder::new()
        .name("search".into())
        .spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| {
                if search_panic_injected() {
                    panic!("fault injected by {FAULT_VARIABLE}");
                }
                let mut report = |info: SearchInfo<S::Move>| send(SearchEvent::Info(info));
                let outcome = searcher.run(&game, &params, &control, &mut report);
                control.wait_for_release();
                outcome
            }));
            match result {
                Ok(outcome) => send(SearchEvent::Done(Box::new(searcher), outcome)),
                Err(panic) => {
                    let why = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "panic".to_string());
                    send(SearchEvent::Crashed(why))
                }
            }
        })
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Limits, Score};

    /// Counts to a node limit, reporting once.
    struct Counter {
        searches: u32,
    }

    impl Search for Counter {
        type Game = u64;
        type Params = ();
        type Move = u8;

        fn run(
            &mut self,
            game: &u64,
            _: &(),
            control: &SearchControl,
            report: &mut dyn FnMut(SearchInfo<u8>),
        ) -> SearchOutcome<u8> {
            self.searches += 1;
            let mut nodes = 0;
            while !control.should_abort(nodes) {
                nodes += 1;
            }
            report(SearchInfo {
                depth: 1,
                seldepth: 1,
                multipv: 1,
                score: Score::Cp(0),
                bound: crate::engine::Bound::Exact,
                nodes,
                time_ms: 0,
                hashfull: 0,
                pv: vec![*game as u8],
            });
            SearchOutcome {
                best: Some(*game as u8),
                ponder: None,
                score: Score::Cp(0),
                depth: 1,
                nodes,
            }
        }
    }

    #[test]
    fn the_searcher_comes_back_with_the_outcome() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let control = Arc::new(SearchControl::new(&Limits {
            nodes: Some(100),
            ..Limits::default()
        }));
        spawn_search(Counter { searches: 0 }, Arc::new(7), (), control, tx).expect("thread");
        assert!(matches!(rx.recv(), Ok(SearchEvent::Info(i)) if i.pv == vec![7]));
        match rx.recv() {
            Ok(SearchEvent::Done(s, outcome)) => {
                assert_eq!(s.searches, 1);
                assert_eq!(outcome.best, Some(7));
                assert_eq!(outcome.nodes, 100);
            }
            _ => panic!("expected Done"),
        }
    }

    #[test]
    fn an_infinite_search_waits_for_stop() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let control = Arc::new(SearchControl::new(&Limits {
            nodes: Some(10),
            infinite: true,
            ..Limits::default()
        }));
        spawn_search(
            Counter { searches: 0 },
            Arc::new(1),
            (),
            control.clone(),
            tx,
        )
        .expect("thread");
        assert!(matches!(rx.recv(), Ok(SearchEvent::Info(_))));
        // Finished at the node limit, but holds the answer back until stop.
        assert!(
            rx.recv_timeout(std::time::Duration::from_millis(50))
                .is_err()
        );
        control.stop();
        assert!(matches!(rx.recv(), Ok(SearchEvent::Done(..))));
    }
}
