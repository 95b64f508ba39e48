//! The live deterministic pretest: every tool's `tests[]` against the live API, and per tool
//! whether it has enough working tests (reference-cli.md §2.2, gradingSystem/1.0.0).
//!
//! A test is working iff the answer is HTTP 200 with a body that parses and is not empty
//! (`[]`, `{}`, `""`, `null`). 4xx — 401 and 403 included — is never a pass. Tools whose schema
//! has a `preRequest` or `executeRequest` handler for them cannot run without JavaScript and are
//! recorded as `not-run: handler-required`. Nothing stored names a request URL, a header or a key.

mod exec;
pub mod keys;
pub mod request;

pub use exec::{Fetched, Limits, probe_urls};

use crate::island::{Island, IslandError, layout};
use crate::source::Handlers;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// Working tests a tool needs (gradingSystem/1.0.0).
pub const MIN_WORKING_TESTS: usize = 3;

/// Responses larger than this are not kept in the test file (only their size).
pub const MAX_STORED_RESPONSE_BYTES: usize = 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestStatus {
    Working,
    Failed,
    NotRun,
}

/// One test's result: `tools/<tool>/tests/test-<N>.json`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TestRecord {
    pub tool: String,
    pub test: usize,
    pub description: String,
    pub status: TestStatus,
    pub reason: Option<String>,
    pub http_status: Option<u16>,
    pub has_data: bool,
    pub working: bool,
    pub duration_ms: u64,
    pub response_bytes: u64,
    pub retries: u32,
    pub response: Value,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSummary {
    pub working: usize,
    pub total: usize,
    pub not_run: usize,
    pub status: &'static str,
    pub reason: Option<String>,
}

/// One schema's pretest: `<schema>/summary.json` plus the test records.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SchemaPretest {
    pub namespace: String,
    pub schema: String,
    pub schema_file: String,
    pub checked_at: String,
    pub min_working_tests: usize,
    pub ok: bool,
    pub passed_downloadable: usize,
    pub tools_below_threshold: Vec<String>,
    pub per_tool: Map<String, Value>,
    pub stop_reason: Option<&'static str>,
    pub offline: bool,
    pub keys_used: bool,
    pub key_gated: bool,
    pub errors: Vec<String>,
    #[serde(skip)]
    pub tests: Vec<TestRecord>,
}

/// A schema to pretest.
pub struct SchemaInput<'a> {
    pub schema: String,
    pub schema_file: String,
    pub main: &'a Value,
    pub handlers: Option<&'a Handlers>,
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    pub limits: Limits,
    pub offline: bool,
    pub with_keys: bool,
    /// Only these tools (all when `None`).
    pub only: Option<Vec<String>>,
}

enum Plan {
    Send(usize),
    NotRun(String),
}

