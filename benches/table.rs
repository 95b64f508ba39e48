//! `cargo bench --bench table`: every stage measured at three sizes on a generated corpus
//! (benches/common/corpus.rs, seeded), printed as one table with the per-item cost, the peak
//! memory of each measured process, the target and — where a peer exists — the ratio to it:
//! reading and hashing against node importing the same modules (as the node CLI does), import,
//! emit against a loopback API with 50 ms latency, consume, and state over many entries.
//! Median of 3 runs each.

#[path = "common/corpus.rs"]
mod corpus;
#[path = "../tests/support/http.rs"]
#[allow(dead_code)]
mod http;
#[path = "../tests/support/island.rs"]
#[allow(dead_code)]
mod island;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Row {
    stage: String,
    size: String,
    median: Duration,
    per_item: String,
    peak_mb: f64,
    target: String,
    peer: String,
}

fn binary(repo: &Path) -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--bin", "flowmcp-grading"])
        .current_dir(repo)
        .status()
        .expect("cargo build");
    assert!(status.success());
    repo.join("target/release/flowmcp-grading")
}

/// Runs a command to the end; returns its wall time and peak RSS (MB) from wait4.
fn timed(cmd: &mut Command) -> (Duration, f64) {
    let started = Instant::now();
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; `usage` is a valid out-pointer.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    assert_eq!(waited, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{cmd:?} failed"
    );
    std::mem::forget(child);
    (elapsed, usage.ru_maxrss as f64 / 1024.0)
}

fn median(mut runs: Vec<(Duration, f64)>) -> (Duration, f64) {
    runs.sort_by_key(|r| r.0);
    let peak = runs.iter().map(|r| r.1).fold(0.0, f64::max);
    (runs[runs.len() / 2].0, peak)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn grading(bin: &Path, island: &Path) -> Command {
    let mut cmd = Command::new(bin);
    cmd.env("HOME", "/nonexistent-home-for-bench")
        .env_remove("FLOWMCP_GRADING_FSYNC")
        .arg("--grading-data")
        .arg(island);
    cmd
}

/// Self VmHWM in MB (for the in-process measurement).
fn self_peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<f64>().ok())
            })
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

const NODE_HASHER: &str = r#"
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
const canonical = (v) => Array.isArray(v) ? v.map(canonical)
  : (v && typeof v === 'object') ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])])) : v;
const files = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
let out = '';
for (const f of files) {
  const m = await import(pathToFileURL(f).href);
  const { schemaHash, ...main } = m.main;
  out += createHash('sha256').update(JSON.stringify(canonical(main))).digest('hex').slice(0, 8) + '\n';
}
process.stdout.write(out);
"#;

