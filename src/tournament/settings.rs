//! The settings that decide which games a match plays and how (engines' commands and options,
//! time control, openings, seed, rules, schedule), written as `key=value` lines and hashed
//! into a fingerprint. Every game record carries both, so that `qilin match-merge` can refuse
//! to add up shards of different matches and say which setting differs.
//!
//! The lines are the program's own text (`Debug` forms of the settings' types), stable for a
//! given build; shards of one match should be run by one build. Output paths, concurrency,
//! the log and the shard itself are not settings of the match: they do not change its games.

use super::args::MatchConfig;
use super::openings::Opening;
use super::report::Model;
use super::rng::stable_hash;
use super::stats::SprtParams;

/// A match's settings as ordered `key=value` lines.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSettings {
    lines: Vec<(String, String)>,
}

/// The keys the merge reads back (the others are only compared).
const TOTAL: &str = "total_games";
const MODEL: &str = "model";
const SPRT: &str = "sprt";

impl MatchSettings {
    /// The settings of `config` with its loaded `openings`, for a schedule of `total` games.
    pub fn of(config: &MatchConfig, openings: &[Opening], total: usize, model: Model) -> Self {
        let mut lines = vec![("game".to_string(), format!("{:?}", config.game))];
        for (index, engine) in config.engines.iter().enumerate() {
            lines.push((format!("engine.{index}"), format!("{engine:?}")));
        }
        let described: Vec<String> = openings.iter().map(Opening::describe).collect();
        let more = [
            ("gauntlet", config.gauntlet.to_string()),
            ("games", config.games.to_string()),
            ("rounds", config.rounds.to_string()),
            (TOTAL, total.to_string()),
            ("seed", config.seed.to_string()),
            ("random_openings", config.random_openings.to_string()),
            ("repeat", config.repeat.to_string()),
            (
                "openings",
                format!(
                    "{} openings, hash {:016x}",
                    openings.len(),
                    stable_hash(described.join("\n").as_bytes())
                ),
            ),
            ("time", format!("{:?}", config.time)),
            ("time_margin_ms", config.time_margin_ms.to_string()),
            ("max_wait_ms", config.max_wait_ms.to_string()),
            ("max_plies", format!("{:?}", config.max_plies)),
            ("no_capture_limit", format!("{:?}", config.no_capture_limit)),
            ("resign", format!("{:?}", config.resign)),
            ("draw", format!("{:?}", config.draw)),
            (MODEL, model.name().to_string()),
            (SPRT, sprt_text(config.sprt.as_ref())),
        ];
        lines.extend(more.map(|(key, value)| (key.to_string(), value)));
        MatchSettings { lines }
    }

    /// The lines joined with newlines, as records carry them.
    pub fn text(&self) -> String {
        let lines: Vec<String> = self.lines.iter().map(|(k, v)| format!("{k}={v}")).collect();
        lines.join("\n")
    }

    /// Reads the text of [`MatchSettings::text`] back.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut lines = Vec::new();
        for line in text.lines() {
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| format!("settings line '{line}' has no '='"))?;
            lines.push((key.to_string(), value.to_string()));
        }
        Ok(MatchSettings { lines })
    }

    /// The fingerprint: FNV-1a of the text, as 16 hex digits.
    pub fn fingerprint(&self) -> String {
        format!("{:016x}", stable_hash(self.text().as_bytes()))
    }

    /// The value of setting `key`.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.lines
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The games of the whole schedule.
    pub fn total_games(&self) -> Option<usize> {
        self.value(TOTAL)?.parse().ok()
    }

    /// The statistical model of the match.
    pub fn model(&self) -> Option<Model> {
        match self.value(MODEL)? {
            "pentanomial" => Some(Model::Pentanomial),
            "trinomial" => Some(Model::Trinomial),
            _ => None,
        }
    }

    /// The SPRT of the match: `Ok(None)` without one, `Err` for text that is not one.
    pub fn sprt(&self) -> Result<Option<SprtParams>, String> {
        let text = self.value(SPRT).unwrap_or("none");
        if text == "none" {
            return Ok(None);
        }
        let numbers: Vec<f64> = text
            .split_whitespace()
            .filter_map(|word| word.split_once('=')?.1.parse().ok())
            .collect();
        match numbers.as_slice() {
            &[elo0, elo1, alpha, beta] => Ok(Some(SprtParams {
                elo0,
                elo1,
                alpha,
                beta,
            })),
            _ => Err(format!("cannot read the SPRT settings '{text}'")),
        }
    }

    /// Each setting whose value differs between `self` and `other` (or that only one has),
    /// as `key: <self's> vs <other's>`.
    pub fn differences(&self, other: &MatchSettings) -> Vec<String> {
        let mut keys: Vec<&str> = self.lines.iter().map(|(k, _)| k.as_str()).collect();
        for (key, _) in &other.lines {
            if !keys.contains(&key.as_str()) {
                keys.push(key);
            }
        }
        keys.into_iter()
            .filter_map(|key| {
                let (mine, theirs) = (self.value(key), other.value(key));
                (mine != theirs).then(|| {
                    format!(
                        "{key}: {} vs {}",
                        mine.unwrap_or("(not set)"),
                        theirs.unwrap_or("(not set)")
                    )
                })
            })
            .collect()
    }
}

