//! One file per subcommand. Each turns checked arguments into calls of the library and returns
//! an `Outcome` that `output` prints.

mod validate;

use crate::cli::{Cli, Command};
use crate::diagnostic::Coded;
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
}

impl Coded for CommandError {
    fn code(&self) -> &'static str {
        match self {
            CommandError::NotImplemented(_) => "CLI-001",
        }
    }

    fn fix(&self) -> String {
        match self {
            CommandError::NotImplemented(_) => {
                "see the README's command table for what works in this version".into()
            }
        }
    }
}

pub fn dispatch(cli: &Cli) -> Result<Outcome, CommandError> {
    match &cli.command {
        Command::Validate(args) => Ok(validate::run(args)),
        other => Err(CommandError::NotImplemented(other.name())),
    }
}
