//! Command-line arguments of `qilin match`: parsed into a [`MatchConfig`] or a clear error.

use std::fmt;
use std::path::PathBuf;

use super::stats::SprtParams;
use crate::gomoku::{MAX_SIDE, Rule};
use crate::protocol::Protocol;

/// How to start one engine and configure it. Its `Debug` form is part of the settings text
/// (and fingerprint) every match record carries: see the `impl Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// Name used in tables, records and logs.
    pub name: String,
    /// Program to run.
    pub command: String,
    /// Arguments passed to the program.
    pub args: Vec<String>,
    /// Working directory of the process.
    pub dir: Option<PathBuf>,
    /// Protocol to speak (`proto=`); `None` for `auto`: Piskvork for Gomoku, detected for
    /// Xiangqi (see [`super::player::xiangqi`]).
    pub protocol: Option<Protocol>,
    /// True for UCI engines that number Xiangqi ranks 1-10 (Fairy-Stockfish); a setting of
    /// the UCI driver, ignored by the other protocols.
    pub ranks_one_based: bool,
    /// Engine options set after the handshake, in order.
    pub options: Vec<(String, String)>,
}

/// The derived form, except that `protocol` reads `Auto`, `Ucci`, `Uci` or `Piskvork`
/// (not `None` or `Some(..)`): the settings text and the fingerprint of match records stay
/// what earlier builds wrote, so their shards still merge.
impl fmt::Debug for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let EngineSpec {
            name,
            command,
            args,
            dir,
            protocol,
            ranks_one_based,
            options,
        } = self;
        let protocol = match protocol {
            Some(protocol) => format!("{protocol:?}"),
            None => "Auto".to_string(),
        };
        f.debug_struct("EngineSpec")
            .field("name", name)
            .field("command", command)
            .field("args", args)
            .field("dir", dir)
            .field("protocol", &format_args!("{protocol}"))
            .field("ranks_one_based", ranks_one_based)
            .field("options", options)
            .finish()
    }
}

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    /// Xiangqi, adjudicated by Qilin's Xiangqi referee.
    Xiangqi,
    /// Gomoku on a `width` x `height` board under `rule`, adjudicated by Qilin's Gomoku
    /// referee.
    Gomoku {
        /// Columns (x).
        width: usize,
        /// Rows (y).
        height: usize,
        /// The winning rule (sent to engines as its Piskvork number).
        rule: Rule,
    },
}

impl GameChoice {
    /// True for Gomoku.
    pub fn is_gomoku(self) -> bool {
        matches!(self, GameChoice::Gomoku { .. })
    }
}

/// A game clock: `moves` moves (or the whole game) in `base_ms`, plus `increment_ms` a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// Moves per period; `None` for sudden death.
    pub moves: Option<u32>,
    /// Time of a period.
    pub base_ms: u64,
    /// Added after every move.
    pub increment_ms: u64,
}

/// Every limit given on the command line; all that are set apply together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Fixed time a move.
    pub movetime_ms: Option<u64>,
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Fixed node count.
    pub nodes: Option<u64>,
    /// A game clock.
    pub clock: Option<GameClock>,
    /// Piskvork time a turn.
    pub turn_time_ms: Option<u64>,
    /// Piskvork time for the whole game.
    pub match_time_ms: Option<u64>,
}

impl TimeControl {
    /// True when at least one limit is set.
    pub fn is_set(&self) -> bool {
        *self != TimeControl::default()
    }

    /// True when the runner enforces a time limit on every move.
    pub fn is_timed(&self) -> bool {
        self.movetime_ms.is_some()
            || self.clock.is_some()
            || self.turn_time_ms.is_some()
            || self.match_time_ms.is_some()
    }
}

/// `--resign score,count`: an engine whose own score stays at or below `-score_cp` for
/// `count` consecutive moves of its own loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Threshold in centipawns (positive).
    pub score_cp: i32,
    /// Consecutive moves.
    pub count: u32,
}

/// `--draw ply,score,count`: from ply `ply` on, when both engines' scores stay within
/// `score_cp` of zero for `count` consecutive moves each, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First ply at which the rule may apply.
    pub from_ply: u32,
    /// Threshold in centipawns (non-negative).
    pub score_cp: i32,
    /// Consecutive moves of each engine.
    pub count: u32,
}

