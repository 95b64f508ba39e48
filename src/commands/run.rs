//! `flowmcp-grading run <target> --emit-prompts` (stage 1). Consume (stage 3) is not built yet.

use super::deterministic::options as pretest_options;
use super::{CommandError, Outcome};
use crate::cli::{GlobalArgs, OnConflict, RunArgs};
use crate::diagnostic::Coded;
use crate::hash::task_id;
use crate::island::{Island, Target, layout, resolve_root};
use crate::model::Area;
use crate::pretest::{self, SchemaInput};
use crate::prompts::build::{self, Instance};
use crate::prompts::emit::{NamespaceView, instances, load_namespace};
use crate::prompts::persona::{Persona, parse_persona, persona_for};
use crate::prompts::select::{Facts, Level, parse_phase, resolve_provider};
use crate::timestamp::to_rfc3339;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Refusals of emit. Codes: RUN-001 prompts.json exists (abort), RUN-002 nothing emittable,
/// RUN-003 no readable schema in the namespace.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    #[error("NO-OVERWRITE conflict: {path} already exists (Task-ID {task_id})")]
    Exists { path: String, task_id: String },
    #[error("No emittable areas after applicability/gate/selector resolution.")]
    NothingEmittable,
    #[error("no readable schema in namespace {0}: {1}")]
    NoSchemas(String, String),
}

impl Coded for EmitError {
    fn code(&self) -> &'static str {
        match self {
            EmitError::Exists { .. } => "RUN-001",
            EmitError::NothingEmittable => "RUN-002",
            EmitError::NoSchemas(..) => "RUN-003",
        }
    }
    fn fix(&self) -> String {
        match self {
            EmitError::Exists { .. } => "pass --on-conflict skip to keep the existing handoff, or --on-conflict overwrite to replace it".into(),
            EmitError::NothingEmittable => "Relax --phase, satisfy the dependency gate (reach deterministic-green), or add the missing optional resource.".into(),
            EmitError::NoSchemas(..) => "re-import the provider folder".into(),
        }
    }
}

