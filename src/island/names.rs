//! The island's file-name grammar: `<name>--<YYYY-MM-DDTHH-MM-SSZ>--<hash8>.<ext>` for
//! snapshots, and the checks that keep names taken from input safe as path components.

use super::IslandError;
use crate::hash::is_hash8;
use crate::timestamp::{parse_file_ts, to_file_ts};
use chrono::{DateTime, Timelike, Utc};
use std::path::{Path, PathBuf};

/// A parsed versioned file name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Versioned {
    pub name: String,
    pub at: DateTime<Utc>,
    pub hash8: String,
    pub ext: String,
}

impl Versioned {
    pub fn file_name(&self) -> String {
        format!(
            "{}--{}--{}.{}",
            self.name,
            to_file_ts(self.at),
            self.hash8,
            self.ext
        )
    }
}

/// Parses `<name>--<ts>--<hash8>.<ext>` from the right, so that a name may itself hold `--`.
pub fn parse_versioned(file_name: &str) -> Option<Versioned> {
    let (stem, ext) = file_name.rsplit_once('.')?;
    let (rest, hash8) = stem.rsplit_once("--")?;
    let (name, ts) = rest.rsplit_once("--")?;
    if name.is_empty() || ext.is_empty() || !is_hash8(hash8) {
        return None;
    }
    Some(Versioned {
        name: name.to_owned(),
        at: parse_file_ts(ts)?,
        hash8: hash8.to_owned(),
        ext: ext.to_owned(),
    })
}

/// A versioned file found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub path: PathBuf,
    pub version: Versioned,
}

/// Every versioned file named `<name>--…​.<ext>` in `dir`, oldest first (by the parsed
/// timestamp, then by hash for a stable order). A missing folder is an empty list; files that
/// do not follow the grammar (temp files, notes) are ignored.
pub fn versions(dir: &Path, name: &str, ext: &str) -> Result<Vec<Found>, IslandError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(IslandError::Read {
                path: dir.to_path_buf(),
                source,
            });
        }
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| IslandError::Read {
            path: dir.to_path_buf(),
            source,
        })?;
        let Some(file_name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if let Some(version) = parse_versioned(&file_name)
            && version.name == name
            && version.ext == ext
        {
            found.push(Found {
                path: entry.path(),
                version,
            });
        }
    }
    found.sort_by(|a, b| (a.version.at, &a.version.hash8).cmp(&(b.version.at, &b.version.hash8)));
    Ok(found)
}

/// The newest version by the timestamp in its name (never by string sort).
pub fn resolve_latest(dir: &Path, name: &str, ext: &str) -> Result<Option<Found>, IslandError> {
    Ok(versions(dir, name, ext)?.pop())
}

/// A timestamp for a new version in `existing`: now, or one second after the newest existing
/// version when that is not earlier, so that "latest" stays unambiguous within one second.
pub fn next_timestamp(existing: &[Found], now: DateTime<Utc>) -> DateTime<Utc> {
    let now = now.with_nanosecond(0).unwrap_or(now);
    match existing.iter().map(|f| f.version.at).max() {
        Some(newest) if newest >= now => newest + chrono::Duration::seconds(1),
        _ => now,
    }
}

/// The names of the sub-folders of `dir`, sorted (none when it does not exist; names that are
/// not UTF-8 are left out: nothing the tool writes has one).
pub fn child_dirs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().is_dir())
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A schema slug taken from a file name: `^[A-Za-z][A-Za-z0-9_-]*$`.
pub fn is_slug(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A namespace, selection, skill or list id: `^[a-z][a-z0-9-]*$`.
pub fn is_id(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Checks a name before it becomes a path component in the island.
pub fn check_slug(what: &'static str, name: &str) -> Result<(), IslandError> {
    if is_slug(name) {
        Ok(())
    } else {
        Err(IslandError::InvalidName {
            what,
            name: name.to_owned(),
            rule: "expected [A-Za-z][A-Za-z0-9_-]*",
        })
    }
}

/// Checks an id (namespace, skill, list) before it becomes a path component.
pub fn check_id(what: &'static str, name: &str) -> Result<(), IslandError> {
    if is_id(name) {
        Ok(())
    } else {
        Err(IslandError::InvalidName {
            what,
            name: name.to_owned(),
            rule: "expected [a-z][a-z0-9-]*",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timestamp::parse_rfc3339;

    #[test]
    fn parses_from_the_right() {
        let v = parse_versioned("pnl--routes--2026-06-04T10-15-00Z--e63993e7.mjs").unwrap();
        assert_eq!(v.name, "pnl--routes");
        assert_eq!(v.hash8, "e63993e7");
        assert_eq!(v.ext, "mjs");
        assert_eq!(
            v.file_name(),
            "pnl--routes--2026-06-04T10-15-00Z--e63993e7.mjs"
        );
        for bad in [
            "demo--2026-06-04T10-15-00Z--E63993E7.mjs",
            "demo--2026-06-04T10-15Z--e63993e7.mjs",
            "demo--2026-06-04T10-15-00Z.mjs",
            "--2026-06-04T10-15-00Z--e63993e7.mjs",
            ".demo--2026-06-04T10-15-00Z--e63993e7.mjs.tmp-1",
            "demo--2026-06-04T10-15-00Z--e63993e7",
        ] {
            assert_eq!(parse_versioned(bad).map(|v| v.name), None, "{bad}");
        }
    }

    #[test]
    fn latest_is_by_parsed_time_not_by_string_sort() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "demo--2026-06-04T10-15-00Z--ffffffff.mjs",
            "demo--2026-06-04T10-15-01Z--00000000.mjs",
            "demo--2025-12-31T23-59-59Z--aaaaaaaa.mjs",
            "other--2027-01-01T00-00-00Z--aaaaaaaa.mjs",
            "demo--2027-01-01T00-00-00Z--aaaaaaaa.json",
            "demo--2030-01-01T00-00-00Z--aaaaaaaa.mjs.tmp",
        ] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let latest = resolve_latest(dir.path(), "demo", "mjs").unwrap().unwrap();
        assert_eq!(latest.version.hash8, "00000000");
        assert_eq!(versions(dir.path(), "demo", "mjs").unwrap().len(), 3);
        assert!(
            resolve_latest(&dir.path().join("missing"), "demo", "mjs")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn next_timestamp_is_strictly_later() {
        let now = parse_rfc3339("2026-06-04T10:15:00Z").unwrap();
        let existing = vec![Found {
            path: PathBuf::new(),
            version: parse_versioned("d--2026-06-04T10-15-00Z--aaaaaaaa.mjs").unwrap(),
        }];
        assert_eq!(
            to_file_ts(next_timestamp(&existing, now)),
            "2026-06-04T10-15-01Z"
        );
        assert_eq!(to_file_ts(next_timestamp(&[], now)), "2026-06-04T10-15-00Z");
    }

    #[test]
    fn slugs_and_ids() {
        assert!(is_slug("pnlRoutes") && is_slug("a_b-C1"));
        for bad in ["", "1a", "-x", "a/b", "a.b", "..", "a b", "ä"] {
            assert!(!is_slug(bad), "{bad}");
        }
        assert!(is_id("defillama") && is_id("a-1"));
        for bad in ["", "A", "a_b", "1a", "a/b", ".."] {
            assert!(!is_id(bad), "{bad}");
        }
    }
}
