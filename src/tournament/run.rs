//! The match: the schedule of games, worker threads that each own the engine processes of
//! the game they play, and the main thread that collects results, writes records, prints
//! progress and stops the match when the SPRT decides.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};

use super::args::{EngineSpec, MatchConfig, TimeControl};
use super::game::{GameEnd, GameResult, GameRules, PlayedGame, play_game};
use super::openings::{Opening, builtin_openings, load_openings, opening_order};
use super::player::{EngineFailure, MatchSetup, Player};
use super::process::ProtocolLog;
use super::record::{GameRecord, RecordStamp};
use super::referee::new_referee;
use super::report::{Model, PairStats, final_table, progress_line};
use super::settings::{MatchSettings, shard_of_games};
use super::stats::SprtDecision;
use crate::protocol::Protocol;

/// One scheduled game.
#[derive(Clone, Debug)]
struct GameJob {
    number: usize,
    round: u32,
    pair: usize,
    pair_game: usize,
    opening: usize,
    /// Engine index by seat.
    engines: [usize; 2],
}

/// What every worker shares.
struct Shared<'a> {
    config: &'a MatchConfig,
    openings: &'a [Opening],
    setup: MatchSetup,
    rules: GameRules,
    detected: Vec<Mutex<Option<Protocol>>>,
    /// Per engine: a process of it has started (and passed its handshake) in this match.
    started: Vec<AtomicBool>,
    /// Why the match was given up: an engine that never started once.
    fatal: Mutex<Option<String>>,
    stop: AtomicBool,
    /// The shard and the match's settings, stamped on every record.
    stamp: Arc<RecordStamp>,
}

/// A problem that prevents the match from running (bad files, bad openings): exit status 2.
#[derive(Debug)]
pub struct SetupError(pub String);

/// The engine pairs to play: every pair, or the first engine against each other one.
fn engine_pairs(config: &MatchConfig) -> Vec<[usize; 2]> {
    let count = config.engines.len();
    let mut pairs = Vec::new();
    for first in 0..count {
        for second in first + 1..count {
            if !config.gauntlet || first == 0 {
                pairs.push([first, second]);
            }
        }
    }
    pairs
}

fn schedule(config: &MatchConfig, pairs: &[[usize; 2]], opening_count: usize) -> Vec<GameJob> {
    let order = opening_order(opening_count, config.random_openings, config.seed);
    let mut jobs = Vec::new();
    for round in 0..config.rounds {
        for (pair, engines) in pairs.iter().enumerate() {
            for game in 0..config.games {
                let pair_game = (round * config.games + game) as usize;
                let slot = pair_game / config.repeat as usize;
                let opening = order.get(slot % opening_count.max(1)).copied().unwrap_or(0);
                let seats = if pair_game.is_multiple_of(2) {
                    *engines
                } else {
                    [engines[1], engines[0]]
                };
                jobs.push(GameJob {
                    number: jobs.len() + 1,
                    round: round + 1,
                    pair,
                    pair_game,
                    opening,
                    engines: seats,
                });
            }
        }
    }
    jobs
}

/// Makes sure `slot` holds a healthy player for `spec`, starting one if needed.
fn ensure_player(
    slot: &mut Option<Player>,
    spec: &EngineSpec,
    shared: &Shared<'_>,
    engine: usize,
) -> Result<(), EngineFailure> {
    if slot.as_ref().is_some_and(Player::is_healthy) {
        return Ok(());
    }
    if let Some(old) = slot.take() {
        old.kill();
    }
    let detected = &shared.detected[engine];
    *slot = Some(Player::start(spec, &shared.setup, detected)?);
    shared.started[engine].store(true, Ordering::Relaxed);
    Ok(())
}

