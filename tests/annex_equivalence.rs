//! The embedded grading-entry schema accepts and rejects exactly what the spec's annex does.
//! Needs `../shared/reference`; skipped with a printed reason when it is absent.

mod support;

use flowmcp_grading::schemas;

#[test]
fn embedded_schema_agrees_with_the_annex() {
    let Some(reference) = support::shared_reference() else {
        println!("skipped: ../shared/reference is absent, so the annex cannot be compared");
        return;
    };
    let annex = support::read(&reference.join("spec-2.0.0/08-grading-model.schema.json"));
    let annex = schemas::compile(&annex).expect("annex compiles");
    let ours = schemas::grading_entry();

    let mut documents: Vec<(String, serde_json::Value)> = support::valid_entries();
    documents.extend(
        support::broken_variants()
            .into_iter()
            .map(|v| (v.name.to_string(), v.value)),
    );
    let mut disagreements = Vec::new();
    let (mut accepted, mut rejected) = (0, 0);
    for (name, document) in &documents {
        let (a, o) = (annex.is_valid(document), ours.is_valid(document));
        if a != o {
            disagreements.push(format!("{name}: annex {a}, ours {o}"));
        }
        if a { accepted += 1 } else { rejected += 1 }
    }
    println!(
        "compared {} documents with the annex: {accepted} accepted, {rejected} rejected by both",
        documents.len()
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(
        accepted >= 5 && rejected >= 25,
        "the corpus covers both outcomes"
    );
}
