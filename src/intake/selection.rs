//! Selection definitions (spec ch. 16, spec-digest §8.1 — not the stale annex): checked and
//! snapshotted byte for byte to `selections/<sel>/selection/<sel>--<ts>--<hash8>.json`.

use crate::diagnostic::{Diagnostic, pointer_push};
use crate::hash::selection_hash;
use crate::island::names::{Versioned, is_id, next_timestamp, versions};
use crate::island::{Island, IslandError, layout};
use chrono::{DateTime, Utc};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Every problem of a selection definition, with its JSON pointer (code SEL-002).
pub fn check_selection(value: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut problem = |pointer: &str, message: String, fix: &str| {
        found.push(Diagnostic::error("SEL-002", message, fix).at(pointer));
    };
    let Some(object) = value.as_object() else {
        problem(
            "",
            "a selection definition is a JSON object".into(),
            "write the chapter-16 shape",
        );
        return found;
    };
    let text = |key: &str| object.get(key).and_then(Value::as_str);
    let chars_ok = |s: &str, extra: &[char]| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || extra.contains(&c))
    };
    match text("selectionId") {
        Some(id) if chars_ok(id, &['-']) && is_id(id) => {}
        _ => problem(
            "/selectionId",
            "`selectionId` must match [a-z][a-z0-9-]*".into(),
            "e.g. \"crypto-basics\"",
        ),
    }
    match text("namespace") {
        Some(ns) if chars_ok(ns, &['-', '_']) => {}
        _ => problem(
            "/namespace",
            "`namespace` must match [a-z0-9_-]+".into(),
            "the selection's namespace",
        ),
    }
    if text("name").is_none_or(|n| n.trim().is_empty()) {
        problem(
            "/name",
            "`name` must be a non-empty string".into(),
            "a human-readable name",
        );
    }
    let version_ok = text("version").is_some_and(|v| {
        v.strip_prefix("flowmcp/4.").is_some_and(|rest| {
            let parts: Vec<&str> = rest.split('.').collect();
            parts.len() == 2
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        })
    });
    if !version_ok {
        problem(
            "/version",
            "`version` must be flowmcp/4.x.y".into(),
            "e.g. \"flowmcp/4.0.0\"",
        );
    }
    if text("description").is_none_or(|d| d.chars().count() < 10) {
        problem(
            "/description",
            "`description` must be a string of at least 10 characters".into(),
            "describe the selection",
        );
    }
    if text("whenToUse").is_none_or(|w| w.trim().is_empty()) {
        problem(
            "/whenToUse",
            "`whenToUse` must be a non-empty trigger sentence".into(),
            "say when an agent should use it",
        );
    }
    match object.get("personaIds").and_then(Value::as_array) {
        Some(ids)
            if !ids.is_empty()
                && ids
                    .iter()
                    .all(|p| p.as_str().is_some_and(|s| !s.is_empty())) => {}
        _ => problem(
            "/personaIds",
            "`personaIds` must list at least one persona id".into(),
            "e.g. [\"ai-engineer\"]",
        ),
    }
    match object.get("members").and_then(Value::as_array) {
        Some(members) if !members.is_empty() => {
            let mut seen = std::collections::HashSet::new();
            for (i, member) in members.iter().enumerate() {
                if let Some(id) = member.get("schemaId").and_then(Value::as_str)
                    && !seen.insert(id)
                {
                    problem(
                        &pointer_push("/members", i),
                        format!("member `{id}` is listed twice"),
                        "list each member schema once",
                    );
                }
                let pointer = pointer_push("/members", i);
                let valid = member.as_object().is_some_and(|m| {
                    m.len() == 1
                        && m.get("schemaId").and_then(Value::as_str).is_some_and(|id| {
                            id.split_once('.')
                                .is_some_and(|(ns, schema)| is_id(ns) && !schema.is_empty())
                        })
                });
                if !valid {
                    problem(
                        &pointer,
                        "a member is only `{ \"schemaId\": \"<namespace>.<schema>\" }`".into(),
                        "drop other keys; pinned hashes live in the lockSnapshot",
                    );
                }
            }
        }
        _ => problem(
            "/members",
            "`members` must list at least one member".into(),
            "add { \"schemaId\": \"<ns>.<schema>\" } entries",
        ),
    }
    if let Some(skills) = object.get("skills") {
        match skills.as_array() {
            Some(list) if list.len() <= 4 => {
                for (i, item) in list.iter().enumerate() {
                    if super::selection_sources::skill_file_of(item).is_none() {
                        problem(
                            &pointer_push("/skills", i),
                            "a skill is `{ \"file\": \"<path to the .mjs, relative to the definition>\" }`".into(),
                            "e.g. { \"file\": \"skills/price-entry.mjs\" }",
                        );
                    }
                }
            }
            _ => problem(
                "/skills",
                "`skills` is an array of at most 4 skills".into(),
                "keep the four most important skills",
            ),
        }
    }
    for key in ["resources", "prompts"] {
        if object.get(key).is_some_and(|v| !v.is_array()) {
            problem(
                &format!("/{key}"),
                format!("`{key}` must be an array"),
                "use [] when there are none",
            );
        }
    }
    for removed in ["selectionHash", "aboutHash", "selectionVersion"] {
        if object.contains_key(removed) {
            problem(
                &format!("/{removed}"),
                format!(
                    "`{removed}` was removed in Grading-Spec 2.0.0 (hashes live in file names and the index)"
                ),
                "delete the key",
            );
        }
    }
    found
}

