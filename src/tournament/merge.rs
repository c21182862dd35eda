//! `qilin match-merge`: adds up the records of a match's shards (`qilin match --shard I/N`)
//! into the table one run would print, and merges their PGN, SGF and PSQ outputs.
//!
//! Records must carry the same settings fingerprint (a merge of different matches is refused,
//! naming the settings that differ). Games are counted in game-number order, as a run with
//! `--concurrency 1` plays them; with an SPRT and one engine pair the count stops at the game
//! where the LLR first leaves its bounds, as that run would have stopped. Missing games (shards
//! not run yet, or cut off) are listed with their shards; merging again when more records have
//! come is always possible, as the merge only reads its inputs.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::game::GameResult;
use super::json::Json;
use super::report::{Model, PairStats, final_table, sprt_text};
use super::run::psq_file_name;
use super::settings::{MatchSettings, shard_of_games};
use super::stats::SprtDecision;

/// The usage text.
pub const USAGE: &str = "\
usage: qilin match-merge [--results OUT.jsonl] [--pgn OUT.pgn] [--sgf OUT.sgf] [--psq OUT_DIR]
                         INPUT...
  INPUT: the shards' --results files (JSON lines); *.pgn and *.sgf files and --psq
  directories are merged into --pgn, --sgf and --psq. Prints the match's final table.";

/// What the command line asks for.
#[derive(Debug, Default)]
struct MergeArgs {
    results: Vec<PathBuf>,
    pgn: Vec<PathBuf>,
    sgf: Vec<PathBuf>,
    psq: Vec<PathBuf>,
    out_results: Option<PathBuf>,
    out_pgn: Option<PathBuf>,
    out_sgf: Option<PathBuf>,
    out_psq: Option<PathBuf>,
}

fn parse_args(args: &[String]) -> Result<MergeArgs, String> {
    let mut parsed = MergeArgs::default();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let mut value = || {
            words
                .next()
                .map(PathBuf::from)
                .ok_or_else(|| format!("{word} needs a value"))
        };
        match word.as_str() {
            "--results" => parsed.out_results = Some(value()?),
            "--pgn" => parsed.out_pgn = Some(value()?),
            "--sgf" => parsed.out_sgf = Some(value()?),
            "--psq" => parsed.out_psq = Some(value()?),
            flag if flag.starts_with("--") => return Err(format!("unknown option '{flag}'")),
            input => {
                let path = PathBuf::from(input);
                let list = if path.is_dir() {
                    &mut parsed.psq
                } else {
                    match path.extension().and_then(|e| e.to_str()) {
                        Some("pgn") => &mut parsed.pgn,
                        Some("sgf") => &mut parsed.sgf,
                        _ => &mut parsed.results,
                    }
                };
                list.push(path);
            }
        }
    }
    if parsed.results.is_empty() {
        return Err("no results files given".to_string());
    }
    Ok(parsed)
}

/// One game read back from a record.
#[derive(Clone, Debug)]
struct MergedGame {
    /// The record's line, written unchanged to the merged results.
    line: String,
    pair: usize,
    pair_game: usize,
    /// Engine names by seat.
    names: [String; 2],
    result: GameResult,
    reason: String,
    /// The game's [`super::report::game_key`].
    key: u64,
}

/// Where a record came from, for messages.
fn place(path: &Path, line: usize) -> String {
    format!("{} line {line}", path.display())
}

fn read_game(record: &Json, line: &str) -> Option<MergedGame> {
    let colours = if record.get("white").is_some() {
        ["black", "white"]
    } else {
        ["red", "black"]
    };
    let text = |key: &str| record.get(key).and_then(Json::as_str).map(str::to_string);
    let result = match record.get("result")?.as_str()? {
        "1-0" => GameResult::Win(0),
        "0-1" => GameResult::Win(1),
        "1/2-1/2" => GameResult::Draw,
        _ => return None,
    };
    let names = [text(colours[0])?, text(colours[1])?];
    let root = text("fen").unwrap_or_default();
    let moves = text("moves").unwrap_or_default();
    let key = super::report::game_key(&root, &names, moves.split_whitespace());
    Some(MergedGame {
        line: line.to_string(),
        pair: record.get("pair")?.as_usize()?,
        pair_game: record.get("pair_game")?.as_usize()?,
        names,
        result,
        reason: text("reason")?,
        key,
    })
}

/// The records of every input, checked against each other.
struct Collected {
    settings: MatchSettings,
    /// Shard count of the first record (`None` when records disagree).
    shard_count: Option<u32>,
    games: BTreeMap<usize, MergedGame>,
}

