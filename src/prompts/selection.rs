//! The selection flow's handoff: which selection areas an emit grades (thresholds, About
//! applicability, `--phase`), the instances of each with their files, the predecessor rule for
//! L2/L3 skills, and the deterministic answers of `about-selection` and `selection-aggregate`.

use super::build::{Instance, InstanceFile};
use super::emit::open_questions;
use super::select::{AreaSelector, GatedArea, Resolution, SkippedArea, apply_selector};
use crate::index::selection_view::{Band, SelectionView};
use crate::model::{Area, EnvelopeAnswer, NaReason, Score};
use serde::Serialize;
use serde_json::{Value, json};
use std::path::Path;

/// Emission order of the selection flow.
pub const SELECTION_AREAS: [Area; 5] = [
    Area::AboutSelection,
    Area::SelectionSkillsL1,
    Area::SelectionSkillsL2,
    Area::SelectionSkillsL3,
    Area::SelectionAggregate,
];

/// An instance that cannot be graded in this run, with the reason.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockedInstance {
    pub area: Area,
    pub instance_id: String,
    pub reason: String,
}

/// Everything the emit needs per area.
pub struct SelectionPlan {
    pub resolution: Resolution,
    pub instances: Vec<(Area, Vec<Instance>)>,
    pub blocked: Vec<BlockedInstance>,
}

fn file(path: &Path, role: &str) -> InstanceFile {
    InstanceFile {
        path: path.to_path_buf(),
        role: role.to_owned(),
    }
}

fn answer(id: &str, score: Score, reasoning: String, evidence: Value) -> EnvelopeAnswer {
    EnvelopeAnswer {
        question_id: id.into(),
        score,
        reasoning,
        evidence: Some(evidence),
        na_reason: None,
    }
}

/// Whether a skill node of the live index carries a grade.
fn graded(index: &Value, skill: &str) -> bool {
    index["skills"][skill]["grade"].is_string()
}

