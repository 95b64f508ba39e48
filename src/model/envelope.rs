//! What the harness returns for one area (spec ch. 24): the answer envelope. It is harness I/O,
//! never persisted as is; consume turns it into a grading entry.

use super::area::Area;
use super::entry::Persona;
use super::enums::{Harness, NaReason};
use super::score::Score;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnswerEnvelope {
    pub grading_id: String,
    pub schema_hash: String,
    pub area: Area,
    pub iteration: u8,
    pub timestamp: String,
    /// `null` for neutral areas.
    pub persona: Option<Persona>,
    pub answers: Vec<EnvelopeAnswer>,
    pub improvement_hints: Vec<ImprovementHint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<Harness>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EnvelopeAnswer {
    pub question_id: String,
    pub score: Score,
    pub reasoning: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub na_reason: Option<NaReason>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImprovementHint {
    pub target_field: String,
    pub suggestion: String,
    pub priority: HintPriority,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HintPriority {
    Low,
    Medium,
    High,
}

/// The ids an area's questions carry: `Q-<area>-01` … `Q-<area>-NN`.
pub fn question_ids(area: Area) -> Vec<String> {
    (1..=area.spec().answers)
        .map(|n| format!("Q-{}-{n:02}", area.as_str()))
        .collect()
}
