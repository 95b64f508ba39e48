//! The deterministic questions, answered by code with evidence (issue 5 §2), and the
//! deterministic veto candidates. What was not tested is `n/a` with a closed-set reason — never
//! a made-up score.

pub mod keys;

use crate::model::{EnvelopeAnswer, NaReason, Score, VetoTrigger};
use crate::pretest::{TestRecord, TestStatus};
use crate::source::Module;
use keys::{KeyMatch, classify_key, domain_label};
use serde_json::{Value, json};

/// Tools a namespace needs for Q-tools-aggregate-namespace-01. The spec names a "hard
/// threshold" without a number; this project's gradingSystem/1.0.0 sets it here.
pub const MIN_NAMESPACE_TOOLS: usize = 3;

/// A deterministic veto finding with its evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct VetoCandidate {
    pub trigger: VetoTrigger,
    pub evidence: String,
    pub reasoning: String,
}

fn answer(id: &str, score: Score, reasoning: impl Into<String>, evidence: Value) -> EnvelopeAnswer {
    EnvelopeAnswer {
        question_id: id.to_owned(),
        score,
        reasoning: reasoning.into(),
        evidence: Some(evidence),
        na_reason: None,
    }
}

fn not_applicable(id: &str, reason: NaReason, reasoning: impl Into<String>) -> EnvelopeAnswer {
    EnvelopeAnswer {
        question_id: id.to_owned(),
        score: Score::NotApplicable,
        reasoning: reasoning.into(),
        evidence: None,
        na_reason: Some(reason),
    }
}

/// What probing a docs URL gave: an HTTP status (after HEAD, then GET when HEAD was not 200),
/// or a transport error; `None` when it was not probed (offline).
pub type UrlProbe = Result<u16, String>;

/// Q-single-test-01: the first `main.docs` URL answers HTTP 200.
pub fn docs_url(main: &Value, probe: Option<&UrlProbe>) -> EnvelopeAnswer {
    const ID: &str = "Q-single-test-01";
    let Some(url) = first_docs_url(main) else {
        return answer(
            ID,
            Score::Fail,
            "the schema declares no docs URL",
            json!({"docs": main.get("docs")}),
        );
    };
    match probe {
        None => not_applicable(
            ID,
            NaReason::BlockedByPrecondition,
            format!("the docs URL {url} was not probed (offline)"),
        ),
        Some(Ok(200)) => answer(
            ID,
            Score::Pass,
            format!("{url} answered HTTP 200"),
            json!({"url": url, "status": 200}),
        ),
        Some(Ok(status)) => answer(
            ID,
            Score::Fail,
            format!("{url} answered HTTP {status}, not 200"),
            json!({"url": url, "status": status}),
        ),
        Some(Err(error)) => answer(
            ID,
            Score::Fail,
            format!("{url} is not reachable: {error}"),
            json!({"url": url, "error": error}),
        ),
    }
}

/// The URL Q-single-test-01 probes: the first http(s) entry of `main.docs`.
pub fn first_docs_url(main: &Value) -> Option<&str> {
    main.get("docs")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .find(|u| u.starts_with("http://") || u.starts_with("https://"))
}

/// Q-single-test-02: every working pretest response of the tool validates against its declared
/// `output.schema`.
pub fn output_schema_match(tool: &Value, records: &[TestRecord]) -> EnvelopeAnswer {
    const ID: &str = "Q-single-test-02";
    let Some(schema) = tool.pointer("/output/schema").filter(|s| s.is_object()) else {
        return not_applicable(
            ID,
            NaReason::NotApplicableToToolType,
            "the tool declares no output schema",
        );
    };
    let working: Vec<&TestRecord> = records
        .iter()
        .filter(|r| r.status == TestStatus::Working && !r.response.is_null())
        .collect();
    if working.is_empty() {
        return not_applicable(
            ID,
            NaReason::BlockedByPrecondition,
            "no working pretest response to compare with (offline, not run, or every test failed)",
        );
    }
    let validator = match jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
    {
        Ok(validator) => validator,
        Err(err) => {
            return answer(
                ID,
                Score::Fail,
                format!("the declared output schema is not a usable JSON Schema: {err}"),
                json!({"schemaError": err.to_string()}),
            );
        }
    };
    let mut mismatches = Vec::new();
    for record in &working {
        if let Some(error) = validator.iter_errors(&record.response).next() {
            mismatches.push(json!({
                "test": record.test,
                "pointer": error.instance_path().to_string(),
                "error": error.to_string(),
            }));
        }
    }
    if mismatches.is_empty() {
        answer(
            ID,
            Score::Pass,
            format!(
                "all {} working responses validate against the declared output schema",
                working.len()
            ),
            json!({"validated": working.iter().map(|r| r.test).collect::<Vec<_>>()}),
        )
    } else {
        answer(
            ID,
            Score::Fail,
            format!(
                "{} of {} working responses do not match the declared output schema",
                mismatches.len(),
                working.len()
            ),
            json!({"mismatches": mismatches}),
        )
    }
}

