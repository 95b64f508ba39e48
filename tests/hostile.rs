//! Hostile input and the security promises: keys never on disk or in output (even from an API
//! that echoes them), `.env` read but never written, schema code never executed (top-level code
//! and handlers that would write a marker file or call back over the network), 10,000-level
//! nesting in JSON and JS, 1 GiB sparse files, names with `..`, `/`, NUL and newlines, symlinks
//! and hard links in provider folders, and a provider folder inside the island.

mod support;

use assert_cmd::Command;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use support::http;
use support::island::{scripted, tree};

const KEY: &str = "sk-live-7f3e9a1c-never-to-be-written";

fn bin(home: &Path, island: &Path) -> Command {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.env("HOME", home)
        .env_remove("FLOWMCP_GRADING_USE_KEYS")
        .env_remove("FLOWMCP_GRADING_EXPORT")
        .arg("--grading-data")
        .arg(island);
    cmd
}

fn tool(name: &str, path: &str) -> String {
    format!(
        "{name}: {{ method: 'GET', path: '{path}', description: 'Lists items.', parameters: [], tests: [{{ _description: 'a' }}, {{ _description: 'b' }}, {{ _description: 'c' }}], output: {{ mimeType: 'application/json', schema: {{ type: 'object', properties: {{ items: {{ type: 'array' }} }} }} }} }},"
    )
}

/// Runs and collects stdout and stderr into `seen`; returns the exit code.
fn run(cmd: &mut Command, seen: &mut String) -> i32 {
    let out = cmd.output().unwrap();
    seen.push_str(&String::from_utf8_lossy(&out.stdout));
    seen.push_str(&String::from_utf8_lossy(&out.stderr));
    out.status.code().unwrap_or(-1)
}

#[test]
fn keys_never_reach_disk_or_output() {
    let server = http::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    fs::create_dir_all(home.join(".flowmcp")).unwrap();
    let env_file = home.join(".flowmcp/.env");
    fs::write(&env_file, format!("# keys\nLIVE_API_KEY={KEY}\n")).unwrap();
    let env_before = (
        fs::read(&env_file).unwrap(),
        fs::metadata(&env_file).unwrap().modified().unwrap(),
    );
    let provider = dir.path().join("keyed");
    fs::create_dir_all(&provider).unwrap();
    let tools = [
        tool("listA", "/ok?apikey={{LIVE_API_KEY}}"),
        tool("listB", "/echo?apikey={{LIVE_API_KEY}}"),
        tool("listC", "/status/500?apikey={{LIVE_API_KEY}}"),
    ]
    .concat();
    fs::write(
        provider.join("keyed.mjs"),
        format!(
            "export const main = {{ namespace: 'keyed', name: 'Keyed', description: 'A keyed API.', version: '4.0.0', docs: ['{b}/ok'], tags: [], root: '{b}', requiredServerParams: ['LIVE_API_KEY'], headers: {{ 'X-Api-Key': '{{{{LIVE_API_KEY}}}}' }}, tools: {{ {tools} }} }}\n",
            b = server.base
        ),
    )
    .unwrap();
    let island = dir.path().join("island");
    let exports = dir.path().join("exports");
    let mut seen = String::new();
    assert_eq!(
        run(bin(&home, &island).arg("import").arg(&provider), &mut seen),
        0,
        "{seen}"
    );
    assert_eq!(
        run(
            bin(&home, &island).args(["run", "keyed", "--emit-prompts", "--with-keys"]),
            &mut seen
        ),
        0,
        "{seen}"
    );
    run(
        bin(&home, &island).args(["-v", "deterministic", "keyed", "--with-keys"]),
        &mut seen,
    );
    let prompts: Value =
        serde_json::from_slice(&fs::read(island.join("providers/keyed/prompts.json")).unwrap())
            .unwrap();
    let scores = dir.path().join("scores.json");
    fs::write(&scores, scripted(&prompts, 4.0).to_string()).unwrap();
    assert_eq!(
        run(
            bin(&home, &island)
                .args(["--json", "run", "keyed", "--consume-scores"])
                .arg(&scores)
                .arg("--export-dir")
                .arg(&exports),
            &mut seen
        ),
        0,
        "{seen}"
    );
    run(
        bin(&home, &island).args(["--json", "state", "keyed"]),
        &mut seen,
    );
    run(
        bin(&home, &island)
            .args(["report", "keyed", "--out"])
            .arg(dir.path().join("report.html")),
        &mut seen,
    );
    run(
        bin(&home, &island)
            .args(["export", "keyed", "--export-dir"])
            .arg(&exports),
        &mut seen,
    );

    let heads = server.heads.lock().unwrap().join("\n");
    assert!(heads.contains(KEY), "the key was sent to the API");
    assert!(!seen.contains(KEY), "the key appeared in output");
    let mut scanned = 0;
    for root in [&island, &exports] {
        for (rel, bytes) in tree(root) {
            assert!(
                !String::from_utf8_lossy(&bytes).contains(KEY),
                "the key is in {}",
                rel.display()
            );
            scanned += 1;
        }
    }
    assert!(
        !fs::read_to_string(dir.path().join("report.html"))
            .unwrap()
            .contains(KEY)
    );
    assert!(scanned > 20, "{scanned} files scanned");
    // The echoing API's stored response has the key redacted, not dropped silently.
    let echoed =
        fs::read_to_string(island.join("providers/keyed/keyed/tools/listB/tests/test-1.json"))
            .unwrap();
    assert!(echoed.contains("apikey="), "{echoed}");
    let env_after = (
        fs::read(&env_file).unwrap(),
        fs::metadata(&env_file).unwrap().modified().unwrap(),
    );
    assert_eq!(env_before, env_after, ".env is read, never written");
}

