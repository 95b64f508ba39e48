//! One file per subcommand. Each turns checked arguments into calls of the library and returns
//! an `Outcome` that `output` prints.

mod consume;
mod demo;
mod deterministic;
mod export;
mod import;
#[cfg(test)]
mod messages;
mod report;
mod run;
mod selection_run;
mod selection_state;
mod state;
mod validate;

use crate::cli::{Cli, Command};
use crate::diagnostic::{Coded, Diagnostic};
use crate::intake::IntakeError;
use crate::island::IslandError;
use serde_json::Value;

/// What a command produced: a text for people, a JSON object for machines, and whether it
/// succeeded (exit 0) or was refused (exit 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub success: bool,
    pub text: String,
    pub json: Value,
}

#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error("not implemented yet: {0}")]
    NotImplemented(&'static str),
    #[error(transparent)]
    Island(#[from] IslandError),
    #[error(transparent)]
    Intake(#[from] IntakeError),
    /// A refusal with every problem found listed under it.
    #[error("{message}")]
    Rejected {
        code: &'static str,
        message: String,
        fix: String,
        details: Vec<Diagnostic>,
    },
    /// Any other coded refusal (`--phase`, `--persona`, emit conflicts, …).
    #[error("{message}")]
    Other {
        code: &'static str,
        message: String,
        fix: String,
    },
}

impl CommandError {
    /// A problem reading an input file, with the file named in the message.
    pub fn input(path: &std::path::Path, err: crate::json_input::InputError) -> Self {
        CommandError::Other {
            code: err.code(),
            message: format!("{}: {err}", path.display()),
            fix: err.fix(),
        }
    }

    pub fn coded(err: impl Coded) -> Self {
        CommandError::Other {
            code: err.code(),
            message: err.to_string(),
            fix: err.fix(),
        }
    }

    /// The per-file problems behind a refusal, printed under the error.
    pub fn details(&self) -> Vec<Diagnostic> {
        match self {
            CommandError::Intake(err) => err
                .failures()
                .iter()
                .flat_map(|f| f.errors.iter().cloned())
                .collect(),
            CommandError::Rejected { details, .. } => details.clone(),
            _ => Vec::new(),
        }
    }

    /// Extra keys of the JSON error object.
    pub fn json_details(&self) -> Option<(&'static str, Value)> {
        match self {
            CommandError::Intake(err) if !err.failures().is_empty() => Some((
                "failed",
                serde_json::to_value(err.failures()).unwrap_or_default(),
            )),
            CommandError::Rejected { details, .. } => {
                Some(("errors", serde_json::to_value(details).unwrap_or_default()))
            }
            _ => None,
        }
    }
}

impl Coded for CommandError {
    fn code(&self) -> &'static str {
        match self {
            CommandError::NotImplemented(_) => "CLI-001",
            CommandError::Island(err) => err.code(),
            CommandError::Intake(err) => err.code(),
            CommandError::Other { code, .. } | CommandError::Rejected { code, .. } => code,
        }
    }

    fn fix(&self) -> String {
        match self {
            CommandError::NotImplemented(_) => {
                "see the README's command table for what works in this version".into()
            }
            CommandError::Island(err) => err.fix(),
            CommandError::Intake(err) => err.fix(),
            CommandError::Other { fix, .. } | CommandError::Rejected { fix, .. } => fix.clone(),
        }
    }
}

/// The completion script of `shell`, generated from the clap tree.
fn completions(shell: clap_complete::Shell) -> Outcome {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "flowmcp-grading", &mut script);
    let text = String::from_utf8_lossy(&script).into_owned();
    Outcome {
        success: true,
        json: serde_json::json!({"status": true, "shell": shell.to_string(), "script": text}),
        text,
    }
}

/// The man page, rendered from the clap tree.
fn man() -> Outcome {
    use clap::CommandFactory;
    let mut page = Vec::new();
    let rendered = clap_mangen::Man::new(Cli::command()).render(&mut page);
    let text = String::from_utf8_lossy(&page).into_owned();
    Outcome {
        success: rendered.is_ok(),
        json: serde_json::json!({"status": rendered.is_ok(), "format": "roff", "page": text}),
        text,
    }
}

pub fn dispatch(cli: &Cli) -> Result<Outcome, CommandError> {
    match &cli.command {
        Command::Validate(args) => Ok(validate::run(args)),
        Command::Import(args) => import::run(args, &cli.global),
        Command::Deterministic(args) => deterministic::run(args, &cli.global),
        Command::Run(args) => run::run(args, &cli.global),
        Command::State(args) => state::run(args, &cli.global),
        Command::Export(args) => export::run(args, &cli.global),
        Command::Completions { shell } => Ok(completions(*shell)),
        Command::Man => Ok(man()),
        Command::Demo => demo::run(&cli.global),
        Command::Report(args) => report::run(args, &cli.global),
    }
}
