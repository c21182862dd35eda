//! Evaluation and move-ordering weights, one table for a tuner to rewrite. The evaluation
//! tables (`CELL`, `LINE`, `COUNTS`, `TEMPO`) were fitted by `examples/gomoku_tune` (`--lambda
//! 1.0 --epochs 600`, result labels only) on 112,399 freestyle positions of about 5,000 games
//! against AIWine at 200 ms a move, 15x15 and 20x20, Piskvork openings and random three to
//! five stone openings (every position from the end of the opening to eight plies before the
//! end, written by `scripts/gomoku-positions.py`); held-out loss 0.1665 on 8,347 positions of
//! other games (0.1992 with the previous tables). The move-ordering tables (`ORDER_CELL`,
//! `ORDER_LINE`) were fitted by `examples/gomoku_policy_tune` (300 epochs) to the moves played
//! in the same positions: the played move is ranked first in 38.0% of the held-out positions
//! (27.2% with the hand-set tables). Renju positions were not in that data.
//!
//! Renju has sets of its own, one per colour to move ([`RENJU_BLACK`], [`RENJU_WHITE`]; the
//! evaluation picks a set with `eval::features::TableSet`, and `examples/gomoku_tune` fits
//! every set its data reaches). They are copies of [`GENERAL`] for now: the first fit
//! (`--lambda 1.0 --epochs 300 --l2 0.003` on 42,100 renju 15x15 positions, 22,742 from
//! `examples/gomoku_datagen --rule 4 --size 15 --games 2500 --nodes 8000 --threads 1 --seed
//! 2501` and 19,358 from 696 self-play games at 100 ms a turn) lowered the held-out loss on
//! datagen games (0.1617 to 0.1521) but raised it on match games, and lost in renju
//! self-play at 100 ms a turn: -111.9 [-178.3, -52.7], SPRT H0 after 122 games.
//! Units: reported centipawn-like points (an open three on the board is worth about 100).
//! Indices are [`Pattern`](crate::gomoku::Pattern) and [`Threat`](crate::gomoku::Threat)
//! discriminants.

use super::eval::features::PCODES;

/// Value of one line through a candidate cell for the side to move, by the side to move's
/// pattern on it and the opponent's (`LINE[ours][theirs]`, indices are `Pattern`: Dead,
/// Overline, B1, F1, B2, F2, F2A, F2B, B3, F3, F3S, B4, F4, F44, F5, and 15 for none: off
/// the board, or a renju-forbidden cell of that side).
#[rustfmt::skip]
pub const LINE: [[i32; 16]; 16] = [
    [   0,    0,    5,    4,   -4,  -22,    5,    8,  -60,  -26,  -30,  -75, -179,  -69, -416,    0],
    [   0,    0,    5,    4,   -4,  -11,   19,   -5,  -46,  -24,   -6,  -58,  -84, -125, -207,    0],
    [  -5,   -5,    2,   -1,   -7,  -21,   20,  -23,  -48,  -35,  -30,  -51, -121,  -51, -448,   -5],
    [  -4,   -4,    1,    1,   -4,  -19,   -5,   -9,  -46,  -47,  -10,  -48,  -88, -129, -211,   -4],
    [   2,    4,    5,    2,    1,   27,   28,   47,  -72,  -58, -120, -167, -116, -281, -439,    4],
    [  18,   11,   16,   16,  -34,    9,   80,    6,    1, -135,    5,  -85,  -73, -114, -196,   11],
    [  -8,  -19,  -19,    2,  -50,  -72,    0,  -24,   53,  -43,  -25,  -77, -103, -144, -226,  -19],
    [  -9,    5,   23,    9, -109,   -6,   24,    0,  -41,  -19,   -1,  -53,  -79, -120, -202,    5],
    [  57,   46,   45,   45,   81,  -51,  -88,   41,    8,  -10,  -60, -200, -104,  -79, -239,   46],
    [  25,   24,   19,   25,  106,  135,   43,   19,   20,  -37,   18, -167,  -60, -101, -183,   24],
    [  18,    6,   31,   10,   87,   -5,   25,    1,   82,  -18,    0,  -52,  -78, -119, -201,    6],
    [  71,   58,   78,   48,  209,   12,   77,   53,  198,  143,   52,  -87,  -26,  -67, -149,   58],
    [ 270,   84,  108,   88,   45,   73,  103,   79,  154,   60,   78,   26,    0,  -41, -123,   84],
    [ 124,  125,  130,  129,  121,  114,  144,  120,   79,  101,  119,   67,   41,    0,  -82,  125],
    [ 207,  207,  212,  211,  203,  196,  226,  202,  161,  183,  201,  149,  123,   82,    0,  207],
    [   0,    0,    5,    4,   -4,  -11,   19,   -5,  -46,  -24,   -6,  -58,  -84, -125, -207,    0],
];

