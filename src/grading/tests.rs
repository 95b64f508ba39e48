use super::*;
use crate::model::{GraderIdentity, GraderKind, Score, SelectionContext, VetoTrigger};
use crate::timestamp::parse_rfc3339;

fn answer(id: &str, score: Score, weight: f64, det: Determinism, ts: &str) -> GradingAnswer {
    let llm = det == Determinism::NonDeterministic;
    GradingAnswer {
        question_id: id.into(),
        score,
        na_reason: None,
        weight,
        determinism: det,
        grader_identity: GraderIdentity {
            kind: if llm {
                GraderKind::Llm
            } else {
                GraderKind::Script
            },
            name: "t".into(),
            version: "1".into(),
        },
        llm_model: llm.then(|| "claude-opus-4-7".into()),
        selection_context: llm.then(|| SelectionContext {
            group_id: "g".into(),
            persona_ids: vec!["schema-maintainer".into()],
            domain_doc_id: None,
        }),
        timestamp: ts.into(),
        evidence: None,
        reasoning: None,
    }
}

/// (tier, answers, aggregate, rawGrade)
type ComputeCase = (
    Tier,
    Vec<GradingAnswer>,
    Option<AggregateGrade>,
    Option<Grade>,
);
/// (history, current hash, blocked reason, status)
type StatusCase = (
    Vec<EntryFacts>,
    Option<&'static str>,
    Option<&'static str>,
    NodeStatus,
);

const T0: &str = "2026-05-29T10:00:00Z";
const T1: &str = "2026-05-30T10:00:00Z";

fn llm(id: &str, score: Score) -> GradingAnswer {
    answer(id, score, 1.0, Determinism::NonDeterministic, T0)
}

fn det(id: &str, score: Score) -> GradingAnswer {
    answer(id, score, 1.0, Determinism::Deterministic, T0)
}

#[test]
fn bands_at_every_bound() {
    let cases = [
        (5.0, Grade::A),
        (4.5, Grade::A),
        (4.499, Grade::B),
        (3.5, Grade::B),
        (3.49, Grade::C),
        (2.5, Grade::C),
        (2.4999, Grade::D),
        (1.5, Grade::D),
        (1.49, Grade::F),
        (1.0, Grade::F),
    ];
    for (mean, grade) in cases {
        assert_eq!(band(mean), grade, "{mean}");
    }
    let noisy = (0.34 * 4.5 + 0.33 * 4.5 + 0.33 * 4.5) / (0.34 + 0.33 + 0.33);
    assert_eq!(band(noisy), Grade::A, "float noise on the bound");
}

#[test]
fn tier_trim_and_group_bound_rule() {
    assert_eq!(trim(Grade::A, Tier::Autonomous), Grade::B);
    assert_eq!(trim(Grade::A, Tier::GroupBound), Grade::A);
    assert_eq!(trim(Grade::C, Tier::Autonomous), Grade::C);
    assert_eq!(
        cap_without_group_bound(Grade::A, [Tier::Autonomous, Tier::Autonomous]),
        Grade::B
    );
    assert_eq!(
        cap_without_group_bound(Grade::A, [Tier::Autonomous, Tier::GroupBound]),
        Grade::A
    );
    assert_eq!(cap_without_group_bound(Grade::C, []), Grade::C);
}