/// Pretests every schema of a namespace; all requests share one scheduler so that the per-host
/// limit holds across schemas. `on_done(done, total)` reports progress.
pub fn run_namespace(
    namespace: &str,
    schemas: &[SchemaInput],
    options: &Options,
    on_done: &(dyn Fn(usize, usize) + Sync),
) -> Vec<SchemaPretest> {
    let checked_at = crate::timestamp::to_rfc3339(chrono::Utc::now());
    let mut requests = Vec::new();
    let mut plans = Vec::new();
    let mut all_keys = HashMap::new();
    let mut results = Vec::new();
    for input in schemas {
        let required: Vec<String> = input
            .main
            .get("requiredServerParams")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        let mut errors = Vec::new();
        let server = if options.with_keys {
            let (found, missing) = keys::server_params(&required);
            for name in missing {
                errors.push(format!(
                    "DPT-005: Required server parameter absent from serverParams: {name}"
                ));
            }
            found
        } else {
            if !required.is_empty() {
                errors.push(format!(
                    "DPT-007: key-gated schema ({}), keys not used: pass --with-keys",
                    required.join(", ")
                ));
            }
            HashMap::new()
        };
        all_keys.extend(server.clone());
        let mut schema_plans = Vec::new();
        for (tool_name, tool, index, description, params) in tests_of(input.main) {
            if options
                .only
                .as_ref()
                .is_some_and(|only| !only.iter().any(|t| t == tool_name))
            {
                continue;
            }
            let plan = if let Some(reason) = handler_block(input.handlers, tool_name) {
                Plan::NotRun(reason)
            } else if options.offline {
                Plan::NotRun("offline".into())
            } else {
                match request::prepare(input.main, tool, &params, &server) {
                    Ok(prepared) => {
                        requests.push(prepared);
                        Plan::Send(requests.len() - 1)
                    }
                    Err(reason) => Plan::NotRun(reason),
                }
            };
            schema_plans.push((
                tool_name.to_owned(),
                index,
                description,
                plan,
                output_is_text(tool),
            ));
        }
        plans.push(schema_plans);
        results.push(SchemaPretest {
            namespace: namespace.to_owned(),
            schema: input.schema.clone(),
            schema_file: input.schema_file.clone(),
            checked_at: checked_at.clone(),
            min_working_tests: MIN_WORKING_TESTS,
            ok: false,
            passed_downloadable: 0,
            tools_below_threshold: Vec::new(),
            per_tool: Map::new(),
            stop_reason: None,
            offline: options.offline,
            keys_used: options.with_keys,
            key_gated: !required.is_empty(),
            errors,
            tests: Vec::new(),
        });
    }

    let fetched = exec::run_all(requests, &options.limits, on_done);
    for ((result, schema_plans), input) in results.iter_mut().zip(plans).zip(schemas) {
        let tool_order: Vec<String> = tests_of(input.main).map(|(name, ..)| name.to_owned()).fold(
            Vec::new(),
            |mut names, name| {
                if !names.contains(&name) {
                    names.push(name);
                }
                names
            },
        );
        for (tool, index, description, plan, text_output) in schema_plans {
            let record = match plan {
                Plan::NotRun(reason) => TestRecord {
                    tool,
                    test: index,
                    description,
                    status: TestStatus::NotRun,
                    reason: Some(keys::redact(&reason, &all_keys)),
                    http_status: None,
                    has_data: false,
                    working: false,
                    duration_ms: 0,
                    response_bytes: 0,
                    retries: 0,
                    response: Value::Null,
                },
                Plan::Send(at) => classify(
                    tool,
                    index,
                    description,
                    &fetched[at],
                    text_output,
                    &all_keys,
                ),
            };
            result.tests.push(record);
        }
        summarise(result, &tool_order);
    }
    results
}

/// `(tool name, tool, 1-based index, description, user parameters)` for every test.
fn tests_of(
    main: &Value,
) -> impl Iterator<Item = (&str, &Value, usize, String, Map<String, Value>)> {
    main.get("tools")
        .or_else(|| main.get("routes"))
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .flat_map(|(name, tool)| {
            tool.get("tests")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
                .map(move |(i, test)| {
                    let mut params = test.as_object().cloned().unwrap_or_default();
                    let description = params
                        .shift_remove("_description")
                        .and_then(|d| d.as_str().map(str::to_owned))
                        .unwrap_or_default();
                    (name.as_str(), tool, i + 1, description, params)
                })
        })
}

fn handler_block(handlers: Option<&Handlers>, tool: &str) -> Option<String> {
    let handlers = handlers?;
    if !handlers.complete {
        return Some("handler-required: the handlers could not be read statically".into());
    }
    let entry = handlers.tools.iter().find(|t| t.tool == tool)?;
    match (entry.pre_request, entry.execute_request) {
        (_, true) => Some("handler-required: executeRequest replaces the HTTP call".into()),
        (true, _) => Some("handler-required: preRequest changes the request".into()),
        _ => None,
    }
}

fn output_is_text(tool: &Value) -> bool {
    tool.pointer("/output/mimeType")
        .and_then(Value::as_str)
        .is_some_and(|m| m.starts_with("text/"))
}

