//! `flowmcp-grading state <target>`: the graded tree and the next action. Read-only: the index
//! is recomputed in memory from the island (a missing or corrupt index.json does not matter).

use super::{CommandError, Outcome};
use crate::cli::{GlobalArgs, TargetArgs};
use crate::hash::task_id;
use crate::island::{Island, Target, layout, resolve_root};
use crate::model::Area;
use crate::prompts::select::{AreaSelector, Facts, Level, resolve_provider};
use serde_json::{Value, json};
use std::fmt::Write as _;

pub fn run(args: &TargetArgs, global: &GlobalArgs) -> Result<Outcome, CommandError> {
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    let island = Island::open_existing(&root)?;
    let ns = match island.resolve_target(&args.target)? {
        Target::Provider(ns) => ns,
        Target::Selection(sel) => return super::selection_state::run(&island, &sel),
    };
    let index = crate::index::rollup::namespace_index(&island, &ns, chrono::Utc::now())?;
    let provider = island.root().join(layout::provider(&ns));
    let read = |name: &str| {
        std::fs::read_to_string(provider.join(name))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
    };
    let state = read("state.json");
    let prompts = read("prompts.json");
    let next = next_action(&ns, &index, prompts.as_ref(), state.as_ref());
    let json = json!({
        "status": true,
        "flow": "provider",
        "tier": "autonomous",
        "target": ns,
        "rollupStatus": index["status"],
        "rollupGrade": index["grade"],
        "summary": index["summary"],
        "batonStatus": state.as_ref().map(|s| s["status"].clone()),
        "lastUpdatedAt": state.as_ref().map(|s| s["lastUpdatedAt"].clone()),
        "indexPath": provider.join("index.json"),
        "statePath": provider.join("state.json"),
        "indexPresent": provider.join("index.json").is_file(),
        "statePresent": state.is_some(),
        "nextAction": next,
        "index": index,
    });
    Ok(Outcome {
        success: true,
        text: render(&ns, &json),
        json,
    })
}

/// What to run next (reference-cli.md §2.7, with this tool's commands).
fn next_action(ns: &str, index: &Value, prompts: Option<&Value>, state: Option<&Value>) -> Value {
    let Some(prompts) = prompts else {
        return json!({
            "status": true,
            "deterministicNow": {"areas": [], "command": null, "free": true},
            "nonDeterministic": null,
            "gated": [],
            "command": format!("flowmcp-grading run {ns} --emit-prompts"),
            "note": "No prompts.json yet — emit prompts first to derive the next applicable areas.",
        });
    };
    let aged = index.to_string().contains("\"regradeDue\"");
    if index["status"] == "operational" && !aged {
        return json!({
            "status": true,
            "deterministicNow": {"areas": [], "command": null, "free": true},
            "nonDeterministic": null,
            "gated": [],
            "command": null,
            "note": format!(
                "Every node is stable (grade {}). Nothing to do until a schema changes or an answer ages; then: flowmcp-grading run {ns} --emit-prompts --on-conflict overwrite",
                index["grade"].as_str().unwrap_or("?")
            ),
        });
    }
    let pretests = prompts["pretests"].as_array().cloned().unwrap_or_default();
    let green = !pretests.is_empty() && pretests.iter().all(|p| p["ok"] == true);
    let facts = Facts {
        about_present: index["about"]["status"] != "not-applicable",
        skills_present: index["skills"].as_object().is_some_and(|s| !s.is_empty()),
        namespace_level: if green {
            Level::DeterministicGreen
        } else {
            Level::StructuralValid
        },
    };
    let resolution = resolve_provider(&AreaSelector::all(), facts);
    let (det, non_det): (Vec<Area>, Vec<Area>) = resolution
        .emitted
        .iter()
        .partition(|a| matches!(a, Area::SingleTest | Area::ToolsAggregateSchema));
    let phase = |areas: &[Area]| {
        areas
            .iter()
            .map(|a| a.as_str())
            .collect::<Vec<_>>()
            .join(",")
    };
    let consume = state.filter(|s| s["status"] == "prompts-emitted").map(|s| {
        format!(
            "flowmcp-grading run {ns} --consume-scores scores.json   # harness answers Task-ID {}",
            s["taskId"].as_str().unwrap_or("?")
        )
    });
    json!({
        "status": true,
        "deterministicNow": {
            "areas": det,
            "command": (!det.is_empty()).then(|| format!("flowmcp-grading run {ns} --emit-prompts --on-conflict overwrite --phase {}", phase(&det))),
            "free": true,
        },
        "nonDeterministic": (!non_det.is_empty()).then(|| json!({
            "areaSet": non_det,
            "taskIdPreview": task_id::generate(ns, &non_det).ok(),
            "command": format!("flowmcp-grading run {ns} --emit-prompts --on-conflict overwrite --phase {}", phase(&non_det)),
            "free": false,
        })),
        "gated": resolution.gated,
        "command": consume,
    })
}

fn render(ns: &str, result: &Value) -> String {
    let index = &result["index"];
    let mut text = String::new();
    let grade = index["grade"].as_str().unwrap_or("no grade");
    let _ = writeln!(
        text,
        "namespace {ns}: {} ({grade})",
        index["status"].as_str().unwrap_or("?")
    );
    let line = |text: &mut String, indent: &str, name: &str, node: &Value| {
        let _ = write!(
            text,
            "{indent}{name}: {}",
            node["status"].as_str().unwrap_or("?")
        );
        if let Some(grade) = node["grade"].as_str() {
            let _ = write!(text, " {grade}");
        }
        if let Some(reason) = node["reason"].as_str() {
            let _ = write!(text, " — {reason}");
        }
        if let Some(due) = node["regradeDue"].as_str() {
            let _ = write!(text, " [stale: {due}]");
        }
        let _ = writeln!(text);
    };
    for (slug, schema) in index["schemas"].as_object().into_iter().flatten() {
        line(&mut text, "  ", &format!("schema {slug}"), schema);
        for (tool, node) in schema["tools"].as_object().into_iter().flatten() {
            line(&mut text, "    ", &format!("tool {tool}"), node);
        }
        line(
            &mut text,
            "    ",
            "tools-aggregate",
            &schema["toolsAggregate"],
        );
    }
    line(&mut text, "  ", "about", &index["about"]);
    for (skill, node) in index["skills"].as_object().into_iter().flatten() {
        line(&mut text, "  ", &format!("skill {skill}"), node);
    }
    line(&mut text, "  ", "description", &index["description"]);
    line(
        &mut text,
        "  ",
        "namespace aggregate",
        &index["namespaceAggregate"],
    );
    let blockers = index["blockers"].as_array().cloned().unwrap_or_default();
    if !blockers.is_empty() {
        let _ = writeln!(text, "\nblockers:");
        for b in &blockers {
            let _ = writeln!(
                text,
                "  {}: {}",
                b["node"].as_str().unwrap_or("?"),
                b["reason"].as_str().unwrap_or("")
            );
        }
    }
    let next = &result["nextAction"];
    let _ = writeln!(text, "\nnext:");
    if let Some(note) = next["note"].as_str() {
        let _ = writeln!(text, "  {note}");
    }
    for command in [
        &next["command"],
        &next["deterministicNow"]["command"],
        &next["nonDeterministic"]["command"],
    ] {
        if let Some(command) = command.as_str() {
            let _ = writeln!(text, "  {command}");
        }
    }
    for g in next["gated"].as_array().into_iter().flatten() {
        let _ = writeln!(
            text,
            "  gated {}: {}",
            g["area"].as_str().unwrap_or("?"),
            g["reason"].as_str().unwrap_or("")
        );
    }
    text
}
