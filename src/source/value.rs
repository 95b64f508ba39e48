//! The evaluator's values: a small JavaScript value model that keeps what `JSON.stringify` needs
//! to decide (property order with array-index keys first, `undefined` and functions that are
//! dropped or printed as `null`), converted to `serde_json::Value` at the end.

use crate::hash::write_json_string;
use oxc_span::Span as OxcSpan;
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::collections::HashMap;

#[derive(Debug, Clone)]
pub(crate) enum JsVal<'a> {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    /// Borrowed from the source (or the parser's arena) until it becomes JSON.
    String(Cow<'a, str>),
    Array(Vec<JsVal<'a>>),
    Object(JsObject<'a>),
    /// A function, method, accessor or class: opaque, with its source span.
    Function(OxcSpan),
}

/// An object's own enumerable properties in insertion order. A repeated key keeps its first
/// position and takes the new value; JavaScript's order (array indices first) is applied when the
/// object is printed or converted.
#[derive(Debug, Clone)]
pub(crate) struct JsObject<'a> {
    entries: Vec<(Cow<'a, str>, JsVal<'a>)>,
    index: Option<HashMap<Cow<'a, str>, usize>>,
    has_index_keys: bool,
}

/// Above this many properties a hash index replaces the linear key search.
const INDEX_THRESHOLD: usize = 16;

impl<'a> JsObject<'a> {
    pub(crate) fn new() -> Self {
        JsObject {
            entries: Vec::new(),
            index: None,
            has_index_keys: false,
        }
    }

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    /// `[[Set]]` of an own data property: in place when the key exists, appended otherwise.
    pub(crate) fn set(&mut self, key: Cow<'a, str>, value: JsVal<'a>) {
        if let Some(at) = self.position(&key) {
            self.entries[at].1 = value;
            return;
        }
        if !self.has_index_keys && array_index(&key).is_some() {
            self.has_index_keys = true;
        }
        if let Some(index) = &mut self.index {
            index.insert(key.clone(), self.entries.len());
        } else if self.entries.len() >= INDEX_THRESHOLD {
            let mut index: HashMap<Cow<'a, str>, usize> = self
                .entries
                .iter()
                .enumerate()
                .map(|(at, (k, _))| (k.clone(), at))
                .collect();
            index.insert(key.clone(), self.entries.len());
            self.index = Some(index);
        }
        self.entries.push((key, value));
    }

    pub(crate) fn get(&self, key: &str) -> Option<&JsVal<'a>> {
        self.position(key).map(|at| &self.entries[at].1)
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The properties in JavaScript's own-key order: array indices ascending, then the other
    /// keys in insertion order.
    pub(crate) fn ordered(&self) -> Vec<&(Cow<'a, str>, JsVal<'a>)> {
        if !self.has_index_keys {
            return self.entries.iter().collect();
        }
        let mut indices: Vec<(u32, &(Cow<'a, str>, JsVal<'a>))> = self
            .entries
            .iter()
            .filter_map(|entry| array_index(&entry.0).map(|i| (i, entry)))
            .collect();
        indices.sort_unstable_by_key(|(i, _)| *i);
        let mut out: Vec<&(Cow<'a, str>, JsVal<'a>)> =
            indices.into_iter().map(|(_, e)| e).collect();
        out.extend(
            self.entries
                .iter()
                .filter(|entry| array_index(&entry.0).is_none()),
        );
        out
    }

    /// The properties in insertion order (for spreading into another object, whose own order
    /// is applied when it is printed).
    pub(crate) fn into_entries(self) -> Vec<(Cow<'a, str>, JsVal<'a>)> {
        self.entries
    }

    fn into_ordered(self) -> Vec<(Cow<'a, str>, JsVal<'a>)> {
        if !self.has_index_keys {
            return self.entries;
        }
        let (mut indices, others): (Vec<_>, Vec<_>) = self
            .entries
            .into_iter()
            .partition(|entry| array_index(&entry.0).is_some());
        indices.sort_unstable_by_key(|entry| array_index(&entry.0).unwrap_or(u32::MAX));
        indices.extend(others);
        indices
    }

    /// The span of a `toJSON` method, which `JSON.stringify` would call.
    pub(crate) fn to_json_method(&self) -> Option<OxcSpan> {
        match self.get("toJSON") {
            Some(JsVal::Function(span)) => Some(*span),
            _ => None,
        }
    }
}

/// A canonical array index: `0`…`4294967294` written without leading zeros.
pub(crate) fn array_index(key: &str) -> Option<u32> {
    let bytes = key.as_bytes();
    if bytes.is_empty() || bytes.len() > 10 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if bytes.len() > 1 && bytes[0] == b'0' {
        return None;
    }
    let value: u64 = key.parse().ok()?;
    (value <= 4_294_967_294).then_some(value as u32)
}

/// JavaScript `Number.prototype.toString()` (also `ToPropertyKey` of a number).
pub(crate) fn js_number_string(n: f64) -> String {
    if n.is_nan() {
        "NaN".to_string()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.to_string()
    } else if n == 0.0 {
        "0".to_string()
    } else {
        ryu_js::Buffer::new().format_finite(n).to_string()
    }
}

/// The JSON number a JavaScript number prints as: integers within ±2^53 as integers, `-0` as 0,
/// NaN and ±Infinity as `null` (as `JSON.stringify` prints them).
pub(crate) fn number_value(n: f64) -> Value {
    const SAFE: f64 = 9_007_199_254_740_992.0; // 2^53
    if !n.is_finite() {
        return Value::Null;
    }
    if n.fract() == 0.0 && n.abs() <= SAFE {
        return Value::Number(Number::from(n as i64));
    }
    Number::from_f64(n).map_or(Value::Null, Value::Number)
}

/// Why a value cannot become JSON the way `JSON.stringify` would print it.
pub(crate) enum ConvertError {
    /// An object with a `toJSON` method (span of the method).
    ToJson(OxcSpan),
}

/// Converts to JSON; `None` for `undefined` and functions (which `JSON.stringify` omits).
pub(crate) fn into_json(value: JsVal<'_>) -> Result<Option<Value>, ConvertError> {
    Ok(Some(match value {
        JsVal::Undefined | JsVal::Function(_) => return Ok(None),
        JsVal::Null => Value::Null,
        JsVal::Bool(b) => Value::Bool(b),
        JsVal::Number(n) => number_value(n),
        JsVal::String(s) => Value::String(s.into_owned()),
        JsVal::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.push(into_json(item)?.unwrap_or(Value::Null));
            }
            Value::Array(out)
        }
        JsVal::Object(object) => {
            if let Some(span) = object.to_json_method() {
                return Err(ConvertError::ToJson(span));
            }
            let mut map = Map::with_capacity(object.len());
            for (key, value) in object.into_ordered() {
                if let Some(value) = into_json(value)? {
                    map.insert(key.into_owned(), value);
                }
            }
            Value::Object(map)
        }
    }))
}

