//! `qilin match`: runs engine-versus-engine matches between any engines that speak UCCI, UCI
//! or Piskvork, adjudicated by Qilin's own referees.

pub mod args;
pub mod clock;
pub mod game;
pub mod openings;
pub mod player;
pub mod process;
pub mod referee;
pub mod stats;
pub mod record;
