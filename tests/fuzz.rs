//! Fuzzing with proptest generators (cargo-fuzz needs a nightly toolchain; this machine has only
//! stable): the `.mjs` reader on arbitrary text, on JavaScript token soup and on mutated real
//! modules; the strict JSON reader on arbitrary bytes; the entry validator on mutated valid
//! entries; the scores.json consumer on mutated payloads against a real emit. The property is
//! always: no panic, no hang, a result or a coded error. Crashes found become regression tests in
//! `regressions` below.
//!
//! `cargo test --test fuzz` runs 256 cases per target; the long run is
//! `FLOWMCP_FUZZ_CASES=20000 cargo test --release --test fuzz -- --nocapture`.

mod support;

use flowmcp_grading::json_input::parse_json_bytes;
use flowmcp_grading::source::parse_module;
use flowmcp_grading::validate::{Kind, validate_value};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::OnceLock;

fn cases() -> u32 {
    std::env::var("FLOWMCP_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

const TOKENS: &[&str] = &[
    "export",
    "const",
    "let",
    "var",
    "main",
    "handlers",
    "schema",
    "=",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "...",
    ",",
    ":",
    ";",
    "'a'",
    "\"b\"",
    "`t`",
    "`${x}`",
    "1",
    "-2.5e3",
    "1e400",
    "0x1f",
    "null",
    "true",
    "undefined",
    "JSON.stringify(",
    "function",
    "=>",
    "async",
    "import",
    "from",
    "require(",
    "fetch(",
    "default",
    "as",
    "get",
    "set",
    "x",
    "main.tools",
    "//c\n",
    "/*c*/",
    "\n",
    "\\u0041",
    "'\\",
    "new",
    "class",
    "this",
    "?.",
    "??",
    "+",
    "`",
    "'",
    "\"",
];

/// Real modules to mutate: every fixture provider module.
fn fixture_modules() -> &'static Vec<String> {
    static MODULES: OnceLock<Vec<String>> = OnceLock::new();
    MODULES.get_or_init(|| {
        let mut out = Vec::new();
        let root = support::repo().join("fixtures/providers");
        for dir in std::fs::read_dir(&root).unwrap().flatten() {
            for file in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if file.path().extension().is_some_and(|e| e == "mjs") {
                    out.push(std::fs::read_to_string(file.path()).unwrap());
                }
            }
        }
        out.sort();
        out
    })
}

fn read(text: &str) {
    if let Ok(module) = parse_module(Path::new("fuzz.mjs"), text)
        && let Ok(main) = module.schema_main()
    {
        let _ = serde_json::to_string(main).unwrap();
        let _ = flowmcp_grading::hash::schema_hash(main);
    }
}

/// Every JSON pointer into `value`.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                pointers(
                    v,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                )
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out)
            }
        }
        _ => {}
    }
}

fn odd_value(pick: u8, n: i64) -> Value {
    match pick % 12 {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(n),
        3 => json!(n as f64 / 7.0),
        4 => json!(-1e308),
        5 => json!(""),
        6 => json!("pass"),
        7 => json!("n/a"),
        8 => json!([]),
        9 => json!({}),
        10 => json!("Q-single-test-04"),
        _ => json!("\u{0}\u{202e}../../x\n"),
    }
}

/// Applies edits: (which pointer, what to do, a value seed).
fn mutate(mut value: Value, edits: &[(usize, u8, i64)]) -> Value {
    for &(which, op, seed) in edits {
        let mut all = Vec::new();
        pointers(&value, String::new(), &mut all);
        let at = &all[which % all.len()];
        if at.is_empty() {
            continue;
        }
        let (parent, last) = at.rsplit_once('/').unwrap();
        let replacement = odd_value(op, seed);
        match (op / 12) % 3 {
            0 => {
                if let Some(slot) = value.pointer_mut(at) {
                    *slot = replacement;
                }
            }
            1 => match value.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.shift_remove(&last.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(items)) => {
                    if let Ok(i) = last.parse::<usize>()
                        && i < items.len()
                    {
                        items.remove(i);
                    }
                }
                _ => {}
            },
            _ => {
                if let Some(slot) = value.pointer_mut(at) {
                    let copy = slot.clone();
                    *slot = json!([copy.clone(), copy]);
                }
            }
        }
    }
    value
}