/// Everything `qilin match` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The engines, at least two.
    pub engines: Vec<EngineSpec>,
    /// Play only the first engine against each other one (instead of every pair).
    pub gauntlet: bool,
    /// The game.
    pub game: GameChoice,
    /// Games per engine pair per round.
    pub games: u32,
    /// Rounds.
    pub rounds: u32,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Seed of every random choice (the opening order). Giving it also shuffles the openings:
    /// a seed that changed nothing would only mislead.
    pub seed: u64,
    /// Limits of every move.
    pub time: TimeControl,
    /// Grace added to every time limit before a move loses on time.
    pub time_margin_ms: u64,
    /// How long to wait for a move when no time limit is set (depth or nodes only), and for
    /// handshakes; a silent engine loses after this.
    pub max_wait_ms: u64,
    /// Openings file; the built-in set when `None`.
    pub openings: Option<PathBuf>,
    /// Times each opening is played in a row (colours alternate).
    pub repeat: u32,
    /// Shuffle the openings with the seed.
    pub random_openings: bool,
    /// Draw when the game reaches this many plies.
    pub max_plies: Option<u32>,
    /// No-capture limit given to the Xiangqi referee (plies); its default when `None`.
    pub no_capture_limit: Option<u32>,
    /// Score-based resignation.
    pub resign: Option<ResignRule>,
    /// Score-based draw.
    pub draw: Option<DrawRule>,
    /// Sequential test stopping the match.
    pub sprt: Option<SprtParams>,
    /// JSON lines output.
    pub results: Option<PathBuf>,
    /// PGN output (Xiangqi).
    pub pgn: Option<PathBuf>,
    /// SGF output, one game tree per game (Gomoku).
    pub sgf: Option<PathBuf>,
    /// Directory for Piskvork `.psq` records, one file per game (Gomoku).
    pub psq: Option<PathBuf>,
    /// Protocol log.
    pub log: Option<PathBuf>,
    /// The part of the schedule this run plays (`--shard I/N`); the whole of it by default.
    pub shard: Shard,
}

/// Shard `index` of `count` (`--shard I/N`, `0 <= I < N`): the part of a match's schedule one
/// run plays, so that `count` runs with the same settings play the games of one run between
/// them. The whole schedule is `0/1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u32,
    /// How many shards the schedule is cut into (at least 1).
    pub count: u32,
}

