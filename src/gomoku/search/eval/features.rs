//! The evaluation's features, one index each in a flat list: a class pair of a candidate
//! cell (`CELL`), a pattern pair of a line through it (`LINE`), the combination of each
//! side's four line patterns there (`PCODE`), a row and column of the three and four point
//! counts (`COUNTS`), and the tempo. The evaluation walk names each term by its feature index
//! ([`cell()`], [`line()`], [`pcode()`], [`count()`], [`TEMPO_INDEX`]); the search adds the
//! feature's weight from [`WEIGHTS`] (the tables of [`super::super::weights`] laid out in this
//! order), the tuner counts it. This file is the only place that knows the layout.

use super::super::weights::{EvalTables, GENERAL, RENJU_BLACK, RENJU_WHITE};
use crate::gomoku::{Color, Pattern, Rule, Threat};

/// Number of threat classes (`CELL`'s rows and columns).
pub const CLASSES: usize = 14;
/// Number of pattern codes in `LINE` (the patterns and 15 for none).
pub const LINE_CODES: usize = 16;
/// Number of pattern combinations: multisets of four line codes out of [`LINE_CODES`]
/// (`C(16 + 4 - 1, 4)`), the order of the four directions forgotten.
pub const PCODES: usize = 3876;
/// Number of `COUNTS` columns: a count of 0 to 5 (capped).
pub const COUNT_COLUMNS: usize = 6;
/// Number of `COUNTS` entries.
pub const COUNT_FEATURES: usize = 4 * COUNT_COLUMNS;
/// First index of the `CELL` features (row-major: ours * 14 + theirs).
pub const CELL_BASE: usize = 0;
/// First index of the `LINE` features (row-major: ours * 16 + theirs).
pub const LINE_BASE: usize = CELL_BASE + CLASSES * CLASSES;
/// First index of the `PCODE` features: the side to move's combinations, then the
/// opponent's (`side * PCODES + combination`).
pub const PCODE_BASE: usize = LINE_BASE + LINE_CODES * LINE_CODES;
/// First index of the `COUNTS` features (row-major: kind * 6 + count).
pub const COUNT_BASE: usize = PCODE_BASE + 2 * PCODES;
/// Index of the `TEMPO` feature.
pub const TEMPO_INDEX: usize = COUNT_BASE + COUNT_FEATURES;
/// Features: the class pairs (the side to move's, the opponent's) of the candidate cells,
/// the pattern pairs of their lines, each side's pattern combination there, the three and
/// four point counts, and the tempo.
pub const FEATURES: usize = TEMPO_INDEX + 1;

/// The feature of a candidate cell where the side to move has class `ours` and the opponent
/// `theirs`.
#[inline(always)]
pub fn cell(ours: Threat, theirs: Threat) -> usize {
    CELL_BASE + ours as usize * CLASSES + theirs as usize
}

/// The feature of a line through a candidate cell with the side to move's pattern code `ours`
/// and the opponent's `theirs` (each below [`LINE_CODES`]).
#[inline(always)]
pub fn line(ours: usize, theirs: usize) -> usize {
    LINE_BASE + ours * LINE_CODES + theirs
}

/// Number of multisets of `k` codes, each below `n`: `C(n + k - 1, k)` (the rising product
/// `n (n + 1) ... (n + k - 1)` over `k!`, exact in integers).
const fn multisets(n: usize, k: usize) -> usize {
    let mut num = 1;
    let mut den = 1;
    let mut i = 0;
    while i < k {
        num *= n + i;
        den *= i + 1;
        i += 1;
    }
    num / den
}

/// `MULTISETS[k][n]`: the number of multisets of `k` codes all below `n` (`C(n + k - 1, k)`).
static MULTISETS: [[u16; LINE_CODES + 1]; 5] = {
    let mut t = [[0u16; LINE_CODES + 1]; 5];
    let mut k = 0;
    while k < 5 {
        let mut n = 0;
        while n <= LINE_CODES {
            t[k][n] = multisets(n, k) as u16;
            n += 1;
        }
        k += 1;
    }
    t
};

