//! The typed vocabulary of Gomoku: colours, cells of the padded board, stones and rules.

use std::fmt;
use std::num::NonZeroU16;

/// Largest board side, in cells, for squares and rectangles alike.
pub const MAX_SIDE: usize = 32;
/// Wall cells around the playing area on every side: the pattern window reaches five cells
/// from its centre, so five walls keep every window inside the array.
pub const PAD: usize = 5;
/// Cells from one row of the padded array to the next.
pub const STRIDE: usize = MAX_SIDE + 2 * PAD;
/// Cells in the padded array (playing area, whatever its size, plus walls).
pub const CELLS: usize = STRIDE * STRIDE;

/// The four line directions, as index steps in the padded array: horizontal, vertical,
/// diagonal (down-right) and anti-diagonal (down-left).
pub const DIRECTION_STEPS: [isize; 4] =
    [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A player. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// Both colours, black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The opponent.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The stone this colour places.
    #[inline]
    pub const fn stone(self) -> Stone {
        match self {
            Color::Black => Stone::Black,
            Color::White => Stone::White,
        }
    }

    /// Lower-case English name (`black`, `white`), as the referee prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// What occupies a cell of the padded array. The discriminants are the 2-bit codes of the
/// line keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stone {
    /// A free intersection.
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
    /// Outside the playing area.
    Wall = 3,
}

impl Stone {
    /// The colour of a stone, `None` for empty cells and walls.
    #[inline]
    pub const fn color(self) -> Option<Color> {
        match self {
            Stone::Black => Some(Color::Black),
            Stone::White => Some(Color::White),
            _ => None,
        }
    }
}

/// An intersection of the board: an index into the padded array, never zero (the padding
/// keeps every playing cell away from index 0), so `Option<Cell>` is two bytes and a cell
/// fits the transposition table's 16-bit move field. A `Cell` made by [`Cell::from_xy`] is
/// inside a 32 x 32 area; whether it is on a smaller board is the board's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Cell>>() == 2);
const _: () = assert!(CELLS < u16::MAX as usize);

impl Cell {
    /// The cell at column `x` and row `y` (both from 0, origin top-left), or `None` outside
    /// the largest board.
    #[inline]
    pub const fn from_xy(x: usize, y: usize) -> Option<Cell> {
        if x >= MAX_SIDE || y >= MAX_SIDE {
            return None;
        }
        let index = (y + PAD) * STRIDE + x + PAD;
        match NonZeroU16::new(index as u16) {
            Some(bits) => Some(Cell(bits)),
            None => None,
        }
    }

    /// The cell at a padded-array index; `None` for 0 or indices past the array.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index >= CELLS {
            return None;
        }
        match NonZeroU16::new(index as u16) {
            Some(bits) => Some(Cell(bits)),
            None => None,
        }
    }

    /// The index into the padded array.
    #[inline]
    pub const fn index(self) -> usize {
        self.0.get() as usize
    }

    /// Column, from 0 at the left edge of the playing area.
    #[inline]
    pub const fn x(self) -> usize {
        self.index() % STRIDE - PAD
    }

    /// Row, from 0 at the top edge of the playing area.
    #[inline]
    pub const fn y(self) -> usize {
        self.index() / STRIDE - PAD
    }

    /// The 16-bit encoding stored in the transposition table (never 0).
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0.get()
    }

    /// Decodes [`Cell::to_bits`]; `None` for 0 or a value past the array.
    #[inline]
    pub const fn from_bits(bits: u16) -> Option<Cell> {
        Cell::from_index(bits as usize)
    }

    /// Parses Piskvork's `x,y` (spaces around the numbers allowed); `None` when malformed
    /// or beyond the largest board.
    pub fn parse(text: &str) -> Option<Cell> {
        let (x, y) = text.split_once(',')?;
        let x: usize = x.trim().parse().ok()?;
        let y: usize = y.trim().parse().ok()?;
        Cell::from_xy(x, y)
    }
}

impl fmt::Display for Cell {
    /// Piskvork's `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

/// The winning rule, numbered as Piskvork's `INFO rule` (GomocupJudge's 9 included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins (`rule 0`).
    Freestyle,
    /// Exactly five wins, for both colours; six or more is nothing (`rule 1`).
    Standard,
    /// Black: exactly five, and forbidden points (overline, double four, double three) lose;
    /// white: five or more (`rule 4`; Yixin-style managers send 2).
    Renju,
    /// Five or more wins unless both ends of the line are blocked by opponent stones; the
    /// board edge does not block (`rule 8`).
    Caro,
    /// As [`Rule::Caro`] with exactly five (`rule 9`).
    CaroExact,
}

