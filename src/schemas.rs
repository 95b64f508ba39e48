//! The project's JSON Schemas, embedded in the binary and compiled once.

use jsonschema::Validator;
use serde_json::Value;
use std::sync::OnceLock;

/// The grading entry (equivalent to the spec annex `08-grading-model.schema.json`).
pub const GRADING_ENTRY: &str = include_str!("../schemas/grading-entry.schema.json");
/// What the harness returns for one area: an answer envelope or a blocker.
pub const ANSWER_ENVELOPE: &str = include_str!("../schemas/answer-envelope.schema.json");

/// The harness's answers (`scores.json`).
pub const SCORES: &str = include_str!("../schemas/scores.schema.json");
/// The emitted handoff (`prompts.json`); it refers to definitions of `SCORES`.
pub const PROMPTS: &str = include_str!("../schemas/prompts.schema.json");
const SCORES_ID: &str = "https://flowmcp-grading.local/schemas/scores.schema.json";

/// Compiles a draft 2020-12 schema with `format` asserted (as Ajv with ajv-formats does).
pub fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema)
        .map_err(|err| err.to_string())
}

fn compile_embedded(text: &str) -> Validator {
    let schema: Value = serde_json::from_str(text).expect("embedded schema is valid JSON");
    compile(&schema).expect("embedded schema compiles")
}

pub fn grading_entry() -> &'static Validator {
    static CELL: OnceLock<Validator> = OnceLock::new();
    CELL.get_or_init(|| compile_embedded(GRADING_ENTRY))
}

pub fn scores() -> &'static Validator {
    static CELL: OnceLock<Validator> = OnceLock::new();
    CELL.get_or_init(|| compile_embedded(SCORES))
}

pub fn prompts() -> &'static Validator {
    static CELL: OnceLock<Validator> = OnceLock::new();
    CELL.get_or_init(|| {
        let schema: Value = serde_json::from_str(PROMPTS).expect("embedded schema is valid JSON");
        let scores: Value = serde_json::from_str(SCORES).expect("embedded schema is valid JSON");
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .with_retriever(Embedded { scores })
            .build(&schema)
            .expect("embedded schema compiles")
    })
}

/// Serves the embedded scores schema to `$ref`s from the prompts schema; nothing is fetched.
struct Embedded {
    scores: Value,
}

impl jsonschema::Retrieve for Embedded {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        if uri.as_str() == SCORES_ID {
            Ok(self.scores.clone())
        } else {
            Err(format!("no embedded schema at {uri}").into())
        }
    }
}

pub fn answer_envelope() -> &'static Validator {
    static CELL: OnceLock<Validator> = OnceLock::new();
    CELL.get_or_init(|| compile_embedded(ANSWER_ENVELOPE))
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_schemas_compile() {
        let _ = super::grading_entry();
        let _ = super::scores();
        let _ = super::prompts();
        let _ = super::answer_envelope();
    }
}
