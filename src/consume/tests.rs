use super::*;
use serde_json::json;

const TASK: &str = "demo--0a1b2c3d";

fn prompts() -> Value {
    json!({
        "taskId": TASK,
        "areas": [
            {"area": "namespace-description", "instances": [
                {"instanceId": "demo", "questionIds": ["Q-namespace-description-01", "Q-namespace-description-04"]}
            ]},
            {"area": "tools-aggregate-schema", "instances": [
                {"instanceId": "demo", "questionIds": ["Q-tools-aggregate-schema-02"]}
            ]}
        ]
    })
}

fn state() -> Value {
    json!({"taskId": TASK, "emittedAreaSet": ["namespace-description", "tools-aggregate-schema"]})
}

fn good() -> Value {
    json!({
        "taskId": TASK,
        "llmModel": "claude-opus-4",
        "areas": [
            {"area": "namespace-description", "results": [{
                "instanceId": "demo",
                "answers": [
                    {"questionId": "Q-namespace-description-01", "score": 4, "reasoning": "clear"},
                    {"questionId": "Q-namespace-description-04", "score": "pass", "reasoning": "no acronyms"}
                ]
            }]},
            {"area": "tools-aggregate-schema", "results": []}
        ]
    })
}

fn codes(payload: &Value) -> Vec<&'static str> {
    match check(payload, Some(&prompts()), Some(&state())) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(|d| d.code).collect(),
    }
}

fn with(edit: impl FnOnce(&mut Value)) -> Value {
    let mut payload = good();
    edit(&mut payload);
    payload
}

fn answer(i: usize) -> &'static str {
    [
        "/areas/0/results/0/answers/0",
        "/areas/0/results/0/answers/1",
    ][i]
}

#[test]
fn a_good_payload_is_checked_and_empty_areas_are_not_consumed() {
    let checked = check(&good(), Some(&prompts()), Some(&state())).unwrap();
    assert_eq!(checked.llm_model, "claude-opus-4");
    assert_eq!(checked.areas.len(), 1);
    assert_eq!(checked.empty_areas, vec![Area::ToolsAggregateSchema]);
    let CheckedResult::Answered { answers, .. } = &checked.areas[0].results[0] else {
        panic!()
    };
    assert_eq!(answers.len(), 2);
}

#[test]
fn every_rejection_has_its_code() {
    let set = |pointer: &str, value: Value| {
        let pointer = pointer.to_owned();
        with(move |p| *p.pointer_mut(&pointer).unwrap() = value)
    };
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "score 0",
            set(&format!("{}/score", answer(0)), json!(0)),
            "CNS-001",
        ),
        (
            "score 5.5",
            set(&format!("{}/score", answer(0)), json!(5.5)),
            "CNS-001",
        ),
        (
            "score \"3\"",
            set(&format!("{}/score", answer(0)), json!("3")),
            "CNS-001",
        ),
        (
            "score PASS",
            set(&format!("{}/score", answer(1)), json!("PASS")),
            "CNS-001",
        ),
        (
            "n/a without reason",
            set(&format!("{}/score", answer(0)), json!("n/a")),
            "CNS-001",
        ),
        (
            "free-text naReason",
            with(|p| {
                let a = p.pointer_mut(answer(0)).unwrap();
                a["score"] = json!("n/a");
                a["naReason"] = json!("because");
            }),
            "CNS-001",
        ),
        (
            "veto without evidence",
            with(|p| {
                p["areas"][0]["results"][0]["veto"] =
                    json!({"trigger": "ai-security-veto", "reasoning": "x"});
            }),
            "CNS-001",
        ),
        ("wrong type", set("/areas", json!({})), "CNS-001"),
        (
            "stale Task-ID",
            set("/taskId", json!("demo--ffffffff")),
            "CNS-003",
        ),
        (
            "area not emitted",
            set("/areas/0/area", json!("about-namespace")),
            "CNS-004",
        ),
        (
            "unknown instance",
            set("/areas/0/results/0/instanceId", json!("other")),
            "CNS-005",
        ),
        (
            "missing answer",
            with(|p| {
                p["areas"][0]["results"][0]["answers"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            }),
            "CNS-006",
        ),
        (
            "extra answer",
            set(
                &format!("{}/questionId", answer(1)),
                json!("Q-namespace-description-02"),
            ),
            "CNS-007",
        ),
        (
            "duplicate answer",
            set(
                &format!("{}/questionId", answer(1)),
                json!("Q-namespace-description-01"),
            ),
            "CNS-008",
        ),
        (
            "number for a pass/fail question",
            set(&format!("{}/score", answer(1)), json!(4)),
            "CNS-009",
        ),
        (
            "pass for a scale question",
            set(&format!("{}/score", answer(0)), json!("pass")),
            "CNS-009",
        ),
        (
            "blank reasoning",
            set(&format!("{}/reasoning", answer(0)), json!("   ")),
            "CNS-010",
        ),
        (
            "instance twice",
            with(|p| {
                let first = p["areas"][0]["results"][0].clone();
                p["areas"][0]["results"].as_array_mut().unwrap().push(first);
            }),
            "CNS-011",
        ),
    ];
    assert!(cases.len() >= 15);
    for (what, payload, code) in cases {
        let found = codes(&payload);
        assert!(
            found.contains(&code),
            "{what}: wanted {code}, got {found:?}"
        );
    }
    // No open emit.
    let err = check(&good(), Some(&prompts()), None).unwrap_err();
    assert_eq!(err[0].code, "CNS-002");
}
