//! `cargo bench --bench pretest`: 200 tool tests spread over 8 loopback hosts (127.0.0.1 to
//! 127.0.0.8) that answer after 50 ms each, with the default limits (16 overall, 4 per host)
//! versus one at a time. Target: under 0.8 s, against about 10 s.

#[allow(dead_code)]
#[path = "../tests/support/http.rs"]
mod http;

use flowmcp_grading::pretest::{Limits, Options, SchemaInput, run_namespace};
use serde_json::{Map, Value, json};
use std::time::{Duration, Instant};

const HOSTS: usize = 8;
const TESTS: usize = 200;
const LATENCY_MS: u64 = 50;

fn main() {
    let servers: Vec<http::TestServer> = (1..=HOSTS)
        .map(|i| http::start(&format!("127.0.0.{i}")))
        .collect();
    // 25 tests per host: 5 tools of 5 tests each, one schema per host.
    let mains: Vec<Value> = servers
        .iter()
        .map(|server| {
            let mut tools = Map::new();
            for t in 0..(TESTS / HOSTS / 5) {
                let tests: Vec<Value> = (0..5).map(|i| json!({"_description": format!("t{i}")})).collect();
                tools.insert(
                    format!("tool{t}"),
                    json!({"method": "GET", "path": format!("/latency/{LATENCY_MS}"), "description": "d", "parameters": [], "tests": tests}),
                );
            }
            json!({"namespace": "bench", "root": server.base, "tools": tools})
        })
        .collect();
    let inputs: Vec<SchemaInput> = mains
        .iter()
        .enumerate()
        .map(|(i, main)| SchemaInput {
            schema: format!("s{i}"),
            schema_file: format!("s{i}.mjs"),
            main,
            handlers: None,
        })
        .collect();

    let run = |limits: Limits| -> Duration {
        let options = Options {
            limits,
            ..Options::default()
        };
        let started = Instant::now();
        let results = run_namespace("bench", &inputs, &options, &|_, _| {});
        let elapsed = started.elapsed();
        assert!(results.iter().all(|r| r.ok), "every test works");
        elapsed
    };
    let mut parallel: Vec<Duration> = (0..5).map(|_| run(Limits::default())).collect();
    parallel.sort();
    let serial = run(Limits {
        concurrency: 1,
        per_host: 1,
        ..Limits::default()
    });
    let ideal =
        Duration::from_millis(LATENCY_MS * TESTS.div_ceil(Limits::default().concurrency) as u64);
    let median = parallel[parallel.len() / 2];
    let max_per_host = servers
        .iter()
        .map(|s| s.max_in_flight.load(std::sync::atomic::Ordering::SeqCst))
        .max()
        .unwrap_or(0);
    println!("pretest: {TESTS} tests over {HOSTS} loopback hosts, {LATENCY_MS} ms each");
    println!(
        "  default limits (16 overall, 4 per host): median of 5 {:.0} ms (ideal {:.0} ms), most in flight on one host: {max_per_host}",
        median.as_secs_f64() * 1e3,
        ideal.as_secs_f64() * 1e3
    );
    println!("  one at a time: {:.0} ms", serial.as_secs_f64() * 1e3);
    println!(
        "  target < 800 ms: {}",
        if median < Duration::from_millis(800) {
            "met"
        } else {
            "NOT met"
        }
    );
}
