//! What a selection definition brings beside itself: its About (the domain-knowledge document,
//! spec ch. 10/11) and its skills (spec ch. 13, each with its stored `level`). Both are read
//! from files next to the definition and snapshotted into the selection's folder:
//! `selections/<sel>/resources/about/<sel>-about--<ts>--<hash8>.md` and
//! `selections/<sel>/skills/<name>/<name>--<ts>--<hash8>.mjs`.
//!
//! The About is the `resources[]` item named `about` with a `file`, or else an `about.md` beside
//! the definition. Skills are `skills[]` items `{ "file": "<path>" }` (a bare string path is
//! accepted too). Paths are relative to the definition file and must stay inside its folder.
//!
//! Code SEL-003: an About or skill file that cannot be used.

use super::about::MAX_ABOUT_BYTES;
use super::apply::{NewVersion, SameWhen, write_version};
use super::scan::{ScannedSkill, read_skill};
use crate::diagnostic::Diagnostic;
use crate::hash::hash8;
use crate::island::{Island, IslandError, layout};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Value, json};
use std::path::{Component, Path, PathBuf};

/// The selection skill levels (spec ch. 13): L1 Signpost, L2 Topic, L3 Usecase.
pub const LEVELS: [&str; 3] = ["L1", "L2", "L3"];

#[derive(Debug, Clone)]
pub struct AboutSource {
    pub file: PathBuf,
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct SelectionSkill {
    pub scanned: ScannedSkill,
    pub level: String,
}

#[derive(Debug, Clone, Default)]
pub struct SelectionSources {
    pub about: Option<AboutSource>,
    pub skills: Vec<SelectionSkill>,
}

/// One file written (or found unchanged) for a selection.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceRow {
    /// `about` or `skill`.
    pub kind: &'static str,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    pub hash: String,
    pub path: PathBuf,
    pub skipped: bool,
}

/// The relative file of a `skills[]` item, if it has the accepted shape.
pub fn skill_file_of(item: &Value) -> Option<&str> {
    item.as_str()
        .or_else(|| item.get("file").and_then(Value::as_str))
        .filter(|f| !f.trim().is_empty())
}

fn problem(file: &Path, pointer: &str, message: String, fix: &str) -> Diagnostic {
    Diagnostic::error("SEL-003", message, fix)
        .in_file(file)
        .at(pointer)
}

/// `relative` inside `base`, refusing absolute paths and `..`.
fn inside(base: &Path, relative: &str) -> Option<PathBuf> {
    let path = Path::new(relative);
    path.components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        .then(|| base.join(path))
}

