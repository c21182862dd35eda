//! The Gomocup (Piskvork) protocol, Gomoku's: the line parser ([`PiskvorkReader`], run by the
//! reader thread, one per session) and the output formats the Gomoku session
//! (`session/gomoku.rs`, engine thread) prints with.
//!
//! Commands are case-insensitive. A `BOARD`, `YXBOARD` or `SWAP2BOARD` block is gathered by
//! the reader across lines and handed over whole at `DONE`, so the engine thread never sees
//! half a position; `END` inside a block still ends the session at once. A malformed stone
//! line makes the whole block an error (answered with `ERROR` at `DONE`, the old position
//! kept). Another command word inside a block (a manager that started over mid-block) ends
//! the block as an error at once (see [`PiskvorkReader::take_interrupted`]), and the command
//! is read as usual. In `BOARD` and `YXBOARD` every stone has a third field, 1, 2 or 3; in
//! `SWAP2BOARD` it may be left out and, when given, is 1, 2 or 3 too. Commands that take no
//! arguments (all but `END`, which always ends) refuse any.

use nom::Parser;
use nom::character::complete::{char, space0};
use nom::combinator::{all_consuming, map_opt, opt};
use nom::sequence::{delimited, preceded};

use super::command::{Command, ParseError, Quoted};
use super::parse::Fail;

/// The memory limit a Piskvork manager means when it sends no `INFO max_memory` (or 0):
/// GomocupJudge's default, 350 MiB. The Gomoku session sizes its table under it, and
/// `qilin match` sends it to engines that set no limit of their own.
pub const DEFAULT_MAX_MEMORY: u64 = 350 << 20;

/// Every Piskvork and Yixin-board command word Qilin understands.
const WORDS: [&str; 18] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "INFO",
    "END",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "YXSTOP",
    "YXSHOWFORBID",
    "YXSHOWINFO",
    "YXHASHCLEAR",
    "SUGGEST",
];

/// True when `word` (the first word of a line) is a Piskvork command: it selects the
/// protocol on the first line.
pub fn is_piskvork_word(word: &str) -> bool {
    let upper = word.to_ascii_uppercase();
    WORDS.contains(&upper.as_str())
}

/// Which block a stone list came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `BOARD`: set the position, then move.
    Board,
    /// `YXBOARD`: set the position, no move.
    YxBoard,
    /// `SWAP2BOARD`: the swap2 opening stage.
    Swap2,
}

/// One stone of a block: `x,y,field` (field 1 own, 2 opponent, 3 a mark of a continuous
/// game). In a `SWAP2BOARD` block a bare `x,y` has field 0: colours alternate from black.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockStone {
    /// Column.
    pub x: usize,
    /// Row.
    pub y: usize,
    /// The third field, 0 when absent.
    pub field: u8,
}

/// A Piskvork command, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GomokuCommand {
    /// `START n` or `RECTSTART w,h`: a new empty board.
    Start {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the engine opens the game.
    Begin,
    /// `TURN x,y`: the opponent's move; the engine answers with its own.
    Turn(usize, usize),
    /// A whole block at `DONE`.
    Block {
        /// Which block.
        kind: BlockKind,
        /// The stones in the order given.
        stones: Vec<BlockStone>,
    },
    /// `INFO key value` (key lower-cased, value trimmed, possibly empty).
    Info {
        /// The key.
        key: String,
        /// The value.
        value: String,
    },
    /// `END`: leave at once.
    End,
    /// `ABOUT`.
    About,
    /// `TAKEBACK x,y`: remove that stone.
    TakeBack(usize, usize),
    /// `PLAY x,y`: play this move for the engine (after a `SUGGEST`) and echo it.
    Play(usize, usize),
    /// `YXSTOP`: answer with the best move found so far.
    YxStop,
    /// `YXSHOWFORBID`: list black's forbidden points.
    YxShowForbid,
    /// `YXSHOWINFO`: describe the engine's settings.
    YxShowInfo,
    /// `YXHASHCLEAR`: empty the transposition table.
    YxHashClear,
}

impl GomokuCommand {
    /// True for commands handled at once even while the engine thinks.
    pub fn is_urgent(&self) -> bool {
        matches!(self, GomokuCommand::End | GomokuCommand::YxStop)
    }
}

