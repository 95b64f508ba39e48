//! The command tree. Parsing only: checked values go to `commands`, which does the work.

use crate::validate::Kind;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// `--version`: the tool and the versions of the rules it grades by.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (gradingSpec/2.0.0, scoringSystem/1.0.0, gradingSystem/1.0.0)"
);

#[derive(Debug, Parser)]
#[command(
    name = "flowmcp-grading",
    version = LONG_VERSION,
    about = "Grade FlowMCP schemas and selections per the FlowMCP Grading-Spec 2.0.0",
    long_about = "Grade FlowMCP schemas and selections per the FlowMCP Grading-Spec 2.0.0.\n\n\
        The loop: `import` a provider folder into the island (stage 0), `run --emit-prompts` \
        runs the deterministic part and writes prompts.json (stage 1), a harness answers it into \
        scores.json (stage 2), `run --consume-scores` writes the grading entries (stage 3). \
        `state`, `export` and `validate` inspect and hand off the results.",
    propagate_version = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Island root (the grading workbench folder); default ~/.flowmcp/grading
    #[arg(long, global = true, value_name = "DIR", env = "FLOWMCP_GRADING_DATA")]
    pub grading_data: Option<PathBuf>,

    /// Print one JSON result object instead of text
    #[arg(long, global = true)]
    pub json: bool,

    /// Print nothing on success (errors still go to stderr)
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// Also print the island used and the time taken (on stderr)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// When to colour the output; NO_COLOR and non-terminals turn `auto` off
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Stage 0: snapshot a provider folder (or a selection file) into the island
    Import(ImportArgs),
    /// Stage 1 or 3 for a namespace or selection: emit prompts, or consume scores
    Run(RunArgs),
    /// Run the live pretest of a namespace's tool tests and print the per-tool table
    #[command(visible_alias = "det")]
    Deterministic(DeterministicArgs),
    /// Show the graded tree of a namespace or selection and the next action (read-only)
    State(TargetArgs),
    /// Copy index.json and the newest schema snapshots into a fresh export folder
    Export(ExportArgs),
    /// Check grading entries and answer envelopes against the spec's rules
    Validate(ValidateArgs),
    /// Run the whole loop offline on the shipped fixture provider
    Demo,
    /// Write a self-contained HTML report of a namespace or selection
    Report(ReportArgs),
    /// Print a shell completion script (bash, zsh, fish, …) to stdout
    Completions {
        /// The shell to complete for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to stdout, e.g. `flowmcp-grading man > flowmcp-grading.1`
    Man,
}

impl Command {
    /// The subcommand's name as typed.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Import(_) => "import",
            Command::Run(_) => "run",
            Command::Deterministic(_) => "deterministic",
            Command::State(_) => "state",
            Command::Export(_) => "export",
            Command::Validate(_) => "validate",
            Command::Demo => "demo",
            Command::Report(_) => "report",
            Command::Completions { .. } => "completions",
            Command::Man => "man",
        }
    }
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Provider folders with schema .mjs files, or selection definitions (.json or their folder);
    /// several are imported one after the other in one process
    #[arg(value_name = "PATH", required = true, num_args = 1..)]
    pub paths: Vec<PathBuf>,

    /// Import the files that pass and list the ones that fail, instead of refusing them all
    #[arg(long)]
    pub allow_partial: bool,

    /// Providers root from which missing selection members are imported
    #[arg(long, value_name = "DIR")]
    pub member_source: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct TargetArgs {
    /// A bare id (`defillama`) or `providers/<ns>` / `selections/<sel>`
    #[arg(value_name = "TARGET")]
    pub target: String,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["emit_prompts", "consume_scores"])))]
pub struct RunArgs {
    #[command(flatten)]
    pub target: TargetArgs,

    /// Stage 1: run the deterministic part and write prompts.json for the harness
    #[arg(long)]
    pub emit_prompts: bool,

    /// Stage 3: read the harness's scores.json and write grading entries
    #[arg(long, value_name = "FILE")]
    pub consume_scores: Option<PathBuf>,

    /// Grade only these areas (comma-separated); default: every applicable area
    #[arg(long, value_name = "AREAS")]
    pub phase: Option<String>,

    /// What to do when prompts.json exists already
    #[arg(long, value_enum, default_value_t = OnConflict::Abort)]
    pub on_conflict: OnConflict,

    /// How many evaluate/improve iterations the harness may run per area
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_iterations: u32,

    /// Persona for persona-bound areas as <base>:<lens>, e.g. ai-engineer:defi
    #[arg(long, value_name = "BASE:LENS")]
    pub persona: Option<String>,

    /// Providers root from which missing selection members are imported
    #[arg(long, value_name = "DIR")]
    pub member_source: Option<PathBuf>,

