//! Line patterns and threat classes.
//!
//! For every empty cell and each of the four directions the board keeps a *line key*: the
//! ten cells within five of it on that line, two bits each (see [`crate::gomoku::Stone`]).
//! A table built once per [`LineRule`] maps a key to a [`Pattern`]: what a colour has on that
//! line if it plays the cell. The four patterns of a cell combine into one [`Threat`] class.
//!
//! Patterns are defined one move ahead, recursively over the line alone:
//! - `F5`: the move makes a five (by the line rule) through the cell.
//! - `OL`: the move makes six or more where only exactly five wins.
//! - `F4` / `F44` / `B4`: the move leaves points that make a five. `F4` is one straight four
//!   (two five points completing the same four stones), `F44` two different fours on the
//!   line (`X.XXX.X`), `B4` a single five point.
//! - `F3S` / `F3` / `B3`: no five point; two or more (`F3S`) or one (`F3`) next moves make an
//!   `F4` (for renju black: a straight four, not `F44`), or only `B4`s can be made (`B3`).
//! - `F2B` / `F2A` / `F2`: next moves make four, three or two `F3`/`F3S`; `B2`: one `F3` or
//!   a `B3`. `F1`: a next move makes an `F2`-family pattern; `B1`: a `B2`. `Dead`: no five can
//!   ever go through the cell on this line.
//!
//! Only fives through the cell count. The window sees five cells each side, which decides
//! every five and four exactly; under caro a run longer than five whose end lies past the
//! window is taken as unblocked at that end (it only affects hypothetical three-move lines).

use std::sync::OnceLock;

use super::types::{Color, LineRule, Rule};

/// Bits of a line key: ten neighbours, two bits each.
pub const KEY_BITS: u32 = 20;
/// Number of distinct line keys.
pub const KEY_COUNT: usize = 1 << KEY_BITS;
/// Cells each side of the centre that a line key covers.
pub const HALF_WINDOW: usize = 5;

/// What one colour gets on one line by playing a cell, weakest first (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can go through the cell on this line.
    Dead = 0,
    /// Makes six or more where only exactly five wins (forbidden for renju black).
    Overline,
    /// One step from `B2`.
    B1,
    /// One step from an `F2`-family pattern.
    F1,
    /// One step from a `B3` or a single `F3`.
    B2,
    /// One step from two `F3`.
    F2,
    /// One step from three `F3`.
    F2A,
    /// One step from four `F3`.
    F2B,
    /// One step from a closed four.
    B3,
    /// One step from one straight four: an open three.
    F3,
    /// One step from two straight fours.
    F3S,
    /// A closed four: one five point.
    B4,
    /// A straight (open) four: two five points completing the same four stones.
    F4,
    /// Two different fours on one line (`X.XXX.X`): forbidden for renju black.
    F44,
    /// Makes a five.
    F5,
}

/// Number of [`Pattern`] values.
pub const PATTERN_COUNT: usize = 15;

const PATTERNS: [Pattern; PATTERN_COUNT] = [
    Pattern::Dead,
    Pattern::Overline,
    Pattern::B1,
    Pattern::F1,
    Pattern::B2,
    Pattern::F2,
    Pattern::F2A,
    Pattern::F2B,
    Pattern::B3,
    Pattern::F3,
    Pattern::F3S,
    Pattern::B4,
    Pattern::F4,
    Pattern::F44,
    Pattern::F5,
];

impl Pattern {
    /// The pattern with this discriminant (values past the last map to `F5`).
    #[inline]
    pub const fn from_u8(value: u8) -> Pattern {
        let index = if (value as usize) < PATTERN_COUNT {
            value as usize
        } else {
            PATTERN_COUNT - 1
        };
        PATTERNS[index]
    }

    /// True for `F3` and `F3S`: an open three once played.
    #[inline]
    pub const fn is_open_three(self) -> bool {
        matches!(self, Pattern::F3 | Pattern::F3S)
    }

    /// How many fours the move makes on this line: 2 for `F44`, 1 for `B4` and `F4`.
    #[inline]
    pub const fn fours(self) -> u32 {
        match self {
            Pattern::F44 => 2,
            Pattern::B4 | Pattern::F4 => 1,
            _ => 0,
        }
    }
}

