//! Shared test data: the valid fixture entries and a table of broken variants of them.
#![allow(dead_code)]

pub mod http;
pub mod island;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/reference`, when the project's shared folder sits beside the checkout.
pub fn shared_reference() -> Option<PathBuf> {
    let dir = repo().join("../shared/reference");
    dir.is_dir().then_some(dir)
}

pub fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

pub fn valid_entries() -> Vec<(String, Value)> {
    let dir = repo().join("fixtures/entries/valid");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                read(&p),
            )
        })
        .collect()
}

pub fn base(name: &str) -> Value {
    read(&repo().join("fixtures/entries/valid").join(name))
}

fn set(v: &mut Value, pointer: &str, new: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let target = v
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"));
    match target {
        Value::Object(map) => {
            map.insert(key.to_string(), new);
        }
        Value::Array(items) => items[key.parse::<usize>().unwrap()] = new,
        _ => panic!("{parent} is a scalar"),
    }
}

fn remove(v: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    v.pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap()
        .shift_remove(key)
        .unwrap_or_else(|| panic!("no {pointer}"));
}

pub struct Variant {
    pub name: &'static str,
    pub value: Value,
    /// The code that must be among the errors.
    pub code: &'static str,
}

const AUTO: &str = "spec-autonomous.json";
const REJ: &str = "spec-rejected.json";
const SEL: &str = "selection-aggregate-grade-a.json";
const SKILL: &str = "namespace-skills-partial.json";
const ABOUT: &str = "about-namespace-regrade.json";

/// Broken variants of the valid fixtures, each with the code it must fail with.
pub fn broken_variants() -> Vec<Variant> {
    type Edit = Box<dyn Fn(&mut Value)>;
    let s = |p: &'static str, v: Value| -> Edit { Box::new(move |x| set(x, p, v.clone())) };
    let r = |p: &'static str| -> Edit { Box::new(move |x| remove(x, p)) };
    let cases: Vec<(&'static str, &'static str, Edit, &'static str)> = vec![
        ("missing gradingId", AUTO, r("/gradingId"), "GRD-001"),
        (
            "missing categoricalVeto key",
            AUTO,
            r("/categoricalVeto"),
            "GRD-001",
        ),
        (
            "gradings is a string",
            AUTO,
            s("/gradings", json!("x")),
            "GRD-002",
        ),
        (
            "schemaId is a number",
            AUTO,
            s("/schemaId", json!(7)),
            "GRD-002",
        ),
        (
            "unknown gradingTier",
            AUTO,
            s("/gradingTier", json!("solo")),
            "GRD-003",
        ),
        (
            "group-bound without selectionId",
            SEL,
            r("/selectionId"),
            "GRD-004",
        ),
        (
            "non-deterministic without selectionContext",
            AUTO,
            r("/gradings/2/selectionContext"),
            "GRD-005",
        ),
        (
            "empty personaIds",
            AUTO,
            s("/gradings/2/selectionContext/personaIds", json!([])),
            "GRD-005",
        ),
        (
            "regrading without previousGradingId",
            ABOUT,
            r("/regradingTrigger/previousGradingId"),
            "GRD-006",
        ),
        (
            "llm answer without llmModel",
            AUTO,
            r("/gradings/2/llmModel"),
            "GRD-007",
        ),
        (
            "autonomous claims max A",
            AUTO,
            s("/maxAttainableGrade", json!("A")),
            "GRD-008",
        ),
        (
            "persona area without persona",
            ABOUT,
            r("/persona"),
            "GRD-009",
        ),
        (
            "aggregate does not recompute",
            AUTO,
            s("/aggregateGrade", json!("C")),
            "GRD-010",
        ),
        (
            "autonomous entry graded A",
            AUTO,
            s("/aggregateGrade", json!("A")),
            "GRD-010",
        ),
        (
            "bad gradingId",
            AUTO,
            s("/gradingId", json!("xyz")),
            "GRD-011",
        ),
        (
            "schemaId without a dot",
            AUTO,
            s("/schemaId", json!("etherscan")),
            "GRD-012",
        ),
        (
            "version without prefix",
            AUTO,
            s("/version", json!("4.0.0")),
            "GRD-013",
        ),
        (
            "uppercase schemaHash",
            AUTO,
            s("/schemaHash", json!("A1B2C3D4")),
            "GRD-014",
        ),
        (
            "short aboutHash",
            ABOUT,
            s("/aboutHash", json!("0c0ff")),
            "GRD-014",
        ),
        (
            "bad scoringSystem",
            AUTO,
            s("/scoringSystem", json!("scoring/1")),
            "GRD-015",
        ),
        (
            "answer timestamp not a date-time",
            AUTO,
            s("/gradings/0/timestamp", json!("yesterday")),
            "GRD-016",
        ),
        (
            "veto timestamp without colons",
            REJ,
            s("/categoricalVeto/timestamp", json!("2026-05-29T10-00-00Z")),
            "GRD-016",
        ),
        (
            "questionId without Q-",
            AUTO,
            s("/gradings/0/questionId", json!("single-test-01")),
            "GRD-017",
        ),
        (
            "extra field rawGrade",
            AUTO,
            s("/rawGrade", json!("A")),
            "GRD-018",
        ),
        (
            "extra field in an answer",
            AUTO,
            s("/gradings/0/dimension", json!("x")),
            "GRD-018",
        ),
        ("empty gradings", AUTO, s("/gradings", json!([])), "GRD-019"),
        (
            "unknown determinism",
            AUTO,
            s("/gradings/0/determinism", json!("maybe")),
            "GRD-021",
        ),
        (
            "unknown grader kind",
            AUTO,
            s("/gradings/0/graderIdentity/kind", json!("robot")),
            "GRD-022",
        ),
        (
            "unknown regrading trigger",
            ABOUT,
            s("/regradingTrigger/triggeredBy", json!("whim")),
            "GRD-023",
        ),
        (
            "user-report without reportedIssue",
            ABOUT,
            r("/regradingTrigger/reportedIssue"),
            "GRD-024",
        ),
        (
            "empty groupId",
            AUTO,
            s("/gradings/2/selectionContext/groupId", json!("")),
            "GRD-026",
        ),
        (
            "provider area on the group-bound tier",
            SEL,
            s("/area", json!("tools-aggregate-schema")),
            "GRD-027",
        ),
        (
            "nothing scorable in a full entry",
            SEL,
            s(
                "/gradings",
                json!([{
            "questionId": "Q-x", "score": "n/a", "naReason": "requires-private-data", "weight": 1,
            "determinism": "deterministic", "timestamp": "2026-06-10T08:30:00Z",
            "graderIdentity": {"kind": "script", "name": "s", "version": "1"}}]),
            ),
            "GRD-028",
        ),
        (
            "gradingId hash differs from schemaHash",
            AUTO,
            s("/gradingId", json!("00000000--2026-05-29T15-34-00Z")),
            "GRD-029",
        ),
        (
            "unknown base persona",
            ABOUT,
            s("/persona/basePersonaId", json!("ceo")),
            "GRD-032",
        ),
        (
            "persona without lensId",
            ABOUT,
            r("/persona/lensId"),
            "GRD-001",
        ),
        ("unknown area", AUTO, s("/area", json!("single")), "GRD-033"),
        (
            "unknown harness",
            AUTO,
            s("/harness", json!("cursor")),
            "GRD-034",
        ),
        ("empty skillId", SKILL, s("/skillId", json!("")), "GRD-036"),
        (
            "per-skill area without skillId",
            SKILL,
            r("/skillId"),
            "GRD-037",
        ),
        ("score 0", AUTO, s("/gradings/1/score", json!(0)), "SCO-001"),
        (
            "score 5.5",
            AUTO,
            s("/gradings/1/score", json!(5.5)),
            "SCO-001",
        ),
        (
            "score 5.0000001",
            AUTO,
            s("/gradings/1/score", json!(5.0000001)),
            "SCO-001",
        ),
        (
            "score -0",
            AUTO,
            s("/gradings/1/score", json!(-0.0)),
            "SCO-001",
        ),
        (
            "score as string \"3\"",
            AUTO,
            s("/gradings/1/score", json!("3")),
            "SCO-003",
        ),
        (
            "score PASS",
            AUTO,
            s("/gradings/0/score", json!("PASS")),
            "SCO-003",
        ),
        (
            "score null",
            AUTO,
            s("/gradings/0/score", json!(null)),
            "SCO-005",
        ),
        (
            "negative weight",
            AUTO,
            s("/gradings/0/weight", json!(-1)),
            "SCO-004",
        ),
        (
            "zero weight",
            AUTO,
            s("/gradings/0/weight", json!(0)),
            "SCO-004",
        ),
        (
            "n/a without naReason",
            AUTO,
            s("/gradings/1/score", json!("n/a")),
            "NA-001",
        ),
        (
            "free-text naReason",
            SEL,
            s("/gradings/3/naReason", json!("no data")),
            "NA-001",
        ),
        (
            "naReason on a pass",
            AUTO,
            s("/gradings/0/naReason", json!("requires-private-data")),
            "NA-002",
        ),
        (
            "unknown veto trigger",
            REJ,
            s("/categoricalVeto/triggeredBy", json!("spam")),
            "VET-001",
        ),
        (
            "empty veto evidence",
            REJ,
            s("/categoricalVeto/evidence", json!("")),
            "VET-002",
        ),
        (
            "blank veto evidence",
            REJ,
            s("/categoricalVeto/evidence", json!("   ")),
            "VET-002",
        ),
        (
            "missing veto evidence",
            REJ,
            r("/categoricalVeto/evidence"),
            "VET-002",
        ),
        (
            "ai-security-veto without reasoning",
            REJ,
            s("/categoricalVeto/triggeredBy", json!("ai-security-veto")),
            "VET-003",
        ),
        (
            "veto without grader",
            REJ,
            r("/categoricalVeto/graderIdentity"),
            "VET-004",
        ),
        (
            "REJECTED without a veto",
            AUTO,
            s("/aggregateGrade", json!("REJECTED")),
            "VET-005",
        ),
        (
            "veto with a letter grade",
            REJ,
            s("/aggregateGrade", json!("B")),
            "VET-005",
        ),
        (
            "unknown gradingMode",
            AUTO,
            s("/gradingMode", json!("half")),
            "PRT-002",
        ),
    ];
    cases
        .into_iter()
        .map(|(name, file, edit, code)| {
            let mut value = base(file);
            edit(&mut value);
            Variant { name, value, code }
        })
        .collect()
}
