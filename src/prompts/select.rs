//! Which areas an emit grades: `--phase` parsing with the node CLI's messages, applicability
//! (no About → `about-namespace` skipped), the dependency gate (namespace areas need every schema
//! deterministic-green), and the selector (reference-cli.md §1.5, §2.3, §2.4.2 step 6).

use crate::diagnostic::Coded;
use crate::model::{Area, NaReason};
use serde::Serialize;

/// Emission order of the provider flow.
pub const PROVIDER_AREAS: [Area; 6] = [
    Area::SingleTest,
    Area::ToolsAggregateSchema,
    Area::ToolsAggregateNamespace,
    Area::NamespaceDescription,
    Area::NamespaceSkills,
    Area::AboutNamespace,
];

/// The order the node CLI lists areas in its `--phase` message.
const PHASE_LISTING: [&str; 11] = [
    "single-test",
    "tools-aggregate-schema",
    "namespace-description",
    "tools-aggregate-namespace",
    "about-namespace",
    "about-selection",
    "selection-skills-L1",
    "selection-skills-L2",
    "selection-skills-L3",
    "namespace-skills",
    "selection-aggregate",
];

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AreaSelector {
    /// `default`, `single` or `subset`.
    pub mode: &'static str,
    pub areas: Option<Vec<Area>>,
}

impl AreaSelector {
    pub fn all() -> Self {
        AreaSelector {
            mode: "default",
            areas: None,
        }
    }
}

/// `--phase` problems. Codes: PHS-001 empty member, PHS-002 unknown area, PHS-003 duplicate.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PhaseError {
    #[error(
        "Empty --phase member in \"{0}\" (no silent skip; every comma-separated area must be non-empty)."
    )]
    Empty(String),
    #[error("Unknown --phase area(s): {0} (allowed: {allowed}).", allowed = PHASE_LISTING.join(", "))]
    Unknown(String),
    #[error("Duplicate --phase area(s): {0} (no silent dedupe; pass each area once).")]
    Duplicate(String),
}

impl Coded for PhaseError {
    fn code(&self) -> &'static str {
        match self {
            PhaseError::Empty(_) => "PHS-001",
            PhaseError::Unknown(_) => "PHS-002",
            PhaseError::Duplicate(_) => "PHS-003",
        }
    }
    fn fix(&self) -> String {
        "Pass --phase as a comma-separated set of known areas, or omit it for all applicable areas."
            .into()
    }
}

pub fn parse_phase(text: Option<&str>) -> Result<AreaSelector, PhaseError> {
    let Some(text) = text else {
        return Ok(AreaSelector::all());
    };
    let tokens: Vec<&str> = text.split(',').map(str::trim).collect();
    if tokens.iter().any(|t| t.is_empty()) {
        return Err(PhaseError::Empty(text.to_owned()));
    }
    let unknown: Vec<&str> = tokens
        .iter()
        .copied()
        .filter(|t| t.parse::<Area>().is_err())
        .collect();
    if !unknown.is_empty() {
        return Err(PhaseError::Unknown(unknown.join(", ")));
    }
    let mut seen = Vec::new();
    let mut duplicates = Vec::new();
    for token in &tokens {
        if seen.contains(token) {
            if !duplicates.contains(token) {
                duplicates.push(*token);
            }
        } else {
            seen.push(*token);
        }
    }
    if !duplicates.is_empty() {
        return Err(PhaseError::Duplicate(duplicates.join(", ")));
    }
    let areas: Vec<Area> = tokens.iter().filter_map(|t| t.parse().ok()).collect();
    Ok(AreaSelector {
        mode: if areas.len() == 1 { "single" } else { "subset" },
        areas: Some(areas),
    })
}

/// The readiness ladder of reference-cli.md §3.13.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    Imported,
    StructuralValid,
    DeterministicGreen,
    Stable,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Imported => "imported",
            Level::StructuralValid => "structural-valid",
            Level::DeterministicGreen => "deterministic-green",
            Level::Stable => "stable",
        }
    }
}