/// Plans the emit of a selection. `index` is the live selection index (with the lockSnapshot
/// frozen for this run); `island_root` resolves the files.
pub fn plan(
    view: &SelectionView,
    index: &Value,
    selector: &AreaSelector,
    island_root: &Path,
) -> SelectionPlan {
    let mut resolution = Resolution::default();
    let mut instances = Vec::new();
    let mut blocked = Vec::new();
    let sel = &view.id;
    let schema_id = format!("{sel}.{sel}");
    let index_file = island_root.join(crate::island::layout::selection_index(sel));
    let definition = file(
        &view.definition_file.path,
        "the selection definition (members, personas, skills)",
    );
    let about_file = view.about.as_ref().map(|(path, _)| {
        file(
            path,
            "the selection's About = its domain-knowledge document (markdown)",
        )
    });
    let missing_sections = view.missing_dk_sections();

    for area in SELECTION_AREAS {
        let mut list = Vec::new();
        match area {
            Area::AboutSelection => {
                let Some((path, hash)) = &view.about else {
                    resolution.skipped.push(SkippedArea {
                        area,
                        na_reason: NaReason::OutOfScopeResource,
                        note: Some("the selection has no About (domain-knowledge document); grade A is out of reach without it".into()),
                    });
                    continue;
                };
                let answers = vec![answer(
                    "Q-about-selection-01",
                    Score::Pass,
                    "the selection's About document is imported".into(),
                    json!({"file": path}),
                )];
                let mut files = vec![
                    file(
                        path,
                        "the selection's About = its domain-knowledge document (markdown)",
                    ),
                    definition.clone(),
                ];
                files.extend(view.skills.iter().map(|s| {
                    file(
                        &s.file,
                        &format!("selection skill `{}` ({})", s.name, s.level),
                    )
                }));
                list.push(Instance {
                    instance_id: "about".into(),
                    schema_id: schema_id.clone(),
                    hash: hash.clone(),
                    skill_id: None,
                    question_ids: open_questions(area, &answers),
                    deterministic_answers: answers,
                    files,
                    veto_candidates: Vec::new(),
                });
            }
            Area::SelectionSkillsL1 | Area::SelectionSkillsL2 | Area::SelectionSkillsL3 => {
                let level = &area.as_str()[area.as_str().len() - 2..];
                let skills: Vec<_> = view.skills.iter().filter(|s| s.level == level).collect();
                if skills.is_empty() {
                    resolution.skipped.push(SkippedArea {
                        area,
                        na_reason: NaReason::OutOfScopeResource,
                        note: Some(format!("the selection has no {level} skill")),
                    });
                    continue;
                }
                for skill in skills {
                    let predecessors = match view.predecessors(skill) {
                        Ok(found) => found,
                        Err(reason) => {
                            blocked.push(BlockedInstance {
                                area,
                                instance_id: skill.name.clone(),
                                reason,
                            });
                            continue;
                        }
                    };
                    let waiting: Vec<&str> = predecessors
                        .iter()
                        .filter(|p| !graded(index, &p.name))
                        .map(|p| p.name.as_str())
                        .collect();
                    if !waiting.is_empty() {
                        blocked.push(BlockedInstance {
                            area,
                            instance_id: skill.name.clone(),
                            reason: format!(
                                "predecessor grade missing: {} (grade the {} skills first)",
                                waiting.join(", "),
                                predecessors[0].level
                            ),
                        });
                        continue;
                    }
                    let mut files = vec![file(
                        &skill.file,
                        &format!("the {level} skill module (static `skill` export)"),
                    )];
                    for p in &predecessors {
                        let grade = index["skills"][&p.name]["grade"].as_str().unwrap_or("?");
                        files.push(file(
                            &p.file,
                            &format!(
                                "predecessor {} skill `{}` (graded {grade})",
                                p.level, p.name
                            ),
                        ));
                    }
                    files.extend(about_file.clone());
                    files.push(definition.clone());
                    list.push(Instance {
                        instance_id: skill.name.clone(),
                        schema_id: schema_id.clone(),
                        hash: skill.hash8.clone(),
                        skill_id: Some(skill.name.clone()),
                        question_ids: open_questions(area, &[]),
                        deterministic_answers: Vec::new(),
                        files,
                        veto_candidates: Vec::new(),
                    });
                }
                if list.is_empty() {
                    resolution.gated.push(GatedArea {
                        area,
                        reason: format!("every {level} skill is blocked (see blockedInstances)"),
                    });
                    continue;
                }
            }
            Area::SelectionAggregate => {
                let answers = aggregate_answers(view, index, &missing_sections);
                let mut files = vec![
                    file(
                        &index_file,
                        "the selection index: member-resolution manifest, thresholds and the frozen lockSnapshot",
                    ),
                    definition.clone(),
                ];
                files.extend(about_file.clone());
                for (id, member) in index["members"].as_object().into_iter().flatten() {
                    if let Some(artifact) = member["resolvedArtifact"].as_str() {
                        files.push(file(
                            &island_root
                                .join(crate::island::layout::PROVIDERS)
                                .join(artifact),
                            &format!(
                                "member `{id}` schema snapshot ({}, grade {})",
                                member["status"].as_str().unwrap_or("?"),
                                member["grade"].as_str().unwrap_or("none")
                            ),
                        ));
                    }
                }
                list.push(Instance {
                    instance_id: sel.clone(),
                    schema_id: schema_id.clone(),
                    hash: view.hash().to_owned(),
                    skill_id: None,
                    question_ids: open_questions(area, &answers),
                    deterministic_answers: answers,
                    files,
                    veto_candidates: Vec::new(),
                });
            }
            _ => {}
        }
        instances.push((area, list));
    }

    let ready: Vec<Area> = instances.iter().map(|(a, _)| *a).collect();
    apply_selector(selector, ready, &mut resolution, |area| {
        if SELECTION_AREAS.contains(&area) {
            "named in --phase but not currently emittable (skipped or gated)"
        } else {
            "a provider area; a selection is graded with selection areas only"
        }
    });
    if let Some(named) = &selector.areas {
        blocked.retain(|b| named.contains(&b.area));
    }
    instances.retain(|(a, _)| resolution.emitted.contains(a));
    SelectionPlan {
        resolution,
        instances,
        blocked,
    }
}

