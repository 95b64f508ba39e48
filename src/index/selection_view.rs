//! A selection as the island holds it: the newest definition snapshot, its About (the
//! domain-knowledge document) and its skills with their stored `level`, and the member
//! namespaces. Read by the selection index and by the selection emit.

use crate::island::names::{Found, child_dirs, resolve_latest};
use crate::island::{Island, IslandError, layout};
use serde_json::Value;
use std::path::PathBuf;

/// The seven mandatory sections of a domain-knowledge document (spec ch. 10), in order, each
/// with the words a heading must contain.
pub const DK_SECTIONS: [(&str, &[&str]); 7] = [
    ("Identity", &["identity"]),
    ("Shared Lists", &["shared list"]),
    ("Conventions", &["convention"]),
    ("Forbidden Conventions", &["forbidden"]),
    ("Use Cases", &["use case", "use-case", "usecase"]),
    ("Personas Reference and Lens", &["persona"]),
    ("Aging Rule", &["aging", "ageing"]),
];

/// The thresholds of spec ch. 05/10, counted in member namespaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    /// Fewer than 5: not a group; no selection areas; grade `n/a`.
    BelowSoft,
    /// 5–6: selection areas run with reduced scope; no A.
    Reduced,
    /// 7 or more: A reachable.
    Full,
}

impl Band {
    pub fn of(namespaces: usize) -> Band {
        match namespaces {
            0..=4 => Band::BelowSoft,
            5 | 6 => Band::Reduced,
            _ => Band::Full,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Band::BelowSoft => "below-soft-threshold",
            Band::Reduced => "reduced",
            Band::Full => "full",
        }
    }

    /// The best selection grade the band allows (`None`: no selection grade at all).
    pub fn max_grade(self) -> Option<&'static str> {
        match self {
            Band::BelowSoft => None,
            Band::Reduced => Some("B"),
            Band::Full => Some("A"),
        }
    }
}

#[derive(Debug)]
pub struct SelectionSkillView {
    pub name: String,
    /// `L1`, `L2` or `L3` as stored in the skill; empty when unreadable.
    pub level: String,
    pub file: PathBuf,
    pub hash8: String,
    /// The static `skill` export (`Null` when the snapshot cannot be read).
    pub skill: Value,
}

impl SelectionSkillView {
    /// The text the cross-reference rules look at: content, description and whenToUse.
    pub fn text(&self) -> String {
        ["content", "description", "whenToUse"]
            .iter()
            .filter_map(|k| self.skill[*k].as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Names of skills referenced with `{{skill:<name>}}`.
    pub fn skill_placeholders(&self) -> Vec<String> {
        let text = self.text();
        let mut out = Vec::new();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("{{skill:") {
            rest = &rest[start + 8..];
            if let Some(end) = rest.find("}}") {
                let name = rest[..end].trim().to_owned();
                if !out.contains(&name) {
                    out.push(name);
                }
                rest = &rest[end..];
            }
        }
        out
    }

    /// Whether this skill names `other` verbatim in its texts (as a whole name, not as part of
    /// a longer one).
    pub fn names(&self, other: &str) -> bool {
        let text = self.text();
        let part = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        text.match_indices(other).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + other.len()..].chars().next();
            !before.is_some_and(part) && !after.is_some_and(part)
        })
    }
}

pub struct SelectionView {
    pub id: String,
    pub definition: Value,
    pub definition_file: Found,
    /// (newest About markdown, its hash8)
    pub about: Option<(PathBuf, String)>,
    pub skills: Vec<SelectionSkillView>,
}

impl SelectionView {
    pub fn hash(&self) -> &str {
        &self.definition_file.version.hash8
    }

    /// Member schema ids in definition order.
    pub fn member_ids(&self) -> Vec<String> {
        self.definition["members"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["schemaId"].as_str().map(str::to_owned))
            .collect()
    }

    /// Distinct member namespaces.
    pub fn namespaces(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .member_ids()
            .iter()
            .filter_map(|id| id.split_once('.').map(|(ns, _)| ns.to_owned()))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    pub fn band(&self) -> Band {
        Band::of(self.namespaces().len())
    }

    pub fn persona_ids(&self) -> Vec<String> {
        self.definition["personaIds"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p.as_str().map(str::to_owned))
            .collect()
    }

    /// The skills an L2 (L1s) or L3 (L2s) skill builds on: those of the level below that name
    /// it (Rules A and B of spec ch. 13) or that it names with `{{skill:<name>}}`. An error
    /// says why the skill cannot be graded: it names a skill the selection does not have, or
    /// no predecessor exists.
    pub fn predecessors(
        &self,
        skill: &SelectionSkillView,
    ) -> Result<Vec<&SelectionSkillView>, String> {
        let below = match skill.level.as_str() {
            "L2" => "L1",
            "L3" => "L2",
            _ => return Ok(Vec::new()),
        };
        let referenced = skill.skill_placeholders();
        if let Some(missing) = referenced
            .iter()
            .find(|name| !self.skills.iter().any(|s| &s.name == *name))
        {
            return Err(format!(
                "names skill `{missing}`, which the selection does not have (dangling reference)"
            ));
        }
        let found: Vec<&SelectionSkillView> = self
            .skills
            .iter()
            .filter(|s| s.level == below && (s.names(&skill.name) || referenced.contains(&s.name)))
            .collect();
        if found.is_empty() {
            return Err(format!(
                "no {below} skill of the selection names it; an {} skill needs its {below} predecessors graded",
                skill.level
            ));
        }
        Ok(found)
    }

    /// The DK sections missing from the About (all seven when there is no About).
    pub fn missing_dk_sections(&self) -> Vec<&'static str> {
        let text = self
            .about
            .as_ref()
            .and_then(|(path, _)| std::fs::read_to_string(path).ok())
            .unwrap_or_default();
        let headings: Vec<String> = text
            .lines()
            .filter(|l| l.trim_start().starts_with('#'))
            .map(str::to_lowercase)
            .collect();
        DK_SECTIONS
            .iter()
            .filter(|(_, words)| {
                !headings
                    .iter()
                    .any(|h| words.iter().any(|w| h.contains(w)) && !is_forbidden_only(h, words))
            })
            .map(|(name, _)| *name)
            .collect()
    }
}

