//! `state` over the committed fixture islands (fixtures/islands/README.md): one table of the
//! expected statuses, and insta snapshots of the text and the JSON of each.

mod support;

use assert_cmd::Command;
use serde_json::Value;

/// island, rollup status, rollup grade, schema status, listStations status
const ISLANDS: &[(&str, &str, Option<&str>, &str, &str)] = &[
    ("operational", "operational", Some("B"), "stable", "stable"),
    (
        "partial-after-full",
        "operational",
        Some("B"),
        "stable",
        "stable",
    ),
    ("graded", "partial", Some("B"), "graded", "graded"),
    ("hash-changed", "partial", Some("B"), "pending", "pending"),
    ("rejected", "rejected", Some("B"), "rejected", "stable"),
    ("blocked", "blocked", None, "blocked", "blocked"),
    ("node-written", "partial", None, "blocked", "stable"),
];

#[test]
fn statuses_of_every_fixture_island() {
    for (name, rollup, grade, schema, tool) in ISLANDS {
        let island = support::repo().join("fixtures/islands").join(name);
        let run = |json: bool| {
            let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
            cmd.env("HOME", "/nonexistent-home-for-tests")
                .arg("--grading-data")
                .arg(&island);
            if json {
                cmd.arg("--json");
            }
            let out = cmd.args(["state", "tinyapi"]).output().unwrap();
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout).unwrap()
        };
        let json: Value = serde_json::from_str(&run(true)).unwrap();
        let index = &json["index"];
        assert_eq!(index["status"], *rollup, "{name}");
        assert_eq!(index["grade"].as_str(), *grade, "{name}");
        assert_eq!(index["schemas"]["tinyapi"]["status"], *schema, "{name}");
        assert_eq!(
            index["schemas"]["tinyapi"]["tools"]["listStations"]["status"], *tool,
            "{name}"
        );
        assert!(
            !island.join("providers/tinyapi/index.json").exists(),
            "state wrote into {name}"
        );

        let mut settings = insta::Settings::clone_current();
        settings.add_filter(&regex_escape(&island.display().to_string()), "[ISLAND]");
        settings.add_filter(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z", "[TIME]");
        settings.bind(|| {
            insta::assert_snapshot!(format!("state_{name}_text"), run(false));
            insta::assert_snapshot!(
                format!("state_{name}_json"),
                serde_json::to_string_pretty(&json).unwrap()
            );
        });
    }
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if "\\.+*?()|[]{}^$".contains(c) {
                vec!['\\', c]
            } else {
                vec![c]
            }
        })
        .collect()
}
