//! `flowmcp-grading import <provider-path>`: stage 0.

use super::{CommandError, Outcome};
use crate::cli::{GlobalArgs, ImportArgs};
use crate::diagnostic::Diagnostic;
use crate::intake::{Applied, ProviderScan, apply, scan_provider};
use crate::island::{Island, resolve_root};
use serde_json::json;
use std::fmt::Write as _;
use std::path::Path;

pub fn run(args: &ImportArgs, global: &GlobalArgs) -> Result<Outcome, CommandError> {
    if is_selection_path(&args.path) {
        return import_selection(&args.path, global);
    }
    let scan = scan_provider(&args.path, args.allow_partial)?;
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    let island = Island::open(&root)?;
    let applied = apply(&island, &scan, chrono::Utc::now())?;
    Ok(Outcome {
        success: true,
        text: render(&scan, &applied, island.root()),
        json: json!({
            "status": true,
            "stage": 0,
            "namespace": applied.namespace,
            "imported": applied.imported,
            "skipped": applied.skipped,
            "normalizedSkills": applied.normalized_skills,
            "indexPath": applied.index_path,
            "failed": scan.failures,
            "about": applied.about,
            "sharedLists": applied.shared_lists,
            "warnings": applied.warnings,
            "gateUsed": "structural",
            "namespaceFromFolder": scan.namespace_from_folder,
        }),
    })
}

/// Checks a selection definition and snapshots it into `selections/<sel>/selection/`.
fn import_selection(path: &Path, global: &GlobalArgs) -> Result<Outcome, CommandError> {
    use crate::intake::selection::{check_selection, definition_file, snapshot_selection};
    let file = definition_file(path).ok_or_else(|| {
        CommandError::coded(crate::intake::IntakeError::NotFound(path.to_path_buf()))
    })?;
    let value =
        crate::json_input::read_json_file(&file, 1024 * 1024).map_err(CommandError::coded)?;
    let problems = check_selection(&value);
    if !problems.is_empty() {
        return Err(CommandError::Rejected {
            code: "SEL-002",
            message: format!(
                "selection definition {} is not valid; nothing was written",
                file.display()
            ),
            fix: "fix the fields listed above (spec chapter 16 shape)".into(),
            details: problems.into_iter().map(|d| d.in_file(&file)).collect(),
        });
    }
    let bytes = std::fs::read(&file).map_err(|source| {
        CommandError::Island(crate::island::IslandError::Read {
            path: file.clone(),
            source,
        })
    })?;
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    let island = Island::open(&root)?;
    let now = chrono::Utc::now();
    let snapshot = snapshot_selection(&island, &value, &bytes, now)?;
    let index_path = {
        let _lock = island.lock()?;
        crate::index::selection::rebuild_selection(&island, &snapshot.selection_id, now)?
    };
    let index: serde_json::Value = index_path
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let missing: Vec<String> = index["members"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, node)| node["reason"] == "selection member, not imported")
        .map(|(id, _)| id.clone())
        .collect();
    let state = if snapshot.skipped { "unchanged" } else { "new" };
    Ok(Outcome {
        success: true,
        text: format!(
            "imported selection {} from {}\n  {state} {}  {}\n  members not imported: {}\n",
            snapshot.selection_id,
            file.display(),
            snapshot.hash,
            snapshot.path.display(),
            if missing.is_empty() {
                "none".to_owned()
            } else {
                missing.join(", ")
            }
        ),
        json: json!({
            "status": true,
            "stage": 0,
            "selectionId": snapshot.selection_id,
            "hash": snapshot.hash,
            "snapshotPath": snapshot.path,
            "skipped": snapshot.skipped,
            "indexPath": index_path,
            "membersNotImported": missing,
        }),
    })
}

/// A `.json` file, or a folder with no `.mjs` modules but a `.json` file, is a selection
/// definition.
fn is_selection_path(path: &Path) -> bool {
    if path.is_file() {
        return path.extension().is_some_and(|e| e == "json");
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return false;
    };
    let names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .collect();
    !names.iter().any(|n| n.ends_with(".mjs")) && names.iter().any(|n| n.ends_with(".json"))
}

fn render(scan: &ProviderScan, applied: &Applied, root: &Path) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "imported namespace {} from {} into {}",
        applied.namespace,
        scan.folder.display(),
        root.display()
    );
    if scan.namespace_from_folder {
        let _ = writeln!(
            text,
            "  (no schema declares a namespace; the folder name is used)"
        );
    }
    let width = scan.schemas.iter().map(|s| s.slug.len()).max().unwrap_or(0);
    for row in &applied.imported {
        let _ = writeln!(
            text,
            "  new       {:width$}  {}  {}",
            row.schema,
            row.hash,
            file_name(&row.snapshot_path)
        );
    }
    for row in &applied.skipped {
        let _ = writeln!(text, "  unchanged {:width$}  {}", row.schema, row.hash);
    }
    for about in &applied.about {
        let state = if about.skipped { "unchanged" } else { "new" };
        let _ = writeln!(
            text,
            "  about     {:width$}  {}  {state} ({})",
            about.schema, about.hash, about.source
        );
    }
    for skill in &applied.normalized_skills {
        let state = if skill.skipped { "unchanged" } else { "new" };
        let _ = writeln!(
            text,
            "  skill     {:width$}  {}  {} {state}",
            skill.schema, skill.hash, skill.skill_name
        );
    }
    for list in &applied.shared_lists {
        let state = match (&list.path, list.skipped) {
            (None, _) => "missing".to_owned(),
            (Some(_), true) => "unchanged".to_owned(),
            (Some(_), false) => "new".to_owned(),
        };
        let _ = writeln!(
            text,
            "  list      {:width$}  {}  {} {state}",
            list.list.schema,
            list.list.hash.as_deref().unwrap_or("--------"),
            list.list.name
        );
    }
    for failure in &scan.failures {
        let _ = writeln!(text, "  FAILED    {}", failure.file.display());
        for error in &failure.errors {
            push_indented(&mut text, error);
        }
    }
    for warning in &applied.warnings {
        push_indented(&mut text, warning);
    }
    let _ = writeln!(
        text,
        "\n{} new, {} unchanged, {} failed; index: {}",
        applied.imported.len(),
        applied.skipped.len(),
        scan.failures.len(),
        applied.index_path.display()
    );
    text
}

fn push_indented(text: &mut String, diagnostic: &Diagnostic) {
    for line in diagnostic.to_string().lines() {
        let _ = writeln!(text, "    {line}");
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
