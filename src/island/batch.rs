//! Group commit for many new files at once (consume writes two files per graded instance):
//! every file is written to its temporary name without an fsync, then one `syncfs` makes them
//! all durable, then each gets its final name by a no-clobber link, then a second `syncfs` makes
//! the names durable. A crash or power loss at any point leaves either a temporary file (ignored
//! by readers) or a complete file under its final name — never a partial one — at the cost of
//! two filesystem syncs per batch instead of two per file.

use super::write::{durable, sync_dir, test_hook, write_temp};
use super::{Island, IslandError};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// New files staged for one commit. Dropped without `commit`, it removes its temporary files.
pub struct Batch<'a> {
    island: &'a Island,
    /// (temporary file, final path, replaces an older version)
    staged: Vec<(PathBuf, PathBuf, bool)>,
    finals: HashSet<PathBuf>,
}

impl Island {
    /// Starts a batch of new files. The caller holds the island's lock, so a name that is free
    /// now is still free at commit.
    pub fn batch(&self) -> Batch<'_> {
        Batch {
            island: self,
            staged: Vec::new(),
            finals: HashSet::new(),
        }
    }
}

impl Batch<'_> {
    /// Stages `bytes` as the new file `rel`. `Ok(None)` when the name is taken (on disk or in
    /// this batch): the caller picks another.
    pub fn stage_new(&mut self, rel: &Path, bytes: &[u8]) -> Result<Option<PathBuf>, IslandError> {
        let path = self.island.checked_path(rel)?;
        if self.finals.contains(&path) || fs::symlink_metadata(&path).is_ok() {
            return Ok(None);
        }
        self.island.prepare_parent(&path)?;
        let temp = write_temp(&path, bytes, false)?;
        self.finals.insert(path.clone());
        self.staged.push((temp, path.clone(), false));
        Ok(Some(path))
    }

    /// Stages `bytes` to replace `rel` (only for the derived files the pretest rewrites:
    /// test records and summaries); the rename happens at commit.
    pub fn stage_replace(&mut self, rel: &Path, bytes: &[u8]) -> Result<PathBuf, IslandError> {
        let path = self.island.checked_path(rel)?;
        self.island.prepare_parent(&path)?;
        let temp = write_temp(&path, bytes, false)?;
        self.finals.insert(path.clone());
        self.staged.push((temp, path.clone(), true));
        Ok(path)
    }

    /// Makes every staged file durable and gives it its final name.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, IslandError> {
        let staged = std::mem::take(&mut self.staged);
        let sync = durable();
        if sync {
            sync_filesystem(self.island.root(), &staged)?;
        }
        let mut done = Vec::with_capacity(staged.len());
        let mut result = Ok(());
        for (temp, path, replace) in &staged {
            if result.is_err() {
                let _ = fs::remove_file(temp);
                continue;
            }
            test_hook("before", path);
            let linked = if *replace {
                fs::rename(temp, path)
            } else {
                let linked = fs::hard_link(temp, path);
                let _ = fs::remove_file(temp);
                linked
            };
            if linked.is_err() {
                let _ = fs::remove_file(temp);
            }
            match linked {
                Ok(()) => {
                    test_hook("after", path);
                    done.push(path.clone());
                }
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
                    result = Err(IslandError::Exists { path: path.clone() });
                }
                Err(source) => {
                    result = Err(IslandError::Write {
                        path: path.clone(),
                        source,
                    })
                }
            }
        }
        if sync {
            let linked: Vec<(PathBuf, PathBuf, bool)> =
                done.iter().map(|p| (p.clone(), p.clone(), false)).collect();
            sync_filesystem(self.island.root(), &linked)?;
        }
        result.map(|()| done)
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        for (temp, _, _) in &self.staged {
            let _ = fs::remove_file(temp);
        }
    }
}

/// One `syncfs` of the island's filesystem (Linux); elsewhere each file and folder in `files`
/// is synced on its own.
fn sync_filesystem(root: &Path, files: &[(PathBuf, PathBuf, bool)]) -> Result<(), IslandError> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let handle = fs::File::open(root).map_err(|source| IslandError::Write {
            path: root.to_path_buf(),
            source,
        })?;
        // SAFETY: syncfs takes a valid open file descriptor and nothing else.
        if unsafe { libc::syncfs(handle.as_raw_fd()) } == 0 {
            return Ok(());
        }
    }
    let mut dirs = HashSet::new();
    for (file, path, _) in files {
        if let Ok(handle) = fs::File::open(file) {
            let _ = handle.sync_all();
        }
        if let Some(parent) = path.parent() {
            dirs.insert(parent.to_path_buf());
        }
    }
    for dir in dirs {
        sync_dir(&dir);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staged_files_appear_only_at_commit_and_names_are_never_reused() {
        let dir = tempfile::tempdir().unwrap();
        let island = Island::open(dir.path()).unwrap();
        island.create_new(Path::new("a/taken.json"), b"{}").unwrap();
        let mut batch = island.batch();
        assert!(
            batch
                .stage_new(Path::new("a/taken.json"), b"1")
                .unwrap()
                .is_none()
        );
        let one = batch
            .stage_new(Path::new("a/one.json"), b"1")
            .unwrap()
            .unwrap();
        assert!(
            batch
                .stage_new(Path::new("a/one.json"), b"2")
                .unwrap()
                .is_none()
        );
        batch
            .stage_new(Path::new("b/two.json"), b"2")
            .unwrap()
            .unwrap();
        assert!(!one.exists(), "not before the commit");
        let done = batch.commit().unwrap();
        assert_eq!(done.len(), 2);
        assert_eq!(fs::read(&one).unwrap(), b"1");
        let leftovers: Vec<_> = fs::read_dir(dir.path().join("a"))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
            .collect();
        assert!(leftovers.is_empty());
        // Dropped without commit: nothing appears, no temp file stays.
        let mut batch = island.batch();
        batch.stage_new(Path::new("c/three.json"), b"3").unwrap();
        drop(batch);
        assert!(fs::read_dir(dir.path().join("c")).unwrap().next().is_none());
    }
}