/// One colour's threat at one empty cell, from its four line patterns, weakest first
/// (the classes of the strongest Gomoku engines).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// Nothing worth naming.
    None = 0,
    /// Renju: black may not play here (overline, double four or double three).
    Forbidden,
    /// One `F2`-family line.
    Flex2,
    /// One closed three (`B3`).
    Block3,
    /// Two `F2`-family lines.
    Flex2x2,
    /// A closed three with another three or two.
    Block3Plus,
    /// One open three.
    Flex3,
    /// An open three with a closed three or a two.
    Flex3Plus,
    /// Two open threes (a win unless renju forbids it for black).
    Flex3x2,
    /// One closed four.
    Block4,
    /// A closed four with a closed three or a two.
    Block4Plus,
    /// A closed four with an open three: four-three.
    Block4Flex3,
    /// An open four, two fours on a line or four-four: wins unless the opponent has a five.
    Flex4,
    /// A five.
    Five,
}

/// Number of [`Threat`] values.
pub const THREAT_COUNT: usize = 14;

const THREATS: [Threat; THREAT_COUNT] = [
    Threat::None,
    Threat::Forbidden,
    Threat::Flex2,
    Threat::Block3,
    Threat::Flex2x2,
    Threat::Block3Plus,
    Threat::Flex3,
    Threat::Flex3Plus,
    Threat::Flex3x2,
    Threat::Block4,
    Threat::Block4Plus,
    Threat::Block4Flex3,
    Threat::Flex4,
    Threat::Five,
];

impl Threat {
    /// The class with this discriminant (values past the last map to `Five`).
    #[inline]
    pub const fn from_u8(value: u8) -> Threat {
        let index = if (value as usize) < THREAT_COUNT {
            value as usize
        } else {
            THREAT_COUNT - 1
        };
        THREATS[index]
    }
}

/// How the four patterns of a cell combine, before the renju double-three check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combined {
    /// The class.
    pub threat: Threat,
    /// Renju black with two or more open-three lines and no five, overline or double
    /// four: forbidden only if at least two of the threes are real (the board decides).
    pub double_three_candidate: bool,
}

/// Combines a colour's four line patterns at a cell. `renju_black` applies the forbidden
/// shapes that the lines alone decide (overline, double four).
pub fn combine(patterns: [Pattern; 4], renju_black: bool) -> Combined {
    let mut count = [0u8; PATTERN_COUNT];
    for pattern in patterns {
        count[pattern as usize] += 1;
    }
    let n = |p: Pattern| count[p as usize] as u32;
    let plain = |threat| Combined {
        threat,
        double_three_candidate: false,
    };
    if n(Pattern::F5) > 0 {
        return plain(Threat::Five);
    }
    let fours: u32 = patterns.iter().map(|p| p.fours()).sum();
    let threes = n(Pattern::F3) + n(Pattern::F3S);
    if renju_black && (n(Pattern::Overline) > 0 || fours >= 2) {
        return plain(Threat::Forbidden);
    }
    let class = if fours >= 2 || n(Pattern::F4) > 0 || n(Pattern::F44) > 0 {
        Threat::Flex4
    } else {
        let block3 = n(Pattern::B3);
        let flex2 = n(Pattern::F2) + n(Pattern::F2A) + n(Pattern::F2B);
        let weak = block3 + flex2;
        if fours == 1 {
            if threes > 0 {
                Threat::Block4Flex3
            } else if weak > 0 {
                Threat::Block4Plus
            } else {
                Threat::Block4
            }
        } else if threes >= 2 {
            Threat::Flex3x2
        } else if threes == 1 {
            if weak > 0 {
                Threat::Flex3Plus
            } else {
                Threat::Flex3
            }
        } else if block3 >= 2 || (block3 == 1 && flex2 > 0) {
            Threat::Block3Plus
        } else if flex2 >= 2 {
            Threat::Flex2x2
        } else if block3 == 1 {
            Threat::Block3
        } else if flex2 == 1 {
            Threat::Flex2
        } else {
            Threat::None
        }
    };
    Combined {
        threat: class,
        double_three_candidate: renju_black && threes >= 2,
    }
}

