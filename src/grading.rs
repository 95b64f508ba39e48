//! Grading (gradingSystem/1.0.0): from scores to a letter. Thresholds, tier trim, the veto
//! short-circuit, newest answer per question, the minimum-LLM and group-bound rules, partial vs
//! full, and the node status derived from a node's history. Pure functions.

use crate::diagnostic::{Coded, Diagnostic};
use crate::model::{
    AggregateGrade, CategoricalVeto, Determinism, Grade, GradingAnswer, GradingEntry, GradingMode,
    NodeStatus, Tier,
};
use crate::scoring::weighted_mean;
use crate::timestamp::parse_rfc3339;
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// Lower bounds of the bands, high to low. A mean at or above the bound gets the letter.
pub const THRESHOLDS: [(f64, Grade); 4] = [
    (4.5, Grade::A),
    (3.5, Grade::B),
    (2.5, Grade::C),
    (1.5, Grade::D),
];

/// Absorbs float noise of weighted sums such as 0.34 + 0.33 + 0.33 so that a mean that is
/// mathematically on a bound gets that bound's letter.
const BAND_EPSILON: f64 = 1e-9;

/// The band of a mean (`rawGrade`), before the tier trim.
pub fn band(mean: f64) -> Grade {
    THRESHOLDS
        .iter()
        .find(|(bound, _)| mean + BAND_EPSILON >= *bound)
        .map_or(Grade::F, |(_, grade)| *grade)
}

/// Caps a grade at the tier's maximum (autonomous B, group-bound A).
pub fn trim(raw: Grade, tier: Tier) -> Grade {
    raw.min(Grade::max_for(tier))
}

/// No A without a group-bound contribution: where several entries roll up into one grade, an A
/// stands only if at least one of them is group-bound.
pub fn cap_without_group_bound(grade: Grade, tiers: impl IntoIterator<Item = Tier>) -> Grade {
    let group_bound = tiers.into_iter().any(|t| t == Tier::GroupBound);
    if group_bound {
        grade
    } else {
        grade.min(Grade::B)
    }
}

/// Keeps the most recent answer per `questionId` (multi-grader rule). Ties keep the later one in
/// the list; an unparseable timestamp counts as oldest.
pub fn newest_per_question(answers: &[GradingAnswer]) -> Vec<&GradingAnswer> {
    let mut newest: HashMap<&str, (usize, Option<DateTime<Utc>>)> = HashMap::new();
    for (i, answer) in answers.iter().enumerate() {
        let at = parse_rfc3339(&answer.timestamp);
        let slot = newest.entry(&answer.question_id).or_insert((i, at));
        if at >= slot.1 {
            *slot = (i, at);
        }
    }
    let mut keep: Vec<usize> = newest.values().map(|(i, _)| *i).collect();
    keep.sort_unstable();
    keep.into_iter().map(|i| &answers[i]).collect()
}

/// Something worth telling that does not make an entry invalid.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GradingWarning {
    #[error(
        "grade {0} rests on deterministic answers only; a grade of B or better should include at least one LLM answer"
    )]
    NoLlmAnswer(Grade),
    #[error("{0} stale answer(s) were excluded from the mean")]
    StaleExcluded(usize),
}

impl GradingWarning {
    pub fn code(&self) -> &'static str {
        match self {
            GradingWarning::NoLlmAnswer(_) => "GRD-WARN-002",
            GradingWarning::StaleExcluded(_) => "SCO-WARN-001",
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        let fix = match self {
            GradingWarning::NoLlmAnswer(_) => {
                "let the harness answer the non-deterministic questions"
            }
            GradingWarning::StaleExcluded(_) => "re-grade the aged questions to count them again",
        };
        Diagnostic::warning(self.code(), self.to_string(), fix)
    }
}

/// What the gradingSystem makes of an entry's answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// `None` when nothing was scorable: no grade, the node stays pending (never F).
    pub aggregate: Option<AggregateGrade>,
    /// The band before the tier trim.
    pub raw_grade: Option<Grade>,
    pub normalized_score: Option<f64>,
    pub warnings: Vec<GradingWarning>,
}

/// Computes the aggregate of one entry's answers.
pub fn compute(tier: Tier, veto: Option<&CategoricalVeto>, answers: &[GradingAnswer]) -> Outcome {
    if veto.is_some() {
        return Outcome {
            aggregate: Some(AggregateGrade::Rejected),
            raw_grade: None,
            normalized_score: None,
            warnings: Vec::new(),
        };
    }
    let current = newest_per_question(answers);
    let mean = weighted_mean(current.iter().map(|a| (a.score, a.weight)));
    let mut warnings = Vec::new();
    if mean.excluded_stale > 0 {
        warnings.push(GradingWarning::StaleExcluded(mean.excluded_stale));
    }
    let Some(value) = mean.value else {
        return Outcome {
            aggregate: None,
            raw_grade: None,
            normalized_score: None,
            warnings,
        };
    };
    let raw = band(value);
    let grade = trim(raw, tier);
    let llm_counted = current
        .iter()
        .any(|a| a.determinism == Determinism::NonDeterministic && a.score.value().is_some());
    if grade.is_stable() && !llm_counted {
        warnings.push(GradingWarning::NoLlmAnswer(grade));
    }
    Outcome {
        aggregate: Some(AggregateGrade::Letter(grade)),
        raw_grade: Some(raw),
        normalized_score: Some(value),
        warnings,
    }
}

