//! Stage 3, second half: the checked answers plus the CLI's deterministic answers become one
//! grading entry per instance, each validated against the embedded schema and the semantic rules
//! before anything is written.

use super::{CheckedPayload, CheckedResult};
use crate::diagnostic::Diagnostic;
use crate::grading::compute;
use crate::model::{
    Area, BasePersona, CategoricalVeto, Determinism, EnvelopeAnswer, Grade, GraderIdentity,
    GraderKind, GradingAnswer, GradingEntry, GradingMode, Harness, Persona, RegradingTrigger,
    RegradingTriggerKind, SelectionContext, Tier, VetoTrigger,
};
use crate::prompts::catalogue;
use crate::timestamp::{to_file_ts, to_rfc3339};
use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use std::path::PathBuf;

/// The entry version string (the FlowMCP version the schemas are written for).
pub const ENTRY_VERSION: &str = "flowmcp/4.0.0";

/// An entry ready to be written, with where it goes.
#[derive(Debug, Clone)]
pub struct Built {
    pub area: Area,
    pub instance_id: String,
    /// The `_gradings/` folder, relative to the provider folder.
    pub folder: PathBuf,
    /// `<area>[--<base>--<lens>]`: the file name before `--<ts>.json`.
    pub prefix: String,
    pub entry: GradingEntry,
    /// improvementHints and the raw result, written beside the entry.
    pub sidecar: Value,
}

/// Where an instance's entries go, relative to the provider (or selection) folder.
pub fn folder_of(area: Area, instance_id: &str) -> PathBuf {
    let mut parts = instance_id.splitn(2, '/');
    let first = parts.next().unwrap_or_default();
    let second = parts.next().unwrap_or_default();
    let base = match area {
        Area::SingleTest => PathBuf::from(first).join("tools").join(second),
        Area::ToolsAggregateSchema => PathBuf::from(first),
        Area::NamespaceSkills => PathBuf::from(first).join("skills").join(second),
        Area::AboutNamespace => PathBuf::from(first).join("resources").join("about"),
        Area::AboutSelection => PathBuf::from("resources").join("about"),
        Area::SelectionSkillsL1 | Area::SelectionSkillsL2 | Area::SelectionSkillsL3 => {
            PathBuf::from("skills").join(first)
        }
        _ => PathBuf::new(),
    };
    base.join("_gradings")
}

fn script() -> GraderIdentity {
    GraderIdentity {
        kind: GraderKind::Script,
        name: "flowmcp-grading".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    }
}

/// The selection a group-bound consume grades.
pub struct SelectionInfo {
    pub id: String,
    /// The resolved About (domain-knowledge document) file, recorded as `domainDocId`.
    pub domain_doc_id: Option<String>,
    /// The hash of the selection definition the run was frozen on.
    pub definition_hash: String,
}

/// Options of the consume run that shape the entries.
pub struct Context<'a> {
    pub namespace: &'a str,
    /// Set for a selection: entries are group-bound and carry `selectionId`.
    pub selection: Option<&'a SelectionInfo>,
    pub now: DateTime<Utc>,
    /// `previousGradingId` per (area, instance) when the instance was graded before.
    pub previous: &'a dyn Fn(Area, &str) -> Option<String>,
    pub trigger: RegradingTriggerKind,
    pub reported_issue: Option<String>,
    pub requested_by: Option<String>,
}

