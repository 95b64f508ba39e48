//! The namespace rollup (reference-cli.md §2.9 shape, DESIGN.md §7 rules): node statuses from
//! the grading entries in the `_gradings/` folders, the pretest's blockers, schema-hash
//! invalidation, and the rollup status and grade.

use super::entry_reader::{ReadEntry, parse_entry_name, read_entry};
use crate::grading::{EntryFacts, node_status};
use crate::island::names::resolve_latest;
use crate::island::{Island, IslandError, layout};
use crate::model::{AggregateGrade, Area, NodeStatus};
use crate::source;
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Map, Value, json};
use std::path::Path;

/// One node of the index.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub status: NodeStatus,
    pub grade: Option<AggregateGrade>,
    pub value: Value,
}

impl Node {
    fn not_applicable(reason: &str) -> Value {
        json!({"status": "not-applicable", "reason": reason})
    }
}

/// The entry files of `area` in `dir` (a `_gradings/` folder) that decide its node, read
/// leniently, oldest first: from the newest back to the newest full (or vetoed) one — older
/// entries cannot change the node, so they are not read. Also the reason of the first stray
/// file: a `.json` file of an area that does not belong in this folder (`allowed`), or whose
/// name does not follow the grammar.
fn entries(
    dir: &Path,
    area: Area,
    allowed: &[Area],
    current_hash: &str,
) -> (Vec<ReadEntry>, Option<String>) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return (Vec::new(), None);
    };
    let mut names: Vec<String> = listing
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
        .collect();
    names.sort();
    let mut own = Vec::new();
    let mut stray = None;
    for name in names {
        match parse_entry_name(&name) {
            Some(parsed) if parsed.area == area => own.push((parsed.at, name)),
            Some(parsed) if allowed.contains(&parsed.area) => {}
            _ => {
                if stray.is_none() {
                    stray = read_entry(&dir.join(&name), area, current_hash).blocked;
                }
            }
        }
    }
    own.sort();
    let mut found = Vec::new();
    for (_, name) in own.iter().rev() {
        let entry = read_entry(&dir.join(name), area, current_hash);
        let decides = entry.facts.as_ref().is_some_and(|f| {
            f.mode == crate::model::GradingMode::Full || f.aggregate == AggregateGrade::Rejected
        });
        found.push(entry);
        if decides {
            break;
        }
    }
    found.reverse();
    (found, stray)
}

/// The node for the entries of one primitive. `current_hash` invalidates gradings of an older
/// schema; `pretest_block` is the pretest's reason when the primitive is blocked by it.
pub(crate) fn node(
    dir: &Path,
    area: Area,
    current_hash: Option<&str>,
    pretest_block: Option<&str>,
    provider: &Path,
) -> Node {
    let allowed: &[Area] = match area {
        Area::NamespaceDescription | Area::ToolsAggregateNamespace => {
            &[Area::NamespaceDescription, Area::ToolsAggregateNamespace]
        }
        _ => &[],
    };
    let (read, stray) = entries(dir, area, allowed, current_hash.unwrap_or(""));
    let facts: Vec<EntryFacts> = read.iter().filter_map(|e| e.facts.clone()).collect();
    let newest = read.last();
    let entry_block = newest.and_then(|e| e.blocked.clone()).or(stray);
    let blocked = entry_block.as_deref().or(pretest_block);
    let mut verdict = node_status(&facts, current_hash, blocked);
    if read.is_empty() && blocked.is_none() {
        verdict.reason = Some("no grading yet".into());
    }
    let mut value = json!({"status": verdict.status});
    if let Some(grade) = verdict.grade {
        value["grade"] = json!(grade);
    }
    if let Some(reason) = &verdict.reason {
        value["reason"] = json!(reason);
    }
    // The deciding entry: the newest full one (or the newest veto).
    let deciding = read
        .iter()
        .rev()
        .find(|e| {
            e.facts.as_ref().is_some_and(|f| {
                f.mode == crate::model::GradingMode::Full || f.aggregate == AggregateGrade::Rejected
            })
        })
        .or(newest);
    if let Some(entry) = deciding {
        if let Ok(rel) = entry.path.strip_prefix(provider) {
            value["ref"] = json!(rel);
        }
        if let Some(raw) = &entry.raw_grade {
            value["rawGrade"] = json!(raw);
        }
        if let Some(score) = entry.normalized_score {
            value["normalizedScore"] = json!(score);
        }
        if let Some(note) = &entry.note {
            value["note"] = json!(note);
        }
        if !entry.stale.is_empty() {
            value["stale"] = json!(entry.stale);
            value["regradeDue"] = json!(format!(
                "answers past their aging window: {} (a scheduled re-grading is due: `--regrade scheduled`)",
                entry.stale.join(", ")
            ));
        }
    }
    Node {
        status: verdict.status,
        grade: verdict.grade,
        value,
    }
}

