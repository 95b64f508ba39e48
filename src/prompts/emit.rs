//! Assembling the handoff of a provider namespace: its schemas as imported, the instances of
//! each area with their files, and the deterministic answers and veto candidates per instance.

use super::build::{Instance, InstanceFile};
use super::catalogue;
use crate::deterministic::{self, UrlProbe, VetoCandidate};
use crate::island::names::resolve_latest;
use crate::island::{Island, IslandError, layout};
use crate::model::{Area, Determinism};
use crate::pretest::SchemaPretest;
use crate::source::{self, Module};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One schema as the island holds it: its newest snapshot, read statically.
pub struct LoadedSchema {
    pub slug: String,
    pub snapshot: PathBuf,
    pub hash8: String,
    pub module: Module,
}

impl LoadedSchema {
    pub fn main(&self) -> &Value {
        self.module.schema_main().expect("checked when loaded")
    }

    pub fn tools(&self) -> Vec<(&str, &Value)> {
        self.main()
            .get("tools")
            .or_else(|| self.main().get("routes"))
            .and_then(Value::as_object)
            .map(|tools| tools.iter().map(|(k, v)| (k.as_str(), v)).collect())
            .unwrap_or_default()
    }
}

/// A namespace skill as imported: `providers/<ns>/<schema>/skills/<skill>/<newest>.mjs`.
pub struct LoadedSkill {
    pub schema: String,
    pub name: String,
    pub file: PathBuf,
    pub hash8: String,
}

pub struct NamespaceView {
    pub namespace: String,
    pub schemas: Vec<LoadedSchema>,
    /// (owner schema, newest About markdown)
    pub about: Option<(String, PathBuf, String)>,
    /// Whether any schema declares `resources.about`.
    pub about_declared: bool,
    pub skills: Vec<LoadedSkill>,
    /// Schemas whose snapshot could not be read, with the reason.
    pub unreadable: Vec<String>,
}

pub fn load_namespace(island: &Island, ns: &str) -> Result<NamespaceView, IslandError> {
    let provider_dir = island.root().join(layout::provider(ns));
    let mut view = NamespaceView {
        namespace: ns.to_owned(),
        schemas: Vec::new(),
        about: None,
        about_declared: false,
        skills: Vec::new(),
        unreadable: Vec::new(),
    };
    for slug in crate::index::schema_slugs(&provider_dir)? {
        let Some(latest) = resolve_latest(&provider_dir.join(&slug).join("schema"), &slug, "mjs")?
        else {
            view.unreadable
                .push(format!("{slug}: no resolvable schema snapshot"));
            continue;
        };
        match source::read_module(&latest.path) {
            Ok(module) if module.schema_main().is_ok() => {
                view.about_declared |= module
                    .schema_main()
                    .ok()
                    .and_then(|m| m.pointer("/resources/about"))
                    .is_some();
                view.schemas.push(LoadedSchema {
                    slug: slug.clone(),
                    snapshot: latest.path.clone(),
                    hash8: latest.version.hash8.clone(),
                    module,
                });
            }
            Ok(_) | Err(_) => view.unreadable.push(format!(
                "{slug}: cannot read schema snapshot {}",
                latest.path.display()
            )),
        }
        if view.about.is_none()
            && let Some(about) = resolve_latest(
                &island.root().join(layout::about(ns, &slug)),
                &format!("{ns}-about"),
                "md",
            )?
        {
            view.about = Some((slug.clone(), about.path, about.version.hash8));
        }
        let skills_dir = provider_dir.join(&slug).join("skills");
        for name in crate::island::names::child_dirs(&skills_dir) {
            if let Some(found) = resolve_latest(&skills_dir.join(&name), &name, "mjs")? {
                view.skills.push(LoadedSkill {
                    schema: slug.clone(),
                    name,
                    file: found.path,
                    hash8: found.version.hash8,
                });
            }
        }
    }
    Ok(view)
}

fn file(path: &Path, role: &str) -> InstanceFile {
    InstanceFile {
        path: path.to_path_buf(),
        role: role.to_owned(),
    }
}

/// The non-deterministic questions of `area` that the CLI has not answered already.
pub(crate) fn open_questions(area: Area, answered: &[crate::model::EnvelopeAnswer]) -> Vec<String> {
    catalogue::for_area(area)
        .filter(|q| q.determinism == Determinism::NonDeterministic)
        .filter(|q| !answered.iter().any(|a| a.question_id == q.id))
        .map(|q| q.id.clone())
        .collect()
}

fn veto_json(candidates: &[VetoCandidate]) -> Vec<Value> {
    candidates
        .iter()
        .map(|v| json!({"trigger": v.trigger, "evidence": v.evidence, "reasoning": v.reasoning}))
        .collect()
}