#[test]
fn schema_code_never_runs() {
    let server = http::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let marker = dir.path().join("marker-code-ran");
    let provider = dir.path().join("trap");
    fs::create_dir_all(&provider).unwrap();
    let write_marker = format!(
        "globalThis.process.getBuiltinModule('node:fs').writeFileSync('{}', 'ran')",
        marker.display()
    );
    fs::write(
        provider.join("trap.mjs"),
        format!(
            "const armed = (() => {{ {write_marker}; return 1; }})();\n\
             export const main = {{ namespace: 'trap', name: 'Trap', description: 'Would run code.', version: '4.0.0', docs: ['{b}/ok'], tags: [], root: '{b}', requiredServerParams: [], headers: {{}}, tools: {{ {} {} {} }} }};\n\
             export const handlers = ({{ sharedLists, libraries }}) => {{ {write_marker}; return {{ listB: {{ executeRequest: async () => {{ {write_marker}; await fetch('{b}/executed'); return {{ status: true, data: {{}} }}; }} }} }}; }};\n",
            tool("listA", "/ok"),
            tool("listB", "/ok"),
            tool("listC", "/ok"),
            b = server.base
        ),
    )
    .unwrap();
    let island = dir.path().join("island");
    let mut seen = String::new();
    let code = run(bin(&home, &island).arg("import").arg(&provider), &mut seen);
    if code == 0 {
        assert_eq!(
            run(
                bin(&home, &island).args(["run", "trap", "--emit-prompts"]),
                &mut seen
            ),
            0,
            "{seen}"
        );
        let prompts: Value =
            serde_json::from_slice(&fs::read(island.join("providers/trap/prompts.json")).unwrap())
                .unwrap();
        let scores = dir.path().join("scores.json");
        fs::write(&scores, scripted(&prompts, 4.0).to_string()).unwrap();
        run(
            bin(&home, &island)
                .args(["run", "trap", "--consume-scores"])
                .arg(&scores),
            &mut seen,
        );
        assert!(
            seen.contains("listB (0/3)"),
            "the handler tool is not run: {seen}"
        );
    }
    assert!(!marker.exists(), "schema code ran");
    let heads = server.heads.lock().unwrap().join("\n");
    assert!(!heads.contains("/executed"), "a handler called out");
}

