//! `cargo bench --bench rollup`: rebuilds the index of an island with 300 namespaces and about
//! 20,000 grading entries (node-implementation shape and this project's), and one namespace
//! alone. Targets: under 1 s for the island, under 20 ms for one namespace.

use flowmcp_grading::index::rebuild_namespace;
use flowmcp_grading::island::Island;
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

const NAMESPACES: usize = 300;
const ENTRIES_PER_TOOL: usize = 32;

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let module = std::fs::read(repo.join("fixtures/providers/tinyapi/tinyapi.mjs")).unwrap();
    let own_entry =
        std::fs::read_to_string(repo.join("fixtures/entries/valid/spec-autonomous.json")).unwrap();
    let own: serde_json::Value = serde_json::from_str(&own_entry).unwrap();
    let own_area = own["area"].as_str().unwrap().to_owned();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("island");
    let mut entries = 0;
    for n in 0..NAMESPACES {
        let ns = format!("ns{n}");
        let schema = root.join("providers").join(&ns).join("tinyapi");
        std::fs::create_dir_all(schema.join("schema")).unwrap();
        std::fs::write(
            schema.join("schema/tinyapi--2026-06-01T00-00-00Z--4142eeab.mjs"),
            &module,
        )
        .unwrap();
        for tool in ["listStations", "getLatestReading"] {
            let dir = schema.join("tools").join(tool).join("_gradings");
            std::fs::create_dir_all(&dir).unwrap();
            for i in 0..ENTRIES_PER_TOOL {
                let body = json!({"grade": if i % 3 == 0 { "B" } else { "C" }, "gradingMode": if i % 4 == 0 { "full" } else { "partial" }, "schemaHash": "4142eeab", "answers": []});
                let ts = format!("2026-06-{:02}T{:02}-{:02}-00Z", 1 + i / 24, i % 24, n % 60);
                std::fs::write(
                    dir.join(format!("single-test--{ts}.json")),
                    body.to_string(),
                )
                .unwrap();
                entries += 1;
            }
        }
        let dir = schema.join("_gradings");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("tools-aggregate-schema--2026-06-01T00-00-00Z.json"),
            json!({"grade": "B", "schemaHash": "4142eeab"}).to_string(),
        )
        .unwrap();
        entries += 1;
        if own_area == "single-test" {
            let dir = schema.join("tools/listStations/_gradings");
            std::fs::write(
                dir.join("single-test--2026-07-01T00-00-00Z.json"),
                &own_entry,
            )
            .unwrap();
            entries += 1;
        }
    }
    let island = Island::open(&root).unwrap();
    let mut runs = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        for n in 0..NAMESPACES {
            rebuild_namespace(&island, &format!("ns{n}"), chrono::Utc::now()).unwrap();
        }
        runs.push(started.elapsed());
    }
    runs.sort();
    let median = runs[runs.len() / 2];
    let mut single: Vec<Duration> = (0..20)
        .map(|_| {
            let started = Instant::now();
            rebuild_namespace(&island, "ns7", chrono::Utc::now()).unwrap();
            started.elapsed()
        })
        .collect();
    single.sort();
    let one = single[single.len() / 2];
    println!("rollup: {NAMESPACES} namespaces, {entries} grading entries");
    println!(
        "  whole island, median of 5: {:.0} ms ({:.1} µs per entry), target < 1000 ms: {}",
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e6 / entries as f64,
        if median < Duration::from_secs(1) {
            "met"
        } else {
            "NOT met"
        }
    );
    println!(
        "  one namespace, median of 20: {:.2} ms, target < 20 ms: {}",
        one.as_secs_f64() * 1e3,
        if one < Duration::from_millis(20) {
            "met"
        } else {
            "NOT met"
        }
    );
}
