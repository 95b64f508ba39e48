//! `flowmcp-grading deterministic` through the binary against a local server: the per-tool
//! table, the files in the island, keys used only when asked, and never written or printed.

mod support;

use assert_cmd::Command;
use serde_json::Value;
use std::fs;
use std::path::Path;
use support::http;

const KEY_VALUE: &str = "sekret-abc-123-do-not-leak";

fn module(root: &str, tools: &str) -> String {
    format!(
        "export const main = {{\n  namespace: 'keyed', name: 'Keyed', description: 'Keyed test API', version: '4.0.0',\n  root: '{root}', requiredServerParams: ['LIVE_API_KEY'], headers: {{ 'X-Api-Key': '{{{{LIVE_API_KEY}}}}' }},\n  tools: {{ {tools} }}\n}}\n"
    )
}

fn tool(name: &str, path: &str) -> String {
    format!(
        "{name}: {{ method: 'GET', path: '{path}', description: 'd', parameters: [], tests: [{{ _description: 'a' }}, {{ _description: 'b' }}, {{ _description: 'c' }}] }},"
    )
}

fn bin(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.env("HOME", home).env_remove("FLOWMCP_GRADING_USE_KEYS");
    cmd
}

fn all_files(root: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for entry in fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            all_files(&path, out);
        } else {
            out.push((path.display().to_string(), fs::read(&path).unwrap()));
        }
    }
}

#[test]
fn keyed_run_uses_the_key_and_leaks_it_nowhere() {
    let server = http::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    fs::create_dir_all(&home).unwrap();
    let provider = dir.path().join("keyed");
    fs::create_dir(&provider).unwrap();
    let tools = [
        tool("good", "/ok?apikey={{LIVE_API_KEY}}"),
        tool("denied", "/status/401"),
    ]
    .concat();
    fs::write(provider.join("keyed.mjs"), module(&server.base, &tools)).unwrap();
    let refused = [tool("gone", "/x/{{LIVE_API_KEY}}")].concat();
    fs::write(
        provider.join("gone.mjs"),
        module(&http::refused_base(), &refused),
    )
    .unwrap();
    let island = dir.path().join("island");
    bin(&home)
        .arg("--grading-data")
        .arg(&island)
        .arg("import")
        .arg(&provider)
        .assert()
        .success();

    // Without keys: the key-gated tests are not run, and the reason names the key.
    let out = bin(&home)
        .env("LIVE_API_KEY", KEY_VALUE)
        .arg("--grading-data")
        .arg(&island)
        .args(["--json", "deterministic", "keyed"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = json.to_string();
    assert!(
        text.contains("DPT-007") && text.contains("LIVE_API_KEY"),
        "{text}"
    );
    assert!(
        server.heads.lock().unwrap().is_empty(),
        "nothing was sent without keys"
    );

    // With keys: sent, and the good tool works; the denied one is blocked.
    let out = bin(&home)
        .env("LIVE_API_KEY", KEY_VALUE)
        .arg("--grading-data")
        .arg(&island)
        .args(["deterministic", "providers/keyed", "--with-keys"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("good") && stdout.contains("3/3"),
        "{stdout}"
    );
    assert!(
        stdout.contains("denied (0/3): HTTP 401 Unauthorized"),
        "{stdout}"
    );
    assert!(stdout.contains("gone (0/3): connection failed"), "{stdout}");
    let heads = server.heads.lock().unwrap().join("\n");
    assert!(heads.contains(KEY_VALUE), "the key was sent to the API");

    assert!(!stdout.contains(KEY_VALUE) && !stderr.contains(KEY_VALUE));
    let mut files = Vec::new();
    all_files(&island, &mut files);
    assert!(
        files
            .iter()
            .any(|(p, _)| p.ends_with("keyed/tools/good/tests/test-1.json"))
    );
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains(KEY_VALUE), "{path} holds the key value");
        assert!(!text.contains("\"request\""), "{path} holds a request");
        if !path.contains("/schema/") {
            // (the schema snapshot itself holds the root, as written by its author)
            assert!(!text.contains(&server.base), "{path} holds a request URL");
        }
    }
    let record: Value = serde_json::from_slice(
        &fs::read(island.join("providers/keyed/keyed/tools/good/tests/test-2.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(record["status"], "working");
    assert_eq!(record["httpStatus"], 200);
    assert_eq!(record["response"]["items"][0], 1);
    let summary: Value = serde_json::from_slice(
        &fs::read(island.join("providers/keyed/keyed/summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(summary["perTool"]["good"]["working"], 3);
    assert_eq!(summary["toolsBelowThreshold"][0], "denied (0/3)");
}

#[test]
fn offline_marks_every_test_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let repo = support::repo();
    bin(dir.path())
        .arg("--grading-data")
        .arg(&island)
        .arg("import")
        .arg(repo.join("fixtures/providers/tinyapi"))
        .assert()
        .success();
    let out = bin(dir.path())
        .arg("--grading-data")
        .arg(&island)
        .args(["--json", "det", "tinyapi", "--offline"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tests = json["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 6);
    assert!(
        tests
            .iter()
            .all(|t| t["status"] == "not-run" && t["reason"] == "offline")
    );
    assert_eq!(json["pretest"][0]["stopReason"], "offline");
}

#[test]
fn unknown_targets_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("island/providers")).unwrap();
    let out = bin(dir.path())
        .arg("--grading-data")
        .arg(dir.path().join("island"))
        .args(["det", "nothere"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("[ISL-009]") && stderr.contains("fix:"),
        "{stderr}"
    );
}