/// A non-negative decimal that fits `usize`.
fn size_value(input: &str) -> nom::IResult<&str, usize, Fail> {
    map_opt(nom::character::complete::u64, |n| usize::try_from(n).ok()).parse(input)
}

/// `x,y` with optional spaces around the numbers.
fn point(input: &str) -> nom::IResult<&str, (usize, usize), Fail> {
    (
        delimited(space0, size_value, space0),
        preceded(char(','), delimited(space0, size_value, space0)),
    )
        .parse(input)
}

/// `x,y` or `x,y,f`, the whole text, in a block of `kind`: `BOARD` and `YXBOARD` need the
/// field, `SWAP2BOARD` may leave it out; when given it is 1, 2 or 3.
fn stone(input: &str, kind: BlockKind) -> Result<BlockStone, ParseError> {
    let parsed = all_consuming((
        point,
        opt(preceded(char(','), delimited(space0, size_value, space0))),
    ))
    .parse(input);
    let Ok((_, ((x, y), field))) = parsed else {
        return Err(ParseError::BadPoint(input.to_string()));
    };
    let field_rule = "the third field must be 1 (own stone), 2 (opponent's) or 3 (a mark)";
    match field {
        Some(f @ 1..=3) => Ok(BlockStone {
            x,
            y,
            field: f as u8,
        }),
        None if kind == BlockKind::Swap2 => Ok(BlockStone { x, y, field: 0 }),
        None => Err(ParseError::Conflict(format!(
            "stone line {}: {field_rule}, and it is missing",
            Quoted(input)
        ))),
        Some(f) => Err(ParseError::Conflict(format!(
            "stone line {}: {field_rule}, not {f}",
            Quoted(input)
        ))),
    }
}

/// Exactly `x,y`, the whole text.
fn whole_point(text: &str) -> Result<(usize, usize), ParseError> {
    match all_consuming(point).parse(text) {
        Ok((_, p)) => Ok(p),
        Err(_) => Err(ParseError::BadPoint(text.to_string())),
    }
}

/// An open block: what it is, the stones so far, the first malformed line.
#[derive(Debug)]
struct OpenBlock {
    kind: BlockKind,
    stones: Vec<BlockStone>,
    error: Option<ParseError>,
}

/// Reader state across lines: an open `BOARD`-like block, and the error of a block that a
/// command word ended before its `DONE`.
#[derive(Debug, Default)]
pub struct PiskvorkReader {
    block: Option<OpenBlock>,
    interrupted: Option<ParseError>,
}

/// The block command's name, for messages.
fn block_name(kind: BlockKind) -> &'static str {
    match kind {
        BlockKind::Board => "BOARD",
        BlockKind::YxBoard => "YXBOARD",
        BlockKind::Swap2 => "SWAP2BOARD",
    }
}

/// Most stones a block may hold (a 32 x 32 board); more is an error, not a memory sink.
const MAX_BLOCK_STONES: usize = 32 * 32;

impl PiskvorkReader {
    /// The error of a block that the line just parsed ended before its `DONE` (a command
    /// word inside it), to be answered before that line's command.
    pub fn take_interrupted(&mut self) -> Option<ParseError> {
        self.interrupted.take()
    }

