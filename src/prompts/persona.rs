//! Personas for persona-bound areas: `--persona base:lens`, or a default per area. Lens defaults
//! to the namespace (or selection) id, as spec-digest §14 item 8 decides.

use crate::diagnostic::Coded;
use crate::island::names::is_id;
use crate::model::{Area, BasePersona};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Persona {
    pub base_persona_id: String,
    pub lens_id: String,
}

/// The default base persona of a persona-bound area (README "Personas").
pub fn default_base(area: Area) -> Option<BasePersona> {
    match area {
        Area::NamespaceSkills
        | Area::SelectionSkillsL1
        | Area::SelectionSkillsL2
        | Area::SelectionSkillsL3 => Some(BasePersona::AiEngineer),
        Area::AboutNamespace | Area::AboutSelection | Area::SelectionAggregate => {
            Some(BasePersona::DecisionMaker)
        }
        _ => None,
    }
}

/// Codes: PER-001 `--persona` is not `<base>:<lens>` with a known base and a valid lens id.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("invalid --persona `{0}`: expected <base>:<lens> with base one of {bases} and lens matching [a-z][a-z0-9-]*", bases = BasePersona::allowed())]
pub struct PersonaError(pub String);

impl Coded for PersonaError {
    fn code(&self) -> &'static str {
        "PER-001"
    }
    fn fix(&self) -> String {
        "pass e.g. --persona ai-engineer:defi, or omit it for the per-area defaults".into()
    }
}

pub fn parse_persona(text: &str) -> Result<Persona, PersonaError> {
    let err = || PersonaError(text.to_owned());
    let (base, lens) = text.split_once(':').ok_or_else(err)?;
    base.parse::<BasePersona>().map_err(|_| err())?;
    if !is_id(lens) {
        return Err(err());
    }
    Ok(Persona {
        base_persona_id: base.to_owned(),
        lens_id: lens.to_owned(),
    })
}

/// The persona of `area`: the override when given, else the area's default with the namespace
/// as lens; `None` for neutral areas.
pub fn persona_for(area: Area, overridden: Option<&Persona>, namespace: &str) -> Option<Persona> {
    let base = default_base(area)?;
    Some(overridden.cloned().unwrap_or_else(|| Persona {
        base_persona_id: base.as_str().to_owned(),
        lens_id: namespace.to_owned(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_overrides() {
        let p = persona_for(Area::AboutNamespace, None, "defillama").unwrap();
        assert_eq!(
            (p.base_persona_id.as_str(), p.lens_id.as_str()),
            ("decision-maker", "defillama")
        );
        assert_eq!(persona_for(Area::SingleTest, None, "x"), None);
        let o = parse_persona("ai-engineer:defi").unwrap();
        assert_eq!(
            persona_for(Area::NamespaceSkills, Some(&o), "x"),
            Some(o.clone())
        );
        assert_eq!(persona_for(Area::ToolsAggregateSchema, Some(&o), "x"), None);
        for bad in ["ai-engineer", "nobody:defi", "ai-engineer:De Fi", ":x"] {
            assert!(parse_persona(bad).is_err(), "{bad}");
        }
    }
}
