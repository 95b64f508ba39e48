//! `index.json`, the derived rollup of a namespace (reference-cli.md §2.9).
//!
//! This version builds the index that import leaves behind: every schema and tool `pending`,
//! each schema with its newest snapshot `{file, hash}`. Rolling up grading entries into node
//! statuses is the index issue's work and not done here.

pub mod entry_reader;

use crate::island::names::resolve_latest;
use crate::island::{Island, IslandError, layout};
use crate::source;
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

pub const INDEX_VERSION: u64 = 2;

/// Rebuilds `providers/<ns>/index.json` from the island and writes it atomically.
pub fn rebuild_namespace(
    island: &Island,
    ns: &str,
    now: DateTime<Utc>,
) -> Result<PathBuf, IslandError> {
    let index = namespace_index(island, ns, now)?;
    let mut text = serde_json::to_string_pretty(&index).unwrap_or_default();
    text.push('\n');
    island.replace_derived(&layout::namespace_index(ns), text.as_bytes())
}

/// The schema folders of a namespace: child folders holding a `schema/` snapshot folder.
pub fn schema_slugs(provider_dir: &Path) -> Result<Vec<String>, IslandError> {
    let entries = match std::fs::read_dir(provider_dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(IslandError::Read {
                path: provider_dir.to_path_buf(),
                source,
            });
        }
    };
    let mut slugs: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().join("schema").is_dir())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|name| !name.starts_with(['_', '.']))
        .collect();
    slugs.sort();
    Ok(slugs)
}

fn namespace_index(island: &Island, ns: &str, now: DateTime<Utc>) -> Result<Value, IslandError> {
    let provider_dir = island.root().join(layout::provider(ns));
    let mut schemas = Map::new();
    let mut blockers = Vec::new();
    let mut tool_count = 0;
    let mut skills = Map::new();
    let mut has_about = false;
    for slug in schema_slugs(&provider_dir)? {
        let snapshot_dir = provider_dir.join(&slug).join("schema");
        let Some(latest) = resolve_latest(&snapshot_dir, &slug, "mjs")? else {
            continue;
        };
        let file = latest
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let snapshot = json!({ "file": file, "hash": latest.version.hash8 });
        let node = match source::read_module(&latest.path)
            .and_then(|module| module.schema_main().map(tool_names))
        {
            Ok(tools) => {
                tool_count += tools.len();
                let tools: Map<String, Value> = tools
                    .into_iter()
                    .map(|t| (t, json!({"status": "pending", "reason": "no grading yet"})))
                    .collect();
                blockers
                    .push(json!({"node": format!("schemas.{slug}"), "reason": "not yet graded"}));
                json!({
                    "status": "pending",
                    "tools": tools,
                    "toolsAggregate": {"status": "pending", "reason": "no grading yet"},
                    "reason": "not yet graded",
                    "snapshot": snapshot,
                })
            }
            Err(err) => {
                let reason = format!("snapshot not readable: {err}");
                blockers.push(json!({"node": format!("schemas.{slug}"), "reason": reason}));
                json!({
                    "status": "blocked",
                    "tools": {},
                    "toolsAggregate": {"status": "pending", "reason": "no grading yet"},
                    "reason": reason,
                    "snapshot": snapshot,
                })
            }
        };
        schemas.insert(slug.clone(), node);
        let about_dir = island.root().join(layout::about(ns, &slug));
        if resolve_latest(&about_dir, &format!("{ns}-about"), "md")?.is_some() {
            has_about = true;
        }
        let skills_dir = provider_dir.join(&slug).join("skills");
        if let Ok(entries) = std::fs::read_dir(&skills_dir) {
            let mut names: Vec<String> = entries
                .flatten()
                .filter(|e| e.path().is_dir())
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .collect();
            names.sort();
            for name in names {
                skills.insert(
                    format!("{slug}.{name}"),
                    json!({"status": "pending", "reason": "no skills graded"}),
                );
            }
        }
    }
    let about = if has_about {
        json!({"status": "pending", "reason": "no about graded"})
    } else {
        json!({"status": "not-applicable", "reason": "no About resource declared"})
    };
    Ok(json!({
        "indexVersion": INDEX_VERSION,
        "namespace": ns,
        "updatedAt": now.to_rfc3339_opts(SecondsFormat::Millis, true),
        "status": "pending",
        "grade": null,
        "summary": {
            "schemas": schemas.len(),
            "tools": tool_count,
            "toolsStable": 0,
            "about": about["status"],
            "description": "pending",
            "skills": skills.len(),
        },
        "about": about,
        "description": {"status": "pending", "reason": "no description graded"},
        "skills": skills,
        "namespaceAggregate": {"status": "pending", "reason": "no grading yet"},
        "schemas": schemas,
        "blockers": blockers,
    }))
}

fn tool_names(main: &Value) -> Vec<String> {
    main.get("tools")
        .or_else(|| main.get("routes"))
        .and_then(Value::as_object)
        .map(|tools| tools.keys().cloned().collect())
        .unwrap_or_default()
}
