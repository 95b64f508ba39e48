//! `flowmcp-grading demo`: the whole loop offline on the shipped demo provider. Its output is
//! snapshot-tested (temporary paths, the port and timestamps replaced), and what it leaves
//! behind is checked: a graded namespace whose entries validate.

mod support;

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn demo(tmp: &std::path::Path, json: bool) -> std::process::Output {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.env("HOME", "/nonexistent-home-for-tests")
        .env("TMPDIR", tmp)
        .env_remove("FLOWMCP_GRADING_DATA")
        .env_remove("FLOWMCP_GRADING_EXPORT")
        .env_remove("FLOWMCP_GRADING_USE_KEYS");
    if json {
        cmd.arg("--json");
    }
    cmd.arg("demo").output().unwrap()
}

#[test]
fn the_demo_runs_the_loop_offline() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().canonicalize().unwrap();
    let out = demo(&tmp, false);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(&regex_escape(&tmp.display().to_string()), "<tmp>");
    settings.add_filter(r"flowmcp-grading-demo-\d{8}T\d{6}-\d+", "<work>");
    settings.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:<port>");
    settings.add_filter(r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z", "<ts>");
    settings.bind(|| insta::assert_snapshot!("demo_output", text));

    // The island it leaves: graded B and operational, every entry valid.
    let out = demo(&tmp, true);
    assert!(out.status.success());
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["rollupGrade"], "B", "{result}");
    assert_eq!(result["rollupStatus"], "operational", "{result}");
    assert_eq!(result["entries"], 7);
    let island = PathBuf::from(result["island"].as_str().unwrap());
    let mut stack = vec![island.join("providers/demoapi")];
    let mut checked = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if dir.ends_with("_gradings") && path.extension().is_some_and(|e| e == "json") {
                let report = flowmcp_grading::validate::validate_file(
                    &path,
                    Some(flowmcp_grading::validate::Kind::Entry),
                );
                assert!(report.valid, "{}: {:?}", path.display(), report.diagnostics);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 7);
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '/' || c == '_' || c == '-' {
                c.to_string()
            } else {
                format!("\\{c}")
            }
        })
        .collect()
}
