//! Task-IDs: `<slug>--<hash8 of the sorted, de-duplicated area list>`.

use super::hash8;
use crate::diagnostic::Coded;
use crate::model::Area;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskIdError {
    #[error("Task-ID needs a non-empty slug and at least one area")]
    Empty,
    #[error("unknown area `{0}` in the Task-ID area set")]
    UnknownArea(String),
    #[error("`{0}` is not a Task-ID: it has no `--`")]
    NoSeparator(String),
    #[error("`{0}` is not a Task-ID: the part after the last `--` is not 8 lowercase hex digits")]
    BadHash(String),
}

impl Coded for TaskIdError {
    fn code(&self) -> &'static str {
        match self {
            TaskIdError::Empty => "TID-003",
            TaskIdError::UnknownArea(_) => "TID-004",
            TaskIdError::NoSeparator(_) => "TID-006",
            TaskIdError::BadHash(_) => "TID-007",
        }
    }

    fn fix(&self) -> String {
        match self {
            TaskIdError::Empty | TaskIdError::UnknownArea(_) => {
                "emit prompts for at least one known area".into()
            }
            TaskIdError::NoSeparator(_) | TaskIdError::BadHash(_) => {
                "copy the taskId from prompts.json unchanged, e.g. demoapi--24dfd499".into()
            }
        }
    }
}

/// The Task-ID of an area set; order and duplicates do not matter.
pub fn generate(slug: &str, areas: &[Area]) -> Result<String, TaskIdError> {
    if slug.is_empty() || areas.is_empty() {
        return Err(TaskIdError::Empty);
    }
    let mut names: Vec<&str> = areas.iter().map(|a| a.as_str()).collect();
    names.sort_unstable_by(|a, b| super::canonical::utf16_cmp(a, b));
    names.dedup();
    let list = Value::from(names);
    Ok(format!("{slug}--{}", hash8(&list)))
}

/// Like `generate`, from area names.
pub fn generate_from_names(slug: &str, names: &[&str]) -> Result<String, TaskIdError> {
    let areas = names
        .iter()
        .map(|n| {
            n.parse()
                .map_err(|_| TaskIdError::UnknownArea(n.to_string()))
        })
        .collect::<Result<Vec<Area>, _>>()?;
    generate(slug, &areas)
}

/// Splits a Task-ID at its last `--` into slug and hash8.
pub fn parse(task_id: &str) -> Result<(&str, &str), TaskIdError> {
    let (slug, hash) = task_id
        .rsplit_once("--")
        .ok_or_else(|| TaskIdError::NoSeparator(task_id.to_string()))?;
    if slug.is_empty() {
        return Err(TaskIdError::Empty);
    }
    if !super::is_hash8(hash) {
        return Err(TaskIdError::BadHash(task_id.to_string()));
    }
    Ok((slug, hash))
}

/// True when `task_id` is the Task-ID of `slug` and `areas`.
pub fn matches_area_set(task_id: &str, slug: &str, areas: &[Area]) -> bool {
    generate(slug, areas).is_ok_and(|expected| expected == task_id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Area::*;

    #[test]
    fn reference_vectors() {
        let cases: [(&[Area], &str); 4] = [
            (&[SingleTest], "demoapi--24dfd499"),
            (&[SingleTest, ToolsAggregateSchema], "demoapi--6a387a3f"),
            (
                &[
                    SingleTest,
                    ToolsAggregateSchema,
                    ToolsAggregateNamespace,
                    NamespaceDescription,
                    NamespaceSkills,
                ],
                "demoapi--375671be",
            ),
            (
                &[
                    ToolsAggregateNamespace,
                    NamespaceDescription,
                    NamespaceSkills,
                ],
                "demoapi--a262d696",
            ),
        ];
        for (areas, expected) in cases {
            assert_eq!(generate("demoapi", areas).unwrap(), expected);
        }
    }

    #[test]
    fn order_and_duplicates_do_not_matter() {
        let a = generate("x", &[ToolsAggregateSchema, SingleTest]).unwrap();
        let b = generate("x", &[SingleTest, ToolsAggregateSchema, SingleTest]).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, generate("x", &[SingleTest]).unwrap());
        assert!(matches_area_set(
            &a,
            "x",
            &[SingleTest, ToolsAggregateSchema]
        ));
        assert!(!matches_area_set(
            &a,
            "y",
            &[SingleTest, ToolsAggregateSchema]
        ));
    }

    #[test]
    fn errors() {
        assert_eq!(generate("", &[SingleTest]).unwrap_err().code(), "TID-003");
        assert_eq!(generate("x", &[]).unwrap_err().code(), "TID-003");
        assert_eq!(
            generate_from_names("x", &["single"]).unwrap_err().code(),
            "TID-004"
        );
        assert_eq!(
            generate_from_names("demoapi", &["single-test"]).unwrap(),
            "demoapi--24dfd499"
        );
        assert_eq!(parse("demoapi").unwrap_err().code(), "TID-006");
        assert_eq!(parse("--24dfd499").unwrap_err().code(), "TID-003");
        assert_eq!(parse("demoapi--24DFD499").unwrap_err().code(), "TID-007");
        assert_eq!(parse("demoapi--24dfd4").unwrap_err().code(), "TID-007");
    }

    #[test]
    fn slug_with_dashes_round_trips() {
        let id = generate("my--ns", &[SingleTest]).unwrap();
        assert_eq!(parse(&id).unwrap(), ("my--ns", "24dfd499"));
    }
}
