//! `flowmcp-grading export <target>`: a fresh folder `<exportRoot>/<target>--<timestamp>/` with
//! `index.json` and each schema's newest snapshot as `schemas/<name>.mjs` (bytes unchanged), or for
//! a selection its definition, About and skills. It is
//! built in a temporary folder beside it and renamed into place, so it never exists half-written,
//! and an existing folder is never overwritten (EXP-003). The island is not modified. The
//! provider proof `<exportRoot>/providers/<ns>/grade.json` is (re)written beside the exports.

use super::{CommandError, Outcome};
use crate::cli::{ExportArgs, GlobalArgs};
use crate::diagnostic::Coded;
use crate::island::names::resolve_latest;
use crate::island::{Island, Target, home_dir, layout, resolve_root};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Codes: EXP-003 the export folder exists, EXP-004 a schema has no snapshot, EXP-006 writing failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("export folder already exists (no overwrite): {0}")]
    Exists(PathBuf),
    #[error("no resolvable snapshot for schema {0}")]
    NoSnapshot(String),
    #[error("writing the export {path} failed: {reason}")]
    Write { path: PathBuf, reason: String },
}

impl Coded for ExportError {
    fn code(&self) -> &'static str {
        match self {
            ExportError::Exists(_) => "EXP-003",
            ExportError::NoSnapshot(_) => "EXP-004",
            ExportError::Write { .. } => "EXP-006",
        }
    }
    fn fix(&self) -> String {
        match self {
            ExportError::Exists(_) => {
                "run the export again (it gets a new timestamp) or pass another --export-dir".into()
            }
            ExportError::NoSnapshot(_) => "re-import the provider folder".into(),
            ExportError::Write { .. } => {
                "check free space and permissions of the export root".into()
            }
        }
    }
}

/// `--export-dir` (or `FLOWMCP_GRADING_EXPORT`) > `gradingExportDir` in `~/.flowmcp/config.json`
/// > `<island>/_exports`.
pub(crate) fn export_root(flag: Option<&Path>, island_root: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    if let Some(flag) = flag.filter(|p| !p.as_os_str().is_empty()) {
        return cwd.join(flag);
    }
    let from_config = home_dir().and_then(|home| {
        let text = std::fs::read_to_string(home.join(".flowmcp/config.json")).ok()?;
        let value: serde_json::Value = serde_json::from_str(&text).ok()?;
        let dir = value.get("gradingExportDir")?.as_str()?.trim().to_owned();
        (!dir.is_empty()).then(|| home.join(".flowmcp").join(dir))
    });
    from_config.unwrap_or_else(|| island_root.join("_exports"))
}

pub fn run(args: &ExportArgs, global: &GlobalArgs) -> Result<Outcome, CommandError> {
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    let island = Island::open_existing(&root)?;
    let export_root = export_root(args.export_dir.as_deref(), island.root());
    let ns = match island.resolve_target(&args.target.target)? {
        Target::Provider(ns) => ns,
        Target::Selection(sel) => return export_selection(&island, &export_root, &sel),
    };
    let index = crate::index::rollup::namespace_index(&island, &ns, chrono::Utc::now())?;
    let provider = island.root().join(layout::provider(&ns));
    let mut snapshots = Vec::new();
    for slug in crate::index::schema_slugs(&provider)? {
        let latest = resolve_latest(&provider.join(&slug).join("schema"), &slug, "mjs")?
            .ok_or_else(|| CommandError::coded(ExportError::NoSnapshot(slug.clone())))?;
        snapshots.push((
            PathBuf::from("schemas").join(format!("{slug}.mjs")),
            latest.path,
        ));
    }
    let final_dir = write_export(&export_root, &ns, &index, &snapshots)?;
    let exported: Vec<serde_json::Value> = snapshots
        .iter()
        .map(|(rel, path)| {
            json!({
                "schemaName": rel.file_stem().map(|s| s.to_string_lossy().into_owned()),
                "sourceSnapshot": path,
                "exportPath": final_dir.join(rel),
            })
        })
        .collect();
    let generated_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let proof = crate::index::proof::write(&export_root, &index, &generated_at).map_err(|err| {
        CommandError::coded(ExportError::Write {
            path: export_root.join("providers").join(&ns).join("grade.json"),
            reason: err.to_string(),
        })
    })?;
    Ok(Outcome {
        success: true,
        text: format!(
            "exported namespace {ns} ({} schemas) to {}\nprovider proof: {}\n",
            exported.len(),
            final_dir.display(),
            proof.display()
        ),
        json: json!({
            "status": true,
            "flow": "namespace",
            "exportDir": final_dir,
            "indexExportPath": final_dir.join("index.json"),
            "schemaExports": exported,
            "proofPath": proof,
        }),
    })
}

