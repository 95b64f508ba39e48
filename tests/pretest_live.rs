//! The live pretest against a server the test starts on 127.0.0.1: every bad answer gets its
//! own recorded reason, none stops the others, and the per-host limit holds.

mod support;

use flowmcp_grading::pretest::{Limits, Options, SchemaInput, TestStatus, run_namespace};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use support::http;

fn tool(path: &str, tests: usize) -> Value {
    let tests: Vec<Value> = (1..=tests)
        .map(|i| json!({"_description": format!("case {i}")}))
        .collect();
    json!({"method": "GET", "path": path, "description": "d", "parameters": [], "tests": tests})
}

fn schema(root: &str, tools: &[(&str, &str)]) -> Value {
    let mut map = Map::new();
    for (name, path) in tools {
        map.insert((*name).to_owned(), tool(path, 3));
    }
    json!({"namespace": "live", "name": "Live", "description": "d", "version": "4.0.0", "root": root, "tools": map})
}

fn quick_limits() -> Limits {
    Limits {
        total_timeout: Duration::from_millis(800),
        connect_timeout: Duration::from_millis(800),
        max_body_bytes: 16 * 1024,
        backoff_base: Duration::from_millis(20),
        ..Limits::default()
    }
}

#[test]
fn every_bad_answer_has_its_own_reason() {
    let server = http::start("127.0.0.1");
    let main = schema(
        &server.base,
        &[
            ("ok", "/ok"),
            ("empty", "/empty"),
            ("unauthorized", "/status/401"),
            ("forbidden", "/status/403"),
            ("missing", "/status/404"),
            ("broken", "/status/500"),
            ("created", "/status/201"),
            ("flaky", "/flaky"),
            ("throttled", "/always429"),
            ("slow", "/slow"),
            ("big", "/big"),
            ("loop", "/loop"),
            ("badjson", "/badjson"),
            ("latin1", "/latin1"),
            ("drip", "/drip"),
            ("hang", "/hang"),
        ],
    );
    let refused = schema(&http::refused_base(), &[("refused", "/ok")]);
    let unresolved = schema(
        "http://127.0.0.1:1/{{LIVE_UNSET_KEY}}",
        &[("unresolved", "/ok")],
    );
    let inputs = [
        SchemaInput {
            schema: "live".into(),
            schema_file: "live.mjs".into(),
            main: &main,
            handlers: None,
        },
        SchemaInput {
            schema: "refused".into(),
            schema_file: "refused.mjs".into(),
            main: &refused,
            handlers: None,
        },
        SchemaInput {
            schema: "unresolved".into(),
            schema_file: "u.mjs".into(),
            main: &unresolved,
            handlers: None,
        },
    ];
    let options = Options {
        limits: quick_limits(),
        ..Options::default()
    };
    let started = Instant::now();
    let results = run_namespace("live", &inputs, &options, &|_, _| {});
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );

    let mut reasons: BTreeMap<String, (TestStatus, String)> = BTreeMap::new();
    for result in &results {
        for test in &result.tests {
            if test.test == 1 {
                reasons.insert(
                    test.tool.clone(),
                    (test.status, test.reason.clone().unwrap_or_default()),
                );
            }
        }
    }
    let expect = |tool: &str, status: TestStatus, needle: &str| {
        let (got, reason) = &reasons[tool];
        assert_eq!(*got, status, "{tool}: {reason}");
        assert!(
            reason.contains(needle),
            "{tool}: wanted `{needle}` in `{reason}`"
        );
    };
    expect("ok", TestStatus::Working, "");
    expect("empty", TestStatus::Failed, "empty response (`[]`)");
    expect("unauthorized", TestStatus::Failed, "HTTP 401");
    expect("forbidden", TestStatus::Failed, "HTTP 403");
    expect("missing", TestStatus::Failed, "HTTP 404");
    expect("broken", TestStatus::Failed, "HTTP 500");
    expect("created", TestStatus::Failed, "HTTP 201");
    expect("flaky", TestStatus::Working, "");
    expect(
        "throttled",
        TestStatus::Failed,
        "HTTP 429 Too Many Requests (after 3 retries)",
    );
    expect("slow", TestStatus::Failed, "timed out");
    expect("big", TestStatus::Failed, "larger than the cap");
    expect("loop", TestStatus::Failed, "too many redirects");
    expect("badjson", TestStatus::Failed, "not valid JSON");
    expect("latin1", TestStatus::Failed, "not UTF-8");
    expect("drip", TestStatus::Failed, "timed out");
    expect("hang", TestStatus::Failed, "timed out");
    expect("refused", TestStatus::Failed, "connection failed");
    expect("unresolved", TestStatus::NotRun, "`LIVE_UNSET_KEY`");

    let live = &results[0];
    assert_eq!(live.per_tool["ok"]["status"], "ok");
    assert_eq!(live.per_tool["flaky"]["working"], 3);
    assert_eq!(
        live.per_tool["empty"]["reason"],
        "empty (0/3): empty response (`[]`)"
    );
    assert!(!live.ok);
    assert!(
        live.tools_below_threshold
            .contains(&"unauthorized (0/3)".to_owned())
    );
    let flaky = live
        .tests
        .iter()
        .find(|t| t.tool == "flaky" && t.retries == 1);
    assert!(flaky.is_some(), "one flaky test was retried after its 429");
    let ok = live.tests.iter().find(|t| t.tool == "ok").unwrap();
    assert_eq!(ok.response, json!({"items": [1, 2, 3]}));
}

