//! Evaluation weights (middle game, end game), written by `cargo run --release --example tune`.
//! Units: internal evaluation units (a horse is about 400). Piece-square rows run from the
//! enemy's back rank (row 0) to the own back rank (row 9); columns are files a..e from the
//! piece owner's left, files f..i mirror d..a.

use super::eval::Pair;

/// Material by `PieceKind::index()`.
pub const MATERIAL: [Pair; 7] = [
    Pair(0, 0),      // king
    Pair(74, 49),    // advisor
    Pair(-123, 48),  // elephant
    Pair(352, 458),  // horse
    Pair(1000, 619), // chariot
    Pair(399, 443),  // cannon
    Pair(106, 59),   // soldier
];

/// Piece-square bonuses by `PieceKind::index()`, half tables of 10 rows x 5 columns.
#[rustfmt::skip]
pub const PST: [[Pair; 50]; 7] = [
    // king
    [
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(-236,   28), Pair(-207,   26),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair( -57,    7), Pair( -20,    5),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  45,   -9), Pair(  81,  -16),
    ],
    // advisor
    [
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair( -70,  -51), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  36,  -62),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair( -49,  -55), Pair(   0,    0),
    ],
    // elephant
    [
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(-169,  -51), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(-148,  -56), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(-124,  -52),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(-130,  -54), Pair(   0,    0), Pair(   0,    0),
    ],
    // horse
    [
        Pair(  -4,   69), Pair(  29,   92), Pair(  39,   45), Pair( -97,   44), Pair( -19,   86),
        Pair( -72,  101), Pair(   7,  101), Pair( 105,   23), Pair(  22,   44), Pair( 158,    4),
        Pair( 105,   98), Pair( 202,   27), Pair( -92,   62), Pair( 102,   38), Pair( 175,   11),
        Pair( -22,   70), Pair(  -1,   98), Pair(  -6,   58), Pair(  70,   25), Pair( -89,   62),
        Pair(   2,   93), Pair( 149,   54), Pair( -61,  106), Pair( 145,   56), Pair( -16,  109),
        Pair( -56,   99), Pair(  29,   81), Pair( 114,   59), Pair(  73,   76), Pair(  79,   61),
        Pair(  16,   18), Pair( -22,  106), Pair(  13,   93), Pair(  -7,   84), Pair(  56,   66),
        Pair(   6,   33), Pair( -20,   73), Pair(   8,   68), Pair(  60,   75), Pair( 124,   20),
        Pair( -82,   87), Pair(  -1,   74), Pair(   2,  -10), Pair(   2,   59), Pair(  11,   -6),
        Pair(  38, -141), Pair( -58,   26), Pair(  10,  -95), Pair( -33,   53), Pair( -81,   68),
    ],
    // chariot
    [
        Pair( 253,   23), Pair( 239,   42), Pair(  49,   -6), Pair( 125,  -13), Pair( 161,   -3),
        Pair( 178,   57), Pair( 282,   16), Pair(  61,   -6), Pair(  84,   -1), Pair( 152,    2),
        Pair( 256,   40), Pair( 223,   60), Pair(  48,   12), Pair(  90,   24), Pair(  79,   55),
        Pair( 250,   38), Pair( 229,   59), Pair(  80,   17), Pair(  59,   28), Pair(  40,   59),
        Pair( 186,   74), Pair( 194,  100), Pair( 268,   55), Pair( 244,   78), Pair( 203,  101),
        Pair( 170,   85), Pair( 226,   70), Pair( 293,   52), Pair( 283,   42), Pair( 263,   83),
        Pair( 173,   99), Pair( 219,   66), Pair( 311,   21), Pair( 321,   31), Pair( 210,  103),
        Pair( 192,   76), Pair( 222,   61), Pair( 239,   74), Pair( 224,   78), Pair( 118,   99),
        Pair( 183,   55), Pair( 181,   88), Pair( 211,   53), Pair( 198,   54), Pair(  99,   55),
        Pair( 173,  -45), Pair( 228,   32), Pair( 186,   40), Pair( 213,   31), Pair( -29,  -29),
    ],
    // cannon
    [
        Pair( 175,   -7), Pair(  79,   31), Pair( -33,   46), Pair(  -6,   24), Pair( -82,  -93),
        Pair(  39,   76), Pair(  -9,   92), Pair(  -1,    2), Pair( -10,   13), Pair( -78,   72),
        Pair(  75,   56), Pair(  15,   48), Pair(  38,  -17), Pair( -19,   22), Pair(-120,   36),
        Pair(  71,   43), Pair(   4,   80), Pair(  45,   24), Pair(  35,   -4), Pair( -16,   30),
        Pair( 124,   15), Pair( -49,   87), Pair(  42,   47), Pair(  24,   51), Pair(  79,   41),
        Pair(  48,   53), Pair(  17,   55), Pair( 102,   16), Pair(   7,   71), Pair(  75,   33),
        Pair(  41,   60), Pair(   0,   79), Pair(  97,   38), Pair(   8,   89), Pair(  70,   60),
        Pair(  56,   47), Pair(  13,   98), Pair(  55,   83), Pair(  41,   97), Pair(  95,   72),
        Pair(  64,   83), Pair(   3,  117), Pair(  68,  114), Pair(  11,  135), Pair(  87,   70),
        Pair( -43,   67), Pair( -17,   76), Pair( -30,   69), Pair(  40,   99), Pair( 183,   51),
    ],
    // soldier
    [
        Pair(   5,  -46), Pair(  28,  -68), Pair(-158,   20), Pair(  38,  -94), Pair(-192,  -31),
        Pair(  82,   11), Pair( 222,    7), Pair( 183,   65), Pair( 385,   47), Pair( 341,   75),
        Pair(  30,  -19), Pair( 106,    7), Pair( 170,   74), Pair( 289,  125), Pair( 166,  140),
        Pair(  35,   18), Pair(  39,   35), Pair( -54,  124), Pair(   2,  108), Pair(  20,  113),
        Pair( -30,   61), Pair( -15,   67), Pair(  41,   80), Pair(  36,   23), Pair(  78,   31),
        Pair( -72,   66), Pair(   0,    0), Pair( -26,   41), Pair(   0,    0), Pair(   2,   79),
        Pair( -87,   75), Pair(   0,    0), Pair( -68,   64), Pair(   0,    0), Pair(  -3,   49),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
    ],
];