#[test]
fn compute_table() {
    use Score::*;
    let l = AggregateGrade::Letter;
    // (tier, answers, aggregate, raw)
    let cases: Vec<ComputeCase> = vec![
        // the spec's autonomous example: pass, 4.5, 4.0 → 4.5 → A, trimmed to B
        (
            Tier::Autonomous,
            vec![
                det("Q-a", Pass),
                det("Q-b", Number(4.5)),
                llm("Q-c", Number(4.0)),
            ],
            Some(l(Grade::B)),
            Some(Grade::A),
        ),
        (
            Tier::GroupBound,
            vec![
                det("Q-a", Pass),
                det("Q-b", Number(4.5)),
                llm("Q-c", Number(4.0)),
            ],
            Some(l(Grade::A)),
            Some(Grade::A),
        ),
        (
            Tier::Autonomous,
            vec![llm("Q-a", Number(3.0)), det("Q-b", Fail)],
            Some(l(Grade::D)),
            Some(Grade::D),
        ),
        (
            Tier::Autonomous,
            vec![llm("Q-a", Number(1.2))],
            Some(l(Grade::F)),
            Some(Grade::F),
        ),
        // n/a never counts as a number
        (
            Tier::Autonomous,
            vec![llm("Q-a", Number(4.0)), det("Q-b", NotApplicable)],
            Some(l(Grade::B)),
            Some(Grade::B),
        ),
        // nothing scorable: no grade, never F
        (
            Tier::Autonomous,
            vec![det("Q-a", NotApplicable), det("Q-b", Stale)],
            None,
            None,
        ),
    ];
    for (i, (tier, answers, aggregate, raw)) in cases.into_iter().enumerate() {
        let out = compute(tier, None, &answers);
        assert_eq!((out.aggregate, out.raw_grade), (aggregate, raw), "case {i}");
    }
}

#[test]
fn weights_shift_the_mean() {
    let answers = vec![
        answer(
            "Q-a",
            Score::Number(5.0),
            0.75,
            Determinism::NonDeterministic,
            T0,
        ),
        answer(
            "Q-b",
            Score::Number(1.0),
            0.25,
            Determinism::NonDeterministic,
            T0,
        ),
    ];
    let out = compute(Tier::Autonomous, None, &answers);
    assert_eq!(out.normalized_score, Some(4.0));
    assert_eq!(out.aggregate, Some(AggregateGrade::Letter(Grade::B)));
}

#[test]
fn veto_short_circuits() {
    let veto = CategoricalVeto {
        triggered_by: VetoTrigger::ApiKeyDomainMismatch,
        grader_identity: GraderIdentity {
            kind: GraderKind::Script,
            name: "checker".into(),
            version: "1".into(),
        },
        evidence: "FACEBOOK_API_KEY for example.xyz".into(),
        reasoning: None,
        timestamp: T0.into(),
    };
    let out = compute(
        Tier::Autonomous,
        Some(&veto),
        &[llm("Q-a", Score::Number(5.0))],
    );
    assert_eq!(out.aggregate, Some(AggregateGrade::Rejected));
    assert_eq!(out.normalized_score, None);
}

#[test]
fn min_llm_warning() {
    let out = compute(Tier::Autonomous, None, &[det("Q-a", Score::Pass)]);
    assert_eq!(out.warnings, vec![GradingWarning::NoLlmAnswer(Grade::B)]);
    assert_eq!(out.warnings[0].code(), "GRD-WARN-002");
    let out = compute(Tier::Autonomous, None, &[det("Q-a", Score::Fail)]);
    assert!(out.warnings.is_empty(), "no warning below B");
    let out = compute(
        Tier::Autonomous,
        None,
        &[det("Q-a", Score::Pass), llm("Q-b", Score::Number(4.0))],
    );
    assert!(out.warnings.is_empty());
}

#[test]
fn stale_is_excluded_with_a_warning() {
    let out = compute(
        Tier::Autonomous,
        None,
        &[llm("Q-a", Score::Number(2.0)), det("Q-b", Score::Stale)],
    );
    assert_eq!(out.aggregate, Some(AggregateGrade::Letter(Grade::D)));
    assert_eq!(out.warnings, vec![GradingWarning::StaleExcluded(1)]);
}