/// `JSON.stringify(value, null, gap)`: `None` when the result is `undefined`.
pub(crate) fn stringify(value: &JsVal<'_>, gap: &str) -> Result<Option<String>, ConvertError> {
    let mut out = String::new();
    let mut indent = String::new();
    if write_json(&mut out, value, gap, &mut indent)? {
        Ok(Some(out))
    } else {
        Ok(None)
    }
}

/// Writes one value; `false` (and nothing written) for `undefined` and functions.
fn write_json(
    out: &mut String,
    value: &JsVal<'_>,
    gap: &str,
    indent: &mut String,
) -> Result<bool, ConvertError> {
    match value {
        JsVal::Undefined | JsVal::Function(_) => return Ok(false),
        JsVal::Null => out.push_str("null"),
        JsVal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        JsVal::Number(n) => {
            if n.is_finite() {
                out.push_str(&js_number_string(*n));
            } else {
                out.push_str("null");
            }
        }
        JsVal::String(s) => write_json_string(out, s),
        JsVal::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return Ok(true);
            }
            let outer = indent.len();
            indent.push_str(gap);
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline_indent(out, gap, indent);
                if !write_json(out, item, gap, indent)? {
                    out.push_str("null");
                }
            }
            indent.truncate(outer);
            newline_indent(out, gap, indent);
            out.push(']');
        }
        JsVal::Object(object) => {
            if let Some(span) = object.to_json_method() {
                return Err(ConvertError::ToJson(span));
            }
            let outer = indent.len();
            indent.push_str(gap);
            out.push('{');
            let mut any = false;
            for (key, value) in object.ordered() {
                if matches!(value, JsVal::Undefined | JsVal::Function(_)) {
                    continue;
                }
                if any {
                    out.push(',');
                }
                any = true;
                newline_indent(out, gap, indent);
                write_json_string(out, key);
                out.push(':');
                if !gap.is_empty() {
                    out.push(' ');
                }
                write_json(out, value, gap, indent)?;
            }
            indent.truncate(outer);
            if any {
                newline_indent(out, gap, indent);
            }
            out.push('}');
        }
    }
    Ok(true)
}

fn newline_indent(out: &mut String, gap: &str, indent: &str) {
    if !gap.is_empty() {
        out.push('\n');
        out.push_str(indent);
    }
}