pub fn run(args: &RunArgs, global: &GlobalArgs) -> Result<Outcome, CommandError> {
    if let Some(path) = &args.consume_scores {
        return super::consume::run(args, global, path);
    }
    let selector = parse_phase(args.phase.as_deref()).map_err(CommandError::coded)?;
    let persona = args
        .persona
        .as_deref()
        .map(parse_persona)
        .transpose()
        .map_err(CommandError::coded)?;
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    let island = Island::open_existing(&root)?;
    let ns = match island.resolve_target(&args.target.target)? {
        Target::Provider(ns) => ns,
        Target::Selection(sel) => {
            return super::selection_run::emit(args, global, &root, &sel, &selector, persona);
        }
    };
    let prompts_rel = layout::provider(&ns).join("prompts.json");
    let state_rel = layout::provider(&ns).join("state.json");
    let prompts_path = island.root().join(&prompts_rel);
    let state_path = island.root().join(&state_rel);
    if let Some(kept) = conflict(&prompts_path, &state_path, args.on_conflict)? {
        return Ok(kept);
    }

    let view = load_namespace(&island, &ns)?;
    if view.schemas.is_empty() {
        return Err(CommandError::coded(EmitError::NoSchemas(
            ns.clone(),
            view.unreadable.join("; "),
        )));
    }
    let options = pretest_options(&args.pretest, None);
    let inputs: Vec<SchemaInput> = view
        .schemas
        .iter()
        .map(|s| SchemaInput {
            schema: s.slug.clone(),
            schema_file: s
                .snapshot
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            main: s.main(),
            handlers: s.module.handlers.as_ref(),
        })
        .collect();
    let pretests = pretest::run_namespace(
        &ns,
        &inputs,
        &options,
        &super::deterministic::progress(global),
    );
    let all_green = pretests.iter().all(|p| p.ok) && view.unreadable.is_empty();
    let facts = Facts {
        about_present: view.about.is_some(),
        skills_present: !view.skills.is_empty(),
        namespace_level: if all_green {
            Level::DeterministicGreen
        } else {
            Level::StructuralValid
        },
    };
    let resolution = resolve_provider(&selector, facts);
    if resolution.emitted.is_empty() {
        return Err(CommandError::coded(EmitError::NothingEmittable));
    }
    let task_id = task_id::generate(&ns, &resolution.emitted).expect("non-empty area set");

    let docs = if options.offline || !resolution.emitted.contains(&Area::SingleTest) {
        HashMap::new()
    } else {
        probe_docs(&view, &options.limits)
    };

    let island = Island::open(&root)?;
    let _lock = island.lock()?;
    for result in &pretests {
        pretest::persist(&island, result)?;
    }
    let (condition, goal_block) = build::goal("provider", &ns, "autonomous", "B");
    let mut areas = Vec::new();
    let mut asked = serde_json::Map::new();
    for area in &resolution.emitted {
        let list = instances(*area, &view, island.root(), &pretests, &docs);
        let persona = persona_for(*area, persona.as_ref(), &ns);
        let prompt = build::area_prompt(
            *area,
            &build::Target::Namespace(&ns),
            "provider side, autonomous tier, at most grade B",
            persona.as_ref(),
            &list,
            &goal_block,
        );
        let questions: Vec<&str> = list
            .first()
            .map(|i| i.question_ids.iter().map(String::as_str).collect())
            .unwrap_or_default();
        asked.insert(area.as_str().to_owned(), json!(questions.len()));
        areas.push(area_json(
            *area,
            persona.as_ref(),
            &list,
            prompt,
            &questions,
        ));
    }
    let prompts = json!({
        "target": ns,
        "flow": "provider",
        "tier": "autonomous",
        "maxGrade": "B",
        "namespace": ns,
        "scoringProtocol": "v1",
        "maxIterations": args.max_iterations,
        "taskId": task_id,
        "catalogueVersion": crate::prompts::catalogue::version(),
        "goal": {"condition": condition, "maxTurns": build::MAX_TURNS, "goalBlock": goal_block},
        "areas": areas,
        "skippedAreas": resolution.skipped,
        "gatedAreas": resolution.gated,
        "payloadSkeleton": {
            "taskId": task_id,
            "llmModel": "<the model that answers, e.g. claude-opus-4>",
            "areas": resolution.emitted.iter().map(|a| json!({"area": a, "results": []})).collect::<Vec<_>>(),
        },
        "pretests": pretests.iter().map(|p| json!({
            "schemaName": p.schema,
            "ok": p.ok,
            "passedDownloadable": p.passed_downloadable,
            "required": pretest::MIN_WORKING_TESTS,
            "summaryPath": island.root().join(layout::schema(&ns, &p.schema)).join("summary.json"),
            "errors": p.errors,
        })).collect::<Vec<_>>(),
    });
    let now = to_rfc3339(chrono::Utc::now());
    let state = json!({
        "target": ns,
        "flow": "provider",
        "tier": "autonomous",
        "taskId": task_id,
        "emittedAreaSet": resolution.emitted,
        "askedByArea": asked,
        "taskComplete": false,
        "consumedAreas": [],
        "areaSelector": selector,
        "status": "prompts-emitted",
        "createdAt": now,
        "lastUpdatedAt": now,
        "phases": {"promptsEmitted": now, "scoresReceived": null, "gradeComputed": null, "indexRebuilt": null},
    });
    island.replace(&prompts_rel, &pretty(&prompts))?;
    island.replace(&state_rel, &pretty(&state))?;
    crate::index::rebuild_namespace(&island, &ns, chrono::Utc::now())?;

    let text = render(&ns, &task_id, &resolution, &pretests, &prompts_path);
    Ok(Outcome {
        success: true,
        text,
        json: json!({
            "status": true, "stage": 1, "mode": "emit-prompts", "skipped": false,
            "flow": "provider", "tier": "autonomous", "maxGrade": "B", "target": ns,
            "useKeys": options.with_keys, "offline": options.offline,
            "promptsPath": prompts_path, "statePath": state_path,
            "pretestCount": pretests.len(), "taskId": task_id, "areaSelector": selector,
            "emittedAreaSet": resolution.emitted, "skippedAreas": resolution.skipped,
            "gatedAreas": resolution.gated,
        }),
    })
}

