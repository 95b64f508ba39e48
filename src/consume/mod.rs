//! Stage 3, first half: reading and checking the harness's `scores.json` against the open emit
//! (`prompts.json` and `state.json`). Every problem is listed with its JSON pointer; nothing is
//! merged or written here.
//!
//! Codes: CNS-001 payload shape (against `schemas/scores.schema.json`), CNS-002 no open emit,
//! CNS-003 Task-ID does not match the open emit, CNS-004 area not emitted, CNS-005 unknown
//! instance, CNS-006 an asked question is not answered, CNS-007 a question that was not asked,
//! CNS-008 a question answered twice, CNS-009 score outside the question's domain, CNS-010 blank
//! reasoning, CNS-011 an instance listed twice.

pub mod merge;

use crate::diagnostic::{Diagnostic, pointer_push};
use crate::model::{Area, EnvelopeAnswer, Score};
use crate::prompts::catalogue::{self, ScoreType};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Scores files larger than this are refused before parsing.
pub const MAX_SCORES_BYTES: u64 = 16 * 1024 * 1024;

/// One instance's checked result.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckedResult {
    Answered {
        instance_id: String,
        answers: Vec<EnvelopeAnswer>,
        improvement_hints: Vec<Value>,
        veto: Option<Value>,
    },
    Blocked {
        instance_id: String,
        blocker: String,
        reason: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct CheckedArea {
    pub area: Area,
    pub results: Vec<CheckedResult>,
}

/// A payload that passed every check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedPayload {
    pub task_id: String,
    pub llm_model: String,
    /// Areas with results; areas sent with empty results are not consumed.
    pub areas: Vec<CheckedArea>,
    /// Areas sent with empty results (reported, not consumed).
    pub empty_areas: Vec<Area>,
}

fn error(code: &'static str, pointer: String, message: String, fix: &str) -> Diagnostic {
    Diagnostic::error(code, message, fix).at(pointer)
}