    /// Parses one non-empty line: `Ok(None)` for a line inside a block (the block comes
    /// whole at `DONE`). A command word inside a block ends the block: its error is then
    /// waiting in [`PiskvorkReader::take_interrupted`] and the command is returned.
    pub fn parse(&mut self, line: &str) -> Result<Option<Command>, ParseError> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((word, rest)) => (word, rest.trim()),
            None => (line, ""),
        };
        let upper = word.to_ascii_uppercase();
        if let Some(block) = self.block.as_mut() {
            match upper.as_str() {
                "DONE" => {
                    let Some(block) = self.block.take() else {
                        return Ok(None);
                    };
                    return match block.error {
                        Some(error) => Err(error),
                        None => Ok(Some(Command::Gomoku(GomokuCommand::Block {
                            kind: block.kind,
                            stones: block.stones,
                        }))),
                    };
                }
                "END" => {
                    self.block = None;
                    return Ok(Some(Command::Gomoku(GomokuCommand::End)));
                }
                _ if is_piskvork_word(word) => {
                    // The manager started over: the block is dropped, the command read.
                    let name = block_name(block.kind);
                    self.block = None;
                    self.interrupted = Some(ParseError::Conflict(format!(
                        "{name} block ended by {} before DONE; position unchanged",
                        Quoted(word)
                    )));
                }
                _ => {
                    if block.error.is_none() {
                        match stone(line, block.kind) {
                            Ok(_) if block.stones.len() >= MAX_BLOCK_STONES => {
                                block.error = Some(ParseError::Conflict(
                                    "too many stones in the block".to_string(),
                                ));
                            }
                            Ok(s) => block.stones.push(s),
                            Err(e) => block.error = Some(e),
                        }
                    }
                    return Ok(None);
                }
            }
        }
        let open = |kind| OpenBlock {
            kind,
            stones: Vec::new(),
            error: None,
        };
        let takes_arguments = matches!(
            upper.as_str(),
            "START" | "RECTSTART" | "TURN" | "TAKEBACK" | "PLAY" | "INFO" | "END"
        );
        if !rest.is_empty() && !takes_arguments && is_piskvork_word(word) {
            return Err(ParseError::Conflict(format!(
                "{upper} takes no arguments, got {}",
                Quoted(rest)
            )));
        }
        let command = match upper.as_str() {
            "START" => {
                let size = square_size(rest)?;
                GomokuCommand::Start {
                    width: size,
                    height: size,
                }
            }
            "RECTSTART" => {
                let (width, height) = whole_point(rest)?;
                GomokuCommand::Start { width, height }
            }
            "RESTART" => GomokuCommand::Restart,
            "BEGIN" => GomokuCommand::Begin,
            "TURN" => {
                let (x, y) = whole_point(rest)?;
                GomokuCommand::Turn(x, y)
            }
            "TAKEBACK" => {
                let (x, y) = whole_point(rest)?;
                GomokuCommand::TakeBack(x, y)
            }
            "PLAY" => {
                let (x, y) = whole_point(rest)?;
                GomokuCommand::Play(x, y)
            }
            "BOARD" => {
                self.block = Some(open(BlockKind::Board));
                return Ok(None);
            }
            "YXBOARD" => {
                self.block = Some(open(BlockKind::YxBoard));
                return Ok(None);
            }
            "SWAP2BOARD" => {
                self.block = Some(open(BlockKind::Swap2));
                return Ok(None);
            }
            "INFO" => {
                let (key, value) = match rest.split_once(char::is_whitespace) {
                    Some((key, value)) => (key, value.trim()),
                    None => (rest, ""),
                };
                if key.is_empty() {
                    return Err(ParseError::MissingValue("INFO"));
                }
                GomokuCommand::Info {
                    key: key.to_ascii_lowercase(),
                    value: value.to_string(),
                }
            }
            "END" => GomokuCommand::End,
            "ABOUT" => GomokuCommand::About,
            "YXSTOP" => GomokuCommand::YxStop,
            "YXSHOWFORBID" => GomokuCommand::YxShowForbid,
            "YXSHOWINFO" => GomokuCommand::YxShowInfo,
            "YXHASHCLEAR" => GomokuCommand::YxHashClear,
            _ => return Err(ParseError::UnknownCommand(word.to_string())),
        };
        Ok(Some(Command::Gomoku(command)))
    }
}

/// The size of `START n`.
fn square_size(text: &str) -> Result<usize, ParseError> {
    match all_consuming(delimited(space0, size_value, space0)).parse(text) {
        Ok((_, n)) => Ok(n),
        Err(_) if text.is_empty() => Err(ParseError::MissingValue("START")),
        Err(_) => Err(ParseError::NotANumber {
            keyword: "START",
            found: text.to_string(),
        }),
    }
}

/// The `ABOUT` line.
pub fn about_line(version: &str) -> String {
    format!(
        "name=\"Qilin\", version=\"{version}\", author=\"the Qilin developers\", \
         country=\"unknown\""
    )
}

