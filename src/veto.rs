//! The categorical veto (spec ch. 09): a closed trigger list, evidence always, reasoning for
//! `ai-security-veto`, and `REJECTED` iff a veto is present.

use crate::diagnostic::Coded;
use crate::model::{AggregateGrade, CategoricalVeto, GraderIdentity, VetoTrigger};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VetoError {
    #[error("veto trigger `{0}` is not in the closed list")]
    UnknownTrigger(String),
    #[error("veto `{0}` has no evidence")]
    EvidenceMissing(VetoTrigger),
    #[error("veto `ai-security-veto` has no reasoning")]
    ReasoningMissing,
    #[error("veto `{0}` has no grader identity")]
    GraderMissing(VetoTrigger),
    #[error("aggregateGrade is REJECTED but categoricalVeto is null")]
    RejectedWithoutVeto,
    #[error("categoricalVeto `{0}` is set but aggregateGrade is {1}, not REJECTED")]
    VetoWithoutRejected(VetoTrigger, AggregateGrade),
}

impl Coded for VetoError {
    fn code(&self) -> &'static str {
        match self {
            VetoError::UnknownTrigger(_) => "VET-001",
            VetoError::EvidenceMissing(_) => "VET-002",
            VetoError::ReasoningMissing => "VET-003",
            VetoError::GraderMissing(_) => "VET-004",
            VetoError::RejectedWithoutVeto | VetoError::VetoWithoutRejected(..) => "VET-005",
        }
    }

    fn fix(&self) -> String {
        match self {
            VetoError::UnknownTrigger(_) => {
                format!("use one of: {}", VetoTrigger::allowed())
            }
            VetoError::EvidenceMissing(_) => {
                "point categoricalVeto.evidence at what proves the finding".into()
            }
            VetoError::ReasoningMissing => {
                "an ai-security-veto needs both evidence and reasoning; add categoricalVeto.reasoning"
                    .into()
            }
            VetoError::GraderMissing(_) => "add categoricalVeto.graderIdentity".into(),
            VetoError::RejectedWithoutVeto => {
                "record the categoricalVeto that rejected it, or recompute aggregateGrade".into()
            }
            VetoError::VetoWithoutRejected(..) => {
                "a veto replaces the grade: set aggregateGrade to REJECTED".into()
            }
        }
    }
}

/// Builds a veto, enforcing the evidence obligations.
pub fn raise(
    triggered_by: VetoTrigger,
    grader_identity: GraderIdentity,
    evidence: &str,
    reasoning: Option<&str>,
    timestamp: String,
) -> Result<CategoricalVeto, VetoError> {
    let veto = CategoricalVeto {
        triggered_by,
        grader_identity,
        evidence: evidence.to_string(),
        reasoning: reasoning.map(str::to_string),
        timestamp,
    };
    match check(&veto).into_iter().next() {
        Some(err) => Err(err),
        None => Ok(veto),
    }
}

/// Every rule a veto object breaks.
pub fn check(veto: &CategoricalVeto) -> Vec<VetoError> {
    let mut errors = Vec::new();
    if veto.evidence.trim().is_empty() {
        errors.push(VetoError::EvidenceMissing(veto.triggered_by));
    }
    let blank = |s: &String| s.trim().is_empty();
    if veto.grader_identity.name.trim().is_empty() {
        errors.push(VetoError::GraderMissing(veto.triggered_by));
    }
    if veto.triggered_by == VetoTrigger::AiSecurityVeto && veto.reasoning.as_ref().is_none_or(blank)
    {
        errors.push(VetoError::ReasoningMissing);
    }
    errors
}

/// `aggregateGrade` is `REJECTED` if and only if a veto is present.
pub fn check_consistency(
    veto: Option<&CategoricalVeto>,
    aggregate: AggregateGrade,
) -> Result<(), VetoError> {
    match (veto, aggregate) {
        (None, AggregateGrade::Rejected) => Err(VetoError::RejectedWithoutVeto),
        (Some(v), AggregateGrade::Letter(_)) => {
            Err(VetoError::VetoWithoutRejected(v.triggered_by, aggregate))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Grade, GraderKind};

    fn script() -> GraderIdentity {
        GraderIdentity {
            kind: GraderKind::Script,
            name: "api-key-domain-checker".into(),
            version: "0.1.0".into(),
        }
    }

    const TS: &str = "2026-05-29T10:00:00Z";

    #[test]
    fn raise_enforces_obligations() {
        let ok = raise(
            VetoTrigger::ApiKeyDomainMismatch,
            script(),
            "FACEBOOK_API_KEY for example.xyz",
            None,
            TS.into(),
        );
        assert!(ok.is_ok());
        let cases = [
            (VetoTrigger::MaliciousModule, " ", None, "VET-002"),
            (
                VetoTrigger::AiSecurityVeto,
                "exfiltrates keys",
                None,
                "VET-003",
            ),
            (
                VetoTrigger::AiSecurityVeto,
                "exfiltrates keys",
                Some(""),
                "VET-003",
            ),
        ];
        for (trigger, evidence, reasoning, code) in cases {
            let err = raise(trigger, script(), evidence, reasoning, TS.into()).unwrap_err();
            assert_eq!(err.code(), code, "{trigger} {evidence:?} {reasoning:?}");
        }
        let ai = raise(
            VetoTrigger::AiSecurityVeto,
            script(),
            "handler posts keys to a third host",
            Some("outside the tool's stated purpose"),
            TS.into(),
        );
        assert!(ai.is_ok());
    }

    #[test]
    fn rejected_iff_veto() {
        let veto = raise(VetoTrigger::IllegalContent, script(), "x", None, TS.into()).unwrap();
        assert!(check_consistency(Some(&veto), AggregateGrade::Rejected).is_ok());
        assert!(check_consistency(None, AggregateGrade::Letter(Grade::B)).is_ok());
        assert_eq!(
            check_consistency(None, AggregateGrade::Rejected)
                .unwrap_err()
                .code(),
            "VET-005"
        );
        assert_eq!(
            check_consistency(Some(&veto), AggregateGrade::Letter(Grade::C))
                .unwrap_err()
                .code(),
            "VET-005"
        );
    }
}
