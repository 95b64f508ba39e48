//! The selection index (reference-cli.md §2.9, second half): the newest selection definition,
//! each member `<ns>.<schema>` resolved to its provider artifact with the schema's status and
//! grade from the namespace rollup, and the blockers. The lockSnapshot and the selection areas'
//! nodes are not built here yet.

use super::rollup::namespace_index;
use crate::island::names::resolve_latest;
use crate::island::{Island, IslandError, layout};
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Builds `selections/<sel>/index.json` from the island (`None` when no definition is imported).
pub fn selection_index(
    island: &Island,
    sel: &str,
    now: DateTime<Utc>,
) -> Result<Option<Value>, IslandError> {
    let dir = island.root().join(layout::selection(sel)).join("selection");
    let Some(latest) = resolve_latest(&dir, sel, "json")? else {
        return Ok(None);
    };
    let definition: Value = std::fs::read_to_string(&latest.path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    let mut namespaces: BTreeMap<String, Option<Value>> = BTreeMap::new();
    let mut members = Map::new();
    let mut blockers = Vec::new();
    let mut stable = 0;
    for member in definition["members"].as_array().into_iter().flatten() {
        let id = member["schemaId"].as_str().unwrap_or_default();
        let Some((ns, schema)) = id.split_once('.') else {
            members.insert(
                id.to_owned(),
                json!({"status": "blocked", "reason": format!("malformed schemaId: {id}")}),
            );
            blockers.push(json!({"node": format!("members.{id}"), "reason": "malformed schemaId"}));
            continue;
        };
        if !namespaces.contains_key(ns) {
            let exists = island.root().join(layout::provider(ns)).is_dir();
            let index = if exists {
                Some(namespace_index(island, ns, now)?)
            } else {
                None
            };
            namespaces.insert(ns.to_owned(), index);
        }
        let node = match namespaces[ns]
            .as_ref()
            .map(|index| &index["schemas"][schema])
        {
            Some(node) if node.is_object() => {
                let mut out = json!({
                    "status": node["status"],
                    "resolvedArtifact": node["snapshot"]["file"].as_str().map(|f| format!("{ns}/{schema}/schema/{f}")),
                    "hash": node["snapshot"]["hash"],
                });
                for key in ["grade", "reason"] {
                    if !node[key].is_null() {
                        out[key] = node[key].clone();
                    }
                }
                if node["status"] == "stable" {
                    stable += 1;
                } else {
                    blockers.push(json!({"node": format!("members.{id}"), "reason": format!("member {}", node["status"].as_str().unwrap_or("?"))}));
                }
                out
            }
            _ => {
                blockers.push(json!({"node": format!("members.{id}"), "reason": "selection member, not imported"}));
                json!({"status": "pending", "reason": "selection member, not imported"})
            }
        };
        members.insert(id.to_owned(), node);
    }
    let namespace_count = namespaces.len();
    Ok(Some(json!({
        "indexVersion": super::INDEX_VERSION,
        "selectionId": sel,
        "updatedAt": now.to_rfc3339_opts(SecondsFormat::Millis, true),
        "definition": {"file": latest.version.file_name(), "hash": latest.version.hash8},
        "status": if members.is_empty() { "pending" } else if stable == members.len() { "operational" } else { "pending" },
        "grade": null,
        "summary": {"members": members.len(), "membersStable": stable, "memberNamespaces": namespace_count},
        "members": members,
        "blockers": blockers,
    })))
}

/// Rebuilds and writes `selections/<sel>/index.json`.
pub fn rebuild_selection(
    island: &Island,
    sel: &str,
    now: DateTime<Utc>,
) -> Result<Option<std::path::PathBuf>, IslandError> {
    let Some(index) = selection_index(island, sel, now)? else {
        return Ok(None);
    };
    let mut text = serde_json::to_string_pretty(&index).unwrap_or_default();
    text.push('\n');
    island
        .replace_derived(
            &layout::selection(sel).join(layout::INDEX_FILE),
            text.as_bytes(),
        )
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intake::selection::snapshot_selection;
    use crate::intake::{apply, scan_provider};

    #[test]
    fn members_resolve_to_provider_artifacts_or_are_reported_missing() {
        let dir = tempfile::tempdir().unwrap();
        let island = Island::open(dir.path()).unwrap();
        let folder =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/providers/tinyapi");
        apply(&island, &scan_provider(&folder, false).unwrap(), Utc::now()).unwrap();
        let definition = json!({"selectionId": "weather", "members": [
            {"schemaId": "tinyapi.tinyapi"}, {"schemaId": "other.prices"}, {"schemaId": "nodot"}
        ]});
        let bytes = serde_json::to_vec(&definition).unwrap();
        snapshot_selection(&island, &definition, &bytes, Utc::now()).unwrap();
        let path = rebuild_selection(&island, "weather", Utc::now())
            .unwrap()
            .unwrap();
        let index: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let member = &index["members"]["tinyapi.tinyapi"];
        assert_eq!(member["status"], "pending");
        assert!(
            member["resolvedArtifact"]
                .as_str()
                .unwrap()
                .starts_with("tinyapi/tinyapi/schema/tinyapi--")
        );
        assert_eq!(
            index["members"]["other.prices"]["reason"],
            "selection member, not imported"
        );
        assert_eq!(index["members"]["nodot"]["status"], "blocked");
        assert_eq!(index["summary"]["memberNamespaces"], 2);
        assert_eq!(index["blockers"].as_array().unwrap().len(), 3);
        assert!(
            rebuild_selection(&island, "nothing", Utc::now())
                .unwrap()
                .is_none()
        );
    }
}
