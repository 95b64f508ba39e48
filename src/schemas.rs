//! The project's JSON Schemas, embedded in the binary and compiled once.

use jsonschema::Validator;
use serde_json::Value;
use std::sync::OnceLock;

/// The grading entry (equivalent to the spec annex `08-grading-model.schema.json`).
pub const GRADING_ENTRY: &str = include_str!("../schemas/grading-entry.schema.json");
/// What the harness returns for one area: an answer envelope or a blocker.
pub const ANSWER_ENVELOPE: &str = include_str!("../schemas/answer-envelope.schema.json");

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

pub fn answer_envelope() -> &'static Validator {
    static CELL: OnceLock<Validator> = OnceLock::new();
    CELL.get_or_init(|| compile_embedded(ANSWER_ENVELOPE))
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_schemas_compile() {
        let _ = super::grading_entry();
        let _ = super::answer_envelope();
    }
}
