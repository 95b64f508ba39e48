//! Namespace skills: inline `main.skills[]` items with a body (rendered into a module, as the
//! node implementation's normaliser does) and `skills/<name>.mjs` files (byte copies). Each skill
//! is stored under the schema it belongs to: `providers/<ns>/<schema>/skills/<skill>/`.

use super::scan::{ScannedSchema, ScannedSkill};
use crate::diagnostic::Diagnostic;
use crate::hash::hash8;
use crate::island::names::is_id;
use serde_json::{Map, Value, json};

/// An inline skill found in a schema's `main.skills`.
#[derive(Debug, Clone)]
pub struct InlineSkill {
    pub name: String,
    /// Which key held the body: `content`, `body` or `text`.
    pub body_key: &'static str,
    pub item: Value,
    pub hash8: String,
}

/// Inline skills with a non-empty body; items without one are references, not skills. A bad
/// name is a warning and the item is skipped.
pub fn inline_skills(schema: &ScannedSchema) -> (Vec<InlineSkill>, Vec<Diagnostic>) {
    let mut skills = Vec::new();
    let mut warnings = Vec::new();
    let Some(items) = schema.main.get("skills").and_then(Value::as_array) else {
        return (skills, warnings);
    };
    for (index, item) in items.iter().enumerate() {
        let Some((body_key, body)) = ["content", "body", "text"].into_iter().find_map(|key| {
            item.get(key)
                .and_then(Value::as_str)
                .filter(|b| !b.trim().is_empty())
                .map(|b| (key, b))
        }) else {
            continue;
        };
        let name = item.get("name").and_then(Value::as_str).unwrap_or("");
        if !is_id(name) {
            warnings.push(
                Diagnostic::warning(
                    "IMP-WARN-004",
                    format!("inline skill name `{name}` is not a valid skill id; skipped"),
                    "name skills in kebab-case: [a-z][a-z0-9-]*",
                )
                .in_file(&schema.path)
                .at(format!("/skills/{index}/name")),
            );
            continue;
        }
        // The node implementation's identity of an inline skill: {name, body, type, level}.
        let mut identity = Map::new();
        identity.insert("name".into(), json!(name));
        identity.insert("body".into(), json!(body));
        for key in ["type", "level"] {
            if let Some(value) = item.get(key) {
                identity.insert(key.into(), value.clone());
            }
        }
        skills.push(InlineSkill {
            name: name.to_owned(),
            body_key,
            item: item.clone(),
            hash8: hash8(&Value::Object(identity)),
        });
    }
    (skills, warnings)
}

/// The module text an inline skill is stored as: `provenance` and `skill` exports, static, so
/// that the reader can read it back.
pub fn render_inline(skill: &InlineSkill, schema: &ScannedSchema, extracted_at: &str) -> String {
    let provenance = json!({
        "normalizedFrom": "inline",
        "inlineBodyKey": skill.body_key,
        "sourceFile": schema.file_name,
        "extractedAt": extracted_at,
    });
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    format!(
        "// Normalised by flowmcp-grading from an inline skill of {}.\n\
         export const provenance = {};\n\n\
         export const skill = {};\n",
        schema.file_name,
        pretty(&provenance),
        pretty(&skill.item)
    )
}

/// The schema a skill file belongs to: the first schema (in file order) that has the first tool
/// the skill requires (`requires.tools`, bare or `ns/tool/name`), else the schema that declares
/// the About, else the first schema. Returns the index and a warning when it had to guess.
pub fn owner_of(skill: &ScannedSkill, schemas: &[ScannedSchema]) -> (usize, Option<Diagnostic>) {
    let required: Vec<&str> = skill
        .skill
        .pointer("/requires/tools")
        .and_then(Value::as_array)
        .map(|tools| {
            tools
                .iter()
                .filter_map(Value::as_str)
                .map(|t| t.rsplit('/').next().unwrap_or(t))
                .collect()
        })
        .unwrap_or_default();
    for tool in &required {
        if let Some(index) = schemas.iter().position(|s| s.tool_names().contains(tool)) {
            return (index, None);
        }
    }
    let about = schemas
        .iter()
        .position(|s| s.main.pointer("/resources/about").is_some());
    let index = about.unwrap_or(0);
    let warning = (schemas.len() > 1).then(|| {
        Diagnostic::warning(
            "IMP-WARN-014",
            format!(
                "skill `{}` requires no tool of this namespace; stored under schema `{}`",
                skill.name, schemas[index].slug
            ),
            "list the tools the skill uses in `requires.tools`",
        )
        .in_file(&skill.path)
    });
    (index, warning)
}