/// Relative cell codes used while building tables.
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPPONENT: u8 = 2;
/// Index of the centre in an 11-cell line.
const CENTRE: usize = HALF_WINDOW;
const LINE: usize = 2 * HALF_WINDOW + 1;
const UNKNOWN: u8 = u8::MAX;

/// Key slot of the cell `offset` away from the centre (offset in -5..=5, not 0).
#[inline]
pub const fn slot(offset: isize) -> u32 {
    if offset < 0 {
        (offset + HALF_WINDOW as isize) as u32
    } else {
        (offset + HALF_WINDOW as isize - 1) as u32
    }
}

fn key_to_line(key: u32) -> [u8; LINE] {
    let mut line = [EMPTY; LINE];
    line[CENTRE] = OWN;
    for s in 0..(2 * HALF_WINDOW) {
        let position = if s < HALF_WINDOW { s } else { s + 1 };
        line[position] = ((key >> (2 * s)) & 3) as u8;
    }
    line
}

fn line_to_key(line: &[u8; LINE]) -> u32 {
    let mut key = 0;
    for s in 0..(2 * HALF_WINDOW) {
        let position = if s < HALF_WINDOW { s } else { s + 1 };
        key |= (line[position] as u32) << (2 * s);
    }
    key
}

/// The own run through the centre: (first index, last index).
fn run_through_centre(line: &[u8; LINE]) -> (usize, usize) {
    let mut first = CENTRE;
    while first > 0 && line[first - 1] == OWN {
        first -= 1;
    }
    let mut last = CENTRE;
    while last + 1 < LINE && line[last + 1] == OWN {
        last += 1;
    }
    (first, last)
}

fn is_five(line: &[u8; LINE], rule: LineRule) -> bool {
    let (first, last) = run_through_centre(line);
    let blocked_both =
        first > 0 && line[first - 1] == OPPONENT && last + 1 < LINE && line[last + 1] == OPPONENT;
    rule.is_five(last - first + 1, blocked_both)
}

struct Builder {
    rule: LineRule,
    memo: Vec<u8>,
}

impl Builder {
    fn classify(&mut self, key: u32) -> Pattern {
        let cached = self.memo[key as usize];
        if cached != UNKNOWN {
            return Pattern::from_u8(cached);
        }
        let pattern = self.compute(key);
        self.memo[key as usize] = pattern as u8;
        pattern
    }

    fn compute(&mut self, key: u32) -> Pattern {
        let line = key_to_line(key);
        if is_five(&line, self.rule) {
            return Pattern::F5;
        }
        let (first, last) = run_through_centre(&line);
        if self.rule.exact() && last - first + 1 > 5 {
            return Pattern::Overline;
        }
        let mut empties = [0usize; LINE];
        let mut empty_count = 0;
        for (i, &c) in line.iter().enumerate() {
            if c == EMPTY {
                empties[empty_count] = i;
                empty_count += 1;
            }
        }
        let empties = &empties[..empty_count];
        // Five points, each with the own stones of the five it completes.
        let mut four_sets = [0u32; 2];
        let mut distinct_fours = 0;
        let mut five_points = 0;
        for &e in empties {
            let mut next = line;
            next[e] = OWN;
            if is_five(&next, self.rule) {
                five_points += 1;
                let (a, b) = run_through_centre(&next);
                let set = (a..=b).filter(|&i| i != e).fold(0u32, |m, i| m | 1 << i);
                if !four_sets[..distinct_fours].contains(&set) && distinct_fours < 2 {
                    four_sets[distinct_fours] = set;
                    distinct_fours += 1;
                }
            }
        }
        if five_points == 1 {
            return Pattern::B4;
        }
        if five_points >= 2 {
            return if distinct_fours == 1 {
                Pattern::F4
            } else {
                Pattern::F44
            };
        }
        let mut children = [0u32; PATTERN_COUNT];
        for &e in empties {
            let mut next = line;
            next[e] = OWN;
            let child = self.classify(line_to_key(&next));
            children[child as usize] += 1;
        }
        let c = |p: Pattern| children[p as usize];
        let straight_fours = if self.rule == LineRule::RenjuBlack {
            c(Pattern::F4)
        } else {
            c(Pattern::F4) + c(Pattern::F44)
        };
        if straight_fours >= 2 {
            return Pattern::F3S;
        }
        if straight_fours == 1 {
            return Pattern::F3;
        }
        if c(Pattern::B4) > 0 {
            return Pattern::B3;
        }
        let threes = c(Pattern::F3) + c(Pattern::F3S);
        match threes {
            0 | 1 if threes == 1 || c(Pattern::B3) > 0 => return Pattern::B2,
            0 | 1 => {}
            2 => return Pattern::F2,
            3 => return Pattern::F2A,
            _ => return Pattern::F2B,
        }
        if c(Pattern::F2) + c(Pattern::F2A) + c(Pattern::F2B) > 0 {
            Pattern::F1
        } else if c(Pattern::B2) > 0 {
            Pattern::B1
        } else {
            Pattern::Dead
        }
    }
}

