//! Static win checks and move generation by threat state, both read from the board's
//! incremental threat classes and counts.

use super::eval::line_sum;
use super::pos::Pos;
use super::weights::{ORDER_CELL, ORDER_LINE};
use crate::gomoku::pattern::HALF_WINDOW;
use crate::gomoku::{Cell, Color, Rule, Threat};

/// Number of empty cells where `color` makes a four of any kind (a five point after it).
#[inline]
pub fn four_cells(pos: &Pos, color: Color) -> usize {
    let b = &pos.board;
    b.threat_count(color, Threat::Block4)
        + b.threat_count(color, Threat::Block4Plus)
        + b.threat_count(color, Threat::Block4Flex3)
        + b.threat_count(color, Threat::Flex4)
}

/// True when black under renju may not play `cell`.
#[inline]
pub fn forbidden_for(pos: &Pos, cell: Cell, color: Color) -> bool {
    color == Color::Black && pos.board.is_forbidden(cell)
}

/// True when `color` is renju black (forbidden points and fake threes apply).
#[inline]
pub fn renju_black(pos: &Pos, color: Color) -> bool {
    color == Color::Black && pos.board.rule() == Rule::Renju
}

/// True under caro rules, where a block can also close the other end of a five.
#[inline]
pub fn is_caro(pos: &Pos) -> bool {
    matches!(pos.board.rule(), Rule::Caro | Rule::CaroExact)
}

/// The cells among `att`'s five points `fives` where the other colour stops every five at
/// once (none when two fives are independent; under caro one block can also close the other
/// five's far end). A black defender cannot use a forbidden point.
pub fn real_blocks(pos: &mut Pos, att: Color, fives: &[Cell]) -> Vec<Cell> {
    let def = att.flip();
    let mut out = Vec::new();
    if fives.len() >= 2 && !is_caro(pos) {
        return out;
    }
    if fives.len() == 1 {
        if !forbidden_for(pos, fives[0], def) {
            out.push(fives[0]);
        }
        return out;
    }
    // Caro: a block on `f` can stop another five point by closing that five's far end. When
    // `fives` are all of the attacker's five points, the line tables tell without playing
    // `f`: a defender's stone only lowers the attacker's classes, on the lines through it
    // (and caro has no forbidden points).
    let complete = pos.board.threat_count(att, Threat::Five) == fives.len();
    for &f in fives {
        if forbidden_for(pos, f, def) {
            continue;
        }
        let stopped = if complete {
            let board = &pos.board;
            fives
                .iter()
                .all(|&g| g == f || board.threat_if_blocked(g, att, f) < Threat::Five)
        } else {
            pos.try_play_as(f, def);
            let stopped = pos.board.threat_count(att, Threat::Five) == 0;
            pos.undo();
            stopped
        };
        if stopped {
            out.push(f);
        }
    }
    out
}

/// True when the side to move's four on `cell` cannot be stopped (two fives no single block
/// stops; under caro checked by trying each block).
fn open_four_is_real(pos: &mut Pos, cell: Cell) -> bool {
    if !is_caro(pos) {
        return true;
    }
    let us = pos.us();
    let mut fives = Vec::with_capacity(4);
    pos.try_play(cell);
    pos.fives_around(cell, us, &mut fives);
    let real = !fives.is_empty() && real_blocks(pos, us, &fives).is_empty();
    pos.undo();
    real
}

/// The side to move's first open-four point that really wins.
fn real_open_four(pos: &mut Pos) -> Option<Cell> {
    let us = pos.us();
    if !is_caro(pos) {
        return pos.find(us, Threat::Flex4);
    }
    let mut cells = Vec::new();
    pos.cells_with(us, Threat::Flex4, &mut cells);
    cells.retain(|&c| pos.board.threat(c, us) == Threat::Flex4);
    cells.into_iter().find(|&c| open_four_is_real(pos, c))
}

/// `color`'s open-four points that really win (checked with `color` to move).
fn real_open_fours(pos: &mut Pos, color: Color) -> Vec<Cell> {
    let saved = pos.us();
    pos.board.set_side_to_move(color);
    let mut cells = Vec::new();
    pos.cells_with(color, Threat::Flex4, &mut cells);
    cells.retain(|&c| pos.board.threat(c, color) == Threat::Flex4);
    cells.retain(|&c| open_four_is_real(pos, c));
    pos.board.set_side_to_move(saved);
    cells
}

