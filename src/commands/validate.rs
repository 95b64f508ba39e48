//! `flowmcp-grading validate <file>…`

use super::Outcome;
use crate::cli::ValidateArgs;
use crate::diagnostic::Diagnostic;
use crate::validate::{FileReport, validate_file};
use serde_json::json;
use std::fmt::Write as _;
use std::path::PathBuf;

pub fn run(args: &ValidateArgs) -> Outcome {
    let reports = validate_all(&args.files, args.kind);
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

/// Checks files on all cores; the reports keep the order of the arguments.
fn validate_all(files: &[PathBuf], kind: Option<crate::validate::Kind>) -> Vec<FileReport> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    if files.len() < 64 || workers == 1 {
        return files.iter().map(|f| validate_file(f, kind)).collect();
    }
    let chunk = files.len().div_ceil(workers);
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|f| validate_file(f, kind)).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

fn render(reports: &[FileReport], valid: usize, invalid: usize) -> String {
    let mut text = String::new();
    for report in reports {
        let kind = report
            .kind
            .map_or(String::new(), |k| format!(" ({})", serde_json::to_value(k).unwrap_or_default().as_str().unwrap_or_default()));
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