#[test]
fn hostile_files_and_names_are_refused_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let island = dir.path().join("island");
    let code_of = |cmd: &mut Command| {
        let out = cmd.output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code().unwrap_or(-1), text)
    };

    // 10,000 levels of JSON and of JS.
    let deep_json = dir.path().join("deep.json");
    fs::write(
        &deep_json,
        format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)),
    )
    .unwrap();
    let (code, text) = code_of(bin(&home, &island).arg("validate").arg(&deep_json));
    assert_eq!(code, 1);
    assert!(text.contains("JSN-004"), "{text}");
    let deep_js = dir.path().join("deepjs");
    fs::create_dir_all(&deep_js).unwrap();
    fs::write(
        deep_js.join("deepjs.mjs"),
        format!(
            "export const main = {}{};\n",
            "[".repeat(10_000),
            "]".repeat(10_000)
        ),
    )
    .unwrap();
    let (code, text) = code_of(bin(&home, &island).arg("import").arg(&deep_js));
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("SRC-"), "{text}");

    // 1 GiB sparse files: refused by size before any read.
    let sparse = |path: &Path| {
        fs::File::create(path).unwrap().set_len(1 << 30).unwrap();
    };
    let big_json = dir.path().join("big.json");
    sparse(&big_json);
    let started = std::time::Instant::now();
    let (code, text) = code_of(bin(&home, &island).arg("validate").arg(&big_json));
    assert_eq!(code, 1);
    assert!(text.contains("FIL-003"), "{text}");
    let big_provider = dir.path().join("bigmjs");
    fs::create_dir_all(&big_provider).unwrap();
    sparse(&big_provider.join("bigmjs.mjs"));
    let (code, text) = code_of(bin(&home, &island).arg("import").arg(&big_provider));
    assert_eq!(code, 1);
    assert!(text.contains("SRC-002"), "{text}");
    assert!(started.elapsed().as_secs() < 20, "nothing was read");

    // Namespaces and file names with `..`, `/`, NUL and a newline.
    for (i, ns) in ["../evil", "a/b", "a\\u0000b", "a\\nb", ".."]
        .iter()
        .enumerate()
    {
        let folder = dir.path().join(format!("names{i}"));
        fs::create_dir_all(&folder).unwrap();
        fs::write(
            folder.join("x.mjs"),
            format!("export const main = {{ namespace: '{ns}', name: 'X', description: 'x', version: '4.0.0', root: 'https://x.example', tools: {{ {} }} }};\n", tool("listA", "/ok")),
        )
        .unwrap();
        let (code, text) = code_of(bin(&home, &island).arg("import").arg(&folder));
        assert_eq!(code, 1, "{ns}: {text}");
    }
    let newline = dir.path().join("newline");
    fs::create_dir_all(&newline).unwrap();
    fs::write(
        newline.join("bad\nname.mjs"),
        format!("export const main = {{ namespace: 'newline', name: 'X', description: 'x', version: '4.0.0', root: 'https://x.example', tools: {{ {} }} }};\n", tool("listA", "/ok")),
    )
    .unwrap();
    let (code, text) = code_of(bin(&home, &island).arg("import").arg(&newline));
    assert_eq!(code, 1, "{text}");
    assert!(!dir.path().join("evil").exists());
    if island.exists() {
        let names: Vec<PathBuf> = tree(&island).into_keys().collect();
        assert!(
            names.iter().all(|p| !p.to_string_lossy().contains("..") && !p.to_string_lossy().contains('\n')),
            "{names:?}"
        );
    }

    // A symlink to a file outside the folder is refused; a hard link is an ordinary file.
    let linked = dir.path().join("linked");
    fs::create_dir_all(&linked).unwrap();
    let outside = dir.path().join("outside.mjs");
    let module = format!(
        "export const main = {{ namespace: 'linked', name: 'X', description: 'x', version: '4.0.0', root: 'https://x.example', tools: {{ {} }} }};\n",
        tool("listA", "/ok")
    );
    fs::write(&outside, &module).unwrap();
    std::os::unix::fs::symlink(&outside, linked.join("viasymlink.mjs")).unwrap();
    let (code, text) = code_of(bin(&home, &island).arg("import").arg(&linked));
    assert_eq!(code, 1, "{text}");
    fs::remove_file(linked.join("viasymlink.mjs")).unwrap();
    fs::hard_link(&outside, linked.join("linked.mjs")).unwrap();
    let (code, text) = code_of(bin(&home, &island).arg("import").arg(&linked));
    assert_eq!(code, 0, "{text}");
    assert_eq!(
        fs::read_to_string(&outside).unwrap(),
        module,
        "the source is untouched"
    );

    // A provider folder inside the island.
    let inside = island.join("providers/linked/linked/schema");
    let before = tree(&island);
    let (code, text) = code_of(bin(&home, &island).arg("import").arg(&inside));
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("IMP-016"), "{text}");
    let (code, text) = code_of(bin(&home, &island).arg("import").arg(&island));
    assert_eq!(code, 1, "{text}");
    assert_eq!(tree(&island), before, "nothing written");
}
