//! The eleven grading areas as one table.

use super::enums::Tier;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which side of the grading an area belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Provider,
    Selection,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Area {
    #[serde(rename = "single-test")]
    SingleTest,
    #[serde(rename = "tools-aggregate-schema")]
    ToolsAggregateSchema,
    #[serde(rename = "tools-aggregate-namespace")]
    ToolsAggregateNamespace,
    #[serde(rename = "namespace-description")]
    NamespaceDescription,
    #[serde(rename = "namespace-skills")]
    NamespaceSkills,
    #[serde(rename = "about-namespace")]
    AboutNamespace,
    #[serde(rename = "about-selection")]
    AboutSelection,
    #[serde(rename = "selection-skills-L1")]
    SelectionSkillsL1,
    #[serde(rename = "selection-skills-L2")]
    SelectionSkillsL2,
    #[serde(rename = "selection-skills-L3")]
    SelectionSkillsL3,
    #[serde(rename = "selection-aggregate")]
    SelectionAggregate,
}

/// Everything the tool needs to know about one area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AreaSpec {
    pub area: Area,
    /// The spec's name, e.g. `single-test`.
    pub id: &'static str,
    pub side: Side,
    pub tier: Tier,
    /// The entry must carry `persona`.
    pub persona_bound: bool,
    /// The entry must carry `skillId`; one entry per skill.
    pub per_skill: bool,
    /// Answers per entry: deterministic plus non-deterministic.
    pub answers: usize,
    pub deterministic_answers: usize,
    /// The `_gradings/` folder relative to the island root.
    pub grading_folder: &'static str,
    /// The node of `index.json` the area rolls up into (`None` where the spec defines none).
    pub index_node: Option<&'static str>,
    /// File name of the area's answer-envelope schema.
    pub output_schema: &'static str,
}

#[allow(clippy::too_many_arguments)] // one row of the table, in column order
const fn spec(
    area: Area,
    id: &'static str,
    side: Side,
    persona_bound: bool,
    per_skill: bool,
    (deterministic_answers, answers): (usize, usize),
    grading_folder: &'static str,
    index_node: Option<&'static str>,
    output_schema: &'static str,
) -> AreaSpec {
    let tier = match side {
        Side::Provider => Tier::Autonomous,
        Side::Selection => Tier::GroupBound,
    };
    AreaSpec {
        area,
        id,
        side,
        tier,
        persona_bound,
        per_skill,
        answers,
        deterministic_answers,
        grading_folder,
        index_node,
        output_schema,
    }
}

/// The master table (spec-digest §1.1), in the spec's order.
pub const AREAS: [AreaSpec; 11] = [
    spec(
        Area::SingleTest,
        "single-test",
        Side::Provider,
        false,
        false,
        (3, 10),
        "providers/<ns>/<schema>/tools/<tool>/_gradings",
        Some("schemas.<schema>.tools.<tool>"),
        "single-test.schema.json",
    ),
    spec(
        Area::ToolsAggregateSchema,
        "tools-aggregate-schema",
        Side::Provider,
        false,
        false,
        (1, 6),
        "providers/<ns>/<schema>/_gradings",
        Some("schemas.<schema>.toolsAggregate"),
        "tools-aggregate-schema.schema.json",
    ),
    spec(
        Area::ToolsAggregateNamespace,
        "tools-aggregate-namespace",
        Side::Provider,
        false,
        false,
        (1, 5),
        "providers/<ns>/_gradings",
        Some("namespaceAggregate"),
        "tools-aggregate-namespace.schema.json",
    ),
    spec(
        Area::NamespaceDescription,
        "namespace-description",
        Side::Provider,
        false,
        false,
        (0, 4),
        "providers/<ns>/_gradings",
        Some("description"),
        "namespace-description.schema.json",
    ),
    spec(
        Area::NamespaceSkills,
        "namespace-skills",
        Side::Provider,
        true,
        true,
        (0, 6),
        "providers/<ns>/<schema>/skills/<skill>/_gradings",
        Some("skills.<schema>.<skill>"),
        "namespace-skills.schema.json",
    ),
    spec(
        Area::AboutNamespace,
        "about-namespace",
        Side::Provider,
        true,
        false,
        (1, 7),
        "providers/<ns>/<schema>/resources/about/_gradings",
        Some("about"),
        "about-namespace.schema.json",
    ),
    spec(
        Area::AboutSelection,
        "about-selection",
        Side::Selection,
        true,
        false,
        (1, 7),
        "selections/<sel>/resources/about/_gradings",
        Some("about"),
        "about-selection.schema.json",
    ),
    spec(
        Area::SelectionSkillsL1,
        "selection-skills-L1",
        Side::Selection,
        true,
        true,
        (0, 4),
        "selections/<sel>/skills/<skill>/_gradings",
        None,
        "selection-skills-L1.schema.json",
    ),
    spec(
        Area::SelectionSkillsL2,
        "selection-skills-L2",
        Side::Selection,
        true,
        true,
        (0, 5),
        "selections/<sel>/skills/<skill>/_gradings",
        None,
        "selection-skills-L2.schema.json",
    ),
    spec(
        Area::SelectionSkillsL3,
        "selection-skills-L3",
        Side::Selection,
        true,
        true,
        (0, 6),
        "selections/<sel>/skills/<skill>/_gradings",
        None,
        "selection-skills-L3.schema.json",
    ),
    spec(
        Area::SelectionAggregate,
        "selection-aggregate",
        Side::Selection,
        true,
        false,
        (2, 6),
        "selections/<sel>/_gradings",
        Some("selectionAggregate"),
        "selection-aggregate.schema.json",
    ),
];

