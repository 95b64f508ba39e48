//! `index.json`, the derived rollup of a namespace (reference-cli.md §2.9).
//!
//! Node statuses come from the grading entries (`rollup.rs`, read leniently by
//! `entry_reader.rs`); the index is always recomputed from disk and replaced atomically.

pub mod entry_reader;
pub mod gate;
pub mod proof;
pub mod rollup;
pub mod selection;
pub mod selection_view;

use crate::island::{Island, IslandError, layout};
use chrono::{DateTime, Utc};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub const INDEX_VERSION: u64 = 2;

/// Rebuilds `providers/<ns>/index.json` from the island and writes it atomically.
pub fn rebuild_namespace(
    island: &Island,
    ns: &str,
    now: DateTime<Utc>,
) -> Result<PathBuf, IslandError> {
    let index = rollup::namespace_index(island, ns, now)?;
    write_namespace_index(island, ns, &index)
}

/// Writes an already computed namespace index atomically.
pub fn write_namespace_index(
    island: &Island,
    ns: &str,
    index: &Value,
) -> Result<PathBuf, IslandError> {
    let mut text = serde_json::to_string_pretty(index).unwrap_or_default();
    text.push('\n');
    island.replace_derived(&layout::namespace_index(ns), text.as_bytes())
}

/// The schema folders of a namespace: child folders holding a `schema/` snapshot folder.
pub fn schema_slugs(provider_dir: &Path) -> Result<Vec<String>, IslandError> {
    Ok(crate::island::names::child_dirs(provider_dir)
        .into_iter()
        .filter(|name| !name.starts_with(['_', '.']))
        .filter(|name| provider_dir.join(name).join("schema").is_dir())
        .collect())
}

pub(crate) fn tool_names(main: &Value) -> Vec<String> {
    main.get("tools")
        .or_else(|| main.get("routes"))
        .and_then(Value::as_object)
        .map(|tools| tools.keys().cloned().collect())
        .unwrap_or_default()
}
