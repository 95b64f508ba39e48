//! Writing a scanned provider into the island, under the write lock: schema snapshots (byte
//! copies), About texts, skills and shared lists, each as a new versioned file unless the same
//! content is already there; then the namespace index.

use super::about::{AboutText, find_about};
use super::lists::{self, ListRef};
use super::scan::ProviderScan;
use super::skills::{inline_skills, owner_of, render_inline};
use crate::diagnostic::Diagnostic;
use crate::hash::hash8;
use crate::index;
use crate::island::names::{Versioned, next_timestamp, versions};
use crate::island::{Island, IslandError, layout};
use crate::timestamp::to_rfc3339;
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportedRow {
    pub schema: String,
    pub name: String,
    pub hash: String,
    pub snapshot_path: PathBuf,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkippedRow {
    pub schema: String,
    pub name: String,
    pub hash: String,
    pub snapshot_path: PathBuf,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillRow {
    pub skill_name: String,
    pub schema: String,
    pub hash: String,
    pub path: PathBuf,
    pub provenance: serde_json::Value,
    pub skipped: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AboutRow {
    pub schema: String,
    pub hash: String,
    pub path: PathBuf,
    pub source: String,
    pub skipped: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListRow {
    #[serde(flatten)]
    pub list: ListRef,
    pub path: Option<PathBuf>,
    pub skipped: bool,
}

/// What `apply` wrote (or found already there).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    pub namespace: String,
    pub imported: Vec<ImportedRow>,
    pub skipped: Vec<SkippedRow>,
    pub normalized_skills: Vec<SkillRow>,
    pub about: Vec<AboutRow>,
    pub shared_lists: Vec<ListRow>,
    pub index_path: PathBuf,
    pub warnings: Vec<Diagnostic>,
}

/// Writes the scan into the island. Holds the island's write lock for the whole time.
pub fn apply(
    island: &Island,
    scan: &ProviderScan,
    now: DateTime<Utc>,
) -> Result<Applied, IslandError> {
    let _lock = island.lock()?;
    let ns = &scan.namespace;
    let mut applied = Applied {
        namespace: ns.clone(),
        imported: Vec::new(),
        skipped: Vec::new(),
        normalized_skills: Vec::new(),
        about: Vec::new(),
        shared_lists: Vec::new(),
        index_path: PathBuf::new(),
        warnings: scan.warnings.clone(),
    };

    for schema in &scan.schemas {
        applied.warnings.extend(schema.warnings.iter().cloned());
        let dir = layout::snapshots(ns, &schema.slug);
        match write_version(
            island,
            NewVersion {
                dir,
                name: &schema.slug,
                ext: "mjs",
                hash: &schema.hash8,
                bytes: &schema.bytes,
            },
            SameWhen::Bytes,
            now,
        )? {
            Written::New(path) => applied.imported.push(ImportedRow {
                schema: schema.slug.clone(),
                name: schema.name().to_owned(),
                hash: schema.hash8.clone(),
                snapshot_path: path,
            }),
            Written::Same(path) => applied.skipped.push(SkippedRow {
                schema: schema.slug.clone(),
                name: schema.name().to_owned(),
                hash: schema.hash8.clone(),
                snapshot_path: path,
            }),
        }

        match find_about(&schema.main, &schema.path, &scan.folder) {
            Ok(Some(about)) => {
                applied
                    .about
                    .push(write_about(island, ns, &schema.slug, &about, now)?)
            }
            Ok(None) => {}
            Err(warning) => applied.warnings.push(warning),
        }

        let (inline, warnings) = inline_skills(schema);
        applied.warnings.extend(warnings);
        for skill in inline {
            let text = render_inline(&skill, schema, &to_rfc3339(now));
            let dir = layout::skill(ns, &schema.slug, &skill.name);
            let written = write_version(
                island,
                NewVersion {
                    dir,
                    name: &skill.name,
                    ext: "mjs",
                    hash: &skill.hash8,
                    bytes: text.as_bytes(),
                },
                SameWhen::Hash,
                now,
            )?;
            applied.normalized_skills.push(SkillRow {
                skill_name: skill.name.clone(),
                schema: schema.slug.clone(),
                hash: skill.hash8.clone(),
                skipped: written.is_same(),
                path: written.into_path(),
                provenance: json!({"normalizedFrom": "inline", "inlineBodyKey": skill.body_key, "sourcePath": schema.path}),
            });
        }

        let (refs, warnings) =
            lists::resolve(&schema.main, &schema.slug, &schema.path, &scan.folder);
        applied.warnings.extend(warnings);
        for list in refs {
            applied.shared_lists.push(write_list(island, list, now)?);
        }
    }

    for skill in &scan.skills {
        let (owner, warning) = owner_of(skill, &scan.schemas);
        applied.warnings.extend(warning);
        let slug = &scan.schemas[owner].slug;
        let dir = layout::skill(ns, slug, &skill.name);
        let written = write_version(
            island,
            NewVersion {
                dir,
                name: &skill.name,
                ext: "mjs",
                hash: &skill.hash8,
                bytes: &skill.bytes,
            },
            SameWhen::Bytes,
            now,
        )?;
        applied.normalized_skills.push(SkillRow {
            skill_name: skill.name.clone(),
            schema: slug.clone(),
            hash: skill.hash8.clone(),
            skipped: written.is_same(),
            path: written.into_path(),
            provenance: json!({"normalizedFrom": "file", "sourcePath": skill.path}),
        });
    }

    applied.index_path = index::rebuild_namespace(island, ns, now)?;
    Ok(applied)
}

pub(crate) enum Written {
    New(PathBuf),
    Same(PathBuf),
}

impl Written {
    pub(crate) fn is_same(&self) -> bool {
        matches!(self, Written::Same(_))
    }
    pub(crate) fn into_path(self) -> PathBuf {
        match self {
            Written::New(p) | Written::Same(p) => p,
        }
    }
}

/// A new version of a file in the island: `<dir>/<name>--<ts>--<hash8>.<ext>`.
pub(crate) struct NewVersion<'a> {
    pub dir: PathBuf,
    pub name: &'a str,
    pub ext: &'a str,
    pub hash: &'a str,
    pub bytes: &'a [u8],
}

/// When an existing version counts as the same content.
#[derive(Clone, Copy)]
pub(crate) enum SameWhen {
    /// Identical bytes (byte copies: new bytes with an existing hash, such as a handler or
    /// comment edit, are a new version, never an error).
    Bytes,
    /// The same hash (rendered files carry an extraction time, so their bytes differ every run).
    Hash,
}

/// Writes `version` unless the same content is there already.
pub(crate) fn write_version(
    island: &Island,
    version: NewVersion,
    same_when: SameWhen,
    now: DateTime<Utc>,
) -> Result<Written, IslandError> {
    let existing = versions(&island.root().join(&version.dir), version.name, version.ext)?;
    let same = existing.iter().rev().find(|f| {
        f.version.hash8 == version.hash
            && match same_when {
                SameWhen::Bytes => same_bytes(&f.path, version.bytes),
                SameWhen::Hash => true,
            }
    });
    if let Some(same) = same {
        return Ok(Written::Same(same.path.clone()));
    }
    let file = Versioned {
        name: version.name.to_owned(),
        at: next_timestamp(&existing, now),
        hash8: version.hash.to_owned(),
        ext: version.ext.to_owned(),
    };
    let path = island.create_new(&version.dir.join(file.file_name()), version.bytes)?;
    Ok(Written::New(path))
}

fn same_bytes(path: &Path, bytes: &[u8]) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() == bytes.len() as u64)
        && std::fs::read(path).is_ok_and(|on_disk| on_disk == bytes)
}