impl Area {
    /// All areas in the spec's order.
    pub const ALL: [Area; 11] = [
        Area::SingleTest,
        Area::ToolsAggregateSchema,
        Area::ToolsAggregateNamespace,
        Area::NamespaceDescription,
        Area::NamespaceSkills,
        Area::AboutNamespace,
        Area::AboutSelection,
        Area::SelectionSkillsL1,
        Area::SelectionSkillsL2,
        Area::SelectionSkillsL3,
        Area::SelectionAggregate,
    ];

    pub fn spec(self) -> &'static AreaSpec {
        &AREAS[self as usize]
    }

    pub fn as_str(self) -> &'static str {
        self.spec().id
    }

    pub fn tier(self) -> Tier {
        self.spec().tier
    }

    pub fn side(self) -> Side {
        self.spec().side
    }

    pub fn persona_bound(self) -> bool {
        self.spec().persona_bound
    }

    pub fn per_skill(self) -> bool {
        self.spec().per_skill
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of the eleven areas.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown area `{0}`")]
pub struct UnknownArea(pub String);

impl FromStr for Area {
    type Err = UnknownArea;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AREAS
            .iter()
            .find(|spec| spec.id == s)
            .map(|spec| spec.area)
            .ok_or_else(|| UnknownArea(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_the_enum() {
        for (i, area) in Area::ALL.iter().enumerate() {
            assert_eq!(AREAS[i].area, *area);
            assert_eq!(area.spec().id.parse::<Area>().unwrap(), *area);
            assert_eq!(
                serde_json::to_value(area).unwrap(),
                serde_json::json!(area.as_str())
            );
        }
    }

    #[test]
    fn sides_tiers_and_lists_match_the_annex() {
        let provider: Vec<_> = Area::ALL
            .iter()
            .filter(|a| a.side() == Side::Provider)
            .collect();
        assert_eq!(provider.len(), 6);
        assert!(provider.iter().all(|a| a.tier() == Tier::Autonomous));
        let persona: Vec<_> = Area::ALL
            .iter()
            .filter(|a| a.persona_bound())
            .map(|a| a.as_str())
            .collect();
        assert_eq!(
            persona,
            [
                "namespace-skills",
                "about-namespace",
                "about-selection",
                "selection-skills-L1",
                "selection-skills-L2",
                "selection-skills-L3",
                "selection-aggregate"
            ]
        );
        let skill: Vec<_> = Area::ALL
            .iter()
            .filter(|a| a.per_skill())
            .map(|a| a.as_str())
            .collect();
        assert_eq!(
            skill,
            [
                "namespace-skills",
                "selection-skills-L1",
                "selection-skills-L2",
                "selection-skills-L3"
            ]
        );
        let answers: usize = AREAS.iter().map(|s| s.answers).sum();
        assert_eq!(
            answers, 66,
            "60 catalogue questions plus 6 selection-aggregate answers"
        );
    }

    #[test]
    fn unknown_area_is_an_error() {
        assert!("single-tests".parse::<Area>().is_err());
        assert!("".parse::<Area>().is_err());
    }
}
