//! The grading entry of spec ch. 08 and its `gradings[]` answers. Field names are the spec's.

use super::area::Area;
use super::enums::{
    BasePersona, Determinism, GraderKind, GradingMode, Harness, NaReason, RegradingTriggerKind,
    Tier, VetoTrigger,
};
use super::grade::{AggregateGrade, Grade};
use super::score::Score;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One grading of one area of one graded primitive: the only durable artefact a grader emits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GradingEntry {
    /// `<hash8>--<YYYY-MM-DDTHH-MM-SSZ>`.
    pub grading_id: String,
    pub schema_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection_id: Option<String>,
    pub area: Area,
    /// `flowmcp/4.x.y`.
    pub version: String,
    pub schema_hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about_hash: Option<String>,
    pub grading_mode: GradingMode,
    pub grading_tier: Tier,
    pub harness: Harness,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persona: Option<Persona>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_id: Option<String>,
    pub scoring_system: String,
    pub grading_system: String,
    pub gradings: Vec<GradingAnswer>,
    /// Always present in the file (`null` when there is no veto).
    pub categorical_veto: Option<CategoricalVeto>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regrading_trigger: Option<RegradingTrigger>,
    pub aggregate_grade: AggregateGrade,
    pub max_attainable_grade: Grade,
}

/// One answer to one question by one grader at one time (an element of `gradings[]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GradingAnswer {
    pub question_id: String,
    pub score: Score,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub na_reason: Option<NaReason>,
    pub weight: f64,
    pub determinism: Determinism,
    pub grader_identity: GraderIdentity,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection_context: Option<SelectionContext>,
    /// RFC 3339 with colons.
    pub timestamp: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraderIdentity {
    pub kind: GraderKind,
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SelectionContext {
    pub group_id: String,
    pub persona_ids: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain_doc_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Persona {
    pub base_persona_id: BasePersona,
    pub lens_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CategoricalVeto {
    pub triggered_by: VetoTrigger,
    pub grader_identity: GraderIdentity,
    pub evidence: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    pub timestamp: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegradingTrigger {
    pub triggered_by: RegradingTriggerKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_issue: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_by: Option<String>,
    pub previous_grading_id: String,
    pub timestamp: String,
}
