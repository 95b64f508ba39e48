//! The static reader against node: for every fixture module, each non-function export read
//! statically prints exactly as node's `JSON.stringify` printed it (values and key order), and
//! the schema, skill and About hashes equal the ones node computed (fixtures/expected/, made once
//! by fixtures/expected/generate.mjs).

mod support;

use flowmcp_grading::hash::{hash8, js_stringify, schema_hash};
use flowmcp_grading::source::{ExportValue, read_module};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn modules(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            modules(&path, out);
        } else if path.extension().is_some_and(|e| e == "mjs") {
            out.push(path);
        }
    }
}

#[test]
fn every_fixture_module_reads_as_node_prints_it() {
    let providers = support::repo().join("fixtures/providers");
    let mut files = Vec::new();
    modules(&providers, &mut files);
    files.sort();
    assert!(files.len() >= 20, "fixture modules: {}", files.len());
    for file in &files {
        let rel = file
            .strip_prefix(&providers)
            .unwrap()
            .with_extension("json");
        let expected = support::read(&support::repo().join("fixtures/expected").join(&rel));
        let module = read_module(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let exports = expected["exports"].as_object().unwrap();
        for (name, printed) in exports {
            let export = module
                .export(name)
                .unwrap_or_else(|| panic!("{}: export {name} missing", file.display()));
            match &export.value {
                Ok(ExportValue::Json(value)) => assert_eq!(
                    js_stringify(value),
                    printed.as_str().unwrap(),
                    "{}: export {name}",
                    file.display()
                ),
                other => panic!("{}: export {name}: {other:?}", file.display()),
            }
        }
        for name in expected["functionExports"].as_array().unwrap() {
            let export = module.export(name.as_str().unwrap()).unwrap();
            assert!(
                matches!(export.value, Ok(ExportValue::Function { .. })),
                "{}: {name} should be a function",
                file.display()
            );
        }
        if let Some(hash) = expected.get("schemaHash") {
            let main = module.schema_main().unwrap();
            assert_eq!(
                schema_hash(main),
                hash.as_str().unwrap(),
                "{}",
                file.display()
            );
        }
        if let Some(hash) = expected.get("skillHash") {
            let Ok(ExportValue::Json(skill)) = &module.export("skill").unwrap().value else {
                panic!("{}: skill is not static", file.display());
            };
            assert_eq!(hash8(skill), hash.as_str().unwrap(), "{}", file.display());
        }
    }
}

#[test]
fn about_hash_matches_node() {
    let text = std::fs::read_to_string(
        support::repo().join("fixtures/providers/aboutskills/resources/aboutskills-about.md"),
    )
    .unwrap();
    let expected = support::read(
        &support::repo().join("fixtures/expected/aboutskills/resources/aboutskills-about.json"),
    );
    assert_eq!(
        hash8(&json!({ "about": text })),
        expected["aboutHash"].as_str().unwrap()
    );
}

#[test]
fn handlers_are_seen_statically() {
    let dir = support::repo().join("fixtures/providers/handlerstyles");
    let phases = |file: &str| -> Vec<(String, bool, bool, bool)> {
        let module = read_module(&dir.join(file)).unwrap();
        let handlers = module
            .handlers
            .unwrap_or_else(|| panic!("{file}: no handlers"));
        assert!(handlers.complete, "{file}");
        handlers
            .tools
            .iter()
            .map(|t| {
                (
                    t.tool.clone(),
                    t.pre_request,
                    t.execute_request,
                    t.post_request,
                )
            })
            .collect()
    };
    assert!(
        phases("tokens.mjs").iter().all(|t| t.1),
        "preRequest in tokens"
    );
    assert!(
        phases("candles.mjs").iter().any(|t| t.2),
        "executeRequest in candles"
    );
    assert!(
        phases("wallets.mjs").iter().all(|t| t.3),
        "postRequest in wallets"
    );
    let candles = read_module(&dir.join("candles.mjs")).unwrap();
    assert!(
        !candles.fetch_calls.is_empty(),
        "fetch( inside the candles handler"
    );
    assert!(
        read_module(&dir.join("tokens.mjs"))
            .unwrap()
            .fetch_calls
            .is_empty()
    );
    let _: Option<Value> = None;
}
