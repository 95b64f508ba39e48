//! Hashes and ids (DESIGN.md §4): canonical JSON, sha256-8, the schema, selection and namespace
//! hashes, and the Task-ID.

mod canonical;
pub mod task_id;

pub(crate) use canonical::write_string as write_json_string;
pub use canonical::{canonical_json, js_stringify, utf16_cmp};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The first 8 lowercase hex digits of sha256 over bytes.
pub fn hash8_bytes(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    hex::encode(&digest[..4])
}

/// sha256-8 of a value's canonical JSON.
pub fn hash8(value: &Value) -> String {
    hash8_bytes(canonical_json(value).as_bytes())
}

/// `^[a-f0-9]{8}$`.
pub fn is_hash8(text: &str) -> bool {
    text.len() == 8 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn hash_without(value: &Value, key: &str) -> String {
    match value {
        Value::Object(map) if map.contains_key(key) => {
            let mut copy = map.clone();
            copy.shift_remove(key);
            hash8(&Value::Object(copy))
        }
        other => hash8(other),
    }
}

/// The schemaHash: `main` without a top-level `schemaHash` key.
pub fn schema_hash(main: &Value) -> String {
    hash_without(main, "schemaHash")
}

/// The selectionHash: the definition without a top-level `selectionHash` key.
pub fn selection_hash(definition: &Value) -> String {
    hash_without(definition, "selectionHash")
}

/// The namespaceHash: `{members (sorted), aboutHash}`.
pub fn namespace_hash(members: &[String], about_hash: Option<&str>) -> String {
    let mut sorted: Vec<&str> = members.iter().map(String::as_str).collect();
    sorted.sort_unstable_by(|a, b| utf16_cmp(a, b));
    hash8(&json!({ "members": sorted, "aboutHash": about_hash }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_vectors() {
        assert_eq!(hash8(&json!({"a": 1})), "015abd7f");
        assert_eq!(hash8(&json!({})), "44136fa3");
        assert_eq!(hash8(&json!({"about": "Hello"})), "52064f07");
        assert_eq!(canonical_json(&json!({"b": 1, "a": 2})), r#"{"a":2,"b":1}"#);
    }

    #[test]
    fn key_order_is_irrelevant_array_order_is_not() {
        let a: Value = serde_json::from_str(r#"{"a":1,"b":{"c":2,"d":3}}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"b":{"d":3,"c":2},"a":1}"#).unwrap();
        assert_eq!(hash8(&a), hash8(&b));
        assert_ne!(hash8(&json!([1, 2])), hash8(&json!([2, 1])));
    }

    #[test]
    fn own_hash_keys_are_left_out() {
        assert_eq!(
            schema_hash(&json!({"a": 1, "schemaHash": "zzz"})),
            "015abd7f"
        );
        assert_ne!(
            schema_hash(&json!({"a": {"schemaHash": "x"}})),
            schema_hash(&json!({"a": {}}))
        );
        assert_eq!(
            selection_hash(&json!({"a": 1, "selectionHash": "q"})),
            "015abd7f"
        );
        assert_eq!(schema_hash(&json!({"a": 1})), "015abd7f");
    }

    #[test]
    fn namespace_hash_sorts_members() {
        let a = namespace_hash(&["b.x".into(), "a.y".into()], Some("52064f07"));
        let b = namespace_hash(&["a.y".into(), "b.x".into()], Some("52064f07"));
        assert_eq!(a, b);
        assert_ne!(a, namespace_hash(&["a.y".into(), "b.x".into()], None));
        assert!(is_hash8(&a));
    }

    #[test]
    fn hash8_shape() {
        assert!(is_hash8("015abd7f"));
        assert!(!is_hash8("015ABD7F") && !is_hash8("015abd7") && !is_hash8("015abd7g"));
        assert_eq!(hash8_bytes(b"Hello").len(), 8);
    }
}