/// True when `color` could make an open four (or four-four) that no block stops: by the
/// counts, and under caro checked by playing it (with `color` to move for the check).
pub fn threatens_open_four(pos: &mut Pos, color: Color) -> bool {
    if pos.board.threat_count(color, Threat::Flex4) == 0 {
        return false;
    }
    if !is_caro(pos) {
        return true;
    }
    let saved = pos.us();
    pos.board.set_side_to_move(color);
    let real = real_open_four(pos).is_some();
    pos.board.set_side_to_move(saved);
    real
}

/// With the side to move's four-three on `cell`: after the forced block, does the three
/// still make a straight four (renju black: on a point that is not forbidden)?
fn four_three_is_real(pos: &mut Pos, cell: Cell) -> bool {
    let us = pos.us();
    let mut fives = Vec::with_capacity(4);
    pos.try_play(cell);
    pos.fives_around(cell, us, &mut fives);
    let real = if fives.len() >= 2 {
        true
    } else if let Some(&block) = fives.first() {
        pos.try_play(block);
        let real = pos.board.threat_count(us, Threat::Flex4) > 0 && real_open_four(pos).is_some();
        pos.undo();
        real
    } else {
        false
    };
    pos.undo();
    real
}

/// A win the side to move has by the threat classes alone: `(plies to the five, first move)`.
/// Own five (1 ply); when the opponent has no five point: an open four or four-four
/// (3 plies); a four-three when the opponent cannot make any four (5 plies), real for renju
/// black.
pub fn static_win(pos: &mut Pos) -> Option<(usize, Cell)> {
    let us = pos.us();
    let them = us.flip();
    if pos.board.threat_count(us, Threat::Five) > 0 {
        return pos.find(us, Threat::Five).map(|c| (1, c));
    }
    if pos.board.threat_count(them, Threat::Five) > 0 {
        return None;
    }
    if pos.board.threat_count(us, Threat::Flex4) > 0
        && let Some(c) = real_open_four(pos)
    {
        return Some((3, c));
    }
    if pos.board.threat_count(us, Threat::Block4Flex3) > 0 && four_cells(pos, them) == 0 {
        let mut cells = Vec::new();
        pos.cells_with(us, Threat::Block4Flex3, &mut cells);
        for c in cells {
            if pos.board.threat(c, us) != Threat::Block4Flex3 {
                continue;
            }
            if !(renju_black(pos, us) || is_caro(pos)) || four_three_is_real(pos, c) {
                return Some((5, c));
            }
        }
    }
    None
}

/// What the side to move may play, by the threat state (after [`static_win`] found nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gen {
    /// Lost whatever is played: the opponent makes five this many plies from here.
    Lost(usize),
    /// Only this move (blocking the opponent's five point).
    Forced(Cell),
    /// Only these moves: the defences against the opponent's open three (or four-four
    /// point), and the side to move's own fours.
    Defend(Vec<Cell>),
    /// Every candidate cell.
    All,
}

/// The threat state of the side to move.
pub fn generate(pos: &mut Pos) -> Gen {
    let us = pos.us();
    let them = us.flip();
    if pos.board.threat_count(them, Threat::Five) > 0 {
        let mut fives = Vec::new();
        pos.cells_with(them, Threat::Five, &mut fives);
        let blocks = real_blocks(pos, them, &fives);
        return match blocks.len() {
            0 => Gen::Lost(2),
            1 => Gen::Forced(blocks[0]),
            _ => Gen::Defend(blocks),
        };
    }
    if threatens_open_four(pos, them) {
        let mut moves = defences(pos, us);
        let mut own = Vec::new();
        pos.cells_with(us, Threat::Block4, &mut own);
        for c in own {
            if !moves.contains(&c) {
                moves.push(c);
            }
        }
        if moves.is_empty() {
            return Gen::Lost(4);
        }
        return Gen::Defend(moves);
    }
    Gen::All
}