/// The pattern combination of a pattern word (one [`LINE_CODES`] code a nibble, four
/// directions): the rank, below [`PCODES`], of its four codes as a multiset, so that the
/// same patterns in any directions share one combination.
#[inline(always)]
pub fn pattern_combination(word: u16) -> usize {
    let code = |d: u32| ((word >> (4 * d)) & 15) as usize;
    // A sorting network for four (min and max, no branches): a <= b <= c <= d afterwards.
    let (a, b) = (code(0).min(code(1)), code(0).max(code(1)));
    let (c, d) = (code(2).min(code(3)), code(2).max(code(3)));
    let (a, c) = (a.min(c), a.max(c));
    let (b, d) = (b.min(d), b.max(d));
    let (b, c) = (b.min(c), b.max(c));
    // Multisets ranked by their sorted codes: those whose largest code is smaller come
    // first, then by the next largest, and so on.
    MULTISETS[4][d] as usize
        + MULTISETS[3][c] as usize
        + MULTISETS[2][b] as usize
        + MULTISETS[1][a] as usize
}

/// The feature of a candidate cell where the side to move's (`side` 0) or the opponent's
/// (`side` 1) line patterns make combination `combination` (below [`PCODES`]).
#[inline(always)]
pub const fn pcode(side: usize, combination: usize) -> usize {
    PCODE_BASE + side * PCODES + combination
}

/// The feature of row `kind` of the `COUNTS` table at column `column` (below
/// [`COUNT_COLUMNS`]).
#[inline(always)]
pub fn count(kind: usize, column: usize) -> usize {
    COUNT_BASE + kind * COUNT_COLUMNS + column
}

/// Writes `table` row-major into `w` from index `base`.
const fn lay_out<const R: usize, const C: usize>(
    w: &mut [i32; FEATURES],
    base: usize,
    table: &[[i32; C]; R],
) {
    let mut row = 0;
    while row < R {
        let mut column = 0;
        while column < C {
            w[base + row * C + column] = table[row][column];
            column += 1;
        }
        row += 1;
    }
}

/// Which set of evaluation tables a position is evaluated with: renju is lopsided (only
/// black has forbidden points), so each colour to move has its own set; the other rules
/// share one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSet {
    /// Freestyle, standard, caro.
    General,
    /// Renju, black to move.
    RenjuBlack,
    /// Renju, white to move.
    RenjuWhite,
}

/// Number of table sets (the rows of [`WEIGHTS`]).
pub const TABLE_SETS: usize = 3;

impl TableSet {
    /// Every set, in [`WEIGHTS`] order.
    pub const ALL: [TableSet; TABLE_SETS] = [
        TableSet::General,
        TableSet::RenjuBlack,
        TableSet::RenjuWhite,
    ];

    /// The set for a position under `rule` with `to_move` to play.
    #[inline(always)]
    pub fn of(rule: Rule, to_move: Color) -> TableSet {
        match (rule, to_move) {
            (Rule::Renju, Color::Black) => TableSet::RenjuBlack,
            (Rule::Renju, Color::White) => TableSet::RenjuWhite,
            _ => TableSet::General,
        }
    }

    /// The set's row in [`WEIGHTS`].
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The set's tables in `weights.rs`.
    pub const fn tables(self) -> &'static EvalTables {
        match self {
            TableSet::General => &GENERAL,
            TableSet::RenjuBlack => &RENJU_BLACK,
            TableSet::RenjuWhite => &RENJU_WHITE,
        }
    }

    /// The name of the set's constant in `weights.rs`.
    pub fn name(self) -> &'static str {
        match self {
            TableSet::General => "GENERAL",
            TableSet::RenjuBlack => "RENJU_BLACK",
            TableSet::RenjuWhite => "RENJU_WHITE",
        }
    }
}

/// One set's weights in feature order.
const fn flatten(t: &EvalTables) -> [i32; FEATURES] {
    let mut w = [0; FEATURES];
    lay_out(&mut w, CELL_BASE, &t.cell);
    lay_out(&mut w, LINE_BASE, &t.line);
    lay_out(&mut w, PCODE_BASE, &t.pcode);
    lay_out(&mut w, COUNT_BASE, &t.counts);
    w[TEMPO_INDEX] = t.tempo;
    w
}

/// Every weight in feature order, one row per [`TableSet`].
pub static WEIGHTS: [[i32; FEATURES]; TABLE_SETS] = {
    let mut w = [[0; FEATURES]; TABLE_SETS];
    let mut set = 0;
    while set < TABLE_SETS {
        w[set] = flatten(TableSet::ALL[set].tables());
        set += 1;
    }
    w
};

