//! Evaluation weights (middle game, end game), written by `cargo run --release --example tune`.
//! Units: internal evaluation units (a horse is about 400). Piece-square rows run from the
//! enemy's back rank (row 0) to the own back rank (row 9); columns are files a..e from the
//! piece owner's left, files f..i mirror d..a.

use super::eval::Pair;

/// Material by `PieceKind::index()`.
pub const MATERIAL: [Pair; 7] = [
    Pair(0, 0),     // king
    Pair(121, 70),  // advisor
    Pair(58, 69),   // elephant
    Pair(390, 512), // horse
    Pair(894, 855), // chariot
    Pair(466, 426), // cannon
    Pair(87, 99),   // soldier
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
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(-205,   23), Pair(-210,   16),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(-116,   23), Pair( -51,   17),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  76,  -23), Pair( 109,  -23),
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
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair( -61,  -53), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  29,  -62),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair( -20,  -60), Pair(   0,    0),
    ],
    // elephant
    [
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(-115,  -49), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair( -79,  -56), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair( -60,  -59),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair( -75,  -61), Pair(   0,    0), Pair(   0,    0),
    ],
    // horse
    [
        Pair(  74,   85), Pair( 110,  127), Pair( -34,  143), Pair( -95,   95), Pair(  24,   59),
        Pair( -76,   71), Pair(-127,  173), Pair(  93,   -3), Pair(  86,    6), Pair( 106,  -59),
        Pair( 132,   96), Pair( 171,   51), Pair( -73,   64), Pair(  68,   51), Pair( 148,    3),
        Pair( -48,   49), Pair( -72,  104), Pair(  18,   60), Pair( 126,   -9), Pair( -87,   41),
        Pair(  73,   69), Pair(  71,   52), Pair(   5,   98), Pair( 154,   62), Pair( -17,  121),
        Pair( -15,   82), Pair(  37,   67), Pair(  84,   49), Pair(  89,   56), Pair(  90,   38),
        Pair( -24,  -19), Pair(  37,   60), Pair(  49,   77), Pair( -42,   90), Pair(  70,   58),
        Pair(  10,   17), Pair(  17,   41), Pair(   3,   72), Pair(  56,   58), Pair( 139,   32),
        Pair(-111,  105), Pair(  37,    3), Pair(  18,  -60), Pair(  -7,   67), Pair(  -6,  -17),
        Pair(  16, -148), Pair( -59,   13), Pair( -39,  -90), Pair(  -4,   51), Pair( -20,   34),
    ],
    // chariot
    [
        Pair( 154,   45), Pair( 172,   48), Pair(  90,  -31), Pair(  83,  -17), Pair( 117,   19),
        Pair( 126,   80), Pair( 198,   91), Pair(  96,  -21), Pair(  69,    6), Pair(  52,   55),
        Pair( 147,   98), Pair( 133,   95), Pair(  29,   30), Pair(  72,   22), Pair(  40,   59),
        Pair( 165,   70), Pair( 126,  108), Pair(  77,   18), Pair(  22,   57), Pair(  24,   71),
        Pair(  98,   91), Pair(  89,  157), Pair( 149,  137), Pair( 121,  134), Pair(  79,  124),
        Pair(  65,  131), Pair( 112,  122), Pair( 192,   96), Pair( 135,  116), Pair( 158,  102),
        Pair( 105,  134), Pair( 116,  109), Pair( 196,   69), Pair( 177,  108), Pair( 138,  131),
        Pair( 116,  106), Pair( 123,  105), Pair( 149,   99), Pair( 107,  100), Pair(  43,  101),
        Pair(  95,   89), Pair(  74,  142), Pair( 127,   65), Pair(  74,  101), Pair( -11,   21),
        Pair( 108,  -28), Pair( 140,   60), Pair(  86,   72), Pair(  82,  108), Pair(  -3,  -10),
    ],
    // cannon
    [
        Pair( 133,  -16), Pair(  88,   10), Pair( -29,   44), Pair( -30,   50), Pair( -78,  -90),
        Pair(  39,   77), Pair(   5,   95), Pair(   2,  -10), Pair(  10,    3), Pair(-123,   88),
        Pair(  57,   77), Pair(  31,   31), Pair(   3,  -16), Pair( -15,   22), Pair( -51,   51),
        Pair(  63,   13), Pair(  -5,   58), Pair(  27,   14), Pair(  32,  -17), Pair(  -7,   23),
        Pair( 144,    3), Pair( -56,   72), Pair(  25,   30), Pair(  41,    7), Pair(  99,   21),
        Pair(  42,   31), Pair(  23,   40), Pair(  97,   -4), Pair(   1,   46), Pair( 100,   -4),
        Pair(  17,   51), Pair(  23,   49), Pair( 101,   15), Pair(  14,   62), Pair(  57,   35),
        Pair(  60,   42), Pair(   9,   99), Pair(  44,   66), Pair(  41,   82), Pair(  95,   62),
        Pair( 132,   44), Pair(  -9,  103), Pair(  58,  101), Pair(  13,  107), Pair(  95,   46),
        Pair( -20,    8), Pair(  -7,   25), Pair(  -9,   28), Pair(  96,   80), Pair( 154,   -5),
    ],
    // soldier
    [
        Pair( -20,  -69), Pair(  -2,  -58), Pair( -29,  -26), Pair( -15, -121), Pair(-102,  -92),
        Pair( 118,   -2), Pair( 183,   11), Pair( 212,   64), Pair( 323,   57), Pair( 274,   43),
        Pair(  56,  -31), Pair(   0,   43), Pair( 124,  101), Pair( 195,  226), Pair( 252,  141),
        Pair( -36,   81), Pair( -15,   73), Pair( -41,  164), Pair(  55,   82), Pair(  78,   89),
        Pair( -36,   73), Pair( -24,   77), Pair(  46,   63), Pair(  -6,   73), Pair(  47,   83),
        Pair( -50,   69), Pair(   0,    0), Pair(   3,   37), Pair(   0,    0), Pair(  37,   52),
        Pair( -71,   93), Pair(   0,    0), Pair( -42,   53), Pair(   0,    0), Pair(  31,   31),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
    ],
];

