//! Scoring (scoringSystem/1.0.0): the score domain, the n/a rule, the numeric mapping into the
//! weighted mean, and aging to `stale`. Pure functions.

use crate::diagnostic::Coded;
use crate::model::{NaReason, Score};
use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

pub use crate::model::score::{SCORE_MAX, SCORE_MIN};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScoringError {
    #[error("score {0} is outside 1.0–5.0")]
    OutOfRange(f64),
    #[error("score `{0}` is not one of pass, fail, stale, n/a")]
    UnknownKeyword(String),
    #[error("score has the wrong type ({0}); it must be a number or a keyword string")]
    WrongType(&'static str),
    #[error("weight {0} must be a positive number")]
    Weight(f64),
    #[error("score is n/a but naReason is missing")]
    NaReasonMissing,
    #[error("naReason `{0}` is not in the closed set")]
    NaReasonUnknown(String),
    #[error("naReason is given but the score is {0}, not n/a")]
    NaReasonWithoutNa(String),
}

impl Coded for ScoringError {
    fn code(&self) -> &'static str {
        match self {
            ScoringError::OutOfRange(_) => "SCO-001",
            ScoringError::UnknownKeyword(_) => "SCO-003",
            ScoringError::Weight(_) => "SCO-004",
            ScoringError::WrongType(_) => "SCO-005",
            ScoringError::NaReasonMissing | ScoringError::NaReasonUnknown(_) => "NA-001",
            ScoringError::NaReasonWithoutNa(_) => "NA-002",
        }
    }

    fn fix(&self) -> String {
        match self {
            ScoringError::OutOfRange(_) => "use a number from 1.0 to 5.0 inclusive".into(),
            ScoringError::UnknownKeyword(_) | ScoringError::WrongType(_) => {
                "use a number 1.0–5.0 or exactly one of \"pass\", \"fail\", \"stale\", \"n/a\""
                    .into()
            }
            ScoringError::Weight(_) => "give every answer a weight greater than 0".into(),
            ScoringError::NaReasonMissing | ScoringError::NaReasonUnknown(_) => {
                format!("set naReason to one of: {}", NaReason::allowed())
            }
            ScoringError::NaReasonWithoutNa(_) => {
                "remove naReason, or set the score to \"n/a\" if the question did not apply".into()
            }
        }
    }
}

/// A number is a valid score iff it is finite and within `[1.0, 5.0]`.
pub fn check_number(n: f64) -> Result<(), ScoringError> {
    if n.is_finite() && (SCORE_MIN..=SCORE_MAX).contains(&n) {
        Ok(())
    } else {
        Err(ScoringError::OutOfRange(n))
    }
}

/// Reads a score from JSON, checking its domain. `"3"` and `"PASS"` are errors.
pub fn parse_score(value: &Value) -> Result<Score, ScoringError> {
    match value {
        Value::Number(n) => {
            let n = n.as_f64().ok_or(ScoringError::WrongType("number"))?;
            check_number(n).map(|()| Score::Number(n))
        }
        Value::String(text) => {
            Score::from_keyword(text).ok_or_else(|| ScoringError::UnknownKeyword(text.clone()))
        }
        Value::Null => Err(ScoringError::WrongType("null")),
        Value::Bool(_) => Err(ScoringError::WrongType("boolean")),
        Value::Array(_) => Err(ScoringError::WrongType("array")),
        Value::Object(_) => Err(ScoringError::WrongType("object")),
    }
}

/// Checks a parsed score's domain (numbers are range-checked).
pub fn check_score(score: Score) -> Result<(), ScoringError> {
    match score {
        Score::Number(n) => check_number(n),
        _ => Ok(()),
    }
}

/// Weights must be finite and greater than 0.
pub fn check_weight(weight: f64) -> Result<(), ScoringError> {
    if weight.is_finite() && weight > 0.0 {
        Ok(())
    } else {
        Err(ScoringError::Weight(weight))
    }
}

