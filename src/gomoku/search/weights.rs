//! Evaluation and move-ordering weights, one table for a tuner to rewrite. The evaluation
//! tables were fitted by `examples/gomoku_tune` in two rounds: first on 17,558 quiet freestyle
//! 15x15 positions of 1,500 self-play games (`examples/gomoku_datagen --games 1500 --nodes
//! 5000 --seed 11`), then from those weights on 70,689 positions of 2,647 freestyle 15x15
//! games against AIWine at 200 ms a move (every position from the end of the opening to eight
//! plies before the end, labelled with the result only: `--lambda 1.0 --epochs 600`); the
//! move-ordering tables are hand-set.
//! Units: reported centipawn-like points (an open three on the board is worth about 100).
//! Indices are [`Pattern`](crate::gomoku::Pattern) and [`Threat`](crate::gomoku::Threat)
//! discriminants.

/// Value of one line pattern at an empty cell near the stones, for its owner, by `Pattern`:
/// Dead, Overline, B1, F1, B2, F2, F2A, F2B, B3, F3, F3S, B4, F4, F44, F5.
pub const PATTERN: [i32; 15] = [0, 0, -5, -4, 4, 11, -19, 5, 46, 24, 6, 58, 84, 125, 207];

/// Extra value of a cell's combined class for its owner, by `Threat`: None, Forbidden,
/// Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2, Block4, Block4Plus,
/// Block4Flex3, Flex4, Five.
pub const THREAT: [i32; 14] = [-4, 0, -9, -32, -16, -28, -3, -3, 52, 13, 75, 171, 103, 212];

/// The same classes when the cell's owner is the side to move (it can play there first):
/// added on top of `THREAT` for the side to move's cells only.
pub const THREAT_TEMPO: [i32; 14] = [1, 0, 2, 3, 4, 10, 15, 7, 6, -5, 31, 224, 63, 101];

/// A flat bonus for having the move.
pub const TEMPO: i32 = 40;

/// Move ordering: value of a cell by the mover's own class (attack), by `Threat`.
pub const ORDER_ATTACK: [i32; 14] = [
    0, -100_000, 20, 14, 40, 36, 70, 90, 400, 55, 80, 800, 2000, 20_000,
];

/// Move ordering: value of a cell by the opponent's class there (defence), by `Threat`.
pub const ORDER_DEFENCE: [i32; 14] = [0, 0, 14, 10, 30, 28, 50, 70, 300, 35, 55, 600, 1500, 10_000];
