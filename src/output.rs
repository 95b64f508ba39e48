//! Printing results: text for people, one JSON object (2-space indent) for machines.

use crate::commands::{CommandError, Outcome};
use crate::diagnostic::{Coded, Diagnostic};
use serde_json::json;

pub fn print_outcome(outcome: &Outcome, json: bool) {
    if json {
        println!("{}", pretty(&outcome.json));
    } else {
        anstream::print!("{}", style_text(&outcome.text));
    }
}

/// Colours the diagnostics inside a command's text (`error[…]`, `warning[…]`, `fix:` lines);
/// everything else is left as it is.
fn style_text(text: &str) -> String {
    if !text.contains("error[") && !text.contains("warning[") {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let indent = &body[..body.len() - body.trim_start().len()];
        let rest = body.trim_start();
        if rest.starts_with("error[") || rest.starts_with("warning[") || rest.starts_with("fix: ") {
            let severity = if rest.starts_with("warning[") {
                crate::diagnostic::Severity::Warning
            } else {
                crate::diagnostic::Severity::Error
            };
            let shown = match rest.strip_prefix("fix: ") {
                Some(fix) => fix_line(fix),
                None => styled_lines(rest, severity),
            };
            out.push_str(indent);
            out.push_str(&shown);
            out.push_str(&line[body.len()..]);
        } else {
            out.push_str(line);
        }
    }
    out
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
            anstream::eprintln!("{}", styled(&detail));
        }
        anstream::eprintln!("{}", styled(&Diagnostic::from_coded(err)));
    }
}

/// A diagnostic with its label, code and `fix:` coloured (stripped again by anstream where
/// colour is off: NO_COLOR, `--color never`, or stderr not a terminal).
pub fn styled(diagnostic: &Diagnostic) -> String {
    styled_lines(&diagnostic.to_string(), diagnostic.severity)
}

fn styled_lines(plain: &str, severity: crate::diagnostic::Severity) -> String {
    use anstyle::{AnsiColor, Style};
    let bold = Style::new().bold();
    let label = match severity {
        crate::diagnostic::Severity::Error => AnsiColor::Red.on_default().bold(),
        crate::diagnostic::Severity::Warning => AnsiColor::Yellow.on_default().bold(),
    };
    let mut out = String::with_capacity(plain.len() + 32);
    for (i, line) in plain.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if i == 0
            && let Some((head, rest)) = line.split_once("]: ")
            && let Some((word, code)) = head.split_once('[')
        {
            out.push_str(&format!(
                "{label}{word}{label:#}[{bold}{code}{bold:#}]: {rest}"
            ));
        } else if let Some(rest) = line.strip_prefix("  fix: ") {
            out.push_str("  ");
            out.push_str(&fix_line(rest));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// `fix: <text>` with the label coloured.
fn fix_line(text: &str) -> String {
    let hint = anstyle::AnsiColor::Cyan.on_default().bold();
    format!("{hint}fix:{hint:#} {text}")
}

/// `-v`: the island root and where it came from, and the time taken, on stderr.
pub fn print_verbose(cli: &crate::cli::Cli, elapsed: std::time::Duration) {
    if let Ok((root, source)) = crate::island::resolve_root(cli.global.grading_data.as_deref()) {
        anstream::eprintln!("island: {} (from {source})", root.display());
    }
    anstream::eprintln!(
        "{}: {:.1} ms",
        cli.command.name(),
        elapsed.as_secs_f64() * 1000.0
    );
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}
