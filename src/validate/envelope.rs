//! Answer-envelope rules beyond the schema: the area's question set, persona per area, n/a.

use super::schema_codes::{Doc, diagnose};
use super::{coded_at, dedupe};
use crate::diagnostic::{Diagnostic, pointer_push};
use crate::model::{AnswerEnvelope, question_ids};
use crate::{schemas, scoring};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashSet;

/// Every error for one envelope (or blocker).
pub fn check(value: &Value) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for err in schemas::answer_envelope().iter_errors(value) {
        diagnose(&err, Doc::Envelope, &mut out);
    }
    if let Ok(envelope) = AnswerEnvelope::deserialize(value) {
        rules(&envelope, &mut out);
    }
    dedupe(out)
}

fn rules(envelope: &AnswerEnvelope, out: &mut Vec<Diagnostic>) {
    let area = envelope.area;
    match (area.persona_bound(), &envelope.persona) {
        (true, None) => out.push(
            Diagnostic::error(
                "GRD-009",
                format!("{area} is persona-bound but persona is null"),
                "give persona {basePersonaId, lensId}",
            )
            .at("/persona"),
        ),
        (false, Some(_)) => out.push(
            Diagnostic::error(
                "GRD-040",
                format!("{area} is a neutral area but a persona is given"),
                "set persona to null for single-test, tools-aggregate-* and namespace-description",
            )
            .at("/persona"),
        ),
        _ => {}
    }
    let expected = question_ids(area);
    if envelope.answers.len() != expected.len() {
        out.push(
            Diagnostic::error(
                "ASC-002",
                format!(
                    "{area} has {} questions but {} answers were given",
                    expected.len(),
                    envelope.answers.len()
                ),
                "answer every question of the area exactly once",
            )
            .at("/answers"),
        );
    }
    let mut seen = HashSet::new();
    for (i, answer) in envelope.answers.iter().enumerate() {
        let at = pointer_push("/answers", i);
        let id = &answer.question_id;
        if !expected.contains(id) {
            out.push(
                Diagnostic::error(
                    "ASC-003",
                    format!("`{id}` is not a question of {area}"),
                    format!(
                        "use the ids {} … {}",
                        expected[0],
                        expected[expected.len() - 1]
                    ),
                )
                .at(pointer_push(&at, "questionId")),
            );
        } else if !seen.insert(id) {
            out.push(
                Diagnostic::error(
                    "ASC-003",
                    format!("`{id}` is answered twice"),
                    "answer each question exactly once",
                )
                .at(pointer_push(&at, "questionId")),
            );
        }
        if answer.reasoning.trim().is_empty() {
            out.push(
                Diagnostic::error(
                    "ASC-005",
                    "reasoning is blank",
                    "explain the score in `reasoning`",
                )
                .at(pointer_push(&at, "reasoning")),
            );
        }
        let reason = answer.na_reason.map(|r| r.as_str());
        if let Err(err) = scoring::check_na(answer.score, reason) {
            out.push(coded_at(&err, pointer_push(&at, "naReason")));
        }
    }
    if let Some((hash, _)) = envelope.grading_id.split_once("--")
        && hash != envelope.schema_hash
    {
        out.push(
            Diagnostic::error(
                "GRD-029",
                format!(
                    "gradingId starts with {hash} but schemaHash is {}",
                    envelope.schema_hash
                ),
                "gradingId is <schemaHash>--<timestamp>",
            )
            .at("/gradingId"),
        );
    }
}
