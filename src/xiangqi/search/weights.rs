//! Evaluation weights (middle game, end game), written by `cargo run --release --example tune`.
//! Units: internal evaluation units (a horse is about 400). Piece-square rows run from the
//! enemy's back rank (row 0) to the own back rank (row 9); columns are files a..e from the
//! piece owner's left, files f..i mirror d..a.

use super::eval::Pair;

/// Material by `PieceKind::index()`.
pub const MATERIAL: [Pair; 7] = [
    Pair(0, 0),     // king
    Pair(200, 180), // advisor
    Pair(200, 180), // elephant
    Pair(400, 460), // horse
    Pair(900, 950), // chariot
    Pair(450, 410), // cannon
    Pair(90, 120),  // soldier
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
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair( -30,  -20), Pair( -30,  -20),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair( -15,   -5), Pair( -10,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  -5,    0), Pair(   0,    5),
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
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  -5,   -5), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,   10),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
    ],
    // elephant
    [
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(  -5,   -5), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair( -10,  -10), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,   10),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
    ],
    // horse
    [
        Pair( -10,  -10), Pair(   0,    0), Pair(  10,   10), Pair(   0,   10), Pair(   0,   10),
        Pair(   0,    0), Pair(  20,   20), Pair(  40,   30), Pair(  30,   30), Pair(  10,   30),
        Pair(  10,   10), Pair(  30,   20), Pair(  40,   30), Pair(  40,   40), Pair(  30,   40),
        Pair(  10,   10), Pair(  30,   20), Pair(  40,   30), Pair(  40,   40), Pair(  40,   40),
        Pair(   0,    0), Pair(  20,   10), Pair(  30,   20), Pair(  30,   30), Pair(  30,   30),
        Pair(   0,    0), Pair(  10,   10), Pair(  20,   20), Pair(  20,   20), Pair(  20,   20),
        Pair( -10,  -10), Pair(  10,    0), Pair(  10,   10), Pair(  20,   10), Pair(  10,   10),
        Pair( -10,  -10), Pair(   0,    0), Pair(  10,    0), Pair(  10,   10), Pair(  20,   10),
        Pair( -20,  -20), Pair( -10,  -10), Pair(   0,    0), Pair(   0,    0), Pair( -20,    0),
        Pair( -30,  -30), Pair( -20,  -20), Pair( -10,  -10), Pair( -20,  -10), Pair( -30,  -10),
    ],
    // chariot
    [
        Pair(   0,    0), Pair(  10,    0), Pair(  10,   10), Pair(  20,   10), Pair(  10,   10),
        Pair(  10,    0), Pair(  20,   10), Pair(  20,   10), Pair(  30,   20), Pair(  20,   20),
        Pair(   0,    0), Pair(  10,   10), Pair(  10,   10), Pair(  20,   20), Pair(  20,   20),
        Pair(   0,    0), Pair(  10,   10), Pair(  10,   10), Pair(  20,   10), Pair(  20,   10),
        Pair(   0,    0), Pair(  10,    0), Pair(  10,    0), Pair(  20,   10), Pair(  20,   10),
        Pair(   0,    0), Pair(  10,    0), Pair(  10,    0), Pair(  20,   10), Pair(  20,   10),
        Pair( -10,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,    0), Pair(  10,    0),
        Pair( -10,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,    0), Pair(   0,    0),
        Pair( -10,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,    0), Pair(   0,    0),
        Pair( -20,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,    0), Pair(   0,    0),
    ],
    // cannon
    [
        Pair(  20,    0), Pair(  20,    0), Pair(   0,    0), Pair( -10,    0), Pair( -10,    0),
        Pair(  10,    0), Pair(  10,    0), Pair(   0,    0), Pair( -10,    0), Pair( -10,    0),
        Pair(  10,    0), Pair(  10,    0), Pair(   0,    0), Pair( -10,    0), Pair(   0,   10),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,   10),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,   10),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  20,   10),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,   10),
        Pair(   0,    0), Pair(  10,    0), Pair(  10,    0), Pair(  10,   10), Pair(  30,   20),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,   10), Pair(  10,   20),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,   10), Pair(   0,   10),
    ],
    // soldier
    [
        Pair(   0,   20), Pair(  10,   30), Pair(  20,   40), Pair(  40,   60), Pair(  40,   60),
        Pair(  50,   70), Pair(  80,  100), Pair( 110,  130), Pair( 140,  160), Pair( 150,  170),
        Pair(  50,   70), Pair(  80,  100), Pair( 100,  120), Pair( 130,  150), Pair( 140,  160),
        Pair(  40,   60), Pair(  60,   80), Pair(  80,  100), Pair(  90,  110), Pair( 100,  120),
        Pair(  30,   50), Pair(  40,   60), Pair(  50,   70), Pair(  60,   80), Pair(  70,   90),
        Pair(   0,    0), Pair(   0,    0), Pair(  10,   10), Pair(   0,    0), Pair(  20,   10),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(  10,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
        Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0), Pair(   0,    0),
    ],
];

/// The other terms, in the order of `eval::SCALAR_NAMES`.
pub const SCALARS: [Pair; 38] = [
    Pair(6, 7),     // chariot mobility
    Pair(12, 12),   // horse mobility
    Pair(-30, -30), // horse trapped
    Pair(2, 2),     // cannon mobility
    Pair(12, 9),    // missing advisor x chariot
    Pair(8, 6),     // missing advisor x horse
    Pair(8, 6),     // missing advisor x cannon
    Pair(4, 3),     // missing advisor x crossed soldier
    Pair(8, 6),     // missing elephant x chariot
    Pair(5, 4),     // missing elephant x horse
    Pair(5, 4),     // missing elephant x cannon
    Pair(3, 2),     // missing elephant x crossed soldier
    Pair(20, 0),    // chariot in king zone
    Pair(15, 0),    // horse in king zone
    Pair(10, 0),    // cannon in king zone
    Pair(10, 0),    // crossed soldier in king zone
    Pair(7, 0),     // king-zone attacker x missing advisor
    Pair(60, 0),    // cannon on king file, no screen
    Pair(0, 0),     // horse moves that give check
    Pair(25, 0),    // cannon on king file, two screens
    Pair(30, 0),    // cannon on king rank, no screen
    Pair(15, 0),    // cannon on king rank, two screens
    Pair(20, 30),   // soldiers side by side
    Pair(-5, -10),  // doubled soldiers
    Pair(20, 10),   // connected chariots
    Pair(15, 20),   // elephants guarding each other
    Pair(10, 15),   // advisors with the centre
    Pair(0, 0),     // chariot palace attacks
    Pair(0, 0),     // horse palace attacks
    Pair(0, 0),     // cannon palace attacks
    Pair(12, 12),   // tempo
    Pair(0, 0),     // cannon x (pieces on board - 24)
    Pair(0, 0),     // horse x (pieces on board - 24)
    Pair(0, 0),     // chariot x enemy king file open ahead
    Pair(0, 0),     // hanging piece, side to move
    Pair(0, 0),     // hanging piece, side not to move
    Pair(0, 0),     // chariot attacked by a lesser piece
    Pair(0, 0),     // horse or cannon attacked by a soldier, advisor or elephant
];