/// Reads the About and skills a checked definition refers to. Every problem is listed.
pub fn read_sources(
    definition_file: &Path,
    definition: &Value,
) -> Result<SelectionSources, Vec<Diagnostic>> {
    let base = definition_file.parent().unwrap_or(Path::new("."));
    let mut errors = Vec::new();
    let mut sources = SelectionSources::default();

    let declared = definition["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .find(|(_, r)| r["name"] == "about");
    let about_file = match declared {
        Some((i, r)) => match r["file"].as_str().and_then(|f| inside(base, f)) {
            Some(path) => Some((path, format!("/resources/{i}/file"))),
            None => {
                errors.push(problem(
                    definition_file,
                    &format!("/resources/{i}"),
                    "the `about` resource needs a `file` inside the definition's folder".into(),
                    "e.g. { \"name\": \"about\", \"file\": \"about.md\" }",
                ));
                None
            }
        },
        None => Some(base.join("about.md"))
            .filter(|p| p.is_file())
            .map(|p| (p, String::new())),
    };
    if let Some((path, pointer)) = about_file {
        match read_text(&path) {
            Ok(text) if !text.trim().is_empty() => {
                sources.about = Some(AboutSource { file: path, text })
            }
            Ok(_) => errors.push(problem(
                &path,
                &pointer,
                "the About file is empty".into(),
                "write the domain-knowledge document (seven sections, spec ch. 10)",
            )),
            Err(message) => errors.push(problem(
                definition_file,
                &pointer,
                format!("cannot read the About file {}: {message}", path.display()),
                "point `file` at an existing UTF-8 markdown file of at most 1 MiB",
            )),
        }
    }

    for (i, item) in definition["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let pointer = format!("/skills/{i}");
        let Some(path) = skill_file_of(item).and_then(|f| inside(base, f)) else {
            errors.push(problem(
                definition_file,
                &pointer,
                "a skill needs a `file` inside the definition's folder".into(),
                "e.g. { \"file\": \"skills/price-entry.mjs\" }",
            ));
            continue;
        };
        let scanned = match read_skill(&path, false) {
            Ok(scanned) => scanned,
            Err(found) => {
                errors.extend(found);
                continue;
            }
        };
        let level = scanned.skill["level"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if !LEVELS.contains(&level.as_str()) {
            errors.push(problem(
                &path,
                "/level",
                format!(
                    "selection skill `{}` has no valid `level` (got {})",
                    scanned.name, scanned.skill["level"]
                ),
                "store `level: 'L1'` (Signpost), 'L2' (Topic) or 'L3' (Usecase) in the skill; the grader reads it, never assigns it",
            ));
        }
        if let Some(kind) = scanned.skill.get("type").and_then(Value::as_str)
            && kind != "selection"
        {
            errors.push(problem(
                &path,
                "/type",
                format!(
                    "skill `{}` has type `{kind}`, not `selection`",
                    scanned.name
                ),
                "selection skills carry type: 'selection'",
            ));
        }
        if sources
            .skills
            .iter()
            .any(|s| s.scanned.name == scanned.name)
        {
            errors.push(problem(
                definition_file,
                &pointer,
                format!("two skills are named `{}`", scanned.name),
                "give every skill of the selection its own name",
            ));
        }
        sources.skills.push(SelectionSkill { scanned, level });
    }
    if errors.is_empty() {
        Ok(sources)
    } else {
        Err(errors)
    }
}

fn read_text(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() || meta.len() > MAX_ABOUT_BYTES {
        return Err("not a file of at most 1 MiB".into());
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8".into())
}

/// The About hash: as for namespaces, the canonical JSON of `{"about": <text>}`.
pub fn about_hash(text: &str) -> String {
    hash8(&json!({ "about": text }))
}

/// Snapshots the sources into the selection's folder (unchanged files are kept, not rewritten).
/// The caller holds the island's lock.
pub fn write_sources(
    island: &Island,
    sel: &str,
    sources: &SelectionSources,
    now: DateTime<Utc>,
) -> Result<Vec<SourceRow>, IslandError> {
    let mut rows = Vec::new();
    if let Some(about) = &sources.about {
        let hash = about_hash(&about.text);
        let written = write_version(
            island,
            NewVersion {
                dir: layout::selection_about(sel),
                name: &format!("{sel}-about"),
                ext: "md",
                hash: &hash,
                bytes: about.text.as_bytes(),
            },
            SameWhen::Bytes,
            now,
        )?;
        rows.push(SourceRow {
            kind: "about",
            name: format!("{sel}-about"),
            level: None,
            hash,
            skipped: written.is_same(),
            path: written.into_path(),
        });
    }
    for skill in &sources.skills {
        let written = write_version(
            island,
            NewVersion {
                dir: layout::selection_skill(sel, &skill.scanned.name),
                name: &skill.scanned.name,
                ext: "mjs",
                hash: &skill.scanned.hash8,
                bytes: &skill.scanned.bytes,
            },
            SameWhen::Bytes,
            now,
        )?;
        rows.push(SourceRow {
            kind: "skill",
            name: skill.scanned.name.clone(),
            level: Some(skill.level.clone()),
            hash: skill.scanned.hash8.clone(),
            skipped: written.is_same(),
            path: written.into_path(),
        });
    }
    Ok(rows)
}