/// Builds the entries of a checked payload. Instances with a blocker, or with nothing scorable,
/// get no entry (they are reported). All entries are validated; any error refuses them all.
pub fn build_entries(
    checked: &CheckedPayload,
    prompts: &Value,
    ctx: &Context,
) -> Result<(Vec<Built>, Vec<String>), Vec<Diagnostic>> {
    let ts = to_rfc3339(ctx.now);
    let mut built = Vec::new();
    let mut skipped = Vec::new();
    let mut errors = Vec::new();
    for area in &checked.areas {
        let emitted = prompts["areas"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|a| a["area"] == area.area.as_str());
        let Some(emitted) = emitted else { continue };
        let persona: Option<Persona> = emitted["persona"]
            .as_object()
            .and_then(|p| serde_json::from_value(Value::Object(p.clone())).ok());
        for result in &area.results {
            let CheckedResult::Answered {
                instance_id,
                answers,
                improvement_hints,
                veto,
            } = result
            else {
                if let CheckedResult::Blocked {
                    instance_id,
                    blocker,
                    reason,
                } = result
                {
                    skipped.push(format!(
                        "{}/{instance_id}: blocked by {blocker}: {reason}",
                        area.area.as_str()
                    ));
                }
                continue;
            };
            let Some(instance) = emitted["instances"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|i| i["instanceId"] == instance_id.as_str())
            else {
                continue;
            };
            let deterministic: Vec<EnvelopeAnswer> =
                serde_json::from_value(instance["deterministicAnswers"].clone())
                    .unwrap_or_default();
            let group = match (ctx.selection, &persona) {
                (Some(sel), _) => sel.id.clone(),
                (None, Some(p)) => p.lens_id.clone(),
                (None, None) => ctx.namespace.to_owned(),
            };
            let domain_doc_id = ctx.selection.and_then(|s| s.domain_doc_id.clone());
            let persona_id = persona.as_ref().map_or_else(
                || BasePersona::SchemaMaintainer.as_str().to_owned(),
                |p| p.base_persona_id.as_str().to_owned(),
            );
            let mut gradings = Vec::new();
            for (answer, determinism) in deterministic
                .iter()
                .map(|a| (a, Determinism::Deterministic))
                .chain(answers.iter().map(|a| (a, Determinism::NonDeterministic)))
            {
                let weight = catalogue::get(&answer.question_id).map_or(1.0, |q| q.weight);
                let llm = determinism == Determinism::NonDeterministic;
                gradings.push(GradingAnswer {
                    question_id: answer.question_id.clone(),
                    score: answer.score,
                    na_reason: answer.na_reason,
                    weight,
                    determinism,
                    grader_identity: if llm {
                        GraderIdentity {
                            kind: GraderKind::Llm,
                            name: checked.llm_model.clone(),
                            version: "1".into(),
                        }
                    } else {
                        script()
                    },
                    llm_model: llm.then(|| checked.llm_model.clone()),
                    selection_context: llm.then(|| SelectionContext {
                        group_id: group.clone(),
                        persona_ids: vec![persona_id.clone()],
                        domain_doc_id: domain_doc_id.clone(),
                    }),
                    timestamp: ts.clone(),
                    evidence: answer.evidence.clone(),
                    reasoning: Some(answer.reasoning.clone()),
                });
            }
            let categorical_veto = instance["vetoCandidates"]
                .as_array()
                .and_then(|c| c.first())
                .and_then(|c| {
                    Some(CategoricalVeto {
                        triggered_by: c["trigger"].as_str()?.parse().ok()?,
                        grader_identity: script(),
                        evidence: c["evidence"].as_str()?.to_owned(),
                        reasoning: c["reasoning"].as_str().map(str::to_owned),
                        timestamp: ts.clone(),
                    })
                })
                .or_else(|| {
                    let v = veto.as_ref()?;
                    Some(CategoricalVeto {
                        triggered_by: VetoTrigger::AiSecurityVeto,
                        grader_identity: GraderIdentity {
                            kind: GraderKind::Llm,
                            name: checked.llm_model.clone(),
                            version: "1".into(),
                        },
                        evidence: v["evidence"].as_str()?.to_owned(),
                        reasoning: v["reasoning"].as_str().map(str::to_owned),
                        timestamp: ts.clone(),
                    })
                });
            let tier = if ctx.selection.is_some() {
                Tier::GroupBound
            } else {
                Tier::Autonomous
            };
            let outcome = compute(tier, categorical_veto.as_ref(), &gradings);
            let Some(aggregate) = outcome.aggregate else {
                skipped.push(format!(
                    "{}/{instance_id}: nothing scorable (every answer n/a); no entry",
                    area.area.as_str()
                ));
                continue;
            };
            let hash = instance["hash"].as_str().unwrap_or_default().to_owned();
            let regrading_trigger =
                (ctx.previous)(area.area, instance_id).map(|previous| RegradingTrigger {
                    triggered_by: ctx.trigger,
                    reported_issue: ctx.reported_issue.clone(),
                    requested_by: ctx.requested_by.clone(),
                    previous_grading_id: previous,
                    timestamp: ts.clone(),
                });
            let entry = GradingEntry {
                grading_id: format!("{hash}--{}", to_file_ts(ctx.now)),
                schema_id: instance["schemaId"].as_str().unwrap_or_default().to_owned(),
                selection_id: ctx.selection.map(|s| s.id.clone()),
                area: area.area,
                version: ENTRY_VERSION.into(),
                schema_hash: hash.clone(),
                about_hash: matches!(area.area, Area::AboutNamespace | Area::AboutSelection)
                    .then(|| hash.clone()),
                grading_mode: GradingMode::Full,
                grading_tier: tier,
                harness: Harness::ClaudeCode,
                persona: persona.clone(),
                skill_id: instance["skillId"].as_str().map(str::to_owned),
                scoring_system: crate::model::SCORING_SYSTEM.into(),
                grading_system: crate::model::GRADING_SYSTEM.into(),
                gradings,
                categorical_veto,
                regrading_trigger,
                aggregate_grade: aggregate,
                max_attainable_grade: Grade::max_for(tier),
            };
            let value = serde_json::to_value(&entry).unwrap_or_default();
            let (_, found) =
                crate::validate::validate_value(&value, Some(crate::validate::Kind::Entry));
            let found: Vec<Diagnostic> = found.into_iter().filter(Diagnostic::is_error).collect();
            if !found.is_empty() {
                errors.extend(found.into_iter().map(|d| Diagnostic {
                    message: format!("{}/{instance_id}: {}", area.area.as_str(), d.message),
                    ..d
                }));
                continue;
            }
            let prefix = match &persona {
                Some(p) if area.area.persona_bound() => format!(
                    "{}--{}--{}",
                    area.area.as_str(),
                    p.base_persona_id.as_str(),
                    p.lens_id
                ),
                _ => area.area.as_str().to_owned(),
            };
            built.push(Built {
                area: area.area,
                instance_id: instance_id.clone(),
                folder: folder_of(area.area, instance_id),
                prefix,
                sidecar: json!({"gradingId": entry.grading_id, "improvementHints": improvement_hints, "answers": answers.iter().map(|a| serde_json::to_value(a).unwrap_or_default()).collect::<Vec<_>>()}),
                entry,
            });
        }
    }
    if errors.is_empty() {
        Ok((built, skipped))
    } else {
        Err(errors)
    }
}
