//! `flowmcp-grading deterministic <target>`: the live pretest of a namespace's tool tests, with
//! a per-tool table. Exit 1 when a schema does not pass (a tool below its working tests).

use super::{CommandError, Outcome};
use crate::cli::{DeterministicArgs, GlobalArgs, PretestArgs};
use crate::index::schema_slugs;
use crate::island::names::resolve_latest;
use crate::island::{Island, Target, layout, resolve_root};
use crate::pretest::{self, Limits, Options, SchemaInput, SchemaPretest};
use crate::source::{self, Module};
use serde_json::json;
use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};

pub fn run(args: &DeterministicArgs, global: &GlobalArgs) -> Result<Outcome, CommandError> {
    let (root, _) = resolve_root(global.grading_data.as_deref())?;
    let island = Island::open_existing(&root)?;
    let ns = match island.resolve_target(&args.target.target)? {
        Target::Provider(ns) => ns,
        Target::Selection(sel) => {
            return Err(CommandError::Other {
                code: "SEL-006",
                message: format!(
                    "selection {sel} has no live pretest of its own: `deterministic` tests a namespace's tools"
                ),
                fix: format!(
                    "run `flowmcp-grading deterministic <namespace>` for each member; the selection's code answers (thresholds, cascade stop) come with `flowmcp-grading run selections/{sel} --emit-prompts`"
                ),
            });
        }
    };
    let provider_dir = island.root().join(layout::provider(&ns));
    let mut modules: Vec<(String, String, Module)> = Vec::new();
    let mut unreadable = Vec::new();
    for slug in schema_slugs(&provider_dir)? {
        let dir = provider_dir.join(&slug).join("schema");
        let Some(latest) = resolve_latest(&dir, &slug, "mjs")? else {
            unreadable.push(format!("{slug}: no resolvable schema snapshot"));
            continue;
        };
        match source::read_module(&latest.path) {
            Ok(module) if module.schema_main().is_ok() => {
                let file = latest.version.file_name();
                modules.push((slug, file, module));
            }
            Ok(_) | Err(_) => unreadable.push(format!(
                "{slug}: cannot read schema snapshot {}",
                latest.path.display()
            )),
        }
    }
    let inputs: Vec<SchemaInput> = modules
        .iter()
        .map(|(slug, file, module)| SchemaInput {
            schema: slug.clone(),
            schema_file: file.clone(),
            main: module.schema_main().expect("checked above"),
            handlers: module.handlers.as_ref(),
        })
        .collect();
    let options = options(&args.pretest, args.only.as_deref());
    let results = pretest::run_namespace(&ns, &inputs, &options, &progress(global));
    {
        let island = Island::open(&root)?;
        let _lock = island.lock()?;
        for result in &results {
            pretest::persist(&island, result)?;
        }
        crate::index::rebuild_namespace(&island, &ns, chrono::Utc::now())?;
    }
    let ok = unreadable.is_empty() && !results.is_empty() && results.iter().all(|r| r.ok);
    Ok(Outcome {
        success: ok,
        text: render(&ns, &results, &unreadable, &options),
        json: json!({
            "status": ok,
            "mode": "deterministic",
            "target": ns,
            "pretest": results,
            "tests": results.iter().flat_map(|r| r.tests.iter()).collect::<Vec<_>>(),
            "errors": unreadable,
        }),
    })
}

/// The pretest options from the shared flags.
/// The pretest's progress line on stderr (`pretest: 12/40 tests`), only when stderr is a
/// terminal and neither `--json` nor `--quiet` is given.
pub(super) fn progress(global: &GlobalArgs) -> impl Fn(usize, usize) + Sync {
    let shown = std::io::stderr().is_terminal() && !global.json && !global.quiet;
    move |done: usize, total: usize| {
        if shown {
            let mut err = std::io::stderr();
            let _ = write!(err, "\rpretest: {done}/{total} tests");
            if done == total {
                let _ = writeln!(err);
            }
        }
    }
}

pub fn options(flags: &PretestArgs, only: Option<&str>) -> Options {
    Options {
        limits: Limits {
            concurrency: flags.concurrency as usize,
            per_host: flags.per_host as usize,
            resolve: flags.resolve.clone(),
            ..Limits::default()
        },
        offline: flags.offline,
        with_keys: pretest::keys::use_keys(flags.with_keys),
        only: only.map(|list| {
            list.split(',')
                .map(|t| t.trim().to_owned())
                .filter(|t| !t.is_empty())
                .collect()
        }),
    }
}

fn render(ns: &str, results: &[SchemaPretest], unreadable: &[String], options: &Options) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "pretest of namespace {ns}{}{}",
        if options.offline { " (offline)" } else { "" },
        if options.with_keys {
            " (with keys)"
        } else {
            ""
        }
    );
    let rows: Vec<(String, String, String, &str, String)> = results
        .iter()
        .flat_map(|r| {
            r.per_tool.iter().map(move |(tool, summary)| {
                (
                    r.schema.clone(),
                    tool.clone(),
                    format!(
                        "{}/{}",
                        summary["working"].as_u64().unwrap_or(0),
                        summary["total"].as_u64().unwrap_or(0)
                    ),
                    summary["status"].as_str().unwrap_or(""),
                    summary["reason"].as_str().unwrap_or("").to_owned(),
                )
            })
        })
        .collect();
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(6);
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(4);
    let _ = writeln!(
        text,
        "  {:w0$}  {:w1$}  working  status   reason",
        "schema", "tool"
    );
    for (schema, tool, working, status, reason) in &rows {
        let _ = writeln!(
            text,
            "  {schema:w0$}  {tool:w1$}  {working:7}  {status:7}  {reason}"
        );
    }
    for result in results {
        for error in &result.errors {
            let _ = writeln!(text, "  {}: {error}", result.schema);
        }
    }
    for line in unreadable {
        let _ = writeln!(text, "  error: {line}");
    }
    let passed = results.iter().filter(|r| r.ok).count();
    let _ = writeln!(
        text,
        "\n{passed} of {} schemas pass the pretest (each tool needs {} working tests)",
        results.len(),
        pretest::MIN_WORKING_TESTS
    );
    text
}