/// The four line codes of combination `combination` (below [`PCODES`]), smallest first: the
/// inverse of [`pattern_combination`] on sorted words.
pub fn combination_codes(combination: usize) -> [usize; 4] {
    let mut left = combination;
    let mut codes = [0; 4];
    let mut below = LINE_CODES;
    for k in (1..=4).rev() {
        // The largest code c <= below - 1 with MULTISETS[k][c] <= left.
        let mut c = below - 1;
        while MULTISETS[k][c] as usize > left {
            c -= 1;
        }
        codes[k - 1] = c;
        left -= MULTISETS[k][c] as usize;
        below = c + 1;
    }
    codes
}

fn pattern_name(code: usize) -> String {
    if code < 15 {
        format!("{:?}", Pattern::from_u8(code as u8))
    } else {
        "none".to_string()
    }
}

/// The name of feature `index`, as the weight tables spell it, for the tuner's report.
pub fn feature_name(index: usize) -> String {
    if index < LINE_BASE {
        let i = index - CELL_BASE;
        format!(
            "CELL[{:?}][{:?}]",
            Threat::from_u8((i / CLASSES) as u8),
            Threat::from_u8((i % CLASSES) as u8)
        )
    } else if index < PCODE_BASE {
        let i = index - LINE_BASE;
        format!(
            "LINE[{}][{}]",
            pattern_name(i / LINE_CODES),
            pattern_name(i % LINE_CODES)
        )
    } else if index < COUNT_BASE {
        let i = index - PCODE_BASE;
        let codes = combination_codes(i % PCODES).map(pattern_name).join(",");
        format!("PCODE[{}][{codes}]", ["ours", "theirs"][i / PCODES])
    } else if index < TEMPO_INDEX {
        let i = index - COUNT_BASE;
        format!("COUNTS[{}][{}]", i / COUNT_COLUMNS, i % COUNT_COLUMNS)
    } else {
        "TEMPO".to_string()
    }
}

/// The candidate-cell terms of the two sets a board is evaluated with (black to move, white
/// to move) side by side, so that one lookup gives a cell's term for either side to move:
/// `cell[black class][white class]` and `line[black pattern][white pattern]` hold `[the
/// black-to-move set's weight with black as "ours", the white-to-move set's with white as
/// "ours"]`; `pcode[colour][combination]` holds the same pair for that colour's pattern
/// combination.
pub struct PairedTerms {
    /// The `CELL` weights by the black and the white class.
    pub cell: [[[i32; 2]; CLASSES]; CLASSES],
    /// The `LINE` weights by the black and the white pattern code.
    pub line: [[[i32; 2]; LINE_CODES]; LINE_CODES],
    /// The `PCODE` weights by the colour (black, white) and its pattern combination.
    pub pcode: [[[i32; 2]; PCODES]; 2],
    /// False when every `PCODE` weight is zero: the search then skips those lookups.
    pub pcode_active: bool,
}

/// One `N` x `N` table starting at feature `base`, paired: `[b[base + x * N + y],
/// w[base + y * N + x]]` at `[x][y]` (black's code first in both).
const fn pair_table<const N: usize>(
    b: &[i32; FEATURES],
    w: &[i32; FEATURES],
    base: usize,
) -> [[[i32; 2]; N]; N] {
    let mut out = [[[0; 2]; N]; N];
    let mut x = 0;
    while x < N {
        let mut y = 0;
        while y < N {
            out[x][y] = [b[base + x * N + y], w[base + y * N + x]];
            y += 1;
        }
        x += 1;
    }
    out
}

/// The `PCODE` block paired: black's combinations are "ours" with black to move and
/// "theirs" with white to move, white's the other way round.
const fn pair_pcodes(b: &[i32; FEATURES], w: &[i32; FEATURES]) -> [[[i32; 2]; PCODES]; 2] {
    let mut out = [[[0; 2]; PCODES]; 2];
    let mut p = 0;
    while p < PCODES {
        out[0][p] = [b[pcode(0, p)], w[pcode(1, p)]];
        out[1][p] = [b[pcode(1, p)], w[pcode(0, p)]];
        p += 1;
    }
    out
}

