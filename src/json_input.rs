//! Reading JSON files strictly: a size cap, UTF-8 only, duplicate keys rejected, numbers that
//! do not fit an f64 rejected, every failure located by line and column.

use crate::diagnostic::Coded;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest JSON document the tool reads (grading entries are a few KiB).
pub const MAX_JSON_BYTES: u64 = 16 * 1024 * 1024;

/// Marks a duplicate-key error inside serde's opaque error text.
const DUPLICATE_MARK: &str = "duplicate key ";

#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("no such file")]
    NotFound(PathBuf),
    #[error("is a directory, not a JSON file")]
    IsDirectory(PathBuf),
    #[error("file is {size} bytes, more than the {limit}-byte limit")]
    TooLarge { size: u64, limit: u64 },
    #[error("cannot read: {0}")]
    Unreadable(std::io::Error),
    #[error("not UTF-8: invalid byte at line {line}, column {column}")]
    NotUtf8 { line: usize, column: usize },
    #[error("not valid JSON: {message} at line {line}, column {column}")]
    Syntax {
        message: String,
        line: usize,
        column: usize,
    },
    #[error("{message} at line {line}, column {column}")]
    DuplicateKey {
        message: String,
        line: usize,
        column: usize,
    },
    #[error("number out of range at line {line}, column {column}")]
    NumberOutOfRange { line: usize, column: usize },
    #[error("nested too deeply at line {line}, column {column}")]
    TooDeep { line: usize, column: usize },
}

impl Coded for InputError {
    fn code(&self) -> &'static str {
        match self {
            InputError::NotFound(_) => "FIL-001",
            InputError::IsDirectory(_) => "FIL-002",
            InputError::TooLarge { .. } => "FIL-003",
            InputError::Unreadable(_) => "FIL-004",
            InputError::NotUtf8 { .. } => "FIL-005",
            InputError::Syntax { .. } => "JSN-001",
            InputError::DuplicateKey { .. } => "JSN-002",
            InputError::NumberOutOfRange { .. } => "JSN-003",
            InputError::TooDeep { .. } => "JSN-004",
        }
    }

    fn fix(&self) -> String {
        match self {
            InputError::NotFound(_) => "check the path".into(),
            InputError::IsDirectory(_) => "pass the JSON files inside it, e.g. `dir/*.json`".into(),
            InputError::TooLarge { .. } => {
                "a grading document is small; check that this is the right file".into()
            }
            InputError::Unreadable(_) => "check the file's permissions".into(),
            InputError::NotUtf8 { .. } => "save the file as UTF-8".into(),
            InputError::Syntax { .. } => "fix the JSON syntax at that position".into(),
            InputError::DuplicateKey { .. } => {
                "keep one of the two keys; JSON keys must be unique".into()
            }
            InputError::NumberOutOfRange { .. } => {
                "use a number within the range of a 64-bit float".into()
            }
            InputError::TooDeep { .. } => "flatten the document (at most 128 levels)".into(),
        }
    }
}

/// Reads and parses one JSON file, refusing anything larger than `limit` bytes.
pub fn read_json_file(path: &Path, limit: u64) -> Result<Value, InputError> {
    let meta = std::fs::metadata(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => InputError::NotFound(path.to_path_buf()),
        _ => InputError::Unreadable(err),
    })?;
    if meta.is_dir() {
        return Err(InputError::IsDirectory(path.to_path_buf()));
    }
    if meta.len() > limit {
        return Err(InputError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|file| file.take(limit + 1).read_to_end(&mut bytes))
        .map_err(InputError::Unreadable)?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    parse_json_bytes(&bytes)
}

/// Parses bytes as strict JSON (UTF-8, unique keys).
pub fn parse_json_bytes(bytes: &[u8]) -> Result<Value, InputError> {
    let text = std::str::from_utf8(bytes).map_err(|err| {
        let (line, column) = line_column(&bytes[..err.valid_up_to()]);
        InputError::NotUtf8 { line, column }
    })?;
    parse_json_str(text)
}

