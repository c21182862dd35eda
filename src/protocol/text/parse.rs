//! Shared nom building blocks for the line parsers (run on the reader thread): words, numbers with typed errors, move
//! lists and the `position` grammar. Every parser here returns a typed [`ParseError`] through
//! nom's `Failure` channel instead of panicking, whatever the input.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, digit1, multispace0};
use nom::combinator::{all_consuming, opt, recognize};
use nom::error::ErrorKind;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::command::{Clamped, ParseError, PositionBase, PositionCmd, RawTime, TIME_CAP};
use crate::xiangqi::Move;

/// The error type threaded through the nom parsers: either nom's own (a combinator did not
/// match, so the caller may try something else) or a typed, final [`ParseError`].
#[derive(Debug)]
pub(crate) enum Fail {
    /// A combinator did not match.
    Nom(ErrorKind),
    /// The input is definitely wrong, for this reason.
    Bad(ParseError),
}

impl<'a> nom::error::ParseError<&'a str> for Fail {
    fn from_error_kind(_input: &'a str, kind: ErrorKind) -> Self {
        Fail::Nom(kind)
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

/// Result of the parsers in this module.
pub(crate) type Res<'a, T> = IResult<&'a str, T, Fail>;

/// Fails for good with `error`.
pub(crate) fn bad<'a, T>(error: ParseError) -> Res<'a, T> {
    Err(nom::Err::Failure(Fail::Bad(error)))
}

/// Turns the outcome of a whole-line parser into the public result.
pub(crate) fn finish<T>(result: Res<'_, T>, command: &'static str) -> Result<T, ParseError> {
    match result {
        Ok((_, value)) => Ok(value),
        Err(nom::Err::Failure(Fail::Bad(e)) | nom::Err::Error(Fail::Bad(e))) => Err(e),
        Err(nom::Err::Error(Fail::Nom(kind)) | nom::Err::Failure(Fail::Nom(kind))) => {
            Err(ParseError::Unexpected {
                command,
                found: format!("(malformed: {})", kind.description()),
            })
        }
        Err(nom::Err::Incomplete(_)) => Err(ParseError::MissingValue(command)),
    }
}

/// The next whitespace-separated word.
pub(crate) fn word(input: &str) -> Res<'_, &str> {
    preceded(multispace0, take_while1(|c: char| !c.is_whitespace())).parse(input)
}

/// The next word if there is one (never fails).
pub(crate) fn next_word(input: &str) -> (&str, Option<&str>) {
    match word(input) {
        Ok((rest, w)) => (rest, Some(w)),
        Err(_) => (input, None),
    }
}

/// What is left of the line, trimmed.
pub(crate) fn rest_of_line(input: &str) -> &str {
    input.trim()
}

/// Unsigned decimal digits, whole word.
fn unsigned(text: &str) -> IResult<&str, &str, Fail> {
    all_consuming(digit1).parse(text)
}

/// `Negative` when the word was a negative number, else `NotANumber`.
fn sign_error(keyword: &'static str, text: &str, negative: bool) -> ParseError {
    let found = text.to_string();
    if negative {
        ParseError::Negative { keyword, found }
    } else {
        ParseError::NotANumber { keyword, found }
    }
}

/// Classifies a word that should have been a non-negative integer.
fn number_error(keyword: &'static str, text: &str) -> ParseError {
    let negative: IResult<&str, &str, Fail> =
        all_consuming(recognize(preceded(char('-'), digit1))).parse(text);
    if negative.is_err() && unsigned(text).is_ok() {
        ParseError::TooLarge {
            keyword,
            found: text.to_string(),
        }
    } else {
        sign_error(keyword, text, negative.is_ok())
    }
}

/// The next word as a non-negative integer that fits `T`, the value of `keyword`.
pub(crate) fn number<'a, T: TryFrom<u64>>(input: &'a str, keyword: &'static str) -> Res<'a, T> {
    let (rest, Some(text)) = next_word(input) else {
        return bad(ParseError::MissingValue(keyword));
    };
    let parsed: IResult<&str, u64, Fail> = all_consuming(nom::character::complete::u64).parse(text);
    match parsed.map(|(_, n)| T::try_from(n)) {
        Ok(Ok(n)) => Ok((rest, n)),
        _ => bad(number_error(keyword, text)),
    }
}

/// The value of `keyword` as a number, wrapped for an optional field.
pub(crate) fn some_number<'a, T: TryFrom<u64>>(
    input: &'a str,
    keyword: &'static str,
) -> Res<'a, Option<T>> {
    number(input, keyword).map(|(rest, n)| (rest, Some(n)))
}