/// The snapshot written (or found already there) for a selection definition.
#[derive(Debug, Clone)]
pub struct SelectionSnapshot {
    pub selection_id: String,
    pub hash: String,
    pub path: PathBuf,
    pub skipped: bool,
}

/// Snapshots the definition file's bytes, unless identical bytes are there already. The caller
/// holds the island's lock.
pub fn snapshot_selection(
    island: &Island,
    value: &Value,
    bytes: &[u8],
    now: DateTime<Utc>,
) -> Result<SelectionSnapshot, IslandError> {
    let id = value["selectionId"].as_str().unwrap_or_default().to_owned();
    crate::island::names::check_id("selection id", &id)?;
    let hash = selection_hash(value);
    let dir = layout::selection_definitions(&id);
    let existing = versions(&island.root().join(&dir), &id, "json")?;
    if let Some(same) = existing
        .iter()
        .find(|f| f.version.hash8 == hash && std::fs::read(&f.path).is_ok_and(|b| b == bytes))
    {
        return Ok(SelectionSnapshot {
            selection_id: id,
            hash,
            path: same.path.clone(),
            skipped: true,
        });
    }
    let file = Versioned {
        name: id.clone(),
        at: next_timestamp(&existing, now),
        hash8: hash.clone(),
        ext: "json".into(),
    };
    let path = island.create_new(&dir.join(file.file_name()), bytes)?;
    Ok(SelectionSnapshot {
        selection_id: id,
        hash,
        path,
        skipped: false,
    })
}

/// The definition file of `path`: the file itself, or the only `.json` file of a folder.
pub fn definition_file(path: &Path) -> Option<PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
        .collect();
    (files.len() == 1).then(|| files.remove(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn good() -> Value {
        json!({
            "selectionId": "crypto-basics", "namespace": "crypto", "name": "Crypto basics",
            "version": "flowmcp/4.0.0", "description": "Prices and chain data for crypto agents.",
            "whenToUse": "When an agent needs spot prices and balances.",
            "personaIds": ["ai-engineer"], "members": [{"schemaId": "tinyapi.tinyapi"}],
            "skills": [], "resources": [], "prompts": []
        })
    }

    #[test]
    fn the_chapter_16_shape_passes_and_every_problem_is_listed() {
        assert!(check_selection(&good()).is_empty());
        let bad = json!({
            "selectionId": "Crypto", "namespace": "", "version": "4.0.0", "description": "short",
            "personaIds": [], "members": [{"schemaId": "tinyapi.tinyapi", "schemaHash": "aaaaaaaa"}],
            "skills": [1, 2, 3, 4, 5], "resources": {}, "selectionHash": "x"
        });
        let pointers: Vec<String> = check_selection(&bad)
            .into_iter()
            .filter_map(|d| d.pointer)
            .collect();
        for wanted in [
            "/selectionId",
            "/namespace",
            "/name",
            "/version",
            "/description",
            "/whenToUse",
            "/personaIds",
            "/members/0",
            "/skills",
            "/resources",
            "/selectionHash",
        ] {
            assert!(
                pointers.iter().any(|p| p == wanted),
                "{wanted} missing in {pointers:?}"
            );
        }
    }

    #[test]
    fn snapshots_are_byte_copies_and_idempotent() {
        let dir = tempfile::tempdir().unwrap();
        let island = Island::open(dir.path()).unwrap();
        let bytes = serde_json::to_vec_pretty(&good()).unwrap();
        let first = snapshot_selection(&island, &good(), &bytes, Utc::now()).unwrap();
        assert!(!first.skipped);
        assert_eq!(std::fs::read(&first.path).unwrap(), bytes);
        let again = snapshot_selection(&island, &good(), &bytes, Utc::now()).unwrap();
        assert!(again.skipped);
        assert_eq!(again.path, first.path);
    }
}
