//! A small JSON reader for the match runner's own records (`qilin match-merge` reads them
//! back): objects, arrays, strings with every escape, numbers, `true`, `false`, `null`.

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, its members in file order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parses one JSON text (surrounding white space allowed, nothing else after it).
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = reader.value(0)?;
        reader.space();
        if reader.at != reader.bytes.len() {
            return Err(format!("unexpected text at byte {}", reader.at));
        }
        Ok(value)
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// The number as an unsigned integer, if it is one.
    pub fn as_usize(&self) -> Option<usize> {
        match *self {
            Json::Number(n) if n >= 0.0 && n.fract() == 0.0 && n < 9e15 => Some(n as usize),
            _ => None,
        }
    }
}

/// Nesting deeper than this is refused (records are two levels deep).
const MAX_DEPTH: usize = 64;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn fail<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.at))
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            self.fail("not a JSON value")
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return self.fail("too deeply nested");
        }
        self.space();
        match self.bytes.get(self.at) {
            None => self.fail("unexpected end"),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(_) => self.number(),
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        while self.at < self.bytes.len()
            && matches!(
                self.bytes[self.at],
                b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'
            )
        {
            self.at += 1;
        }
        std::str::from_utf8(&self.bytes[start..self.at])
            .ok()
            .and_then(|text| text.parse().ok())
            .map(Json::Number)
            .map_or_else(|| self.fail("not a number"), Ok)
    }

    /// A separator or the closing bracket of a list: true when the list goes on.
    fn next_item(&mut self, close: u8) -> Result<bool, String> {
        self.space();
        match self.bytes.get(self.at) {
            Some(b',') => {
                self.at += 1;
                Ok(true)
            }
            Some(&c) if c == close => {
                self.at += 1;
                Ok(false)
            }
            _ => self.fail("expected ',' or a closing bracket"),
        }
    }

    fn empty(&mut self, close: u8) -> bool {
        self.space();
        if self.bytes.get(self.at) == Some(&close) {
            self.at += 1;
            return true;
        }
        false
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut items = Vec::new();
        if self.empty(b']') {
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            if !self.next_item(b']')? {
                return Ok(Json::Array(items));
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.at += 1;
        let mut members = Vec::new();
        if self.empty(b'}') {
            return Ok(Json::Object(members));
        }
        loop {
            self.space();
            if self.bytes.get(self.at) != Some(&b'"') {
                return self.fail("expected a member name");
            }
            let key = self.string()?;
            self.space();
            if self.bytes.get(self.at) != Some(&b':') {
                return self.fail("expected ':'");
            }
            self.at += 1;
            members.push((key, self.value(depth + 1)?));
            if !self.next_item(b'}')? {
                return Ok(Json::Object(members));
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok());
        match digits {
            Some(value) => {
                self.at += 4;
                Ok(value)
            }
            None => self.fail("bad \\u escape"),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while self.at < self.bytes.len() && !matches!(self.bytes[self.at], b'"' | b'\\') {
                self.at += 1;
            }
            match std::str::from_utf8(&self.bytes[start..self.at]) {
                Ok(text) => out.push_str(text),
                Err(_) => return self.fail("invalid UTF-8"),
            }
            match self.bytes.get(self.at) {
                None => return self.fail("unterminated string"),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(_) => {}
            }
            self.at += 1;
            let escape = self.bytes.get(self.at).copied();
            self.at += 1;
            let c = match escape {
                Some(b'"') => '"',
                Some(b'\\') => '\\',
                Some(b'/') => '/',
                Some(b'b') => '\u{8}',
                Some(b'f') => '\u{c}',
                Some(b'n') => '\n',
                Some(b'r') => '\r',
                Some(b't') => '\t',
                Some(b'u') => {
                    let first = self.hex4()?;
                    let code = if (0xd800..0xdc00).contains(&first)
                        && self.bytes[self.at..].starts_with(b"\\u")
                    {
                        self.at += 2;
                        let low = self.hex4()?;
                        0x10000 + ((first - 0xd800) << 10) + (low.wrapping_sub(0xdc00) & 0x3ff)
                    } else {
                        first
                    };
                    char::from_u32(code).unwrap_or('\u{fffd}')
                }
                _ => return self.fail("bad escape"),
            };
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::record::push_json_string;

    #[test]
    fn reads_what_the_records_write() {
        let text = "a\"b\\c\nd\u{1}é\u{2028}";
        let mut quoted = String::new();
        push_json_string(&mut quoted, text);
        assert_eq!(
            Json::parse(&quoted).unwrap(),
            Json::String(text.to_string())
        );
        let value =
            Json::parse(r#" {"game": 12, "x": [true, null, -1.5e2], "s": "\ud83d\ude00\/"} "#)
                .unwrap();
        assert_eq!(value.get("game").and_then(Json::as_usize), Some(12));
        assert_eq!(
            value.get("x"),
            Some(&Json::Array(vec![
                Json::Bool(true),
                Json::Null,
                Json::Number(-150.0)
            ]))
        );
        assert_eq!(value.get("s").and_then(Json::as_str), Some("😀/"));
    }

    #[test]
    fn refuses_broken_text() {
        for bad in [
            "",
            "{",
            "{\"a\":1",
            "{\"a\" 1}",
            "[1,]",
            "\"abc",
            "tru",
            "{} x",
            "\"\\q\"",
        ] {
            assert!(Json::parse(bad).is_err(), "{bad:?} was accepted");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(Json::parse(&deep).is_err());
    }
}