fn play_job(
    job: &GameJob,
    players: &mut [Option<Player>],
    shared: &Shared<'_>,
) -> Option<GameRecord> {
    let config = shared.config;
    let opening = shared.openings.get(job.opening)?;
    let mut referee = match new_referee(config.game, opening, config.no_capture_limit) {
        Ok(referee) => referee,
        // Openings were checked at load time; a failure here is not an engine's fault.
        Err(_) => return None,
    };
    let book_moves = referee.moves().to_vec();
    let mut start_failure: Option<GameEnd> = None;
    for seat in 0..2 {
        let engine = job.engines[seat];
        if let Err(failure) = ensure_player(
            &mut players[engine],
            &config.engines[engine],
            shared,
            engine,
        ) {
            // An engine that never started in this match will not start for the next game
            // either: give the match up instead of scoring every game as a forfeit.
            if !shared.started[engine].load(Ordering::Relaxed) {
                let mut fatal = shared.fatal.lock().unwrap_or_else(|e| e.into_inner());
                fatal.get_or_insert_with(|| {
                    format!(
                        "engine '{}' could not be started: {}",
                        config.engines[engine].name, failure.detail
                    )
                });
                shared.stop.store(true, Ordering::Relaxed);
                return None;
            }
            if start_failure.is_some() {
                continue;
            }
            start_failure = Some(GameEnd {
                result: GameResult::Win(1 - seat),
                reason: failure.kind.reason().to_string(),
                detail: Some(failure.detail),
            });
        }
    }
    let played = match start_failure {
        Some(end) => PlayedGame {
            moves: book_moves
                .iter()
                .map(|notation| super::game::MoveRecord::unscored(notation, true))
                .collect(),
            end,
            time_used_ms: [0, 0],
        },
        None => {
            let mut first = players[job.engines[0]].take()?;
            let mut second = match players[job.engines[1]].take() {
                Some(player) => player,
                None => {
                    players[job.engines[0]] = Some(first);
                    return None;
                }
            };
            let played = play_game(
                [&mut first, &mut second],
                referee.as_mut(),
                &shared.rules,
                &shared.stop,
            );
            players[job.engines[0]] = Some(first);
            players[job.engines[1]] = Some(second);
            played?
        }
    };
    let about = job
        .engines
        .map(|e| players[e].as_ref().and_then(|p| p.about().cloned()));
    // Replace engines that failed: kill them now, a new process starts for their next game.
    for engine in job.engines {
        if players[engine].as_ref().is_some_and(|p| !p.is_healthy())
            && let Some(player) = players[engine].take()
        {
            player.kill();
        }
    }
    Some(GameRecord {
        number: job.number,
        round: job.round,
        pair: job.pair,
        pair_game: job.pair_game,
        engines: job.engines,
        names: job.engines.map(|e| config.engines[e].name.clone()),
        colours: referee.colour_names(),
        choice: config.game,
        about,
        opening: opening.clone(),
        root: referee.root().to_string(),
        game: played,
        stamp: Some(Arc::clone(&shared.stamp)),
    })
}

fn worker(jobs: Receiver<GameJob>, results: Sender<GameRecord>, shared: &Shared<'_>) {
    let mut players: Vec<Option<Player>> = shared.config.engines.iter().map(|_| None).collect();
    while !shared.stop.load(Ordering::Relaxed) {
        let Ok(job) = jobs.recv() else {
            break;
        };
        // Keep only this game's engines running.
        for (engine, slot) in players.iter_mut().enumerate() {
            if !job.engines.contains(&engine)
                && let Some(player) = slot.take()
            {
                player.shut_down();
            }
        }
        let Some(record) = play_job(&job, &mut players, shared) else {
            continue;
        };
        if results.send(record).is_err() {
            break;
        }
    }
    for player in players.into_iter().flatten() {
        player.shut_down();
    }
}

/// Open output files.
struct Outputs {
    results: Option<BufWriter<File>>,
    pgn: Option<BufWriter<File>>,
    sgf: Option<BufWriter<File>>,
    /// The `--psq` directory (created).
    psq: Option<PathBuf>,
}

