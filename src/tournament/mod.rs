//! `qilin match`: runs engine-versus-engine matches between any engines that speak UCCI, UCI
//! or Piskvork, adjudicated by Qilin's own referees.
//!
//! A game's way through the modules: [`args`] parses the command line into a
//! [`args::MatchConfig`]; [`run`] schedules the games and gives them to worker threads, each
//! keeping a [`player::Player`] per engine (started, or restarted after a failure); [`game`]
//! plays one game, asking the [`referee`] for the position and the result and the players
//! for moves under the [`clock`]; a player passes each request to its protocol driver
//! ([`player::xiangqi`] for UCI and UCCI, [`player::piskvork`] for Piskvork, behind the
//! [`player::EngineDriver`] trait), which talks to the engine's [`process`]. The finished game
//! goes back to [`run`], which writes its [`record`], adds it to the [`report`] and [`stats`]
//! and decides whether to go on.

pub mod args;
pub mod clock;
pub mod game;
pub mod json;
pub mod merge;
pub mod openings;
pub mod player;
pub mod process;
pub mod record;
pub mod referee;
pub mod report;
pub mod rng;
pub mod run;
pub mod settings;
pub mod stats;
pub mod test_engine;

/// Entry point of `qilin match`: `args` are the words after `match`. Returns the exit status:
/// 0 after a match, 2 for bad arguments or unusable files.
pub fn main(args: &[String]) -> i32 {
    if let Some(at) = args.iter().position(|a| a == "--merge") {
        let rest: Vec<String> = args[..at].iter().chain(&args[at + 1..]).cloned().collect();
        return merge::main(&rest);
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", args::USAGE);
        return 0;
    }
    let config = match args::parse_args(args) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("qilin match: {error}\n{}", args::USAGE);
            return 2;
        }
    };
    match run::run_match(&config) {
        Ok(status) => status,
        Err(run::SetupError(message)) => {
            eprintln!("qilin match: {message}");
            2
        }
    }
}
