//! The HTML report rendered in headless Chromium: the demo grades its provider into a fresh
//! island, `report` writes the page, Chromium loads it from disk (no network), runs its inline
//! script, and the test checks key elements through the DOM it dumps; then it takes a screenshot
//! (kept at target/report-screenshot.png for a person to look at). Skipped, with a printed
//! reason, where no Chromium is installed (`.ci/run` installs Debian's `chromium`).

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("FLOWMCP_GRADING_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| {
            ["chromium", "chromium-browser", "google-chrome"]
                .into_iter()
                .map(move |name| dir.join(name))
        })
        .find(|p| p.is_file())
}

/// Runs Chromium headless with the flags this closed network needs; kills it after 90 s.
fn headless(browser: &Path, profile: &Path, args: &[String]) -> String {
    let mut child = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("chromium did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn bin() -> Command {
    let mut cmd = Command::cargo_bin("flowmcp-grading").unwrap();
    cmd.env("HOME", "/nonexistent-home-for-tests")
        .env_remove("FLOWMCP_GRADING_EXPORT")
        .env_remove("FLOWMCP_GRADING_USE_KEYS");
    cmd
}

#[test]
fn the_report_renders_in_chromium() {
    let Some(browser) = chromium() else {
        println!("skipped: no Chromium found (install Debian's `chromium`; .ci/run does)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let island = dir.path().join("island");
    bin()
        .env("TMPDIR", dir.path())
        .arg("--grading-data")
        .arg(&island)
        .arg("demo")
        .assert()
        .success();
    let report = dir.path().join("report.html");
    bin()
        .arg("--grading-data")
        .arg(&island)
        .args(["report", "demoapi", "--out"])
        .arg(&report)
        .assert()
        .success();
    let url = format!("file://{}", report.display());
    let profile = dir.path().join("profile");

    let dom = headless(&browser, &profile, &["--dump-dom".into(), url.clone()]);
    assert!(
        dom.contains("<body data-nodes=\"8\" data-entries=\"7\""),
        "the inline script ran over the tree: {}",
        &dom[..dom.len().min(400)]
    );
    for wanted in [
        "id=\"rollup\" data-status=\"operational\" data-grade=\"B\"",
        "class=\"bar\" data-grade=\"B\" data-count=\"8\"",
        "data-node=\"schemas.weather.tools.getCurrent\" data-status=\"stable\"",
        "data-node=\"about\"><summary>About",
        "Q-single-test-09",
    ] {
        assert!(dom.contains(wanted), "{wanted} missing from the DOM");
    }
    assert_eq!(dom.matches("class=\"pretest-row\"").count(), 3);

    let shot = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/report-screenshot.png");
    let _ = std::fs::remove_file(&shot);
    headless(
        &browser,
        &profile,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,1800".into(),
            url,
        ],
    );
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    assert!(
        png.len() > 20_000,
        "a real page, not a blank one ({} bytes)",
        png.len()
    );
    println!("screenshot: {}", shot.display());
}