/// The pattern of every line key for one line rule, keys relative to the player
/// (own stones 1, opponent 2, wall 3).
fn build_relative(rule: LineRule) -> Vec<u8> {
    let mut builder = Builder {
        rule,
        memo: vec![UNKNOWN; KEY_COUNT],
    };
    for key in 0..KEY_COUNT as u32 {
        builder.classify(key);
    }
    builder.memo
}

/// Swaps black (1) and white (2) in every 2-bit field of a key.
#[inline]
pub const fn swap_colours(key: u32) -> u32 {
    let low = key & 0x55555;
    let high = (key >> 1) & 0x55555;
    // A field is 01 (black) or 10 (white) exactly when one of its bits is set.
    let differ = low ^ high;
    key ^ (differ | (differ << 1))
}

/// The pattern tables of one rule: for every absolute line key (black stones 1, white 2,
/// wall 3) both colours' patterns in one byte (black in the low nibble), and for every
/// colour the [`combine`] result of every four-direction pattern word (4 bits a direction,
/// direction `d` at bits `4d..4d+4`): the threat in the low 7 bits, bit 7 the renju
/// double-three candidate flag.
pub struct RuleTables {
    rule: Rule,
    /// Both colours' patterns indexed by `(key >> lookup_shift) & lookup_mask`: for rules
    /// where the two outermost cells never matter (freestyle) a 64K-entry table of the
    /// inner eight cells that stays in the level-2 cache, else all 1M keys.
    lookup: Box<[u8]>,
    lookup_shift: u32,
    lookup_mask: usize,
    combined: [Box<[u8; PATTERN_WORDS]>; 2],
}

/// Key bits of the inner eight cells (offsets -4..=4).
const INNER_KEY_BITS: u32 = KEY_BITS - 4;

/// Number of four-direction pattern words.
pub const PATTERN_WORDS: usize = 1 << 16;

/// Splits a pattern word into its four directions.
#[inline]
pub const fn unpack_word(word: u16) -> [Pattern; 4] {
    [
        Pattern::from_u8((word & 15) as u8),
        Pattern::from_u8(((word >> 4) & 15) as u8),
        Pattern::from_u8(((word >> 8) & 15) as u8),
        Pattern::from_u8(((word >> 12) & 15) as u8),
    ]
}

/// A table of exactly `N` entries, so that indexing with a masked key needs no bounds check.
fn fixed<const N: usize>(values: Vec<u8>) -> Box<[u8; N]> {
    let mut table = Box::new([0u8; N]);
    for (slot, value) in table.iter_mut().zip(values) {
        *slot = value;
    }
    table
}

