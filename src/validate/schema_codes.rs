//! Turns JSON Schema errors into coded diagnostics: the code says which spec rule was broken,
//! the pointer says where, the fix says what to do.

use crate::diagnostic::{Diagnostic, pointer_push};
use crate::model::{
    BasePersona, Determinism, GraderKind, GradingMode, NaReason, RegradingTriggerKind, VetoTrigger,
};
use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

/// Which document the errors are about; a few fields mean different things in each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doc {
    Entry,
    Envelope,
}

/// Appends the diagnostics for one schema error (several for a `oneOf` whose branch is clear).
pub fn diagnose(err: &ValidationError<'_>, doc: Doc, out: &mut Vec<Diagnostic>) {
    let pointer = err.instance_path().as_str().to_string();
    let field = last_token(&pointer);
    let within = Within::of(&pointer);
    let diagnostic = match err.kind() {
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            return out.push(required(name, within, doc).at(pointer_push(&pointer, name)));
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => Diagnostic::error(
            "GRD-018",
            format!("unknown field(s) {}", ticked(unexpected)),
            "remove them; the schema allows no extra fields (keep extras in a sidecar file)",
        ),
        ValidationErrorKind::Type { kind } => Diagnostic::error(
            if field == "score" {
                "SCO-005"
            } else {
                "GRD-002"
            },
            format!(
                "expected {}, found {}",
                type_names(kind),
                json_type(err.instance())
            ),
            "give the field the type the grading-entry schema asks for",
        ),
        ValidationErrorKind::Enum { .. } | ValidationErrorKind::Constant { .. } => {
            closed_set(&field, within, err.instance(), err.kind())
        }
        ValidationErrorKind::Pattern { pattern } => pattern_error(&field, pattern, err.instance()),
        ValidationErrorKind::Format { format } => Diagnostic::error(
            "GRD-016",
            format!("{} is not a valid {format}", short(err.instance())),
            "use an RFC 3339 date-time with colons, e.g. 2026-06-04T10:15:00Z",
        ),
        ValidationErrorKind::Minimum { limit } | ValidationErrorKind::Maximum { limit } => {
            bound_error(&field, within, limit, err.instance())
        }
        ValidationErrorKind::MinItems { limit } | ValidationErrorKind::MaxItems { limit } => {
            items_error(&field, doc, *limit, err.instance())
        }
        ValidationErrorKind::MinLength { .. } => empty_string(&field, within, doc),
        ValidationErrorKind::OneOfNotValid { context } => {
            if let Some(branch) = matching_branch(context, &pointer) {
                for inner in branch {
                    diagnose(inner, doc, out);
                }
                return;
            }
            Diagnostic::error(
                if field == "score" {
                    "SCO-005"
                } else {
                    "GRD-002"
                },
                format!("{} has the wrong type", short(err.instance())),
                one_of_fix(&field, within),
            )
        }
        other => Diagnostic::error(
            "GRD-002",
            format!("{} is invalid ({})", short(err.instance()), other.keyword()),
            "compare the field with the grading-entry schema",
        ),
    };
    out.push(diagnostic.at(pointer));
}

/// Where in the document an error sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Within {
    Root,
    Answer,
    Veto,
    Regrading,
    Persona,
    Hint,
}

impl Within {
    fn of(pointer: &str) -> Within {
        let first = pointer.split('/').nth(1).unwrap_or_default();
        match first {
            "gradings" | "answers" => Within::Answer,
            "categoricalVeto" => Within::Veto,
            "regradingTrigger" => Within::Regrading,
            "persona" => Within::Persona,
            "improvementHints" => Within::Hint,
            _ => Within::Root,
        }
    }
}

fn required(name: &str, within: Within, doc: Doc) -> Diagnostic {
    let missing = format!("required field `{name}` is missing");
    let (code, message, fix): (&str, String, String) = match (within, name) {
        (Within::Veto, "evidence") => ("VET-002", missing, "every veto needs evidence".into()),
        (Within::Veto, "reasoning") => (
            "VET-003",
            "ai-security-veto has no reasoning".into(),
            "an ai-security-veto needs both evidence and reasoning".into(),
        ),
        (Within::Veto, "graderIdentity") => ("VET-004", missing, "say who raised the veto".into()),
        (Within::Veto, "triggeredBy") => (
            "VET-001",
            missing,
            format!("use one of: {}", VetoTrigger::allowed()),
        ),
        (_, "selectionId") => (
            "GRD-004",
            "group-bound entry has no selectionId".into(),
            "add the selection's id; group-bound entries always grade a selection".into(),
        ),
        (_, "llmModel") => (
            "GRD-007",
            "answer by an llm grader has no llmModel".into(),
            "add llmModel, e.g. \"claude-opus-4-7\"".into(),
        ),
        (_, "selectionContext") | (_, "personaIds") => (
            "GRD-005",
            "non-deterministic answer has no selectionContext.personaIds".into(),
            "add selectionContext with groupId and at least one persona id".into(),
        ),
        (Within::Answer, "naReason") => (
            "NA-001",
            "score is n/a but naReason is missing".into(),
            format!("set naReason to one of: {}", NaReason::allowed()),
        ),
        (_, "persona") => (
            "GRD-009",
            "persona-bound area has no persona".into(),
            "add persona {basePersonaId, lensId}".into(),
        ),
        (_, "skillId") => (
            "GRD-037",
            "per-skill area has no skillId".into(),
            "add the id of the skill this entry grades".into(),
        ),
        (_, "previousGradingId") => (
            "GRD-006",
            "re-grading has no previousGradingId".into(),
            "point previousGradingId at the gradingId this entry supersedes".into(),
        ),
        (_, "reportedIssue") | (_, "requestedBy") => (
            "GRD-024",
            format!("user-report re-grading has no {name}"),
            "a user-report re-grading names the issue and who reported it".into(),
        ),
        (Within::Answer, "reasoning") if doc == Doc::Envelope => (
            "ASC-005",
            missing,
            "every answer explains its score in `reasoning`".into(),
        ),
        _ => ("GRD-001", missing, format!("add `{name}`")),
    };
    Diagnostic::error(code, message, fix)
}

