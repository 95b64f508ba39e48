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
    if let [path] = args.paths.as_slice() {
        return import_one(path, args, global);
    }
    // Several paths: one after the other; the first refusal stops the rest (the ones before it
    // are imported, and say so).
    // Provider folders are read on every core first (reading only), a window at a time so that
    // memory stays bounded; writing stays in order.
    let mut text = String::new();
    let mut results = Vec::new();
    for window in args.paths.chunks(PRESCAN_WINDOW) {
        let mut scans = prescan(window, args.allow_partial);
        for (i, path) in window.iter().enumerate() {
            match import_one_scanned(path, args, global, scans[i].take()) {
                Ok(outcome) => {
                    text.push_str(&outcome.text);
                    results.push(outcome.json);
                }
                Err(err) => {
                    if !results.is_empty() {
                        let _ = writeln!(
                            text,
                            "stopped at {}: {} of {} paths imported before it",
                            path.display(),
                            results.len(),
                            args.paths.len()
                        );
                        eprint!("{text}");
                    }
                    return Err(err);
                }
            }
        }
    }
    let _ = writeln!(text, "{} paths imported", results.len());
    Ok(Outcome {
        success: true,
        text,
        json: json!({"status": true, "stage": 0, "imports": results}),
    })
}

type Scanned = Result<ProviderScan, crate::intake::IntakeError>;

/// How many folders are read ahead of writing.
const PRESCAN_WINDOW: usize = 32;

/// Scans the provider folders among `paths` on all cores; `None` for selection files.
fn prescan(paths: &[std::path::PathBuf], allow_partial: bool) -> Vec<Option<Scanned>> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(paths.len().max(1));
    let mut out: Vec<Option<Scanned>> = paths.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                scope.spawn(move || {
                    paths
                        .iter()
                        .enumerate()
                        .skip(w)
                        .step_by(workers)
                        .filter(|(_, p)| !is_selection_path(p))
                        .map(|(i, p)| (i, scan_provider(p, allow_partial)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            for (i, scanned) in handle.join().unwrap_or_default() {
                out[i] = Some(scanned);
            }
        }
    });
    out
}

fn import_one(
    path: &Path,
    args: &ImportArgs,
    global: &GlobalArgs,
) -> Result<Outcome, CommandError> {
    import_one_scanned(path, args, global, None)
}

