//! The selection index (reference-cli.md §2.9, second half; spec-digest §8.2, §10.3): the newest
//! selection definition, each member `<ns>.<schema>` resolved to its provider artifact with the
//! schema's status and grade from the namespace rollup, the selection areas' nodes (About,
//! skills by level, selection-aggregate), the thresholds, the rollup status and grade, the
//! blockers — and the `lockSnapshot`, which this rebuild never recomputes: it is kept byte for
//! byte from the index on disk and only replaced by `freeze` when a selection grading run starts.

use super::rollup::{namespace_index, node, rollup_grade, rollup_status};
use super::selection_view::{SelectionView, load_selection};
use crate::island::{Island, IslandError, layout};
use crate::model::{AggregateGrade, Area, Grade, NodeStatus};
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The reason a member node carries when its namespace is not in the island.
pub const NOT_IMPORTED: &str = "selection member, not imported";

/// The selection-skills area of a stored level.
pub fn skill_area(level: &str) -> Option<Area> {
    match level {
        "L1" => Some(Area::SelectionSkillsL1),
        "L2" => Some(Area::SelectionSkillsL2),
        "L3" => Some(Area::SelectionSkillsL3),
        _ => None,
    }
}

/// Members whose namespace is not imported.
pub fn members_not_imported(index: &Value) -> Vec<String> {
    index["members"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, node)| node["reason"] == NOT_IMPORTED)
        .map(|(id, _)| id.clone())
        .collect()
}

fn status_of(value: &Value) -> NodeStatus {
    value["status"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or(NodeStatus::Pending)
}

/// The member-resolution manifest: each member to its provider artifact, status and grade.
fn manifest(
    island: &Island,
    view: &SelectionView,
    now: DateTime<Utc>,
    blockers: &mut Vec<Value>,
) -> Result<Map<String, Value>, IslandError> {
    let mut namespaces: BTreeMap<String, Option<Value>> = BTreeMap::new();
    let mut members = Map::new();
    for id in view.member_ids() {
        let Some((ns, schema)) = id.split_once('.') else {
            members.insert(
                id.clone(),
                json!({"status": "blocked", "reason": format!("malformed schemaId: {id}")}),
            );
            blockers.push(json!({"node": format!("members.{id}"), "reason": "malformed schemaId"}));
            continue;
        };
        if !namespaces.contains_key(ns) {
            let exists = crate::island::names::is_id(ns)
                && island.root().join(layout::provider(ns)).is_dir();
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
                let file = node["snapshot"]["file"].as_str();
                let mut out = json!({
                    "status": node["status"],
                    "resolvedArtifact": file.map(|f| format!("{ns}/{schema}/schema/{f}")),
                    "hash": node["snapshot"]["hash"],
                    "schemaVersion": file.and_then(crate::island::names::parse_versioned).map(|v| crate::timestamp::to_file_ts(v.at)),
                });
                for key in ["grade", "reason"] {
                    if !node[key].is_null() {
                        out[key] = node[key].clone();
                    }
                }
                if node["status"] != "stable" {
                    blockers.push(json!({"node": format!("members.{id}"), "reason": format!("member {}", node["status"].as_str().unwrap_or("?"))}));
                }
                out
            }
            _ => {
                blockers.push(json!({"node": format!("members.{id}"), "reason": NOT_IMPORTED}));
                json!({"status": "pending", "reason": NOT_IMPORTED})
            }
        };
        members.insert(id.clone(), node);
    }
    Ok(members)
}

/// Builds `selections/<sel>/index.json` from the island (`None` when no definition is imported).
/// The `lockSnapshot` of the index on disk is carried over unchanged.
pub fn selection_index(
    island: &Island,
    sel: &str,
    now: DateTime<Utc>,
) -> Result<Option<Value>, IslandError> {
    let Some(view) = load_selection(island, sel)? else {
        return Ok(None);
    };
    index_of(island, &view, now).map(Some)
}