    /// Where the provider proof grade.json goes; default <island>/_exports
    #[arg(long, value_name = "DIR", env = "FLOWMCP_GRADING_EXPORT")]
    pub export_dir: Option<PathBuf>,

    /// Record this grading as a re-grading with the given trigger
    #[arg(long, value_enum, value_name = "TRIGGER")]
    pub regrade: Option<RegradeArg>,

    /// The user's description of the problem (with --regrade user-report)
    #[arg(long, value_name = "TEXT", requires = "regrade")]
    pub reported_issue: Option<String>,

    /// Who reported the problem (with --regrade user-report)
    #[arg(long, value_name = "ID", requires = "regrade")]
    pub requested_by: Option<String>,

    #[command(flatten)]
    pub pretest: PretestArgs,
}

/// Flags of the live pretest, shared by `run --emit-prompts` and `deterministic`.
#[derive(Debug, Args)]
pub struct PretestArgs {
    /// Pass API keys from the environment and ~/.flowmcp/.env to the pretest
    #[arg(long, env = "FLOWMCP_GRADING_USE_KEYS", value_parser = clap::builder::FalseyValueParser::new())]
    pub with_keys: bool,

    /// Skip the network: every test is recorded as not-run: offline
    #[arg(long)]
    pub offline: bool,

    /// Most requests in flight overall
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: u32,

    /// Most requests in flight per host
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
    pub per_host: u32,

    /// Send requests for HOST to ADDR:PORT instead of resolving it, like curl --resolve
    /// (e.g. a staging server); repeatable
    #[arg(long, value_name = "HOST=ADDR:PORT", value_parser = parse_resolve)]
    pub resolve: Vec<(String, std::net::SocketAddr)>,
}

/// `HOST=ADDR:PORT` for `--resolve`.
fn parse_resolve(text: &str) -> Result<(String, std::net::SocketAddr), String> {
    let (host, addr) = text
        .split_once('=')
        .ok_or_else(|| format!("expected HOST=ADDR:PORT, got `{text}`"))?;
    if host.is_empty()
        || !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
    {
        return Err(format!("`{host}` is not a host name"));
    }
    let addr = addr
        .parse()
        .map_err(|_| format!("`{addr}` is not ADDR:PORT (e.g. 127.0.0.1:8080)"))?;
    Ok((host.to_ascii_lowercase(), addr))
}

#[derive(Debug, Args)]
pub struct DeterministicArgs {
    #[command(flatten)]
    pub target: TargetArgs,

    /// Only these tools (comma-separated)
    #[arg(long, value_name = "TOOLS")]
    pub only: Option<String>,

    #[command(flatten)]
    pub pretest: PretestArgs,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub target: TargetArgs,

    /// Export root; default <island>/_exports
    #[arg(long, value_name = "DIR", env = "FLOWMCP_GRADING_EXPORT")]
    pub export_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Grading entries or answer envelopes (JSON files)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// What the files hold; default: told apart by their shape
    #[arg(long, value_enum)]
    pub kind: Option<Kind>,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub target: TargetArgs,

    /// Output file; default report.html
    #[arg(long, value_name = "FILE", default_value = "report.html")]
    pub out: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnConflict {
    /// Refuse and name the existing Task-ID
    Abort,
    /// Keep the existing prompts.json and report it
    Skip,
    /// Replace prompts.json and state.json
    Overwrite,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RegradeArg {
    /// A user reported the tool as broken (needs --reported-issue and --requested-by)
    UserReport,
    /// A periodic run
    Scheduled,
    /// The scoringSystem version was bumped
    ScoringSystemBump,
    /// The gradingSystem version was bumped
    GradingSystemBump,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_names_the_rule_versions() {
        for part in [
            crate::model::GRADING_SPEC,
            crate::model::SCORING_SYSTEM,
            crate::model::GRADING_SYSTEM,
        ] {
            assert!(LONG_VERSION.contains(part), "{part}");
        }
    }
    use clap::CommandFactory;

    #[test]
    fn tree_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn run_needs_exactly_one_mode() {
        let parse = |args: &[&str]| Cli::try_parse_from(args).map(|_| ());
        assert!(parse(&["g", "run", "x"]).is_err());
        assert!(
            parse(&[
                "g",
                "run",
                "x",
                "--emit-prompts",
                "--consume-scores",
                "s.json"
            ])
            .is_err()
        );
        assert!(parse(&["g", "run", "x", "--emit-prompts"]).is_ok());
        assert!(parse(&["g", "run", "x", "--emit-prompts", "--max-iterations", "0"]).is_err());
    }

    #[test]
    fn a_file_named_like_a_flag_is_a_file() {
        let cli = Cli::try_parse_from(["g", "import", "--", "--x.mjs"]).unwrap();
        match cli.command {
            Command::Import(args) => assert_eq!(args.paths, vec![PathBuf::from("--x.mjs")]),
            other => panic!("{other:?}"),
        }
    }
}
