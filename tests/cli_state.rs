//! `flowmcp-grading state` through the binary: the tree, the next action, read-only, and a
//! corrupt index.json does not matter (the rollup is recomputed from the island).

mod support;

use assert_cmd::Command;
use serde_json::Value;
use std::fs;
use std::path::Path;

fn bin(island: &Path) -> Command {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.env("HOME", "/nonexistent-home-for-tests")
        .current_dir(support::repo())
        .arg("--grading-data")
        .arg(island);
    cmd
}

#[test]
fn tree_and_next_action_before_and_after_emit() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    bin(&island)
        .args(["import", "fixtures/providers/tinyapi"])
        .assert()
        .success();
    let out = bin(&island).args(["state", "tinyapi"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    insta::assert_snapshot!("state_after_import", text);

    bin(&island)
        .args(["run", "tinyapi", "--emit-prompts", "--offline"])
        .assert()
        .success();
    fs::write(island.join("providers/tinyapi/index.json"), "{truncated").unwrap();
    let before: Vec<u8> = fs::read(island.join("providers/tinyapi/index.json")).unwrap();
    let out = bin(&island)
        .args(["--json", "state", "providers/tinyapi"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["rollupStatus"], "blocked");
    assert_eq!(json["rollupGrade"], Value::Null);
    assert_eq!(json["batonStatus"], "prompts-emitted");
    assert!(
        json["nextAction"]["command"]
            .as_str()
            .unwrap()
            .contains("--consume-scores")
    );
    assert_eq!(
        json["index"]["schemas"]["tinyapi"]["tools"]["listStations"]["reason"],
        "listStations (0/3): offline"
    );
    assert_eq!(
        fs::read(island.join("providers/tinyapi/index.json")).unwrap(),
        before,
        "state is read-only"
    );
}
