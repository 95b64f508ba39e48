//! The README stays true: its two commands and every error code the source can emit.

mod support;

use std::collections::BTreeSet;

fn readme() -> String {
    std::fs::read_to_string(support::repo().join("README.md")).unwrap()
}

#[test]
fn starts_with_the_two_commands() {
    let text = readme();
    let block: Vec<&str> = text
        .split("```sh")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .take(2)
        .collect();
    assert!(
        block[0].starts_with("cargo run --release -- "),
        "{}",
        block[0]
    );
    assert!(block[1].starts_with("cargo test"), "{}", block[1]);
    let ci = std::fs::read_to_string(support::repo().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test"),
        ".ci/run calls the README's test command"
    );
}

#[test]
fn every_emitted_code_is_documented() {
    let mut codes = BTreeSet::new();
    for entry in walk(&support::repo().join("src")) {
        let text = std::fs::read_to_string(&entry).unwrap();
        for (i, _) in text.match_indices('"') {
            let rest = &text[i + 1..];
            let Some(end) = rest.find('"') else { continue };
            let candidate = &rest[..end];
            if is_code(candidate) {
                codes.insert(candidate.to_string());
            }
        }
    }
    assert!(codes.len() > 40, "found {} codes", codes.len());
    let text = readme();
    let missing: Vec<_> = codes
        .iter()
        .filter(|c| !text.contains(&format!("`{c}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "codes missing from the README table: {missing:?}"
    );
}

fn is_code(s: &str) -> bool {
    let mut parts = s.split('-');
    let prefix = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    let number_ok = |n: &str| n.len() == 3 && n.chars().all(|c| c.is_ascii_digit());
    (2..=3).contains(&prefix.len())
        && prefix.chars().all(|c| c.is_ascii_uppercase())
        && match rest.as_slice() {
            [n] => number_ok(n),
            [kind, n] => (*kind == "WARN" || *kind == "INFO") && number_ok(n),
            _ => false,
        }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}
