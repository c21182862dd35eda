//! Per-pair statistics, the live progress line (stderr) and the final table (stdout).
//!
//! Elo and the SPRT use the pentanomial model (one sample per pair of games on the same
//! opening with colours swapped) when openings are played an even number of times
//! (`--repeat`, default 2); otherwise the trinomial model (one sample per game).

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{Hash, Hasher};

use super::record::GameRecord;
use super::stats::{
    EloEstimate, Pentanomial, SprtDecision, SprtParams, Trinomial, elo_pentanomial, elo_trinomial,
};

/// Which statistical model a pair is judged with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Pairs of games on one opening.
    Pentanomial,
    /// Single games.
    Trinomial,
}

impl Model {
    /// Lower-case name for output.
    pub fn name(self) -> &'static str {
        match self {
            Model::Pentanomial => "pentanomial",
            Model::Trinomial => "trinomial",
        }
    }
}

/// Results of one engine pair, from the first engine's point of view.
#[derive(Clone, Debug)]
pub struct PairStats {
    /// Engine indices: `first` is the one whose score is counted.
    pub engines: [usize; 2],
    /// Engine names.
    pub names: [String; 2],
    /// Games won, drawn and lost by `first`.
    pub games: Trinomial,
    /// Completed game pairs by `first`'s points.
    pub pairs: Pentanomial,
    /// Half of a pair waiting for its other game: pair-game index / 2 -> half points.
    pending: HashMap<usize, usize>,
    /// Games ended by each reason.
    pub reasons: BTreeMap<String, u64>,
    /// The model used.
    pub model: Model,
    /// Keys of the games seen (start position, engines by seat, moves; see [`game_key`]).
    seen: HashSet<u64>,
    /// Games that repeated an earlier one move for move, with the same engines in the same
    /// seats: deterministic engines (a fixed node count, say) replay an opening the same way
    /// each time it comes round, and such a game adds nothing to the evidence.
    pub repeated: u64,
}

/// A key for a game: its start position, the engines by seat and every move. Equal keys
/// mean the same game (up to a hash collision).
pub fn game_key<'m>(root: &str, seats: &[String; 2], moves: impl Iterator<Item = &'m str>) -> u64 {
    let mut h = DefaultHasher::new();
    root.hash(&mut h);
    seats.hash(&mut h);
    for m in moves {
        m.hash(&mut h);
    }
    h.finish()
}

impl PairStats {
    /// Empty statistics for engines `engines` named `names`.
    pub fn new(engines: [usize; 2], names: [String; 2], model: Model) -> PairStats {
        PairStats {
            engines,
            names,
            games: Trinomial::default(),
            pairs: Pentanomial::default(),
            pending: HashMap::new(),
            reasons: BTreeMap::new(),
            model,
            seen: HashSet::new(),
            repeated: 0,
        }
    }

    /// Notes a game by its [`game_key`], counting it in `repeated` when it was seen before.
    pub fn note_game(&mut self, key: u64) {
        if !self.seen.insert(key) {
            self.repeated += 1;
        }
    }

    /// Adds a finished game of this pair.
    pub fn add(&mut self, record: &GameRecord) {
        let Some(seat) = record.engines.iter().position(|&e| e == self.engines[0]) else {
            return;
        };
        self.add_result(
            record.pair_game,
            record.half_points_of_seat(seat),
            &record.game.end.reason,
        );
        let moves = record.game.moves.iter().map(|m| m.notation.as_str());
        self.note_game(game_key(&record.root, &record.names, moves));
    }

    /// Adds a finished game of this pair given by its index within the pair, the half points
    /// of `first` and the reason it ended.
    pub fn add_result(&mut self, pair_game: usize, half_points: usize, reason: &str) {
        match half_points {
            2 => self.games.wins += 1,
            1 => self.games.draws += 1,
            _ => self.games.losses += 1,
        }
        *self.reasons.entry(reason.to_string()).or_insert(0) += 1;
        let slot = pair_game / 2;
        match self.pending.remove(&slot) {
            Some(other) => self.pairs.add_pair(other + half_points),
            None => {
                self.pending.insert(slot, half_points);
            }
        }
    }