fn closed_set(
    field: &str,
    within: Within,
    instance: &Value,
    kind: &ValidationErrorKind,
) -> Diagnostic {
    let got = short(instance);
    let (code, allowed): (&str, String) = match (within, field) {
        (_, "area") => (
            "GRD-033",
            crate::model::AREAS
                .iter()
                .map(|s| s.id)
                .collect::<Vec<_>>()
                .join(", "),
        ),
        (_, "gradingTier") => ("GRD-003", "autonomous, group-bound".into()),
        (_, "harness") => ("GRD-034", "claude-code".into()),
        (_, "gradingMode") => ("PRT-002", GradingMode::allowed()),
        (_, "determinism") => ("GRD-021", Determinism::allowed()),
        (_, "kind") => ("GRD-022", GraderKind::allowed()),
        (_, "naReason") => ("NA-001", NaReason::allowed()),
        (Within::Veto, "triggeredBy") => ("VET-001", VetoTrigger::allowed()),
        (Within::Regrading, "triggeredBy") => ("GRD-023", RegradingTriggerKind::allowed()),
        (_, "basePersonaId") => ("GRD-032", BasePersona::allowed()),
        (_, "score") => ("SCO-003", "pass, fail, stale, n/a".into()),
        (_, "priority") => ("GRD-031", "low, medium, high".into()),
        (_, "aggregateGrade") => {
            if matches!(kind, ValidationErrorKind::Constant { .. }) {
                return Diagnostic::error(
                    "VET-005",
                    format!("categoricalVeto is set but aggregateGrade is {got}"),
                    "a veto replaces the grade: set aggregateGrade to REJECTED",
                );
            }
            ("GRD-010", "A, B, C, D, F, REJECTED".into())
        }
        (_, "maxAttainableGrade") => {
            if let ValidationErrorKind::Constant { expected_value } = kind {
                return Diagnostic::error(
                    "GRD-008",
                    format!("maxAttainableGrade is {got} but the tier allows {expected_value}"),
                    format!(
                        "set maxAttainableGrade to {expected_value} (autonomous B, group-bound A)"
                    ),
                );
            }
            ("GRD-008", "A, B".into())
        }
        _ => ("GRD-002", String::new()),
    };
    if field == "score" {
        return Diagnostic::error(
            code,
            format!("{got} is not a score"),
            one_of_fix(field, within),
        );
    }
    let fix = if allowed.is_empty() {
        "use one of the values the schema allows".to_string()
    } else {
        format!("use one of: {allowed}")
    };
    Diagnostic::error(code, format!("{got} is not an allowed `{field}`"), fix)
}

fn pattern_error(field: &str, pattern: &str, instance: &Value) -> Diagnostic {
    let (code, fix) = match field {
        "gradingId" => (
            "GRD-011",
            "use <hash8>--<YYYY-MM-DDTHH-MM-SSZ>, e.g. 015abd7f--2026-06-04T10-15-00Z",
        ),
        "schemaId" => (
            "GRD-012",
            "use <namespace>.<name> with exactly one dot, e.g. etherscan.getBalance",
        ),
        "version" => (
            "GRD-013",
            "use flowmcp/4.<minor>.<patch>, e.g. flowmcp/4.2.0",
        ),
        "schemaHash" | "aboutHash" => ("GRD-014", "use 8 lowercase hex digits (sha256-8)"),
        "scoringSystem" => (
            "GRD-015",
            "use scoringSystem/<major>.<minor>.<patch>, e.g. scoringSystem/1.0.0",
        ),
        "gradingSystem" => (
            "GRD-015",
            "use gradingSystem/<major>.<minor>.<patch>, e.g. gradingSystem/1.0.0",
        ),
        "questionId" => (
            "GRD-017",
            "question ids start with Q-, e.g. Q-single-test-04",
        ),
        _ => ("GRD-002", "match the pattern the schema gives"),
    };
    Diagnostic::error(
        code,
        format!("{} does not match {pattern}", short(instance)),
        fix,
    )
}

