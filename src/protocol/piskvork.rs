//! Recognises Piskvork (Gomocup) lines so that a Gomoku manager gets a clear answer while
//! Gomoku is not implemented yet: every command that expects a reply gets
//! `ERROR Gomoku is not supported yet`, `END` ends the session.

use super::command::{Command, ParseError};

/// Piskvork commands that expect an answer from the brain.
const ANSWERED: [&str; 12] = [
    "START",
    "RECTSTART",
    "BEGIN",
    "TURN",
    "TAKEBACK",
    "RESTART",
    "ABOUT",
    "PLAY",
    "SWAP2BOARD",
    "YXSHOWINFO",
    "YXSTOP",
    "SUGGEST",
];

/// True when `word` (the first word of a line) is a Piskvork command.
pub fn is_piskvork_word(word: &str) -> bool {
    let upper = word.to_ascii_uppercase();
    ANSWERED.contains(&upper.as_str()) || matches!(upper.as_str(), "BOARD" | "INFO" | "END")
}

/// Reader state across lines: inside a `BOARD` ... `DONE` block the lines are stone data.
#[derive(Debug, Default)]
pub struct PiskvorkReader {
    in_board: bool,
}

impl PiskvorkReader {
    /// Parses one line.
    pub fn parse(&mut self, line: &str) -> Result<Command, ParseError> {
        let word = line.split_whitespace().next().unwrap_or("");
        let upper = word.to_ascii_uppercase();
        if self.in_board {
            if upper == "DONE" {
                self.in_board = false;
                return Ok(Command::Gomoku { answer: true });
            }
            return Ok(Command::Gomoku { answer: false });
        }
        match upper.as_str() {
            "BOARD" => {
                self.in_board = true;
                Ok(Command::Gomoku { answer: false })
            }
            // INFO carries settings and gets no reply in Piskvork.
            "INFO" => Ok(Command::Gomoku { answer: false }),
            "END" => Ok(Command::GomokuEnd),
            w if ANSWERED.contains(&w) => Ok(Command::Gomoku { answer: true }),
            _ => Err(ParseError::UnknownCommand(word.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_block_is_answered_once() {
        let mut r = PiskvorkReader::default();
        assert_eq!(r.parse("BOARD"), Ok(Command::Gomoku { answer: false }));
        assert_eq!(r.parse("7,7,1"), Ok(Command::Gomoku { answer: false }));
        assert_eq!(r.parse("DONE"), Ok(Command::Gomoku { answer: true }));
        assert_eq!(r.parse("START 15"), Ok(Command::Gomoku { answer: true }));
        assert_eq!(r.parse("END"), Ok(Command::GomokuEnd));
        assert!(r.parse("FOO").is_err());
        assert!(is_piskvork_word("start"));
        assert!(!is_piskvork_word("uci"));
    }
}
