//! Engine-thread sessions: what each command means for a game, the game's state between
//! commands, and the searches it starts. Every session runs on the engine thread (the one
//! that called [`run_session`](super::run_session)); the reader thread only sends it typed
//! inputs, and the search thread gets the searcher for one search and hands it back.
//!
//! - `shared`: the session core every game uses (select loop, command queue, search
//!   thread trips, watchdog, quit grace, output) and the `FrontEnd` trait a game implements.
//! - `xiangqi`: the Xiangqi front end, shared by UCI and UCCI.
//! - `gomoku`: the Gomoku front end for Piskvork (Gomocup); game decisions (Swap2, the quick
//!   move) come from [`crate::gomoku`].
//! - `notes`: option notes both front ends print in their own message form.

pub(crate) mod gomoku;
mod notes;
pub(crate) mod shared;
pub(crate) mod xiangqi;
