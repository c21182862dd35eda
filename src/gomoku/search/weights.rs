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

/// Value of one line through a candidate cell for the side to move, by the side to move's
/// pattern on it and the opponent's (`LINE[ours][theirs]`, indices are `Pattern`: Dead,
/// Overline, B1, F1, B2, F2, F2A, F2B, B3, F3, F3S, B4, F4, F44, F5, and 15 for none: off
/// the board, or a renju-forbidden cell of that side).
#[rustfmt::skip]
pub const LINE: [[i32; 16]; 16] = [
    [   0,    0,    5,    4,   -4,  -11,   19,   -5,  -46,  -24,   -6,  -58,  -84, -125, -207,    0],
    [   0,    0,    5,    4,   -4,  -11,   19,   -5,  -46,  -24,   -6,  -58,  -84, -125, -207,    0],
    [  -5,   -5,    0,   -1,   -9,  -16,   14,  -10,  -51,  -29,  -11,  -63,  -89, -130, -212,   -5],
    [  -4,   -4,    1,    0,   -8,  -15,   15,   -9,  -50,  -28,  -10,  -62,  -88, -129, -211,   -4],
    [   4,    4,    9,    8,    0,   -7,   23,   -1,  -42,  -20,   -2,  -54,  -80, -121, -203,    4],
    [  11,   11,   16,   15,    7,    0,   30,    6,  -35,  -13,    5,  -47,  -73, -114, -196,   11],
    [ -19,  -19,  -14,  -15,  -23,  -30,    0,  -24,  -65,  -43,  -25,  -77, -103, -144, -226,  -19],
    [   5,    5,   10,    9,    1,   -6,   24,    0,  -41,  -19,   -1,  -53,  -79, -120, -202,    5],
    [  46,   46,   51,   50,   42,   35,   65,   41,    0,   22,   40,  -12,  -38,  -79, -161,   46],
    [  24,   24,   29,   28,   20,   13,   43,   19,  -22,    0,   18,  -34,  -60, -101, -183,   24],
    [   6,    6,   11,   10,    2,   -5,   25,    1,  -40,  -18,    0,  -52,  -78, -119, -201,    6],
    [  58,   58,   63,   62,   54,   47,   77,   53,   12,   34,   52,    0,  -26,  -67, -149,   58],
    [  84,   84,   89,   88,   80,   73,  103,   79,   38,   60,   78,   26,    0,  -41, -123,   84],
    [ 125,  125,  130,  129,  121,  114,  144,  120,   79,  101,  119,   67,   41,    0,  -82,  125],
    [ 207,  207,  212,  211,  203,  196,  226,  202,  161,  183,  201,  149,  123,   82,    0,  207],
    [   0,    0,    5,    4,   -4,  -11,   19,   -5,  -46,  -24,   -6,  -58,  -84, -125, -207,    0],
];

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

/// Value of how many cells each side has where a move makes a three or better, and a four
/// or better (`COUNTS[kind][min(count, 5)]`; kinds: the side to move's threes, the
/// opponent's threes, the side to move's fours, the opponent's fours; counted over the whole
/// board, renju-forbidden cells excluded): what the per-cell values miss about initiative.
#[rustfmt::skip]
pub const COUNTS: [[i32; 6]; 4] = [
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
];

/// A flat bonus for having the move.
pub const TEMPO: i32 = 40;