fn collect(inputs: &[PathBuf]) -> Result<Collected, String> {
    let mut reference: Option<(String, MatchSettings, String)> = None;
    let mut shard_count: Option<Option<u32>> = None;
    let mut games = BTreeMap::new();
    let mut duplicates = 0;
    for path in inputs {
        let text = fs::read_to_string(path)
            .map_err(|error| format!("cannot read '{}': {error}", path.display()))?;
        for (index, line) in text.lines().enumerate() {
            let at = place(path, index + 1);
            if line.trim().is_empty() {
                continue;
            }
            let Ok(record) = Json::parse(line) else {
                eprintln!("qilin match-merge: {at}: not a whole record, skipped (cut off?)");
                continue;
            };
            let stamp = (
                record.get("fingerprint").and_then(Json::as_str),
                record.get("settings").and_then(Json::as_str),
            );
            let (Some(fingerprint), Some(settings_text)) = stamp else {
                return Err(format!(
                    "{at}: the record has no settings fingerprint (written by a qilin match \
                     from before shards?)"
                ));
            };
            match &reference {
                None => {
                    let settings = MatchSettings::parse(settings_text)
                        .map_err(|error| format!("{at}: {error}"))?;
                    reference = Some((fingerprint.to_string(), settings, at.clone()));
                }
                Some((first, settings, first_at)) if first != fingerprint => {
                    let theirs = MatchSettings::parse(settings_text)
                        .map_err(|error| format!("{at}: {error}"))?;
                    let mut differences = settings.differences(&theirs);
                    if differences.is_empty() {
                        differences.push("the fingerprints themselves".to_string());
                    }
                    return Err(format!(
                        "{at}: a record of another match (settings fingerprint {fingerprint}, \
                         not {first} as at {first_at}); different: {}",
                        differences.join("; ")
                    ));
                }
                Some(_) => {}
            }
            let count = record
                .get("shard")
                .and_then(Json::as_str)
                .and_then(|s| s.split_once('/'))
                .and_then(|(_, n)| n.parse::<u32>().ok());
            shard_count = Some(match shard_count {
                None => count,
                Some(known) if known == count => known,
                Some(_) => None,
            });
            let (Some(number), Some(game)) = (
                record.get("game").and_then(Json::as_usize),
                read_game(&record, line),
            ) else {
                return Err(format!(
                    "{at}: a record without its game number, pair or result"
                ));
            };
            match games.entry(number) {
                std::collections::btree_map::Entry::Occupied(_) => duplicates += 1,
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert(game);
                }
            }
        }
    }
    if duplicates > 0 {
        eprintln!(
            "qilin match-merge: {duplicates} games were given more than once; the first \
             record of each was kept"
        );
    }
    let (_, settings, _) = reference.ok_or("the inputs hold no records")?;
    Ok(Collected {
        settings,
        shard_count: shard_count.flatten(),
        games,
    })
}

/// Writes `numbers` as ranges: `1-4, 9, 12-13`.
fn ranges(numbers: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut index = 0;
    while index < numbers.len() {
        let start = numbers[index];
        while index + 1 < numbers.len() && numbers[index + 1] == numbers[index] + 1 {
            index += 1;
        }
        let end = numbers[index];
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        index += 1;
    }
    parts.join(", ")
}

/// The schedule's `(engine pair, game within the pair)` by game number, rebuilt from the
/// settings as `run::schedule` lays it out (round, then pair, then game).
fn schedule_units(settings: &MatchSettings, total: usize) -> Option<Vec<(usize, usize)>> {
    let games: usize = settings.value("games")?.parse().ok()?;
    let rounds: usize = settings.value("rounds")?.parse().ok()?;
    let pairs = total.checked_div(games * rounds)?;
    let mut units = Vec::with_capacity(total);
    for round in 0..rounds {
        for pair in 0..pairs {
            units.extend((0..games).map(|game| (pair, round * games + game)));
        }
    }
    (units.len() == total).then_some(units)
}

/// Tells which games are missing, by shard when the shards are known.
fn report_missing(collected: &Collected, total: usize) {
    let missing: Vec<usize> = (1..=total)
        .filter(|n| !collected.games.contains_key(n))
        .collect();
    if missing.is_empty() {
        eprintln!("qilin match-merge: all {total} games are here");
        return;
    }
    eprintln!(
        "qilin match-merge: {} of {total} games missing: {}",
        missing.len(),
        ranges(&missing)
    );
    let (Some(count), Some(units)) = (
        collected.shard_count,
        schedule_units(&collected.settings, total),
    ) else {
        return;
    };
    let shards = shard_of_games(&units, count);
    for shard in 0..count {
        let of_shard: Vec<usize> = missing
            .iter()
            .copied()
            .filter(|&n| shards.get(n - 1) == Some(&shard))
            .collect();
        if !of_shard.is_empty() {
            eprintln!(
                "  shard {shard}/{count}: {} games missing ({})",
                of_shard.len(),
                ranges(&of_shard)
            );
        }
    }
}

