//! Gomoku: board with incremental line patterns, rules (freestyle, standard, renju with exact
//! forbidden points, caro), and the refereed game. Knows no protocol.

pub mod board;
pub mod pattern;
pub mod rules;
pub mod search;
pub mod types;

pub use board::{Board, Forbidden, SizeError};
pub use pattern::{Pattern, RuleTables, Threat};
pub use rules::{EndReason, Game, PlayError, Verdict};
pub use types::{Cell, Color, LineRule, MAX_SIDE, Rule, Stone};