/// The `--on-conflict` policy when a handoff exists already: abort refuses, skip keeps it
/// (returned as the outcome), overwrite goes on (`None`).
pub(super) fn conflict(
    prompts_path: &std::path::Path,
    state_path: &std::path::Path,
    policy: OnConflict,
) -> Result<Option<Outcome>, CommandError> {
    if !prompts_path.exists() {
        return Ok(None);
    }
    let existing = std::fs::read_to_string(prompts_path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v.get("taskId").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| "unknown".into());
    match policy {
        OnConflict::Abort => Err(CommandError::coded(EmitError::Exists {
            path: prompts_path.display().to_string(),
            task_id: existing,
        })),
        OnConflict::Skip => Ok(Some(Outcome {
            success: true,
            text: format!(
                "kept the existing handoff {} (Task-ID {existing}); nothing recomputed\n",
                prompts_path.display()
            ),
            json: json!({"status": true, "stage": 1, "mode": "emit-prompts", "skipped": true,
                "taskId": existing, "promptsPath": prompts_path, "statePath": state_path}),
        })),
        OnConflict::Overwrite => Ok(None),
    }
}

pub(super) fn area_json(
    area: Area,
    persona: Option<&Persona>,
    list: &[Instance],
    prompt: String,
    questions: &[&str],
) -> Value {
    json!({
        "area": area,
        "prompt": prompt,
        "personaRequired": area.persona_bound(),
        "persona": persona,
        "deferred": false,
        "questionCount": questions.len(),
        "questions": questions,
        "instances": list,
    })
}

fn probe_docs(
    view: &NamespaceView,
    limits: &pretest::Limits,
) -> HashMap<String, crate::deterministic::UrlProbe> {
    let mut urls: Vec<String> = view
        .schemas
        .iter()
        .filter_map(|s| crate::deterministic::first_docs_url(s.main()).map(str::to_owned))
        .collect();
    urls.sort();
    urls.dedup();
    let parsed: Vec<(String, reqwest::Url)> = urls
        .into_iter()
        .filter_map(|u| reqwest::Url::parse(&u).ok().map(|p| (u, p)))
        .collect();
    let probes = pretest::probe_urls(
        &parsed.iter().map(|(_, p)| p.clone()).collect::<Vec<_>>(),
        limits,
    );
    parsed.into_iter().map(|(u, _)| u).zip(probes).collect()
}

pub(super) fn pretty(value: &Value) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text.into_bytes()
}

/// The `emit` / `skip` / `gated` lines of an emit's area resolution.
pub(super) fn render_resolution(
    text: &mut String,
    resolution: &crate::prompts::select::Resolution,
) {
    for area in &resolution.emitted {
        let _ = writeln!(text, "  emit    {}", area.as_str());
    }
    for s in &resolution.skipped {
        let _ = writeln!(
            text,
            "  skip    {} ({}){}",
            s.area.as_str(),
            s.na_reason,
            s.note
                .as_ref()
                .map(|n| format!(": {n}"))
                .unwrap_or_default()
        );
    }
    for g in &resolution.gated {
        let _ = writeln!(text, "  gated   {}: {}", g.area.as_str(), g.reason);
    }
}

fn render(
    ns: &str,
    task_id: &str,
    resolution: &crate::prompts::select::Resolution,
    pretests: &[pretest::SchemaPretest],
    prompts_path: &std::path::Path,
) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "emitted prompts for namespace {ns} (Task-ID {task_id})"
    );
    for p in pretests {
        let _ = writeln!(
            text,
            "  pretest {:16} {}",
            p.schema,
            if p.ok {
                "ok".to_owned()
            } else {
                format!("blocked: {}", p.tools_below_threshold.join(", "))
            }
        );
    }
    render_resolution(&mut text, resolution);
    let _ = writeln!(
        text,
        "\nnext: the harness reads {} and writes scores.json; then run `flowmcp-grading run {ns} --consume-scores scores.json`",
        prompts_path.display()
    );
    text
}
