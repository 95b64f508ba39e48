use super::*;
use serde_json::json;

#[test]
fn kind_is_told_apart_by_shape() {
    let detect_of = |v: Value| detect(v.as_object().unwrap());
    assert_eq!(detect_of(json!({"gradings": []})), Some(Kind::Entry));
    assert_eq!(detect_of(json!({"aggregateGrade": "B"})), Some(Kind::Entry));
    assert_eq!(detect_of(json!({"answers": []})), Some(Kind::Envelope));
    assert_eq!(
        detect_of(json!({"blocker": "x", "reason": "y"})),
        Some(Kind::Envelope)
    );
    assert_eq!(detect_of(json!({"hello": 1})), None);
}

#[test]
fn non_objects_and_unknown_shapes_are_reported_at_the_root() {
    for value in [json!([1]), json!("x"), json!(null), json!(3)] {
        let (_, diagnostics) = validate_value(&value, None);
        assert_eq!(diagnostics[0].code, "VAL-001");
        assert_eq!(diagnostics[0].pointer.as_deref(), Some(""));
    }
    let (kind, diagnostics) = validate_value(&json!({"x": 1}), None);
    assert_eq!((kind, diagnostics[0].code), (None, "VAL-002"));
}

#[test]
fn dedupe_keeps_one_per_code_and_pointer() {
    let d = |code, at: &str| Diagnostic::error(code, "m", "f").at(at);
    let kept = dedupe(vec![
        d("A-001", "/x"),
        d("A-001", "/x"),
        d("A-001", "/y"),
        d("B-001", "/x"),
    ]);
    assert_eq!(kept.len(), 3);
}

#[test]
fn a_blocker_is_a_valid_envelope() {
    let (kind, diagnostics) =
        validate_value(&json!({"blocker": "a.md", "reason": "unreadable"}), None);
    assert_eq!(kind, Some(Kind::Envelope));
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let (_, diagnostics) = validate_value(&json!({"blocker": "", "reason": "x"}), None);
    assert!(diagnostics.iter().any(Diagnostic::is_error));
}