/// The next word as a non-negative decimal time (`1500`, `1.5`), kept in thousandths of the
/// unit so that no floating point is involved.
pub(crate) fn raw_time<'a>(input: &'a str, keyword: &'static str) -> Res<'a, RawTime> {
    let (rest, Some(text)) = next_word(input) else {
        return bad(ParseError::MissingValue(keyword));
    };
    let parsed: IResult<&str, (&str, Option<&str>), Fail> =
        all_consuming((digit1, opt(preceded(char('.'), digit1)))).parse(text);
    let Ok((_, (int, frac))) = parsed else {
        let negative: IResult<&str, &str, Fail> = all_consuming(recognize(preceded(
            char('-'),
            (digit1, opt(preceded(char('.'), digit1))),
        )))
        .parse(text);
        return bad(sign_error(keyword, text, negative.is_ok()));
    };
    let too_large = || ParseError::TooLarge {
        keyword,
        found: text.to_string(),
    };
    let Ok(whole) = int.parse::<u64>() else {
        return bad(too_large());
    };
    // Three decimals are enough (milliseconds of seconds, microseconds of milliseconds).
    let mut thousandths = 0u64;
    let digits = frac.unwrap_or("").bytes().chain(std::iter::repeat(b'0'));
    for d in digits.take(3) {
        thousandths = thousandths * 10 + u64::from(d - b'0');
    }
    match whole
        .checked_mul(1000)
        .and_then(|w| w.checked_add(thousandths))
    {
        Some(v) => Ok((rest, RawTime(v))),
        None => bad(too_large()),
    }
}

/// Reads a time value with `read` (the value of `keyword`), replacing a negative one by 0
/// and one above [`TIME_CAP`] units by the cap, each replacement noted in `clamped`; other
/// errors (missing value, not a number) stay errors. `units` gives a value's whole units.
fn clamped_with<'a, T>(
    input: &'a str,
    keyword: &'static str,
    clamped: &mut Vec<Clamped>,
    read: impl Fn(&'a str, &'static str) -> Res<'a, T>,
    units: impl Fn(&T) -> u64,
    from_units: impl Fn(u64) -> T,
) -> Res<'a, Option<T>> {
    let (after, found) = next_word(input);
    let mut note = |used: u64| {
        clamped.push(Clamped {
            keyword,
            found: found.unwrap_or("").to_string(),
            used,
        });
        Ok((after, Some(from_units(used))))
    };
    match read(input, keyword) {
        Ok((_, t)) if units(&t) > TIME_CAP => note(TIME_CAP),
        Ok((rest, t)) => Ok((rest, Some(t))),
        Err(nom::Err::Failure(Fail::Bad(ParseError::Negative { .. }))) => note(0),
        Err(nom::Err::Failure(Fail::Bad(ParseError::TooLarge { .. }))) => note(TIME_CAP),
        Err(e) => Err(e),
    }
}

/// The value of `keyword` as a whole number of milliseconds (UCI clocks and `movetime`),
/// clamped into `0..=TIME_CAP` (see [`Clamped`]).
pub(crate) fn clamped_ms<'a>(
    input: &'a str,
    keyword: &'static str,
    clamped: &mut Vec<Clamped>,
) -> Res<'a, Option<u64>> {
    clamped_with(input, keyword, clamped, number::<u64>, |&n| n, |n| n)
}

/// The value of `keyword` as a UCCI time, clamped into `0..=TIME_CAP` units (see
/// [`Clamped`]).
pub(crate) fn clamped_time<'a>(
    input: &'a str,
    keyword: &'static str,
    clamped: &mut Vec<Clamped>,
) -> Res<'a, Option<RawTime>> {
    clamped_with(
        input,
        keyword,
        clamped,
        raw_time,
        |t| t.0 / 1000,
        |units| RawTime(units * 1000),
    )
}