fn write_about(
    island: &Island,
    ns: &str,
    slug: &str,
    about: &AboutText,
    now: DateTime<Utc>,
) -> Result<AboutRow, IslandError> {
    // The node implementation's aboutHash: the canonical JSON of {"about": <text>}.
    let hash = hash8(&json!({ "about": about.text }));
    let dir = layout::about(ns, slug);
    let written = write_version(
        island,
        NewVersion {
            dir,
            name: &format!("{ns}-about"),
            ext: "md",
            hash: &hash,
            bytes: about.text.as_bytes(),
        },
        SameWhen::Bytes,
        now,
    )?;
    Ok(AboutRow {
        schema: slug.to_owned(),
        hash,
        source: about
            .origin
            .as_ref()
            .map_or_else(|| "inline".to_owned(), |p| p.display().to_string()),
        skipped: written.is_same(),
        path: written.into_path(),
    })
}

fn write_list(island: &Island, list: ListRef, now: DateTime<Utc>) -> Result<ListRow, IslandError> {
    let (Some(value), Some(hash)) = (&list.value, &list.hash) else {
        return Ok(ListRow {
            list,
            path: None,
            skipped: false,
        });
    };
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    let dir = layout::shared_list(&list.name);
    let written = write_version(
        island,
        NewVersion {
            dir,
            name: &list.name,
            ext: "json",
            hash,
            bytes: text.as_bytes(),
        },
        SameWhen::Bytes,
        now,
    )?;
    Ok(ListRow {
        skipped: written.is_same(),
        path: Some(written.into_path()),
        list,
    })
}