/// `n/a` needs a closed-set reason, and only `n/a` may carry one.
pub fn check_na(score: Score, reason: Option<&str>) -> Result<Option<NaReason>, ScoringError> {
    match (score.is_na(), reason) {
        (true, None) => Err(ScoringError::NaReasonMissing),
        (true, Some(text)) => text
            .parse()
            .map(Some)
            .map_err(|_| ScoringError::NaReasonUnknown(text.to_string())),
        (false, Some(_)) => Err(ScoringError::NaReasonWithoutNa(score.to_string())),
        (false, None) => Ok(None),
    }
}

/// The result of folding answers into a weighted mean.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Mean {
    /// `Σ(weight·value) / Σ(weight)` over counted answers; `None` when nothing was counted.
    pub value: Option<f64>,
    pub counted: usize,
    pub excluded_na: usize,
    pub excluded_stale: usize,
}

/// Weighted mean with `pass` = 5 and `fail` = 1; `n/a` and `stale` are excluded from numerator
/// and denominator (never counted as 0). A total weight of 0 gives no mean.
pub fn weighted_mean(answers: impl IntoIterator<Item = (Score, f64)>) -> Mean {
    let mut mean = Mean::default();
    let (mut sum, mut weights) = (0.0, 0.0);
    for (score, weight) in answers {
        match score {
            Score::NotApplicable => mean.excluded_na += 1,
            Score::Stale => mean.excluded_stale += 1,
            scored => {
                if let Some(value) = scored.value() {
                    sum += value * weight;
                    weights += weight;
                    mean.counted += 1;
                }
            }
        }
    }
    if weights > 0.0 {
        mean.value = Some(sum / weights);
    }
    mean
}

/// Aging windows of `#AGING_DEFAULTS` (spec ch. 08 / digest §12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgingDefaults {
    /// `apiAvailability` answers.
    pub api_days: i64,
    /// `tosMatch` and `legalAssessment` answers.
    pub tos_days: i64,
    /// Total retention before an entry is flagged for archival (never deleted).
    pub retention_days: i64,
}

pub const AGING_DEFAULTS: AgingDefaults = AgingDefaults {
    api_days: 14,
    tos_days: 30,
    retention_days: 180,
};

/// Which aging window applies to a question's dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgingClass {
    /// API availability: ages after `api_days`.
    Api,
    /// Terms of Service and legal assessment: ages after `tos_days`.
    Tos,
    /// Time-independent (description, formatting, structure): never ages.
    Timeless,
}

/// The score an answer has at `now`: `stale` once its window has passed, never `fail`.
/// `n/a` and `stale` stay as they are.
pub fn age_score(
    score: Score,
    class: AgingClass,
    answered_at: DateTime<Utc>,
    now: DateTime<Utc>,
    defaults: &AgingDefaults,
) -> Score {
    let window = match class {
        AgingClass::Api => defaults.api_days,
        AgingClass::Tos => defaults.tos_days,
        AgingClass::Timeless => return score,
    };
    let expired = now - answered_at > Duration::days(window);
    match score {
        Score::NotApplicable | Score::Stale => score,
        _ if expired => Score::Stale,
        _ => score,
    }
}