impl RuleTables {
    /// The tables of `rule`, built on first use and shared for the life of the process.
    pub fn get(rule: Rule) -> &'static RuleTables {
        static TABLES: [OnceLock<RuleTables>; 5] = [const { OnceLock::new() }; 5];
        let index = Rule::ALL.iter().position(|&r| r == rule).unwrap_or(0);
        TABLES[index].get_or_init(|| RuleTables::build(rule))
    }

    fn build(rule: Rule) -> RuleTables {
        let black = relative_table(rule.line_rule(Color::Black));
        let white = relative_table(rule.line_rule(Color::White));
        let packed: Vec<u8> = (0..KEY_COUNT as u32)
            .map(|key| black[key as usize] | (white[swap_colours(key) as usize] << 4))
            .collect();
        let combined = [rule == Rule::Renju, false].map(|renju_black| {
            (0..PATTERN_WORDS)
                .map(|word| {
                    let result = combine(unpack_word(word as u16), renju_black);
                    result.threat as u8 | (u8::from(result.double_three_candidate) << 7)
                })
                .collect::<Vec<u8>>()
        });
        // The outermost cells (slots 0 and 9) matter unless every key agrees with the key
        // that has them empty.
        let outer = 3 | (3 << (2 * (2 * HALF_WINDOW as u32 - 1)));
        let inner_only = packed
            .iter()
            .enumerate()
            .all(|(key, &value)| packed[key & !outer] == value);
        let (lookup, lookup_shift, lookup_mask) = if inner_only {
            let short: Vec<u8> = (0..1usize << INNER_KEY_BITS)
                .map(|inner| packed[inner << 2])
                .collect();
            (short.into_boxed_slice(), 2, (1 << INNER_KEY_BITS) - 1)
        } else {
            (packed.into_boxed_slice(), 0, KEY_COUNT - 1)
        };
        RuleTables {
            rule,
            lookup,
            lookup_shift,
            lookup_mask,
            combined: combined.map(fixed),
        }
    }

    /// The rule these tables are for.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Both colours' patterns for line key `key`: black in the low nibble, white in the high.
    #[inline]
    pub fn packed(&self, key: u32) -> u8 {
        self.lookup[(key >> self.lookup_shift) as usize & self.lookup_mask]
    }

    /// The pattern `color` gets by playing the centre of a line with absolute key `key`.
    #[inline]
    pub fn pattern(&self, color: Color, key: u32) -> Pattern {
        Pattern::from_u8((self.packed(key) >> (4 * color.index())) & 15)
    }

    /// `color`'s [`combine`] result for a pattern word, as the threat and the renju
    /// double-three candidate flag.
    #[inline]
    pub fn combined(&self, color: Color, word: u16) -> (Threat, bool) {
        let value = self.combined[color.index() & 1][word as usize];
        (Threat::from_u8(value & 0x7F), value & 0x80 != 0)
    }
}

