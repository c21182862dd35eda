//! Gomoku: board with incremental line patterns, rules (freestyle, standard, renju with exact
//! forbidden points, caro, and the one decoder of Piskvork rule numbers), the refereed game,
//! the search, and the engine's game decisions outside the search: the Swap2 opening
//! ([`swap2`]) and the move without a search ([`fallback`]). Knows no protocol.

pub mod board;
pub mod fallback;
pub mod pattern;
pub mod rules;
pub mod search;
pub mod swap2;
pub mod types;

pub use board::{Board, Forbidden, SizeError};
pub use pattern::{Pattern, RuleTables, Threat};
pub use rules::{EndReason, Game, PlayError, Verdict};
pub use types::{Cell, Color, LineRule, MAX_SIDE, Rule, Stone};