impl Shard {
    /// The whole schedule.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N`.
    pub fn parse(text: &str) -> Result<Shard, ArgError> {
        let parsed = text
            .split_once('/')
            .and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((index, count)) if index < count => Ok(Shard { index, count }),
            _ => error(format!(
                "--shard '{text}': expected I/N with 0 <= I < N (such as 0/4)"
            )),
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A command line that cannot be run; the runner prints it and exits with status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgError {}

fn error<T>(message: impl Into<String>) -> Result<T, ArgError> {
    Err(ArgError(message.into()))
}

/// Default grace on every time limit, in milliseconds: enough for process scheduling on a
/// loaded machine, small next to a 20 ms move.
pub const DEFAULT_TIME_MARGIN_MS: u64 = 100;
/// Default wait for a handshake, or for a move under a depth or node limit only.
pub const DEFAULT_MAX_WAIT_MS: u64 = 60_000;

/// The usage text printed with `--help` and after argument errors.
pub const USAGE: &str = "\
usage: qilin match --engine name=N cmd=PATH [arg=A]... [dir=D] [proto=ucci|uci|piskvork|auto]
                   [ranks=0|1] [option.NAME=VALUE]...  (at least two --engine)
  [--each KEY=VALUE...]    settings applied to every engine (before its own)
  [--game xiangqi | --game gomoku (--size N | --rect W,H) [--rule R]]
  [--games N] [--rounds N] [--gauntlet] [--concurrency N] [--seed N]
  time (at least one): [--movetime MS] [--depth N] [--nodes N] [--tc [MOVES/]SECONDS[+INC]]
                       [--turn-time MS] [--match-time MS]
  [--timemargin MS] [--maxwait MS]
  [--openings FILE] [--repeat N] [--random-openings]  (--seed N shuffles them too)
  [--shard I/N]            play part I (0 to N-1) of N of the schedule; see qilin match-merge
  [--maxplies N] [--nocapture PLIES] [--resign SCORE,COUNT] [--draw PLY,SCORE,COUNT]
  [--sprt elo0=E0 elo1=E1 alpha=A beta=B]
  [--results FILE] [--log FILE]   xiangqi: [--pgn FILE]   gomoku: [--sgf FILE] [--psq DIR]
gomoku: --size 5..32 (default 15) or --rect W,H (each 1..32); --rule 0 freestyle (default),
  1 standard, 4 renju, 8 caro, 9 caro-exact (numbers or names); time by --turn-time and/or
  --match-time; openings in Piskvork's offset format (x,y offsets from the centre);
  option.KEY=VALUE of a piskvork engine is sent as INFO KEY VALUE.";

fn parse_number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, ArgError> {
    text.trim()
        .parse()
        .or_else(|_| error(format!("{flag}: '{text}' is not a valid number")))
}

/// Parses seconds given as a decimal (`60`, `0.5`) into milliseconds.
fn parse_seconds_ms(flag: &str, text: &str) -> Result<u64, ArgError> {
    let seconds: f64 = parse_number(flag, text)?;
    if !seconds.is_finite() || !(0.0..=1e9).contains(&seconds) {
        return error(format!("{flag}: '{text}' is not a valid number of seconds"));
    }
    Ok((seconds * 1000.0).round() as u64)
}

/// Parses `--tc [moves/]seconds[+increment]`.
pub fn parse_game_clock(text: &str) -> Result<GameClock, ArgError> {
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => {
            let moves: u32 = parse_number("--tc", moves)?;
            if moves == 0 {
                return error("--tc: the number of moves must be positive");
            }
            (Some(moves), rest)
        }
        None => (None, text),
    };
    let (base, increment) = match rest.split_once('+') {
        Some((base, increment)) => (base, Some(increment)),
        None => (rest, None),
    };
    let base_ms = parse_seconds_ms("--tc", base)?;
    let increment_ms = match increment {
        Some(increment) => parse_seconds_ms("--tc", increment)?,
        None => 0,
    };
    if base_ms == 0 && increment_ms == 0 {
        return error("--tc: the clock must give some time");
    }
    Ok(GameClock {
        moves,
        base_ms,
        increment_ms,
    })
}

/// Parses `key=value` settings of one engine onto `spec`.
fn apply_engine_setting(spec: &mut EngineSpec, token: &str) -> Result<(), ArgError> {
    let Some((key, value)) = token.split_once('=') else {
        return error(format!("--engine: expected key=value, got '{token}'"));
    };
    match key {
        "name" => spec.name = value.to_string(),
        "cmd" => spec.command = value.to_string(),
        "arg" => spec.args.push(value.to_string()),
        "dir" => spec.dir = Some(PathBuf::from(value)),
        "proto" => {
            spec.protocol = match value {
                "auto" => None,
                "ucci" => Some(Protocol::Ucci),
                "uci" => Some(Protocol::Uci),
                "piskvork" => Some(Protocol::Piskvork),
                _ => {
                    return error(format!(
                        "--engine: proto must be ucci, uci, piskvork or auto, not '{value}'"
                    ));
                }
            }
        }
        "ranks" => {
            spec.ranks_one_based = match value {
                "0" => false,
                "1" => true,
                _ => return error(format!("--engine: ranks must be 0 or 1, not '{value}'")),
            }
        }
        _ => match key.strip_prefix("option.") {
            Some(name) if !name.is_empty() => {
                spec.options.push((name.to_string(), value.to_string()));
            }
            _ => return error(format!("--engine: unknown setting '{key}'")),
        },
    }
    Ok(())
}

fn blank_engine() -> EngineSpec {
    EngineSpec {
        name: String::new(),
        command: String::new(),
        args: Vec::new(),
        dir: None,
        protocol: None,
        ranks_one_based: false,
        options: Vec::new(),
    }
}

/// Parses `--sprt elo0=.. elo1=.. alpha=.. beta=..` settings.
fn parse_sprt(tokens: &[String]) -> Result<SprtParams, ArgError> {
    let mut sprt = SprtParams {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for token in tokens {
        let Some((key, value)) = token.split_once('=') else {
            return error(format!("--sprt: expected key=value, got '{token}'"));
        };
        let number: f64 = parse_number("--sprt", value)?;
        if !number.is_finite() {
            return error(format!("--sprt: '{value}' is not finite"));
        }
        match key {
            "elo0" => sprt.elo0 = number,
            "elo1" => sprt.elo1 = number,
            "alpha" => sprt.alpha = number,
            "beta" => sprt.beta = number,
            _ => return error(format!("--sprt: unknown setting '{key}'")),
        }
    }
    if sprt.elo1 <= sprt.elo0 {
        return error("--sprt: elo1 must be greater than elo0");
    }
    if !(0.0 < sprt.alpha && sprt.alpha < 0.5 && 0.0 < sprt.beta && sprt.beta < 0.5) {
        return error("--sprt: alpha and beta must lie between 0 and 0.5");
    }
    Ok(sprt)
}

/// Splits a comma-separated list of exactly `N` numbers.
fn parse_list<const N: usize>(flag: &str, text: &str) -> Result<[i64; N], ArgError> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != N {
        return error(format!(
            "{flag}: expected {N} comma-separated numbers, got '{text}'"
        ));
    }
    let mut numbers = [0i64; N];
    for (slot, part) in numbers.iter_mut().zip(parts) {
        *slot = parse_number(flag, part)?;
    }
    Ok(numbers)
}

/// Parses the arguments that follow the word `match`.
pub fn parse_args(args: &[String]) -> Result<MatchConfig, ArgError> {
    let mut engine_tokens: Vec<Vec<String>> = Vec::new();
    let mut each_tokens: Vec<String> = Vec::new();
    let mut gauntlet = false;
    let mut game_name = "xiangqi".to_string();
    let mut size: Option<(usize, usize)> = None;
    let mut size_given_twice = false;
    let mut rule: Option<Rule> = None;
    let mut games = 2;
    let mut rounds = 1;
    let mut concurrency = 1;
    let mut seed = 1;
    let mut time = TimeControl::default();
    let mut time_margin_ms = DEFAULT_TIME_MARGIN_MS;
    let mut max_wait_ms = DEFAULT_MAX_WAIT_MS;
    let mut openings = None;
    let mut repeat = 2;
    let mut random_openings = false;
    let mut max_plies = None;
    let mut no_capture_limit = None;
    let mut resign = None;
    let mut draw = None;
    let mut sprt = None;
    let mut results = None;
    let mut pgn = None;
    let mut sgf = None;
    let mut psq = None;
    let mut log = None;
    let mut shard = Shard::WHOLE;

    let mut index = 0;
    // The values after a flag: every following token that does not start with `--`.
    let take_values = |index: &mut usize| -> Vec<String> {
        let start = *index + 1;
        let mut end = start;
        while end < args.len() && !args[end].starts_with("--") {
            end += 1;
        }
        *index = end;
        args[start..end].to_vec()
    };
    while index < args.len() {
        let flag = args[index].clone();
        let values = take_values(&mut index);
        let single = || -> Result<String, ArgError> {
            match values.as_slice() {
                [value] => Ok(value.clone()),
                [] => error(format!("{flag} needs a value")),
                _ => error(format!("{flag} takes one value, got {}", values.join(" "))),
            }
        };
        let none = || -> Result<(), ArgError> {
            if values.is_empty() {
                Ok(())
            } else {
                error(format!("{flag} takes no value"))
            }
        };
        match flag.as_str() {
            "--engine" => engine_tokens.push(values.clone()),
            "--each" => each_tokens.extend(values.iter().cloned()),
            "--gauntlet" => {
                none()?;
                gauntlet = true;
            }
            "--game" => game_name = single()?,
            "--size" => {
                let side: usize = parse_number(&flag, &single()?)?;
                if !(5..=MAX_SIDE).contains(&side) {
                    return error(format!("--size must be between 5 and {MAX_SIDE}"));
                }
                size_given_twice |= size.is_some();
                size = Some((side, side));
            }
            "--rect" => {
                let [width, height] = parse_list::<2>(&flag, &single()?)?;
                let side = 1..=MAX_SIDE as i64;
                if !side.contains(&width) || !side.contains(&height) {
                    return error(format!(
                        "--rect: each side must be between 1 and {MAX_SIDE}"
                    ));
                }
                size_given_twice |= size.is_some();
                size = Some((width as usize, height as usize));
            }
            "--rule" => {
                let text = single()?;
                rule = Some(Rule::parse(&text).ok_or_else(|| {
                    ArgError(format!(
                        "--rule: '{text}' is not a rule (0 freestyle, 1 standard, 4 renju, \
                         8 caro, 9 caro-exact; Yixin's rule 2 for renju is 4 here)"
                    ))
                })?);
            }
            "--games" => games = parse_number(&flag, &single()?)?,
            "--rounds" => rounds = parse_number(&flag, &single()?)?,
            "--concurrency" => concurrency = parse_number(&flag, &single()?)?,
            "--seed" => {
                seed = parse_number(&flag, &single()?)?;
                random_openings = true;
            }
            "--movetime" => time.movetime_ms = Some(parse_number(&flag, &single()?)?),
            "--depth" => time.depth = Some(parse_number(&flag, &single()?)?),
            "--nodes" => time.nodes = Some(parse_number(&flag, &single()?)?),
            "--tc" => time.clock = Some(parse_game_clock(&single()?)?),
            "--turn-time" => time.turn_time_ms = Some(parse_number(&flag, &single()?)?),
            "--match-time" => time.match_time_ms = Some(parse_number(&flag, &single()?)?),
            "--timemargin" => time_margin_ms = parse_number(&flag, &single()?)?,
            "--maxwait" => max_wait_ms = parse_number(&flag, &single()?)?,
            "--openings" => openings = Some(PathBuf::from(single()?)),
            "--repeat" => repeat = parse_number(&flag, &single()?)?,
            "--shard" => shard = Shard::parse(&single()?)?,
            "--random-openings" => {
                none()?;
                random_openings = true;
            }
            "--maxplies" => max_plies = Some(parse_number(&flag, &single()?)?),
            "--nocapture" => no_capture_limit = Some(parse_number(&flag, &single()?)?),
            "--resign" => {
                let [score, count] = parse_list::<2>(&flag, &single()?)?;
                if score <= 0 || count <= 0 || score > 100_000 || count > 10_000 {
                    return error("--resign: score and count must be positive");
                }
                resign = Some(ResignRule {
                    score_cp: score as i32,
                    count: count as u32,
                });
            }
            "--draw" => {
                let [ply, score, count] = parse_list::<3>(&flag, &single()?)?;
                if ply < 0 || score < 0 || count <= 0 || ply > 100_000 || score > 100_000 {
                    return error("--draw: ply and score must be >= 0, count positive");
                }
                draw = Some(DrawRule {
                    from_ply: ply as u32,
                    score_cp: score as i32,
                    count: count.min(10_000) as u32,
                });
            }
            "--sprt" => sprt = Some(parse_sprt(&values)?),
            "--results" => results = Some(PathBuf::from(single()?)),
            "--pgn" => pgn = Some(PathBuf::from(single()?)),
            "--sgf" => sgf = Some(PathBuf::from(single()?)),
            "--psq" => psq = Some(PathBuf::from(single()?)),
            "--log" => log = Some(PathBuf::from(single()?)),
            _ => return error(format!("unknown argument '{flag}'")),
        }
    }

    let mut engines = Vec::new();
    for (number, tokens) in engine_tokens.iter().enumerate() {
        let mut spec = blank_engine();
        for token in each_tokens.iter().chain(tokens) {
            apply_engine_setting(&mut spec, token)?;
        }
        if spec.command.is_empty() {
            return error(format!("--engine number {}: cmd= is missing", number + 1));
        }
        if spec.name.is_empty() {
            spec.name = format!("engine{}", number + 1);
        }
        engines.push(spec);
    }
    if engines.len() < 2 {
        return error("at least two --engine are needed");
    }
    for (i, a) in engines.iter().enumerate() {
        if engines[..i].iter().any(|b| b.name == a.name) {
            return error(format!(
                "two engines are named '{}': give name= to tell them apart",
                a.name
            ));
        }
    }

    let game = match game_name.as_str() {
        "xiangqi" => {
            if size.is_some() || rule.is_some() {
                return error("--size, --rect and --rule are for --game gomoku");
            }
            if sgf.is_some() || psq.is_some() {
                return error("--sgf and --psq are for --game gomoku; Xiangqi records are --pgn");
            }
            if engines
                .iter()
                .any(|e| e.protocol == Some(Protocol::Piskvork))
            {
                return error("Xiangqi engines speak ucci or uci, not piskvork");
            }
            if time.turn_time_ms.is_some() || time.match_time_ms.is_some() {
                return error("--turn-time and --match-time are for --game gomoku");
            }
            GameChoice::Xiangqi
        }
        "gomoku" => {
            if size_given_twice {
                return error("give one board size: --size N or --rect W,H");
            }
            let (width, height) = size.unwrap_or((15, 15));
            if pgn.is_some() {
                return error("--pgn is for xiangqi; Gomoku records are --sgf FILE and --psq DIR");
            }
            if no_capture_limit.is_some() {
                return error("--nocapture is for xiangqi");
            }
            if engines
                .iter()
                .any(|e| !matches!(e.protocol, Some(Protocol::Piskvork) | None))
            {
                return error("Gomoku engines speak piskvork");
            }
            if time.clock.is_some() {
                return error("--tc is for xiangqi; Gomoku uses --turn-time and --match-time");
            }
            GameChoice::Gomoku {
                width,
                height,
                rule: rule.unwrap_or(Rule::Freestyle),
            }
        }
        other => return error(format!("--game must be xiangqi or gomoku, not '{other}'")),
    };
    if !time.is_set() {
        return error(
            "no time control: give --movetime, --depth, --nodes, --tc, --turn-time or --match-time",
        );
    }
    if time.movetime_ms == Some(0) || time.depth == Some(0) || time.nodes == Some(0) {
        return error("--movetime, --depth and --nodes must be positive");
    }
    if games == 0 || rounds == 0 {
        return error("--games and --rounds must be positive");
    }
    if concurrency == 0 || concurrency > 256 {
        return error("--concurrency must be between 1 and 256");
    }
    if repeat == 0 {
        return error("--repeat must be positive");
    }
    if max_wait_ms == 0 {
        return error("--maxwait must be positive");
    }
    if max_plies == Some(0) {
        return error("--maxplies must be positive");
    }
    Ok(MatchConfig {
        engines,
        gauntlet,
        game,
        games,
        rounds,
        concurrency,
        seed,
        time,
        time_margin_ms,
        max_wait_ms,
        openings,
        repeat,
        random_openings,
        max_plies,
        no_capture_limit,
        resign,
        draw,
        sprt,
        results,
        pgn,
        sgf,
        psq,
        log,
        shard,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_a_full_command_line() {
        let config = parse_args(&strings(
            "--engine name=a cmd=/bin/a arg=-x arg=y proto=uci ranks=1 option.Hash=16 \
             --engine cmd=/bin/b proto=ucci --games 10 --rounds 2 --concurrency 2 --seed 7 \
             --tc 40/60+0.5 --resign 600,3 --draw 40,10,4 --sprt elo0=0 elo1=5 alpha=0.05 beta=0.1",
        ))
        .unwrap();
        assert_eq!(config.engines.len(), 2);
        let a = &config.engines[0];
        assert_eq!(a.name, "a");
        assert_eq!(a.args, ["-x", "y"]);
        assert_eq!(a.protocol, Some(Protocol::Uci));
        assert!(a.ranks_one_based);
        assert_eq!(a.options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(config.engines[1].name, "engine2");
        assert_eq!(
            config.time.clock,
            Some(GameClock {
                moves: Some(40),
                base_ms: 60_000,
                increment_ms: 500
            })
        );
        assert_eq!(
            config.resign,
            Some(ResignRule {
                score_cp: 600,
                count: 3
            })
        );
        assert_eq!(
            config.draw,
            Some(DrawRule {
                from_ply: 40,
                score_cp: 10,
                count: 4
            })
        );
        assert_eq!(config.sprt.map(|s| s.beta), Some(0.1));
        assert_eq!(config.games, 10);
        assert_eq!(config.seed, 7);
        assert!(config.random_openings, "a seed shuffles the openings");
    }

    #[test]
    fn without_a_seed_the_openings_keep_their_order() {
        let base = "--engine cmd=a --engine cmd=b --movetime 10";
        let config = parse_args(&strings(base)).unwrap();
        assert!(!config.random_openings);
        assert_eq!(config.seed, 1);
        let config = parse_args(&strings(&format!("{base} --random-openings"))).unwrap();
        assert!(config.random_openings);
    }

    #[test]
    fn rejects_bad_command_lines() {
        for bad in [
            "--engine cmd=a --movetime 10",
            "--engine cmd=a --engine cmd=b",
            "--engine cmd=a --engine cmd=b --movetime x",
            "--engine cmd=a --engine cmd=b --movetime 10 --bogus",
            "--engine cmd=a proto=xboard --engine cmd=b --movetime 10",
            "--engine name=x cmd=a --engine name=x cmd=b --movetime 10",
            "--engine cmd=a --engine cmd=b --tc 40/",
            "--engine cmd=a --engine cmd=b --movetime 10 --sprt elo0=5 elo1=0",
            "--engine cmd=a --engine cmd=b --movetime 10 --resign 5",
            "--engine cmd=a --engine cmd=b --movetime 10 --game chess",
            "--engine cmd=a --engine cmd=b --movetime 10 --concurrency 0",
        ] {
            assert!(parse_args(&strings(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_settings_come_before_an_engine_own() {
        let config = parse_args(&strings(
            "--each proto=uci option.Threads=1 --engine cmd=a proto=ucci --engine cmd=b \
             --depth 3 --nocapture 100 --maxplies 200 --gauntlet --repeat 1 --random-openings",
        ))
        .unwrap();
        assert_eq!(config.engines[0].protocol, Some(Protocol::Ucci));
        assert_eq!(config.engines[1].protocol, Some(Protocol::Uci));
        assert_eq!(
            config.engines[1].options,
            [("Threads".to_string(), "1".to_string())]
        );
        assert_eq!(config.no_capture_limit, Some(100));
        assert_eq!(config.max_plies, Some(200));
        assert!(config.gauntlet && config.random_openings);
        assert_eq!(config.repeat, 1);
        assert_eq!(config.time_margin_ms, DEFAULT_TIME_MARGIN_MS);
    }

    #[test]
    fn gomoku_boards_rules_and_records() {
        let base = "--engine cmd=a --engine cmd=b --game gomoku --turn-time 100";
        let config = parse_args(&strings(base)).unwrap();
        assert_eq!(
            config.game,
            GameChoice::Gomoku {
                width: 15,
                height: 15,
                rule: Rule::Freestyle
            }
        );
        let config = parse_args(&strings(&format!(
            "{base} --rect 20,12 --rule 4 --sgf g.sgf --psq dir"
        )))
        .unwrap();
        assert_eq!(
            config.game,
            GameChoice::Gomoku {
                width: 20,
                height: 12,
                rule: Rule::Renju
            }
        );
        assert_eq!(config.sgf, Some(PathBuf::from("g.sgf")));
        assert_eq!(config.psq, Some(PathBuf::from("dir")));
        for (rule, expected) in [
            ("0", Rule::Freestyle),
            ("1", Rule::Standard),
            ("8", Rule::Caro),
            ("9", Rule::CaroExact),
            ("caro-exact", Rule::CaroExact),
        ] {
            let config = parse_args(&strings(&format!("{base} --size 20 --rule {rule}"))).unwrap();
            assert_eq!(
                config.game,
                GameChoice::Gomoku {
                    width: 20,
                    height: 20,
                    rule: expected
                }
            );
        }
        // Only --match-time is a time control too.
        assert!(
            parse_args(&strings(
                "--engine cmd=a --engine cmd=b --game gomoku --match-time 9000"
            ))
            .is_ok()
        );
        for bad in [
            "--rule 2",
            "--rule 3",
            "--rule five",
            "--size 4",
            "--size 33",
            "--rect 0,5",
            "--rect 5,33",
            "--rect 5",
            "--rect 5,x",
            "--size 15 --rect 15,15",
            "--pgn g.pgn",
            "--nocapture 100",
            "--tc 10+1",
        ] {
            assert!(
                parse_args(&strings(&format!("{base} {bad}"))).is_err(),
                "{bad}"
            );
        }
        // Xiangqi takes none of the Gomoku settings.
        for bad in [
            "--rect 9,10",
            "--sgf g.sgf",
            "--psq d",
            "--rule 0",
            "--turn-time 10",
        ] {
            let line = format!("--engine cmd=a --engine cmd=b --movetime 10 {bad}");
            assert!(parse_args(&strings(&line)).is_err(), "{bad}");
        }
    }

    #[test]
    fn game_clock_forms() {
        assert_eq!(
            parse_game_clock("60+0.5"),
            Ok(GameClock {
                moves: None,
                base_ms: 60_000,
                increment_ms: 500
            })
        );
        assert_eq!(
            parse_game_clock("40/60"),
            Ok(GameClock {
                moves: Some(40),
                base_ms: 60_000,
                increment_ms: 0
            })
        );
        assert!(parse_game_clock("0").is_err());
        assert!(parse_game_clock("-1").is_err());
    }
}