/// The SPRT as `elo0=E0 elo1=E1 alpha=A beta=B` (exact: Rust prints floats so that they
/// read back the same), or `none`.
fn sprt_text(sprt: Option<&SprtParams>) -> String {
    match sprt {
        Some(s) => format!(
            "elo0={} elo1={} alpha={} beta={}",
            s.elo0, s.elo1, s.alpha, s.beta
        ),
        None => "none".to_string(),
    }
}

/// Which shard plays each game of a schedule. Games are dealt out by their pentanomial pair
/// (an engine pair's games `2k` and `2k + 1`, which share an opening with colours swapped),
/// pair after pair in schedule order, to shard 0, 1, ..., N-1, 0, 1, ...: a shard plays whole
/// pairs, and the shards' games are spread over the schedule evenly.
/// `games` gives each game's `(engine pair, game index within the pair)` in schedule order.
pub fn shard_of_games(games: &[(usize, usize)], count: u32) -> Vec<u32> {
    let mut units: std::collections::HashMap<(usize, usize), u32> = Default::default();
    let mut next = 0u32;
    games
        .iter()
        .map(|&(pair, pair_game)| {
            *units.entry((pair, pair_game / 2)).or_insert_with(|| {
                let shard = next % count.max(1);
                next = next.wrapping_add(1);
                shard
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::args::parse_args;
    use crate::tournament::openings::builtin_openings;

    fn settings(extra: &str) -> MatchSettings {
        let text = format!("--engine name=a cmd=x --engine name=b cmd=y --movetime 10 {extra}");
        let words: Vec<String> = text.split_whitespace().map(String::from).collect();
        let config = parse_args(&words).unwrap();
        let openings = builtin_openings(config.game).unwrap();
        MatchSettings::of(&config, &openings, 2, Model::Pentanomial)
    }

    #[test]
    fn settings_read_back_and_name_their_differences() {
        let one = settings("--sprt elo0=-1.5 elo1=3 alpha=0.1 beta=0.05 --seed 3");
        let back = MatchSettings::parse(&one.text()).unwrap();
        assert_eq!(back, one);
        assert_eq!(back.fingerprint(), one.fingerprint());
        assert_eq!(back.total_games(), Some(2));
        assert_eq!(back.model(), Some(Model::Pentanomial));
        let sprt = back.sprt().unwrap().unwrap();
        assert_eq!(
            (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta),
            (-1.5, 3.0, 0.1, 0.05)
        );
        // Output files, concurrency and the shard are not settings; the seed is.
        let same = settings(
            "--sprt elo0=-1.5 elo1=3 alpha=0.1 beta=0.05 --seed 3 --concurrency 4 \
             --shard 1/3 --results r.jsonl",
        );
        assert_eq!(same.fingerprint(), one.fingerprint());
        let other = settings("--sprt elo0=-1.5 elo1=3 alpha=0.1 beta=0.05 --seed 4");
        assert_ne!(other.fingerprint(), one.fingerprint());
        assert_eq!(one.differences(&other), ["seed: 3 vs 4"]);
    }

    #[test]
    fn engine_lines_keep_their_form() {
        let words: Vec<String> = "--engine name=a cmd=x --engine name=b cmd=y proto=uci ranks=1 \
             option.Hash=16 --movetime 10"
            .split_whitespace()
            .map(String::from)
            .collect();
        let config = parse_args(&words).unwrap();
        let openings = builtin_openings(config.game).unwrap();
        let text = MatchSettings::of(&config, &openings, 2, Model::Pentanomial).text();
        let engines: Vec<&str> = text.lines().filter(|l| l.starts_with("engine.")).collect();
        assert_eq!(
            engines,
            [
                "engine.0=EngineSpec { name: \"a\", command: \"x\", args: [], dir: None, \
                 protocol: Auto, ranks_one_based: false, options: [] }",
                "engine.1=EngineSpec { name: \"b\", command: \"y\", args: [], dir: None, \
                 protocol: Uci, ranks_one_based: true, options: [(\"Hash\", \"16\")] }",
            ]
        );
    }

    #[test]
    fn shards_deal_out_whole_pairs() {
        // Two engine pairs, five games each: pairs (0,0-1) (0,2-3) (0,4) (1,0-1) ...
        let games: Vec<(usize, usize)> = (0..2)
            .flat_map(|pair| (0..5).map(move |game| (pair, game)))
            .collect();
        let shards = shard_of_games(&games, 4);
        assert_eq!(shards, [0, 0, 1, 1, 2, 3, 3, 0, 0, 1]);
        assert_eq!(shard_of_games(&games, 1), [0; 10]);
    }
}