/// The other terms, in the order of `eval::SCALAR_NAMES`.
pub const SCALARS: [Pair; 42] = [
    Pair(8, -3),    // chariot mobility
    Pair(12, 3),    // horse mobility
    Pair(10, -95),  // horse trapped
    Pair(3, 1),     // cannon mobility
    Pair(147, 9),   // missing advisor x chariot
    Pair(-2, 57),   // missing advisor x horse
    Pair(-100, 29), // missing advisor x cannon
    Pair(130, 22),  // missing advisor x crossed soldier
    Pair(143, 99),  // missing elephant x chariot
    Pair(37, 100),  // missing elephant x horse
    Pair(63, 80),   // missing elephant x cannon
    Pair(-7, 21),   // missing elephant x crossed soldier
    Pair(206, 22),  // chariot in king zone
    Pair(70, 35),   // horse in king zone
    Pair(-3, 39),   // cannon in king zone
    Pair(157, -75), // crossed soldier in king zone
    Pair(36, 5),    // king-zone attacker x missing advisor
    Pair(214, -60), // cannon on king file, no screen
    Pair(99, -17),  // horse moves that give check
    Pair(38, 55),   // cannon on king file, two screens
    Pair(68, -44),  // cannon on king rank, no screen
    Pair(20, 36),   // cannon on king rank, two screens
    Pair(-21, 8),   // soldiers side by side
    Pair(21, -5),   // doubled soldiers
    Pair(18, 35),   // connected chariots
    Pair(33, 2),    // elephants guarding each other
    Pair(-41, 14),  // advisors with the centre
    Pair(-4, -7),   // chariot palace attacks
    Pair(1, -19),   // horse palace attacks
    Pair(-6, -5),   // cannon palace attacks
    Pair(37, -4),   // tempo
    Pair(-2, 29),   // cannon x (pieces on board - 24)
    Pair(-12, 31),  // horse x (pieces on board - 24)
    Pair(28, -11),  // chariot x enemy king file open ahead
    Pair(-28, -26), // hanging piece, side to move
    Pair(-21, -38), // hanging piece, side not to move
    Pair(-44, 43),  // chariot attacked by a lesser piece
    Pair(-93, 17),  // horse or cannon attacked by a soldier, advisor or elephant
    Pair(9, 1),     // enemy palace points attacked and not defended
    Pair(8, 13),    // pieces attacking the enemy palace, squared
    Pair(107, -32), // safe chariot checks
    Pair(10, 12),   // safe cannon checks
];
