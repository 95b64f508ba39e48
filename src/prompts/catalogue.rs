//! The question catalogue (`questions.json`, embedded): ids, areas, dimensions, determinism,
//! score types and weights as in the reference catalogue 1.0.0; texts in this project's words.

use crate::model::{Area, Determinism};
use serde::Deserialize;
use std::sync::OnceLock;

const CATALOGUE: &str = include_str!("questions.json");

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Question {
    pub id: String,
    pub area: Area,
    pub dimension: String,
    pub determinism: Determinism,
    pub score_type: ScoreType,
    pub weight: f64,
    pub persona_required: bool,
    pub question: String,
    pub guidance: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ScoreType {
    /// Answered `pass` or `fail`.
    #[serde(rename = "boolean")]
    Boolean,
    /// Answered with a number from 1.0 to 5.0.
    #[serde(rename = "scale-1-5")]
    Scale,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Catalogue {
    catalogue_version: String,
    #[allow(dead_code)]
    source: String,
    questions: Vec<Question>,
}

fn catalogue() -> &'static Catalogue {
    static PARSED: OnceLock<Catalogue> = OnceLock::new();
    PARSED.get_or_init(|| {
        serde_json::from_str(CATALOGUE).expect("the embedded questions.json is valid (tested)")
    })
}

pub fn version() -> &'static str {
    &catalogue().catalogue_version
}

pub fn all() -> &'static [Question] {
    &catalogue().questions
}

/// The questions of an area, in catalogue order.
pub fn for_area(area: Area) -> impl Iterator<Item = &'static Question> {
    all().iter().filter(move |q| q.area == area)
}

/// How an answer to `id` ages (spec ch. 08 aging): the live-API checks after the API window, the
/// terms-of-service check after the ToS window, everything else never.
pub fn aging_class(id: &str) -> crate::scoring::AgingClass {
    match id {
        "Q-single-test-01" | "Q-single-test-02" => crate::scoring::AgingClass::Api,
        "Q-about-namespace-06" => crate::scoring::AgingClass::Tos,
        // Ids outside the catalogue, as in the spec's examples (`Q-api-availability`, `Q-tos-…`).
        _ if id.contains("api-availability") => crate::scoring::AgingClass::Api,
        _ if id.contains("-tos") || id.contains("terms-of-service") || id.contains("legal") => {
            crate::scoring::AgingClass::Tos
        }
        _ => crate::scoring::AgingClass::Timeless,
    }
}

pub fn get(id: &str) -> Option<&'static Question> {
    all().iter().find(|q| q.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_matches_the_area_table() {
        // The reference catalogue's 60 plus the six selection-aggregate questions it lacks.
        assert_eq!(all().len(), 66);
        for spec in crate::model::AREAS {
            let questions: Vec<_> = for_area(spec.area).collect();
            assert_eq!(questions.len(), spec.answers, "{:?}", spec.area);
            let deterministic = questions
                .iter()
                .filter(|q| q.determinism == Determinism::Deterministic)
                .count();
            assert_eq!(deterministic, spec.deterministic_answers, "{:?}", spec.area);
            for (i, q) in questions.iter().enumerate() {
                assert_eq!(q.id, format!("Q-{}-{:02}", spec.area.as_str(), i + 1));
                assert!(q.weight > 0.0 && !q.question.is_empty() && !q.guidance.is_empty());
            }
        }
    }
}