/// Splits a collection of games (PGN or SGF) at lines starting with `start`, keyed by the
/// game number that `number` finds in each game.
fn split_games(text: &str, start: &str, number: fn(&str) -> Option<usize>) -> Vec<(usize, String)> {
    let mut games: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        match games.last_mut() {
            Some(game) if !line.starts_with(start) => game.push_str(line),
            _ => games.push(line.to_string()),
        }
    }
    games
        .into_iter()
        .filter_map(|game| Some((number(&game)?, game)))
        .collect()
}

/// The game number of a PGN game: `[Round "round.number"]`.
fn pgn_number(game: &str) -> Option<usize> {
    let rest = &game[game.find("[Round \"")? + 8..];
    rest[..rest.find('"')?].split_once('.')?.1.parse().ok()
}

/// The game number of an SGF game tree: `RO[round.number]`.
fn sgf_number(game: &str) -> Option<usize> {
    let rest = &game[game.find("RO[")? + 3..];
    rest[..rest.find(']')?].split_once('.')?.1.parse().ok()
}

/// Merges game collections into `out`, in game order, each game once.
fn merge_collections(
    inputs: &[PathBuf],
    out: &Path,
    start: &str,
    number: fn(&str) -> Option<usize>,
) -> Result<usize, String> {
    let mut games = BTreeMap::new();
    for path in inputs {
        let text = fs::read_to_string(path)
            .map_err(|error| format!("cannot read '{}': {error}", path.display()))?;
        for (n, game) in split_games(&text, start, number) {
            games.entry(n).or_insert(game);
        }
    }
    let count = games.len();
    let text: String = games.into_values().collect();
    fs::write(out, text).map_err(|error| format!("cannot write '{}': {error}", out.display()))?;
    Ok(count)
}

/// Copies the `.psq` files of every input directory into `out` (one per game number).
fn merge_psq(inputs: &[PathBuf], out: &Path, total: usize) -> Result<usize, String> {
    fs::create_dir_all(out)
        .map_err(|error| format!("cannot create '{}': {error}", out.display()))?;
    let mut copied = 0;
    for number in 1..=total {
        let name = psq_file_name(number);
        if let Some(source) = inputs.iter().map(|d| d.join(&name)).find(|p| p.is_file()) {
            fs::copy(&source, out.join(&name))
                .map_err(|error| format!("cannot copy '{}': {error}", source.display()))?;
            copied += 1;
        }
    }
    Ok(copied)
}

/// Counts the games in game order into per-pair statistics; with an SPRT and one engine pair,
/// stops where a run would have stopped. Returns the statistics, the games counted and the
/// SPRT decision that stopped the count.
fn count_games(
    games: &BTreeMap<usize, MergedGame>,
    model: Model,
    sprt: Option<&super::stats::SprtParams>,
) -> (Vec<PairStats>, usize, Option<SprtDecision>) {
    let mut stats: BTreeMap<usize, PairStats> = BTreeMap::new();
    let pair_count = games
        .values()
        .map(|g| g.pair)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let mut counted = 0;
    for game in games.values() {
        // The first engine of the pair sits first in the pair's even games.
        let seat = game.pair_game % 2;
        let pair = stats.entry(game.pair).or_insert_with(|| {
            let names = [game.names[seat].clone(), game.names[1 - seat].clone()];
            PairStats::new([0, 1], names, model)
        });
        pair.add_result(game.pair_game, game.result.half_points(seat), &game.reason);
        pair.note_game(game.key);
        counted += 1;
        if let Some(sprt) = sprt.filter(|_| pair_count == 1) {
            let decision = sprt.decide(pair.llr(sprt));
            if decision != SprtDecision::Continue {
                return (stats.into_values().collect(), counted, Some(decision));
            }
        }
    }
    (stats.into_values().collect(), counted, None)
}

