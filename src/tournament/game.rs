//! One game between two players: the move loop, the clocks, adjudication by the referee and
//! by engine scores, and forfeits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::args::{DrawRule, ResignRule, TimeControl};
use super::clock::GameClocks;
use super::player::{EngineFailure, EngineScore, FailureKind, MoveRequest, Player};
use super::referee::Referee;

/// One move of a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move in the game's notation.
    pub notation: String,
    /// Played from the opening, not by an engine.
    pub book: bool,
    /// The mover's last reported score.
    pub score: Option<EngineScore>,
    /// The mover's last reported depth.
    pub depth: Option<u32>,
    /// Thinking time in milliseconds.
    pub time_ms: u64,
}

impl MoveRecord {
    /// A move with nothing reported and no time: an opening move (`book`), or a bare one.
    pub fn unscored(notation: &str, book: bool) -> MoveRecord {
        MoveRecord {
            notation: notation.to_string(),
            book,
            score: None,
            depth: None,
            time_ms: 0,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The player in this seat won.
    Win(usize),
    /// A draw.
    Draw,
}

impl GameResult {
    /// `1-0` (first colour won), `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Win(0) => "1-0",
            GameResult::Win(_) => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Points scored by `seat` (1, 1/2 or 0), in half points.
    pub fn half_points(self, seat: usize) -> usize {
        match self {
            GameResult::Win(winner) if winner == seat => 2,
            GameResult::Win(_) => 0,
            GameResult::Draw => 1,
        }
    }
}

/// The end of a game: result, reason and details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The result.
    pub result: GameResult,
    /// A short reason (`checkmate`, `timeout`, `illegal-move`, `draw-adjudication`, ...).
    pub reason: String,
    /// What exactly happened, for forfeits.
    pub detail: Option<String>,
}

/// Limits and adjudication settings of every game.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// Limits of every move.
    pub time: TimeControl,
    /// Grace on every time limit.
    pub time_margin_ms: u64,
    /// Wait without a time limit.
    pub max_wait: Duration,
    /// Ply cap (a draw).
    pub max_plies: Option<u32>,
    /// Score-based resignation.
    pub resign: Option<ResignRule>,
    /// Score-based draw.
    pub draw: Option<DrawRule>,
}

/// A finished game's moves, end and clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Every move from the referee's root, opening moves included.
    pub moves: Vec<MoveRecord>,
    /// How it ended.
    pub end: GameEnd,
    /// Thinking time used by each seat, in milliseconds.
    pub time_used_ms: [u64; 2],
}

fn forfeit(loser: usize, reason: &str, detail: String) -> GameEnd {
    GameEnd {
        result: GameResult::Win(1 - loser),
        reason: reason.to_string(),
        detail: Some(detail),
    }
}

fn engine_forfeit(loser: usize, failure: &EngineFailure) -> GameEnd {
    forfeit(loser, failure.kind.reason(), failure.detail.clone())
}

/// Consecutive-score counters for `--resign` and `--draw`.
#[derive(Default)]
struct ScoreAdjudicator {
    losing_streak: [u32; 2],
    quiet_plies: u32,
}

impl ScoreAdjudicator {
    fn observe(
        &mut self,
        seat: usize,
        ply: usize,
        score: Option<EngineScore>,
        rules: &GameRules,
    ) -> Option<GameEnd> {
        let cp = score.map(EngineScore::as_cp);
        if let Some(resign) = rules.resign {
            match cp {
                Some(cp) if cp <= -resign.score_cp => self.losing_streak[seat] += 1,
                _ => self.losing_streak[seat] = 0,
            }
            if self.losing_streak[seat] >= resign.count {
                return Some(GameEnd {
                    result: GameResult::Win(1 - seat),
                    reason: "resign-adjudication".to_string(),
                    detail: None,
                });
            }
        }
        if let Some(draw) = rules.draw {
            match cp {
                Some(cp) if ply as u64 >= draw.from_ply as u64 && cp.abs() <= draw.score_cp => {
                    self.quiet_plies += 1;
                }
                _ => self.quiet_plies = 0,
            }
            if self.quiet_plies >= 2 * draw.count {
                return Some(GameEnd {
                    result: GameResult::Draw,
                    reason: "draw-adjudication".to_string(),
                    detail: None,
                });
            }
        }
        None
    }
}