impl Rule {
    /// Every rule, in Piskvork number order.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// The rule a Piskvork `INFO rule` number stands for, read as Gomocup's bit flags: 4 is
    /// renju (whatever else is set), else 8 is caro, and 1 asks for exactly five (with 8:
    /// caro with exactly five); no flag is freestyle. 2 alone, the "continuous game" flag,
    /// which Qilin does not play, is what Yixin-style managers send for renju, so it is read
    /// as renju; with other flags it is ignored. Every number gives a rule: this is the one
    /// decoder of rule numbers, [`Rule::from_number`] its strict form.
    pub const fn from_flags(number: u32) -> Rule {
        if number == 2 || number & 4 != 0 {
            Rule::Renju
        } else if number & 8 != 0 {
            if number & 1 != 0 {
                Rule::CaroExact
            } else {
                Rule::Caro
            }
        } else if number & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    /// The rule whose own number ([`Rule::number`]) is `number`: 0, 1, 4, 8 or 9; `None` for
    /// any other number (the strict reading, for `qilin serve` and the command line).
    pub const fn from_number(number: u32) -> Option<Rule> {
        let rule = Rule::from_flags(number);
        if rule.number() == number {
            Some(rule)
        } else {
            None
        }
    }

    /// The Piskvork number.
    pub const fn number(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// Lower-case name: `freestyle`, `standard`, `renju`, `caro`, `caro-exact`.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }

    /// Parses a number (`0`, `1`, `4`, `8`, `9`) or a name.
    pub fn parse(text: &str) -> Option<Rule> {
        let text = text.trim();
        if let Ok(number) = text.parse::<u32>() {
            return Rule::from_number(number);
        }
        Rule::ALL
            .into_iter()
            .find(|rule| rule.name().eq_ignore_ascii_case(text))
    }

    /// The line semantics a colour's stones follow under this rule.
    pub const fn line_rule(self, color: Color) -> LineRule {
        match (self, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => LineRule::Freestyle,
            (Rule::Standard, _) => LineRule::Exact,
            (Rule::Renju, Color::Black) => LineRule::RenjuBlack,
            (Rule::Caro, _) => LineRule::Caro,
            (Rule::CaroExact, _) => LineRule::CaroExact,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What makes a five for one colour on one line: the part of a [`Rule`] the line patterns
/// depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineRule {
    /// Five or more.
    Freestyle,
    /// Exactly five; a longer run is nothing.
    Exact,
    /// Exactly five; a longer run (overline) and two fours on one line are forbidden.
    RenjuBlack,
    /// Five or more, unless both ends are opponent stones.
    Caro,
    /// Exactly five, unless both ends are opponent stones.
    CaroExact,
}

impl LineRule {
    /// Every line rule.
    pub const ALL: [LineRule; 5] = [
        LineRule::Freestyle,
        LineRule::Exact,
        LineRule::RenjuBlack,
        LineRule::Caro,
        LineRule::CaroExact,
    ];

    /// True when a run of exactly `run` own stones with the given end cells is a five.
    /// `blocked_both` says both end cells hold opponent stones.
    #[inline]
    pub const fn is_five(self, run: usize, blocked_both: bool) -> bool {
        match self {
            LineRule::Freestyle => run >= 5,
            LineRule::Exact | LineRule::RenjuBlack => run == 5,
            LineRule::Caro => run >= 5 && !blocked_both,
            LineRule::CaroExact => run == 5 && !blocked_both,
        }
    }

    /// True when a run of six or more does not win (and, for renju black, is forbidden).
    pub const fn exact(self) -> bool {
        matches!(
            self,
            LineRule::Exact | LineRule::RenjuBlack | LineRule::CaroExact
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip_and_fit_the_move_field() {
        for y in 0..MAX_SIDE {
            for x in 0..MAX_SIDE {
                let cell = Cell::from_xy(x, y).unwrap();
                assert_eq!((cell.x(), cell.y()), (x, y));
                assert_eq!(Cell::from_bits(cell.to_bits()), Some(cell));
                assert_eq!(Cell::parse(&cell.to_string()), Some(cell));
            }
        }
        assert_eq!(Cell::from_xy(32, 0), None);
        assert_eq!(Cell::parse(" 3 , 4"), Cell::from_xy(3, 4));
        for bad in ["", "3", "3,", ",4", "a,b", "-1,2", "3,4,5", "99,1"] {
            assert_eq!(Cell::parse(bad), None, "{bad}");
        }
        assert_eq!(Cell::from_bits(0), None);
    }

    #[test]
    fn rules_by_number_and_name() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_number(rule.number()), Some(rule));
            assert_eq!(Rule::parse(rule.name()), Some(rule));
            assert_eq!(Rule::parse(&rule.number().to_string()), Some(rule));
        }
        assert_eq!(Rule::from_number(2), None);
        assert_eq!(Rule::parse("RENJU"), Some(Rule::Renju));
        assert_eq!(Rule::parse("7"), None);
        // The strict form accepts exactly the five rules' own numbers.
        for number in 0..64 {
            let own = [0, 1, 4, 8, 9].contains(&number);
            assert_eq!(Rule::from_number(number).is_some(), own, "{number}");
        }
    }

    #[test]
    fn rule_flags() {
        assert_eq!(Rule::from_flags(0), Rule::Freestyle);
        assert_eq!(Rule::from_flags(1), Rule::Standard);
        assert_eq!(Rule::from_flags(2), Rule::Renju);
        assert_eq!(Rule::from_flags(4), Rule::Renju);
        assert_eq!(Rule::from_flags(5), Rule::Renju);
        assert_eq!(Rule::from_flags(8), Rule::Caro);
        assert_eq!(Rule::from_flags(9), Rule::CaroExact);
        assert_eq!(Rule::from_flags(3), Rule::Standard);
        assert_eq!(Rule::from_flags(10), Rule::Caro);
        assert_eq!(Rule::from_flags(12), Rule::Renju);
    }
}