/// True when an answer is older than the retention window (`GRD-WARN-001`).
pub fn retention_exceeded(
    answered_at: DateTime<Utc>,
    now: DateTime<Utc>,
    defaults: &AgingDefaults,
) -> bool {
    now - answered_at > Duration::days(defaults.retention_days)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timestamp::parse_rfc3339;
    use serde_json::json;

    #[test]
    fn score_domain_table() {
        let cases = [
            (json!(1), Ok(Score::Number(1.0))),
            (json!(5.0), Ok(Score::Number(5.0))),
            (json!(3.25), Ok(Score::Number(3.25))),
            (json!("pass"), Ok(Score::Pass)),
            (json!("n/a"), Ok(Score::NotApplicable)),
            (json!(0), Err("SCO-001")),
            (json!(0.999), Err("SCO-001")),
            (json!(5.0000001), Err("SCO-001")),
            (json!(5.5), Err("SCO-001")),
            (json!(-0.0), Err("SCO-001")),
            (json!("3"), Err("SCO-003")),
            (json!("3.0"), Err("SCO-003")),
            (json!("PASS"), Err("SCO-003")),
            (json!(null), Err("SCO-005")),
            (json!(true), Err("SCO-005")),
            (json!([4]), Err("SCO-005")),
        ];
        for (input, expected) in cases {
            let got = parse_score(&input).map_err(|e| e.code());
            assert_eq!(got, expected, "{input}");
        }
    }

    #[test]
    fn weights_must_be_positive() {
        assert!(check_weight(0.25).is_ok());
        for bad in [0.0, -0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(check_weight(bad).unwrap_err().code(), "SCO-004", "{bad}");
        }
    }

    #[test]
    fn na_reason_iff_na() {
        let na = Score::NotApplicable;
        assert_eq!(
            check_na(na, Some("blocked-by-precondition")),
            Ok(Some(NaReason::BlockedByPrecondition))
        );
        assert_eq!(check_na(na, None).unwrap_err().code(), "NA-001");
        assert_eq!(check_na(na, Some("no data")).unwrap_err().code(), "NA-001");
        assert_eq!(
            check_na(Score::Pass, Some("requires-private-data"))
                .unwrap_err()
                .code(),
            "NA-002"
        );
        assert_eq!(check_na(Score::Number(2.0), None), Ok(None));
    }

    /// (answers as (score, weight), expected mean)
    type MeanCase = (Vec<(Score, f64)>, Option<f64>);

    #[test]
    fn weighted_mean_table() {
        use Score::*;
        let cases: Vec<MeanCase> = vec![
            (
                vec![(Number(5.0), 1.0), (Number(5.0), 1.0), (Number(4.0), 1.0)],
                Some(14.0 / 3.0),
            ),
            (vec![(Pass, 1.0), (Fail, 1.0)], Some(3.0)),
            (vec![(Pass, 3.0), (Fail, 1.0)], Some(4.0)),
            (vec![(Number(2.0), 1.0), (NotApplicable, 5.0)], Some(2.0)),
            (vec![(Number(2.0), 1.0), (Stale, 5.0)], Some(2.0)),
            (vec![(NotApplicable, 1.0), (Stale, 1.0)], None),
            (vec![], None),
        ];
        for (answers, expected) in cases {
            let got = weighted_mean(answers.clone()).value;
            match (got, expected) {
                (Some(g), Some(e)) => assert!((g - e).abs() < 1e-12, "{answers:?}: {g} vs {e}"),
                _ => assert_eq!(got, expected, "{answers:?}"),
            }
        }
        let mean = weighted_mean(vec![(Pass, 1.0), (NotApplicable, 1.0), (Stale, 1.0)]);
        assert_eq!(
            (mean.counted, mean.excluded_na, mean.excluded_stale),
            (1, 1, 1)
        );
    }

    #[test]
    fn aging_windows() {
        let answered = parse_rfc3339("2026-01-01T00:00:00Z").unwrap();
        let d = &AGING_DEFAULTS;
        let after = |days| answered + Duration::days(days) + Duration::seconds(1);
        let exactly_14 = answered + Duration::days(14);
        assert_eq!(
            age_score(Score::Pass, AgingClass::Api, answered, exactly_14, d),
            Score::Pass
        );
        assert_eq!(
            age_score(Score::Pass, AgingClass::Api, answered, after(14), d),
            Score::Stale
        );
        assert_eq!(
            age_score(Score::Fail, AgingClass::Api, answered, after(14), d),
            Score::Stale
        );
        assert_eq!(
            age_score(Score::Number(4.0), AgingClass::Tos, answered, after(29), d),
            Score::Number(4.0)
        );
        assert_eq!(
            age_score(Score::Number(4.0), AgingClass::Tos, answered, after(30), d),
            Score::Stale
        );
        assert_eq!(
            age_score(
                Score::Number(4.0),
                AgingClass::Timeless,
                answered,
                after(400),
                d
            ),
            Score::Number(4.0)
        );
        assert_eq!(
            age_score(
                Score::NotApplicable,
                AgingClass::Api,
                answered,
                after(400),
                d
            ),
            Score::NotApplicable
        );
        assert!(!retention_exceeded(answered, after(179), d));
        assert!(retention_exceeded(answered, after(180), d));
    }
}
