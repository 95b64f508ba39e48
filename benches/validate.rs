//! Prints how long validating 10,000 grading entries takes: in process (library) and through the
//! release binary. Target: under 1 s on a 2-core machine. Run with `cargo bench --bench validate`.

use flowmcp_grading::validate::{Kind, validate_files};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const ENTRIES: usize = 10_000;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = write_entries(dir.path());
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    println!(
        "validate: {ENTRIES} entries, {:.1} MiB",
        bytes as f64 / 1048576.0
    );

    let mut library = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let reports = validate_files(&files, Some(Kind::Entry));
        library.push(start.elapsed().as_secs_f64());
        let invalid = reports.iter().filter(|r| !r.valid).count();
        assert_eq!(invalid, ENTRIES / 10, "every tenth entry is broken");
    }
    report("library, all cores", &mut library);

    let bin = env!("CARGO_BIN_EXE_flowmcp-grading");
    let mut binary = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let status = Command::new(bin)
            .current_dir(dir.path())
            .arg("validate")
            .args(files.iter().map(|f| f.file_name().unwrap()))
            .stdout(std::process::Stdio::null())
            .status()
            .expect("run binary");
        binary.push(start.elapsed().as_secs_f64());
        assert_eq!(status.code(), Some(1), "the broken entries make it exit 1");
    }
    report("binary `validate <10,000 files>`", &mut binary);
}

fn report(label: &str, runs: &mut [f64]) {
    runs.sort_by(f64::total_cmp);
    let median = runs[runs.len() / 2];
    println!(
        "  {label:<36} median {:>7.1} ms  ({:.1} µs/entry; min {:.1} ms, max {:.1} ms){}",
        median * 1e3,
        median * 1e6 / ENTRIES as f64,
        runs[0] * 1e3,
        runs[runs.len() - 1] * 1e3,
        if median < 1.0 {
            "  target < 1 s: met"
        } else {
            "  target < 1 s: MISSED"
        }
    );
}

/// Realistic entries: ten answers each, every tenth with a wrong aggregateGrade.
fn write_entries(dir: &std::path::Path) -> Vec<PathBuf> {
    (0..ENTRIES)
        .map(|i| {
            let hash = format!("{:08x}", i * 2654435761 % (1 << 32));
            let mut entry = entry(&hash, i);
            if i % 10 == 0 {
                entry["aggregateGrade"] = json!("F");
            }
            let path = dir.join(format!("single-test--{i:05}.json"));
            std::fs::write(&path, serde_json::to_vec_pretty(&entry).unwrap()).unwrap();
            path
        })
        .collect()
}

fn entry(hash: &str, i: usize) -> Value {
    let answers: Vec<Value> = (1..=10)
        .map(|q| {
            let det = q <= 3;
            let mut a = json!({
                "questionId": format!("Q-single-test-{q:02}"),
                "score": if det { json!("pass") } else { json!(3 + (i + q) % 3) },
                "weight": if det { 0.33 } else { 0.25 },
                "determinism": if det { "deterministic" } else { "non-deterministic" },
                "graderIdentity": if det {
                    json!({"kind": "script", "name": "flowmcp-grading", "version": "0.1.0"})
                } else {
                    json!({"kind": "llm", "name": "claude-code", "version": "2.1"})
                },
                "timestamp": "2026-06-04T10:15:00Z",
                "reasoning": "The description names the parameters and the return shape."
            });
            if !det {
                a["llmModel"] = json!("claude-opus-4-7");
                a["selectionContext"] =
                    json!({"groupId": "demoapi", "personaIds": ["schema-maintainer"]});
            }
            a
        })
        .collect();
    let mut e = json!({
        "gradingId": format!("{hash}--2026-06-04T10-15-00Z"),
        "schemaId": format!("demoapi.tool{i}"),
        "area": "single-test",
        "version": "flowmcp/4.2.0",
        "schemaHash": hash,
        "gradingMode": "full",
        "gradingTier": "autonomous",
        "harness": "claude-code",
        "scoringSystem": "scoringSystem/1.0.0",
        "gradingSystem": "gradingSystem/1.0.0",
        "gradings": answers,
        "categoricalVeto": null,
        "aggregateGrade": "B",
        "maxAttainableGrade": "B"
    });
    let outcome = flowmcp_grading::grading::compute(
        flowmcp_grading::model::Tier::Autonomous,
        None,
        &serde_json::from_value::<Vec<_>>(e["gradings"].clone()).unwrap(),
    );
    e["aggregateGrade"] = json!(outcome.aggregate.unwrap().as_str());
    e
}