/// "Forbidden Conventions" must not count as the "Conventions" section.
fn is_forbidden_only(heading: &str, words: &[&str]) -> bool {
    words == ["convention"] && heading.contains("forbidden")
}

/// Loads the selection, `None` when no definition is imported.
pub fn load_selection(island: &Island, sel: &str) -> Result<Option<SelectionView>, IslandError> {
    let root = island.root();
    let Some(definition_file) =
        resolve_latest(&root.join(layout::selection_definitions(sel)), sel, "json")?
    else {
        return Ok(None);
    };
    let definition: Value = std::fs::read_to_string(&definition_file.path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    let about = resolve_latest(
        &root.join(layout::selection_about(sel)),
        &format!("{sel}-about"),
        "md",
    )?
    .map(|f| (f.path, f.version.hash8));
    let skills_dir = root.join(layout::selection(sel)).join("skills");
    let mut skills = Vec::new();
    for name in child_dirs(&skills_dir) {
        let Some(found) = resolve_latest(&skills_dir.join(&name), &name, "mjs")? else {
            continue;
        };
        let skill = crate::source::read_module(&found.path)
            .ok()
            .and_then(|m| match m.export("skill").map(|e| &e.value) {
                Some(Ok(crate::source::ExportValue::Json(v))) => Some(v.clone()),
                _ => None,
            })
            .unwrap_or(Value::Null);
        skills.push(SelectionSkillView {
            level: skill["level"].as_str().unwrap_or_default().to_owned(),
            name,
            file: found.path,
            hash8: found.version.hash8,
            skill,
        });
    }
    Ok(Some(SelectionView {
        id: sel.to_owned(),
        definition,
        definition_file,
        about,
        skills,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_follow_the_member_namespace_count() {
        assert_eq!(Band::of(0), Band::BelowSoft);
        assert_eq!(Band::of(4), Band::BelowSoft);
        assert_eq!(Band::of(5), Band::Reduced);
        assert_eq!(Band::of(6), Band::Reduced);
        assert_eq!(Band::of(7), Band::Full);
        assert_eq!(Band::of(40).max_grade(), Some("A"));
        assert_eq!(Band::of(5).max_grade(), Some("B"));
        assert_eq!(Band::of(3).max_grade(), None);
    }
}

#[cfg(test)]
mod predecessor_tests {
    use super::*;
    use serde_json::json;

    fn skill(name: &str, level: &str, content: &str) -> SelectionSkillView {
        SelectionSkillView {
            name: name.into(),
            level: level.into(),
            file: PathBuf::from(format!("{name}.mjs")),
            hash8: "aaaaaaaa".into(),
            skill: json!({"name": name, "level": level, "content": content}),
        }
    }

    fn view(skills: Vec<SelectionSkillView>) -> SelectionView {
        SelectionView {
            id: "s".into(),
            definition: json!({}),
            definition_file: Found {
                path: PathBuf::from("s.json"),
                version: crate::island::names::parse_versioned(
                    "s--2026-01-01T00-00-00Z--aaaaaaaa.json",
                )
                .unwrap(),
            },
            about: None,
            skills,
        }
    }

    #[test]
    fn predecessors_follow_the_naming_rules() {
        let v = view(vec![
            skill("entry", "L1", "see price-topic"),
            skill("price-topic", "L2", "then {{skill:daily}}"),
            skill("price", "L2", "unnamed by any L1"),
            skill("daily", "L3", "routine"),
            skill("dangling", "L2", "uses {{skill:ghost}}"),
        ]);
        let names = |r: Result<Vec<&SelectionSkillView>, String>| {
            r.map(|p| p.iter().map(|s| s.name.clone()).collect::<Vec<_>>())
        };
        assert_eq!(names(v.predecessors(&v.skills[0])), Ok(vec![]));
        assert_eq!(
            names(v.predecessors(&v.skills[1])),
            Ok(vec!["entry".into()])
        );
        // "price" occurs only inside "price-topic": not a name of it.
        assert!(
            v.predecessors(&v.skills[2])
                .unwrap_err()
                .contains("no L1 skill")
        );
        assert_eq!(
            names(v.predecessors(&v.skills[3])),
            Ok(vec!["price-topic".into()])
        );
        assert!(
            v.predecessors(&v.skills[4])
                .unwrap_err()
                .contains("`ghost`")
        );
    }

    #[test]
    fn dk_sections_are_found_by_heading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("about.md");
        std::fs::write(
            &path,
            "# X\n## Identity\n## Forbidden Conventions\n## Use Cases\n",
        )
        .unwrap();
        let mut v = view(Vec::new());
        v.about = Some((path, "aaaaaaaa".into()));
        assert_eq!(
            v.missing_dk_sections(),
            vec![
                "Shared Lists",
                "Conventions",
                "Personas Reference and Lens",
                "Aging Rule"
            ]
        );
        assert_eq!(view(Vec::new()).missing_dk_sections().len(), 7);
    }
}
