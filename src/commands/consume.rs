//! `flowmcp-grading run <target> --consume-scores <scores.json>` (stage 3): check the payload
//! against the open emit, merge it with the CLI's answers into grading entries, validate them
//! all, then write them (never overwriting), rebuild the index, update state.json and write the
//! provider proof. Nothing is written when anything is wrong.

use super::export::export_root;
use super::{CommandError, Outcome};
use crate::cli::{GlobalArgs, RegradeArg, RunArgs};
use crate::consume::merge::{Built, Context, SelectionInfo, build_entries};
use crate::consume::{self, MAX_SCORES_BYTES};
use crate::index::entry_reader::parse_entry_name;
use crate::island::{Island, IslandError, Target, layout, resolve_root};
use crate::json_input::read_json_file;
use crate::model::{Area, RegradingTriggerKind};
use crate::timestamp::{to_file_ts, to_rfc3339};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::Path;

pub fn run(args: &RunArgs, global: &GlobalArgs, scores: &Path) -> Result<Outcome, CommandError> {
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    let island = Island::open_existing(&root)?;
    let (ns, selection, view) = match island.resolve_target(&args.target.target)? {
        Target::Provider(ns) => (ns, None, None),
        Target::Selection(sel) => {
            let view = super::selection_run::require_selection(&island, &sel)?;
            let info = SelectionInfo {
                id: sel.clone(),
                domain_doc_id: view.about.as_ref().and_then(|(path, _)| {
                    path.file_name().map(|n| n.to_string_lossy().into_owned())
                }),
                definition_hash: view.hash().to_owned(),
            };
            (sel, Some(info), Some(view))
        }
    };
    let base_rel = match &selection {
        Some(_) => layout::selection(&ns),
        None => layout::provider(&ns),
    };
    let flow = if selection.is_some() {
        "selection"
    } else {
        "provider"
    };
    let payload =
        read_json_file(scores, MAX_SCORES_BYTES).map_err(|e| CommandError::input(scores, e))?;
    let provider = island.root().join(&base_rel);
    let read = |name: &str| {
        std::fs::read_to_string(provider.join(name))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
    };
    let now = chrono::Utc::now();
    let island = Island::open(&root)?;
    let _lock = island.lock()?;

    if payload.get("taskId").is_none_or(Value::is_null) {
        // The node CLI's legacy form: only rebuild the index.
        let index_path = match &selection {
            Some(_) => crate::index::selection::rebuild_selection(&island, &ns, now)?
                .unwrap_or_else(|| island.root().join(layout::selection_index(&ns))),
            None => crate::index::rebuild_namespace(&island, &ns, now)?,
        };
        return Ok(Outcome {
            success: true,
            text: format!(
                "legacy payload without taskId: index rebuilt ({})\n",
                index_path.display()
            ),
            json: json!({"status": true, "stage": 3, "mode": "consume-scores", "flow": flow, "target": ns,
                "indexPath": index_path, "acceptedAreas": null, "missingAreas": null, "taskComplete": null}),
        });
    }

    let prompts = read("prompts.json");
    let state = read("state.json");
    let checked =
        consume::check(&payload, prompts.as_ref(), state.as_ref()).map_err(|details| {
            CommandError::Rejected {
            code: details.first().map_or("CNS-001", |d| d.code),
            message: format!(
                "Consume rejected: {} problem(s) in {}; nothing was written",
                details.len(),
                scores.display()
            ),
            fix:
                "Return the exact emitted Task-ID and area-set, every asked question answered once."
                    .into(),
            details: details.into_iter().map(|d| d.in_file(scores)).collect(),
        }
        })?;
    let prompts = prompts.expect("checked");
    let state = state.expect("checked");
    if let Some(info) = &selection
        && state["selectionHash"].as_str() != Some(info.definition_hash.as_str())
    {
        return Err(CommandError::Other {
            code: "CNS-012",
            message: format!(
                "the selection definition changed after this run froze its lockSnapshot (frozen {}, now {}); nothing was written",
                state["selectionHash"].as_str().unwrap_or("?"),
                info.definition_hash
            ),
            fix: "start a new run: `flowmcp-grading run selections/<sel> --emit-prompts --on-conflict overwrite` refreezes the lockSnapshot".into(),
        });
    }

    let previous = |area: Area, instance: &str| {
        newest_grading_id(
            &provider.join(crate::consume::merge::folder_of(area, instance)),
            area,
        )
    };
    let trigger = match args.regrade {
        Some(RegradeArg::UserReport) => RegradingTriggerKind::UserReport,
        Some(RegradeArg::ScoringSystemBump) => RegradingTriggerKind::ScoringSystemBump,
        Some(RegradeArg::GradingSystemBump) => RegradingTriggerKind::GradingSystemBump,
        Some(RegradeArg::Scheduled) | None => RegradingTriggerKind::Scheduled,
    };
    let ctx = Context {
        namespace: &ns,
        selection: selection.as_ref(),
        now,
        previous: &previous,
        trigger,
        reported_issue: args.reported_issue.clone(),
        requested_by: args.requested_by.clone(),
    };
    let (built, skipped) =
        build_entries(&checked, &prompts, &ctx).map_err(|details| CommandError::Rejected {
            code: details.first().map_or("GRD-001", |d| d.code),
            message: format!(
                "{} grading entr(ies) would not be valid; nothing was written",
                details.len()
            ),
            fix: "fix the answers listed above and consume again".into(),
            details,
        })?;

    // All entries and sidecars in one group commit (two filesystem syncs, not two per file).
    let mut batch = island.batch();
    let mut written = Vec::new();
    for entry in &built {
        written.push(stage_entry(&mut batch, &base_rel, entry, now)?);
    }
    batch.commit()?;
    let (index, index_path) = match &view {
        Some(view) => {
            let index = crate::index::selection::index_of(&island, view, now)?;
            let path = crate::index::selection::write_selection_index(&island, &ns, &index)?;
            (index, path)
        }
        None => {
            let index = crate::index::rollup::namespace_index(&island, &ns, now)?;
            let path = crate::index::write_namespace_index(&island, &ns, &index)?;
            (index, path)
        }
    };
    let changed_members = selection
        .as_ref()
        .map(|_| changed_after_freeze(&index))
        .unwrap_or_default();

    let emitted: Vec<String> = state["emittedAreaSet"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a.as_str().map(str::to_owned))
        .collect();
    let mut consumed: Vec<String> = state["consumedAreas"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a.as_str().map(str::to_owned))
        .collect();
    for area in &checked.areas {
        if !consumed.iter().any(|c| c == area.area.as_str()) {
            consumed.push(area.area.as_str().to_owned());
        }
    }
    let missing: Vec<&String> = emitted.iter().filter(|a| !consumed.contains(a)).collect();
    let complete = missing.is_empty();
    let stamp = to_rfc3339(now);
    let mut new_state = state.clone();
    new_state["status"] = json!("graded");
    new_state["lastUpdatedAt"] = json!(stamp);
    new_state["rollupStatus"] = index["status"].clone();
    new_state["rollupGrade"] = index["grade"].clone();
    new_state["consumedAreas"] = json!(consumed);
    new_state["missingAreas"] = json!(missing);
    new_state["taskComplete"] = json!(complete);
    for phase in ["scoresReceived", "gradeComputed", "indexRebuilt"] {
        new_state["phases"][phase] = json!(stamp);
    }
    let mut text = serde_json::to_string_pretty(&new_state).unwrap_or_default();
    text.push('\n');
    island.replace(&base_rel.join("state.json"), text.as_bytes())?;
    let proof = match &selection {
        Some(_) => None,
        None => Some(
            crate::index::proof::write(
                &export_root(args.export_dir.as_deref(), island.root()),
                &index,
                &stamp,
            )
            .map_err(|source| IslandError::Write {
                path: island.root().to_path_buf(),
                source,
            })?,
        ),
    };

    let rows: Vec<Value> = built
        .iter()
        .zip(&written)
        .map(|(b, path)| json!({"area": b.area, "instanceId": b.instance_id, "grade": b.entry.aggregate_grade, "path": path}))
        .collect();
    let mut out = String::new();
    let kind = if selection.is_some() {
        "selection"
    } else {
        "namespace"
    };
    let _ = writeln!(out, "consumed {} for {kind} {ns}", checked.task_id);
    for (b, _) in built.iter().zip(&written) {
        let _ = writeln!(
            out,
            "  {:26} {:32} {}",
            b.area.as_str(),
            b.instance_id,
            b.entry.aggregate_grade
        );
    }
    for line in &skipped {
        let _ = writeln!(out, "  no entry: {line}");
    }
    for id in &changed_members {
        let _ = writeln!(
            out,
            "  note: member {id} changed after the lockSnapshot was frozen; the next run refreezes it and the gate will see the change"
        );
    }
    let _ = writeln!(
        out,
        "\nrollup {} ({}); task complete: {complete}{}",
        index["status"].as_str().unwrap_or("?"),
        index["grade"].as_str().unwrap_or("no grade"),
        proof
            .as_ref()
            .map(|p| format!("; proof {}", p.display()))
            .unwrap_or_default()
    );
    Ok(Outcome {
        success: true,
        text: out,
        json: json!({
            "status": true, "stage": 3, "mode": "consume-scores", "flow": flow, "target": ns,
            "taskId": checked.task_id, "rollupStatus": index["status"], "rollupGrade": index["grade"],
            "indexPath": index_path, "proofPath": proof, "acceptedAreas": consumed, "missingAreas": missing,
            "taskComplete": complete, "entries": rows, "notWritten": skipped,
            "emptyAreas": checked.empty_areas, "membersChangedAfterFreeze": changed_members,
        }),
    })
}

