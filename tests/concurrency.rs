//! Concurrency: eight processes import, emit and consume on one island at the same time (eight
//! namespaces, plus four importing the same folder), while readers run `state` and read every
//! index.json in a loop. Nothing is lost or corrupted, the lock serialises the writers, the
//! readers never see a torn file, and the same folder imported four times at once gives one
//! snapshot.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use support::http;
use support::island::{green_provider, scripted, tree};

const WRITERS: usize = 8;

fn command(island: &Path, args: &[String]) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("flowmcp-grading"));
    cmd.env("HOME", "/nonexistent-home-for-tests")
        .env("FLOWMCP_GRADING_LOCK_TIMEOUT", "120")
        .env_remove("FLOWMCP_GRADING_EXPORT")
        .arg("--grading-data")
        .arg(island)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Starts every command at once and waits for all; each must succeed.
fn all_at_once(island: &Path, runs: Vec<Vec<String>>) {
    let children: Vec<(Vec<String>, Child)> = runs
        .into_iter()
        .map(|args| {
            let child = command(island, &args).spawn().unwrap();
            (args, child)
        })
        .collect();
    for (args, child) in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Readers: `state` of every namespace and a raw read of every index.json, in a loop, until
/// stopped. Returns how many reads were done; panics on a torn file or a failed `state`.
fn readers(
    island: PathBuf,
    names: Vec<String>,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let reads = AtomicUsize::new(0);
        while !stop.load(Ordering::SeqCst) {
            for ns in &names {
                let index = island.join(format!("providers/{ns}/index.json"));
                if let Ok(bytes) = std::fs::read(&index) {
                    serde_json::from_slice::<Value>(&bytes)
                        .unwrap_or_else(|e| panic!("torn {}: {e}", index.display()));
                    reads.fetch_add(1, Ordering::SeqCst);
                }
                if island.join(format!("providers/{ns}")).is_dir() {
                    let out = command(&island, &["--json".into(), "state".into(), ns.clone()])
                        .output()
                        .unwrap();
                    assert!(
                        out.status.success(),
                        "state {ns}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    serde_json::from_slice::<Value>(&out.stdout).expect("state prints whole JSON");
                    reads.fetch_add(1, Ordering::SeqCst);
                }
            }
        }
        reads.load(Ordering::SeqCst)
    })
}

#[test]
fn writers_and_readers_at_once() {
    let server = http::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    std::fs::create_dir_all(&island).unwrap();
    let names: Vec<String> = (0..WRITERS).map(|i| format!("conc{i}")).collect();
    let folders: Vec<PathBuf> = names
        .iter()
        .map(|ns| green_provider(&dir.path().join("providers"), ns, &server.base))
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let reader = readers(island.clone(), names.clone(), stop.clone());
    let s = |t: &str| t.to_owned();

    // Import: eight namespaces and the first one four more times, all at once.
    let mut runs: Vec<Vec<String>> = folders
        .iter()
        .map(|f| vec![s("import"), f.display().to_string()])
        .collect();
    for _ in 0..4 {
        runs.push(vec![s("import"), folders[0].display().to_string()]);
    }
    all_at_once(&island, runs);
    let snapshots = std::fs::read_dir(island.join("providers/conc0/conc0/schema"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".mjs")
        })
        .count();
    assert_eq!(
        snapshots, 1,
        "five concurrent imports of one folder give one snapshot"
    );

    // Emit, then consume, eight at once each.
    all_at_once(
        &island,
        names
            .iter()
            .map(|ns| vec![s("run"), ns.clone(), s("--emit-prompts")])
            .collect(),
    );
    let mut runs = Vec::new();
    for ns in &names {
        let prompts: Value = serde_json::from_slice(
            &std::fs::read(island.join(format!("providers/{ns}/prompts.json"))).unwrap(),
        )
        .unwrap();
        let scores = dir.path().join(format!("{ns}-scores.json"));
        std::fs::write(&scores, scripted(&prompts, 5.0).to_string()).unwrap();
        runs.push(vec![
            s("run"),
            ns.clone(),
            s("--consume-scores"),
            scores.display().to_string(),
            s("--export-dir"),
            dir.path().join("exports").display().to_string(),
        ]);
    }
    all_at_once(&island, runs);
    stop.store(true, Ordering::SeqCst);
    let reads = reader.join().expect("the readers never saw a torn file");

    // Nothing lost: every namespace graded, every file whole, no temp file left.
    let mut entries = 0;
    for (rel, bytes) in tree(&island) {
        let name = rel.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!name.contains(".tmp-"), "left behind: {}", rel.display());
        if name.ends_with(".json") {
            serde_json::from_slice::<Value>(&bytes).unwrap();
            if rel.to_string_lossy().contains("/_gradings/") {
                entries += 1;
            }
        }
    }
    assert_eq!(entries, WRITERS * 6, "six entries per namespace");
    for ns in &names {
        let out = command(&island, &["--json".into(), "state".into(), ns.clone()])
            .output()
            .unwrap();
        let state: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(state["rollupStatus"], "operational", "{ns}: {state}");
    }
    println!(
        "concurrent writers: {} processes in three waves; reader checks: {reads}",
        WRITERS * 3 + 4
    );
}
