//! `cargo bench --bench import`: imports 300 provider folders into a fresh island, one
//! `flowmcp-grading import` process per folder, as a maintainer's script would. Target: under
//! 1.5 s in total on a 2-core machine.
//!
//! The folders are the shipped fixture providers in rotation, each under its own namespace.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const FOLDERS: usize = 300;
const TARGET: Duration = Duration::from_millis(1500);

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let binary = build_binary(&repo);
    let work = tempfile::tempdir().expect("tempdir");
    let (folders, modules) = generate(&repo.join("fixtures/providers"), work.path());
    println!("import: {FOLDERS} provider folders ({modules} schema modules), one process each");
    for fsync in ["on", "off"] {
        let median = measure(&binary, work.path(), &folders, fsync);
        println!(
            "  FLOWMCP_GRADING_FSYNC={fsync:<3}  median of 3 runs: {:>5.0} ms total, {:.2} ms per folder, target < {} ms: {}",
            median.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3 / FOLDERS as f64,
            TARGET.as_millis(),
            if median < TARGET { "met" } else { "NOT met" }
        );
    }
}

fn measure(binary: &Path, work: &Path, folders: &[PathBuf], fsync: &str) -> Duration {
    let mut runs = Vec::new();
    for run in 0..3 {
        let island = work.join(format!("island-{fsync}-{run}"));
        let started = Instant::now();
        for folder in folders {
            let status = Command::new(binary)
                .env("FLOWMCP_GRADING_FSYNC", fsync)
                .arg("--grading-data")
                .arg(&island)
                .arg("import")
                .arg(folder)
                .stdout(std::process::Stdio::null())
                .status()
                .expect("run import");
            assert!(status.success(), "import of {} failed", folder.display());
        }
        runs.push(started.elapsed());
    }
    runs.sort();
    runs[runs.len() / 2]
}

fn build_binary(repo: &Path) -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--bin", "flowmcp-grading"])
        .current_dir(repo)
        .status()
        .expect("cargo build");
    assert!(status.success());
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("target"));
    target.join("release/flowmcp-grading")
}

/// Copies the fixture providers in rotation into `FOLDERS` folders `ns<i>`, rewriting the
/// namespace so each folder is its own provider.
fn generate(fixtures: &Path, out: &Path) -> (Vec<PathBuf>, usize) {
    let kinds = [
        "tinyapi",
        "handlerstyles",
        "keygated",
        "aboutskills",
        "manyschemas",
    ];
    let mut folders = Vec::new();
    let mut modules = 0;
    for i in 0..FOLDERS {
        let kind = kinds[i % kinds.len()];
        let ns = format!("ns{i}");
        let folder = out.join("providers").join(&ns);
        copy_provider(&fixtures.join(kind), &folder, kind, &ns, &mut modules);
        folders.push(folder);
    }
    // Shared lists are looked up above the provider folders.
    let lists = out.join("providers/_lists");
    std::fs::create_dir_all(&lists).unwrap();
    for entry in std::fs::read_dir(fixtures.join("_lists")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), lists.join(entry.file_name())).unwrap();
    }
    (folders, modules)
}

fn copy_provider(from: &Path, to: &Path, kind: &str, ns: &str, modules: &mut usize) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            copy_provider(&path, &to.join(&name), kind, ns, modules);
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let text = text
            .replace(&format!("'{kind}'"), &format!("'{ns}'"))
            .replace(&format!("{kind}-about"), &format!("{ns}-about"));
        let name = name
            .to_string_lossy()
            .replace(&format!("{kind}-about"), &format!("{ns}-about"));
        if name.ends_with(".mjs") && from.file_name().is_some_and(|f| f != "skills") {
            *modules += 1;
        }
        std::fs::write(to.join(name), text).unwrap();
    }
}