/// The CLI's answers of `selection-aggregate`: the threshold count (Q-01), the cascade stop
/// (Q-06), and `n/a` for domainConformance (Q-03) when the domain-knowledge document is missing
/// or lacks a mandatory section.
fn aggregate_answers(view: &SelectionView, index: &Value, missing: &[&str]) -> Vec<EnvelopeAnswer> {
    let namespaces = view.namespaces();
    let band = view.band();
    let threshold = answer(
        "Q-selection-aggregate-01",
        if band == Band::Full {
            Score::Pass
        } else {
            Score::Fail
        },
        match band {
            Band::Full => format!(
                "{} member namespaces reach the hard threshold of 7",
                namespaces.len()
            ),
            _ => format!(
                "{} member namespaces: below the hard threshold of 7 (reduced scope, no A)",
                namespaces.len()
            ),
        },
        json!({"memberNamespaces": namespaces}),
    );
    let lock_members = index["lockSnapshot"]["members"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let non_stable: Vec<&str> = lock_members
        .iter()
        .filter(|m| m["gradingStatus"] != "stable")
        .filter_map(|m| m["schemaId"].as_str())
        .collect();
    let mut stops = Vec::new();
    if !non_stable.is_empty() {
        stops.push(format!(
            "members not stable in the lockSnapshot: {}",
            non_stable.join(", ")
        ));
    }
    if band == Band::BelowSoft {
        stops.push("fewer than 5 member namespaces".into());
    }
    if !missing.is_empty() {
        stops.push(format!(
            "domain-knowledge document lacks: {}",
            missing.join(", ")
        ));
    }
    let cascade = answer(
        "Q-selection-aggregate-06",
        if stops.is_empty() {
            Score::Pass
        } else {
            Score::Fail
        },
        if stops.is_empty() {
            "no cascade stop: every member stable in the lockSnapshot, threshold met, domain-knowledge document complete".into()
        } else {
            format!("cascade stop: {}", stops.join("; "))
        },
        json!({"lockSnapshotGeneratedAt": index["lockSnapshot"]["generatedAt"], "stops": stops}),
    );
    let mut answers = vec![threshold];
    if !missing.is_empty() {
        answers.push(EnvelopeAnswer {
            question_id: "Q-selection-aggregate-03".into(),
            score: Score::NotApplicable,
            reasoning: format!(
                "domainConformance cannot be scored without a valid domain-knowledge document (missing: {})",
                missing.join(", ")
            ),
            evidence: None,
            na_reason: Some(NaReason::BlockedByPrecondition),
        });
    }
    answers.push(cascade);
    answers
}

/// The extra prompt section of `selection-aggregate`: the manifest, thresholds, personas and
/// the domain-knowledge document, inline (spec-digest §1.3, the aggregate template).
pub fn aggregate_context(view: &SelectionView, index: &Value) -> String {
    let mut text = String::from("## Selection context\n\n");
    text.push_str(&format!(
        "Member namespaces: {} ({}) — band `{}`, best selection grade {}.\n\n",
        view.namespaces().len(),
        view.namespaces().join(", "),
        view.band().as_str(),
        view.band().max_grade().unwrap_or("n/a")
    ));
    text.push_str(&format!(
        "Declared personas: {}\n\n",
        view.persona_ids().join(", ")
    ));
    text.push_str("Member-resolution manifest (from index.json):\n\n```json\n");
    text.push_str(&serde_json::to_string_pretty(&index["members"]).unwrap_or_default());
    text.push_str("\n```\n\n");
    match &view.about {
        Some((path, _)) => {
            let doc = std::fs::read_to_string(path).unwrap_or_default();
            text.push_str("Domain-knowledge document (the selection's About):\n\n````markdown\n");
            text.push_str(doc.trim_end());
            text.push_str("\n````\n\n");
        }
        None => text.push_str("The selection has no domain-knowledge document.\n\n"),
    }
    text
}
