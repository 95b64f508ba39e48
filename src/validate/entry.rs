//! Grading-entry rules beyond the schema.

use super::schema_codes::{Doc, diagnose};
use super::{coded_at, dedupe};
use crate::diagnostic::{Diagnostic, pointer_push};
use crate::grading::{GradingError, compute_entry};
use crate::model::{AggregateGrade, GradingEntry, GradingMode, Score};
use crate::timestamp::parse_file_ts;
use crate::{schemas, scoring, veto};
use serde::Deserialize;
use serde_json::Value;

/// Every error and warning for one grading entry.
pub fn check(value: &Value) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for err in schemas::grading_entry().iter_errors(value) {
        diagnose(&err, Doc::Entry, &mut out);
    }
    if let Ok(entry) = GradingEntry::deserialize(value) {
        rules(&entry, &mut out);
    }
    dedupe(out)
}

fn rules(entry: &GradingEntry, out: &mut Vec<Diagnostic>) {
    let spec = entry.area.spec();
    if entry.grading_tier != spec.tier {
        let err = GradingError::TierMismatch {
            tier: entry.grading_tier,
            area: entry.area.to_string(),
            side: match spec.side {
                crate::model::Side::Provider => "provider",
                crate::model::Side::Selection => "selection",
            },
        };
        out.push(coded_at(&err, "/gradingTier".into()));
    }
    grading_id_rules(entry, out);
    for (i, answer) in entry.gradings.iter().enumerate() {
        let at = pointer_push("/gradings", i);
        if let Err(err) = scoring::check_weight(answer.weight) {
            out.push(coded_at(&err, pointer_push(&at, "weight")));
        }
        let reason = answer.na_reason.map(|r| r.as_str());
        if let Err(err) = scoring::check_na(answer.score, reason) {
            out.push(coded_at(&err, pointer_push(&at, "naReason")));
        }
    }
    if let Some(v) = &entry.categorical_veto {
        for err in veto::check(v) {
            let field = match err.code() {
                "VET-003" => "reasoning",
                "VET-004" => "graderIdentity",
                _ => "evidence",
            };
            out.push(coded_at(&err, pointer_push("/categoricalVeto", field)));
        }
    }
    if let Err(err) =
        veto::check_consistency(entry.categorical_veto.as_ref(), entry.aggregate_grade)
    {
        out.push(coded_at(&err, "/aggregateGrade".into()));
    }
    recompute(entry, out);
}

use crate::diagnostic::Coded as _;

fn grading_id_rules(entry: &GradingEntry, out: &mut Vec<Diagnostic>) {
    let Some((hash, ts)) = entry.grading_id.split_once("--") else {
        return; // the schema pattern reports it
    };
    if hash != entry.schema_hash {
        out.push(
            Diagnostic::error(
                "GRD-029",
                format!(
                    "gradingId starts with {hash} but schemaHash is {}",
                    entry.schema_hash
                ),
                "gradingId is <schemaHash>--<timestamp>; use the graded primitive's hash in both",
            )
            .at("/gradingId"),
        );
    }
    if parse_file_ts(ts).is_none() {
        out.push(
            Diagnostic::warning(
                "GRD-WARN-003",
                format!("gradingId timestamp `{ts}` is not YYYY-MM-DDTHH-MM-SSZ"),
                "use the full file-name grammar, e.g. 2026-06-04T10-15-00Z",
            )
            .at("/gradingId"),
        );
    }
}

/// A full entry's aggregateGrade must be what its answers and tier give. A partial entry keeps
/// the last full value, which this file alone cannot tell, so only the veto rule applies to it.
fn recompute(entry: &GradingEntry, out: &mut Vec<Diagnostic>) {
    if entry.grading_mode != GradingMode::Full || entry.categorical_veto.is_some() {
        return;
    }
    if entry
        .gradings
        .iter()
        .any(|a| matches!(a.score, Score::Number(n) if !(1.0..=5.0).contains(&n)))
    {
        return; // a score outside the domain is reported already; a mean over it means nothing
    }
    let outcome = compute_entry(entry);
    for warning in &outcome.warnings {
        out.push(warning.to_diagnostic().at("/gradings"));
    }
    match outcome.aggregate {
        None => out.push(coded_at(&GradingError::NothingScorable, "/gradings".into())),
        Some(computed) if computed != entry.aggregate_grade => {
            if entry.aggregate_grade == AggregateGrade::Rejected {
                return; // reported as VET-005
            }
            let err = GradingError::AggregateMismatch {
                recorded: entry.aggregate_grade.to_string(),
                computed: computed.to_string(),
            };
            out.push(coded_at(&err, "/aggregateGrade".into()));
        }
        Some(_) => {}
    }
}