fn read_and_hash(work: &Path, rows: &mut Vec<Row>) {
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    for namespaces in [90, 180, 360] {
        let dir = work.join(format!("read-{namespaces}"));
        let (folders, modules) =
            corpus::write_corpus(&dir, namespaces, 7, "https://api.example.org/v1");
        let files: Vec<PathBuf> = folders
            .iter()
            .flat_map(|f| std::fs::read_dir(f).unwrap().flatten().map(|e| e.path()))
            .collect();
        let mut runs = Vec::new();
        let mut ours = Vec::new();
        for _ in 0..3 {
            let started = Instant::now();
            ours.clear();
            for file in &files {
                let module =
                    flowmcp_grading::source::read_module(file).expect("generated modules read");
                ours.push(flowmcp_grading::hash::schema_hash(
                    module.schema_main().unwrap(),
                ));
            }
            runs.push((started.elapsed(), self_peak_mb()));
        }
        let (ours_time, peak) = median(runs);
        // The same on every core (the files split across threads).
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut par_runs = Vec::new();
        for _ in 0..3 {
            let started = Instant::now();
            std::thread::scope(|scope| {
                for w in 0..workers {
                    let files = &files;
                    scope.spawn(move || {
                        for file in files.iter().skip(w).step_by(workers) {
                            let module = flowmcp_grading::source::read_module(file).unwrap();
                            let _ =
                                flowmcp_grading::hash::schema_hash(module.schema_main().unwrap());
                        }
                    });
                }
            });
            par_runs.push((started.elapsed(), self_peak_mb()));
        }
        let (par_time, par_peak) = median(par_runs);
        let mut peer = "node not installed".to_owned();
        let mut par_peer = peer.clone();
        if node {
            let list = dir.join("files.txt");
            std::fs::write(
                &list,
                files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
            .unwrap();
            let script = dir.join("hash.mjs");
            std::fs::write(&script, NODE_HASHER).unwrap();
            let mut node_runs = Vec::new();
            for _ in 0..3 {
                node_runs.push(timed(Command::new("node").arg(&script).arg(&list)));
            }
            let out = Command::new("node")
                .arg(&script)
                .arg(&list)
                .output()
                .unwrap();
            let theirs: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_owned)
                .collect();
            let same = theirs == ours;
            let (node_time, node_peak) = median(node_runs);
            par_peer = format!(
                "{:.1}x faster than node",
                node_time.as_secs_f64() / par_time.as_secs_f64()
            );
            peer = format!(
                "node {:.0} ms ({:.2} ms/file, {node_peak:.0} MB): {:.1}x faster{}",
                ms(node_time),
                ms(node_time) / files.len() as f64,
                node_time.as_secs_f64() / ours_time.as_secs_f64(),
                if same {
                    ", hashes identical"
                } else {
                    ", HASHES DIFFER"
                }
            );
        }
        rows.push(Row {
            stage: "read + hash (1 thread)".into(),
            size: format!("{modules} modules"),
            median: ours_time,
            per_item: format!("{:.3} ms/module", ms(ours_time) / modules as f64),
            peak_mb: peak,
            target: ">= 10x node".into(),
            peer,
        });
        rows.push(Row {
            stage: format!("read + hash ({workers} threads)"),
            size: format!("{modules} modules"),
            median: par_time,
            per_item: format!("{:.3} ms/module", ms(par_time) / modules as f64),
            peak_mb: par_peak,
            target: ">= 10x node".into(),
            peer: par_peer,
        });
    }
}

fn import_row(
    stage: &str,
    namespaces: usize,
    modules: usize,
    (time, peak): (Duration, f64),
) -> Row {
    Row {
        stage: stage.into(),
        size: format!("{namespaces} ns / {modules} modules"),
        median: time,
        per_item: format!("{:.2} ms/namespace", ms(time) / namespaces as f64),
        peak_mb: peak,
        target: if namespaces == 300 {
            "< 1500 ms".into()
        } else {
            String::new()
        },
        peer: String::new(),
    }
}

fn import(bin: &Path, work: &Path, rows: &mut Vec<Row>) {
    for namespaces in [75, 150, 300] {
        let dir = work.join(format!("import-{namespaces}"));
        let (folders, modules) =
            corpus::write_corpus(&dir, namespaces, 11, "https://api.example.org/v1");
        let mut runs = Vec::new();
        for run in 0..3 {
            let island = dir.join(format!("island-{run}"));
            let started = Instant::now();
            let mut peak: f64 = 0.0;
            for folder in &folders {
                let (_, p) = timed(grading(bin, &island).arg("import").arg(folder));
                peak = peak.max(p);
            }
            runs.push((started.elapsed(), peak));
        }
        rows.push(import_row(
            "import, 1 process per namespace",
            namespaces,
            modules,
            median(runs),
        ));
        let mut runs = Vec::new();
        for run in 0..3 {
            let island = dir.join(format!("island-batch-{run}"));
            runs.push(timed(grading(bin, &island).arg("import").args(&folders)));
        }
        rows.push(import_row(
            "import, all folders in one call",
            namespaces,
            modules,
            median(runs),
        ));
    }
}

