//! Qilin: a Gomoku and Xiangqi engine that speaks Piskvork, UCCI and UCI over stdin/stdout,
//! with match-running and rules tools for people and scripts.

pub mod cli;
pub mod engine;
pub mod fuzzing;
pub mod gomoku;
pub mod protocol;
pub mod quote;
pub mod serve;
pub mod tournament;
pub mod xiangqi;
