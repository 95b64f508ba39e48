//! `flowmcp-grading state selections/<sel>`: the selection's tree (members with their provider
//! status, About, skills by level, the aggregate), the thresholds, the frozen lockSnapshot and
//! what the gate would say if a run started now, and the next action. Read-only.

use super::selection_run::require_selection;
use super::{CommandError, Outcome};
use crate::index::gate;
use crate::index::selection::{freeze, index_of, lock_hash, members_not_imported};
use crate::index::selection_view::Band;
use crate::island::{Island, layout};
use serde_json::{Value, json};
use std::fmt::Write as _;

pub fn run(island: &Island, sel: &str) -> Result<Outcome, CommandError> {
    let view = require_selection(island, sel)?;
    let now = chrono::Utc::now();
    let index = index_of(island, &view, now)?;
    let base = island.root().join(layout::selection(sel));
    let state: Option<Value> = std::fs::read_to_string(base.join("state.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let gate_now = gate::check(&freeze(&index, now));
    let missing = members_not_imported(&index);
    let not_stable: Vec<String> = index["members"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(id, m)| m["status"] != "stable" && !missing.contains(id))
        .filter_map(|(id, _)| id.split_once('.').map(|(ns, _)| ns.to_owned()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut commands = Vec::new();
    let note;
    if view.band() == Band::BelowSoft {
        note = format!(
            "{} member namespace(s): fewer than 5, so no selection area runs and the selection grade is n/a",
            view.namespaces().len()
        );
    } else if !missing.is_empty() {
        note = format!("members not imported: {}", missing.join(", "));
        commands.push(format!(
            "flowmcp-grading import <{sel}.json> --member-source <providers-root>"
        ));
    } else if !not_stable.is_empty() {
        note = "the pre-condition gate would block: grade these member namespaces to stable first"
            .into();
        for ns in &not_stable {
            commands.push(format!(
                "flowmcp-grading run {ns} --emit-prompts   # then the harness and --consume-scores; `state {ns}` shows what is missing"
            ));
        }
    } else if state
        .as_ref()
        .is_some_and(|s| s["status"] == "prompts-emitted")
    {
        let task = state
            .as_ref()
            .map_or("?", |s| s["taskId"].as_str().unwrap_or("?"));
        note = format!("a run is open (Task-ID {task}): the harness answers prompts.json");
        commands.push(format!(
            "flowmcp-grading run selections/{sel} --consume-scores scores.json"
        ));
    } else {
        note =
            "every member is stable: start a selection grading run (it freezes a new lockSnapshot)"
                .into();
        let overwrite = if base.join("prompts.json").exists() {
            " --on-conflict overwrite"
        } else {
            ""
        };
        commands.push(format!(
            "flowmcp-grading run selections/{sel} --emit-prompts{overwrite}"
        ));
    }
    let json = json!({
        "status": true,
        "flow": "selection",
        "tier": "group-bound",
        "target": sel,
        "rollupStatus": index["status"],
        "rollupGrade": index["grade"],
        "summary": index["summary"],
        "thresholds": index["thresholds"],
        "lockSnapshotHash": index.get("lockSnapshot").map(lock_hash),
        "lockSnapshotGeneratedAt": index["lockSnapshot"]["generatedAt"],
        "gateIfStartedNow": match &gate_now {
            Ok(()) => json!({"passed": true}),
            Err(blocked) => json!({"passed": false, "nonStable": blocked.members.iter().map(|m| &m.schema_id).collect::<Vec<_>>()}),
        },
        "batonStatus": state.as_ref().map(|s| s["status"].clone()),
        "indexPath": base.join("index.json"),
        "statePath": base.join("state.json"),
        "nextAction": {"note": note, "commands": commands},
        "index": index,
    });
    Ok(Outcome {
        success: true,
        text: render(sel, &json),
        json,
    })
}

fn render(sel: &str, result: &Value) -> String {
    let index = &result["index"];
    let mut text = String::new();
    let _ = writeln!(
        text,
        "selection {sel}: {} ({})",
        index["status"].as_str().unwrap_or("?"),
        index["grade"].as_str().unwrap_or("no grade")
    );
    if let Some(reason) = index["gradeReason"].as_str() {
        let _ = writeln!(text, "  grade: {reason}");
    }
    let t = &index["thresholds"];
    let _ = writeln!(
        text,
        "  thresholds: {} member namespaces, band {}, best grade {}",
        t["memberNamespaces"],
        t["band"].as_str().unwrap_or("?"),
        t["maxGrade"].as_str().unwrap_or("?")
    );
    let line = |text: &mut String, name: &str, node: &Value| {
        let _ = write!(text, "  {name}: {}", node["status"].as_str().unwrap_or("?"));
        if let Some(grade) = node["grade"].as_str() {
            let _ = write!(text, " {grade}");
        }
        if let Some(reason) = node["reason"].as_str() {
            let _ = write!(text, " — {reason}");
        }
        let _ = writeln!(text);
    };
    for (id, node) in index["members"].as_object().into_iter().flatten() {
        line(&mut text, &format!("member {id}"), node);
    }
    line(&mut text, "about", &index["about"]);
    for (name, node) in index["skills"].as_object().into_iter().flatten() {
        line(
            &mut text,
            &format!("skill {name} ({})", node["level"].as_str().unwrap_or("?")),
            node,
        );
    }
    line(
        &mut text,
        "selection aggregate",
        &index["selectionAggregate"],
    );
    match result["lockSnapshotHash"].as_str() {
        Some(hash) => {
            let _ = writeln!(
                text,
                "  lockSnapshot: {hash}, frozen {}",
                index["lockSnapshot"]["generatedAt"].as_str().unwrap_or("?")
            );
        }
        None => {
            let _ = writeln!(
                text,
                "  lockSnapshot: none yet (frozen by the first selection emit)"
            );
        }
    }
    let _ = writeln!(
        text,
        "  gate if a run started now: {}",
        if result["gateIfStartedNow"]["passed"] == true {
            "passes".to_owned()
        } else {
            format!(
                "blocks ({})",
                result["gateIfStartedNow"]["nonStable"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    let _ = writeln!(
        text,
        "\nnext:\n  {}",
        result["nextAction"]["note"].as_str().unwrap_or("")
    );
    for command in result["nextAction"]["commands"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let _ = writeln!(text, "  {}", command.as_str().unwrap_or(""));
    }
    text
}
