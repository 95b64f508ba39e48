//! `flowmcp-grading import` through the binary: every fixture provider, idempotence, new
//! snapshots on change, every broken module with its located error and an untouched island,
//! `--allow-partial`, and a process killed mid-import.

mod support;

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn bin() -> Command {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.current_dir(support::repo())
        .env_remove("FLOWMCP_GRADING_DATA")
        .env("HOME", "/nonexistent-home-for-tests");
    cmd
}

fn import(island: &Path, provider: &Path, extra: &[&str]) -> (i32, Value, String) {
    let out = bin()
        .arg("--grading-data")
        .arg(island)
        .arg("--json")
        .arg("import")
        .arg(provider)
        .args(extra)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (
        code,
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn import_text(island: &Path, provider: &Path) -> (i32, String, String) {
    let out = bin()
        .arg("--grading-data")
        .arg(island)
        .arg("import")
        .arg(provider)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn providers() -> PathBuf {
    support::repo().join("fixtures/providers")
}

/// `schemaHash` that node computed for a fixture module.
fn expected_hash(rel: &str) -> String {
    let path = support::repo()
        .join("fixtures/expected")
        .join(format!("{rel}.json"));
    support::read(&path)["schemaHash"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Every file under `root` with its bytes (the lock file excluded: it is not content).
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    if !root.exists() {
        return files;
    }
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().unwrap() != ".lock" {
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                files.insert(rel, fs::read(&path).unwrap());
            }
        }
    }
    files
}

fn names(tree: &BTreeMap<PathBuf, Vec<u8>>) -> Vec<String> {
    tree.keys().map(|p| p.display().to_string()).collect()
}

#[test]
fn imports_a_small_clean_provider() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let (code, json, stderr) = import(&island, &providers().join("tinyapi"), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["status"], true);
    assert_eq!(json["stage"], 0);
    assert_eq!(json["namespace"], "tinyapi");
    let hash = expected_hash("tinyapi/tinyapi");
    assert_eq!(json["imported"][0]["hash"], hash.as_str());
    assert_eq!(json["skipped"], Value::Array(vec![]));
    assert_eq!(json["failed"], Value::Array(vec![]));

    let snapshot = PathBuf::from(json["imported"][0]["snapshotPath"].as_str().unwrap());
    let name = snapshot.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("tinyapi--") && name.ends_with(&format!("--{hash}.mjs")),
        "{name}"
    );
    assert_eq!(
        fs::read(&snapshot).unwrap(),
        fs::read(providers().join("tinyapi/tinyapi.mjs")).unwrap(),
        "the snapshot is a byte copy"
    );

    let index = support::read(&island.join("providers/tinyapi/index.json"));
    assert_eq!(
        json["indexPath"],
        island
            .join("providers/tinyapi/index.json")
            .display()
            .to_string()
    );
    assert_eq!(index["indexVersion"], 2);
    assert_eq!(index["status"], "pending");
    assert_eq!(index["grade"], Value::Null);
    let node = &index["schemas"]["tinyapi"];
    assert_eq!(node["status"], "pending");
    assert_eq!(node["snapshot"]["hash"], hash.as_str());
    assert_eq!(node["snapshot"]["file"], name);
    assert_eq!(node["tools"]["listStations"]["status"], "pending");
    assert_eq!(index["summary"]["tools"], 2);
    assert_eq!(index["about"]["status"], "not-applicable");
}

#[test]
fn importing_twice_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let provider = providers().join("manyschemas");
    let (code, first, _) = import(&island, &provider, &[]);
    assert_eq!(code, 0);
    assert_eq!(first["imported"].as_array().unwrap().len(), 8);
    let before = tree(&island);
    let (code, second, _) = import(&island, &provider, &[]);
    assert_eq!(code, 0);
    assert_eq!(second["imported"], Value::Array(vec![]));
    assert_eq!(second["skipped"].as_array().unwrap().len(), 8);
    let after = tree(&island);
    assert_eq!(names(&before), names(&after));
    for (path, bytes) in &before {
        if !path.ends_with("index.json") {
            assert_eq!(bytes, &after[path], "{}", path.display());
        }
    }
}