/// Parses text as strict JSON (unique keys).
pub fn parse_json_str(text: &str) -> Result<Value, InputError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = StrictValue { at: None }
        .deserialize(&mut de)
        .and_then(|value| de.end().map(|()| value))
        .map_err(classify)?;
    Ok(value)
}

fn classify(err: serde_json::Error) -> InputError {
    let (line, column) = (err.line(), err.column());
    let text = err.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(head, _)| head)
        .to_string();
    if message.starts_with(DUPLICATE_MARK) {
        InputError::DuplicateKey {
            message,
            line,
            column,
        }
    } else if message.contains("number out of range") {
        InputError::NumberOutOfRange { line, column }
    } else if message.contains("recursion limit exceeded") {
        InputError::TooDeep { line, column }
    } else {
        InputError::Syntax {
            message,
            line,
            column,
        }
    }
}

/// 1-based line and column of the end of `prefix`.
fn line_column(prefix: &[u8]) -> (usize, usize) {
    let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = prefix.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, column)
}

/// Where a value sits, as a chain of parents on the stack: no allocation unless an error needs
/// the pointer.
#[derive(Clone, Copy)]
struct Segment<'a> {
    parent: Option<&'a Segment<'a>>,
    token: Token<'a>,
}

#[derive(Clone, Copy)]
enum Token<'a> {
    Key(&'a str),
    Index(usize),
}

fn render_pointer(segment: Option<&Segment<'_>>) -> String {
    let Some(segment) = segment else {
        return String::new();
    };
    let base = render_pointer(segment.parent);
    match segment.token {
        Token::Key(key) => crate::diagnostic::pointer_push(&base, key),
        Token::Index(i) => crate::diagnostic::pointer_push(&base, i),
    }
}

/// Builds a `Value` like serde_json does, but fails on a repeated key.
struct StrictValue<'a> {
    at: Option<&'a Segment<'a>>,
}

impl<'de> DeserializeSeed<'de> for StrictValue<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictValue<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let segment = Segment {
                parent: self.at,
                token: Token::Index(items.len()),
            };
            match seq.next_element_seed(StrictValue { at: Some(&segment) })? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let segment = Segment {
                parent: self.at,
                token: Token::Key(&key),
            };
            if object.contains_key(&key) {
                let pointer = render_pointer(Some(&segment));
                return Err(de::Error::custom(format!(
                    "{DUPLICATE_MARK}`{key}` (at {pointer})"
                )));
            }
            let value = map.next_value_seed(StrictValue { at: Some(&segment) })?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> &'static str {
        parse_json_str(text).unwrap_err().code()
    }

    #[test]
    fn bad_documents_get_their_own_code() {
        assert_eq!(code("{"), "JSN-001");
        assert_eq!(code("{} x"), "JSN-001");
        assert_eq!(code(r#"{"a":1,"a":2}"#), "JSN-002");
        assert_eq!(code(r#"{"x":{"b":[{"c":1,"c":1}]}}"#), "JSN-002");
        assert_eq!(code(r#"{"score": 1e400}"#), "JSN-003");
        assert_eq!(code(&"[".repeat(10_000)), "JSN-004");
        let err = parse_json_bytes(b"{\"a\":\n\"\xff\"}").unwrap_err();
        assert_eq!(err.code(), "FIL-005");
        assert_eq!(
            err.to_string(),
            "not UTF-8: invalid byte at line 2, column 2"
        );
    }

    #[test]
    fn duplicate_key_names_the_pointer() {
        let err = parse_json_str("{\"gradings\":[{\"score\":1,\n\"score\":2}]}").unwrap_err();
        assert_eq!(
            err.to_string(),
            "duplicate key `score` (at /gradings/0/score) at line 2, column 7"
        );
    }

    #[test]
    fn keeps_key_order_and_values() {
        let value = parse_json_str(r#"{"b":1,"a":[true,null,-0,2.5,"x"]}"#).unwrap();
        assert_eq!(value.to_string(), r#"{"b":1,"a":[true,null,-0.0,2.5,"x"]}"#);
    }
}