/// Value of a candidate cell by the combination of one side's four line patterns there
/// (`PCODE[0]` the side to move's, `PCODE[1]` the opponent's; indices are
/// `eval::features::pattern_combination` of the side's pattern word, the four
/// [`LINE`] codes as a multiset). Not fitted yet: zero. A `const` read only at compile time
/// (into `eval::features`' statics), never copied at run time.
#[allow(clippy::large_const_arrays)]
pub const PCODE: [[i32; PCODES]; 2] = [[0; PCODES]; 2];

/// Extra value of a candidate cell for the side to move, by the side to move's combined
/// class there and the opponent's (`CELL[ours][theirs]`, indices are `Threat`: None,
/// Forbidden, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2, Block4,
/// Block4Plus, Block4Flex3, Flex4, Five): what it is worth to own the cell first, less what
/// the opponent's threat there costs.
#[rustfmt::skip]
pub const CELL: [[i32; 14]; 14] = [
    [   4,   -3,    5,   26,   20,   30,  -36,  -27,  -19,  -33,  -91, -357, -198, -409],
    [   4,    0,    9,   32,   16,   28,    3,    3,  -52,  -13,  -75, -171, -103, -212],
    [   1,   -7,    6,   28,    9,   11,   -8,  -27,  -33,  -22, -108, -247, -199, -453],
    [ -16,  -29,  -16,   -3,  -17,    5,  -27,  -54,  -51,  -54, -134, -187, -198, -414],
    [ -12,  -12,   -2,   19,   17,   -8,   51,   37,  114,   11,  -67, -364, -198, -477],
    [ -22,  -18,    4,    9,   31,   18,   16,   22,  149,  -14, -137, -226, -231, -415],
    [  26,   12,   33,   56,   -2,   31,    4,  -22, -166,   37,  -56,   33,  -78, -395],
    [  13,    4,   52,   62,    9,   -2,   75,   22,  130,  -32,  -16,  -24,   81, -400],
    [ -17,   58,   26,   82,  -92, -143,  195,  -55,  -72,  210,  194,   88, -231, -199],
    [  38,    8,   42,   67,    3,    4,   41,   73, -230,   31,  -54, -170,   77, -194],
    [  99,  106,  131,  154,  112,  152,  129,   68,  173,   74,  145,  151,  152, -227],
    [ 578,  395,  502,  311,  283,  290,  176,  361,  189,  183,   86,  224,  131,  183],
    [ 318,  166,  399,  399,  326,  328,  126,  -43,   -8,  -86, -146,   95, -142,  -46],
    [ 317,  313,  322,  345,  329,  341,  316,  316,  261,  300,  238,  142,  210,  101],
];

/// Value of how many cells each side has where a move makes a three or better, and a four
/// or better (`COUNTS[kind][min(count, 5)]`; kinds: the side to move's threes, the
/// opponent's threes, the side to move's fours, the opponent's fours; counted over the whole
/// board, renju-forbidden cells excluded): what the per-cell values miss about initiative.
#[rustfmt::skip]
pub const COUNTS: [[i32; 6]; 4] = [
    [-125, 0, -128, -47, -27, 86],
    [-50, 189, 85, -5, 96, -1],
    [75, 0, -21, -98, -20, 22],
    [-44, -213, 102, 14, 83, -73],
];

/// A flat bonus for having the move.
pub const TEMPO: i32 = 62;

/// One complete set of evaluation tables (see [`CELL`], [`LINE`], [`COUNTS`], [`TEMPO`] for
/// what each holds); the evaluation picks one set per position by rule and side to move
/// (`eval::features::TableSet`).
#[derive(Clone, Copy, Debug)]
pub struct EvalTables {
    /// Per candidate cell, by both sides' classes there.
    pub cell: [[i32; 14]; 14],
    /// Per line through a candidate cell, by both sides' patterns on it.
    pub line: [[i32; 16]; 16],
    /// Per candidate cell, by the combination of the side to move's four line patterns
    /// there (row 0) and of the opponent's (row 1).
    pub pcode: [[i32; PCODES]; 2],
    /// By how many three and four points each side has.
    pub counts: [[i32; 6]; 4],
    /// For having the move.
    pub tempo: i32,
}

/// The tables for freestyle, standard and caro (and any rule without a set of its own).
pub const GENERAL: EvalTables = EvalTables {
    cell: CELL,
    line: LINE,
    pcode: PCODE,
    counts: COUNTS,
    tempo: TEMPO,
};

/// The tables for renju with black to move: for now the general ones (see the file's header).
pub const RENJU_BLACK: EvalTables = GENERAL;