/// The other terms, in the order of `eval::SCALAR_NAMES`.
pub const SCALARS: [Pair; 42] = [
    Pair(12, -7),   // chariot mobility
    Pair(14, 3),    // horse mobility
    Pair(17, -120), // horse trapped
    Pair(2, 2),     // cannon mobility
    Pair(114, -3),  // missing advisor x chariot
    Pair(-13, 59),  // missing advisor x horse
    Pair(-118, 23), // missing advisor x cannon
    Pair(96, 60),   // missing advisor x crossed soldier
    Pair(95, 45),   // missing elephant x chariot
    Pair(9, 74),    // missing elephant x horse
    Pair(6, 37),    // missing elephant x cannon
    Pair(8, 22),    // missing elephant x crossed soldier
    Pair(110, 61),  // chariot in king zone
    Pair(53, 61),   // horse in king zone
    Pair(-3, 34),   // cannon in king zone
    Pair(128, -86), // crossed soldier in king zone
    Pair(82, -17),  // king-zone attacker x missing advisor
    Pair(139, -12), // cannon on king file, no screen
    Pair(91, -13),  // horse moves that give check
    Pair(52, 50),   // cannon on king file, two screens
    Pair(68, -30),  // cannon on king rank, no screen
    Pair(47, 17),   // cannon on king rank, two screens
    Pair(82, 74),   // soldiers side by side
    Pair(78, -17),  // doubled soldiers
    Pair(6, 157),   // connected chariots
    Pair(24, -4),   // elephants guarding each other
    Pair(-6, -2),   // advisors with the centre
    Pair(14, -5),   // chariot palace attacks
    Pair(7, -16),   // horse palace attacks
    Pair(-4, 13),   // cannon palace attacks
    Pair(39, -4),   // tempo
    Pair(-10, 22),  // cannon x (pieces on board - 24)
    Pair(-18, 30),  // horse x (pieces on board - 24)
    Pair(60, -21),  // chariot x enemy king file open ahead
    Pair(-35, -36), // hanging piece, side to move
    Pair(-26, -55), // hanging piece, side not to move
    Pair(-32, 37),  // chariot attacked by a lesser piece
    Pair(-92, 15),  // horse or cannon attacked by a soldier, advisor or elephant
    Pair(0, 0),     // enemy palace points attacked and not defended
    Pair(0, 0),     // pieces attacking the enemy palace, squared
    Pair(0, 0),     // safe chariot checks
    Pair(0, 0),     // safe cannon checks
];