#[test]
fn a_changed_folder_adds_snapshots_and_keeps_the_old_ones() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let provider = dir.path().join("tinyapi");
    fs::create_dir(&provider).unwrap();
    let source = fs::read_to_string(providers().join("tinyapi/tinyapi.mjs")).unwrap();
    fs::write(provider.join("tinyapi.mjs"), &source).unwrap();
    let (code, first, _) = import(&island, &provider, &[]);
    assert_eq!(code, 0);
    let hash = first["imported"][0]["hash"].as_str().unwrap().to_owned();

    // A comment changes the bytes but not `main`: a new snapshot with the same hash.
    fs::write(provider.join("tinyapi.mjs"), format!("// edited\n{source}")).unwrap();
    let (code, second, stderr) = import(&island, &provider, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(second["imported"][0]["hash"], hash.as_str());
    assert_ne!(
        second["imported"][0]["snapshotPath"],
        first["imported"][0]["snapshotPath"]
    );

    // A change of `main`: a new snapshot with a new hash.
    fs::write(
        provider.join("tinyapi.mjs"),
        source.replace("TinyAPI Weather Stations", "TinyAPI Stations"),
    )
    .unwrap();
    let (code, third, _) = import(&island, &provider, &[]);
    assert_eq!(code, 0);
    assert_ne!(third["imported"][0]["hash"], hash.as_str());

    let snapshots = fs::read_dir(island.join("providers/tinyapi/tinyapi/schema"))
        .unwrap()
        .count();
    assert_eq!(snapshots, 3, "old snapshots are kept");
    let index = support::read(&island.join("providers/tinyapi/index.json"));
    assert_eq!(
        index["schemas"]["tinyapi"]["snapshot"]["hash"], third["imported"][0]["hash"],
        "the index points at the newest snapshot"
    );
}

#[test]
fn all_three_export_styles_and_a_dash_dash_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let (code, json, stderr) = import(&island, &providers().join("handlerstyles"), &[]);
    assert_eq!(code, 0, "{stderr}");
    let imported: BTreeMap<String, String> = json["imported"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["schema"].as_str().unwrap().to_owned(),
                r["hash"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(imported.len(), 4, "{imported:?}");
    assert_eq!(
        imported["pnlRoutes"],
        expected_hash("handlerstyles/--pnlRoutes")
    );
    for file in ["candles", "tokens", "wallets"] {
        assert_eq!(
            imported[file],
            expected_hash(&format!("handlerstyles/{file}")),
            "{file}"
        );
    }
}

#[test]
fn key_gated_provider_records_shared_lists() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let (code, json, stderr) = import(&island, &providers().join("keygated"), &[]);
    assert_eq!(code, 0, "{stderr}");
    let lists = json["sharedLists"].as_array().unwrap();
    let found = lists.iter().find(|l| l["ref"] == "evmChains").unwrap();
    let path = PathBuf::from(found["path"].as_str().unwrap());
    assert!(
        path.starts_with(island.join("shared-lists/evmChains")),
        "{}",
        path.display()
    );
    let list: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    let expected = support::read(&support::repo().join("fixtures/expected/_lists/evmChains.json"));
    assert_eq!(
        serde_json::to_string(&list).unwrap(),
        expected["exports"]["list"].as_str().unwrap()
    );
    let missing = lists
        .iter()
        .find(|l| l["ref"] == "tradingTimeframes")
        .unwrap();
    assert_eq!(missing["path"], Value::Null);
    let warnings = json["warnings"].to_string();
    assert!(
        warnings.contains("IMP-WARN-009") && warnings.contains("tradingTimeframes"),
        "{warnings}"
    );
    // No key value or key name leaks into the island beyond the schema snapshots themselves.
    for (path, _) in tree(&island) {
        assert!(!path.display().to_string().contains("KEYGATED"));
    }
}