#[test]
fn the_per_host_limit_holds() {
    let server = http::start("127.0.0.1");
    let mut tools = Map::new();
    for i in 0..10 {
        tools.insert(format!("t{i}"), tool("/latency/50", 4));
    }
    let main = json!({"namespace": "load", "root": server.base, "tools": tools});
    let inputs = [SchemaInput {
        schema: "load".into(),
        schema_file: "l.mjs".into(),
        main: &main,
        handlers: None,
    }];
    let options = Options {
        limits: Limits {
            per_host: 4,
            concurrency: 16,
            ..Limits::default()
        },
        ..Options::default()
    };
    let started = Instant::now();
    let results = run_namespace("load", &inputs, &options, &|_, _| {});
    let elapsed = started.elapsed();
    assert!(results[0].ok, "{:?}", results[0].per_tool);
    let max = server
        .max_in_flight
        .load(std::sync::atomic::Ordering::SeqCst);
    assert!(max <= 4, "{max} requests in flight on one host");
    assert!(max >= 2, "requests ran in parallel ({max})");
    // 40 tests, 4 at a time, 50 ms each: about 0.5 s, far below 40 × 50 ms one at a time.
    assert!(elapsed < Duration::from_millis(1900), "{elapsed:?}");
}

#[test]
fn offline_and_handler_tools_are_not_run() {
    let main = schema("http://127.0.0.1:1", &[("a", "/ok"), ("b", "/ok")]);
    let module = flowmcp_grading::source::parse_module(
        std::path::Path::new("h.mjs"),
        "export const main = {}; export const handlers = () => ({ a: { executeRequest: async () => 1 }, b: { postRequest: async (x) => x } })",
    )
    .unwrap();
    let inputs = [SchemaInput {
        schema: "h".into(),
        schema_file: "h.mjs".into(),
        main: &main,
        handlers: module.handlers.as_ref(),
    }];
    let options = Options {
        offline: true,
        ..Options::default()
    };
    let results = run_namespace("h", &inputs, &options, &|_, _| {});
    let reason = |tool: &str| {
        results[0]
            .tests
            .iter()
            .find(|t| t.tool == tool)
            .unwrap()
            .reason
            .clone()
            .unwrap()
    };
    assert!(
        reason("a").starts_with("handler-required"),
        "{}",
        reason("a")
    );
    assert_eq!(
        reason("b"),
        "offline",
        "postRequest-only tools are plain requests"
    );
    assert_eq!(results[0].stop_reason, Some("offline"));
}