/// The pretest's per-tool blockers of a schema, from its `summary.json`.
fn pretest_blocks(schema_dir: &Path) -> Map<String, Value> {
    std::fs::read_to_string(schema_dir.join("summary.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v.get("perTool").and_then(Value::as_object).cloned())
        .unwrap_or_default()
}

/// Builds the namespace index from disk.
pub fn namespace_index(
    island: &Island,
    ns: &str,
    now: DateTime<Utc>,
) -> Result<Value, IslandError> {
    let provider = island.root().join(layout::provider(ns));
    let mut schemas = Map::new();
    let mut skills = Map::new();
    let mut statuses: Vec<NodeStatus> = Vec::new();
    let mut grades: Vec<AggregateGrade> = Vec::new();
    let mut blockers = Vec::new();
    let mut tool_count = 0;
    let mut tools_stable = 0;
    let mut about: Option<Node> = None;
    for slug in super::schema_slugs(&provider)? {
        let schema_dir = provider.join(&slug);
        let Some(latest) = resolve_latest(&schema_dir.join("schema"), &slug, "mjs")? else {
            let reason = "no schema snapshot (re-import the provider folder)";
            blockers.push(json!({"node": format!("schemas.{slug}"), "reason": reason}));
            statuses.push(NodeStatus::Blocked);
            schemas.insert(
                slug.clone(),
                json!({"status": "blocked", "reason": reason, "tools": {}}),
            );
            continue;
        };
        let hash = latest.version.hash8.clone();
        let snapshot = json!({"file": latest.version.file_name(), "hash": hash});
        let tools: Vec<String> = match source::read_module(&latest.path)
            .and_then(|m| m.schema_main().map(super::tool_names))
        {
            Ok(tools) => tools,
            Err(err) => {
                let reason = format!("snapshot not readable: {err}");
                blockers.push(json!({"node": format!("schemas.{slug}"), "reason": reason}));
                statuses.push(NodeStatus::Blocked);
                schemas.insert(slug.clone(), json!({"status": "blocked", "reason": reason, "tools": {}, "snapshot": snapshot}));
                continue;
            }
        };
        let pretest = pretest_blocks(&schema_dir);
        let mut tool_nodes = Map::new();
        let mut tool_statuses = Vec::new();
        for tool in &tools {
            let block = pretest
                .get(tool)
                .filter(|t| t["status"] == "blocked")
                .and_then(|t| t["reason"].as_str())
                .map(str::to_owned);
            let dir = schema_dir.join("tools").join(tool).join(layout::GRADINGS);
            let n = node(
                &dir,
                Area::SingleTest,
                Some(&hash),
                block.as_deref(),
                &provider,
            );
            if n.status == NodeStatus::Blocked {
                blockers.push(json!({"node": format!("schemas.{slug}.tools.{tool}"), "reason": n.value["reason"]}));
            }
            if n.status == NodeStatus::Stable {
                tools_stable += 1;
            }
            tool_statuses.push(n.status);
            statuses.push(n.status);
            tool_nodes.insert(tool.clone(), n.value);
        }
        tool_count += tools.len();
        let mut aggregate = node(
            &schema_dir.join(layout::GRADINGS),
            Area::ToolsAggregateSchema,
            Some(&hash),
            None,
            &provider,
        );
        if aggregate.status != NodeStatus::Pending {
            aggregate.value["boundTo"] = json!(hash);
        }
        let (status, reason) = schema_status(&tool_statuses, aggregate.status);
        let mut schema = json!({"status": status, "tools": tool_nodes, "toolsAggregate": aggregate.value.clone(), "snapshot": snapshot});
        if let Some(reason) = reason {
            schema["reason"] = json!(reason);
            if status == NodeStatus::Blocked {
                blockers.push(json!({"node": format!("schemas.{slug}"), "reason": reason}));
            }
        }
        if let Some(grade) = aggregate.grade {
            schema["grade"] = json!(grade);
            grades.push(grade);
        }
        statuses.push(status);
        schemas.insert(slug.clone(), schema);

        // About and skills are graded against their own file's hash (what emit sends as the
        // instance hash), not the schema's.
        if about.is_none()
            && let Some(latest) = resolve_latest(
                &island.root().join(layout::about(ns, &slug)),
                &format!("{ns}-about"),
                "md",
            )?
        {
            let dir = island
                .root()
                .join(layout::about(ns, &slug))
                .join(layout::GRADINGS);
            about = Some(node(
                &dir,
                Area::AboutNamespace,
                Some(&latest.version.hash8),
                None,
                &provider,
            ));
        }
        let skills_dir = schema_dir.join("skills");
        for name in crate::island::names::child_dirs(&skills_dir) {
            let skill_hash =
                resolve_latest(&skills_dir.join(&name), &name, "mjs")?.map(|f| f.version.hash8);
            let n = node(
                &skills_dir.join(&name).join(layout::GRADINGS),
                Area::NamespaceSkills,
                Some(skill_hash.as_deref().unwrap_or(&hash)),
                None,
                &provider,
            );
            statuses.push(n.status);
            grades.extend(n.grade);
            skills.insert(format!("{slug}.{name}"), n.value);
        }
    }
    let ns_gradings = provider.join(layout::GRADINGS);
    let description = node(
        &ns_gradings,
        Area::NamespaceDescription,
        None,
        None,
        &provider,
    );
    let ns_aggregate = node(
        &ns_gradings,
        Area::ToolsAggregateNamespace,
        None,
        None,
        &provider,
    );
    for n in [&description, &ns_aggregate] {
        statuses.push(n.status);
        grades.extend(n.grade);
    }
    let about_value = match &about {
        Some(n) => {
            statuses.push(n.status);
            n.value.clone()
        }
        None => Node::not_applicable("no About resource declared"),
    };
    let status = rollup_status(&statuses);
    let grade = rollup_grade(&grades);
    Ok(json!({
        "indexVersion": super::INDEX_VERSION,
        "namespace": ns,
        "updatedAt": now.to_rfc3339_opts(SecondsFormat::Millis, true),
        "status": status,
        "grade": grade,
        "summary": {
            "schemas": schemas.len(),
            "tools": tool_count,
            "toolsStable": tools_stable,
            "about": about_value["status"],
            "description": description.value["status"],
            "skills": skills.len(),
        },
        "about": about_value,
        "description": description.value,
        "skills": skills,
        "namespaceAggregate": ns_aggregate.value,
        "schemas": schemas,
        "blockers": blockers,
    }))
}

/// A schema's status from its tools and its tools-aggregate.
pub fn schema_status(
    tools: &[NodeStatus],
    aggregate: NodeStatus,
) -> (NodeStatus, Option<&'static str>) {
    if aggregate == NodeStatus::Rejected || tools.contains(&NodeStatus::Rejected) {
        return (NodeStatus::Rejected, Some("categorical veto"));
    }
    if tools.contains(&NodeStatus::Blocked) || aggregate == NodeStatus::Blocked {
        return (NodeStatus::Blocked, Some("one or more tools blocked"));
    }
    if !tools.is_empty()
        && tools.iter().all(|s| *s == NodeStatus::Stable)
        && aggregate == NodeStatus::Stable
    {
        return (NodeStatus::Stable, None);
    }
    let any = |s: NodeStatus| s == NodeStatus::Graded || s == NodeStatus::Stable;
    if tools.iter().copied().any(any) || any(aggregate) {
        return (NodeStatus::Graded, None);
    }
    (NodeStatus::Pending, Some("not yet graded"))
}

/// The rollup status over every applicable node.
pub fn rollup_status(nodes: &[NodeStatus]) -> &'static str {
    if nodes.contains(&NodeStatus::Rejected) {
        return "rejected";
    }
    if !nodes.is_empty() && nodes.iter().all(|s| *s == NodeStatus::Stable) {
        return "operational";
    }
    if !nodes
        .iter()
        .any(|s| matches!(s, NodeStatus::Graded | NodeStatus::Stable))
    {
        return if nodes.contains(&NodeStatus::Blocked) {
            "blocked"
        } else {
            "pending"
        };
    }
    "partial"
}

/// The rollup grade: REJECTED if any, else the worst letter; `None` when nothing is graded.
pub fn rollup_grade(grades: &[AggregateGrade]) -> Option<AggregateGrade> {
    if grades.contains(&AggregateGrade::Rejected) {
        return Some(AggregateGrade::Rejected);
    }
    grades
        .iter()
        .filter_map(|g| g.letter())
        .min()
        .map(AggregateGrade::Letter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intake::{apply, scan_provider};
    use std::path::PathBuf;

    struct Fixture {
        _dir: tempfile::TempDir,
        island: Island,
        hash: String,
    }

    fn tinyapi() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let island = Island::open(&dir.path().join("island")).unwrap();
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/providers/tinyapi");
        let scan = scan_provider(&folder, false).unwrap();
        let applied = apply(&island, &scan, Utc::now()).unwrap();
        let hash = applied.imported[0].hash.clone();
        Fixture {
            _dir: dir,
            island,
            hash,
        }
    }

    impl Fixture {
        fn put(&self, rel: &str, file: &str, body: Value) -> PathBuf {
            let dir = self.island.root().join("providers/tinyapi").join(rel);
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(file);
            std::fs::write(&path, body.to_string()).unwrap();
            path
        }
        fn grade(&self, rel: &str, area: &str, ts: &str, grade: &str, mode: &str) {
            let body = json!({"grade": grade, "gradingMode": mode, "schemaHash": self.hash});
            self.put(rel, &format!("{area}--{ts}.json"), body);
        }
        fn all_b(&self) {
            for tool in ["listStations", "getLatestReading"] {
                self.grade(
                    &format!("tinyapi/tools/{tool}/_gradings"),
                    "single-test",
                    "2026-06-04T10-00-00Z",
                    "B",
                    "full",
                );
            }
            self.grade(
                "tinyapi/_gradings",
                "tools-aggregate-schema",
                "2026-06-04T10-00-00Z",
                "B",
                "full",
            );
            self.grade(
                "_gradings",
                "namespace-description",
                "2026-06-04T10-00-00Z",
                "B",
                "full",
            );
            self.grade(
                "_gradings",
                "tools-aggregate-namespace",
                "2026-06-04T10-00-00Z",
                "A",
                "full",
            );
        }
        fn index(&self) -> Value {
            namespace_index(&self.island, "tinyapi", Utc::now()).unwrap()
        }
    }

    #[test]
    fn never_graded_is_pending_without_a_grade() {
        let f = tinyapi();
        let index = f.index();
        assert_eq!(index["status"], "pending");
        assert_eq!(index["grade"], Value::Null);
        assert_eq!(index["schemas"]["tinyapi"]["status"], "pending");
        assert_eq!(index["about"]["status"], "not-applicable");
    }

    #[test]
    fn all_stable_is_operational_without_about_or_skills() {
        let f = tinyapi();
        f.all_b();
        let index = f.index();
        assert_eq!(index["schemas"]["tinyapi"]["status"], "stable");
        assert_eq!(index["status"], "operational");
        assert_eq!(index["grade"], "B");
        assert_eq!(index["summary"]["toolsStable"], 2);
        assert_eq!(
            index["schemas"]["tinyapi"]["toolsAggregate"]["boundTo"],
            f.hash.as_str()
        );
    }

    #[test]
    fn a_partial_grading_changes_nothing() {
        let f = tinyapi();
        f.all_b();
        f.grade(
            "tinyapi/tools/listStations/_gradings",
            "single-test",
            "2026-06-05T10-00-00Z",
            "D",
            "partial",
        );
        let index = f.index();
        assert_eq!(
            index["schemas"]["tinyapi"]["tools"]["listStations"]["status"],
            "stable"
        );
        assert_eq!(
            index["schemas"]["tinyapi"]["tools"]["listStations"]["grade"],
            "B"
        );
        assert_eq!(index["status"], "operational");
    }

    #[test]
    fn a_newer_full_c_makes_it_graded_and_partial() {
        let f = tinyapi();
        f.all_b();
        f.grade(
            "tinyapi/tools/listStations/_gradings",
            "single-test",
            "2026-06-05T10-00-00Z",
            "C",
            "full",
        );
        let index = f.index();
        assert_eq!(
            index["schemas"]["tinyapi"]["tools"]["listStations"]["status"],
            "graded"
        );
        assert_eq!(index["schemas"]["tinyapi"]["status"], "graded");
        assert_eq!(index["status"], "partial");
    }

    #[test]
    fn a_changed_schema_hash_falls_back_to_pending() {
        let f = tinyapi();
        for tool in ["listStations", "getLatestReading"] {
            let body = json!({"grade": "B", "gradingMode": "full", "schemaHash": "00000000"});
            f.put(
                &format!("tinyapi/tools/{tool}/_gradings"),
                "single-test--2026-06-04T10-00-00Z.json",
                body,
            );
        }
        let index = f.index();
        let tool = &index["schemas"]["tinyapi"]["tools"]["listStations"];
        assert_eq!(tool["status"], "pending");
        assert_eq!(tool["reason"], "schema changed, regrade required");
    }

    #[test]
    fn a_veto_rejects_the_schema_and_the_namespace() {
        let f = tinyapi();
        f.all_b();
        f.grade(
            "tinyapi/tools/getLatestReading/_gradings",
            "single-test",
            "2026-06-05T10-00-00Z",
            "REJECTED",
            "full",
        );
        let index = f.index();
        assert_eq!(
            index["schemas"]["tinyapi"]["tools"]["getLatestReading"]["status"],
            "rejected"
        );
        assert_eq!(index["schemas"]["tinyapi"]["status"], "rejected");
        assert_eq!(index["status"], "rejected");
    }

    #[test]
    fn pretest_blockers_and_corrupt_entries_block_with_their_reason() {
        let f = tinyapi();
        f.put("tinyapi", "summary.json", json!({"perTool": {"listStations": {"status": "blocked", "reason": "listStations (1/3): HTTP 404 Not Found"}}}));
        let corrupt = f
            .island
            .root()
            .join("providers/tinyapi/tinyapi/tools/getLatestReading/_gradings");
        std::fs::create_dir_all(&corrupt).unwrap();
        std::fs::write(
            corrupt.join("single-test--2026-06-04T10-00-00Z.json"),
            "{\"grade\": \"B\"",
        )
        .unwrap();
        let index = f.index();
        let tools = &index["schemas"]["tinyapi"]["tools"];
        assert_eq!(tools["listStations"]["status"], "blocked");
        assert_eq!(
            tools["listStations"]["reason"],
            "listStations (1/3): HTTP 404 Not Found"
        );
        assert_eq!(tools["getLatestReading"]["status"], "blocked");
        assert!(
            tools["getLatestReading"]["reason"]
                .as_str()
                .unwrap()
                .starts_with("IDX-004")
        );
        assert_eq!(index["schemas"]["tinyapi"]["status"], "blocked");
        assert_eq!(index["status"], "blocked");
        assert!(index["blockers"].as_array().unwrap().len() >= 3);
    }

    #[test]
    fn aged_answers_are_reported_with_the_due_regrade() {
        let f = tinyapi();
        let entry = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/entries/valid/spec-autonomous.json"),
        )
        .unwrap()
        .replace("a1b2c3d4", &f.hash);
        let dir = f
            .island
            .root()
            .join("providers/tinyapi/tinyapi/tools/listStations/_gradings");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("single-test--2026-05-29T10-00-00Z.json"), entry).unwrap();
        let index = f.index();
        let node = &index["schemas"]["tinyapi"]["tools"]["listStations"];
        assert_eq!(node["status"], "stable", "{node}");
        assert_eq!(node["stale"], json!(["Q-api-availability"]), "{node}");
        assert!(
            node["regradeDue"]
                .as_str()
                .unwrap()
                .contains("--regrade scheduled")
        );
        assert!(node["rawGrade"].is_string() && node["normalizedScore"].is_number());
    }

    #[test]
    fn a_missing_snapshot_blocks_the_schema() {
        let f = tinyapi();
        let dir = f.island.root().join("providers/tinyapi/tinyapi/schema");
        for entry in std::fs::read_dir(&dir).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
        let index = f.index();
        assert_eq!(index["schemas"]["tinyapi"]["status"], "blocked");
        assert_eq!(index["status"], "blocked");
    }

    #[test]
    fn rollup_rules() {
        use NodeStatus::*;
        assert_eq!(rollup_status(&[Stable, Stable]), "operational");
        assert_eq!(rollup_status(&[Stable, Pending]), "partial");
        assert_eq!(rollup_status(&[Pending, Blocked]), "blocked");
        assert_eq!(rollup_status(&[Pending]), "pending");
        assert_eq!(rollup_status(&[Stable, Rejected]), "rejected");
        let b = AggregateGrade::Letter(crate::model::Grade::B);
        let d = AggregateGrade::Letter(crate::model::Grade::D);
        assert_eq!(rollup_grade(&[b, d]), Some(d));
        assert_eq!(rollup_grade(&[]), None);
        assert_eq!(
            rollup_grade(&[b, AggregateGrade::Rejected]),
            Some(AggregateGrade::Rejected)
        );
    }
}