fn import_one_scanned(
    path: &Path,
    args: &ImportArgs,
    global: &GlobalArgs,
    scanned: Option<Scanned>,
) -> Result<Outcome, CommandError> {
    if is_selection_path(path) {
        return import_selection(path, args.member_source.as_deref(), global);
    }
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    if let (Ok(folder), Ok(island_root)) =
        (std::fs::canonicalize(path), std::fs::canonicalize(&root))
        && folder.starts_with(&island_root)
    {
        return Err(crate::intake::IntakeError::InsideIsland {
            folder,
            root: island_root,
        }
        .into());
    }
    let scan = match scanned {
        Some(scanned) => scanned?,
        None => scan_provider(path, args.allow_partial)?,
    };
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

/// Checks a selection definition, reads its About and skills, imports missing member
/// namespaces from `--member-source`, then snapshots it all into `selections/<sel>/` and
/// rebuilds the selection index. Nothing is written when any check fails.
fn import_selection(
    path: &Path,
    member_source: Option<&Path>,
    global: &GlobalArgs,
) -> Result<Outcome, CommandError> {
    use crate::intake::selection::{check_selection, definition_file, snapshot_selection};
    use crate::intake::selection_sources::{read_sources, write_sources};
    let file = definition_file(path).ok_or_else(|| {
        CommandError::coded(crate::intake::IntakeError::NotFound(path.to_path_buf()))
    })?;
    let value = crate::json_input::read_json_file(&file, 1024 * 1024)
        .map_err(|e| CommandError::input(&file, e))?;
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
    let sources = read_sources(&file, &value).map_err(|details| CommandError::Rejected {
        code: "SEL-003",
        message: format!(
            "the About or skills of selection definition {} cannot be used; nothing was written",
            file.display()
        ),
        fix: "fix the files listed above".into(),
        details,
    })?;
    let bytes = std::fs::read(&file).map_err(|source| {
        CommandError::Island(crate::island::IslandError::Read {
            path: file.clone(),
            source,
        })
    })?;
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    let island = Island::open(&root)?;
    let now = chrono::Utc::now();
    let chained = match member_source {
        Some(source) => import_members(&island, &value, source, now)?,
        None => Vec::new(),
    };
    let (snapshot, rows, index_path) = {
        let _lock = island.lock()?;
        let snapshot = snapshot_selection(&island, &value, &bytes, now)?;
        let rows = write_sources(&island, &snapshot.selection_id, &sources, now)?;
        let index_path =
            crate::index::selection::rebuild_selection(&island, &snapshot.selection_id, now)?;
        (snapshot, rows, index_path)
    };
    let index: serde_json::Value = index_path
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let missing = crate::index::selection::members_not_imported(&index);
    let state = if snapshot.skipped { "unchanged" } else { "new" };
    let mut text = format!(
        "imported selection {} from {}\n  {state} {}  {}\n",
        snapshot.selection_id,
        file.display(),
        snapshot.hash,
        snapshot.path.display(),
    );
    for row in &rows {
        let _ = writeln!(
            text,
            "  {:5} {}{}  {}  {}",
            row.kind,
            row.name,
            row.level
                .as_ref()
                .map(|l| format!(" ({l})"))
                .unwrap_or_default(),
            row.hash,
            if row.skipped { "unchanged" } else { "new" }
        );
    }
    for ns in &chained {
        let _ = writeln!(
            text,
            "  member namespace {ns} imported from --member-source"
        );
    }
    let _ = writeln!(
        text,
        "  members not imported: {}",
        if missing.is_empty() {
            "none".to_owned()
        } else {
            format!(
                "{} (pass --member-source <providers-root> to import them)",
                missing.join(", ")
            )
        }
    );
    Ok(Outcome {
        success: true,
        text,
        json: json!({
            "status": true,
            "stage": 0,
            "selectionId": snapshot.selection_id,
            "hash": snapshot.hash,
            "snapshotPath": snapshot.path,
            "skipped": snapshot.skipped,
            "sources": rows,
            "memberNamespacesImported": chained,
            "indexPath": index_path,
            "membersNotImported": missing,
        }),
    })
}

/// Imports each member namespace that is not in the island from `<source>/<ns>`. Every folder
/// is found and scanned before anything is written.
pub(crate) fn import_members(
    island: &Island,
    definition: &serde_json::Value,
    source: &Path,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<String>, CommandError> {
    let mut namespaces: Vec<String> = Vec::new();
    for member in definition["members"].as_array().into_iter().flatten() {
        let Some((ns, schema)) = member["schemaId"]
            .as_str()
            .and_then(|id| id.split_once('.'))
        else {
            continue;
        };
        let present = island
            .root()
            .join(crate::island::layout::schema(ns, schema))
            .is_dir();
        if !present && !namespaces.iter().any(|n| n == ns) {
            crate::island::names::check_id("namespace", ns)?;
            namespaces.push(ns.to_owned());
        }
    }
    let mut scans = Vec::new();
    for ns in &namespaces {
        let folder = source.join(ns);
        if !folder.is_dir() {
            return Err(CommandError::Rejected {
                code: "SEL-004",
                message: format!(
                    "member namespace `{ns}` not found under --member-source {}; nothing was written",
                    source.display()
                ),
                fix: "Provide a --member-source root containing the missing member namespaces, or import them manually.".into(),
                details: Vec::new(),
            });
        }
        scans.push(scan_provider(&folder, false)?);
    }
    for scan in &scans {
        apply(island, scan, now)?;
    }
    Ok(namespaces)
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