/// The instances of one area with their files and deterministic answers. `docs` maps a docs
/// URL to its probe (absent: not probed).
pub fn instances(
    area: Area,
    view: &NamespaceView,
    island_root: &Path,
    pretests: &[SchemaPretest],
    docs: &HashMap<String, UrlProbe>,
) -> Vec<Instance> {
    let ns = &view.namespace;
    let all_snapshots: Vec<InstanceFile> = view
        .schemas
        .iter()
        .map(|s| {
            file(
                &s.snapshot,
                &format!(
                    "schema snapshot `{}` (FlowMCP v4 module, read only)",
                    s.slug
                ),
            )
        })
        .collect();
    let about_file = view
        .about
        .as_ref()
        .map(|(_, path, _)| file(path, "the namespace's About text (markdown)"));
    let mut out = Vec::new();
    match area {
        Area::SingleTest => {
            for schema in &view.schemas {
                let pretest = pretests.iter().find(|p| p.schema == schema.slug);
                let (key_answer, key_veto) = deterministic::api_key_domain(schema.main());
                let module_vetoes = deterministic::module_veto_candidates(&schema.module);
                for (tool_name, tool) in schema.tools() {
                    let records: Vec<_> = pretest
                        .map(|p| {
                            p.tests
                                .iter()
                                .filter(|t| t.tool == tool_name)
                                .cloned()
                                .collect()
                        })
                        .unwrap_or_default();
                    let probe =
                        deterministic::first_docs_url(schema.main()).and_then(|u| docs.get(u));
                    let answers = vec![
                        deterministic::docs_url(schema.main(), probe),
                        deterministic::output_schema_match(tool, &records),
                        key_answer.clone(),
                    ];
                    let mut files = vec![file(
                        &schema.snapshot,
                        &format!("schema snapshot; the tool is `tools.{tool_name}`"),
                    )];
                    for record in &records {
                        let path = island_root
                            .join(layout::schema(ns, &schema.slug))
                            .join("tools")
                            .join(tool_name)
                            .join("tests")
                            .join(format!("test-{}.json", record.test));
                        if path.is_file() {
                            files.push(file(
                                &path,
                                &format!(
                                    "pretest result of test {} ({})",
                                    record.test,
                                    status_word(record)
                                ),
                            ));
                        }
                    }
                    let mut vetoes: Vec<VetoCandidate> = module_vetoes.clone();
                    vetoes.extend(key_veto.clone());
                    out.push(Instance {
                        instance_id: format!("{}/{tool_name}", schema.slug),
                        schema_id: format!("{ns}.{tool_name}"),
                        hash: schema.hash8.clone(),
                        skill_id: None,
                        question_ids: open_questions(area, &answers),
                        deterministic_answers: answers,
                        files,
                        veto_candidates: veto_json(&vetoes),
                    });
                }
            }
        }
        Area::ToolsAggregateSchema => {
            for schema in &view.schemas {
                let answers = vec![deterministic::unique_tool_names(schema.main())];
                let mut files = vec![file(
                    &schema.snapshot,
                    "schema snapshot (FlowMCP v4 module, read only)",
                )];
                let summary = island_root
                    .join(layout::schema(ns, &schema.slug))
                    .join("summary.json");
                if summary.is_file() {
                    files.push(file(
                        &summary,
                        "pretest summary of this schema (per tool working/total)",
                    ));
                }
                out.push(Instance {
                    instance_id: schema.slug.clone(),
                    schema_id: format!("{ns}.{}", schema.slug),
                    hash: schema.hash8.clone(),
                    skill_id: None,
                    question_ids: open_questions(area, &answers),
                    deterministic_answers: answers,
                    files,
                    veto_candidates: veto_json(&deterministic::module_veto_candidates(
                        &schema.module,
                    )),
                });
            }
        }
        Area::ToolsAggregateNamespace | Area::NamespaceDescription => {
            let answers = if area == Area::ToolsAggregateNamespace {
                let total: usize = view.schemas.iter().map(|s| s.tools().len()).sum();
                vec![deterministic::namespace_tool_count(total)]
            } else {
                Vec::new()
            };
            let mut files = all_snapshots.clone();
            files.extend(about_file.clone());
            out.push(Instance {
                instance_id: ns.clone(),
                schema_id: format!("{ns}.{ns}"),
                hash: namespace_hash(view),
                skill_id: None,
                question_ids: open_questions(area, &answers),
                deterministic_answers: answers,
                files,
                veto_candidates: Vec::new(),
            });
        }
        Area::NamespaceSkills => {
            for skill in &view.skills {
                let owner = view.schemas.iter().find(|s| s.slug == skill.schema);
                let mut files = vec![file(
                    &skill.file,
                    "the skill module (static `skill` export)",
                )];
                files.extend(
                    owner.map(|s| file(&s.snapshot, "schema snapshot of the tools the skill uses")),
                );
                files.extend(about_file.clone());
                out.push(Instance {
                    instance_id: format!("{}/{}", skill.schema, skill.name),
                    schema_id: format!("{ns}.{}", skill.schema),
                    hash: skill.hash8.clone(),
                    skill_id: Some(skill.name.clone()),
                    question_ids: open_questions(area, &[]),
                    deterministic_answers: Vec::new(),
                    files,
                    veto_candidates: Vec::new(),
                });
            }
        }
        Area::AboutNamespace => {
            if let Some((owner, path, hash)) = &view.about {
                let answers = vec![deterministic::about_present(
                    "Q-about-namespace-01",
                    view.about_declared,
                    Some(path),
                )];
                let mut files = vec![file(path, "the namespace's About text (markdown)")];
                files.extend(all_snapshots.clone());
                out.push(Instance {
                    instance_id: format!("{owner}/about"),
                    schema_id: format!("{ns}.{owner}"),
                    hash: hash.clone(),
                    skill_id: None,
                    question_ids: open_questions(area, &answers),
                    deterministic_answers: answers,
                    files,
                    veto_candidates: Vec::new(),
                });
            }
        }
        _ => {}
    }
    out
}

fn status_word(record: &crate::pretest::TestRecord) -> String {
    match (&record.status, &record.reason) {
        (crate::pretest::TestStatus::Working, _) => "working".into(),
        (_, Some(reason)) => reason.clone(),
        _ => "failed".into(),
    }
}

/// The namespace's hash: over its schema hashes (sorted) and the About hash.
pub fn namespace_hash(view: &NamespaceView) -> String {
    let members: Vec<String> = view
        .schemas
        .iter()
        .map(|s| format!("{}.{}@{}", view.namespace, s.slug, s.hash8))
        .collect();
    crate::hash::namespace_hash(&members, view.about.as_ref().map(|(_, _, h)| h.as_str()))
}
