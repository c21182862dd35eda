//! Protocol text, both ways: the line parsers the reader thread runs (one file per protocol,
//! named after it) and the formatting of what the engine prints, over one vocabulary of typed
//! commands and errors.
//!
//! - [`command`]: the typed [`Command`](command::Command)s a line becomes, the typed
//!   [`ParseError`](command::ParseError)s it can produce, and the [`Protocol`](command::Protocol)
//!   a session speaks.
//! - `parse`: the nom building blocks the parsers share (words, numbers, times, moves, `position`).
//! - [`uci`], [`ucci`]: the two Xiangqi protocols (line parser, `id`/`option` handshake,
//!   `info` and `bestmove` lines).
//! - [`piskvork`]: Gomoku's Piskvork (Gomocup) protocol (line parser with `BOARD` blocks,
//!   `ABOUT` and `FORBID` lines).
//!
//! Nothing here holds session state or runs a search; the sessions (`protocol/session/`) call
//! these functions.

pub mod command;
pub(crate) mod parse;
pub mod piskvork;
pub mod ucci;
pub mod uci;
