//! Stage 0 intake: read a provider folder statically and snapshot it into the island.
//!
//! `scan` reads and checks everything and writes nothing; `apply` writes the snapshots, the
//! About texts, skills and shared lists under the island's write lock, then the index.

mod about;
pub(crate) mod apply;
mod lists;
pub(crate) mod scan;
pub mod selection;
pub mod selection_sources;
mod skills;

pub use apply::{Applied, ImportedRow, SkillRow, SkippedRow, apply};
pub use lists::ListRef;
pub use scan::{ProviderScan, ScannedSchema, ScannedSkill, scan_provider};

use crate::diagnostic::{Coded, Diagnostic};
use serde::Serialize;
use std::path::PathBuf;

/// One file that could not be imported, with every problem found in it.
#[derive(Debug, Clone, Serialize)]
pub struct FileFailure {
    pub file: PathBuf,
    pub errors: Vec<Diagnostic>,
}

/// Folder-level refusals of `import` (per-file problems are diagnostics in the scan).
///
/// Codes: IMP-001 provider path missing, not a folder, or without `.mjs` files;
/// IMP-005 more than one namespace in one folder; IMP-006 folder name unusable as the fallback
/// namespace; IMP-015 refused because files failed (without `--allow-partial`), or nothing
/// importable is left.
#[derive(Debug, thiserror::Error)]
pub enum IntakeError {
    #[error("provider path not found: {0}")]
    NotFound(PathBuf),
    #[error("provider path is not a folder: {0}")]
    NotAFolder(PathBuf),
    #[error("no .mjs schema files found in {0}")]
    NoModules(PathBuf),
    #[error(
        "single-namespace assertion failed — folder declares {count} namespaces: {names} (one folder = one namespace)"
    )]
    ManyNamespaces { count: usize, names: String },
    #[error(
        "foldername-fallback name '{0}' is not a valid namespace (expected /^[a-z][a-z0-9-]*$/)"
    )]
    BadFallback(String),
    #[error("import refused: {failed} of {total} files failed; nothing was written")]
    Refused {
        failed: usize,
        total: usize,
        failures: Vec<FileFailure>,
    },
    #[error("import refused: no file of {0} could be imported")]
    NothingLeft(PathBuf, Vec<FileFailure>),
    #[error("the provider folder {folder} is inside the island {root}")]
    InsideIsland { folder: PathBuf, root: PathBuf },
}

impl IntakeError {
    /// The per-file diagnostics behind a refusal (empty for folder-level errors).
    pub fn failures(&self) -> &[FileFailure] {
        match self {
            IntakeError::Refused { failures, .. } | IntakeError::NothingLeft(_, failures) => {
                failures
            }
            _ => &[],
        }
    }
}

impl Coded for IntakeError {
    fn code(&self) -> &'static str {
        match self {
            IntakeError::NotFound(_) | IntakeError::NotAFolder(_) | IntakeError::NoModules(_) => {
                "IMP-001"
            }
            IntakeError::ManyNamespaces { .. } => "IMP-005",
            IntakeError::BadFallback(_) => "IMP-006",
            IntakeError::Refused { .. } | IntakeError::NothingLeft(..) => "IMP-015",
            IntakeError::InsideIsland { .. } => "IMP-016",
        }
    }

    fn fix(&self) -> String {
        match self {
            IntakeError::NotFound(_) | IntakeError::NotAFolder(_) => {
                "pass an existing provider folder containing schema .mjs files".into()
            }
            IntakeError::NoModules(_) => {
                "put the schema modules (<name>.mjs, not starting with `_`) at the top of the folder"
                    .into()
            }
            IntakeError::ManyNamespaces { .. } => {
                "split the folder: one provider folder holds the schemas of one namespace".into()
            }
            IntakeError::BadFallback(_) => {
                "fix the schemas so that at least one declares `namespace`, or rename the folder"
                    .into()
            }
            IntakeError::InsideIsland { .. } => {
                "import the provider's source folder; the island holds snapshots, not sources".into()
            }
            IntakeError::Refused { .. } => {
                "fix the files listed above and re-run, or pass --allow-partial to import the rest"
                    .into()
            }
            IntakeError::NothingLeft(..) => "fix the files listed above and re-run".into(),
        }
    }
}
