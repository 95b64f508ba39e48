//! The whole provider loop through the binary: import, emit against a loopback API, a scripted
//! scores.json, consume. Entries validate (embedded schema always, the spec annex when
//! ../shared is present), grades match hand-computed values, bad payloads change nothing.

mod support;

use assert_cmd::Command;
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};
use support::http;
use support::island::{scripted, tree};

fn bin(island: &Path) -> Command {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.env("HOME", "/nonexistent-home-for-tests")
        .env_remove("FLOWMCP_GRADING_EXPORT")
        .arg("--grading-data")
        .arg(island);
    cmd
}

/// A green provider on the test server: three tools, three working tests each, no About.
fn green(dir: &Path, base: &str) -> PathBuf {
    let provider = dir.join("loopapi");
    fs::create_dir_all(&provider).unwrap();
    let tool = |name: &str| {
        format!(
            "{name}: {{ method: 'GET', path: '/ok', description: 'Lists items.', parameters: [], tests: [{{ _description: 'a' }}, {{ _description: 'b' }}, {{ _description: 'c' }}], output: {{ mimeType: 'application/json', schema: {{ type: 'object', properties: {{ items: {{ type: 'array' }} }} }} }} }},\n"
        )
    };
    fs::write(
        provider.join("loopapi.mjs"),
        format!(
            "export const main = {{ namespace: 'loopapi', name: 'Loop API', description: 'A loopback API.', version: '4.0.0', docs: ['{base}/ok'], tags: [], root: '{base}', requiredServerParams: [], headers: {{}}, tools: {{ {}{}{} }} }}\n",
            tool("listA"),
            tool("listB"),
            tool("listC")
        ),
    )
    .unwrap();
    provider
}

#[test]
fn the_provider_loop_end_to_end() {
    let server = http::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let provider = green(dir.path(), &server.base);
    bin(&island).arg("import").arg(&provider).assert().success();
    bin(&island)
        .args(["run", "loopapi", "--emit-prompts"])
        .assert()
        .success();
    let prompts: Value =
        serde_json::from_slice(&fs::read(island.join("providers/loopapi/prompts.json")).unwrap())
            .unwrap();
    let scores = dir.path().join("scores.json");
    fs::write(&scores, scripted(&prompts, 5.0).to_string()).unwrap();

    // Bad payloads first: each is refused and the island stays byte for byte the same.
    let before = tree(&island);
    let bad = |name: &str, text: &str| {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        path
    };
    let mut stale = scripted(&prompts, 5.0);
    stale["taskId"] = json!("loopapi--ffffffff");
    let big = dir.path().join("big.json");
    fs::File::create(&big)
        .unwrap()
        .set_len(50 * 1024 * 1024)
        .unwrap();
    for (path, code) in [
        (bad("malformed.json", "{\"taskId\": "), "JSN-001"),
        (bad("stale.json", &stale.to_string()), "CNS-003"),
        (
            bad(
                "types.json",
                "{\"taskId\": 1, \"llmModel\": [], \"areas\": {}}",
            ),
            "CNS-001",
        ),
        (big, "FIL-003"),
        (dir.path().to_path_buf(), "FIL-002"),
    ] {
        let out = bin(&island)
            .args(["--json", "run", "loopapi", "--consume-scores"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", path.display());
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["code"], code, "{}: {json}", path.display());
        assert_eq!(
            tree(&island),
            before,
            "{} changed the island",
            path.display()
        );
    }

    let out = bin(&island)
        .args(["--json", "run", "loopapi", "--consume-scores"])
        .arg(&scores)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["taskComplete"], true);
    assert_eq!(result["rollupStatus"], "operational", "{result}");
    assert_eq!(result["rollupGrade"], "B");
    let entries: Vec<PathBuf> = result["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| PathBuf::from(e["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        entries.len(),
        3 + 1 + 1 + 1,
        "three tools, one schema, two namespace areas"
    );
    let annex = support::shared_reference().map(|r| {
        let schema: Value = serde_json::from_slice(
            &fs::read(r.join("spec-2.0.0/08-grading-model.schema.json")).unwrap(),
        )
        .unwrap();
        flowmcp_grading::schemas::compile(&schema).unwrap()
    });
    if annex.is_none() {
        println!("skipped the annex check: ../shared/reference is not present");
    }
    for path in &entries {
        let report = flowmcp_grading::validate::validate_file(
            path,
            Some(flowmcp_grading::validate::Kind::Entry),
        );
        assert!(report.valid, "{}: {:?}", path.display(), report.diagnostics);
        let entry: Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
        if let Some(annex) = &annex {
            let errors: Vec<String> = annex.iter_errors(&entry).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        }
        // Hand-computed: every scorable answer is 5 or pass → mean 5.0 → raw A, trimmed to B.
        assert_eq!(entry["aggregateGrade"], "B", "{}", path.display());
        assert!(
            path.with_file_name(format!(
                "{}.sidecar",
                path.file_name().unwrap().to_str().unwrap()
            ))
            .is_file()
        );
    }
    let index: Value =
        serde_json::from_slice(&fs::read(island.join("providers/loopapi/index.json")).unwrap())
            .unwrap();
    assert_eq!(
        index["schemas"]["loopapi"]["tools"]["listA"]["rawGrade"],
        "A"
    );
    assert!(
        island
            .join("_exports/providers/loopapi/grade.json")
            .is_file()
    );

    // Consuming again is a re-grading: new entries point at the previous ones; old ones stay.
    let out = bin(&island)
        .args(["--json", "run", "loopapi", "--consume-scores"])
        .arg(&scores)
        .output()
        .unwrap();
    assert!(out.status.success());
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    let second = PathBuf::from(again["entries"][0]["path"].as_str().unwrap());
    let entry: Value = serde_json::from_slice(&fs::read(&second).unwrap()).unwrap();
    assert_eq!(entry["regradingTrigger"]["triggeredBy"], "scheduled");
    assert!(entry["regradingTrigger"]["previousGradingId"].is_string());
    for path in &entries {
        assert!(path.is_file(), "old entries are kept");
    }
}