/// The relative table of a line rule, built once per process.
fn relative_table(rule: LineRule) -> &'static [u8] {
    static TABLES: [OnceLock<Vec<u8>>; 5] = [const { OnceLock::new() }; 5];
    let index = LineRule::ALL.iter().position(|&r| r == rule).unwrap_or(0);
    TABLES[index].get_or_init(|| build_relative(rule))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Classifies a line written as text: `X` own, `O` opponent, `#` wall, `.` empty, `*`
    /// the centre (own, to be played). The text is centred on `*` and padded with empties.
    fn line_pattern(text: &str, rule: LineRule) -> Pattern {
        let centre = text.find('*').expect("a centre");
        let mut line = [EMPTY; LINE];
        for (i, c) in text.chars().enumerate() {
            let position = i as isize - centre as isize + CENTRE as isize;
            if !(0..LINE as isize).contains(&position) {
                continue;
            }
            line[position as usize] = match c {
                'X' | '*' => OWN,
                'O' => OPPONENT,
                '#' => 3,
                _ => EMPTY,
            };
        }
        Pattern::from_u8(relative_table(rule)[line_to_key(&line) as usize])
    }

    #[test]
    fn fives_and_overlines_by_rule() {
        use LineRule::*;
        assert_eq!(line_pattern("XX*XX", Freestyle), Pattern::F5);
        assert_eq!(line_pattern("XX*XXX", Freestyle), Pattern::F5);
        assert_eq!(line_pattern("XX*XXX", Exact), Pattern::Overline);
        assert_eq!(line_pattern("XX*XXX", RenjuBlack), Pattern::Overline);
        assert_eq!(line_pattern("XX*XX", RenjuBlack), Pattern::F5);
        assert_eq!(line_pattern("OXX*XXO", Caro), Pattern::Dead);
        assert_eq!(line_pattern("OXX*XX.", Caro), Pattern::F5);
        assert_eq!(line_pattern("#XX*XXO", Caro), Pattern::F5);
        assert_eq!(line_pattern("OXX*XXXO", Caro), Pattern::Dead);
        assert_eq!(line_pattern(".XX*XXX.", CaroExact), Pattern::Overline);
    }

    #[test]
    fn fours_and_threes() {
        use LineRule::*;
        assert_eq!(line_pattern("..X*XX..", Freestyle), Pattern::F4);
        assert_eq!(line_pattern("O.X*XX.O", Freestyle), Pattern::F4);
        assert_eq!(line_pattern("OX*XX.", Freestyle), Pattern::B4);
        assert_eq!(line_pattern("X.X*X.X", RenjuBlack), Pattern::F44);
        assert_eq!(line_pattern("X.X*X.X", Freestyle), Pattern::F44);
        // The straight four's right end makes six: only a closed four for renju black.
        assert_eq!(line_pattern(".X*XX.X", RenjuBlack), Pattern::B4);
        assert_eq!(line_pattern(".X*XX.X", Freestyle), Pattern::F44);
        assert_eq!(line_pattern("...X*X...", Freestyle), Pattern::F3S);
        assert_eq!(line_pattern("..X.*X..", Freestyle), Pattern::F3);
        assert_eq!(line_pattern("O.X*X..O", Freestyle), Pattern::F3);
        assert_eq!(line_pattern("OX*X...", Freestyle), Pattern::B3);
        // Renju black: every four this three can make has one exact five point only (the
        // other end makes six or meets white); freestyle counts the six as a five.
        assert_eq!(line_pattern("X..*XX.O", RenjuBlack), Pattern::B3);
        assert_eq!(line_pattern("X..*XX.O", Freestyle), Pattern::F3);
        assert_eq!(line_pattern("O....*....O", Freestyle), Pattern::F1);
        assert_eq!(line_pattern("O..*.O", Freestyle), Pattern::Dead);
        assert_eq!(line_pattern("#...*#", Freestyle), Pattern::Dead);
        assert_eq!(line_pattern("#..*..#", Freestyle), Pattern::B1);
    }

    #[test]
    fn colour_swap_is_an_involution() {
        for key in [0u32, 0x12345, 0xFFFFF, 0x5_5555, 0xA_AAAA & 0xFFFFF] {
            assert_eq!(swap_colours(swap_colours(key)), key);
        }
        assert_eq!(swap_colours(0b01_10_11_00), 0b10_01_11_00);
    }

    #[test]
    fn combinations() {
        use Pattern::*;
        assert_eq!(combine([F3, F3, Dead, Dead], false).threat, Threat::Flex3x2);
        let renju = combine([F3, F3S, Dead, Dead], true);
        assert_eq!(renju.threat, Threat::Flex3x2);
        assert!(renju.double_three_candidate);
        assert_eq!(
            combine([B4, F3, Dead, B1], true).threat,
            Threat::Block4Flex3
        );
        assert_eq!(
            combine([B4, B4, Dead, Dead], true).threat,
            Threat::Forbidden
        );
        assert_eq!(combine([B4, B4, Dead, Dead], false).threat, Threat::Flex4);
        assert_eq!(
            combine([F44, Dead, Dead, Dead], true).threat,
            Threat::Forbidden
        );
        assert_eq!(combine([F5, Overline, B4, B4], true).threat, Threat::Five);
        assert_eq!(
            combine([Overline, Dead, Dead, Dead], true).threat,
            Threat::Forbidden
        );
        assert_eq!(
            combine([Overline, Dead, Dead, Dead], false).threat,
            Threat::None
        );
        assert_eq!(
            combine([B3, F2, Dead, Dead], false).threat,
            Threat::Block3Plus
        );
        assert_eq!(
            combine([F2, F2A, Dead, Dead], false).threat,
            Threat::Flex2x2
        );
    }
}