/// One move word. Lenient about case and the ICCS dash (`H2-E2`), strict about the squares.
pub(crate) fn parse_move(text: &str) -> Result<Move, ParseError> {
    let cleaned: String = text
        .chars()
        .filter(|&c| c != '-')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let dash_ok = text.len() == 4 || (text.len() == 5 && text.as_bytes().get(2) == Some(&b'-'));
    match Move::parse(&cleaned) {
        Some(m) if dash_ok => Ok(m),
        _ => Err(ParseError::BadMove(text.to_string())),
    }
}

/// All remaining words as moves.
pub(crate) fn move_list(input: &str) -> Res<'_, Vec<Move>> {
    let mut moves = Vec::new();
    let mut rest = input;
    while let (after, Some(w)) = next_word(rest) {
        match parse_move(w) {
            Ok(m) => moves.push(m),
            Err(e) => return bad(e),
        }
        rest = after;
    }
    Ok((rest, moves))
}

/// `startpos [moves ...]` or `fen <FEN> [moves ...]` (after the `position`/`probe` keyword,
/// or as a bare line).
pub(crate) fn position_spec(input: &str) -> Res<'_, PositionCmd> {
    let base: Res<'_, &str> =
        preceded(multispace0, alt((tag("startpos"), tag("fen")))).parse(input);
    let Ok((rest, which)) = base else {
        return bad(ParseError::MissingPositionBase);
    };
    // The keyword must be a whole word.
    if rest.chars().next().is_some_and(|c| !c.is_whitespace()) {
        return bad(ParseError::MissingPositionBase);
    }
    let (rest, base) = if which == "startpos" {
        (rest, PositionBase::Startpos)
    } else {
        let mut fields = Vec::new();
        let mut rest = rest;
        while let (after, Some(w)) = next_word(rest) {
            if w == "moves" {
                break;
            }
            fields.push(w);
            rest = after;
        }
        if fields.is_empty() {
            return bad(ParseError::EmptyFen);
        }
        (rest, PositionBase::Fen(fields.join(" ")))
    };
    let (rest, moves) = match next_word(rest) {
        (_, None) => (rest, Vec::new()),
        (after, Some("moves")) => move_list(after)?,
        (_, Some(other)) => {
            return bad(ParseError::Unexpected {
                command: "position",
                found: other.to_string(),
            });
        }
    };
    Ok((rest, PositionCmd { base, moves }))
}

/// Parses a check-box value.
pub(crate) fn parse_bool(name: &str, value: Option<&str>) -> Result<bool, ParseError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true" | "on" | "1" | "yes") => Ok(true),
        Some("false" | "off" | "0" | "no") => Ok(false),
        _ => Err(ParseError::BadOptionValue {
            name: name.to_string(),
            value: value.unwrap_or("").to_string(),
            expected: "true or false",
        }),
    }
}

