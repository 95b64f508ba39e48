use super::*;
use std::path::Path;

fn island() -> (tempfile::TempDir, Island) {
    let dir = tempfile::tempdir().unwrap();
    let island = Island::open(&dir.path().join("island")).unwrap();
    (dir, island)
}

#[test]
fn create_new_never_overwrites() {
    let (_dir, island) = island();
    let rel = Path::new("providers/demo/demo/schema/demo--2026-06-04T10-15-00Z--e63993e7.mjs");
    let path = island.create_new(rel, b"first").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"first");
    let err = island.create_new(rel, b"second").unwrap_err();
    assert_eq!(crate::diagnostic::Coded::code(&err), "ISL-006");
    assert_eq!(std::fs::read(&path).unwrap(), b"first");
    // no temp file is left behind
    let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn replace_swaps_in_one_step() {
    let (_dir, island) = island();
    let rel = Path::new("providers/demo/index.json");
    island.replace(rel, b"{\"v\":1}").unwrap();
    let path = island.replace(rel, b"{\"v\":2}").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"{\"v\":2}");
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1
    );
}

#[test]
fn paths_that_leave_the_root_are_refused() {
    let (dir, island) = island();
    for rel in ["../escape.json", "/etc/passwd", "providers/../../x", ""] {
        let err = island.create_new(Path::new(rel), b"x").unwrap_err();
        assert_eq!(crate::diagnostic::Coded::code(&err), "ISL-005", "{rel}");
    }
    // a symlink inside the island that points outside cannot redirect a write
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::create_dir_all(island.root().join("providers")).unwrap();
    std::os::unix::fs::symlink(&outside, island.root().join("providers/evil")).unwrap();
    let err = island
        .create_new(Path::new("providers/evil/x.json"), b"x")
        .unwrap_err();
    assert_eq!(crate::diagnostic::Coded::code(&err), "ISL-005");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
fn a_second_lock_waits_then_fails() {
    let (_dir, island) = island();
    let held = island.lock().unwrap();
    let pid = std::fs::read_to_string(island.root().join(".lock")).unwrap();
    assert_eq!(pid, std::process::id().to_string());
    // std's file locks are per open file description, so a second open in this process
    // contends like another process would.
    let other = Island::open(island.root()).unwrap();
    let started = std::time::Instant::now();
    let err = with_lock_timeout_zero(|| other.lock().unwrap_err());
    assert_eq!(crate::diagnostic::Coded::code(&err), "ISL-004");
    assert!(err.to_string().contains("held by pid"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    drop(held);
    assert!(other.lock().is_ok());
}

fn with_lock_timeout_zero<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: no other test in this binary reads FLOWMCP_GRADING_LOCK_TIMEOUT concurrently.
    unsafe { std::env::set_var("FLOWMCP_GRADING_LOCK_TIMEOUT", "0") };
    let out = f();
    unsafe { std::env::remove_var("FLOWMCP_GRADING_LOCK_TIMEOUT") };
    out
}