    /// Elo of `first` with its 95% interval under the pair's model.
    pub fn elo(&self) -> Option<EloEstimate> {
        match self.model {
            Model::Pentanomial => elo_pentanomial(&self.pairs),
            Model::Trinomial => elo_trinomial(&self.games),
        }
    }

    /// LLR of the SPRT under the pair's model.
    pub fn llr(&self, sprt: &SprtParams) -> f64 {
        match self.model {
            Model::Pentanomial => sprt.llr_pentanomial(&self.pairs),
            Model::Trinomial => sprt.llr_trinomial(&self.games),
        }
    }
}

fn signed(value: f64) -> String {
    if value.is_finite() {
        // Adding zero turns -0.0 into 0.0.
        format!("{:+.1}", value + 0.0)
    } else if value > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

fn elo_text(elo: Option<EloEstimate>) -> String {
    match elo {
        Some(e) if e.lower.is_nan() || e.upper.is_nan() => format!("{} [n/a]", signed(e.elo)),
        Some(e) => format!(
            "{} [{}, {}]",
            signed(e.elo),
            signed(e.lower),
            signed(e.upper)
        ),
        None => "-".to_string(),
    }
}

/// The progress line after a game.
pub fn progress_line(
    done: usize,
    total: usize,
    stats: &PairStats,
    sprt: Option<&SprtParams>,
) -> String {
    let games = stats.games;
    let mut line = format!(
        "[{done}/{total}] {} vs {}: {:.1}/{} W-D-L {}-{}-{} Elo {}",
        stats.names[0],
        stats.names[1],
        games.points(),
        games.games(),
        games.wins,
        games.draws,
        games.losses,
        elo_text(stats.elo()),
    );
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        line += &format!(" LLR {:.2} ({lower:.2}, {upper:.2})", stats.llr(sprt));
    }
    line
}

/// The SPRT verdict text.
pub fn sprt_text(decision: SprtDecision) -> &'static str {
    match decision {
        SprtDecision::Continue => "no decision yet",
        SprtDecision::AcceptH0 => "H0 accepted (elo0)",
        SprtDecision::AcceptH1 => "H1 accepted (elo1)",
    }
}