/// The cells where `us` (to move) removes every open-four point of the opponent, found
/// among the opponent's four points.
///
/// Where the open-four points are decided by the line patterns alone (not caro, whose check
/// plays the four; not renju black, whose forbidden points a distant stone can change), a
/// stone only lowers the opponent's classes, and only on the cells whose line windows hold
/// it: a try is a defence when every open-four point is the try itself or falls below an
/// open four with the try's stone on its line, read from the line tables without playing.
/// Otherwise each try is played and the counts looked at.
pub fn defences(pos: &mut Pos, us: Color) -> Vec<Cell> {
    let them = us.flip();
    let mut tries = Vec::new();
    pos.cells_with(them, Threat::Block4, &mut tries);
    let mut out = Vec::new();
    if is_caro(pos) || renju_black(pos, them) {
        // Under caro an open-four point that really wins keeps doing so unless the try is
        // on one of its lines within five (its five points and their far ends are there).
        let targets = if is_caro(pos) {
            real_open_fours(pos, them)
        } else {
            Vec::new()
        };
        for d in tries {
            if forbidden_for(pos, d, us) || !targets.iter().all(|&f| f == d || in_line_window(f, d))
            {
                continue;
            }
            pos.try_play_as(d, us);
            let ok = !threatens_open_four(pos, them);
            pos.undo();
            if ok {
                out.push(d);
            }
        }
        return out;
    }
    let board = &pos.board;
    let targets: Vec<Cell> = tries
        .iter()
        .copied()
        .filter(|&c| board.threat(c, them) == Threat::Flex4)
        .collect();
    for d in tries {
        if forbidden_for(pos, d, us) {
            continue;
        }
        let stops = |f: Cell| {
            f == d || (in_line_window(f, d) && board.threat_if_blocked(f, them, d) < Threat::Flex4)
        };
        if targets.iter().all(|&f| stops(f)) {
            out.push(d);
        }
    }
    out
}

/// True when a stone on `other` is inside one of the line windows that decide `cell`'s
/// patterns (the same cell, or on a common line at most [`HALF_WINDOW`] away).
#[inline]
pub fn in_line_window(cell: Cell, other: Cell) -> bool {
    let dx = cell.x().abs_diff(other.x());
    let dy = cell.y().abs_diff(other.y());
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= HALF_WINDOW
}

/// Move-ordering value of `cell` for `us`: the pair of both sides' classes there (attack and
/// defence) and the pair of both sides' patterns on each line through it.
#[inline]
pub fn order_value(pos: &Pos, cell: Cell, us: Color) -> i32 {
    let b = &pos.board;
    let them = us.flip();
    ORDER_CELL[b.threat(cell, us) as usize][b.threat(cell, them) as usize]
        + line_sum(
            &ORDER_LINE,
            b.pattern_word(cell, us),
            b.pattern_word(cell, them),
        )
}

/// True for moves that late-move pruning must leave alone (and late-move reductions at the
/// root, and under renju in the tree): own threes and better, and cells where the opponent
/// would make a three or better.
#[inline]
pub fn is_tactical(pos: &Pos, cell: Cell, us: Color) -> bool {
    let b = &pos.board;
    b.threat(cell, us) >= Threat::Flex3 || b.threat(cell, us.flip()) >= Threat::Flex3
}