/// The tables for renju with white to move: for now the general ones (see the file's header).
pub const RENJU_WHITE: EvalTables = GENERAL;

/// Move ordering: value of a candidate cell for the mover by its combined class there and
/// the opponent's (`ORDER_CELL[ours][theirs]`, indices are `Threat`): attack plus defence.
#[rustfmt::skip]
pub const ORDER_CELL: [[i32; 14]; 14] = [
    [   -266,       0,    -282,    -259,    -295,    -250,     177,     330,     571,     245,     427,     862,    1597,   10000],
    [-100000, -100000,  -99986,  -99990,  -99970,  -99972,  -99950,  -99930,  -99700,  -99965,  -99945,  -99400,  -98500,  -90000],
    [   -291,      20,    -191,    -208,    -126,     -86,     252,     281,     422,     291,     354,     701,    1422,   10020],
    [   -282,      14,    -267,    -225,    -200,     -98,     259,     222,     276,     340,     399,     727,    1403,   10014],
    [    -63,      40,     -73,     -21,    -107,      24,     178,     184,     359,     177,     223,     400,    1129,   10040],
    [      9,      36,      -8,      52,     -73,      28,     155,     203,     222,     248,     280,     506,    1162,   10036],
    [    276,      70,     294,     400,     157,     278,     486,     453,     518,     541,     489,     693,    1446,   10070],
    [    426,      90,     394,     355,     368,     365,     387,     362,     172,     307,     307,     448,    1135,   10090],
    [    503,     400,     467,     504,     601,     269,     324,     481,     178,      20,     216,    1027,    1330,   10400],
    [    277,      55,     276,     316,     151,     247,     367,     262,     -45,     439,     393,     193,    1330,   10055],
    [    492,      80,     440,     452,     323,     392,     422,     401,     264,     461,     399,     718,    1066,   10080],
    [    348,     800,     546,     348,     376,     324,     750,     283,     829,     357,     233,    1400,    1754,   10800],
    [   2000,    2000,    2014,    2010,    2030,    2028,    2050,    2070,    2300,    2035,    2055,    2600,    3500,   12000],
    [  20000,   20000,   20014,   20010,   20030,   20028,   20050,   20070,   20300,   20035,   20055,   20600,   21500,   30000],
];

/// Move ordering: value of each line through the cell by the mover's pattern on it and the
/// opponent's (`ORDER_LINE[ours][theirs]`, indices are `Pattern` and 15 for none): what the
/// move builds and what it takes away.
#[rustfmt::skip]
pub const ORDER_LINE: [[i32; 16]; 16] = [
    [ -324,     0,    -5,    -4,  -307,  -240,  -155,  -118,  -117,   -37,   168,   185,    -4,   -36,   207,     0],
    [    0,     0,    -5,    -4,     4,    11,   -19,     5,    46,    24,     6,    58,    84,   125,   207,     0],
    [  -10,   -10,  -293,   -14,  -294,  -255,  -132,  -102,   -69,    23,   257,   257,    97,   115,   197,   -10],
    [   -8,    -8,   -13,  -204,  -236,  -141,   -69,    -3,   -48,   -56,    -2,   160,    76,   117,   199,    -8],
    [ -226,     8,  -207,  -146,  -265,  -175,  -165,  -200,   -49,   120,    89,   462,   222,   133,   215,     8],
    [ -101,    22,   -56,   -33,   -60,   -45,    60,    27,    95,   204,    28,   209,   106,   147,   229,    22],
    [   46,   -38,    75,    90,    51,   189,   -57,   -33,   165,   -14,   -32,    20,    46,    87,   169,   -38],
    [  142,    10,   180,     6,   249,    21,    -9,    15,    56,    34,    16,    68,    94,   135,   217,    10],
    [   73,    92,   135,   113,   -80,   150,   133,    97,   103,   377,   426,   658,   439,   217,   299,    92],
    [  180,    48,   139,    24,   177,   163,    29,    53,    95,  -188,    54,   198,   132,   173,   255,    48],
    [  352,    12,   322,     8,   241,    23,    -7,    17,   496,    36,    18,    70,    96,   137,   219,    12],
    [  478,   116,   422,   253,   448,   420,    97,   121,   559,   627,   122,   687,   200,   241,   323,   116],
    [  168,   168,   163,   164,   172,   179,   149,   173,   214,   192,   174,   226,   252,   293,   375,   168],
    [  250,   250,   245,   246,   254,   261,   231,   255,   296,   274,   256,   308,   334,   375,   457,   250],
    [  414,   414,   409,   410,   418,   425,   395,   419,   460,   438,   420,   472,   498,   539,   621,   414],
    [    0,     0,    -5,    -4,     4,    11,   -19,     5,    46,    24,     6,    58,    84,   125,   207,     0],
];