#[test]
fn about_and_skills_are_extracted() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let (code, json, stderr) = import(&island, &providers().join("aboutskills"), &[]);
    assert_eq!(code, 0, "{stderr}");
    let about = &json["about"][0];
    assert_eq!(about["schema"], "markets");
    let expected = support::read(
        &support::repo().join("fixtures/expected/aboutskills/resources/aboutskills-about.json"),
    );
    assert_eq!(about["hash"], expected["aboutHash"]);
    let about_path = PathBuf::from(about["path"].as_str().unwrap());
    assert!(about_path.starts_with(island.join("providers/aboutskills/markets/resources/about")));
    let name = about_path.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("aboutskills-about--") && name.ends_with(".md"),
        "{name}"
    );
    assert_eq!(
        fs::read(&about_path).unwrap(),
        fs::read(providers().join("aboutskills/resources/aboutskills-about.md")).unwrap()
    );

    let skills: BTreeMap<String, &Value> = json["normalizedSkills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["skillName"].as_str().unwrap().to_owned(), s))
        .collect();
    assert_eq!(skills.len(), 3, "{skills:?}");
    assert_eq!(skills["daily-brief"]["schema"], "news");
    assert_eq!(
        skills["daily-brief"]["provenance"]["normalizedFrom"],
        "inline"
    );
    for file_skill in ["price-check", "market-overview"] {
        let row = skills[file_skill];
        assert_eq!(row["schema"], "markets", "{file_skill}");
        let expected = support::read(&support::repo().join(format!(
            "fixtures/expected/aboutskills/skills/{file_skill}.json"
        )));
        assert_eq!(row["hash"], expected["skillHash"], "{file_skill}");
        assert_eq!(
            fs::read(row["path"].as_str().unwrap()).unwrap(),
            fs::read(providers().join(format!("aboutskills/skills/{file_skill}.mjs"))).unwrap()
        );
    }
    // The rendered inline skill reads back statically.
    let rendered = PathBuf::from(skills["daily-brief"]["path"].as_str().unwrap());
    let module = flowmcp_grading::source::read_module(&rendered).unwrap();
    assert!(module.export("skill").is_some() && module.export("provenance").is_some());

    let index = support::read(&island.join("providers/aboutskills/index.json"));
    assert_eq!(index["about"]["status"], "pending");
    assert_eq!(index["summary"]["skills"], 3);
    assert!(index["skills"]["markets.price-check"].is_object());

    // Importing again changes nothing.
    let (_, again, _) = import(&island, &providers().join("aboutskills"), &[]);
    assert_eq!(again["about"][0]["skipped"], true);
    assert!(
        again["normalizedSkills"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["skipped"] == true)
    );
}

/// A broken case, the code its error must carry, and a text the message must contain.
const BROKEN: &[(&str, &str, &str)] = &[
    ("syntax", "SRC-004", "syntax.mjs:10:21"),
    ("computed", "SRC-005", "computed.mjs:26:21"),
    ("importing", "IMP-010", "importing.mjs:3:1"),
    ("twonamespaces", "IMP-005", "alpha, beta"),
    ("wrongtypes", "IMP-002", "/namespace"),
    ("emptytools", "IMP-002", "/tools"),
    ("nonutf8", "SRC-003", "nonutf8.mjs:3:"),
    ("letref", "SRC-005", "letref.mjs:11:11"),
    ("partial", "SRC-004", "bad.mjs:"),
    ("noexport", "SRC-006", "noexport.mjs"),
];

#[test]
fn every_broken_module_gets_a_located_error_and_the_island_stays_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    assert_eq!(import(&island, &providers().join("tinyapi"), &[]).0, 0);
    let before = tree(&island);
    for (case, code, located) in BROKEN {
        let folder = support::repo().join("fixtures/broken").join(case);
        let (exit, stdout, stderr) = import_text(&island, &folder);
        assert_eq!(exit, 1, "{case}: {stdout}{stderr}");
        assert!(stderr.contains(&format!("[{code}]")), "{case}: {stderr}");
        assert!(
            stderr.contains(located),
            "{case}: wanted `{located}` in {stderr}"
        );
        assert!(stderr.contains("fix: "), "{case}: {stderr}");
        assert!(stdout.is_empty(), "{case}: {stdout}");
        assert_eq!(tree(&island), before, "{case} changed the island");
    }
}

#[test]
fn wrong_types_are_all_listed() {
    let dir = tempfile::tempdir().unwrap();
    let (exit, json, _) = import(
        &dir.path().join("island"),
        &support::repo().join("fixtures/broken/wrongtypes"),
        &[],
    );
    assert_eq!(exit, 1);
    assert_eq!(json["code"], "IMP-015");
    let pointers: Vec<&str> = json["failed"][0]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["pointer"].as_str())
        .collect();
    for wanted in ["/namespace", "/name", "/version", "/description", "/tools"] {
        assert!(
            pointers.contains(&wanted),
            "{wanted} missing in {pointers:?}"
        );
    }
    assert!(!dir.path().join("island").join("providers").exists());
}

