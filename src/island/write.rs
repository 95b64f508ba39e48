//! Atomic writes inside the island: a temp file in the same folder, fsync, then a no-clobber
//! link (new files) or a rename (the few replaceable files), then fsync of the folder. A path
//! that would leave the island root is refused before anything is created.

use super::{Island, IslandError};
use std::fs::{self, File, OpenOptions};
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Whether writes are made durable with fsync (default). `FLOWMCP_GRADING_FSYNC=off` (or `0`,
/// `false`, `no`) skips the fsyncs for throwaway islands (CI fixtures, tmpfs): writes stay atomic
/// against a killed process, but not against a power loss.
pub(super) fn durable() -> bool {
    static DURABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *DURABLE.get_or_init(|| {
        std::env::var("FLOWMCP_GRADING_FSYNC").map_or(true, |v| {
            !matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "off" | "0" | "false" | "no"
            )
        })
    })
}

/// Test hooks for the crash tests (never set in normal use):
/// - `FLOWMCP_GRADING_TEST_WRITE_DELAY_MS` pauses every write between the synced temp file and
///   the step that gives it its final name, so that a test can kill the process in that window;
/// - `FLOWMCP_GRADING_TEST_PAUSE_AT=<n>:<before|after>` stops the process for good at its n-th
///   write, before or after the final name, and says so on stderr, so that a test can SIGKILL it
///   at exactly that point.
pub(super) fn test_hook(phase: &str, path: &Path) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static DELAY: std::sync::OnceLock<Option<std::time::Duration>> = std::sync::OnceLock::new();
    static PAUSE: std::sync::OnceLock<Option<(usize, String)>> = std::sync::OnceLock::new();
    static WRITES: AtomicUsize = AtomicUsize::new(0);
    let delay = DELAY.get_or_init(|| {
        std::env::var("FLOWMCP_GRADING_TEST_WRITE_DELAY_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(std::time::Duration::from_millis)
    });
    if phase == "before"
        && let Some(delay) = delay
    {
        std::thread::sleep(*delay);
    }
    let pause = PAUSE.get_or_init(|| {
        let text = std::env::var("FLOWMCP_GRADING_TEST_PAUSE_AT").ok()?;
        let (n, phase) = text.split_once(':')?;
        Some((n.parse().ok()?, phase.to_owned()))
    });
    let Some((at, pause_phase)) = pause else {
        return;
    };
    let count = if phase == "before" {
        WRITES.fetch_add(1, Ordering::SeqCst) + 1
    } else {
        WRITES.load(Ordering::SeqCst)
    };
    if count == *at && phase == pause_phase {
        eprintln!(
            "flowmcp-grading: test pause at write {count} ({phase}): {}",
            path.display()
        );
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
}

impl Island {
    /// The absolute path of `rel` after checking that it stays inside the root: only plain
    /// components (no `..`, no root, no prefix), and the existing part of its folder chain
    /// resolves under the root (so a symlink inside the island cannot redirect a write).
    pub fn checked_path(&self, rel: &Path) -> Result<PathBuf, IslandError> {
        let outside = || IslandError::OutsideRoot {
            path: rel.to_path_buf(),
            root: self.root.clone(),
        };
        if rel.as_os_str().is_empty()
            || !rel.components().all(|c| matches!(c, Component::Normal(_)))
        {
            return Err(outside());
        }
        Ok(self.root.join(rel))
    }

    /// Creates the folder chain of `path` (inside the root) and checks where it really is.
    pub(super) fn prepare_parent(&self, path: &Path) -> Result<PathBuf, IslandError> {
        let parent = path.parent().unwrap_or(&self.root).to_path_buf();
        if self
            .checked_dirs
            .lock()
            .is_ok_and(|dirs| dirs.contains(&parent))
        {
            return Ok(parent);
        }
        fs::create_dir_all(&parent).map_err(|source| IslandError::Write {
            path: parent.clone(),
            source,
        })?;
        // Below a folder checked before, it is enough that each new component is a real
        // folder, not a symlink (no full canonicalize per file).
        let checked_ancestor = self.checked_dirs.lock().ok().and_then(|dirs| {
            parent
                .ancestors()
                .skip(1)
                .find(|a| dirs.contains(*a))
                .map(Path::to_path_buf)
        });
        if let Some(ancestor) = checked_ancestor {
            let below: Vec<&Path> = parent.ancestors().take_while(|a| *a != ancestor).collect();
            let plain = below.iter().all(|dir| {
                fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir() && !m.file_type().is_symlink())
            });
            if plain {
                if let Ok(mut dirs) = self.checked_dirs.lock() {
                    dirs.extend(below.iter().map(|d| d.to_path_buf()));
                }
                return Ok(parent);
            }
        }
        let real = fs::canonicalize(&parent).map_err(|source| IslandError::Write {
            path: parent.clone(),
            source,
        })?;
        if !real.starts_with(&self.real_root) {
            return Err(IslandError::OutsideRoot {
                path: path.to_path_buf(),
                root: self.root.clone(),
            });
        }
        if let Ok(mut dirs) = self.checked_dirs.lock() {
            dirs.insert(parent.clone());
        }
        Ok(parent)
    }

    /// Writes a new file; refuses (ISL-006) when `rel` already exists. Returns the path.
    pub fn create_new(&self, rel: &Path, bytes: &[u8]) -> Result<PathBuf, IslandError> {
        let path = self.checked_path(rel)?;
        let parent = self.prepare_parent(&path)?;
        let sync = durable();
        let temp = write_temp(&path, bytes, sync)?;
        test_hook("before", &path);
        let linked = fs::hard_link(&temp, &path);
        let _ = fs::remove_file(&temp);
        match linked {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(IslandError::Exists { path });
            }
            Err(source) => return Err(IslandError::Write { path, source }),
        }
        if sync {
            sync_dir(&parent);
        }
        test_hook("after", &path);
        Ok(path)
    }

    /// Writes `rel` in one step, replacing an older version (only for the derived files:
    /// index.json, state.json, prompts.json, grade.json).
    pub fn replace(&self, rel: &Path, bytes: &[u8]) -> Result<PathBuf, IslandError> {
        self.replace_with(rel, bytes, durable())
    }

    /// Like `replace` for a file that is recomputed from the island on every rebuild
    /// (`index.json`): atomic, but not fsynced — after a power loss the next rebuild restores it.
    pub fn replace_derived(&self, rel: &Path, bytes: &[u8]) -> Result<PathBuf, IslandError> {
        self.replace_with(rel, bytes, false)
    }

    fn replace_with(&self, rel: &Path, bytes: &[u8], sync: bool) -> Result<PathBuf, IslandError> {
        let path = self.checked_path(rel)?;
        let parent = self.prepare_parent(&path)?;
        let temp = write_temp(&path, bytes, sync)?;
        test_hook("before", &path);
        if let Err(source) = fs::rename(&temp, &path) {
            let _ = fs::remove_file(&temp);
            return Err(IslandError::Write { path, source });
        }
        if sync {
            sync_dir(&parent);
        }
        test_hook("after", &path);
        Ok(path)
    }
}

/// `.<name>.tmp-<pid>-<n>` beside the final file, written and synced. It never matches the
/// file-name grammar, so readers ignore it if a crash leaves it behind.
pub(super) fn write_temp(path: &Path, bytes: &[u8], sync: bool) -> Result<PathBuf, IslandError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(bytes)?;
        if sync { file.sync_all() } else { Ok(()) }
    })();
    if let Err(source) = result {
        let _ = fs::remove_file(&temp);
        return Err(IslandError::Write {
            path: path.to_path_buf(),
            source,
        });
    }
    Ok(temp)
}

/// Makes the new directory entry durable. Best effort: not every filesystem allows it.
pub(super) fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}
