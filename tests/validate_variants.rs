//! Every broken variant of the valid fixtures fails with its expected code; the valid ones pass.

mod support;

use flowmcp_grading::validate::{Kind, validate_value};

fn error_codes(value: &serde_json::Value) -> Vec<&'static str> {
    let (_, diagnostics) = validate_value(value, Some(Kind::Entry));
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect()
}

#[test]
fn valid_fixtures_have_no_errors() {
    let entries = support::valid_entries();
    assert!(entries.len() >= 5);
    for (name, value) in entries {
        let (kind, diagnostics) = validate_value(&value, None);
        assert_eq!(kind, Some(Kind::Entry), "{name}");
        let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
}

#[test]
fn broken_variants_fail_with_their_code() {
    let variants = support::broken_variants();
    assert!(variants.len() >= 25, "at least 25 broken variants");
    let mut failures = Vec::new();
    for variant in &variants {
        let codes = error_codes(&variant.value);
        if !codes.contains(&variant.code) {
            failures.push(format!(
                "{}: expected {}, got {codes:?}",
                variant.name, variant.code
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_error_names_a_pointer_and_a_fix() {
    for variant in support::broken_variants() {
        let (_, diagnostics) = validate_value(&variant.value, Some(Kind::Entry));
        for d in diagnostics {
            assert!(d.pointer.is_some(), "{}: {d:?}", variant.name);
            assert!(!d.fix.is_empty(), "{}: {d:?}", variant.name);
        }
    }
}

#[test]
fn one_wrong_field_gives_one_error() {
    // a precise report: these variants break exactly one rule
    for name in [
        "unknown area",
        "score 5.5",
        "zero weight",
        "missing veto evidence",
    ] {
        let variant = support::broken_variants()
            .into_iter()
            .find(|v| v.name == name)
            .unwrap();
        let codes = error_codes(&variant.value);
        assert_eq!(codes, vec![variant.code], "{name}");
    }
}
