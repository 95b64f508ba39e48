//! The island: the grading workbench folder (DESIGN.md §5, reference-cli.md §2.0).
//!
//! Root resolution, the layout and its file-name grammar, resolve-latest by the parsed
//! timestamp, atomic no-overwrite writes, a lock against a second writer, and a guard that
//! nothing is written outside the root.

mod batch;
mod error;
pub mod layout;
mod lock;
pub mod names;
mod root;
mod target;
mod write;

pub use batch::Batch;
pub use error::IslandError;
pub use lock::{DEFAULT_LOCK_WAIT_SECS, WriteLock};
pub use root::{RootSource, home_dir, resolve_root};
pub use target::Target;

use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct Island {
    root: PathBuf,
    /// The root with symlinks resolved, for the outside-the-root guard.
    real_root: PathBuf,
    /// Folders already created and checked to resolve inside the root during this run.
    checked_dirs: std::sync::Arc<std::sync::Mutex<std::collections::HashSet<PathBuf>>>,
}

impl Island {
    /// Opens (and creates when missing) the island at `root`.
    pub fn open(root: &Path) -> Result<Island, IslandError> {
        std::fs::create_dir_all(root).map_err(|err| IslandError::RootUnusable {
            path: root.to_path_buf(),
            reason: err.to_string(),
        })?;
        let real_root = std::fs::canonicalize(root).map_err(|err| IslandError::RootUnusable {
            path: root.to_path_buf(),
            reason: err.to_string(),
        })?;
        if !real_root.is_dir() {
            return Err(IslandError::RootUnusable {
                path: root.to_path_buf(),
                reason: "not a directory".into(),
            });
        }
        Ok(Island {
            root: root.to_path_buf(),
            real_root,
            checked_dirs: Default::default(),
        })
    }

    /// Opens an existing island for reading; never creates anything.
    pub fn open_existing(root: &Path) -> Result<Island, IslandError> {
        let real_root = std::fs::canonicalize(root).map_err(|err| IslandError::RootUnusable {
            path: root.to_path_buf(),
            reason: err.to_string(),
        })?;
        Ok(Island {
            root: root.to_path_buf(),
            real_root,
            checked_dirs: Default::default(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The root with symlinks resolved.
    pub fn real_root(&self) -> &Path {
        &self.real_root
    }
}

#[cfg(test)]
mod tests;
