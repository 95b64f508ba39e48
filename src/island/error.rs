//! Errors of the island (the grading workbench folder).

use crate::diagnostic::Coded;
use std::path::PathBuf;

/// Codes: ISL-001 root unusable, ISL-002 config.json malformed, ISL-003 write failed,
/// ISL-004 another writer holds the lock, ISL-005 a path would leave the island,
/// ISL-006 refusing to overwrite, ISL-007 invalid name for a file or folder in the island,
/// ISL-008 read failed, ISL-009 target found in neither providers/ nor selections/,
/// ISL-010 target exists in both.
#[derive(Debug, thiserror::Error)]
pub enum IslandError {
    #[error("island root {path} is not usable: {reason}")]
    RootUnusable { path: PathBuf, reason: String },
    #[error("{path}: gradingDataDir is not readable: {reason}")]
    Config { path: PathBuf, reason: String },
    #[error("writing {path} failed: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "another flowmcp-grading process is writing to the island {root} (lock {lock}{holder})"
    )]
    Locked {
        root: PathBuf,
        lock: PathBuf,
        holder: String,
    },
    #[error("refusing to write {path}: it is outside the island root {root}")]
    OutsideRoot { path: PathBuf, root: PathBuf },
    #[error("NO-OVERWRITE conflict: {path} already exists")]
    Exists { path: PathBuf },
    #[error("invalid {what} `{name}`: {rule}")]
    InvalidName {
        what: &'static str,
        name: String,
        rule: &'static str,
    },
    #[error("target \"{target}\" found in neither providers/ nor selections/ of {root}")]
    TargetNotFound { target: String, root: PathBuf },
    #[error("ambiguous target \"{0}\": it exists in both providers/ and selections/")]
    TargetAmbiguous(String),
    #[error("reading {path} failed: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Coded for IslandError {
    fn code(&self) -> &'static str {
        match self {
            IslandError::RootUnusable { .. } => "ISL-001",
            IslandError::Config { .. } => "ISL-002",
            IslandError::Write { .. } => "ISL-003",
            IslandError::Locked { .. } => "ISL-004",
            IslandError::OutsideRoot { .. } => "ISL-005",
            IslandError::Exists { .. } => "ISL-006",
            IslandError::InvalidName { .. } => "ISL-007",
            IslandError::Read { .. } => "ISL-008",
            IslandError::TargetNotFound { .. } => "ISL-009",
            IslandError::TargetAmbiguous(_) => "ISL-010",
        }
    }

    fn fix(&self) -> String {
        match self {
            IslandError::RootUnusable { .. } => "pass --grading-data <dir> (or set FLOWMCP_GRADING_DATA) to a writable folder".into(),
            IslandError::Config { .. } => "make gradingDataDir in ~/.flowmcp/config.json a non-empty string, or pass --grading-data".into(),
            IslandError::Write { .. } => "check free space and permissions of the island folder, then re-run".into(),
            IslandError::Locked { .. } => "wait for the other process to finish (or remove the lock file if no such process runs), then re-run".into(),
            IslandError::OutsideRoot { .. } => "remove symlinks inside the island that point elsewhere".into(),
            IslandError::Exists { .. } => "snapshots and grading entries are never overwritten; re-run to get a new timestamp".into(),
            IslandError::InvalidName { .. } => "rename the source so that its name matches the rule".into(),
            IslandError::Read { .. } => "check that the island folder is readable".into(),
            IslandError::TargetNotFound { .. } => "run `flowmcp-grading import <provider-path>` first, or check --grading-data".into(),
            IslandError::TargetAmbiguous(t) => format!("pass an explicit path: providers/{t} or selections/{t}"),
        }
    }
}