/// The final table, one block per pair.
pub fn final_table(all: &[PairStats], sprt: Option<&SprtParams>, total_played: usize) -> String {
    let mut out = format!("Games played: {total_played}\n");
    out += &format!(
        "{:<32} {:>6} {:>6} {:>6} {:>6} {:>7}  {}\n",
        "Pair", "Games", "Wins", "Draws", "Losses", "Score", "Elo [95% interval]"
    );
    for stats in all {
        let games = stats.games;
        let score = if games.games() > 0 {
            format!("{:.1}%", 100.0 * games.points() / games.games() as f64)
        } else {
            "-".to_string()
        };
        out += &format!(
            "{:<32} {:>6} {:>6} {:>6} {:>6} {:>7}  {} ({})\n",
            format!("{} vs {}", stats.names[0], stats.names[1]),
            games.games(),
            games.wins,
            games.draws,
            games.losses,
            score,
            elo_text(stats.elo()),
            stats.model.name(),
        );
        let c = stats.pairs.counts;
        out += &format!(
            "  pairs by points 0/0.5/1/1.5/2: {} {} {} {} {}\n",
            c[0], c[1], c[2], c[3], c[4]
        );
        let reasons: Vec<String> = stats
            .reasons
            .iter()
            .map(|(reason, count)| format!("{reason} {count}"))
            .collect();
        out += &format!("  terminations: {}\n", reasons.join(", "));
        if stats.repeated > 0 {
            out += &format!(
                "  repeated games: {} of {} replay an earlier game move for move (same opening and \
                 seats): they add no evidence, and the interval above counts them; give more \
                 openings\n",
                stats.repeated,
                games.games()
            );
        }
        if let Some(sprt) = sprt {
            let llr = stats.llr(sprt);
            let (lower, upper) = sprt.bounds();
            out += &format!(
                "  SPRT ({} model, logistic Elo) elo0={} elo1={} alpha={} beta={}: LLR {llr:.3} ({lower:.3}, {upper:.3}): {}\n",
                stats.model.name(),
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                sprt_text(sprt.decide(llr)),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::game::{GameEnd, GameResult, MoveRecord, PlayedGame};
    use crate::tournament::openings::Opening;

    #[test]
    fn an_interval_that_cannot_be_measured_reads_n_a() {
        let e = EloEstimate {
            elo: 0.0,
            lower: f64::NAN,
            upper: f64::NAN,
        };
        assert_eq!(elo_text(Some(e)), "+0.0 [n/a]");
        let e = EloEstimate {
            elo: 10.0,
            lower: -5.0,
            upper: 25.0,
        };
        assert_eq!(elo_text(Some(e)), "+10.0 [-5.0, +25.0]");
    }

    fn record(pair_game: usize, engines: [usize; 2], result: GameResult) -> GameRecord {
        GameRecord {
            number: pair_game + 1,
            round: 1,
            pair: 0,
            pair_game,
            engines,
            names: ["x".to_string(), "y".to_string()],
            colours: ["red", "black"],
            choice: crate::tournament::args::GameChoice::Xiangqi,
            about: [None, None],
            opening: Opening {
                root: String::new(),
                moves: Vec::new(),
                name: None,
            },
            root: String::new(),
            game: PlayedGame {
                moves: Vec::new(),
                end: GameEnd {
                    result,
                    reason: "checkmate".to_string(),
                    detail: None,
                },
                time_used_ms: [0, 0],
            },
            stamp: None,
        }
    }

    #[test]
    fn games_are_counted_from_the_first_engine_and_paired_by_opening() {
        let mut stats = PairStats::new([3, 5], ["a".into(), "b".into()], Model::Pentanomial);
        // Pair 0: engine 3 wins as red, then draws as black: 1.5 points.
        stats.add(&record(0, [3, 5], GameResult::Win(0)));
        // Pair 1 arrives out of order: engine 3 loses as black (game 3) ...
        stats.add(&record(3, [5, 3], GameResult::Win(0)));
        assert_eq!(stats.pairs.pairs(), 0);
        stats.add(&record(1, [5, 3], GameResult::Draw));
        // ... and wins as red (game 2): 1 point.
        stats.add(&record(2, [3, 5], GameResult::Win(0)));
        assert_eq!(
            stats.games,
            Trinomial {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(stats.pairs.counts, [0, 0, 1, 1, 0]);
        assert_eq!(stats.reasons.get("checkmate"), Some(&4));
        let line = progress_line(4, 10, &stats, None);
        assert!(
            line.starts_with("[4/10] a vs b: 2.5/4 W-D-L 2-1-1 Elo +"),
            "{line}"
        );
    }

    #[test]
    fn a_game_replayed_move_for_move_is_counted_as_repeated() {
        let mut stats = PairStats::new([0, 1], ["a".into(), "b".into()], Model::Pentanomial);
        let game = |pair_game: usize, engines: [usize; 2], moves: &[&str]| {
            let mut r = record(pair_game, engines, GameResult::Draw);
            r.names = engines.map(|e| ["a", "b"][e].to_string());
            r.root = "start".to_string();
            r.game.moves = moves
                .iter()
                .map(|m| MoveRecord::unscored(m, false))
                .collect();
            r
        };
        stats.add(&game(0, [0, 1], &["h2e2", "h9g7"]));
        stats.add(&game(1, [1, 0], &["h2e2", "h9g7"]));
        assert_eq!(
            stats.repeated, 0,
            "the same moves with the seats swapped is another game"
        );
        stats.add(&game(2, [0, 1], &["h2e2", "b9c7"]));
        assert_eq!(stats.repeated, 0);
        stats.add(&game(3, [1, 0], &["h2e2", "h9g7"]));
        stats.add(&game(4, [0, 1], &["h2e2", "h9g7"]));
        assert_eq!(stats.repeated, 2);
        let table = final_table(&[stats], None, 5);
        assert!(table.contains("  repeated games: 2 of 5 replay"), "{table}");
    }
}
