//! `flowmcp-grading validate` through the binary: exit codes, bad input, text and JSON output.

mod support;

use assert_cmd::Command;
use serde_json::{Value, json};
use std::fs;
use std::path::Path;

fn bin() -> Command {
    Command::cargo_bin("flowmcp-grading").unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    fs::write(dir.join(name), bytes).unwrap();
}

#[test]
fn valid_fixtures_exit_zero() {
    let out = bin()
        .current_dir(support::repo())
        .args(["validate", "fixtures/entries/valid/spec-autonomous.json"])
        .arg("fixtures/entries/valid/spec-rejected.json")
        .arg("fixtures/envelopes/single-test.json")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("3 files checked: 3 valid, 0 invalid"),
        "{text}"
    );
}

/// The bad inputs of the issue, side by side with a good file: each gets its own error, the good
/// one is still checked, and nothing panics.
#[test]
fn bad_inputs_each_get_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = fs::read(support::repo().join("fixtures/entries/valid/spec-rejected.json")).unwrap();
    write(d, "good.json", &good);
    write(d, "not-json.json", b"this is not json");
    write(d, "array.json", b"[1, 2]");
    write(d, "latin1.json", b"{\"schemaId\": \"caf\xe9\"}");
    write(
        d,
        "dupe.json",
        b"{\"area\": \"single-test\", \"area\": \"single-test\"}",
    );
    write(
        d,
        "huge-number.json",
        b"{\"gradings\": [{\"score\": 1e400}]}",
    );
    let mut entry = support::base("spec-autonomous.json");
    entry["gradings"][1]["score"] = json!(5.0000001);
    write(d, "over-five.json", entry.to_string().as_bytes());
    entry["gradings"][1]["score"] = json!(4.5);
    let text = entry.to_string().replace("\"weight\":1.0", "\"weight\":-0");
    write(d, "negative-zero.json", text.as_bytes());
    fs::create_dir(d.join("a-directory")).unwrap();
    let big = fs::File::create(d.join("big.json")).unwrap();
    big.set_len(100 * 1024 * 1024).unwrap();

    let files = [
        ("not-json.json", "JSN-001"),
        ("array.json", "VAL-001"),
        ("latin1.json", "FIL-005"),
        ("dupe.json", "JSN-002"),
        ("huge-number.json", "JSN-003"),
        ("over-five.json", "SCO-001"),
        ("negative-zero.json", "SCO-004"),
        ("a-directory", "FIL-002"),
        ("missing.json", "FIL-001"),
        ("big.json", "FIL-003"),
    ];
    let out = bin()
        .current_dir(d)
        .args(["--json", "validate", "good.json"])
        .args(files.iter().map(|(f, _)| f))
        .assert()
        .code(1);
    let result: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(result["status"], json!(false));
    assert_eq!(result["checked"], json!(files.len() + 1));
    assert_eq!(result["valid"], json!(1));
    let reports = result["files"].as_array().unwrap();
    assert_eq!(reports[0]["file"], json!("good.json"));
    assert_eq!(reports[0]["valid"], json!(true));
    for ((file, code), report) in files.iter().zip(&reports[1..]) {
        assert_eq!(report["file"], json!(file));
        assert_eq!(report["valid"], json!(false), "{file}");
        let codes: Vec<&str> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert!(
            codes.contains(code),
            "{file}: expected {code}, got {codes:?}"
        );
        for d in report["diagnostics"].as_array().unwrap() {
            assert_eq!(d["file"], json!(file));
            assert!(!d["fix"].as_str().unwrap().is_empty());
        }
    }
}

#[test]
fn text_report_names_file_field_code_and_fix() {
    let dir = tempfile::tempdir().unwrap();
    let mut entry = support::base("spec-autonomous.json");
    entry["gradings"][2]
        .as_object_mut()
        .unwrap()
        .remove("selectionContext");
    entry["aggregateGrade"] = json!("C");
    write(dir.path(), "entry.json", entry.to_string().as_bytes());
    write(dir.path(), "dupe.json", b"{\"a\": 1,\n \"a\": 2}");
    let out = bin()
        .current_dir(dir.path())
        .args(["validate", "entry.json", "dupe.json"])
        .assert()
        .code(1);
    insta::assert_snapshot!(String::from_utf8_lossy(&out.get_output().stdout));
}

#[test]
fn envelopes_are_told_apart_or_named() {
    let repo = support::repo();
    bin()
        .current_dir(&repo)
        .args(["validate", "fixtures/envelopes/about-namespace.json"])
        .assert()
        .success()
        .stdout(predicates::str::contains("(envelope)"));
    // forced to the wrong kind, the envelope fails as an entry
    bin()
        .current_dir(&repo)
        .args([
            "validate",
            "--kind",
            "entry",
            "fixtures/envelopes/single-test.json",
        ])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("GRD-001"));
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "what.json", b"{\"hello\": 1}");
    bin()
        .current_dir(dir.path())
        .args(["validate", "what.json"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("VAL-002"));
}

#[test]
fn envelope_rules() {
    let dir = tempfile::tempdir().unwrap();
    let mut envelope = support::read(&support::repo().join("fixtures/envelopes/single-test.json"));
    envelope["answers"][3]["questionId"] = json!("Q-single-test-02");
    envelope["answers"][4]["reasoning"] = json!("  ");
    envelope["persona"] = json!({"basePersonaId": "ai-engineer", "lensId": "x"});
    envelope["answers"].as_array_mut().unwrap().pop();
    write(dir.path(), "env.json", envelope.to_string().as_bytes());
    let out = bin()
        .current_dir(dir.path())
        .args(["--json", "validate", "env.json"])
        .assert()
        .code(1);
    let result: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let codes: Vec<&str> = result["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    for code in ["ASC-002", "ASC-003", "ASC-005", "GRD-040"] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
}

#[test]
fn usage_errors_exit_two() {
    bin().args(["validate"]).assert().code(2);
    bin()
        .args(["validate", "--kind", "scores", "x.json"])
        .assert()
        .code(2);
    bin().args(["frobnicate"]).assert().code(2);
    bin().args(["run", "demoapi"]).assert().code(2);
}

#[test]
fn help_lists_every_command() {
    let out = bin().arg("--help").assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for name in [
        "import",
        "run",
        "deterministic",
        "state",
        "export",
        "validate",
        "demo",
        "report",
    ] {
        assert!(text.contains(name), "{name} in help");
    }
}
