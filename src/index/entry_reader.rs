//! Reading grading entries for the rollup, leniently: this project's entries (checked and
//! recomputed), entries written by the node implementation (`grade`, `aggregateGrade`,
//! `blocked`, reference-cli.md §2.9), and anything else as a blocked node with its reason —
//! never a crash.

use crate::grading::{EntryFacts, compute_entry};
use crate::island::names::is_id;
use crate::json_input::read_json_file;
use crate::model::{AggregateGrade, Area, GradingEntry, GradingMode};
use crate::timestamp::parse_file_ts;
use chrono::{DateTime, Utc};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Entry files larger than this are not read.
pub const MAX_ENTRY_BYTES: u64 = 4 * 1024 * 1024;

/// A parsed grading file name: `<area>[--<basePersona>--<lens>]--<YYYY-MM-DDTHH-MM-SSZ>.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryName {
    pub area: Area,
    pub persona: Option<(String, String)>,
    pub at: DateTime<Utc>,
}

pub fn parse_entry_name(file_name: &str) -> Option<EntryName> {
    let stem = file_name.strip_suffix(".json")?;
    let (rest, ts) = stem.rsplit_once("--")?;
    let at = parse_file_ts(ts)?;
    let parts: Vec<&str> = rest.split("--").collect();
    match parts.as_slice() {
        [area] => Some(EntryName {
            area: area.parse().ok()?,
            persona: None,
            at,
        }),
        [area, base, lens] if is_id(base) && is_id(lens) => Some(EntryName {
            area: area.parse().ok()?,
            persona: Some(((*base).to_owned(), (*lens).to_owned())),
            at,
        }),
        _ => None,
    }
}

/// What the rollup needs from one entry file.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadEntry {
    pub path: PathBuf,
    pub name: Option<EntryName>,
    /// `None` when the entry cannot count (see `blocked`).
    pub facts: Option<EntryFacts>,
    /// Recomputed from the answers (this project's entries only).
    pub raw_grade: Option<String>,
    pub normalized_score: Option<f64>,
    /// Why this entry makes its node blocked (unreadable, wrong area, unknown grade, or a
    /// blocked entry of the node implementation).
    pub blocked: Option<String>,
    /// How the entry was read, when not as one of ours.
    pub note: Option<String>,
    /// Answers past their aging window now (this project's entries only).
    pub stale: Vec<String>,
}

/// Reads the entry at `path`, which sits in a `_gradings/` folder of area `folder_area`.
/// `current_hash` stands in for node-implementation entries that carry no `schemaHash`.
pub fn read_entry(path: &Path, folder_area: Area, current_hash: &str) -> ReadEntry {
    let mut read = ReadEntry {
        path: path.to_path_buf(),
        name: None,
        facts: None,
        raw_grade: None,
        normalized_score: None,
        blocked: None,
        note: None,
        stale: Vec::new(),
    };
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let Some(name) = parse_entry_name(file_name) else {
        read.blocked = Some(format!(
            "GRD-041: grading file name `{file_name}` does not follow <area>[--<basePersona>--<lens>]--<YYYY-MM-DDTHH-MM-SSZ>.json"
        ));
        return read;
    };
    if name.area != folder_area {
        read.blocked = Some(format!(
            "IDX-010: entry for area {} in a folder of area {}",
            name.area.as_str(),
            folder_area.as_str()
        ));
        read.name = Some(name);
        return read;
    }
    let value = match read_json_file(path, MAX_ENTRY_BYTES) {
        Ok(value) => value,
        Err(err) => {
            read.blocked = Some(format!("IDX-004: grading entry not parseable: {err}"));
            read.name = Some(name);
            return read;
        }
    };
    let at = name.at;
    read.name = Some(name);
    match serde_json::from_value::<GradingEntry>(value.clone()) {
        Ok(entry) => {
            let outcome = compute_entry(&entry);
            read.raw_grade = outcome.raw_grade.map(|g| g.to_string());
            read.normalized_score = outcome.normalized_score;
            if entry.area != folder_area {
                read.blocked = Some(format!(
                    "IDX-010: entry for area {} in a folder of area {}",
                    entry.area.as_str(),
                    folder_area.as_str()
                ));
                return read;
            }
            if outcome
                .aggregate
                .is_some_and(|g| g != entry.aggregate_grade)
            {
                read.note = Some(format!(
                    "stored aggregateGrade {} differs from the recomputed {}; the stored one is shown",
                    entry.aggregate_grade,
                    outcome.aggregate.map(|g| g.to_string()).unwrap_or_default()
                ));
            }
            let now = Utc::now();
            for answer in &entry.gradings {
                let class = crate::prompts::catalogue::aging_class(&answer.question_id);
                if let Some(answered) = crate::timestamp::parse_rfc3339(&answer.timestamp)
                    && crate::scoring::age_score(
                        answer.score,
                        class,
                        answered,
                        now,
                        &crate::scoring::AGING_DEFAULTS,
                    ) == crate::model::Score::Stale
                    && answer.score != crate::model::Score::Stale
                {
                    read.stale.push(answer.question_id.clone());
                }
            }
            read.facts = Some(EntryFacts {
                at,
                mode: entry.grading_mode,
                aggregate: entry.aggregate_grade,
                schema_hash: entry.schema_hash,
            });
        }
        Err(strict) => read_foreign(&mut read, &value, at, current_hash, &strict.to_string()),
    }
    read
}