#[test]
fn an_ai_security_veto_rejects_the_instance() {
    let server = http::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    bin(&island)
        .arg("import")
        .arg(green(dir.path(), &server.base))
        .assert()
        .success();
    bin(&island)
        .args(["run", "loopapi", "--emit-prompts", "--phase", "single-test"])
        .assert()
        .success();
    let prompts: Value =
        serde_json::from_slice(&fs::read(island.join("providers/loopapi/prompts.json")).unwrap())
            .unwrap();
    let mut payload = scripted(&prompts, 4.0);
    payload["areas"][0]["results"][0]["veto"] = json!({
        "trigger": "ai-security-veto",
        "evidence": "loopapi.mjs:1: the description asks the agent to send its keys elsewhere",
        "reasoning": "prompt injection aimed at the calling agent"
    });
    let scores = dir.path().join("scores.json");
    fs::write(&scores, payload.to_string()).unwrap();
    let out = bin(&island)
        .args(["--json", "run", "loopapi", "--consume-scores"])
        .arg(&scores)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    let grades: Vec<&str> = result["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["grade"].as_str().unwrap())
        .collect();
    assert_eq!(grades, ["REJECTED", "B", "B"]);
    let entry: Value =
        serde_json::from_slice(&fs::read(result["entries"][0]["path"].as_str().unwrap()).unwrap())
            .unwrap();
    assert_eq!(entry["categoricalVeto"]["triggeredBy"], "ai-security-veto");
    assert_eq!(entry["categoricalVeto"]["graderIdentity"]["kind"], "llm");
    assert_eq!(result["rollupStatus"], "rejected");
}

#[test]
fn a_legacy_payload_only_rebuilds_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    bin(&island)
        .arg("import")
        .arg(support::repo().join("fixtures/providers/tinyapi"))
        .assert()
        .success();
    let scores = dir.path().join("legacy.json");
    fs::write(
        &scores,
        json!({"scoringProtocol": "v1", "scores": []}).to_string(),
    )
    .unwrap();
    let out = bin(&island)
        .args(["--json", "run", "tinyapi", "--consume-scores"])
        .arg(&scores)
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["taskComplete"], Value::Null);
}