/// A real emit (tinyapi, offline) to consume against: (prompts, state, a complete payload).
fn emitted() -> &'static (Value, Value, Value) {
    static EMIT: OnceLock<(Value, Value, Value)> = OnceLock::new();
    EMIT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let island = dir.path().join("island");
        let bin = assert_cmd::cargo::cargo_bin("flowmcp-grading");
        let run = |args: &[&str]| {
            let out = std::process::Command::new(&bin)
                .env("HOME", "/nonexistent-home-for-tests")
                .arg("--grading-data")
                .arg(&island)
                .args(args)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        let provider = support::repo().join("fixtures/providers/tinyapi");
        run(&["import", provider.to_str().unwrap()]);
        run(&["run", "tinyapi", "--emit-prompts", "--offline"]);
        let read = |name: &str| support::read(&island.join("providers/tinyapi").join(name));
        let prompts = read("prompts.json");
        let payload = support::island::scripted(&prompts, 4.0);
        (prompts, read("state.json"), payload)
    })
}

fn consume(payload: &Value) {
    let (prompts, state, _) = emitted();
    if let Ok(checked) = flowmcp_grading::consume::check(payload, Some(prompts), Some(state)) {
        let previous = |_: flowmcp_grading::model::Area, _: &str| None;
        let ctx = flowmcp_grading::consume::merge::Context {
            namespace: "tinyapi",
            selection: None,
            now: chrono::Utc::now(),
            previous: &previous,
            trigger: flowmcp_grading::model::RegradingTriggerKind::Scheduled,
            reported_issue: None,
            requested_by: None,
        };
        let _ = flowmcp_grading::consume::merge::build_entries(&checked, prompts, &ctx);
    }
}

fn valid_entries() -> &'static Vec<Value> {
    static ENTRIES: OnceLock<Vec<Value>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        support::valid_entries()
            .into_iter()
            .map(|(_, v)| v)
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn mjs_reader_on_arbitrary_text(text in "\\PC{0,300}") {
        read(&text);
    }

    #[test]
    fn mjs_reader_on_token_soup(tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..120)) {
        read(&tokens.join(" "));
        read(&tokens.concat());
    }

    #[test]
    fn mjs_reader_on_mutated_modules(
        pick in any::<usize>(),
        cuts in proptest::collection::vec((any::<usize>(), 0u8..4, proptest::sample::select(TOKENS)), 1..6),
    ) {
        let modules = fixture_modules();
        let mut text = modules[pick % modules.len()].clone();
        for (at, op, token) in cuts {
            let mut at = at % (text.len() + 1);
            while !text.is_char_boundary(at) { at -= 1; }
            match op {
                0 => text.insert_str(at, token),
                1 => text.truncate(at),
                2 => { let end = (at + 7).min(text.len()); if text.is_char_boundary(end) { text.replace_range(at..end, ""); } }
                _ => text.insert_str(at, &"{[".repeat(40)),
            }
        }
        read(&text);
    }

    #[test]
    fn json_reader_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_json_bytes(&bytes);
    }

    #[test]
    fn entry_validator_on_mutated_entries(pick in any::<usize>(), edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<i64>()), 1..8)) {
        let entries = valid_entries();
        let entry = mutate(entries[pick % entries.len()].clone(), &edits);
        let _ = validate_value(&entry, Some(Kind::Entry));
        let _ = validate_value(&entry, None);
    }

    #[test]
    fn consumer_on_mutated_payloads(edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<i64>()), 1..8)) {
        let (_, _, payload) = emitted();
        consume(&mutate(payload.clone(), &edits));
    }
}

/// Inputs that once broke something, kept as plain tests.
mod regressions {
    #[test]
    fn the_unmutated_payload_consumes() {
        let (_, _, payload) = super::emitted();
        super::consume(payload);
    }
}