/// The node implementation's entry shapes (reference-cli.md §2.9 `#gradingToNode`).
fn read_foreign(
    read: &mut ReadEntry,
    value: &Value,
    at: DateTime<Utc>,
    current_hash: &str,
    strict: &str,
) {
    let Some(object) = value.as_object() else {
        read.blocked = Some("IDX-002: grading entry is not a JSON object".into());
        return;
    };
    read.note = Some(format!("read as a node-implementation entry ({strict})"));
    if object.get("blocked").and_then(Value::as_bool) == Some(true) {
        let reason = object
            .get("blockedReason")
            .and_then(Value::as_str)
            .unwrap_or("blocked");
        read.blocked = Some(reason.to_owned());
        return;
    }
    let grade = object
        .get("grade")
        .filter(|g| !g.is_null())
        .or_else(|| object.get("aggregateGrade"));
    let Some(grade) = grade.filter(|g| !g.is_null()) else {
        read.blocked = Some("IDX-001: no grade in entry (neither grade nor aggregateGrade)".into());
        return;
    };
    let Some(aggregate) = grade
        .as_str()
        .and_then(|g| g.parse::<AggregateGrade>().ok())
    else {
        read.blocked = Some(format!("IDX-007: Unknown aggregateGrade: {grade}"));
        return;
    };
    let mode = match object.get("gradingMode").and_then(Value::as_str) {
        Some("partial") => GradingMode::Partial,
        _ => GradingMode::Full,
    };
    let schema_hash = object
        .get("schemaHash")
        .and_then(Value::as_str)
        .map_or_else(|| current_hash.to_owned(), str::to_owned);
    read.normalized_score = object.get("normalizedScore").and_then(Value::as_f64);
    read.facts = Some(EntryFacts {
        at,
        mode,
        aggregate,
        schema_hash,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::NodeStatus;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn file_names() {
        let n =
            parse_entry_name("about-namespace--decision-maker--defi--2026-06-04T10-15-00Z.json")
                .unwrap();
        assert_eq!(n.area, Area::AboutNamespace);
        assert_eq!(n.persona, Some(("decision-maker".into(), "defi".into())));
        assert!(parse_entry_name("single-test--2026-06-04T10-15-00Z.json").is_some());
        for bad in [
            "single-test--2026-06-04T10-15Z.json",
            "bogus--2026-06-04T10-15-00Z.json",
            "single-test--only-one--2026-06-04T10-15-00Z.json",
            "single-test--2026-06-04T10-15-00Z.json.tmp",
        ] {
            assert!(parse_entry_name(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn our_entries_are_read_and_recomputed() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/entries/valid/spec-autonomous.json"),
        )
        .unwrap();
        let entry: Value = serde_json::from_str(&fixture).unwrap();
        let area: Area = entry["area"].as_str().unwrap().parse().unwrap();
        let path = write(
            dir.path(),
            &format!("{}--2026-06-04T10-15-00Z.json", area.as_str()),
            &fixture,
        );
        let read = read_entry(&path, area, "ffffffff");
        assert_eq!(read.blocked, None, "{read:?}");
        let facts = read.facts.unwrap();
        assert_eq!(
            facts.aggregate.to_string(),
            entry["aggregateGrade"].as_str().unwrap()
        );
        assert!(read.raw_grade.is_some() && read.normalized_score.is_some());
        assert_eq!(read.note, None);
        // The spec example was answered in May 2026: its live-API answers have aged since.
        let api_answers: Vec<String> = entry["gradings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|g| g["questionId"].as_str())
            .filter(|id| id.contains("api-availability") || *id == "Q-single-test-01")
            .map(str::to_owned)
            .collect();
        assert!(!api_answers.is_empty());
        if chrono::Utc::now() > crate::timestamp::parse_rfc3339("2026-06-13T00:00:00Z").unwrap() {
            for id in &api_answers {
                assert!(
                    read.stale.contains(id),
                    "{id} should be stale: {:?}",
                    read.stale
                );
            }
        }
    }

    #[test]
    fn bad_entries_block_with_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let cases = [
            (
                "single-test--2026-06-04T10-15-00Z.json",
                "{\"grade\": \"B\", \"aggr",
                "IDX-004",
            ),
            ("single-test--2026-06-04T10-15-00Z.json", "[1]", "IDX-002"),
            (
                "single-test--2026-06-04T10-15-01Z.json",
                "{\"grade\": \"Q\"}",
                "IDX-007",
            ),
            (
                "single-test--2026-06-04T10-15-02Z.json",
                "{\"aggregateGrade\": null}",
                "IDX-001",
            ),
            (
                "tools-aggregate-schema--2026-06-04T10-15-00Z.json",
                "{\"grade\": \"B\"}",
                "IDX-010",
            ),
            ("single-test--yesterday.json", "{}", "GRD-041"),
        ];
        for (name, text, code) in cases {
            let path = write(d, name, text);
            let read = read_entry(&path, Area::SingleTest, "aaaaaaaa");
            let reason = read.blocked.unwrap_or_default();
            assert!(reason.starts_with(code), "{name}: {reason}");
            assert!(read.facts.is_none());
            let _ = std::fs::remove_file(path);
        }
    }

    #[test]
    fn node_implementation_entries_are_mapped() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let graded = write(
            d,
            "single-test--2026-06-04T10-15-00Z.json",
            r#"{"grade": "B", "dimension": "x", "answers": []}"#,
        );
        let read = read_entry(&graded, Area::SingleTest, "aaaaaaaa");
        let facts = read.facts.clone().unwrap();
        assert_eq!(facts.aggregate.to_string(), "B");
        assert_eq!(facts.schema_hash, "aaaaaaaa");
        assert!(
            read.note
                .unwrap()
                .starts_with("read as a node-implementation entry")
        );
        let verdict = crate::grading::node_status(&[facts], Some("aaaaaaaa"), None);
        assert_eq!(verdict.status, NodeStatus::Stable);

        let rejected = write(
            d,
            "single-test--2026-06-04T10-16-00Z.json",
            r#"{"aggregateGrade": "REJECTED"}"#,
        );
        let facts = read_entry(&rejected, Area::SingleTest, "aaaaaaaa")
            .facts
            .unwrap();
        assert_eq!(facts.aggregate, AggregateGrade::Rejected);

        let blocked = write(
            d,
            "single-test--2026-06-04T10-17-00Z.json",
            r#"{"blocked": true, "blockedReason": "validation-failed"}"#,
        );
        assert_eq!(
            read_entry(&blocked, Area::SingleTest, "aaaaaaaa")
                .blocked
                .as_deref(),
            Some("validation-failed")
        );
    }
}
