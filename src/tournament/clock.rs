//! The runner's clocks: how long each move may take, and what is left after it.
//!
//! Every limit that is set applies; a move's allowance is the tightest of them plus the
//! margin (`--timemargin`). A reply that arrives after the allowance loses on time. Without
//! any time limit (`--depth` or `--nodes` only) a move may take `--maxwait`.

use std::time::Duration;

use super::args::TimeControl;
use super::player::ClockReading;

/// Both sides' clocks in one game, indexed by seat (0 = the first colour).
#[derive(Clone, Debug)]
pub struct GameClocks {
    time: TimeControl,
    margin_ms: u64,
    max_wait: Duration,
    remaining_ms: [u64; 2],
    moves_made: [u32; 2],
    used_ms: [u64; 2],
}

impl GameClocks {
    /// Fresh clocks for a game.
    pub fn new(time: TimeControl, margin_ms: u64, max_wait: Duration) -> GameClocks {
        let base = time.clock.map_or(0, |clock| clock.base_ms);
        GameClocks {
            time,
            margin_ms,
            max_wait,
            remaining_ms: [base; 2],
            moves_made: [0; 2],
            used_ms: [0; 2],
        }
    }

    /// The tightest limit for `seat`'s next move, without the margin; `None` when untimed.
    fn limit_ms(&self, seat: usize) -> Option<u64> {
        let mut limits = Vec::with_capacity(4);
        if self.time.clock.is_some() {
            limits.push(self.remaining_ms[seat]);
        }
        limits.extend(self.time.movetime_ms);
        limits.extend(self.time.turn_time_ms);
        if let Some(whole) = self.time.match_time_ms {
            limits.push(whole.saturating_sub(self.used_ms[seat]));
        }
        limits.into_iter().min()
    }

    /// How long `seat`'s next reply may take.
    pub fn allowance(&self, seat: usize) -> Duration {
        match self.limit_ms(seat) {
            Some(limit) => Duration::from_millis(limit.saturating_add(self.margin_ms)),
            None => self.max_wait,
        }
    }

    /// Clock readings for a `go` under `--tc`.
    pub fn reading(&self, seat: usize) -> Option<ClockReading> {
        let clock = self.time.clock?;
        let to_go = |side: usize| {
            clock
                .moves
                .map(|moves| moves - self.moves_made[side] % moves)
        };
        Some(ClockReading {
            own_ms: self.remaining_ms[seat],
            opponent_ms: self.remaining_ms[1 - seat],
            increment_ms: clock.increment_ms,
            own_moves_to_go: to_go(seat),
            opponent_moves_to_go: to_go(1 - seat),
        })
    }

    /// Piskvork `time_left` for `seat` under `--match-time`.
    pub fn match_time_left_ms(&self, seat: usize) -> Option<i64> {
        self.time
            .match_time_ms
            .map(|whole| whole as i64 - self.used_ms[seat] as i64)
    }

    /// Charges a move that took `elapsed` to `seat`. `Err` describes a loss on time.
    pub fn charge(&mut self, seat: usize, elapsed: Duration) -> Result<(), String> {
        let elapsed_ms = elapsed.as_millis().min(u64::MAX as u128) as u64;
        let over = self
            .limit_ms(seat)
            .filter(|limit| elapsed_ms > limit.saturating_add(self.margin_ms));
        self.used_ms[seat] = self.used_ms[seat].saturating_add(elapsed_ms);
        self.moves_made[seat] += 1;
        if let Some(clock) = self.time.clock {
            let left = self.remaining_ms[seat].saturating_sub(elapsed_ms);
            let mut next = left.saturating_add(clock.increment_ms);
            if let Some(moves) = clock.moves
                && self.moves_made[seat].is_multiple_of(moves)
            {
                next = next.saturating_add(clock.base_ms);
            }
            self.remaining_ms[seat] = next;
        }
        match over {
            Some(limit) => Err(format!(
                "took {elapsed_ms} ms, limit {limit} ms + margin {} ms",
                self.margin_ms
            )),
            None => Ok(()),
        }
    }

    /// Thinking time used so far by each seat, in milliseconds.
    pub fn used_ms(&self) -> [u64; 2] {
        self.used_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::args::GameClock;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn game_clock_with_increment_and_periods() {
        let time = TimeControl {
            clock: Some(GameClock {
                moves: Some(2),
                base_ms: 1000,
                increment_ms: 100,
            }),
            ..TimeControl::default()
        };
        let mut clocks = GameClocks::new(time, 50, ms(60_000));
        assert_eq!(clocks.allowance(0), ms(1050));
        assert_eq!(clocks.reading(0).and_then(|r| r.own_moves_to_go), Some(2));
        clocks.charge(0, ms(300)).unwrap();
        // 1000 - 300 + 100
        assert_eq!(clocks.reading(0).map(|r| r.own_ms), Some(800));
        assert_eq!(clocks.reading(1).map(|r| r.opponent_ms), Some(800));
        assert_eq!(clocks.reading(0).and_then(|r| r.own_moves_to_go), Some(1));
        clocks.charge(0, ms(200)).unwrap();
        // 800 - 200 + 100 + a new period of 1000
        assert_eq!(clocks.reading(0).map(|r| r.own_ms), Some(1700));
        assert!(clocks.charge(1, ms(1051)).is_err());
        assert_eq!(clocks.used_ms(), [500, 1051]);
    }

    #[test]
    fn movetime_and_piskvork_limits() {
        let time = TimeControl {
            movetime_ms: Some(100),
            ..TimeControl::default()
        };
        let mut clocks = GameClocks::new(time, 20, ms(60_000));
        assert_eq!(clocks.allowance(1), ms(120));
        assert!(clocks.charge(1, ms(120)).is_ok());
        assert!(clocks.charge(1, ms(121)).is_err());
        let time = TimeControl {
            turn_time_ms: Some(500),
            match_time_ms: Some(800),
            ..TimeControl::default()
        };
        let mut clocks = GameClocks::new(time, 0, ms(60_000));
        assert_eq!(clocks.allowance(0), ms(500));
        clocks.charge(0, ms(450)).unwrap();
        assert_eq!(clocks.allowance(0), ms(350));
        assert_eq!(clocks.match_time_left_ms(0), Some(350));
        let untimed = GameClocks::new(
            TimeControl {
                depth: Some(3),
                ..TimeControl::default()
            },
            0,
            ms(777),
        );
        assert_eq!(untimed.allowance(0), ms(777));
    }
}
