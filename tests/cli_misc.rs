//! The terminal finish: completion scripts from the clap tree and the version line.

use assert_cmd::Command;

#[test]
fn completion_scripts_know_the_commands_and_flags() {
    for shell in ["bash", "zsh", "fish"] {
        let out = Command::cargo_bin("flowmcp-grading")
            .unwrap()
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["import", "deterministic", "consume-scores", "grading-data"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    let out = Command::cargo_bin("flowmcp-grading")
        .unwrap()
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
}

#[test]
fn version_names_the_rule_versions() {
    let out = Command::cargo_bin("flowmcp-grading")
        .unwrap()
        .arg("--version")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("gradingSpec/2.0.0") && text.contains("gradingSystem/1.0.0"),
        "{text}"
    );
}
