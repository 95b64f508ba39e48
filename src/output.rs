//! Printing results: text for people, one JSON object (2-space indent) for machines.

use crate::commands::{CommandError, Outcome};
use crate::diagnostic::{Coded, Diagnostic};
use serde_json::json;

pub fn print_outcome(outcome: &Outcome, json: bool) {
    if json {
        println!("{}", pretty(&outcome.json));
    } else {
        print!("{}", outcome.text);
    }
}

/// A refused or failed command: `error[CODE]: …` and `fix: …` on stderr, or a JSON error object
/// on stdout.
pub fn print_error(err: &CommandError, json: bool) {
    if json {
        let mut object = json!({
            "status": false,
            "code": err.code(),
            "error": err.to_string(),
            "fix": err.fix(),
        });
        if let Some((key, value)) = err.json_details() {
            object[key] = value;
        }
        println!("{}", pretty(&object));
    } else {
        for detail in err.details() {
            eprintln!("{detail}");
        }
        eprintln!("{}", Diagnostic::from_coded(err));
    }
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}