fn bound_error(field: &str, within: Within, limit: &Value, instance: &Value) -> Diagnostic {
    match field {
        "score" => Diagnostic::error(
            "SCO-001",
            format!("score {} is outside 1.0–5.0", short(instance)),
            "use a number from 1.0 to 5.0 inclusive, or pass/fail/stale/n/a",
        ),
        "weight" => Diagnostic::error(
            "SCO-004",
            format!("weight {} is below {limit}", short(instance)),
            "give every answer a weight greater than 0",
        ),
        "iteration" => Diagnostic::error(
            "GRD-030",
            format!("iteration {} is outside 1–5", short(instance)),
            "count harness iterations from 1 to 5",
        ),
        _ => Diagnostic::error(
            "GRD-002",
            format!(
                "{} is out of bounds ({limit}) in {within:?}",
                short(instance)
            ),
            "use a value within the schema's bounds",
        ),
    }
}

fn items_error(field: &str, doc: Doc, limit: u64, instance: &Value) -> Diagnostic {
    let len = instance.as_array().map_or(0, Vec::len);
    match (field, doc) {
        ("gradings", _) => Diagnostic::error(
            "GRD-019",
            "gradings[] is empty",
            "an entry carries at least one answer",
        ),
        ("personaIds", _) => Diagnostic::error(
            "GRD-005",
            "selectionContext.personaIds is empty",
            "name at least one persona, e.g. \"schema-maintainer\"",
        ),
        ("answers", Doc::Envelope) => Diagnostic::error(
            "ASC-002",
            format!("answers[] has {len} items, at least {limit} expected"),
            "answer every question of the area",
        ),
        _ => Diagnostic::error(
            "GRD-002",
            format!("`{field}` has {len} items (limit {limit})"),
            "use as many items as the schema allows",
        ),
    }
}

fn empty_string(field: &str, within: Within, doc: Doc) -> Diagnostic {
    let (code, fix) = match (within, field) {
        (Within::Veto, "evidence") => ("VET-002", "every veto needs non-empty evidence"),
        (_, "skillId") => ("GRD-036", "name the graded skill"),
        (_, "llmModel") => ("GRD-007", "name the model, e.g. claude-opus-4-7"),
        (Within::Answer, "reasoning") if doc == Doc::Envelope => {
            ("ASC-005", "every answer explains its score in `reasoning`")
        }
        (Within::Hint, _) => (
            "GRD-031",
            "improvement hints need a targetField and a suggestion",
        ),
        _ => (
            "GRD-026",
            "fill in the field or remove it if it is optional",
        ),
    };
    Diagnostic::error(code, format!("`{field}` is an empty string"), fix)
}

fn one_of_fix(field: &str, within: Within) -> &'static str {
    match (within, field) {
        (_, "score") => "use a number 1.0–5.0 or one of \"pass\", \"fail\", \"stale\", \"n/a\"",
        (_, "categoricalVeto") => {
            "use null, or a veto object {triggeredBy, graderIdentity, evidence, timestamp}"
        }
        (_, "evidence") => "use a non-empty string or an object",
        (_, "persona") => "use null for neutral areas, or {basePersonaId, lensId}",
        _ => "use one of the shapes the schema allows",
    }
}

/// The `oneOf` branch the document evidently meant: the one whose type matched (no `type` error
/// at the `oneOf`'s own position). `None` when every branch failed on the type.
fn matching_branch<'a>(
    context: &'a [Vec<ValidationError<'static>>],
    pointer: &str,
) -> Option<&'a [ValidationError<'static>]> {
    let type_failed = |branch: &Vec<ValidationError<'static>>| {
        branch.iter().any(|e| {
            e.instance_path().as_str() == pointer
                && matches!(e.kind(), ValidationErrorKind::Type { .. })
        })
    };
    let mut candidates = context.iter().filter(|b| !b.is_empty() && !type_failed(b));
    let first = candidates.next()?;
    candidates.next().is_none().then_some(first.as_slice())
}

fn last_token(pointer: &str) -> String {
    let token = pointer.rsplit('/').next().unwrap_or_default();
    let token = token.replace("~1", "/").replace("~0", "~");
    if token.parse::<usize>().is_ok() {
        // an array item: name it after its array
        let parent = &pointer[..pointer.len() - token.len() - 1];
        return last_token(parent);
    }
    token
}

fn ticked(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn type_names(kind: &TypeKind) -> String {
    match kind {
        TypeKind::Single(t) => t.to_string(),
        TypeKind::Multiple(set) => set
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A value for a message: scalars verbatim, containers by their type.
fn short(value: &Value) -> String {
    match value {
        Value::String(s) if s.chars().count() > 60 => {
            format!("\"{}…\"", s.chars().take(57).collect::<String>())
        }
        Value::Array(_) | Value::Object(_) => json_type(value).to_string(),
        other => other.to_string(),
    }
}