/// Computes the aggregate of a whole entry.
pub fn compute_entry(entry: &GradingEntry) -> Outcome {
    compute(
        entry.grading_tier,
        entry.categorical_veto.as_ref(),
        &entry.gradings,
    )
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GradingError {
    #[error("aggregateGrade is {recorded} but the answers and tier give {computed}")]
    AggregateMismatch { recorded: String, computed: String },
    #[error("maxAttainableGrade is {recorded} but tier {tier} allows {expected}")]
    MaxAttainableMismatch {
        recorded: Grade,
        tier: Tier,
        expected: Grade,
    },
    #[error("gradingTier is {tier} but area {area} is on the {side} side")]
    TierMismatch {
        tier: Tier,
        area: String,
        side: &'static str,
    },
    #[error("a full grading needs at least one scorable answer; all are n/a or stale")]
    NothingScorable,
    #[error("the first grading of a node must be full, not partial")]
    FirstNotFull,
    #[error("a partial grading changed aggregateGrade from {from} to {to}")]
    PartialChangedAggregate { from: String, to: String },
}

impl Coded for GradingError {
    fn code(&self) -> &'static str {
        match self {
            GradingError::AggregateMismatch { .. } => "GRD-010",
            GradingError::MaxAttainableMismatch { .. } => "GRD-008",
            GradingError::TierMismatch { .. } => "GRD-027",
            GradingError::NothingScorable => "GRD-028",
            GradingError::FirstNotFull => "PRT-003",
            GradingError::PartialChangedAggregate { .. } => "PRT-004",
        }
    }

    fn fix(&self) -> String {
        match self {
            GradingError::AggregateMismatch { computed, .. } => {
                format!("set aggregateGrade to {computed} (weighted mean, bands, tier trim)")
            }
            GradingError::MaxAttainableMismatch { expected, .. } => {
                format!("set maxAttainableGrade to {expected}")
            }
            GradingError::TierMismatch { .. } => {
                "provider areas are autonomous, selection areas are group-bound".into()
            }
            GradingError::NothingScorable => {
                "answer at least one question with a score, or do not write the entry (the node stays pending)".into()
            }
            GradingError::FirstNotFull => "grade the node in full before any partial grading".into(),
            GradingError::PartialChangedAggregate { from, .. } => {
                format!("a partial grading keeps the last full aggregateGrade ({from})")
            }
        }
    }
}

/// The facts of one entry that the history rules need.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryFacts {
    /// When the entry was written (from its file name or gradingId).
    pub at: DateTime<Utc>,
    pub mode: GradingMode,
    pub aggregate: AggregateGrade,
    pub schema_hash: String,
}

/// Checks a node's history (any order): the first entry is full, and no partial entry changed
/// the aggregate of the last full one.
pub fn check_history(history: &[EntryFacts]) -> Vec<GradingError> {
    let mut sorted: Vec<&EntryFacts> = history.iter().collect();
    sorted.sort_by_key(|e| e.at);
    let mut errors = Vec::new();
    if sorted
        .first()
        .is_some_and(|e| e.mode == GradingMode::Partial)
    {
        errors.push(GradingError::FirstNotFull);
    }
    let mut last_full: Option<AggregateGrade> = None;
    for entry in sorted {
        match (entry.mode, last_full) {
            (GradingMode::Full, _) => last_full = Some(entry.aggregate),
            (GradingMode::Partial, Some(full)) if full != entry.aggregate => {
                errors.push(GradingError::PartialChangedAggregate {
                    from: full.to_string(),
                    to: entry.aggregate.to_string(),
                })
            }
            _ => {}
        }
    }
    errors
}

/// The status of one node and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeVerdict {
    pub status: NodeStatus,
    /// The grade that counts: the newest full grading's (`None` when pending or blocked).
    pub grade: Option<AggregateGrade>,
    pub reason: Option<String>,
}

/// Derives a node's status (spec ch. 21): a veto is terminal until a newer full grading lifts
/// it; a blocker blocks; the newest full grading decides otherwise (A/B stable, C/D/F graded);
/// partial gradings never change it; a changed schema hash invalidates it to pending.
pub fn node_status(
    history: &[EntryFacts],
    current_hash: Option<&str>,
    blocked: Option<&str>,
) -> NodeVerdict {
    let verdict = |status, grade, reason: Option<&str>| NodeVerdict {
        status,
        grade,
        reason: reason.map(str::to_string),
    };
    let deciding = history
        .iter()
        .filter(|e| e.mode == GradingMode::Full || e.aggregate == AggregateGrade::Rejected)
        .max_by_key(|e| e.at);
    if deciding.is_some_and(|e| e.aggregate == AggregateGrade::Rejected) {
        return verdict(
            NodeStatus::Rejected,
            Some(AggregateGrade::Rejected),
            Some("categorical veto"),
        );
    }
    if let Some(reason) = blocked {
        return verdict(NodeStatus::Blocked, None, Some(reason));
    }
    let Some(full) = deciding else {
        return verdict(NodeStatus::Pending, None, Some("not yet graded"));
    };
    if current_hash.is_some_and(|hash| hash != full.schema_hash) {
        return verdict(
            NodeStatus::Pending,
            None,
            Some("schema changed, regrade required"),
        );
    }
    match full.aggregate.letter() {
        Some(grade) if grade.is_stable() => verdict(NodeStatus::Stable, Some(full.aggregate), None),
        _ => verdict(NodeStatus::Graded, Some(full.aggregate), None),
    }
}

#[cfg(test)]
mod tests;