/// Parses a spin value within `min..=max`.
pub(crate) fn parse_spin(
    name: &str,
    value: Option<&str>,
    min: u64,
    max: u64,
    expected: &'static str,
) -> Result<u64, ParseError> {
    let text = value.unwrap_or("").trim();
    let parsed: IResult<&str, u64, Fail> = all_consuming(nom::character::complete::u64).parse(text);
    match parsed {
        Ok((_, n)) if (min..=max).contains(&n) => Ok(n),
        _ => Err(ParseError::BadOptionValue {
            name: name.to_string(),
            value: text.to_string(),
            expected,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_typed_errors() {
        assert_eq!(number::<u32>(" 12 x", "depth").map(|r| r.1).ok(), Some(12));
        let err = |r: Res<'_, u32>| match r {
            Err(nom::Err::Failure(Fail::Bad(e))) => Some(e),
            _ => None,
        };
        assert_eq!(
            err(number::<u32>("", "depth")),
            Some(ParseError::MissingValue("depth"))
        );
        assert!(matches!(
            err(number::<u32>(" -3", "depth")),
            Some(ParseError::Negative { .. })
        ));
        assert!(matches!(
            err(number::<u32>(" 3x", "depth")),
            Some(ParseError::NotANumber { .. })
        ));
        assert!(matches!(
            err(number::<u32>(" 99999999999", "depth")),
            Some(ParseError::TooLarge { .. })
        ));
    }

    #[test]
    fn times_keep_thousandths() {
        assert_eq!(
            raw_time(" 1.5", "time").map(|r| r.1).ok(),
            Some(RawTime(1500))
        );
        assert_eq!(
            raw_time("1000", "time").map(|r| r.1).ok(),
            Some(RawTime(1_000_000))
        );
        assert_eq!(
            raw_time("0.0125", "time").map(|r| r.1).ok(),
            Some(RawTime(12))
        );
        assert!(raw_time("-1", "time").is_err());
        assert!(raw_time("1.", "time").is_err());
        assert!(raw_time("", "time").is_err());
    }

    #[test]
    fn go_times_are_clamped_not_refused() {
        let mut notes = Vec::new();
        let ms = |text, notes: &mut Vec<Clamped>| clamped_ms(text, "wtime", notes).ok();
        assert_eq!(ms(" 1500 x", &mut notes), Some((" x", Some(1500))));
        assert!(notes.is_empty());
        assert_eq!(ms(" -50 btime 3", &mut notes), Some((" btime 3", Some(0))));
        assert_eq!(
            ms(" 99999999999999999999", &mut notes),
            Some(("", Some(TIME_CAP)))
        );
        assert_eq!(ms(" 1000000000001", &mut notes), Some(("", Some(TIME_CAP))));
        assert_eq!(
            notes.iter().map(ToString::to_string).collect::<Vec<_>>(),
            [
                "'wtime' '-50' read as 0",
                "'wtime' '99999999999999999999' read as 1000000000000",
                "'wtime' '1000000000001' read as 1000000000000",
            ]
        );
        assert!(clamped_ms(" fast", "wtime", &mut notes).is_err());
        assert!(clamped_ms("", "wtime", &mut notes).is_err());
        let time =
            |text, notes: &mut Vec<Clamped>| clamped_time(text, "time", notes).map(|(_, t)| t).ok();
        assert_eq!(time(" -5", &mut notes), Some(Some(RawTime(0))));
        assert_eq!(time(" -0.5", &mut notes), Some(Some(RawTime(0))));
        assert_eq!(time(" 1.5", &mut notes), Some(Some(RawTime(1500))));
        assert_eq!(
            time(" 99999999999999999999", &mut notes),
            Some(Some(RawTime(TIME_CAP * 1000)))
        );
        assert!(clamped_time(" 1.", "time", &mut notes).is_err());
    }

    #[test]
    fn moves_are_checked_word_by_word() {
        assert_eq!(parse_move("h2e2").map(|m| m.to_string()), Ok("h2e2".into()));
        assert_eq!(
            parse_move("H2-E2").map(|m| m.to_string()),
            Ok("h2e2".into())
        );
        assert!(parse_move("h2e").is_err());
        assert!(parse_move("j2e2").is_err());
        assert!(parse_move("h2h2").is_err());
        assert!(parse_move("h2e2x").is_err());
        assert!(parse_move("h-2e2").is_err());
        assert!(parse_move("é2e2").is_err());
    }

    #[test]
    fn position_grammar() {
        let (_, p) = position_spec(" startpos moves h2e2 h9g7").expect("parses");
        assert_eq!(p.base, PositionBase::Startpos);
        assert_eq!(p.moves.len(), 2);
        let (_, p) = position_spec(" fen 9/9/9 w - - 0 1 moves").expect("parses");
        assert_eq!(p.base, PositionBase::Fen("9/9/9 w - - 0 1".into()));
        assert!(p.moves.is_empty());
        assert!(position_spec(" fen").is_err());
        assert!(position_spec(" fen moves h2e2").is_err());
        assert!(position_spec(" startposx").is_err());
        assert!(position_spec(" startpos h2e2").is_err());
        assert!(position_spec(" startpos moves h2e2 zz").is_err());
        assert!(position_spec("").is_err());
    }
}