/// Stages one entry as `<prefix>--<ts>.json` (a later second when the name is taken) and its
/// sidecar `<same name>.sidecar` beside it.
fn stage_entry(
    batch: &mut crate::island::Batch<'_>,
    base_rel: &Path,
    built: &Built,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<std::path::PathBuf, CommandError> {
    let folder = base_rel.join(&built.folder);
    let mut text = serde_json::to_string_pretty(&built.entry).unwrap_or_default();
    text.push('\n');
    let mut sidecar = serde_json::to_string_pretty(&built.sidecar).unwrap_or_default();
    sidecar.push('\n');
    for offset in 0..120 {
        let ts = to_file_ts(now + chrono::Duration::seconds(offset));
        let name = format!("{}--{ts}.json", built.prefix);
        let Some(path) = batch.stage_new(&folder.join(&name), text.as_bytes())? else {
            continue;
        };
        let side = folder.join(format!("{name}.sidecar"));
        if batch.stage_new(&side, sidecar.as_bytes())?.is_none() {
            // A sidecar without its entry can only be left by an older crash; keep it, refuse.
            return Err(IslandError::Exists { path: side }.into());
        }
        return Ok(path);
    }
    Err(IslandError::Exists { path: folder }.into())
}

/// Members whose schema hash in the live manifest differs from the frozen lockSnapshot.
fn changed_after_freeze(index: &Value) -> Vec<String> {
    index["lockSnapshot"]["members"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| {
            let id = m["schemaId"].as_str()?;
            let live = &index["members"][id];
            (live["hash"] != m["schemaHash"] || live["status"] != m["gradingStatus"])
                .then(|| id.to_owned())
        })
        .collect()
}

/// The gradingId of the newest entry of `area` in a `_gradings/` folder, if any.
fn newest_grading_id(dir: &Path, area: Area) -> Option<String> {
    let mut names: Vec<(chrono::DateTime<chrono::Utc>, String)> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter_map(|n| {
            parse_entry_name(&n)
                .filter(|p| p.area == area)
                .map(|p| (p.at, n))
        })
        .collect();
    names.sort();
    let (_, name) = names.pop()?;
    let value: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(&name)).ok()?).ok()?;
    Some(
        value["gradingId"]
            .as_str()
            .map_or_else(|| name.trim_end_matches(".json").to_owned(), str::to_owned),
    )
}