#[test]
fn oversized_files_and_outside_symlinks_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let good = fs::read(providers().join("tinyapi/tinyapi.mjs")).unwrap();

    let big = dir.path().join("bigfile");
    fs::create_dir(&big).unwrap();
    fs::write(big.join("big.mjs"), vec![b' '; 5 * 1024 * 1024 + 1]).unwrap();
    let (exit, _, stderr) = import_text(&island, &big);
    assert_eq!(exit, 1);
    assert!(
        stderr.contains("[SRC-002]") && stderr.contains("big.mjs"),
        "{stderr}"
    );

    let linked = dir.path().join("linked");
    fs::create_dir(&linked).unwrap();
    fs::write(linked.join("tinyapi.mjs"), &good).unwrap();
    let secret = dir.path().join("secret.mjs");
    fs::write(&secret, &good).unwrap();
    std::os::unix::fs::symlink(&secret, linked.join("evil.mjs")).unwrap();
    let (exit, _, stderr) = import_text(&island, &linked);
    assert_eq!(exit, 1);
    assert!(
        stderr.contains("[IMP-011]") && stderr.contains("evil.mjs"),
        "{stderr}"
    );
    assert!(!island.join("providers").exists());
}

#[test]
fn allow_partial_imports_the_rest_and_lists_the_failures() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let folder = support::repo().join("fixtures/broken/partial");
    let (code, json, stderr) = import(&island, &folder, &["--allow-partial"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json["imported"][0]["schema"], "good");
    let failed = json["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1);
    assert!(failed[0]["file"].as_str().unwrap().ends_with("bad.mjs"));
    assert_eq!(failed[0]["errors"][0]["code"], "SRC-004");
    let (_, text, _) = import_text(&island, &folder);
    assert!(
        text.is_empty(),
        "without --allow-partial the import is refused: {text}"
    );
}

#[test]
fn bad_paths_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let (exit, json, _) = import(&island, &dir.path().join("missing"), &[]);
    assert_eq!((exit, json["code"].as_str()), (1, Some("IMP-001")));
    let file = dir.path().join("file.mjs");
    fs::write(&file, "export const main = {}").unwrap();
    let (exit, json, _) = import(&island, &file, &[]);
    assert_eq!((exit, json["code"].as_str()), (1, Some("IMP-001")));
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let (exit, json, _) = import(&island, &empty, &[]);
    assert_eq!((exit, json["code"].as_str()), (1, Some("IMP-001")));
    let selection = dir.path().join("sel.json");
    fs::write(&selection, "{}").unwrap();
    let (exit, json, _) = import(&island, &selection, &[]);
    assert_eq!(
        (exit, json["code"].as_str()),
        (1, Some("SEL-002")),
        "an empty selection definition is refused"
    );
    assert!(!island.exists() || tree(&island).is_empty());
}

#[test]
fn human_summary_lists_what_happened() {
    let dir = tempfile::tempdir().unwrap();
    let (exit, text, _) = import_text(
        &dir.path().join("island"),
        &providers().join("handlerstyles"),
    );
    assert_eq!(exit, 0);
    let hash = expected_hash("handlerstyles/tokens");
    assert!(text.contains("imported namespace handlerstyles"), "{text}");
    assert!(
        text.contains(&format!("new       tokens     {hash}")),
        "{text}"
    );
    assert!(text.contains("4 new, 0 unchanged, 0 failed"), "{text}");
}

#[test]
fn a_second_writer_is_refused_while_the_lock_is_held() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    fs::create_dir_all(&island).unwrap();
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(island.join(".lock"))
        .unwrap();
    lock.lock().unwrap();
    let out = bin()
        .env("FLOWMCP_GRADING_LOCK_TIMEOUT", "0")
        .arg("--grading-data")
        .arg(&island)
        .arg("import")
        .arg(providers().join("tinyapi"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("[ISL-004]"), "{stderr}");
    assert!(!island.join("providers").exists());
    lock.unlock().unwrap();
}

/// A process killed during import leaves no partial file under a final name, and a re-run
/// completes the island.
#[test]
fn killed_mid_import_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let provider = providers().join("manyschemas");
    let binary = assert_cmd::cargo::cargo_bin("flowmcp-grading");
    for delay_before_kill in [150u64, 450, 900] {
        let mut child = std::process::Command::new(&binary)
            .env("HOME", "/nonexistent-home-for-tests")
            .env("FLOWMCP_GRADING_TEST_WRITE_DELAY_MS", "100")
            .arg("--grading-data")
            .arg(&island)
            .arg("import")
            .arg(&provider)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_before_kill));
        let _ = child.kill();
        let _ = child.wait();
        check_no_partial_files(&island, &provider);
    }
    let (code, json, stderr) = import(&island, &provider, &[]);
    assert_eq!(code, 0, "{stderr}");
    let total =
        json["imported"].as_array().unwrap().len() + json["skipped"].as_array().unwrap().len();
    assert_eq!(total, 8);
    check_no_partial_files(&island, &provider);
}