/// Exports a selection: its index (with the lockSnapshot kept), the newest definition, About
/// and skills. Members stay in their providers' exports.
fn export_selection(
    island: &Island,
    export_root: &Path,
    sel: &str,
) -> Result<Outcome, CommandError> {
    let view = super::selection_run::require_selection(island, sel)?;
    let index = crate::index::selection::index_of(island, &view, chrono::Utc::now())?;
    let mut files = vec![(
        PathBuf::from("selection.json"),
        view.definition_file.path.clone(),
    )];
    if let Some((path, _)) = &view.about {
        files.push((PathBuf::from("about.md"), path.clone()));
    }
    for skill in &view.skills {
        files.push((
            PathBuf::from("skills").join(format!("{}.mjs", skill.name)),
            skill.file.clone(),
        ));
    }
    let final_dir = write_export(export_root, sel, &index, &files)?;
    Ok(Outcome {
        success: true,
        text: format!(
            "exported selection {sel} ({} files and index.json; status {}, grade {}) to {}\n",
            files.len(),
            index["status"].as_str().unwrap_or("?"),
            index["grade"].as_str().unwrap_or("none"),
            final_dir.display()
        ),
        json: json!({
            "status": true,
            "flow": "selection",
            "exportDir": final_dir,
            "indexExportPath": final_dir.join("index.json"),
            "files": files.iter().map(|(rel, src)| json!({"source": src, "exportPath": final_dir.join(rel)})).collect::<Vec<_>>(),
            "rollupStatus": index["status"],
            "rollupGrade": index["grade"],
        }),
    })
}

/// Writes `<exportRoot>/<name>--<timestamp>/` with `index.json` and `files` (export-relative
/// path, source), built in a temporary folder and renamed into place; never overwrites.
fn write_export(
    export_root: &Path,
    name: &str,
    index: &serde_json::Value,
    files: &[(PathBuf, PathBuf)],
) -> Result<PathBuf, CommandError> {
    let stamp = chrono::Utc::now()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
        .replace([':', '.'], "-");
    let final_dir = export_root.join(format!("{name}--{stamp}"));
    if final_dir.exists() {
        return Err(CommandError::coded(ExportError::Exists(final_dir)));
    }
    let temp = export_root.join(format!(".{name}--{stamp}.tmp-{}", std::process::id()));
    let write = |path: &Path, bytes: &[u8]| -> Result<(), CommandError> {
        std::fs::create_dir_all(path.parent().unwrap_or(path))
            .and_then(|()| std::fs::write(path, bytes))
            .map_err(|err| {
                CommandError::coded(ExportError::Write {
                    path: path.to_path_buf(),
                    reason: err.to_string(),
                })
            })
    };
    let result = (|| {
        let mut text = serde_json::to_string_pretty(index).unwrap_or_default();
        text.push('\n');
        write(&temp.join("index.json"), text.as_bytes())?;
        for (rel, path) in files {
            let bytes = std::fs::read(path).map_err(|err| {
                CommandError::coded(ExportError::Write {
                    path: path.clone(),
                    reason: err.to_string(),
                })
            })?;
            write(&temp.join(rel), &bytes)?;
        }
        if final_dir.exists() {
            return Err(CommandError::coded(ExportError::Exists(final_dir.clone())));
        }
        std::fs::rename(&temp, &final_dir).map_err(|err| {
            CommandError::coded(ExportError::Write {
                path: final_dir.clone(),
                reason: err.to_string(),
            })
        })
    })();
    if let Err(err) = result {
        let _ = std::fs::remove_dir_all(&temp);
        return Err(err);
    }
    Ok(final_dir)
}
