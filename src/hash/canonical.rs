//! Canonical JSON: what JavaScript `JSON.stringify` prints for a value whose object keys were
//! sorted with `Array.prototype.sort()` (UTF-16 code units), with no whitespace.

use serde_json::{Number, Value};
use std::cmp::Ordering;
use std::fmt::Write as _;

/// The canonical text of a JSON value. serde_json values hold no `undefined`, functions or
/// non-finite numbers, so every value has one.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, true);
    out
}

/// What JavaScript `JSON.stringify(value)` prints: keys in the value's own order, no whitespace,
/// JS number formatting. Used to compare statically read modules with node's output.
pub fn js_stringify(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, false);
    out
}

fn write_value(out: &mut String, value: &Value, sort: bool) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item, sort);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            if sort {
                keys.sort_by(|a, b| utf16_cmp(a, b));
            }
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                write_value(out, &map[key.as_str()], sort);
            }
            out.push('}');
        }
    }
}

/// JS's default string order: by UTF-16 code unit, not by UTF-8 byte or char.
pub fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// JS `Number.prototype.toString`: integers from serde_json become the f64 JS would hold.
fn write_number(out: &mut String, n: &Number) {
    let float = n
        .as_f64()
        .or_else(|| n.as_i64().map(|i| i as f64))
        .or_else(|| n.as_u64().map(|u| u as f64))
        .unwrap_or(0.0);
    if float == 0.0 {
        out.push('0'); // also -0
        return;
    }
    out.push_str(ryu_js::Buffer::new().format_finite(float));
}

/// `JSON.stringify` string escaping: `"`, `\`, the short escapes, other controls as `\u00xx`.
pub(crate) fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_print_as_javascript_does() {
        // expected values printed by node: JSON.stringify([...])
        let cases = [
            (json!(1.0), "1"),
            (json!(-0.0), "0"),
            (json!(1e21), "1e+21"),
            (json!(1e-7), "1e-7"),
            (json!(0.1), "0.1"),
            (json!(5e-324), "5e-324"),
            (json!(1.7976931348623157e308), "1.7976931348623157e+308"),
            (json!(100), "100"),
            (json!(1e20), "100000000000000000000"),
            (json!(123.456), "123.456"),
            (json!(u64::MAX), "18446744073709552000"),
            (json!(i64::MIN), "-9223372036854776000"),
            (json!(0.000001), "0.000001"),
            (json!(1.5e-10), "1.5e-10"),
            (json!(9007199254740993u64), "9007199254740992"),
        ];
        for (value, expected) in cases {
            assert_eq!(canonical_json(&value), expected, "{value}");
        }
    }

    #[test]
    fn strings_escape_as_javascript_does() {
        let value = json!([
            "\"", "\\", "\n", "\u{1}", "\u{1f}", "/", "é", "😀", "\u{7f}", "\u{2028}"
        ]);
        assert_eq!(
            canonical_json(&value),
            "[\"\\\"\",\"\\\\\",\"\\n\",\"\\u0001\",\"\\u001f\",\"/\",\"é\",\"😀\",\"\u{7f}\",\"\u{2028}\"]"
        );
    }

    #[test]
    fn keys_sort_by_utf16_code_unit() {
        // node: ["\u{E000}","\u{1F600}","b","a","B"].sort() → B a b 😀 \u{E000}
        let value = json!({"\u{E000}": 1, "\u{1F600}": 2, "b": 3, "a": 4, "B": 5});
        assert_eq!(
            canonical_json(&value),
            "{\"B\":5,\"a\":4,\"b\":3,\"😀\":2,\"\u{E000}\":1}"
        );
    }

    #[test]
    fn nested_objects_are_sorted_and_arrays_kept() {
        let value = json!({"b": 1, "a": {"z": [3, 1, {"y": true, "x": null}], "c": "s"}});
        assert_eq!(
            canonical_json(&value),
            r#"{"a":{"c":"s","z":[3,1,{"x":null,"y":true}]},"b":1}"#
        );
    }
}
