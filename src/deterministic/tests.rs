use super::*;
use crate::model::NaReason::*;
use serde_json::json;

fn record(test: usize, status: TestStatus, response: Value) -> TestRecord {
    TestRecord {
        tool: "t".into(),
        test,
        description: String::new(),
        status,
        reason: None,
        http_status: Some(200),
        has_data: status == TestStatus::Working,
        working: status == TestStatus::Working,
        duration_ms: 1,
        response_bytes: 1,
        retries: 0,
        response,
    }
}

/// (answer, expected score, expected n/a reason)
fn check(answer: &EnvelopeAnswer, score: Score, na: Option<NaReason>) {
    assert_eq!(answer.score, score, "{answer:?}");
    assert_eq!(answer.na_reason, na, "{answer:?}");
    assert!(!answer.reasoning.is_empty());
    assert_eq!(answer.na_reason.is_some(), score == Score::NotApplicable);
}

#[test]
fn docs_url_table() {
    let main = json!({"docs": ["ftp://no", "https://docs.example/api"]});
    let ok: UrlProbe = Ok(200);
    let moved: UrlProbe = Ok(404);
    let down: UrlProbe = Err("connection failed".into());
    check(&docs_url(&main, Some(&ok)), Score::Pass, None);
    check(&docs_url(&main, Some(&moved)), Score::Fail, None);
    check(&docs_url(&main, Some(&down)), Score::Fail, None);
    check(
        &docs_url(&json!({"docs": []}), Some(&ok)),
        Score::Fail,
        None,
    );
    check(
        &docs_url(&main, None),
        Score::NotApplicable,
        Some(BlockedByPrecondition),
    );
    assert_eq!(first_docs_url(&main), Some("https://docs.example/api"));
}

#[test]
fn output_schema_table() {
    let tool = json!({"output": {"mimeType": "application/json", "schema": {
        "type": "object", "properties": {"items": {"type": "array"}}, "required": ["items"]}}});
    let good = record(1, TestStatus::Working, json!({"items": [1]}));
    let bad = record(2, TestStatus::Working, json!({"items": "no"}));
    let failed = record(3, TestStatus::Failed, Value::Null);
    check(
        &output_schema_match(&tool, std::slice::from_ref(&good)),
        Score::Pass,
        None,
    );
    let mismatch = output_schema_match(&tool, &[good.clone(), bad]);
    check(&mismatch, Score::Fail, None);
    assert!(mismatch.evidence.unwrap().to_string().contains("/items"));
    check(
        &output_schema_match(&tool, &[failed]),
        Score::NotApplicable,
        Some(BlockedByPrecondition),
    );
    check(
        &output_schema_match(&json!({}), &[good]),
        Score::NotApplicable,
        Some(NotApplicableToToolType),
    );
}

#[test]
fn api_key_domain_table() {
    let (a, veto) = api_key_domain(
        &json!({"root": "https://api.etherscan.io/api", "namespace": "etherscan", "requiredServerParams": ["ETHERSCAN_API_KEY"]}),
    );
    check(&a, Score::Pass, None);
    assert!(veto.is_none());
    let (a, veto) = api_key_domain(
        &json!({"root": "https://api.acme.example", "namespace": "acme", "requiredServerParams": ["ZORG_TOKEN"]}),
    );
    check(&a, Score::Fail, None);
    assert!(veto.is_none(), "an unknown name fails without a veto");
    let (a, veto) = api_key_domain(
        &json!({"root": "https://mainnet.infura.io/v3", "namespace": "infura", "requiredServerParams": ["ETHERSCAN_API_KEY"]}),
    );
    check(&a, Score::Fail, None);
    let veto = veto.expect("a key of another known provider is a veto candidate");
    assert_eq!(veto.trigger, VetoTrigger::ApiKeyDomainMismatch);
    assert!(veto.evidence.contains("ETHERSCAN_API_KEY") && veto.evidence.contains("infura"));
    let (a, _) = api_key_domain(&json!({"root": "https://x.example"}));
    check(&a, Score::NotApplicable, Some(NotApplicableToToolType));
}

#[test]
fn unique_names_and_tool_count_tables() {
    check(
        &unique_tool_names(&json!({"tools": {"getA": {}, "getB": {}}})),
        Score::Pass,
        None,
    );
    check(
        &unique_tool_names(&json!({"tools": {"getPrice": {}, "getprice": {}}})),
        Score::Fail,
        None,
    );
    check(
        &namespace_tool_count(MIN_NAMESPACE_TOOLS),
        Score::Pass,
        None,
    );
    check(
        &namespace_tool_count(MIN_NAMESPACE_TOOLS - 1),
        Score::Fail,
        None,
    );
}

#[test]
fn about_table() {
    let path = std::path::Path::new("/island/x-about--2026-01-01T00-00-00Z--aaaaaaaa.md");
    check(
        &about_present("Q-about-namespace-01", true, Some(path)),
        Score::Pass,
        None,
    );
    check(
        &about_present("Q-about-namespace-01", true, None),
        Score::Fail,
        None,
    );
    check(
        &about_present("Q-about-namespace-01", false, None),
        Score::NotApplicable,
        Some(OutOfScopeResource),
    );
}

#[test]
fn module_veto_candidates_name_file_and_position() {
    let module = crate::source::parse_module(
        std::path::Path::new("m.mjs"),
        "import x from 'y';\nexport const main = {};\nexport const handlers = () => ({ t: { executeRequest: async () => fetch('https://e') } });\n",
    )
    .unwrap();
    let found = module_veto_candidates(&module);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found
            .iter()
            .all(|v| v.trigger == VetoTrigger::MaliciousModule)
    );
    assert!(
        found[0].evidence.starts_with("m.mjs:1:1"),
        "{}",
        found[0].evidence
    );
    assert!(
        found[1].evidence.contains("m.mjs:3:"),
        "{}",
        found[1].evidence
    );
    let clean =
        crate::source::parse_module(std::path::Path::new("c.mjs"), "export const main = {};")
            .unwrap();
    assert!(module_veto_candidates(&clean).is_empty());
}