fn check_no_partial_files(island: &Path, provider: &Path) {
    for (path, bytes) in tree(island) {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if name.starts_with('.') {
            continue; // temp files never match the grammar and are ignored by readers
        }
        if name.ends_with(".json") {
            serde_json::from_slice::<Value>(&bytes)
                .unwrap_or_else(|e| panic!("{}: torn JSON: {e}", path.display()));
        } else if name.ends_with(".mjs") {
            let slug = name.split("--").next().unwrap();
            let source = fs::read(provider.join(format!("{slug}.mjs"))).unwrap();
            assert_eq!(bytes, source, "{} is not a complete copy", path.display());
        }
    }
}

/// The JSON result keeps the node CLI's keys (plus `failed`, `about`, `sharedLists`, `warnings`);
/// paths and times are filtered so the snapshot is stable.
#[test]
fn json_result_shape() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let out = bin()
        .arg("--grading-data")
        .arg(&island)
        .args(["--json", "import", "fixtures/providers/aboutskills"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let island_text = island.display().to_string();
    let repo_text = support::repo().display().to_string();
    insta::with_settings!({filters => vec![
        (island_text.as_str(), "[ISLAND]"),
        (repo_text.as_str(), "[REPO]"),
        (r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z", "[TS]"),
        (r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z", "[TIME]"),
    ]}, {
        insta::assert_snapshot!(stdout);
    });
}

#[test]
fn a_selection_definition_is_checked_and_snapshotted() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let file = dir.path().join("crypto-basics.json");
    let text = serde_json::to_string_pretty(&serde_json::json!({
        "selectionId": "crypto-basics", "namespace": "crypto", "name": "Crypto basics",
        "version": "flowmcp/4.0.0", "description": "Prices and chain data for crypto agents.",
        "whenToUse": "When an agent needs spot prices and balances.",
        "personaIds": ["ai-engineer"], "members": [{"schemaId": "tinyapi.tinyapi"}]
    }))
    .unwrap();
    fs::write(&file, &text).unwrap();
    let (code, json, stderr) = import(&island, &file, &[]);
    assert_eq!(code, 0, "{stderr}");
    let path = PathBuf::from(json["snapshotPath"].as_str().unwrap());
    assert!(path.starts_with(island.join("selections/crypto-basics/selection")));
    assert_eq!(fs::read(&path).unwrap(), text.as_bytes());
    assert_eq!(
        json["membersNotImported"],
        serde_json::json!(["tinyapi.tinyapi"])
    );
    let index = support::read(&island.join("selections/crypto-basics/index.json"));
    assert_eq!(
        index["members"]["tinyapi.tinyapi"]["reason"],
        "selection member, not imported"
    );
    let (_, again, _) = import(&island, &file, &[]);
    assert_eq!(again["skipped"], true);
    // A folder holding one definition works too; a broken one is refused and writes nothing.
    let broken = dir.path().join("broken");
    fs::create_dir(&broken).unwrap();
    fs::write(
        broken.join("sel.json"),
        r#"{"selectionId": "x", "members": []}"#,
    )
    .unwrap();
    let before = tree(&island);
    let (code, json, _) = import(&island, &broken, &[]);
    assert_eq!((code, json["code"].as_str()), (1, Some("SEL-002")));
    assert!(json["errors"].as_array().unwrap().len() >= 5, "{json}");
    assert_eq!(tree(&island), before);
}

/// Several folders in one call: read in parallel, written in order; a refusal stops the rest.
#[test]
fn several_folders_in_one_call() {
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    let out = bin()
        .arg("--grading-data")
        .arg(&island)
        .args(["--json", "import"])
        .arg(providers().join("tinyapi"))
        .arg(providers().join("manyschemas"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let namespaces: Vec<&str> = json["imports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["namespace"].as_str().unwrap())
        .collect();
    assert_eq!(namespaces, ["tinyapi", "manyschemas"]);
    let out = bin()
        .arg("--grading-data")
        .arg(dir.path().join("island2"))
        .arg("import")
        .arg(providers().join("tinyapi"))
        .arg(dir.path().join("missing"))
        .arg(providers().join("manyschemas"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("IMP-001") && stderr.contains("1 of 3 paths imported"),
        "{stderr}"
    );
    assert!(dir.path().join("island2/providers/tinyapi").is_dir());
    assert!(!dir.path().join("island2/providers/manyschemas").exists());
}