#[test]
fn newest_answer_per_question_wins() {
    let answers = vec![
        answer(
            "Q-a",
            Score::Number(1.0),
            1.0,
            Determinism::NonDeterministic,
            T1,
        ),
        answer(
            "Q-a",
            Score::Number(5.0),
            1.0,
            Determinism::NonDeterministic,
            T0,
        ),
        answer(
            "Q-b",
            Score::Number(2.0),
            1.0,
            Determinism::NonDeterministic,
            T0,
        ),
        answer(
            "Q-b",
            Score::Number(4.0),
            1.0,
            Determinism::NonDeterministic,
            T0,
        ),
    ];
    let kept: Vec<_> = newest_per_question(&answers)
        .into_iter()
        .map(|a| a.score)
        .collect();
    assert_eq!(kept, vec![Score::Number(1.0), Score::Number(4.0)]);
    let out = compute(Tier::Autonomous, None, &answers);
    assert_eq!(out.normalized_score, Some(2.5));
}

fn facts(day: u32, mode: GradingMode, grade: &str, hash: &str) -> EntryFacts {
    EntryFacts {
        at: parse_rfc3339(&format!("2026-06-{day:02}T00:00:00Z")).unwrap(),
        mode,
        aggregate: grade.parse().unwrap(),
        schema_hash: hash.into(),
    }
}

#[test]
fn history_rules() {
    use GradingMode::*;
    assert!(check_history(&[facts(1, Full, "B", "h"), facts(2, Partial, "B", "h")]).is_empty());
    let errs = check_history(&[facts(2, Full, "B", "h"), facts(1, Partial, "C", "h")]);
    assert_eq!(errs[0].code(), "PRT-003");
    let errs = check_history(&[facts(1, Full, "B", "h"), facts(2, Partial, "C", "h")]);
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].code(), "PRT-004");
}

#[test]
fn node_status_table() {
    use GradingMode::*;
    use NodeStatus::*;
    let cases: Vec<StatusCase> = vec![
        (vec![], Some("h"), None, Pending),
        (vec![facts(1, Full, "B", "h")], Some("h"), None, Stable),
        (vec![facts(1, Full, "A", "h")], Some("h"), None, Stable),
        (vec![facts(1, Full, "C", "h")], Some("h"), None, Graded),
        (vec![facts(1, Full, "F", "h")], Some("h"), None, Graded),
        // partial gradings never change the status
        (
            vec![facts(1, Full, "C", "h"), facts(2, Partial, "B", "h")],
            Some("h"),
            None,
            Graded,
        ),
        (vec![facts(1, Partial, "B", "h")], Some("h"), None, Pending),
        // hash change invalidates
        (vec![facts(1, Full, "B", "h")], Some("other"), None, Pending),
        // blocked
        (
            vec![facts(1, Full, "B", "h")],
            Some("h"),
            Some("getThing (1/3)"),
            Blocked,
        ),
        // veto is terminal, even when blocked or partially re-graded
        (
            vec![facts(1, Full, "REJECTED", "h")],
            Some("h"),
            Some("x"),
            Rejected,
        ),
        (
            vec![facts(1, Full, "REJECTED", "h"), facts(2, Partial, "B", "h")],
            Some("h"),
            None,
            Rejected,
        ),
        (
            vec![facts(1, Full, "B", "h"), facts(2, Partial, "REJECTED", "h")],
            Some("h"),
            None,
            Rejected,
        ),
        // a fully new evaluation lifts it
        (
            vec![facts(1, Full, "REJECTED", "h"), facts(2, Full, "B", "h")],
            Some("h"),
            None,
            Stable,
        ),
        // full → newer full with a lower grade
        (
            vec![facts(1, Full, "B", "h"), facts(2, Full, "D", "h")],
            Some("h"),
            None,
            Graded,
        ),
    ];
    for (i, (history, hash, blocked, status)) in cases.into_iter().enumerate() {
        let verdict = node_status(&history, hash, blocked);
        assert_eq!(verdict.status, status, "case {i}: {verdict:?}");
    }
    let pending = node_status(&[facts(1, Full, "B", "h")], Some("new"), None);
    assert_eq!(
        pending.reason.as_deref(),
        Some("schema changed, regrade required")
    );
}
