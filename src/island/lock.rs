//! One writer at a time: an advisory lock on `<root>/.lock`, held for the whole command.

use super::{Island, IslandError};
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, Write as _};
use std::time::{Duration, Instant};

/// How long a second writer waits before it gives up (seconds; `FLOWMCP_GRADING_LOCK_TIMEOUT`).
pub const DEFAULT_LOCK_WAIT_SECS: u64 = 30;

/// Held while a command writes; released when dropped (or when the process dies).
#[derive(Debug)]
pub struct WriteLock {
    file: File,
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

impl Island {
    /// Takes the island's write lock, waiting up to the configured time for another writer.
    pub fn lock(&self) -> Result<WriteLock, IslandError> {
        let path = self.root.join(".lock");
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|source| IslandError::Write {
                path: path.clone(),
                source,
            })?;
        let wait = std::env::var("FLOWMCP_GRADING_LOCK_TIMEOUT")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(DEFAULT_LOCK_WAIT_SECS);
        let deadline = Instant::now() + Duration::from_secs(wait);
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(25));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = holder.trim();
                    return Err(IslandError::Locked {
                        root: self.root.clone(),
                        lock: path,
                        holder: if holder.is_empty() {
                            String::new()
                        } else {
                            format!(", held by pid {holder}")
                        },
                    });
                }
                Err(std::fs::TryLockError::Error(source)) => {
                    return Err(IslandError::Write { path, source });
                }
            }
        }
        let _ = file.set_len(0);
        let _ = file.rewind();
        let _ = write!(file, "{}", std::process::id());
        Ok(WriteLock { file })
    }
}