fn merge(args: &MergeArgs) -> Result<(), String> {
    let collected = collect(&args.results)?;
    let settings = &collected.settings;
    let total = settings
        .total_games()
        .ok_or("the records' settings do not give the number of games")?;
    let model = settings
        .model()
        .ok_or("the records' settings lack the model")?;
    let sprt = settings.sprt()?;
    report_missing(&collected, total);
    let (stats, counted, decided) = count_games(&collected.games, model, sprt.as_ref());
    if let (Some(decision), Some(pair)) = (decided, stats.first()) {
        eprintln!(
            "SPRT decided after {counted} games for {} vs {}: {}",
            pair.names[0],
            pair.names[1],
            sprt_text(decision)
        );
        let later = collected.games.len() - counted;
        if later > 0 {
            eprintln!(
                "qilin match-merge: {later} later games not counted (a single run would have \
                 stopped here)"
            );
        }
    }
    if let Some(out) = &args.out_results {
        let mut text = String::new();
        for game in collected.games.values() {
            text.push_str(&game.line);
            text.push('\n');
        }
        fs::write(out, text)
            .map_err(|error| format!("cannot write '{}': {error}", out.display()))?;
    }
    if let Some(out) = &args.out_pgn {
        let n = merge_collections(&args.pgn, out, "[Game \"", pgn_number)?;
        eprintln!("qilin match-merge: {n} PGN games to '{}'", out.display());
    }
    if let Some(out) = &args.out_sgf {
        let n = merge_collections(&args.sgf, out, "(;", sgf_number)?;
        eprintln!("qilin match-merge: {n} SGF games to '{}'", out.display());
    }
    if let Some(out) = &args.out_psq {
        let n = merge_psq(&args.psq, out, total)?;
        eprintln!("qilin match-merge: {n} PSQ files to '{}'", out.display());
    }
    print!("{}", final_table(&stats, sprt.as_ref(), counted));
    let _ = std::io::stdout().flush();
    Ok(())
}

/// Entry point of `qilin match-merge` (and `qilin match --merge`): `args` are the words after
/// it. Returns the exit status: 0 after a merge, 2 for bad arguments, unreadable files or
/// records of different matches.
pub fn main(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return 0;
    }
    let result = parse_args(args).and_then(|parsed| merge(&parsed));
    match result {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("qilin match-merge: {error}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` games of one engine pair in which the first engine ("a") scores 65%: of every
    /// 20 games (in a mixed order) it wins 9, draws 8 and loses 3.
    fn first_engine_wins(count: usize) -> BTreeMap<usize, MergedGame> {
        (0..count)
            .map(|index| {
                let seat = index % 2;
                let mut names = ["b".to_string(), "b".to_string()];
                names[seat] = "a".to_string();
                let game = MergedGame {
                    line: String::new(),
                    pair: 0,
                    pair_game: index,
                    names,
                    result: match index * 7 % 20 {
                        0..9 => GameResult::Win(seat),
                        9..17 => GameResult::Draw,
                        _ => GameResult::Win(1 - seat),
                    },
                    reason: "checkmate".to_string(),
                    key: index as u64,
                };
                (index + 1, game)
            })
            .collect()
    }

    #[test]
    fn the_count_stops_where_the_sprt_decides() {
        let games = first_engine_wins(200);
        let (stats, counted, decided) = count_games(&games, Model::Pentanomial, None);
        assert_eq!((counted, decided), (200, None));
        assert_eq!(stats[0].names, ["a", "b"]);
        let games_won = stats[0].games;
        assert_eq!(
            (games_won.wins, games_won.draws, games_won.losses),
            (90, 80, 30)
        );
        assert_eq!(stats[0].pairs.counts.iter().sum::<u64>(), 100);
        let sprt = crate::tournament::stats::SprtParams {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (stats, counted, decided) = count_games(&games, Model::Pentanomial, Some(&sprt));
        assert_eq!(decided, Some(SprtDecision::AcceptH1));
        assert!(counted < 200 && counted.is_multiple_of(2), "{counted}");
        // The count stopped at the first game whose LLR is past the bound.
        assert!(stats[0].llr(&sprt) >= sprt.bounds().1);
        let (before, _, _) = count_games(
            &first_engine_wins(counted - 2),
            Model::Pentanomial,
            Some(&sprt),
        );
        assert!(before[0].llr(&sprt) < sprt.bounds().1);
    }

    #[test]
    fn ranges_are_compact() {
        assert_eq!(ranges(&[1, 2, 3, 4, 9, 12, 13]), "1-4, 9, 12-13");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn collections_split_by_game_number() {
        let pgn = "[Game \"Chinese Chess\"]\n[Round \"1.7\"]\n\n1. H2-E2 *\n\n\
                   [Game \"Chinese Chess\"]\n[Round \"2.10\"]\n\n*\n\n";
        let games = split_games(pgn, "[Game \"", pgn_number);
        assert_eq!(games.iter().map(|g| g.0).collect::<Vec<_>>(), [7, 10]);
        assert!(games[0].1.ends_with("1. H2-E2 *\n\n"));
        let sgf = "(;GM[4]RO[1.3];B[hh])\n(;GM[4]RO[1.4];B[hh])\n";
        let games = split_games(sgf, "(;", sgf_number);
        assert_eq!(games.iter().map(|g| g.0).collect::<Vec<_>>(), [3, 4]);
    }
}
