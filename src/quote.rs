//! Input quoted back in messages: escaped and cut short, so that an error about a hostile
//! line is one short line of plain text.

use std::fmt;

/// The most characters of a piece of input quoted back in a message.
pub const QUOTE_LIMIT: usize = 60;

/// Input text as a message may show it: control characters escaped (`\n`, `\u{1b}`) so
/// that one line of output stays one line of plain text, and cut after [`QUOTE_LIMIT`]
/// characters with the full length in bytes said (an unknown megabyte line is not echoed).
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a>(pub &'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut chars = self.0.chars();
        for c in chars.by_ref().take(QUOTE_LIMIT) {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        if chars.next().is_some() {
            write!(f, "... ({} bytes)", self.0.len())?;
        }
        Ok(())
    }
}

/// [`Shown`] between single quotes.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", Shown(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_long_text_is_cut() {
        assert_eq!(Quoted("go").to_string(), "'go'");
        assert_eq!(Shown("a\u{1b}[2Jb\r").to_string(), "a\\u{1b}[2Jb\\r");
        let long = "x".repeat(1 << 20);
        let shown = Quoted(&long).to_string();
        assert_eq!(
            shown,
            format!("'{}... (1048576 bytes)'", "x".repeat(QUOTE_LIMIT))
        );
        let exactly = "y".repeat(QUOTE_LIMIT);
        assert_eq!(Shown(&exactly).to_string(), exactly);
        // Cut on a character boundary, never inside one.
        let wide = "\u{5e05}".repeat(100);
        assert!(
            Shown(&wide)
                .to_string()
                .starts_with(&"\u{5e05}".repeat(QUOTE_LIMIT))
        );
    }
}
