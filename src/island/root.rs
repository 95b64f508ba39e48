//! Where the island lives: `--grading-data` > `FLOWMCP_GRADING_DATA` > `gradingDataDir` in
//! `~/.flowmcp/config.json` (relative to `~/.flowmcp`) > `~/.flowmcp/grading` (DESIGN.md §5).

use super::IslandError;
use std::path::{Path, PathBuf};

/// Which rule picked the root; shown by commands that print where files went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootSource {
    Flag,
    Env,
    Config,
    Default,
}

impl std::fmt::Display for RootSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RootSource::Flag => "--grading-data or FLOWMCP_GRADING_DATA",
            RootSource::Env => "FLOWMCP_GRADING_DATA",
            RootSource::Config => "gradingDataDir in ~/.flowmcp/config.json",
            RootSource::Default => "the default ~/.flowmcp/grading",
        })
    }
}

/// Resolves the island root. `flag` is the value of `--grading-data` (clap also fills it from
/// `FLOWMCP_GRADING_DATA`; an empty value counts as absent). Relative paths are taken against
/// the current directory.
pub fn resolve_root(flag: Option<&Path>) -> Result<(PathBuf, RootSource), IslandError> {
    let cwd = std::env::current_dir().map_err(|err| IslandError::RootUnusable {
        path: PathBuf::from("."),
        reason: format!("the current directory is not readable: {err}"),
    })?;
    if let Some(path) = flag.filter(|p| !p.as_os_str().is_empty()) {
        return Ok((cwd.join(path), RootSource::Flag));
    }
    if let Some(value) = std::env::var_os("FLOWMCP_GRADING_DATA").filter(|v| !v.is_empty()) {
        return Ok((cwd.join(value), RootSource::Env));
    }
    let home = home_dir().ok_or_else(|| IslandError::RootUnusable {
        path: PathBuf::from("~/.flowmcp/grading"),
        reason: "the home directory is unknown".into(),
    })?;
    let flowmcp = home.join(".flowmcp");
    if let Some(dir) = config_data_dir(&flowmcp.join("config.json"))? {
        return Ok((flowmcp.join(dir), RootSource::Config));
    }
    Ok((flowmcp.join("grading"), RootSource::Default))
}

/// The user's home: `$HOME`, as every CLI on Unix reads it.
pub fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// `gradingDataDir` from the global config, when it is a non-empty string. A missing file or a
/// non-string value falls through to the next rule; a file that is not JSON is an error (the user
/// meant something and should know it was not read).
fn config_data_dir(path: &Path) -> Result<Option<String>, IslandError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => {
            return Err(IslandError::Config {
                path: path.to_path_buf(),
                reason: err.to_string(),
            });
        }
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|err| IslandError::Config {
            path: path.to_path_buf(),
            reason: format!("not JSON: {err}"),
        })?;
    Ok(value
        .get("gradingDataDir")
        .and_then(|v| v.as_str())
        .filter(|s| !s.trim().is_empty())
        .map(str::to_owned))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_value_rules() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        assert_eq!(config_data_dir(&path).unwrap(), None);
        std::fs::write(&path, r#"{"gradingDataDir": "data"}"#).unwrap();
        assert_eq!(config_data_dir(&path).unwrap().as_deref(), Some("data"));
        std::fs::write(&path, r#"{"gradingDataDir": 7}"#).unwrap();
        assert_eq!(config_data_dir(&path).unwrap(), None);
        std::fs::write(&path, r#"{"gradingDataDir": "  "}"#).unwrap();
        assert_eq!(config_data_dir(&path).unwrap(), None);
        std::fs::write(&path, "{not json").unwrap();
        let err = config_data_dir(&path).unwrap_err();
        assert!(matches!(err, IslandError::Config { .. }));
    }

    #[test]
    fn flag_wins_and_is_taken_against_cwd() {
        let (root, source) = resolve_root(Some(Path::new("island"))).unwrap();
        assert_eq!(source, RootSource::Flag);
        assert!(root.is_absolute());
        assert!(root.ends_with("island"));
    }
}
