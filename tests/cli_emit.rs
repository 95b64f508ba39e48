//! `flowmcp-grading run <ns> --emit-prompts` through the binary: the handoff validates against
//! `schemas/prompts.schema.json`, lists files that exist, carries the deterministic answers, and
//! the conflict policies, `--phase` errors and "nothing emittable" behave.

mod support;

use support::island::check_handoff;

use assert_cmd::Command;
use flowmcp_grading::hash::task_id;
use flowmcp_grading::model::Area;
use serde_json::Value;
use std::fs;
use std::path::Path;
use support::http;

fn bin() -> Command {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.env("HOME", "/nonexistent-home-for-tests")
        .env_remove("FLOWMCP_GRADING_USE_KEYS")
        .current_dir(support::repo());
    cmd
}

fn import(island: &Path, provider: &Path) {
    bin()
        .arg("--grading-data")
        .arg(island)
        .arg("import")
        .arg(provider)
        .assert()
        .success();
}

fn emit(island: &Path, ns: &str, extra: &[&str]) -> (i32, Value, String) {
    let out = bin()
        .arg("--grading-data")
        .arg(island)
        .args(["--json", "run", ns, "--emit-prompts"])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn offline_emit_writes_a_valid_self_contained_handoff() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    import(
        &island,
        &support::repo().join("fixtures/providers/aboutskills"),
    );
    let (code, result, stderr) = emit(&island, "aboutskills", &["--offline"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(result["stage"], 1);
    let prompts: Value = serde_json::from_slice(
        &fs::read(island.join("providers/aboutskills/prompts.json")).unwrap(),
    )
    .unwrap();
    check_handoff(&prompts);
    // The pretest could not pass offline: namespace areas are gated with the reason.
    let gated: Vec<&str> = prompts["gatedAreas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["area"].as_str().unwrap())
        .collect();
    assert_eq!(
        gated,
        [
            "tools-aggregate-namespace",
            "namespace-description",
            "namespace-skills"
        ]
    );
    let about = prompts["areas"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["area"] == "about-namespace")
        .unwrap();
    assert_eq!(about["persona"]["basePersonaId"], "decision-maker");
    assert_eq!(about["persona"]["lensId"], "aboutskills");
    assert_eq!(
        about["instances"][0]["deterministicAnswers"][0]["score"],
        "pass"
    );
    let state: Value =
        serde_json::from_slice(&fs::read(island.join("providers/aboutskills/state.json")).unwrap())
            .unwrap();
    assert_eq!(state["taskId"], prompts["taskId"]);
    assert_eq!(state["status"], "prompts-emitted");

    let island_text = island.display().to_string();
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(&regex_escape(&island_text), "[ISLAND]");
    settings.add_filter(r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z", "[TS]");
    settings.add_filter(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z", "[TIME]");
    settings.bind(|| {
        insta::assert_snapshot!(
            "prompts_json",
            serde_json::to_string_pretty(&prompts).unwrap()
        );
        for area in prompts["areas"].as_array().unwrap() {
            let name = format!("prompt_{}", area["area"].as_str().unwrap());
            insta::assert_snapshot!(name, area["prompt"].as_str().unwrap());
        }
    });
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if "\\.+*?()|[]{}^$".contains(c) {
                vec!['\\', c]
            } else {
                vec![c]
            }
        })
        .collect()
}

#[test]
fn a_green_namespace_emits_every_area_with_code_answers() {
    let server = http::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let provider = dir.path().join("greenapi");
    fs::create_dir_all(provider.join("resources")).unwrap();
    fs::create_dir_all(provider.join("skills")).unwrap();
    let tool = |name: &str| {
        format!(
            "{name}: {{ method: 'GET', path: '/ok', description: 'Lists items.', parameters: [],\n  tests: [{{ _description: 'a' }}, {{ _description: 'b' }}, {{ _description: 'c' }}],\n  output: {{ mimeType: 'application/json', schema: {{ type: 'object', properties: {{ items: {{ type: 'array' }} }}, required: ['items'] }} }} }},\n"
        )
    };
    fs::write(
        provider.join("greenapi.mjs"),
        format!(
            "export const main = {{\n namespace: 'greenapi', name: 'Green API', description: 'A green test API.', version: '4.0.0',\n docs: ['{base}/ok'], tags: [], root: '{base}', requiredServerParams: [], headers: {{}},\n resources: {{ about: {{ source: 'markdown', origin: 'inline', name: 'greenapi-about.md', description: 'About' }} }},\n tools: {{ {a}{b}{c} }}\n}}\n",
            base = server.base,
            a = tool("listItems"),
            b = tool("listMore"),
            c = tool("listAll"),
        ),
    )
    .unwrap();
    fs::write(
        provider.join("resources/greenapi-about.md"),
        "# Green API\n\nLists items.\n",
    )
    .unwrap();
    fs::write(
        provider.join("skills/item-scan.mjs"),
        "const content = `Call {{tool:listItems}}.`;\nexport const skill = { name: 'item-scan', version: 'flowmcp/4.0.0', type: 'namespace', description: 'Scan items', requires: { tools: ['listItems'] }, content };\n",
    )
    .unwrap();
    let island = dir.path().join("island");
    import(&island, &provider);
    let (code, result, stderr) = emit(
        &island,
        "providers/greenapi",
        &["--persona", "ai-engineer:retail"],
    );
    assert_eq!(code, 0, "{stderr}");
    let emitted: Vec<&str> = result["emittedAreaSet"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(
        emitted,
        [
            "single-test",
            "tools-aggregate-schema",
            "tools-aggregate-namespace",
            "namespace-description",
            "namespace-skills",
            "about-namespace"
        ]
    );
    let prompts: Value =
        serde_json::from_slice(&fs::read(island.join("providers/greenapi/prompts.json")).unwrap())
            .unwrap();
    check_handoff(&prompts);
    let single = &prompts["areas"][0]["instances"][0];
    let scores: Vec<&str> = single["deterministicAnswers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["score"].as_str().unwrap_or("number"))
        .collect();
    assert_eq!(scores, ["pass", "pass", "n/a"], "{single}");
    assert_eq!(
        prompts["areas"][2]["instances"][0]["deterministicAnswers"][0]["score"],
        "pass"
    );
    let skills = &prompts["areas"][4];
    assert_eq!(skills["persona"]["lensId"], "retail");
    assert_eq!(skills["instances"][0]["skillId"], "item-scan");

    let mut settings = insta::Settings::clone_current();
    settings.add_filter(&regex_escape(&island.display().to_string()), "[ISLAND]");
    settings.add_filter(r"http://127\.0\.0\.1:\d+", "[SERVER]");
    settings.add_filter(r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z", "[TS]");
    // The root holds the test server's port, so the schema hash changes from run to run.
    settings.add_filter(r"\b[0-9a-f]{8}\b", "[HASH8]");
    settings.bind(|| {
        for area in prompts["areas"].as_array().unwrap() {
            let name = format!("green_prompt_{}", area["area"].as_str().unwrap());
            insta::assert_snapshot!(name, area["prompt"].as_str().unwrap());
        }
    });
}

#[test]
fn conflict_policies() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    import(&island, &support::repo().join("fixtures/providers/tinyapi"));
    assert_eq!(emit(&island, "tinyapi", &["--offline"]).0, 0);
    let path = island.join("providers/tinyapi/prompts.json");
    let first = fs::read(&path).unwrap();
    let task: Value = serde_json::from_slice(&first).unwrap();
    let task = task["taskId"].as_str().unwrap().to_owned();

    let (code, json, _) = emit(&island, "tinyapi", &["--offline"]);
    assert_eq!((code, json["code"].as_str()), (1, Some("RUN-001")));
    assert!(
        json["error"].as_str().unwrap().contains(&task),
        "abort names the Task-ID: {json}"
    );
    assert_eq!(fs::read(&path).unwrap(), first);

    let (code, json, _) = emit(&island, "tinyapi", &["--offline", "--on-conflict", "skip"]);
    assert_eq!((code, json["skipped"].as_bool()), (0, Some(true)));
    assert_eq!(fs::read(&path).unwrap(), first);

    let (code, json, _) = emit(
        &island,
        "tinyapi",
        &[
            "--offline",
            "--on-conflict",
            "overwrite",
            "--phase",
            "single-test",
        ],
    );
    assert_eq!((code, json["skipped"].as_bool()), (0, Some(false)));
    let replaced: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(
        replaced["taskId"].as_str().unwrap(),
        task_id::generate("tinyapi", &[Area::SingleTest]).unwrap()
    );
}

#[test]
fn phase_errors_and_nothing_emittable() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    import(&island, &support::repo().join("fixtures/providers/tinyapi"));
    for (phase, code, text) in [
        ("single-test,", "PHS-001", "Empty --phase member"),
        ("bogus", "PHS-002", "Unknown --phase area(s): bogus"),
        (
            "single-test,single-test",
            "PHS-003",
            "Duplicate --phase area(s): single-test",
        ),
    ] {
        let (exit, json, _) = emit(&island, "tinyapi", &["--offline", "--phase", phase]);
        assert_eq!((exit, json["code"].as_str()), (1, Some(code)), "{phase}");
        assert!(json["error"].as_str().unwrap().contains(text), "{json}");
    }
    let (exit, json, _) = emit(
        &island,
        "tinyapi",
        &["--offline", "--phase", "about-namespace"],
    );
    assert_eq!(
        (exit, json["code"].as_str()),
        (1, Some("RUN-002")),
        "{json}"
    );
    assert!(!island.join("providers/tinyapi/prompts.json").exists());
    assert!(
        !island
            .join("providers/tinyapi/tinyapi/summary.json")
            .exists(),
        "nothing written"
    );
    let (exit, json, _) = emit(&island, "nothere", &["--offline"]);
    assert_eq!((exit, json["code"].as_str()), (1, Some("ISL-009")));
}