/// True when any `PCODE` weight of `b` or `w` is not zero.
const fn any_pcode(b: &[i32; FEATURES], w: &[i32; FEATURES]) -> bool {
    let mut i = PCODE_BASE;
    while i < PCODE_BASE + 2 * PCODES {
        if b[i] != 0 || w[i] != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// The paired terms of the weights `b` (black to move) and `w` (white to move), each in
/// feature order.
pub const fn pair_weights(b: &[i32; FEATURES], w: &[i32; FEATURES]) -> PairedTerms {
    PairedTerms {
        cell: pair_table::<CLASSES>(b, w, CELL_BASE),
        line: pair_table::<LINE_CODES>(b, w, LINE_BASE),
        pcode: pair_pcodes(b, w),
        pcode_active: any_pcode(b, w),
    }
}

const fn pair(black_to_move: TableSet, white_to_move: TableSet) -> PairedTerms {
    pair_weights(
        &flatten(black_to_move.tables()),
        &flatten(white_to_move.tables()),
    )
}

/// The paired terms of the rules without colour-specific sets and of renju.
static PAIRED: [PairedTerms; 2] = [
    pair(TableSet::General, TableSet::General),
    pair(TableSet::RenjuBlack, TableSet::RenjuWhite),
];

/// The paired candidate-cell terms a board under `rule` is evaluated with.
pub fn paired(rule: Rule) -> &'static PairedTerms {
    let black = TableSet::of(rule, Color::Black);
    let white = TableSet::of(rule, Color::White);
    match (black, white) {
        (TableSet::RenjuBlack, TableSet::RenjuWhite) => &PAIRED[1],
        _ => &PAIRED[0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_follow_the_tables() {
        for set in TableSet::ALL {
            let t = set.tables();
            let w = &WEIGHTS[set.index()];
            for ours in 0..CLASSES as u8 {
                for theirs in 0..CLASSES as u8 {
                    let (o, th) = (Threat::from_u8(ours), Threat::from_u8(theirs));
                    assert_eq!(w[cell(o, th)], t.cell[ours as usize][theirs as usize]);
                }
            }
            for ours in 0..LINE_CODES {
                for theirs in 0..LINE_CODES {
                    assert_eq!(w[line(ours, theirs)], t.line[ours][theirs]);
                }
            }
            for side in 0..2 {
                for p in 0..PCODES {
                    assert_eq!(w[pcode(side, p)], t.pcode[side][p]);
                }
            }
            for kind in 0..4 {
                for column in 0..COUNT_COLUMNS {
                    assert_eq!(w[count(kind, column)], t.counts[kind][column]);
                }
            }
            assert_eq!(w[TEMPO_INDEX], t.tempo);
        }
        assert_eq!(
            feature_name(pcode(1, 0)),
            "PCODE[theirs][Dead,Dead,Dead,Dead]"
        );
        assert_eq!(
            feature_name(pcode(0, PCODES - 1)),
            "PCODE[ours][none,none,none,none]"
        );
        assert_eq!(feature_name(TEMPO_INDEX), "TEMPO");
        assert_eq!(feature_name(0), "CELL[None][None]");
        assert_eq!(feature_name(LINE_BASE + 15), "LINE[Dead][none]");
        assert_eq!(feature_name(count(3, 5)), "COUNTS[3][5]");
    }

    /// Every pattern word maps to a combination below `PCODES`; words with the same four
    /// codes in any order share one, words with different codes do not, and every
    /// combination is reached and decoded back to its sorted codes.
    #[test]
    fn pattern_combinations_are_multisets() {
        let mut first_word = vec![None; PCODES];
        for word in 0..=u16::MAX {
            let p = pattern_combination(word);
            assert!(p < PCODES, "{word:#06x} -> {p}");
            let mut codes = [0, 4, 8, 12].map(|s| ((word >> s) & 15) as usize);
            codes.sort_unstable();
            assert_eq!(combination_codes(p), codes, "{word:#06x}");
            match first_word[p] {
                None => first_word[p] = Some(codes),
                Some(seen) => assert_eq!(seen, codes, "{word:#06x} shares {p}"),
            }
        }
        assert!(
            first_word.iter().all(Option::is_some),
            "a combination is never reached"
        );
        assert_eq!(multisets(LINE_CODES, 4), PCODES);
    }

    #[test]
    fn table_sets_by_rule_and_colour() {
        use Color::{Black, White};
        assert_eq!(TableSet::of(Rule::Renju, Black), TableSet::RenjuBlack);
        assert_eq!(TableSet::of(Rule::Renju, White), TableSet::RenjuWhite);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro, Rule::CaroExact] {
            for colour in [Black, White] {
                assert_eq!(TableSet::of(rule, colour), TableSet::General);
            }
        }
        for (i, set) in TableSet::ALL.iter().enumerate() {
            assert_eq!(set.index(), i);
        }
    }
}
