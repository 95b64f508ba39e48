//! `flowmcp-grading run <selection> --emit-prompts`: a selection grading run starts. Missing
//! members are imported from `--member-source`, the thresholds are checked, the lockSnapshot is
//! frozen from the members' statuses now, the pre-condition gate reads it, and only when every
//! member is stable are the selection areas' prompts written with the new lockSnapshot.
//!
//! Codes: SEL-001 no selection definition imported, SEL-005 fewer than 5 member namespaces,
//! PRE-004 the pre-condition gate blocked (the spec's block is printed exactly).

use super::run::{EmitError, area_json, conflict, pretty};
use super::{CommandError, Outcome};
use crate::cli::{GlobalArgs, RunArgs};
use crate::hash::task_id;
use crate::index::gate;
use crate::index::selection::{freeze, index_of, lock_hash, write_selection_index};
use crate::index::selection_view::{Band, SelectionView, load_selection};
use crate::island::{Island, layout};
use crate::model::{Area, BasePersona};
use crate::prompts::build;
use crate::prompts::persona::{Persona, default_base};
use crate::prompts::select::AreaSelector;
use crate::prompts::selection::{aggregate_context, plan};
use crate::timestamp::to_rfc3339;
use serde_json::json;
use std::fmt::Write as _;
use std::path::Path;

/// The persona of a selection area: `--persona`, else the definition's first persona id (a
/// base slug with the selection as lens, or a lens over the area's default base).
pub fn selection_persona(
    area: Area,
    overridden: Option<&Persona>,
    view: &SelectionView,
) -> Option<Persona> {
    let base = default_base(area)?;
    if let Some(p) = overridden {
        return Some(p.clone());
    }
    let first = view.persona_ids().into_iter().next();
    Some(match first {
        Some(id) if id.parse::<BasePersona>().is_ok() => Persona {
            base_persona_id: id,
            lens_id: view.id.clone(),
        },
        Some(id) if crate::island::names::is_id(&id) => Persona {
            base_persona_id: base.as_str().to_owned(),
            lens_id: id,
        },
        _ => Persona {
            base_persona_id: base.as_str().to_owned(),
            lens_id: view.id.clone(),
        },
    })
}

fn refused(code: &'static str, message: String, fix: &str) -> CommandError {
    CommandError::Other {
        code,
        message,
        fix: fix.into(),
    }
}

/// Loads the selection or refuses with SEL-001.
pub fn require_selection(island: &Island, sel: &str) -> Result<SelectionView, CommandError> {
    load_selection(island, sel)?.ok_or_else(|| {
        refused(
            "SEL-001",
            format!(
                "selection definition not found in {}",
                island
                    .root()
                    .join(layout::selection_definitions(sel))
                    .display()
            ),
            "import the selection definition first: flowmcp-grading import <selection.json>",
        )
    })
}