/// Plays one game with `players[seat]` on each seat from the referee's current position
/// (the opening moves, already played on the referee, are recorded as book moves).
/// Returns `None` when `stop` was raised before the game ended.
pub fn play_game(
    players: [&mut Player; 2],
    referee: &mut dyn Referee,
    rules: &GameRules,
    stop: &AtomicBool,
) -> Option<PlayedGame> {
    let mut clocks = GameClocks::new(rules.time, rules.time_margin_ms, rules.max_wait);
    let mut moves: Vec<MoveRecord> = referee
        .moves()
        .iter()
        .map(|notation| MoveRecord::unscored(notation, true))
        .collect();
    let [first, second] = players;
    let mut players = [first, second];
    let end = 'game: {
        for (seat, player) in players.iter_mut().enumerate() {
            if let Err(failure) = player.new_game(rules.max_wait) {
                break 'game engine_forfeit(seat, &failure);
            }
        }
        let mut adjudicator = ScoreAdjudicator::default();
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(outcome) = referee.outcome() {
                break 'game GameEnd {
                    result: match outcome.winner {
                        Some(seat) => GameResult::Win(seat),
                        None => GameResult::Draw,
                    },
                    reason: outcome.reason,
                    detail: None,
                };
            }
            if let Some(max) = rules.max_plies
                && referee.moves().len() as u64 >= max as u64
            {
                break 'game GameEnd {
                    result: GameResult::Draw,
                    reason: "max-plies".to_string(),
                    detail: None,
                };
            }
            let seat = referee.side_to_move().min(1);
            let allowed = clocks.allowance(seat);
            let request = MoveRequest {
                root: referee.root(),
                moves: referee.moves(),
                since_capture: referee.since_last_capture(),
                seat,
                clock: clocks.reading(seat),
                match_time_left_ms: clocks.match_time_left_ms(seat),
                allowed,
            };
            let reply = match players[seat].request_move(&request, &rules.time) {
                Ok(reply) => reply,
                Err(failure) => {
                    // Every forfeit replaces the engine's process before its next game.
                    players[seat].mark_unhealthy();
                    if failure.kind == FailureKind::Timeout {
                        // The whole allowance was used; the loss itself is the timeout.
                        let _ = clocks.charge(seat, allowed);
                    }
                    break 'game engine_forfeit(seat, &failure);
                }
            };
            if let Err(detail) = clocks.charge(seat, reply.elapsed) {
                players[seat].mark_unhealthy();
                break 'game forfeit(seat, "timeout", detail);
            }
            if reply.resigns {
                break 'game GameEnd {
                    result: GameResult::Win(1 - seat),
                    reason: "resign".to_string(),
                    detail: None,
                };
            }
            if let Err(error) = referee.play(&reply.notation) {
                players[seat].mark_unhealthy();
                break 'game forfeit(seat, "illegal-move", error);
            }
            moves.push(MoveRecord {
                notation: reply.notation,
                book: false,
                score: reply.score,
                depth: reply.depth,
                time_ms: reply.elapsed.as_millis().min(u64::MAX as u128) as u64,
            });
            if let Some(end) = adjudicator.observe(seat, moves.len(), reply.score, rules) {
                break 'game end;
            }
        }
    };
    Some(PlayedGame {
        moves,
        end,
        time_used_ms: clocks.used_ms(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(resign: Option<ResignRule>, draw: Option<DrawRule>) -> GameRules {
        GameRules {
            time: TimeControl::default(),
            time_margin_ms: 0,
            max_wait: Duration::from_secs(1),
            max_plies: None,
            resign,
            draw,
        }
    }

    #[test]
    fn resign_needs_consecutive_bad_scores() {
        let rules = rules(
            Some(ResignRule {
                score_cp: 500,
                count: 2,
            }),
            None,
        );
        let mut adjudicator = ScoreAdjudicator::default();
        let bad = Some(EngineScore::Cp(-600));
        assert_eq!(adjudicator.observe(1, 1, bad, &rules), None);
        assert_eq!(
            adjudicator.observe(1, 3, Some(EngineScore::Cp(0)), &rules),
            None
        );
        assert_eq!(adjudicator.observe(1, 5, bad, &rules), None);
        let end = adjudicator.observe(1, 7, bad, &rules).unwrap();
        assert_eq!(end.result, GameResult::Win(0));
        assert_eq!(end.reason, "resign-adjudication");
    }

    #[test]
    fn draw_needs_both_sides_quiet_after_the_start_ply() {
        let rules = rules(
            None,
            Some(DrawRule {
                from_ply: 4,
                score_cp: 10,
                count: 2,
            }),
        );
        let mut adjudicator = ScoreAdjudicator::default();
        let quiet = Some(EngineScore::Cp(5));
        for ply in 1..4 {
            assert_eq!(adjudicator.observe(ply % 2, ply, quiet, &rules), None);
        }
        for ply in 4..7 {
            assert_eq!(adjudicator.observe(ply % 2, ply, quiet, &rules), None);
        }
        let end = adjudicator.observe(1, 7, quiet, &rules).unwrap();
        assert_eq!(end.result, GameResult::Draw);
        assert_eq!(GameResult::Win(1).as_str(), "0-1");
        assert_eq!(GameResult::Draw.half_points(0), 1);
    }
}
