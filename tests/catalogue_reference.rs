//! The project's question catalogue carries the reference catalogue's facts: ids, areas,
//! dimensions, determinism, score types, weights and persona flags (texts are our own).
//! Skipped, with a printed reason, when ../shared/reference is absent.

mod support;

use flowmcp_grading::prompts::catalogue;
use serde_json::Value;

#[test]
fn ids_weights_and_determinism_agree_with_the_reference() {
    let Some(reference) = support::shared_reference() else {
        println!("skipped: ../shared/reference is not present");
        return;
    };
    let path = reference.join("refimpl/generated/questions.json");
    let reference = support::read(&path);
    let questions = reference["questions"].as_array().unwrap();
    // selection-aggregate is not in the reference catalogue (spec-digest §1.4); ours adds it.
    let ours: Vec<_> = catalogue::all()
        .iter()
        .filter(|q| q.area.as_str() != "selection-aggregate")
        .collect();
    assert_eq!(ours.len(), questions.len());
    for (mine, theirs) in ours.iter().zip(questions) {
        assert_eq!(mine.id, theirs["id"].as_str().unwrap());
        assert_eq!(
            mine.area.as_str(),
            theirs["area"].as_str().unwrap(),
            "{}",
            mine.id
        );
        assert_eq!(
            mine.dimension,
            theirs["dimension"].as_str().unwrap(),
            "{}",
            mine.id
        );
        assert_eq!(
            mine.determinism.as_str(),
            theirs["determinism"].as_str().unwrap(),
            "{}",
            mine.id
        );
        assert_eq!(Some(mine.weight), theirs["weight"].as_f64(), "{}", mine.id);
        assert_eq!(
            Value::Bool(mine.persona_required),
            theirs["personaRequired"],
            "{}",
            mine.id
        );
        let kind = match mine.score_type {
            catalogue::ScoreType::Boolean => "boolean",
            catalogue::ScoreType::Scale => "scale-1-5",
        };
        assert_eq!(kind, theirs["scoreType"].as_str().unwrap(), "{}", mine.id);
        assert_ne!(
            mine.question,
            theirs["question"].as_str().unwrap(),
            "{}: texts are our own",
            mine.id
        );
    }
}