/// Checks `payload` against the open emit. `prompts` is the emitted prompts.json, `state` the
/// state.json of that emit.
pub fn check(
    payload: &Value,
    prompts: Option<&Value>,
    state: Option<&Value>,
) -> Result<CheckedPayload, Vec<Diagnostic>> {
    let shape: Vec<Diagnostic> = crate::schemas::scores()
        .iter_errors(payload)
        .map(|e| {
            error(
                "CNS-001",
                e.instance_path().to_string(),
                e.to_string(),
                "write scores.json in the shape of schemas/scores.schema.json (see the prompt's Output section)",
            )
        })
        .collect();
    if !shape.is_empty() {
        return Err(shape);
    }
    let (Some(prompts), Some(state)) = (prompts, state) else {
        return Err(vec![error(
            "CNS-002",
            String::new(),
            "Consume payload carries a taskId but no open emit (state.json missing taskId/emittedAreaSet). Re-run --emit-prompts first.".into(),
            "run `flowmcp-grading run <target> --emit-prompts` first",
        )]);
    };
    let open = state["taskId"].as_str().unwrap_or_default();
    let given = payload["taskId"].as_str().unwrap_or_default();
    if given != open {
        return Err(vec![error(
            "CNS-003",
            "/taskId".into(),
            format!("Unknown taskId: {given} does not match the open emit {open}."),
            "Return the exact emitted Task-ID and area-set with matching per-area question counts.",
        )]);
    }
    let emitted: BTreeMap<&str, &Value> = prompts["areas"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["area"].as_str().map(|name| (name, a)))
        .collect();

    let mut errors = Vec::new();
    let mut areas = Vec::new();
    let mut empty_areas = Vec::new();
    for (ai, area_value) in payload["areas"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let area_pointer = format!("/areas/{ai}");
        let name = area_value["area"].as_str().unwrap_or_default();
        let Some(emitted_area) = emitted.get(name) else {
            errors.push(error(
                "CNS-004",
                pointer_push(&area_pointer, "area"),
                format!(
                    "Area(s) not in the emitted set: {name} (emitted: {}).",
                    emitted.keys().copied().collect::<Vec<_>>().join(", ")
                ),
                "answer only the areas of prompts.json",
            ));
            continue;
        };
        let area: Area = match name.parse() {
            Ok(area) => area,
            Err(_) => continue, // the schema's enum already guarantees it
        };
        let results = area_value["results"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if results.is_empty() {
            empty_areas.push(area);
            continue;
        }
        let instances: BTreeMap<&str, &Value> = emitted_area["instances"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["instanceId"].as_str().map(|id| (id, i)))
            .collect();
        let mut seen_instances = BTreeSet::new();
        let mut checked = Vec::new();
        for (ri, result) in results.iter().enumerate() {
            let pointer = pointer_push(&pointer_push(&area_pointer, "results"), ri);
            let id = result["instanceId"].as_str().unwrap_or_default();
            let Some(instance) = instances.get(id) else {
                errors.push(error(
                    "CNS-005",
                    pointer_push(&pointer, "instanceId"),
                    format!("unknown instance `{id}` in area {name}"),
                    "use the instanceId values of prompts.json",
                ));
                continue;
            };
            if !seen_instances.insert(id) {
                errors.push(error(
                    "CNS-011",
                    pointer_push(&pointer, "instanceId"),
                    format!("instance `{id}` is listed twice in area {name}"),
                    "give one result per instance",
                ));
                continue;
            }
            if let Some(blocker) = result["blocker"].as_str() {
                checked.push(CheckedResult::Blocked {
                    instance_id: id.to_owned(),
                    blocker: blocker.to_owned(),
                    reason: result["reason"].as_str().unwrap_or_default().to_owned(),
                });
                continue;
            }
            match check_answers(&pointer, result, instance) {
                Ok(answers) => checked.push(CheckedResult::Answered {
                    instance_id: id.to_owned(),
                    answers,
                    improvement_hints: result["improvementHints"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default(),
                    veto: result.get("veto").cloned(),
                }),
                Err(mut found) => errors.append(&mut found),
            }
        }
        areas.push(CheckedArea {
            area,
            results: checked,
        });
    }
    if errors.is_empty() {
        Ok(CheckedPayload {
            task_id: given.to_owned(),
            llm_model: payload["llmModel"].as_str().unwrap_or_default().to_owned(),
            areas,
            empty_areas,
        })
    } else {
        Err(errors)
    }
}

/// Every asked question of the instance answered exactly once, in its domain, with reasoning.
fn check_answers(
    pointer: &str,
    result: &Value,
    instance: &Value,
) -> Result<Vec<EnvelopeAnswer>, Vec<Diagnostic>> {
    let asked: Vec<&str> = instance["questionIds"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    let mut answers = Vec::new();
    for (i, value) in result["answers"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let at = pointer_push(&pointer_push(pointer, "answers"), i);
        let answer: EnvelopeAnswer = match serde_json::from_value(value.clone()) {
            Ok(answer) => answer,
            Err(err) => {
                errors.push(error(
                    "CNS-001",
                    at,
                    err.to_string(),
                    "see schemas/scores.schema.json",
                ));
                continue;
            }
        };
        let id = answer.question_id.as_str();
        if !asked.contains(&id) {
            errors.push(error(
                "CNS-007",
                pointer_push(&at, "questionId"),
                format!(
                    "`{id}` was not asked for this instance (asked: {})",
                    asked.join(", ")
                ),
                "answer exactly the questionIds of the instance in prompts.json",
            ));
            continue;
        }
        if !seen.insert(id.to_owned()) {
            errors.push(error(
                "CNS-008",
                pointer_push(&at, "questionId"),
                format!("`{id}` is answered twice"),
                "answer each question once",
            ));
            continue;
        }
        if let Some(question) = catalogue::get(id) {
            let fits = matches!(
                (question.score_type, answer.score),
                (_, Score::NotApplicable)
                    | (ScoreType::Boolean, Score::Pass | Score::Fail)
                    | (ScoreType::Scale, Score::Number(_))
            );
            if !fits {
                let domain = match question.score_type {
                    ScoreType::Boolean => "`pass`, `fail` or `n/a`",
                    ScoreType::Scale => "a number from 1.0 to 5.0 or `n/a`",
                };
                errors.push(error(
                    "CNS-009",
                    pointer_push(&at, "score"),
                    format!(
                        "score {} does not fit `{id}`, which takes {domain}",
                        answer.score
                    ),
                    "use the score domain given for the question in the prompt",
                ));
                continue;
            }
        }
        if answer.reasoning.trim().is_empty() {
            errors.push(error(
                "CNS-010",
                pointer_push(&at, "reasoning"),
                format!("`{id}` has a blank reasoning"),
                "say why the score was given",
            ));
            continue;
        }
        answers.push(answer);
    }
    for id in asked.iter().filter(|id| !seen.contains(**id)) {
        errors.push(error(
            "CNS-006",
            pointer_push(pointer, "answers"),
            format!("asked question `{id}` is not answered"),
            "answer every questionId of the instance (n/a with a naReason when it cannot apply)",
        ));
    }
    if errors.is_empty() {
        Ok(answers)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests;
