//! `flowmcp-grading export` through the binary: a fresh folder with index.json and the newest
//! snapshots (bytes unchanged, hash and time stripped from the names), nothing half-written.

mod support;

use assert_cmd::Command;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

fn bin(island: &Path) -> Command {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.env("HOME", "/nonexistent-home-for-tests")
        .env_remove("FLOWMCP_GRADING_EXPORT")
        .current_dir(support::repo())
        .arg("--grading-data")
        .arg(island);
    cmd
}

#[test]
fn exports_index_and_snapshots_into_a_fresh_folder() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    bin(&island)
        .args(["import", "fixtures/providers/handlerstyles"])
        .assert()
        .success();
    let exports = dir.path().join("exports");
    let out = bin(&island)
        .args(["--json", "export", "handlerstyles", "--export-dir"])
        .arg(&exports)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let folder = PathBuf::from(json["exportDir"].as_str().unwrap());
    let name = folder.file_name().unwrap().to_str().unwrap().to_owned();
    assert!(
        name.starts_with("handlerstyles--") && name.ends_with('Z'),
        "{name}"
    );
    let index: Value =
        serde_json::from_slice(&fs::read(folder.join("index.json")).unwrap()).unwrap();
    assert_eq!(index["namespace"], "handlerstyles");
    let mut exported: Vec<String> = fs::read_dir(folder.join("schemas"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    exported.sort();
    assert_eq!(
        exported,
        ["candles.mjs", "pnlRoutes.mjs", "tokens.mjs", "wallets.mjs"]
    );
    assert_eq!(
        fs::read(folder.join("schemas/pnlRoutes.mjs")).unwrap(),
        fs::read(support::repo().join("fixtures/providers/handlerstyles/--pnlRoutes.mjs")).unwrap()
    );
    let leftovers: Vec<_> = fs::read_dir(&exports)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    let proof: Value = serde_json::from_slice(
        &fs::read(exports.join("providers/handlerstyles/grade.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(proof["proofVersion"], 1);
    assert_eq!(proof["status"], index["status"]);
    assert_eq!(proof["monitoring"]["githubIssue"], Value::Null);

    // A second export is a second folder; the first is untouched.
    let out = bin(&island)
        .args([
            "--json",
            "export",
            "providers/handlerstyles",
            "--export-dir",
        ])
        .arg(&exports)
        .output()
        .unwrap();
    assert!(out.status.success());
    let folders = fs::read_dir(&exports)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("handlerstyles--")
        })
        .count();
    assert_eq!(folders, 2);
}

#[test]
fn default_export_root_is_inside_the_island() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    bin(&island)
        .args(["import", "fixtures/providers/tinyapi"])
        .assert()
        .success();
    bin(&island).args(["export", "tinyapi"]).assert().success();
    assert!(
        island
            .join("_exports/providers/tinyapi/grade.json")
            .is_file()
    );
    let folders = fs::read_dir(island.join("_exports"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("tinyapi--")
        })
        .count();
    assert_eq!(folders, 1);
}
