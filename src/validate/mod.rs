//! `validate`: checks grading entries and answer envelopes against the embedded schemas and
//! against the rules a schema cannot express.

mod entry;
mod envelope;
pub mod schema_codes;

use crate::diagnostic::{Coded, Diagnostic};
use crate::json_input::{MAX_JSON_BYTES, read_json_file};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub use entry::check as check_entry;
pub use envelope::check as check_envelope;

/// Which kind of document a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A grading entry (spec ch. 08).
    Entry,
    /// An area answer envelope or blocker returned by the harness (spec ch. 24).
    Envelope,
}

/// The outcome for one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub file: PathBuf,
    pub kind: Option<Kind>,
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads and checks one file. Never panics; every problem becomes a diagnostic.
pub fn validate_file(path: &Path, kind: Option<Kind>) -> FileReport {
    let (kind, diagnostics) = match read_json_file(path, MAX_JSON_BYTES) {
        Ok(value) => validate_value(&value, kind),
        Err(err) => (kind, vec![Diagnostic::from_coded(&err)]),
    };
    let diagnostics: Vec<Diagnostic> = diagnostics.into_iter().map(|d| d.in_file(path)).collect();
    FileReport {
        file: path.to_path_buf(),
        kind,
        valid: !diagnostics.iter().any(Diagnostic::is_error),
        diagnostics,
    }
}

/// Checks many files on all cores; the reports keep the order of `files`.
pub fn validate_files(files: &[PathBuf], kind: Option<Kind>) -> Vec<FileReport> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    if files.len() < 64 || workers == 1 {
        return files.iter().map(|f| validate_file(f, kind)).collect();
    }
    let chunk = files.len().div_ceil(workers);
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|f| validate_file(f, kind))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("validation does not panic"))
            .collect()
    })
}

/// Checks a parsed document; `kind` is detected from its shape when not given.
pub fn validate_value(value: &Value, kind: Option<Kind>) -> (Option<Kind>, Vec<Diagnostic>) {
    let Some(object) = value.as_object() else {
        let found = schema_codes::json_type(value);
        return (
            kind,
            vec![
                Diagnostic::error(
                    "VAL-001",
                    format!("top level is {found}, not an object"),
                    "a grading entry or answer envelope is one JSON object",
                )
                .at(""),
            ],
        );
    };
    let Some(kind) = kind.or_else(|| detect(object)) else {
        return (
            None,
            vec![
                Diagnostic::error(
                    "VAL-002",
                    "cannot tell whether this is a grading entry or an answer envelope",
                    "pass --kind entry or --kind envelope",
                )
                .at(""),
            ],
        );
    };
    let diagnostics = match kind {
        Kind::Entry => check_entry(value),
        Kind::Envelope => check_envelope(value),
    };
    (Some(kind), diagnostics)
}

fn detect(object: &serde_json::Map<String, Value>) -> Option<Kind> {
    let has = |key: &str| object.contains_key(key);
    if has("gradings") || has("aggregateGrade") || has("gradingMode") {
        Some(Kind::Entry)
    } else if has("answers") || has("blocker") || has("iteration") {
        Some(Kind::Envelope)
    } else {
        None
    }
}

/// Keeps the first diagnostic per (code, pointer): a rule checked both by the schema and in code
/// is reported once.
fn dedupe(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut seen = HashSet::new();
    diagnostics
        .into_iter()
        .filter(|d| seen.insert((d.code, d.pointer.clone())))
        .collect()
}

/// A diagnostic for a coded error at a pointer.
fn coded_at(err: &dyn Coded, pointer: String) -> Diagnostic {
    Diagnostic::from_coded(err).at(pointer)
}

#[cfg(test)]
mod tests;