/// The `YXSHOWFORBID` answer: `FORBID` then each point as four digits `xxyy`, then `.`.
pub fn forbid_line(points: &[(usize, usize)]) -> String {
    let mut line = String::from("FORBID ");
    for &(x, y) in points {
        line.push_str(&format!("{x:02}{y:02}"));
    }
    line.push('.');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(lines: &[&str]) -> Vec<Result<Option<Command>, ParseError>> {
        let mut reader = PiskvorkReader::default();
        lines.iter().map(|l| reader.parse(l)).collect()
    }

    fn gomoku(cmd: GomokuCommand) -> Result<Option<Command>, ParseError> {
        Ok(Some(Command::Gomoku(cmd)))
    }

    #[test]
    fn simple_commands_any_case() {
        let got = parse_all(&[
            "START 15",
            "rectstart 20,15",
            "Turn 7, 8",
            "BEGIN",
            "INFO timeout_turn 1000",
            "info RULE 4",
            "TAKEBACK 3,4",
            "PLAY 1,2",
            "yxstop",
            "ABOUT",
            "RESTART",
            "END",
        ]);
        assert_eq!(
            got,
            vec![
                gomoku(GomokuCommand::Start {
                    width: 15,
                    height: 15
                }),
                gomoku(GomokuCommand::Start {
                    width: 20,
                    height: 15
                }),
                gomoku(GomokuCommand::Turn(7, 8)),
                gomoku(GomokuCommand::Begin),
                gomoku(GomokuCommand::Info {
                    key: "timeout_turn".into(),
                    value: "1000".into()
                }),
                gomoku(GomokuCommand::Info {
                    key: "rule".into(),
                    value: "4".into()
                }),
                gomoku(GomokuCommand::TakeBack(3, 4)),
                gomoku(GomokuCommand::Play(1, 2)),
                gomoku(GomokuCommand::YxStop),
                gomoku(GomokuCommand::About),
                gomoku(GomokuCommand::Restart),
                gomoku(GomokuCommand::End),
            ]
        );
    }

    #[test]
    fn blocks_come_whole_at_done() {
        let got = parse_all(&["BOARD", "7,7,1", "8,8,2", "DONE"]);
        assert_eq!(got[..3], [Ok(None), Ok(None), Ok(None)]);
        assert_eq!(
            got[3],
            gomoku(GomokuCommand::Block {
                kind: BlockKind::Board,
                stones: vec![
                    BlockStone {
                        x: 7,
                        y: 7,
                        field: 1
                    },
                    BlockStone {
                        x: 8,
                        y: 8,
                        field: 2
                    }
                ]
            })
        );
        let got = parse_all(&["SWAP2BOARD", "7,7", "DONE"]);
        assert!(matches!(
            &got[2],
            Ok(Some(Command::Gomoku(GomokuCommand::Block { kind: BlockKind::Swap2, stones }))) if stones[0].field == 0
        ));
        // A bad line spoils the block; END inside a block ends at once.
        let got = parse_all(&["YXBOARD", "7,7,1", "x,y,1", "8,8,2", "DONE", "TURN 1,1"]);
        assert!(matches!(got[4], Err(ParseError::BadPoint(_))));
        assert_eq!(got[5], gomoku(GomokuCommand::Turn(1, 1)));
        let got = parse_all(&["BOARD", "7,7,1", "END"]);
        assert_eq!(got[2], gomoku(GomokuCommand::End));
    }

    #[test]
    fn bad_lines() {
        let got = parse_all(&[
            "TURN",
            "TURN 7",
            "TURN -1,2",
            "TURN 1,2,3",
            "START",
            "START x",
            "RECTSTART 10",
            "INFO",
            "HELLO there",
            "TURN 99999999999999999999999,1",
        ]);
        assert!(matches!(got[0], Err(ParseError::BadPoint(_))));
        assert!(matches!(got[1], Err(ParseError::BadPoint(_))));
        assert!(matches!(got[2], Err(ParseError::BadPoint(_))));
        assert!(matches!(got[3], Err(ParseError::BadPoint(_))));
        assert_eq!(got[4], Err(ParseError::MissingValue("START")));
        assert!(matches!(got[5], Err(ParseError::NotANumber { .. })));
        assert!(matches!(got[6], Err(ParseError::BadPoint(_))));
        assert_eq!(got[7], Err(ParseError::MissingValue("INFO")));
        assert_eq!(got[8], Err(ParseError::UnknownCommand("HELLO".into())));
        assert!(matches!(got[9], Err(ParseError::BadPoint(_))));
    }

    #[test]
    fn output_lines() {
        assert_eq!(forbid_line(&[(8, 7), (10, 3)]), "FORBID 08071003.");
        assert_eq!(forbid_line(&[]), "FORBID .");
        assert!(about_line("1.0").starts_with("name=\"Qilin\", version=\"1.0\""));
    }
}