pub fn emit(
    args: &RunArgs,
    _global: &GlobalArgs,
    root: &Path,
    sel: &str,
    selector: &AreaSelector,
    persona: Option<Persona>,
) -> Result<Outcome, CommandError> {
    let island = Island::open(root)?;
    let base = layout::selection(sel);
    let prompts_path = island.root().join(base.join("prompts.json"));
    let state_path = island.root().join(base.join("state.json"));
    if let Some(kept) = conflict(&prompts_path, &state_path, args.on_conflict)? {
        return Ok(kept);
    }
    let view = require_selection(&island, sel)?;
    let chained = match &args.member_source {
        Some(source) => {
            super::import::import_members(&island, &view.definition, source, chrono::Utc::now())?
        }
        None => Vec::new(),
    };
    if view.band() == Band::BelowSoft {
        return Err(refused(
            "SEL-005",
            format!(
                "selection {sel} has {} member namespace(s); selection areas need at least 5 (spec ch. 05), so the selection grade is n/a and only provider grades exist",
                view.namespaces().len()
            ),
            "add members from at least 5 namespaces (7 for grade A) to the definition and import it again",
        ));
    }

    let _lock = island.lock()?;
    let now = chrono::Utc::now();
    let mut index = index_of(&island, &view, now)?;
    let previous_lock = index.get("lockSnapshot").cloned();
    let lock = freeze(&index, now);
    index["lockSnapshot"] = lock.clone();
    if let Err(blocked) = gate::check(&lock) {
        let ids: Vec<&str> = blocked
            .members
            .iter()
            .map(|m| m.schema_id.as_str())
            .collect();
        return Ok(Outcome {
            success: false,
            text: format!("{blocked}\n"),
            json: json!({
                "status": false,
                "code": "PRE-004",
                "error": format!("Pre-condition not met: missing stable single-gradings: {}", ids.join(", ")),
                "fix": "Grade every member to `stable` first (no silent skip), then re-run the selection grading.",
                "selectionId": sel,
                "blockedMembers": blocked.members.iter().map(|m| json!({
                    "schemaId": m.schema_id, "schemaHash": m.schema_hash, "gradingStatus": m.status,
                    "missingGrading": m.status == "pending",
                })).collect::<Vec<_>>(),
                "block": blocked.to_string(),
                "memberNamespacesImported": chained,
            }),
        });
    }

    let plan = plan(&view, &index, selector, island.root());
    if plan.resolution.emitted.is_empty() {
        return Err(CommandError::coded(EmitError::NothingEmittable));
    }
    let emitted = &plan.resolution.emitted;
    let task_id = task_id::generate(sel, emitted).expect("non-empty area set");
    let tier_text = format!(
        "selection side, group-bound tier, at most grade {} ({} member namespaces)",
        view.band().max_grade().unwrap_or("n/a"),
        view.namespaces().len()
    );
    let max_grade = view.band().max_grade().unwrap_or("n/a");
    let (condition, goal_block) = build::goal("selection", sel, "group-bound", max_grade);
    let lock_sha = lock_hash(&lock);
    let mut areas = Vec::new();
    let mut asked = serde_json::Map::new();
    for (area, list) in &plan.instances {
        let persona = selection_persona(*area, persona.as_ref(), &view);
        let context = if *area == Area::SelectionAggregate {
            aggregate_context(&view, &index)
        } else {
            String::new()
        };
        let prompt = build::area_prompt(
            *area,
            &build::Target::Selection(sel, context),
            &tier_text,
            persona.as_ref(),
            list,
            &goal_block,
        );
        let questions: Vec<&str> = list
            .first()
            .map(|i| i.question_ids.iter().map(String::as_str).collect())
            .unwrap_or_default();
        asked.insert(area.as_str().to_owned(), json!(questions.len()));
        areas.push(area_json(*area, persona.as_ref(), list, prompt, &questions));
    }
    let entry_prompt = format!(
        "You are performing a FlowMCP grading. Instructions:\n\n1. Persona: {}\n2. Selection: {sel}, lockSnapshot hash: {lock_sha}\n3. Mode: Full (initial baseline)\n4. Spec version: gradingSpec/2.0.0\n5. Pre-condition: all member schemas have gradingStatus: stable\n6. Output format: _gradings/<area>--<timestamp>.json\n",
        view.persona_ids()
            .first()
            .cloned()
            .unwrap_or_else(|| "decision-maker".into())
    );
    let prompts = json!({
        "target": sel,
        "flow": "selection",
        "tier": "group-bound",
        "maxGrade": max_grade,
        "namespace": view.definition["namespace"].as_str().unwrap_or(sel),
        "selectionId": sel,
        "scoringProtocol": "v1",
        "maxIterations": args.max_iterations,
        "taskId": task_id,
        "catalogueVersion": crate::prompts::catalogue::version(),
        "lockSnapshotHash": lock_sha,
        "entryPrompt": entry_prompt,
        "goal": {"condition": condition, "maxTurns": build::MAX_TURNS, "goalBlock": goal_block},
        "areas": areas,
        "skippedAreas": plan.resolution.skipped,
        "gatedAreas": plan.resolution.gated,
        "blockedInstances": plan.blocked,
        "payloadSkeleton": {
            "taskId": task_id,
            "llmModel": "<the model that answers, e.g. claude-opus-4>",
            "areas": emitted.iter().map(|a| json!({"area": a, "results": []})).collect::<Vec<_>>(),
        },
        "pretests": [],
    });
    let stamp = to_rfc3339(now);
    let state = json!({
        "target": sel,
        "flow": "selection",
        "tier": "group-bound",
        "taskId": task_id,
        "emittedAreaSet": emitted,
        "askedByArea": asked,
        "taskComplete": false,
        "consumedAreas": [],
        "areaSelector": selector,
        "status": "prompts-emitted",
        "selectionHash": view.hash(),
        "lockSnapshotHash": lock_sha,
        "previousLockSnapshotHash": previous_lock.as_ref().map(lock_hash),
        "createdAt": stamp,
        "lastUpdatedAt": stamp,
        "phases": {"promptsEmitted": stamp, "scoresReceived": null, "gradeComputed": null, "indexRebuilt": stamp},
    });
    island.replace(&base.join("prompts.json"), &pretty(&prompts))?;
    island.replace(&base.join("state.json"), &pretty(&state))?;
    let index_path = write_selection_index(&island, sel, &index)?;

    let mut text = String::new();
    let _ = writeln!(
        text,
        "emitted prompts for selection {sel} (Task-ID {task_id})\n  lockSnapshot frozen: {lock_sha} ({} members, all stable){}",
        lock["members"].as_array().map_or(0, Vec::len),
        previous_lock
            .as_ref()
            .map(|p| format!("; previous {}", lock_hash(p)))
            .unwrap_or_default()
    );
    let _ = writeln!(
        text,
        "  thresholds: {} member namespaces, band {}, best grade {max_grade}",
        view.namespaces().len(),
        view.band().as_str()
    );
    for ns in &chained {
        let _ = writeln!(
            text,
            "  imported member namespace {ns} from --member-source"
        );
    }
    super::run::render_resolution(&mut text, &plan.resolution);
    for b in &plan.blocked {
        let _ = writeln!(
            text,
            "  blocked {}/{}: {}",
            b.area.as_str(),
            b.instance_id,
            b.reason
        );
    }
    let _ = writeln!(
        text,
        "\nnext: the harness reads {} and writes scores.json; then run `flowmcp-grading run selections/{sel} --consume-scores scores.json`",
        prompts_path.display()
    );
    Ok(Outcome {
        success: true,
        text,
        json: json!({
            "status": true, "stage": 1, "mode": "emit-prompts", "skipped": false,
            "flow": "selection", "tier": "group-bound", "maxGrade": max_grade, "target": sel,
            "promptsPath": prompts_path, "statePath": state_path, "indexPath": index_path,
            "taskId": task_id, "areaSelector": selector, "emittedAreaSet": emitted,
            "skippedAreas": plan.resolution.skipped, "gatedAreas": plan.resolution.gated,
            "blockedInstances": plan.blocked, "lockSnapshotHash": lock_sha,
            "previousLockSnapshotHash": previous_lock.as_ref().map(lock_hash),
            "memberNamespacesImported": chained,
        }),
    })
}