fn classify(
    tool: String,
    test: usize,
    description: String,
    fetched: &Fetched,
    text_output: bool,
    keys: &HashMap<String, String>,
) -> TestRecord {
    let mut record = TestRecord {
        tool,
        test,
        description,
        status: TestStatus::Failed,
        reason: None,
        http_status: fetched.status,
        has_data: false,
        working: false,
        duration_ms: fetched.duration.as_millis() as u64,
        response_bytes: fetched.body.len() as u64,
        retries: fetched.retries,
        response: Value::Null,
    };
    if let Some(error) = &fetched.error {
        record.reason = Some(keys::redact(error, keys));
        return record;
    }
    let status = fetched.status.unwrap_or(0);
    let parsed =
        std::str::from_utf8(&fetched.body).map(|text| (text, serde_json::from_str::<Value>(text)));
    if status != 200 {
        let phrase = reqwest::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("");
        let after = if fetched.retries > 0 {
            format!(" (after {} retries)", fetched.retries)
        } else {
            String::new()
        };
        record.reason = Some(
            format!("HTTP {status} {phrase}{after}")
                .replace("  ", " ")
                .trim()
                .to_owned(),
        );
        return record;
    }
    match parsed {
        Err(_) => record.reason = Some("response is not UTF-8".into()),
        Ok((_, Ok(value))) => {
            let value = keys::redact_value(value, keys);
            let empty = matches!(&value, Value::Null)
                || value.as_array().is_some_and(Vec::is_empty)
                || value.as_object().is_some_and(Map::is_empty)
                || value.as_str().is_some_and(str::is_empty);
            if empty {
                record.reason = Some(format!(
                    "empty response (`{}`)",
                    crate::hash::js_stringify(&value)
                ));
            } else {
                record.has_data = true;
                record.working = true;
                record.status = TestStatus::Working;
            }
            record.response = keep(value, fetched.body.len());
        }
        Ok((text, Err(_))) if text_output && !text.trim().is_empty() => {
            record.has_data = true;
            record.working = true;
            record.status = TestStatus::Working;
            record.response = keep(Value::String(keys::redact(text, keys)), fetched.body.len());
        }
        Ok((text, Err(_))) if text.trim().is_empty() => {
            record.reason = Some("empty response".into());
        }
        Ok((_, Err(err))) => record.reason = Some(format!("response is not valid JSON: {err}")),
    }
    record
}

fn keep(value: Value, bytes: usize) -> Value {
    if bytes <= MAX_STORED_RESPONSE_BYTES {
        value
    } else {
        json!({ "omitted": format!("response of {bytes} bytes not stored") })
    }
}

fn summarise(result: &mut SchemaPretest, tool_order: &[String]) {
    let mut downloadable = 0;
    for tool in tool_order {
        let tests: Vec<&TestRecord> = result.tests.iter().filter(|t| &t.tool == tool).collect();
        if tests.is_empty() {
            continue; // filtered out by --only
        }
        let working = tests.iter().filter(|t| t.working).count();
        let not_run = tests
            .iter()
            .filter(|t| t.status == TestStatus::NotRun)
            .count();
        let ok = working >= MIN_WORKING_TESTS;
        let reason = (!ok).then(|| {
            let mut reasons: Vec<String> = Vec::new();
            for test in tests.iter().filter(|t| !t.working) {
                if let Some(reason) = &test.reason
                    && !reasons.contains(reason)
                {
                    reasons.push(reason.clone());
                }
            }
            let label = format!("{tool} ({working}/{MIN_WORKING_TESTS})");
            result.tools_below_threshold.push(label.clone());
            if reasons.is_empty() {
                label
            } else {
                format!("{label}: {}", reasons.join("; "))
            }
        });
        if ok {
            downloadable += 1;
        }
        result.per_tool.insert(
            tool.clone(),
            serde_json::to_value(ToolSummary {
                working,
                total: tests.len(),
                not_run,
                status: if ok { "ok" } else { "blocked" },
                reason,
            })
            .unwrap_or_default(),
        );
    }
    result.passed_downloadable = downloadable;
    result.ok = !result.per_tool.is_empty() && result.tools_below_threshold.is_empty();
    result.stop_reason = if result.ok {
        None
    } else if result.offline {
        Some("offline")
    } else if downloadable == 0 {
        Some("no-downloadable-tools")
    } else {
        Some("tools-below-3-working-downloadable-tests")
    };
    if !result.ok && !result.tools_below_threshold.is_empty() {
        result.errors.push(format!(
            "DPT-003: Data-pretest abort: tool(s) below {MIN_WORKING_TESTS} working downloadable tests: {}",
            result.tools_below_threshold.join(", ")
        ));
    }
}

/// Writes `tools/<tool>/tests/test-<N>.json` and `summary.json` for one schema (these hold the
/// latest run and are replaced atomically by the next).
pub fn persist(island: &Island, result: &SchemaPretest) -> Result<(), IslandError> {
    let schema_dir = layout::schema(&result.namespace, &result.schema);
    // One group commit for every record and the summary (two filesystem syncs in all).
    let mut batch = island.batch();
    for record in &result.tests {
        crate::island::names::check_slug("tool name", &record.tool)?;
        let rel = schema_dir
            .join("tools")
            .join(&record.tool)
            .join("tests")
            .join(format!("test-{}.json", record.test));
        batch.stage_replace(
            &rel,
            &pretty(&serde_json::to_value(record).unwrap_or_default()),
        )?;
    }
    let summary = serde_json::to_value(result).unwrap_or_default();
    batch.stage_replace(&schema_dir.join("summary.json"), &pretty(&summary))?;
    batch.commit()?;
    Ok(())
}

fn pretty(value: &Value) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text.into_bytes()
}