fn emit(bin: &Path, work: &Path, rows: &mut Vec<Row>) {
    let server = http::start("127.0.0.1");
    for tools in [10usize, 20, 40] {
        let dir = work.join(format!("emit-{tools}"));
        let folder = corpus::write_namespace(
            &dir,
            "emitbench",
            tools.div_ceil(8),
            8.min(tools),
            3,
            &server.base,
            "/latency/50",
        );
        let island = dir.join("island");
        let (_, _) = timed(grading(bin, &island).arg("import").arg(&folder));
        // Count the tests the pretest will run.
        let tests: usize = std::fs::read_dir(&folder)
            .unwrap()
            .flatten()
            .map(|e| {
                std::fs::read_to_string(e.path())
                    .unwrap()
                    .matches("_description")
                    .count()
            })
            .sum();
        let ideal = Duration::from_millis(50 * tests.div_ceil(4) as u64);
        let mut runs = Vec::new();
        for _ in 0..3 {
            runs.push(timed(grading(bin, &island).args([
                "run",
                "emitbench",
                "--emit-prompts",
                "--on-conflict",
                "overwrite",
            ])));
        }
        let (time, peak) = median(runs);
        rows.push(Row {
            stage: "emit (pretest at 50 ms latency)".into(),
            size: format!("{} tools / {tests} tests", 8.min(tools) * tools.div_ceil(8)),
            median: time,
            per_item: format!("{:.1} ms/test", ms(time) / tests as f64),
            peak_mb: peak,
            target: format!("<= 1.3x ideal {:.0} ms", ms(ideal)),
            peer: format!("{:.2}x ideal", time.as_secs_f64() / ideal.as_secs_f64()),
        });
    }
}

fn consume_and_state(bin: &Path, work: &Path, rows: &mut Vec<Row>) {
    for tools in [250usize, 500, 1000] {
        let dir = work.join(format!("consume-{tools}"));
        let folder = corpus::write_namespace(
            &dir,
            "consumebench",
            tools / 8,
            8,
            5,
            "https://api.example.org",
            "/items",
        );
        let island = dir.join("island");
        timed(grading(bin, &island).arg("import").arg(&folder));
        timed(grading(bin, &island).args([
            "run",
            "consumebench",
            "--emit-prompts",
            "--offline",
            "--phase",
            "single-test",
        ]));
        let prompts: serde_json::Value = serde_json::from_slice(
            &std::fs::read(island.join("providers/consumebench/prompts.json")).unwrap(),
        )
        .unwrap();
        let scores = dir.join("scores.json");
        std::fs::write(&scores, island::scripted(&prompts, 4.0).to_string()).unwrap();
        let mut runs = Vec::new();
        let rounds = 20_000 / tools; // re-gradings until about 20,000 entries
        for _ in 0..rounds {
            runs.push(timed(
                grading(bin, &island)
                    .args(["run", "consumebench", "--consume-scores"])
                    .arg(&scores)
                    .arg("--export-dir")
                    .arg(dir.join("exports")),
            ));
        }
        let (time, peak) = median(runs);
        rows.push(Row {
            stage: "consume (validate + write entries)".into(),
            size: format!("{tools} instances"),
            median: time,
            per_item: format!("{:.3} ms/instance", ms(time) / tools as f64),
            peak_mb: peak,
            target: if tools == 1000 {
                "< 500 ms".into()
            } else {
                String::new()
            },
            peer: String::new(),
        });
        let entries = rounds * tools;
        let mut runs = Vec::new();
        for _ in 0..3 {
            runs.push(timed(grading(bin, &island).args([
                "--json",
                "state",
                "consumebench",
            ])));
        }
        let (time, peak) = median(runs);
        rows.push(Row {
            stage: "state (rebuild in memory)".into(),
            size: format!("{entries} entries"),
            median: time,
            per_item: format!("{:.1} us/entry", time.as_secs_f64() * 1e6 / entries as f64),
            peak_mb: peak,
            target: if entries >= 20_000 {
                "< 1000 ms".into()
            } else {
                String::new()
            },
            peer: String::new(),
        });
    }
}

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bin = binary(&repo);
    let work = tempfile::tempdir().expect("tempdir");
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let want = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut rows = Vec::new();
    if want("read") {
        read_and_hash(work.path(), &mut rows);
    }
    if want("import") {
        import(&bin, work.path(), &mut rows);
    }
    if want("emit") {
        emit(&bin, work.path(), &mut rows);
    }
    if want("consume") {
        consume_and_state(&bin, work.path(), &mut rows);
    }
    println!(
        "\n{:<36} {:<26} {:>10} {:>20} {:>8}  {:<22} peer / ratio",
        "stage", "size", "median", "per item", "peak MB", "target"
    );
    for r in &rows {
        println!(
            "{:<36} {:<26} {:>7.0} ms {:>20} {:>8.1}  {:<22} {}",
            r.stage,
            r.size,
            ms(r.median),
            r.per_item,
            r.peak_mb,
            r.target,
            r.peer
        );
    }
}