impl Outputs {
    /// Writes a finished game to every output. Write errors are reported, not fatal.
    fn write(&mut self, record: &GameRecord, time: &TimeControl) {
        if let Some(out) = self.results.as_mut() {
            let _ = writeln!(out, "{}", record.to_json());
            let _ = out.flush();
        }
        if let Some(out) = self.pgn.as_mut() {
            let _ = write!(out, "{}", record.to_pgn(EVENT));
            let _ = out.flush();
        }
        if let Some(out) = self.sgf.as_mut() {
            let _ = write!(out, "{}", record.to_sgf(EVENT));
            let _ = out.flush();
        }
        if let Some(dir) = &self.psq {
            let path = dir.join(psq_file_name(record.number));
            if let Err(error) = std::fs::write(&path, record.to_psq(time)) {
                eprintln!("qilin match: cannot write '{}': {error}", path.display());
            }
        }
    }
}

/// The event named in PGN and SGF records.
const EVENT: &str = "qilin match";

/// The `.psq` file of game `number`: `game-0001.psq`.
pub fn psq_file_name(number: usize) -> String {
    format!("game-{number:04}.psq")
}

fn create(path: &std::path::Path, what: &str) -> Result<BufWriter<File>, SetupError> {
    File::create(path).map(BufWriter::new).map_err(|error| {
        SetupError(format!(
            "cannot create {what} file '{}': {error}",
            path.display()
        ))
    })
}