/// Move ordering: value of a candidate cell for the mover by its combined class there and
/// the opponent's (`ORDER_CELL[ours][theirs]`, indices are `Threat`): attack plus defence.
#[rustfmt::skip]
pub const ORDER_CELL: [[i32; 14]; 14] = [
    [      0,       0,      14,      10,      30,      28,      50,      70,     300,      35,      55,     600,    1500,   10000],
    [-100000, -100000,  -99986,  -99990,  -99970,  -99972,  -99950,  -99930,  -99700,  -99965,  -99945,  -99400,  -98500,  -90000],
    [     20,      20,      34,      30,      50,      48,      70,      90,     320,      55,      75,     620,    1520,   10020],
    [     14,      14,      28,      24,      44,      42,      64,      84,     314,      49,      69,     614,    1514,   10014],
    [     40,      40,      54,      50,      70,      68,      90,     110,     340,      75,      95,     640,    1540,   10040],
    [     36,      36,      50,      46,      66,      64,      86,     106,     336,      71,      91,     636,    1536,   10036],
    [     70,      70,      84,      80,     100,      98,     120,     140,     370,     105,     125,     670,    1570,   10070],
    [     90,      90,     104,     100,     120,     118,     140,     160,     390,     125,     145,     690,    1590,   10090],
    [    400,     400,     414,     410,     430,     428,     450,     470,     700,     435,     455,    1000,    1900,   10400],
    [     55,      55,      69,      65,      85,      83,     105,     125,     355,      90,     110,     655,    1555,   10055],
    [     80,      80,      94,      90,     110,     108,     130,     150,     380,     115,     135,     680,    1580,   10080],
    [    800,     800,     814,     810,     830,     828,     850,     870,    1100,     835,     855,    1400,    2300,   10800],
    [   2000,    2000,    2014,    2010,    2030,    2028,    2050,    2070,    2300,    2035,    2055,    2600,    3500,   12000],
    [  20000,   20000,   20014,   20010,   20030,   20028,   20050,   20070,   20300,   20035,   20055,   20600,   21500,   30000],
];

/// Move ordering: value of each line through the cell by the mover's pattern on it and the
/// opponent's (`ORDER_LINE[ours][theirs]`, indices are `Pattern` and 15 for none): what the
/// move builds and what it takes away.
#[rustfmt::skip]
pub const ORDER_LINE: [[i32; 16]; 16] = [
    [   0,    0,   -5,   -4,    4,   11,  -19,    5,   46,   24,    6,   58,   84,  125,  207,    0],
    [   0,    0,   -5,   -4,    4,   11,  -19,    5,   46,   24,    6,   58,   84,  125,  207,    0],
    [ -10,  -10,  -15,  -14,   -6,    1,  -29,   -5,   36,   14,   -4,   48,   74,  115,  197,  -10],
    [  -8,   -8,  -13,  -12,   -4,    3,  -27,   -3,   38,   16,   -2,   50,   76,  117,  199,   -8],
    [   8,    8,    3,    4,   12,   19,  -11,   13,   54,   32,   14,   66,   92,  133,  215,    8],
    [  22,   22,   17,   18,   26,   33,    3,   27,   68,   46,   28,   80,  106,  147,  229,   22],
    [ -38,  -38,  -43,  -42,  -34,  -27,  -57,  -33,    8,  -14,  -32,   20,   46,   87,  169,  -38],
    [  10,   10,    5,    6,   14,   21,   -9,   15,   56,   34,   16,   68,   94,  135,  217,   10],
    [  92,   92,   87,   88,   96,  103,   73,   97,  138,  116,   98,  150,  176,  217,  299,   92],
    [  48,   48,   43,   44,   52,   59,   29,   53,   94,   72,   54,  106,  132,  173,  255,   48],
    [  12,   12,    7,    8,   16,   23,   -7,   17,   58,   36,   18,   70,   96,  137,  219,   12],
    [ 116,  116,  111,  112,  120,  127,   97,  121,  162,  140,  122,  174,  200,  241,  323,  116],
    [ 168,  168,  163,  164,  172,  179,  149,  173,  214,  192,  174,  226,  252,  293,  375,  168],
    [ 250,  250,  245,  246,  254,  261,  231,  255,  296,  274,  256,  308,  334,  375,  457,  250],
    [ 414,  414,  409,  410,  418,  425,  395,  419,  460,  438,  420,  472,  498,  539,  621,  414],
    [   0,    0,   -5,   -4,    4,   11,  -19,    5,   46,   24,    6,   58,   84,  125,  207,    0],
];
