//! `flowmcp-grading demo`: the whole four-stage loop on the shipped demo provider, offline. It
//! writes the provider to a fresh work folder, serves its API in-process on 127.0.0.1, and runs
//! the real commands — import, emit (with the pretest against that API via `--resolve`), a
//! scripted stand-in for the harness answering from the shipped answers file, consume, state —
//! printing each one as a user would type it. The island is `--grading-data`, or one in the work
//! folder; everything is kept for looking at afterwards.

use super::{CommandError, Outcome, dispatch};
use crate::cli::{Cli, GlobalArgs};
use crate::demo::{self, ANSWERS, HOST, api::DemoApi};
use crate::diagnostic::Coded;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Code DEM-001: the demo could not set up its work folder or API.
#[derive(Debug, thiserror::Error)]
#[error("the demo could not {what}: {reason}")]
pub struct DemoError {
    pub(super) what: String,
    pub(super) reason: String,
}

impl Coded for DemoError {
    fn code(&self) -> &'static str {
        "DEM-001"
    }
    fn fix(&self) -> String {
        "check that the temporary folder (TMPDIR) is writable and 127.0.0.1 accepts local connections"
            .into()
    }
}

fn failed(what: &str, reason: impl ToString) -> CommandError {
    CommandError::coded(DemoError {
        what: what.into(),
        reason: reason.to_string(),
    })
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn run(global: &GlobalArgs) -> Result<Outcome, CommandError> {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S");
    let work = std::env::temp_dir().join(format!(
        "flowmcp-grading-demo-{stamp}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&work).map_err(|e| failed("create its work folder", e))?;
    let island = global
        .grading_data
        .clone()
        .unwrap_or_else(|| work.join("island"));
    let provider = demo::write_provider(&work).map_err(|e| failed("write the demo provider", e))?;
    let api = DemoApi::start().map_err(|e| failed("start the demo API on 127.0.0.1", e))?;
    let scores = work.join("scores.json");
    let exports = work.join("exports");
    let island_arg = island.display().to_string();

    let mut text = format!(
        "flowmcp-grading demo: the four-stage loop on the demo provider, offline\n\
         work folder {}\nisland      {}\nAPI         http://{HOST} served in-process at {}\n",
        work.display(),
        island.display(),
        api.addr
    );
    let run_step =
        |text: &mut String, title: &str, args: &[String]| -> Result<Outcome, CommandError> {
            let _ = writeln!(
                text,
                "\n== {title}\n$ flowmcp-grading --grading-data {island_arg} {}",
                args.join(" ")
            );
            let mut argv = vec![
                "flowmcp-grading".to_owned(),
                "--grading-data".to_owned(),
                island_arg.clone(),
            ];
            argv.extend(args.iter().cloned());
            let cli = <Cli as clap::Parser>::try_parse_from(argv)
                .map_err(|e| failed("parse its own command", e))?;
            let outcome = dispatch(&cli)?;
            let _ = writeln!(text, "{}", indent(outcome.text.trim_end()));
            if !outcome.success {
                return Err(failed(title, "the step was refused (see above)"));
            }
            Ok(outcome)
        };
    let s = |p: &Path| p.display().to_string();

    run_step(
        &mut text,
        "stage 0: import the provider folder",
        &["import".into(), s(&provider)],
    )?;
    run_step(
        &mut text,
        "stage 1: pretest against the API, deterministic answers, prompts.json",
        &[
            "run".into(),
            "demoapi".into(),
            "--emit-prompts".into(),
            "--on-conflict".into(),
            "overwrite".into(),
            "--resolve".into(),
            format!("{HOST}={}", api.addr),
        ],
    )?;

    let prompts_path = island.join("providers/demoapi/prompts.json");
    let prompts: Value = std::fs::read_to_string(&prompts_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| failed("read the emitted prompts.json", prompts_path.display()))?;
    let answers: Value =
        serde_json::from_str(ANSWERS).map_err(|e| failed("read its answers", e))?;
    let payload =
        demo::scripted_scores(&prompts, &answers).map_err(|e| failed("answer prompts.json", e))?;
    let mut body = serde_json::to_string_pretty(&payload).unwrap_or_default();
    body.push('\n');
    std::fs::write(&scores, body).map_err(|e| failed("write scores.json", e))?;
    let instances: usize = payload["areas"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| a["results"].as_array().map_or(0, Vec::len))
        .sum();
    let answered: usize = payload["areas"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|a| a["results"].as_array().into_iter().flatten())
        .map(|r| r["answers"].as_array().map_or(0, Vec::len))
        .sum();
    let _ = writeln!(
        text,
        "\n== stage 2: the harness answers prompts.json\n  (a scripted stand-in for Claude Code: answers from fixtures/demo/answers.json)\n  answered {answered} questions for {instances} instances in {} areas (Task-ID {}) -> {}",
        payload["areas"].as_array().map_or(0, Vec::len),
        payload["taskId"].as_str().unwrap_or("?"),
        scores.display()
    );

    let consumed = run_step(
        &mut text,
        "stage 3: consume scores.json into grading entries",
        &[
            "run".into(),
            "demoapi".into(),
            "--consume-scores".into(),
            s(&scores),
            "--export-dir".into(),
            s(&exports),
        ],
    )?;
    run_step(
        &mut text,
        "the graded tree",
        &["state".into(), "demoapi".into()],
    )?;
    drop(api);

    let entries = count_entries(&island.join("providers/demoapi"));
    let _ = writeln!(
        text,
        "\n== where the files are\n  island      {}\n  prompts     {}\n  scores      {}\n  entries     {entries} grading entries under {}/**/_gradings/\n  index       {}\n  proof       {}",
        island.display(),
        prompts_path.display(),
        scores.display(),
        island.join("providers/demoapi").display(),
        island.join("providers/demoapi/index.json").display(),
        exports.join("providers/demoapi/grade.json").display(),
    );
    Ok(Outcome {
        success: true,
        text,
        json: json!({
            "status": true,
            "workDir": work,
            "island": island,
            "provider": provider,
            "promptsPath": prompts_path,
            "scoresPath": scores,
            "taskId": payload["taskId"],
            "entries": entries,
            "rollupStatus": consumed.json["rollupStatus"],
            "rollupGrade": consumed.json["rollupGrade"],
            "proofPath": exports.join("providers/demoapi/grade.json"),
        }),
    })
}

fn count_entries(dir: &Path) -> usize {
    let mut count = 0;
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if dir.ends_with("_gradings") && path.extension().is_some_and(|e| e == "json") {
                count += 1;
            }
        }
    }
    count
}
