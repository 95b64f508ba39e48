//! `flowmcp-grading report <target> [--out report.html]`: the self-contained HTML report of a
//! namespace or selection (`crate::report`). Read-only on the island; the report file is written
//! atomically (a temporary file beside it, then renamed).

use super::{CommandError, Outcome};
use crate::cli::{GlobalArgs, ReportArgs};
use crate::diagnostic::Coded;
use crate::island::{Island, Target, layout, resolve_root};
use crate::report::{ReportInput, render};
use serde_json::{Value, json};
use std::io::Write as _;
use std::path::Path;

/// Code RPT-001: the report file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the report {path}: {reason}")]
pub struct ReportError {
    pub(super) path: String,
    pub(super) reason: String,
}

impl Coded for ReportError {
    fn code(&self) -> &'static str {
        "RPT-001"
    }
    fn fix(&self) -> String {
        "pass --out with a path in a folder that exists and is writable".into()
    }
}

fn read_json(path: &Path) -> Option<Value> {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
}

/// Each schema's pretest summary and its per-test records.
fn pretests(provider: &Path) -> Result<Vec<(String, Value, Vec<Value>)>, CommandError> {
    let mut out = Vec::new();
    for slug in crate::index::schema_slugs(provider)? {
        let Some(summary) = read_json(&provider.join(&slug).join("summary.json")) else {
            continue;
        };
        let mut tests = Vec::new();
        let tools = provider.join(&slug).join("tools");
        for tool in crate::island::names::child_dirs(&tools) {
            let mut files: Vec<_> = std::fs::read_dir(tools.join(&tool).join("tests"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
            files.sort();
            tests.extend(files.iter().filter_map(|p| read_json(p)));
        }
        tests.sort_by_key(|t| (t["tool"].as_str().map(str::to_owned), t["test"].as_u64()));
        out.push((slug, summary, tests));
    }
    Ok(out)
}

pub fn run(args: &ReportArgs, global: &GlobalArgs) -> Result<Outcome, CommandError> {
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    let island = Island::open_existing(&root)?;
    let now = chrono::Utc::now();
    let input = match island.resolve_target(&args.target.target)? {
        Target::Provider(ns) => {
            let base = island.root().join(layout::provider(&ns));
            ReportInput {
                kind: "namespace",
                index: crate::index::rollup::namespace_index(&island, &ns, now)?,
                pretests: pretests(&base)?,
                base,
                id: ns,
                generated_at: crate::timestamp::to_rfc3339(now),
            }
        }
        Target::Selection(sel) => {
            let view = super::selection_run::require_selection(&island, &sel)?;
            ReportInput {
                kind: "selection",
                index: crate::index::selection::index_of(&island, &view, now)?,
                base: island.root().join(layout::selection(&sel)),
                pretests: Vec::new(),
                id: sel,
                generated_at: crate::timestamp::to_rfc3339(now),
            }
        }
    };
    let html = render(&input);
    let out = std::env::current_dir().unwrap_or_default().join(&args.out);
    write_atomic(&out, html.as_bytes()).map_err(|err| {
        CommandError::coded(ReportError {
            path: out.display().to_string(),
            reason: err.to_string(),
        })
    })?;
    Ok(Outcome {
        success: true,
        text: format!(
            "wrote the report of {} {} ({}, {}) to {}\n",
            input.kind,
            input.id,
            input.index["status"].as_str().unwrap_or("?"),
            input.index["grade"].as_str().unwrap_or("no grade"),
            out.display()
        ),
        json: json!({
            "status": true, "target": input.id, "flow": input.kind, "reportPath": out,
            "rollupStatus": input.index["status"], "rollupGrade": input.index["grade"],
            "bytes": html.len(),
        }),
    })
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report.html".into());
    let temp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}