#[cfg(test)]
mod tests {
    use super::super::pos::tests::{ALL_RULES, test_game_start};
    use super::*;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// Plays a random move for the side to move, mostly one that makes a two or better (so
    /// that threes and fours come often); false when there is no legal candidate.
    fn play_near_threats(pos: &mut Pos, rng: &mut Xoshiro256PlusPlus) -> bool {
        let us = pos.us();
        let mut cells = Vec::new();
        pos.for_each_candidate(|c| {
            if !forbidden_for(pos, c, us) {
                cells.push(c);
            }
        });
        if cells.is_empty() {
            return false;
        }
        let mut strong: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&c| pos.board.threat(c, us) >= Threat::Flex2)
            .collect();
        if strong.is_empty() || rng.random_range(0..4) == 0 {
            strong = cells;
        }
        let c = strong[rng.random_range(0..strong.len())];
        pos.play(c);
        true
    }

    /// The defences found by trying every cell where the opponent makes a four, without the
    /// reach filter: what [`defences`] returned before it.
    fn defences_by_trial(pos: &mut Pos, us: Color) -> Vec<Cell> {
        let them = us.flip();
        let mut tries = Vec::new();
        pos.cells_with(them, Threat::Block4, &mut tries);
        tries
            .into_iter()
            .filter(|&d| {
                if forbidden_for(pos, d, us) {
                    return false;
                }
                pos.play_as(d, us);
                let ok = !threatens_open_four(pos, them);
                pos.undo();
                ok
            })
            .collect()
    }

    #[test]
    fn line_window_reach() {
        let at = |x, y| Cell::from_xy(x, y).expect("on the board");
        assert!(in_line_window(at(7, 7), at(7, 7)));
        assert!(in_line_window(at(7, 7), at(12, 7)));
        assert!(in_line_window(at(7, 7), at(2, 12)));
        assert!(!in_line_window(at(7, 7), at(13, 7)));
        assert!(!in_line_window(at(7, 7), at(8, 9)));
        assert!(!in_line_window(at(7, 7), at(1, 1)));
    }

    /// Along random games under every rule, at each position where the opponent threatens
    /// an open four, the filtered defences are exactly the ones found by trying every four
    /// point of the opponent.
    #[test]
    fn filtered_defences_equal_the_full_trial() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(32);
        let mut checked = [0usize; 5];
        for (r, rule) in ALL_RULES.into_iter().enumerate() {
            for game in 0..60 {
                let mut pos = test_game_start(rule, game);
                let size = pos.board.width();
                for _ in 0..size * size / 2 {
                    if pos.board.threat_count(Color::Black, Threat::Five) > 0
                        || pos.board.threat_count(Color::White, Threat::Five) > 0
                    {
                        break;
                    }
                    let us = pos.us();
                    if threatens_open_four(&mut pos, us.flip()) {
                        let fast = defences(&mut pos, us);
                        let full = defences_by_trial(&mut pos, us);
                        assert_eq!(fast, full, "{rule:?} position {:?}", pos.board);
                        checked[r] += 1;
                    }
                    if !play_near_threats(&mut pos, &mut rng) {
                        break;
                    }
                }
            }
        }
        for (r, n) in checked.iter().enumerate() {
            assert!(*n >= 100, "{:?}: only {n} positions checked", ALL_RULES[r]);
        }
    }

    /// [`real_blocks`] by playing each block and looking at the five count: what it did
    /// before it read caro blocks from the line tables.
    fn real_blocks_by_play(pos: &mut Pos, att: Color, fives: &[Cell]) -> Vec<Cell> {
        let def = att.flip();
        if fives.len() >= 2 && !is_caro(pos) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &f in fives {
            if forbidden_for(pos, f, def) {
                continue;
            }
            pos.play_as(f, def);
            if pos.board.threat_count(att, Threat::Five) == 0 {
                out.push(f);
            }
            pos.undo();
        }
        out
    }

    /// Along random games under every rule: after each four the side to move can make, the
    /// blocks [`real_blocks`] finds are the ones found by playing them, and so are those of
    /// every position where a side has five points. Caro must meet two or more five points
    /// often, since only there the tables decide.
    #[test]
    fn blocks_read_from_tables_equal_played_blocks() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(34);
        let mut multi = [0usize; 5];
        for (r, rule) in ALL_RULES.into_iter().enumerate() {
            for game in 0..40 {
                let mut pos = test_game_start(rule, game);
                let size = pos.board.width();
                for _ in 0..size * size / 2 {
                    let us = pos.us();
                    for color in Color::BOTH {
                        let mut fives = Vec::new();
                        pos.cells_with(color, Threat::Five, &mut fives);
                        if !fives.is_empty() {
                            let fast = real_blocks(&mut pos, color, &fives);
                            let slow = real_blocks_by_play(&mut pos, color, &fives);
                            assert_eq!(fast, slow, "{rule:?} {:?}", pos.board);
                        }
                    }
                    if pos.board.threat_count(us, Threat::Five) > 0
                        || pos.board.threat_count(us.flip(), Threat::Five) > 0
                    {
                        break;
                    }
                    let mut fours = Vec::new();
                    pos.cells_with(us, Threat::Block4, &mut fours);
                    for c in fours {
                        if forbidden_for(&pos, c, us) {
                            continue;
                        }
                        pos.play(c);
                        let mut fives = Vec::new();
                        pos.fives_around(c, us, &mut fives);
                        let fast = real_blocks(&mut pos, us, &fives);
                        let slow = real_blocks_by_play(&mut pos, us, &fives);
                        assert_eq!(fast, slow, "{rule:?} after {c} {:?}", pos.board);
                        multi[r] += (fives.len() >= 2) as usize;
                        pos.undo();
                    }
                    if !play_near_threats(&mut pos, &mut rng) {
                        break;
                    }
                }
            }
        }
        for (r, rule) in ALL_RULES.into_iter().enumerate() {
            if is_caro(&Pos::new(&test_game_start(rule, 0).board)) {
                assert!(multi[r] >= 100, "{rule:?}: only {} double fives", multi[r]);
            }
        }
    }
}
