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

fn bin() -> Command {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.env("HOME", "/nonexistent-home-for-tests")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

#[test]
fn the_man_page_is_generated_from_the_clap_tree() {
    let out = bin().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.starts_with(".ie") || page.contains(".TH flowmcp-grading 1"),
        "{page}"
    );
    for word in ["gradingSpec/2.0.0", "import", "grading\\-data", "report"] {
        assert!(page.contains(word), "the man page lacks {word}");
    }
}

#[test]
fn colour_follows_the_flag_no_color_and_the_terminal() {
    let red = "\u{1b}[";
    // Piped (not a terminal): plain text.
    let out = bin()
        .args(["import", "/nonexistent-provider"])
        .output()
        .unwrap();
    let plain = String::from_utf8(out.stderr).unwrap();
    assert!(plain.starts_with("error[IMP-001]: "), "{plain}");
    assert!(!plain.contains(red));
    // Forced: coloured, the same words.
    let out = bin()
        .args(["--color", "always", "import", "/nonexistent-provider"])
        .output()
        .unwrap();
    let coloured = String::from_utf8(out.stderr).unwrap();
    assert!(coloured.contains(red), "{coloured}");
    assert!(coloured.contains("IMP-001") && coloured.contains("fix:"));
    // NO_COLOR wins over a forced terminal; --color never too.
    let out = bin()
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .args(["import", "/nonexistent-provider"])
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stderr).unwrap().contains(red));
    let out = bin()
        .env("CLICOLOR_FORCE", "1")
        .args(["--color", "never", "import", "/nonexistent-provider"])
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stderr).unwrap().contains(red));
}

#[test]
fn quiet_and_verbose() {
    let dir = tempfile::tempdir().unwrap();
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/providers/tinyapi");
    let out = bin()
        .arg("--grading-data")
        .arg(dir.path())
        .args(["-q", "import"])
        .arg(&fixture)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "quiet prints nothing on success"
    );
    // Errors still show under -q.
    let out = bin()
        .args(["-q", "import", "/nonexistent-provider"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr).unwrap().contains("IMP-001"));
    // -v names the island and its source, and the time taken, on stderr.
    let out = bin()
        .arg("--grading-data")
        .arg(dir.path())
        .args(["-v", "state", "tinyapi"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!("island: {}", dir.path().display())),
        "{err}"
    );
    assert!(
        err.contains("(from --grading-data") && err.contains("state: ") && err.contains(" ms"),
        "{err}"
    );
    assert!(!out.stdout.is_empty());
}