/// Runs the match; `Ok` carries the exit status.
pub fn run_match(config: &MatchConfig) -> Result<i32, SetupError> {
    let openings = match &config.openings {
        Some(path) => load_openings(path, config.game),
        None => builtin_openings(config.game),
    }
    .map_err(SetupError)?;
    // The referee must exist for this game before anything starts.
    new_referee(config.game, &openings[0], config.no_capture_limit).map_err(SetupError)?;
    let log = match &config.log {
        Some(path) => Some(Arc::new(ProtocolLog::create(path).map_err(|error| {
            SetupError(format!(
                "cannot create log file '{}': {error}",
                path.display()
            ))
        })?)),
        None => None,
    };
    let mut outputs = Outputs {
        results: config
            .results
            .as_deref()
            .map(|p| create(p, "results"))
            .transpose()?,
        pgn: config
            .pgn
            .as_deref()
            .map(|p| create(p, "PGN"))
            .transpose()?,
        sgf: config
            .sgf
            .as_deref()
            .map(|p| create(p, "SGF"))
            .transpose()?,
        psq: match &config.psq {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|error| {
                    SetupError(format!(
                        "cannot create the PSQ directory '{}': {error}",
                        dir.display()
                    ))
                })?;
                Some(dir.clone())
            }
            None => None,
        },
    };
    let pairs = engine_pairs(config);
    let model = if config.repeat.is_multiple_of(2) {
        Model::Pentanomial
    } else {
        Model::Trinomial
    };
    let mut stats: Vec<PairStats> = pairs
        .iter()
        .map(|&engines| {
            PairStats::new(
                engines,
                engines.map(|e| config.engines[e].name.clone()),
                model,
            )
        })
        .collect();
    let mut jobs = schedule(config, &pairs, openings.len());
    let settings = MatchSettings::of(config, &openings, jobs.len(), model);
    let stamp = Arc::new(RecordStamp {
        shard: config.shard,
        fingerprint: settings.fingerprint(),
        settings: settings.text(),
    });
    let units: Vec<(usize, usize)> = jobs.iter().map(|j| (j.pair, j.pair_game)).collect();
    let mut game_shards = shard_of_games(&units, config.shard.count).into_iter();
    jobs.retain(|_| game_shards.next() == Some(config.shard.index));
    let total = jobs.len();
    let shared = Shared {
        config,
        openings: &openings,
        setup: MatchSetup {
            game: config.game,
            time: config.time,
            max_wait: Duration::from_millis(config.max_wait_ms),
            log,
        },
        rules: GameRules {
            time: config.time,
            time_margin_ms: config.time_margin_ms,
            max_wait: Duration::from_millis(config.max_wait_ms),
            max_plies: config.max_plies,
            resign: config.resign,
            draw: config.draw,
        },
        detected: config.engines.iter().map(|_| Mutex::new(None)).collect(),
        started: config
            .engines
            .iter()
            .map(|_| AtomicBool::new(false))
            .collect(),
        fatal: Mutex::new(None),
        stop: AtomicBool::new(false),
        stamp,
    };
    let (job_sender, job_receiver) = unbounded();
    for job in jobs {
        let _ = job_sender.send(job);
    }
    drop(job_sender);
    let (result_sender, result_receiver) = unbounded::<GameRecord>();
    let interactive = io::stderr().is_terminal();
    let mut done = 0;
    let mut decided: Option<(usize, SprtDecision)> = None;
    thread::scope(|scope| {
        for _ in 0..config.concurrency.min(total.max(1)) {
            let jobs = job_receiver.clone();
            let results = result_sender.clone();
            let shared = &shared;
            scope.spawn(move || worker(jobs, results, shared));
        }
        drop(result_sender);
        for record in result_receiver.iter() {
            done += 1;
            outputs.write(&record, &config.time);
            let Some(pair_stats) = stats.get_mut(record.pair) else {
                continue;
            };
            pair_stats.add(&record);
            let line = progress_line(done, total, pair_stats, config.sprt.as_ref());
            if interactive {
                eprint!("\r{line}\x1b[K");
            } else {
                eprintln!("{line}");
            }
            // A shard plays its whole part: only the merge of all shards may stop on the SPRT.
            if let Some(sprt) = config.sprt.as_ref().filter(|_| config.shard.count == 1) {
                let decision = sprt.decide(pair_stats.llr(sprt));
                if decision != SprtDecision::Continue && pairs.len() == 1 {
                    decided = Some((record.pair, decision));
                    shared.stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        // Dropping the receiver makes any further result sends fail, so workers finish.
        drop(result_receiver);
    });
    if interactive {
        eprintln!();
    }
    let fatal = shared
        .fatal
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    if let Some(why) = fatal {
        return Err(SetupError(why));
    }
    if let Some((pair, decision)) = decided {
        eprintln!(
            "SPRT decided after {done} games for {} vs {}: {}",
            stats[pair].names[0],
            stats[pair].names[1],
            super::report::sprt_text(decision)
        );
    }
    print!("{}", final_table(&stats, config.sprt.as_ref(), done));
    let _ = io::stdout().flush();
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::args::parse_args;

    fn config(extra: &str) -> MatchConfig {
        let text = format!("--engine cmd=a --engine cmd=b --engine cmd=c --movetime 10 {extra}");
        let words: Vec<String> = text.split_whitespace().map(String::from).collect();
        parse_args(&words).unwrap()
    }

    #[test]
    fn pairs_share_an_opening_with_colours_swapped() {
        let config = config("--games 3 --rounds 2");
        let pairs = engine_pairs(&config);
        assert_eq!(pairs, [[0, 1], [0, 2], [1, 2]]);
        let jobs = schedule(&config, &pairs, 10);
        assert_eq!(jobs.len(), 18);
        let numbers: Vec<usize> = jobs.iter().map(|j| j.number).collect();
        assert_eq!(numbers, (1..=18).collect::<Vec<_>>());
        for (pair, engines) in pairs.iter().enumerate() {
            let games: Vec<&GameJob> = jobs.iter().filter(|j| j.pair == pair).collect();
            assert_eq!(games.len(), 6);
            for (index, game) in games.iter().enumerate() {
                assert_eq!(game.pair_game, index);
                assert_eq!(game.opening, index / 2);
                assert_eq!(game.engines[0], engines[index % 2]);
                assert_eq!(game.engines[1], engines[1 - index % 2]);
            }
        }
    }

    #[test]
    fn gauntlet_and_opening_cycling() {
        let config = config("--gauntlet --games 5 --repeat 1");
        let pairs = engine_pairs(&config);
        assert_eq!(pairs, [[0, 1], [0, 2]]);
        let jobs = schedule(&config, &pairs, 2);
        let openings: Vec<usize> = jobs
            .iter()
            .filter(|j| j.pair == 0)
            .map(|j| j.opening)
            .collect();
        assert_eq!(openings, [0, 1, 0, 1, 0]);
    }
}
