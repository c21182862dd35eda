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

/// Extra value of a candidate cell for the side to move, by the side to move's combined
/// class there and the opponent's (`CELL[ours][theirs]`, indices are `Threat`: None,
/// Forbidden, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2, Block4,
/// Block4Plus, Block4Flex3, Flex4, Five): what it is worth to own the cell first, less what
/// the opponent's threat there costs.
#[rustfmt::skip]
pub const CELL: [[i32; 14]; 14] = [
    [   1,   -3,    6,   29,   13,   25,    0,    0,  -55,  -16,  -78, -174, -106, -215],
    [   4,    0,    9,   32,   16,   28,    3,    3,  -52,  -13,  -75, -171, -103, -212],
    [  -3,   -7,    2,   25,    9,   21,   -4,   -4,  -59,  -20,  -82, -178, -110, -219],
    [ -25,  -29,  -20,    3,  -13,   -1,  -26,  -26,  -81,  -42, -104, -200, -132, -241],
    [  -8,  -12,   -3,   20,    4,   16,   -9,   -9,  -64,  -25,  -87, -183, -115, -224],
    [ -14,  -18,   -9,   14,   -2,   10,  -15,  -15,  -70,  -31,  -93, -189, -121, -230],
    [  16,   12,   21,   44,   28,   40,   15,   15,  -40,   -1,  -63, -159,  -91, -200],
    [   8,    4,   13,   36,   20,   32,    7,    7,  -48,   -9,  -71, -167,  -99, -208],
    [  62,   58,   67,   90,   74,   86,   61,   61,    6,   45,  -17, -113,  -45, -154],
    [  12,    8,   17,   40,   24,   36,   11,   11,  -44,   -5,  -67, -163,  -95, -204],
    [ 110,  106,  115,  138,  122,  134,  109,  109,   54,   93,   31,  -65,    3, -106],
    [ 399,  395,  404,  427,  411,  423,  398,  398,  343,  382,  320,  224,  292,  183],
    [ 170,  166,  175,  198,  182,  194,  169,  169,  114,  153,   91,   -5,   63,  -46],
    [ 317,  313,  322,  345,  329,  341,  316,  316,  261,  300,  238,  142,  210,  101],
];

/// Extra value of the side to move's line patterns (it plays first), by `Pattern`, added on
/// top of `PATTERN` for its patterns only.
pub const PATTERN_TEMPO: [i32; 15] = [0; 15];

/// A flat bonus for having the move.
pub const TEMPO: i32 = 40;

/// Move ordering: value of a cell by the mover's own class (attack), by `Threat`.
pub const ORDER_ATTACK: [i32; 14] = [
    0, -100_000, 20, 14, 40, 36, 70, 90, 400, 55, 80, 800, 2000, 20_000,
];

/// Move ordering: value of a cell by the opponent's class there (defence), by `Threat`.
pub const ORDER_DEFENCE: [i32; 14] = [0, 0, 14, 10, 30, 28, 50, 70, 300, 35, 55, 600, 1500, 10_000];