/// Q-single-test-03 plus the `api-key-domain-mismatch` veto candidate.
pub fn api_key_domain(main: &Value) -> (EnvelopeAnswer, Option<VetoCandidate>) {
    const ID: &str = "Q-single-test-03";
    let keys: Vec<&str> = main
        .get("requiredServerParams")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if keys.is_empty() {
        return (
            not_applicable(
                ID,
                NaReason::NotApplicableToToolType,
                "the schema needs no API key",
            ),
            None,
        );
    }
    let root = main.get("root").and_then(Value::as_str).unwrap_or("");
    let namespace = main.get("namespace").and_then(Value::as_str).unwrap_or("");
    let label = domain_label(root);
    let mut mismatched = Vec::new();
    let mut veto = None;
    for key in &keys {
        match classify_key(key, label.as_deref(), namespace) {
            KeyMatch::Matches | KeyMatch::Generic => {}
            KeyMatch::NoMatch { tokens } => mismatched.push(json!({"key": key, "tokens": tokens})),
            KeyMatch::OtherProvider { token, domains } => {
                mismatched.push(json!({"key": key, "provider": token, "providerDomains": domains}));
                veto.get_or_insert(VetoCandidate {
                    trigger: VetoTrigger::ApiKeyDomainMismatch,
                    evidence: format!(
                        "requiredServerParams `{key}` names the provider `{token}` ({}) but the API root's domain label is `{}` (alias table {})",
                        domains.join(", "),
                        label.as_deref().unwrap_or("unknown"),
                        keys::ALIAS_TABLE_VERSION
                    ),
                    reasoning: "a key of another known provider would be sent to this API".into(),
                });
            }
        }
    }
    let evidence = json!({
        "keys": keys,
        "domainLabel": label,
        "aliasTable": keys::ALIAS_TABLE_VERSION,
        "mismatched": mismatched,
    });
    let result = if mismatched.is_empty() {
        answer(
            ID,
            Score::Pass,
            "every API-key name fits the API's domain or is generic",
            evidence,
        )
    } else {
        answer(
            ID,
            Score::Fail,
            format!(
                "{} API-key name(s) do not fit the API's domain",
                mismatched.len()
            ),
            evidence,
        )
    };
    (result, veto)
}

/// Q-tools-aggregate-schema-01: tool names are unique within the schema (also ignoring case:
/// `getPrice` and `getprice` confuse agents as much as a duplicate).
pub fn unique_tool_names(main: &Value) -> EnvelopeAnswer {
    const ID: &str = "Q-tools-aggregate-schema-01";
    let names: Vec<&str> = main
        .get("tools")
        .or_else(|| main.get("routes"))
        .and_then(Value::as_object)
        .map(|tools| tools.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let mut seen = std::collections::BTreeMap::new();
    let mut clashes = Vec::new();
    for name in &names {
        if let Some(previous) = seen.insert(name.to_ascii_lowercase(), *name) {
            clashes.push(json!([previous, name]));
        }
    }
    if clashes.is_empty() {
        answer(
            ID,
            Score::Pass,
            format!("all {} tool names are unique", names.len()),
            json!({"tools": names}),
        )
    } else {
        answer(
            ID,
            Score::Fail,
            "tool names clash (ignoring case)",
            json!({"clashes": clashes}),
        )
    }
}

/// Q-tools-aggregate-namespace-01: the namespace has at least `MIN_NAMESPACE_TOOLS` tools.
pub fn namespace_tool_count(total: usize) -> EnvelopeAnswer {
    const ID: &str = "Q-tools-aggregate-namespace-01";
    let evidence = json!({"tools": total, "threshold": MIN_NAMESPACE_TOOLS});
    if total >= MIN_NAMESPACE_TOOLS {
        answer(
            ID,
            Score::Pass,
            format!("{total} tools reach the threshold of {MIN_NAMESPACE_TOOLS}"),
            evidence,
        )
    } else {
        answer(
            ID,
            Score::Fail,
            format!("{total} tools are below the threshold of {MIN_NAMESPACE_TOOLS}"),
            evidence,
        )
    }
}

/// Q-about-namespace-01 (and Q-about-selection-01): an About is declared and its markdown was
/// imported. `declared`: the schema declares `resources.about`; `file`: the newest imported text.
pub fn about_present(id: &str, declared: bool, file: Option<&std::path::Path>) -> EnvelopeAnswer {
    match (declared, file) {
        (_, Some(path)) => answer(
            id,
            Score::Pass,
            "the About resource is declared and its markdown is imported",
            json!({"file": path}),
        ),
        (true, None) => answer(
            id,
            Score::Fail,
            "an About resource is declared but no markdown text was found",
            json!({"file": null}),
        ),
        (false, None) => not_applicable(
            id,
            NaReason::OutOfScopeResource,
            "no About resource is declared",
        ),
    }
}

/// `malicious-module` candidates of one schema module: any import, and `fetch(` calls (spec 4.3
/// forbids network access from handlers). Evidence names the file and line:col.
pub fn module_veto_candidates(module: &Module) -> Vec<VetoCandidate> {
    let file = module.path.display();
    let mut out: Vec<VetoCandidate> = module
        .imports
        .iter()
        .map(|import| VetoCandidate {
            trigger: VetoTrigger::MaliciousModule,
            evidence: format!(
                "{file}:{}:{}: imports `{}`",
                import.span.line, import.span.col, import.source
            ),
            reasoning: "FlowMCP v4 schema modules must not import anything".into(),
        })
        .collect();
    out.extend(module.fetch_calls.iter().map(|span| VetoCandidate {
        trigger: VetoTrigger::MaliciousModule,
        evidence: format!("{file}:{}:{}: calls fetch(", span.line, span.col),
        reasoning: "handlers must not make their own network calls (FlowMCP 4.3)".into(),
    }));
    out
}

#[cfg(test)]
mod tests;
