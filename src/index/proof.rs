//! The provider proof `grade.json` (reference-cli.md §2.6.5): a projection of the namespace
//! index written to `<exportRoot>/providers/<ns>/grade.json`, replaced atomically, keeping any
//! non-null `monitoring` values of an existing proof.

use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

pub const PROOF_VERSION: u64 = 1;

/// The proof for a namespace index; `existing` is the current grade.json, if any.
pub fn project(index: &Value, existing: Option<&Value>, generated_at: &str) -> Value {
    let keep = |node: &Value, keys: &[&str]| {
        let mut out = Map::new();
        for key in keys {
            if let Some(value) = node.get(*key).filter(|v| !v.is_null()) {
                out.insert((*key).to_owned(), value.clone());
            }
        }
        Value::Object(out)
    };
    let schemas: Map<String, Value> = index["schemas"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, node)| (name.clone(), keep(node, &["status", "grade", "reason"])))
        .collect();
    let mut monitoring = json!({"githubIssue": null, "boardColumn": null});
    if let Some(previous) = existing
        .and_then(|p| p.get("monitoring"))
        .and_then(Value::as_object)
    {
        for (key, value) in previous {
            if !value.is_null() {
                monitoring[key] = value.clone();
            }
        }
    }
    json!({
        "proofVersion": PROOF_VERSION,
        "namespace": index["namespace"],
        "generatedAt": generated_at,
        "status": index["status"],
        "grade": index["grade"],
        "namespaceAggregate": keep(&index["namespaceAggregate"], &["status", "grade", "ref", "reason"]),
        "schemas": schemas,
        "blockers": index["blockers"],
        "monitoring": monitoring,
    })
}

/// Writes the proof for `index` under `export_root`, atomically (temp file + rename).
pub fn write(export_root: &Path, index: &Value, generated_at: &str) -> std::io::Result<PathBuf> {
    let ns = index["namespace"].as_str().unwrap_or_default();
    let dir = export_root.join("providers").join(ns);
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("grade.json");
    let existing = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok());
    let proof = project(index, existing.as_ref(), generated_at);
    let temp = dir.join(format!(".grade.json.tmp-{}", std::process::id()));
    let mut text = serde_json::to_string_pretty(&proof).unwrap_or_default();
    text.push('\n');
    std::fs::write(&temp, text)?;
    std::fs::rename(&temp, &path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Value {
        json!({
            "namespace": "demoapi", "status": "partial", "grade": "B",
            "namespaceAggregate": {"status": "stable", "grade": "B", "ref": "demoapi/_gradings/x.json"},
            "schemas": {"demoapi": {"status": "graded", "grade": "C", "tools": {}, "snapshot": {}}},
            "blockers": [],
        })
    }

    #[test]
    fn projection_and_monitoring_survive_a_rewrite() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), &index(), "2026-06-04T10:30:00.000Z").unwrap();
        let mut proof: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            proof["schemas"]["demoapi"],
            json!({"status": "graded", "grade": "C"})
        );
        assert_eq!(
            proof["monitoring"],
            json!({"githubIssue": null, "boardColumn": null})
        );
        proof["monitoring"]["githubIssue"] = json!(4242);
        std::fs::write(&path, proof.to_string()).unwrap();
        write(dir.path(), &index(), "2026-06-05T10:30:00.000Z").unwrap();
        let again: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(again["monitoring"]["githubIssue"], 4242);
        assert_eq!(again["generatedAt"], "2026-06-05T10:30:00.000Z");
        assert_eq!(
            std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
            1,
            "no temp file left"
        );
    }
}