/// What the resolution needs to know about the namespace.
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    pub about_present: bool,
    pub skills_present: bool,
    /// The lowest level over all schemas (deterministic-green when its pretest passed).
    pub namespace_level: Level,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkippedArea {
    pub area: Area,
    pub na_reason: NaReason,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GatedArea {
    pub area: Area,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Resolution {
    pub emitted: Vec<Area>,
    pub skipped: Vec<SkippedArea>,
    pub gated: Vec<GatedArea>,
}

/// Resolves the provider flow's emitted area set.
pub fn resolve_provider(selector: &AreaSelector, facts: Facts) -> Resolution {
    let mut resolution = Resolution::default();
    let mut ready = Vec::new();
    for area in PROVIDER_AREAS {
        match area {
            Area::AboutNamespace if !facts.about_present => resolution.skipped.push(SkippedArea {
                area,
                na_reason: NaReason::OutOfScopeResource,
                note: Some("no About resource is declared in any schema of the namespace".into()),
            }),
            Area::NamespaceSkills if !facts.skills_present => {
                resolution.skipped.push(SkippedArea {
                    area,
                    na_reason: NaReason::OutOfScopeResource,
                    note: Some("the namespace has no skills".into()),
                })
            }
            Area::ToolsAggregateNamespace | Area::NamespaceDescription | Area::NamespaceSkills
                if facts.namespace_level < Level::DeterministicGreen =>
            {
                resolution.gated.push(GatedArea {
                    area,
                    reason: format!(
                        "dependency all-namespace-schemas below requiredLevel deterministic-green (have {})",
                        facts.namespace_level.as_str()
                    ),
                });
            }
            _ => ready.push(area),
        }
    }
    apply_selector(
        selector,
        ready,
        &mut resolution,
        |_| "named in --phase but not currently emittable (skipped or gated)",
    );
    resolution
}

/// Narrows the ready areas to those `--phase` names (emission order stays the flow's order);
/// each named area that is not ready is reported as skipped with `note_for(area)`.
pub fn apply_selector(
    selector: &AreaSelector,
    ready: Vec<Area>,
    resolution: &mut Resolution,
    note_for: impl Fn(Area) -> &'static str,
) {
    let Some(named) = &selector.areas else {
        resolution.emitted = ready;
        return;
    };
    resolution.emitted = ready
        .iter()
        .copied()
        .filter(|a| named.contains(a))
        .collect();
    for area in named.iter().filter(|a| !ready.contains(a)) {
        resolution.skipped.retain(|s| s.area != *area);
        resolution.skipped.push(SkippedArea {
            area: *area,
            na_reason: NaReason::BlockedByPrecondition,
            note: Some(note_for(*area).into()),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::task_id;

    #[test]
    fn phase_messages_are_the_node_clis() {
        assert_eq!(parse_phase(None).unwrap(), AreaSelector::all());
        let one = parse_phase(Some("single-test")).unwrap();
        assert_eq!(
            (one.mode, one.areas.unwrap()),
            ("single", vec![Area::SingleTest])
        );
        assert_eq!(
            parse_phase(Some(" single-test , tools-aggregate-schema"))
                .unwrap()
                .mode,
            "subset"
        );
        assert_eq!(
            parse_phase(Some("single-test,")).unwrap_err().to_string(),
            "Empty --phase member in \"single-test,\" (no silent skip; every comma-separated area must be non-empty)."
        );
        assert_eq!(
            parse_phase(Some("bogus,single-test,nope"))
                .unwrap_err()
                .to_string(),
            "Unknown --phase area(s): bogus, nope (allowed: single-test, tools-aggregate-schema, namespace-description, tools-aggregate-namespace, about-namespace, about-selection, selection-skills-L1, selection-skills-L2, selection-skills-L3, namespace-skills, selection-aggregate)."
        );
        assert_eq!(
            parse_phase(Some("single-test,single-test"))
                .unwrap_err()
                .to_string(),
            "Duplicate --phase area(s): single-test (no silent dedupe; pass each area once)."
        );
    }

    fn green() -> Facts {
        Facts {
            about_present: false,
            skills_present: true,
            namespace_level: Level::DeterministicGreen,
        }
    }

    #[test]
    fn demoapi_worked_cases() {
        // Pretest ok, no About: five areas, the reference Task-ID.
        let r = resolve_provider(&AreaSelector::all(), green());
        assert_eq!(r.emitted.len(), 5);
        assert_eq!(r.skipped[0].area, Area::AboutNamespace);
        assert_eq!(
            task_id::generate("demoapi", &r.emitted).unwrap(),
            "demoapi--375671be"
        );
        // Pretest not ok: namespace areas gated with the node's reason.
        let r = resolve_provider(
            &AreaSelector::all(),
            Facts {
                namespace_level: Level::StructuralValid,
                ..green()
            },
        );
        assert_eq!(
            r.emitted,
            vec![Area::SingleTest, Area::ToolsAggregateSchema]
        );
        assert_eq!(r.gated.len(), 3);
        assert_eq!(
            r.gated[0].reason,
            "dependency all-namespace-schemas below requiredLevel deterministic-green (have structural-valid)"
        );
        // --phase subsets.
        let single = resolve_provider(&parse_phase(Some("single-test")).unwrap(), green());
        assert_eq!(
            task_id::generate("demoapi", &single.emitted).unwrap(),
            "demoapi--24dfd499"
        );
        let pair = resolve_provider(
            &parse_phase(Some("tools-aggregate-schema,single-test")).unwrap(),
            green(),
        );
        assert_eq!(
            task_id::generate("demoapi", &pair.emitted).unwrap(),
            "demoapi--6a387a3f"
        );
        // A named area that is not emittable is reported, not silently dropped.
        let about = resolve_provider(&parse_phase(Some("about-namespace")).unwrap(), green());
        assert!(about.emitted.is_empty());
        assert_eq!(about.skipped[0].na_reason, NaReason::BlockedByPrecondition);
    }
}
