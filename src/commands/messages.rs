//! The catalogue of every refusal a command can print, one sample of each, checked for the one
//! message style (what and where in the message, the fix as its own line) and snapshotted in
//! `src/commands/snapshots/` so that a reviewer reads them all in one place. Codes that come as
//! per-field diagnostics (validate's GRD/SCO/VET/…, consume's CNS-001..011, SEL-002/003) are
//! covered by their own tests, which check the JSON pointer.

use super::CommandError;
use super::demo::DemoError;
use super::export::ExportError;
use super::report::ReportError;
use super::run::EmitError;
use crate::diagnostic::{Coded, Diagnostic};
use crate::intake::{FileFailure, IntakeError};
use crate::island::IslandError;
use crate::json_input::InputError;
use crate::prompts::persona::PersonaError;
use crate::prompts::select::PhaseError;
use crate::source::SourceError;
use std::path::PathBuf;

fn io() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::PermissionDenied, "permission denied")
}

/// Every sample with the path its message must name (if any).
fn samples() -> Vec<(CommandError, Option<&'static str>)> {
    let p = |s: &str| PathBuf::from(s);
    let island = "/home/me/.flowmcp/grading";
    let file = "/work/providers/x/x.mjs";
    let scores = "/work/scores.json";
    let island_errors = vec![
        (
            IslandError::RootUnusable {
                path: p(island),
                reason: "not a folder".into(),
            },
            Some(island),
        ),
        (
            IslandError::Config {
                path: p("/home/me/.flowmcp/config.json"),
                reason: "not JSON".into(),
            },
            Some("/home/me/.flowmcp/config.json"),
        ),
        (
            IslandError::Write {
                path: p("/home/me/.flowmcp/grading/providers/x/index.json"),
                source: io(),
            },
            Some("/home/me/.flowmcp/grading/providers/x/index.json"),
        ),
        (
            IslandError::Locked {
                root: p(island),
                lock: p("/home/me/.flowmcp/grading/.lock"),
                holder: ", held by pid 4242".into(),
            },
            Some(island),
        ),
        (
            IslandError::OutsideRoot {
                path: p("/etc/passwd"),
                root: p(island),
            },
            Some("/etc/passwd"),
        ),
        (
            IslandError::Exists {
                path: p("/home/me/.flowmcp/grading/providers/x/prompts.json"),
            },
            Some("prompts.json"),
        ),
        (
            IslandError::InvalidName {
                what: "namespace",
                name: "../x".into(),
                rule: "expected [a-z][a-z0-9-]*",
            },
            Some("../x"),
        ),
        (
            IslandError::TargetNotFound {
                target: "nope".into(),
                root: p(island),
            },
            Some(island),
        ),
        (IslandError::TargetAmbiguous("both".into()), None),
        (
            IslandError::Read {
                path: p("/home/me/.flowmcp/grading/providers/x/state.json"),
                source: io(),
            },
            Some("state.json"),
        ),
    ];
    let mut out: Vec<(CommandError, Option<&'static str>)> = island_errors
        .into_iter()
        .map(|(e, path)| (CommandError::Island(e), path))
        .collect();
    let failure = FileFailure {
        file: p(file),
        errors: vec![
            Diagnostic::error("IMP-010", "import statement at 1:1", "remove it").in_file(&p(file)),
        ],
    };
    for (e, path) in [
        (
            IntakeError::NotFound(p("/work/providers/nope")),
            Some("/work/providers/nope"),
        ),
        (IntakeError::NotAFolder(p(file)), Some(file)),
        (
            IntakeError::NoModules(p("/work/providers/empty")),
            Some("/work/providers/empty"),
        ),
        (
            IntakeError::ManyNamespaces {
                count: 2,
                names: "a, b".into(),
            },
            None,
        ),
        (
            IntakeError::BadFallback("My Folder".into()),
            Some("My Folder"),
        ),
        (
            IntakeError::Refused {
                failed: 1,
                total: 3,
                failures: vec![failure.clone()],
            },
            None,
        ),
        (
            IntakeError::NothingLeft(p("/work/providers/x"), vec![failure]),
            Some("/work/providers/x"),
        ),
    ] {
        out.push((CommandError::Intake(e), path));
    }
    for (e, path) in [
        (
            SourceError::Unreadable {
                path: p(file),
                reason: "permission denied".into(),
            },
            Some(file),
        ),
        (
            SourceError::TooLarge {
                path: p(file),
                size: 5_000_000,
                limit: 4_194_304,
            },
            Some(file),
        ),
        (
            SourceError::NotUtf8 {
                path: p(file),
                line: 3,
                col: 7,
                byte: 0xff,
            },
            Some(file),
        ),
        (
            SourceError::Syntax {
                path: p(file),
                line: 1,
                col: 9,
                message: "Unexpected token".into(),
            },
            Some(file),
        ),
        (
            SourceError::NonStatic {
                path: p(file),
                line: 4,
                col: 2,
                construct: "call expression".into(),
                export: Some("main".into()),
            },
            Some(file),
        ),
        (
            SourceError::NoSchemaExport {
                path: p(file),
                exports: vec!["handlers".into()],
            },
            Some(file),
        ),
        (
            SourceError::NotAnObject {
                path: p(file),
                line: 1,
                col: 1,
                export: "main".into(),
                found: "an array".into(),
            },
            Some(file),
        ),
    ] {
        out.push((CommandError::coded(e), path));
    }
    for (e, path) in [
        (InputError::NotFound(p(scores)), Some(scores)),
        (InputError::IsDirectory(p("/work")), Some(scores)),
        (
            InputError::TooLarge {
                size: 20_000_000,
                limit: 16_777_216,
            },
            Some(scores),
        ),
        (InputError::Unreadable(io()), Some(scores)),
        (InputError::NotUtf8 { line: 1, column: 4 }, Some(scores)),
        (
            InputError::Syntax {
                message: "EOF while parsing".into(),
                line: 1,
                column: 12,
            },
            Some(scores),
        ),
        (
            InputError::DuplicateKey {
                message: "duplicate key `taskId`".into(),
                line: 2,
                column: 3,
            },
            Some(scores),
        ),
        (
            InputError::NumberOutOfRange {
                line: 5,
                column: 14,
            },
            Some(scores),
        ),
        (
            InputError::TooDeep {
                line: 1,
                column: 129,
            },
            Some(scores),
        ),
    ] {
        out.push((CommandError::input(&p(scores), e), path));
    }
    out.push((
        CommandError::coded(EmitError::Exists {
            path: "/home/me/.flowmcp/grading/providers/x/prompts.json".into(),
            task_id: "x--1234abcd".into(),
        }),
        Some("prompts.json"),
    ));
    out.push((CommandError::coded(EmitError::NothingEmittable), None));
    out.push((
        CommandError::coded(EmitError::NoSchemas(
            "x".into(),
            "x: cannot read schema snapshot".into(),
        )),
        None,
    ));
    out.push((
        CommandError::coded(PhaseError::Empty("single-test,".into())),
        None,
    ));
    out.push((
        CommandError::coded(PhaseError::Unknown("bogus".into())),
        None,
    ));
    out.push((
        CommandError::coded(PhaseError::Duplicate("single-test".into())),
        None,
    ));
    out.push((CommandError::coded(PersonaError("nobody:x".into())), None));
    out.push((
        CommandError::coded(ExportError::Exists(p("/work/_exports/x--2026"))),
        Some("/work/_exports/x--2026"),
    ));
    out.push((
        CommandError::coded(ExportError::NoSnapshot("prices".into())),
        None,
    ));
    out.push((
        CommandError::coded(ExportError::Write {
            path: p("/work/_exports"),
            reason: "disk full".into(),
        }),
        Some("/work/_exports"),
    ));
    out.push((
        CommandError::coded(ReportError {
            path: "/work/report.html".into(),
            reason: "permission denied".into(),
        }),
        Some("/work/report.html"),
    ));
    out.push((
        CommandError::coded(DemoError {
            what: "start the demo API on 127.0.0.1".into(),
            reason: "address in use".into(),
        }),
        None,
    ));
    out.push((CommandError::NotImplemented("a command"), None));
    out
}

#[test]
fn every_refusal_has_the_one_style() {
    let mut listing = String::new();
    for (err, path) in samples() {
        let code = err.code();
        let message = err.to_string();
        let fix = err.fix();
        assert!(
            code.len() == 7
                && code[..3].chars().all(|c| c.is_ascii_uppercase())
                && &code[3..4] == "-"
                && code[4..].chars().all(|c| c.is_ascii_digit()),
            "{code}"
        );
        assert!(!message.trim().is_empty(), "{code}: empty message");
        assert!(!message.contains('\n'), "{code}: one line: {message}");
        assert!(!fix.trim().is_empty(), "{code}: no fix");
        assert_ne!(fix, message, "{code}: the fix repeats the message");
        if let Some(path) = path {
            assert!(
                message.contains(path),
                "{code}: `{message}` does not name {path}"
            );
        }
        listing.push_str(&Diagnostic::from_coded(&err).to_string());
        listing.push('\n');
    }
    insta::assert_snapshot!("refusals", listing);
}