/// The selection index of an already loaded selection (the rollup reads the entries anew).
pub fn index_of(
    island: &Island,
    view: &SelectionView,
    now: DateTime<Utc>,
) -> Result<Value, IslandError> {
    let sel = view.id.as_str();
    let base = island.root().join(layout::selection(sel));
    let gradings = |rel: PathBuf| base.join(rel).join(layout::GRADINGS);
    let mut blockers = Vec::new();
    let members = manifest(island, view, now, &mut blockers)?;
    let stable = members.values().filter(|m| m["status"] == "stable").count();
    let band = view.band();
    let mut statuses: Vec<NodeStatus> = members.values().map(status_of).collect();
    let mut grades: Vec<AggregateGrade> = Vec::new();

    let about = match &view.about {
        Some((_, hash)) => {
            let n = node(
                &gradings(PathBuf::from("resources/about")),
                Area::AboutSelection,
                Some(hash),
                None,
                &base,
            );
            statuses.push(n.status);
            grades.extend(n.grade);
            n.value
        }
        None => {
            json!({"status": "not-applicable", "reason": "no About (domain-knowledge document) imported; selection-aggregate.domainConformance cannot score and grade A is out of reach"})
        }
    };

    let mut skills = Map::new();
    let mut skill_nodes: BTreeMap<String, (NodeStatus, Option<AggregateGrade>)> = BTreeMap::new();
    for skill in &view.skills {
        let Some(area) = super::selection::skill_area(&skill.level) else {
            skills.insert(skill.name.clone(), json!({"status": "blocked", "reason": "the skill has no valid level (L1, L2 or L3)"}));
            statuses.push(NodeStatus::Blocked);
            continue;
        };
        let n = node(
            &gradings(PathBuf::from("skills").join(&skill.name)),
            area,
            Some(&skill.hash8),
            None,
            &base,
        );
        skill_nodes.insert(skill.name.clone(), (n.status, n.grade));
        let mut value = n.value;
        value["level"] = json!(skill.level);
        skills.insert(skill.name.clone(), value);
    }
    // The predecessor rule: a structural problem blocks; ungraded predecessors keep it waiting.
    for skill in &view.skills {
        let Some(value) = skills.get_mut(&skill.name) else {
            continue;
        };
        if value["status"] != "pending" {
            continue;
        }
        match view.predecessors(skill) {
            Err(reason) => {
                *value = json!({"status": "blocked", "reason": reason, "level": skill.level});
                blockers.push(
                    json!({"node": format!("skills.{}", skill.name), "reason": value["reason"]}),
                );
            }
            Ok(preds) => {
                let waiting: Vec<&str> = preds
                    .iter()
                    .filter(|p| !skill_nodes.get(&p.name).is_some_and(|(_, g)| g.is_some()))
                    .map(|p| p.name.as_str())
                    .collect();
                if !waiting.is_empty() {
                    value["reason"] = json!(format!(
                        "waiting for predecessor grades: {}",
                        waiting.join(", ")
                    ));
                }
            }
        }
    }
    for value in skills.values() {
        statuses.push(status_of(value));
    }
    grades.extend(skill_nodes.values().filter_map(|(_, g)| *g));

    let aggregate = node(
        &gradings(PathBuf::new()),
        Area::SelectionAggregate,
        Some(view.hash()),
        None,
        &base,
    );
    statuses.push(aggregate.status);

    let (grade, grade_reason) = match band.max_grade() {
        None => (
            json!("n/a"),
            Some(format!(
                "{} member namespace(s): fewer than 5, so not a group (spec ch. 05); only provider grades exist",
                view.namespaces().len()
            )),
        ),
        Some(_) if aggregate.grade.is_none() => (
            Value::Null,
            Some("selection-aggregate not graded yet (it opens the path to A)".to_owned()),
        ),
        Some(max) => {
            grades.extend(aggregate.grade);
            match rollup_grade(&grades) {
                Some(AggregateGrade::Letter(Grade::A)) if max == "B" => (json!("B"), Some("5–6 member namespaces: grade A cannot be claimed (spec ch. 05); capped at B".to_owned())),
                Some(g) => (json!(g), None),
                None => (Value::Null, None),
            }
        }
    };

    let previous: Value = std::fs::read_to_string(island.root().join(layout::selection_index(sel)))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    let mut index = json!({
        "indexVersion": super::INDEX_VERSION,
        "selectionId": sel,
        "updatedAt": now.to_rfc3339_opts(SecondsFormat::Millis, true),
        "definition": {"file": view.definition_file.version.file_name(), "hash": view.hash()},
        "status": rollup_status(&statuses),
        "grade": grade,
        "summary": {
            "members": members.len(),
            "membersStable": stable,
            "memberNamespaces": view.namespaces().len(),
            "about": about["status"],
            "skills": skills.len(),
        },
        "thresholds": {
            "memberNamespaces": view.namespaces().len(),
            "band": band.as_str(),
            "maxGrade": band.max_grade().unwrap_or("n/a"),
        },
        "about": about,
        "skills": skills,
        "selectionAggregate": aggregate.value,
        "members": members,
        "blockers": blockers,
    });
    if let Some(reason) = grade_reason {
        index["gradeReason"] = json!(reason);
    }
    if let Some(lock) = previous.get("lockSnapshot") {
        index["lockSnapshot"] = lock.clone();
    }
    Ok(index)
}

/// Freezes the lockSnapshot from the live manifest of `index` (spec-digest §8.2): the
/// definition's version and hash, and each member's schema version, hash and status now.
pub fn freeze(index: &Value, now: DateTime<Utc>) -> Value {
    let definition = &index["definition"];
    let version = definition["file"]
        .as_str()
        .and_then(crate::island::names::parse_versioned)
        .map(|v| crate::timestamp::to_file_ts(v.at));
    let members: Vec<Value> = index["members"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(id, node)| {
            json!({
                "schemaId": id,
                "schemaVersion": node["schemaVersion"],
                "schemaHash": node["hash"],
                "gradingStatus": node["status"],
                "override": null,
            })
        })
        .collect();
    json!({
        "selectionId": index["selectionId"],
        "selectionVersion": version,
        "selectionHash": definition["hash"],
        "generatedAt": crate::timestamp::to_file_ts(now),
        "members": members,
    })
}

/// The hash of a lockSnapshot as the entry prompt and state.json name it.
pub fn lock_hash(lock: &Value) -> String {
    crate::hash::hash8(lock)
}

/// Writes a computed selection index atomically.
pub fn write_selection_index(
    island: &Island,
    sel: &str,
    index: &Value,
) -> Result<PathBuf, IslandError> {
    let mut text = serde_json::to_string_pretty(index).unwrap_or_default();
    text.push('\n');
    island.replace_derived(&layout::selection_index(sel), text.as_bytes())
}

/// Rebuilds and writes `selections/<sel>/index.json` (keeping its lockSnapshot).
pub fn rebuild_selection(
    island: &Island,
    sel: &str,
    now: DateTime<Utc>,
) -> Result<Option<PathBuf>, IslandError> {
    let Some(index) = selection_index(island, sel, now)? else {
        return Ok(None);
    };
    write_selection_index(island, sel, &index).map(Some)
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
