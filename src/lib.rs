//! flowmcp-grading: grades FlowMCP schemas and selections per the FlowMCP Grading-Spec 2.0.0.
//!
//! The library is the tool's implementation; its API carries no stability promise.

pub mod cli;
pub mod commands;
pub mod consume;
pub mod demo;
pub mod deterministic;
pub mod diagnostic;
pub mod grading;
pub mod hash;
pub mod index;
pub mod intake;
pub mod island;
pub mod json_input;
pub mod model;
pub mod output;
pub mod pretest;
pub mod prompts;
pub mod report;
pub mod schemas;
pub mod scoring;
pub mod source;
pub mod timestamp;
pub mod validate;
pub mod veto;

use clap::Parser;

/// Exit codes: 0 success, 1 refused or failed, 2 usage error.
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAILED: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// Parses the command line, runs the command, prints its result and returns the exit code.
pub fn run() -> i32 {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                EXIT_USAGE
            } else {
                EXIT_OK
            };
        }
    };
    match cli.global.color {
        cli::ColorWhen::Always => anstream::ColorChoice::Always.write_global(),
        cli::ColorWhen::Never => anstream::ColorChoice::Never.write_global(),
        cli::ColorWhen::Auto => {}
    }
    let started = std::time::Instant::now();
    let result = commands::dispatch(&cli);
    if cli.global.verbose > 0 {
        output::print_verbose(&cli, started.elapsed());
    }
    match result {
        Ok(outcome) => {
            if !(cli.global.quiet && outcome.success) {
                output::print_outcome(&outcome, cli.global.json);
            }
            if outcome.success {
                EXIT_OK
            } else {
                EXIT_FAILED
            }
        }
        Err(err) => {
            output::print_error(&err, cli.global.json);
            EXIT_FAILED
        }
    }
}
