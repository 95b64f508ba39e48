//! `flowmcp-grading validate <file>…`

use super::Outcome;
use crate::cli::ValidateArgs;
use crate::diagnostic::Diagnostic;
use crate::validate::{FileReport, validate_files};
use serde_json::json;
use std::fmt::Write as _;

pub fn run(args: &ValidateArgs) -> Outcome {
    let reports = validate_files(&args.files, args.kind);
    let invalid = reports.iter().filter(|r| !r.valid).count();
    let valid = reports.len() - invalid;
    Outcome {
        success: invalid == 0,
        text: render(&reports, valid, invalid),
        json: json!({
            "status": invalid == 0,
            "checked": reports.len(),
            "valid": valid,
            "invalid": invalid,
            "files": reports,
        }),
    }
}

fn render(reports: &[FileReport], valid: usize, invalid: usize) -> String {
    let mut text = String::new();
    for report in reports {
        let kind = report.kind.map_or(String::new(), |k| {
            format!(
                " ({})",
                serde_json::to_value(k)
                    .unwrap_or_default()
                    .as_str()
                    .unwrap_or_default()
            )
        });
        let label = if report.valid { "ok  " } else { "FAIL" };
        let _ = writeln!(text, "{label} {}{kind}", report.file.display());
        for diagnostic in &report.diagnostics {
            let local = Diagnostic {
                file: None,
                ..diagnostic.clone()
            };
            for line in local.to_string().lines() {
                let _ = writeln!(text, "     {line}");
            }
        }
    }
    let files = if reports.len() == 1 { "file" } else { "files" };
    let _ = writeln!(
        text,
        "\n{} {files} checked: {valid} valid, {invalid} invalid",
        reports.len()
    );
    text
}
