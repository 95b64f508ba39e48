//! Prints how long reading 400 realistic FlowMCP v4 schema modules takes with
//! `source::read_module` on one thread (warm cache: one warm-up pass, then the median of five).
//! Target: under 150 ms. Run with `cargo bench --bench source_read`.
//!
//! The modules come from the seeded corpus generator (benches/common/corpus.rs) in the shape the
//! public corpus has: 1–8 tools, a `handlers` factory in 40 % of the files, keys in 25 %.

#[path = "common/corpus.rs"]
mod corpus;

use flowmcp_grading::source::read_module;
use std::path::{Path, PathBuf};
use std::time::Instant;

const MODULES: usize = 400;
const PASSES: usize = 5;
const TARGET_MS: f64 = 150.0;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = write_modules(dir.path());
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).expect("written").len())
        .sum();
    println!(
        "source_read: {MODULES} modules, {:.2} MiB ({:.1} KiB per module)",
        bytes as f64 / 1_048_576.0,
        bytes as f64 / 1024.0 / MODULES as f64
    );

    // warm-up pass, which also checks that every module reads as expected
    let mut with_handlers = 0;
    for file in &files {
        let module = read_module(file).unwrap_or_else(|err| panic!("{err}"));
        assert!(module.schema_main().is_ok_and(|main| main.is_object()));
        assert!(module.imports.is_empty());
        if let Some(handlers) = &module.handlers {
            assert!(handlers.complete && !handlers.tools.is_empty());
            with_handlers += 1;
        }
    }
    println!("  {with_handlers} of {MODULES} modules have a handlers factory");

    let mut runs = Vec::with_capacity(PASSES);
    for _ in 0..PASSES {
        let started = Instant::now();
        let mut tools = 0;
        for file in &files {
            let module = read_module(file).expect("read");
            tools += module.handlers.map_or(0, |h| h.tools.len());
        }
        runs.push(started.elapsed().as_secs_f64());
        std::hint::black_box(tools);
    }
    runs.sort_by(f64::total_cmp);
    let median = runs[PASSES / 2];
    println!(
        "  one thread, median of {PASSES}: {:.1} ms total, {:.3} ms per file, {:.1} MB/s (min {:.1} ms, max {:.1} ms)",
        median * 1e3,
        median * 1e3 / MODULES as f64,
        bytes as f64 / 1e6 / median,
        runs[0] * 1e3,
        runs[PASSES - 1] * 1e3
    );
    println!(
        "  target < {TARGET_MS:.0} ms: {}",
        if median * 1e3 < TARGET_MS {
            "met"
        } else {
            "NOT met"
        }
    );
}

/// The modules, from the shared seeded corpus generator.
fn write_modules(dir: &Path) -> Vec<PathBuf> {
    let mut rng = corpus::Rng::new(42);
    (0..MODULES)
        .map(|i| {
            let ns = format!("ns{i}");
            let tools = 1 + rng.below(8);
            let text = corpus::module(
                &mut rng,
                &ns,
                "main",
                tools,
                "https://api.example.org/v1",
                "/items",
                false,
            );
            let path = dir.join(format!("{ns}.mjs"));
            std::fs::write(&path, text).expect("write module");
            path
        })
        .collect()
}
