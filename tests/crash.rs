//! Crash safety: each stage (import, emit, consume) is stopped at every write it makes — before
//! the file gets its final name and right after — and killed with SIGKILL there (test hook
//! `FLOWMCP_GRADING_TEST_PAUSE_AT`). After each kill the island is checked: no file under a final
//! name is partial (every JSON file parses, every snapshot equals its source), nothing that existed
//! before is missing or changed (derived files may be replaced, but whole), the index rebuilds
//! (`state` works), and re-running the stage succeeds and leaves a consistent island.

mod support;

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::http;
use support::island::{green_provider, scripted, tree};

const DERIVED: [&str; 3] = ["index.json", "state.json", "prompts.json"];

fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("flowmcp-grading")
}

fn command(island: &Path, args: &[String]) -> Command {
    let mut cmd = Command::new(binary());
    cmd.env("HOME", "/nonexistent-home-for-tests")
        .env("FLOWMCP_GRADING_FSYNC", "off")
        .env_remove("FLOWMCP_GRADING_EXPORT")
        .arg("--grading-data")
        .arg(island)
        .args(args);
    cmd
}

fn run_ok(island: &Path, args: &[String]) {
    let out = command(island, args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for (rel, bytes) in tree(from) {
        let path = to.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

/// Runs `args` until it pauses at write `n` (`phase`), then SIGKILLs it. `false` when the
/// stage finished without reaching that write.
fn kill_at(island: &Path, args: &[String], n: usize, phase: &str) -> bool {
    let mut child = command(island, args)
        .env("FLOWMCP_GRADING_TEST_PAUSE_AT", format!("{n}:{phase}"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("test pause at write") {
                let _ = tx.send(true);
                return;
            }
        }
        let _ = tx.send(false);
    });
    let started = Instant::now();
    let paused = loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(paused) => break paused,
            Err(_) if started.elapsed() > Duration::from_secs(60) => {
                panic!("{args:?} neither paused nor finished")
            }
            Err(_) => continue,
        }
    };
    child.kill().unwrap(); // SIGKILL on unix
    child.wait().unwrap();
    paused
}

/// The island's invariants after a kill: `before` is the island as it was before the stage.
fn check(island: &Path, before: &BTreeMap<PathBuf, Vec<u8>>, sources: &[PathBuf], target: &str) {
    let now = tree(island);
    for (rel, bytes) in before {
        let name = rel.file_name().unwrap().to_string_lossy();
        let after = now
            .get(rel)
            .unwrap_or_else(|| panic!("{} vanished", rel.display()));
        if !DERIVED.contains(&name.as_ref()) {
            assert_eq!(after, bytes, "{} changed", rel.display());
        }
    }
    let source_bytes: Vec<Vec<u8>> = sources.iter().map(|p| std::fs::read(p).unwrap()).collect();
    for (rel, bytes) in &now {
        let name = rel.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with('.') {
            assert!(
                name.contains(".tmp-") || name == ".lock",
                "stray {}",
                rel.display()
            );
            continue;
        }
        assert!(!bytes.is_empty(), "{} is empty", rel.display());
        if name.ends_with(".json") || name.ends_with(".sidecar") {
            serde_json::from_slice::<Value>(bytes)
                .unwrap_or_else(|e| panic!("{} is not whole JSON: {e}", rel.display()));
        }
        if name.ends_with(".mjs") && rel.to_string_lossy().contains("/schema/") {
            assert!(
                source_bytes.contains(bytes),
                "{} is not a byte copy",
                rel.display()
            );
        }
    }
    run_ok(island, &["state".into(), target.into()]);
}

struct Stage {
    name: &'static str,
    args: Vec<String>,
    /// The island the stage starts from.
    base: PathBuf,
}

#[test]
fn killed_at_every_write_of_every_stage() {
    let server = http::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    let provider = green_provider(&work.join("providers"), "crashapi", &server.base);
    let sources = vec![provider.join("crashapi.mjs")];
    let s = |t: &str| t.to_owned();

    // The starting islands: empty; imported; emitted (with the harness's scores ready).
    let empty = work.join("base-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let imported = work.join("base-imported");
    run_ok(&imported, &[s("import"), provider.display().to_string()]);
    let emitted = work.join("base-emitted");
    copy_tree(&imported, &emitted);
    run_ok(&emitted, &[s("run"), s("crashapi"), s("--emit-prompts")]);
    let prompts: Value = serde_json::from_slice(
        &std::fs::read(emitted.join("providers/crashapi/prompts.json")).unwrap(),
    )
    .unwrap();
    let scores = work.join("scores.json");
    std::fs::write(&scores, scripted(&prompts, 5.0).to_string()).unwrap();

    let stages = [
        Stage {
            name: "import",
            args: vec![s("import"), provider.display().to_string()],
            base: empty,
        },
        Stage {
            name: "emit",
            args: vec![
                s("run"),
                s("crashapi"),
                s("--emit-prompts"),
                s("--on-conflict"),
                s("overwrite"),
            ],
            base: imported,
        },
        Stage {
            name: "consume",
            args: vec![
                s("run"),
                s("crashapi"),
                s("--consume-scores"),
                scores.display().to_string(),
                s("--export-dir"),
                work.join("exports").display().to_string(),
            ],
            base: emitted,
        },
    ];
    let mut points = 0;
    let mut report = Vec::new();
    for stage in &stages {
        let mut writes = 0;
        for phase in ["before", "after"] {
            for n in 1.. {
                let island = work.join(format!("run-{}-{phase}-{n}", stage.name));
                copy_tree(&stage.base, &island);
                let before = tree(&island);
                if !kill_at(&island, &stage.args, n, phase) {
                    writes = writes.max(n - 1);
                    break;
                }
                points += 1;
                check(&island, &before, &sources, "crashapi");
                // A re-run after the crash completes the stage.
                run_ok(&island, &stage.args);
                check(&island, &before, &sources, "crashapi");
                std::fs::remove_dir_all(&island).unwrap();
            }
        }
        assert!(writes >= 2, "{}: only {writes} writes seen", stage.name);
        report.push(format!("{} {writes} writes", stage.name));
    }
    println!("crash points tried: {points} ({})", report.join(", "));
    assert!(points >= 40, "{points}");
}
