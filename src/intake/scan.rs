//! Reading a provider folder: which files are schema modules, reading each statically, the
//! structural gate, the single-namespace assertion and the folder-name fallback. Writes nothing.

use super::{FileFailure, IntakeError};
use crate::diagnostic::Diagnostic;
use crate::hash::{hash8, schema_hash};
use crate::island::names::{is_id, is_slug};
use crate::source::{self, Module, gate};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// A schema module that was read and passed the gate.
#[derive(Debug, Clone)]
pub struct ScannedSchema {
    pub path: PathBuf,
    pub file_name: String,
    /// The schema's folder name in the island, from the file name.
    pub slug: String,
    pub bytes: Vec<u8>,
    pub module: Module,
    pub main: Value,
    pub hash8: String,
    pub warnings: Vec<Diagnostic>,
}

impl ScannedSchema {
    /// `main.name` (the gate made sure it is a string).
    pub fn name(&self) -> &str {
        self.main.get("name").and_then(Value::as_str).unwrap_or("")
    }

    pub fn namespace(&self) -> &str {
        self.main
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// Tool names of `tools` (or legacy `routes`).
    pub fn tool_names(&self) -> Vec<&str> {
        self.main
            .get("tools")
            .or_else(|| self.main.get("routes"))
            .and_then(Value::as_object)
            .map(|tools| tools.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }
}

/// A namespace skill file `skills/<name>.mjs` beside the schemas.
#[derive(Debug, Clone)]
pub struct ScannedSkill {
    pub path: PathBuf,
    pub name: String,
    pub bytes: Vec<u8>,
    /// The static `skill` export.
    pub skill: Value,
    pub hash8: String,
}

/// Everything `import` learned about a provider folder.
#[derive(Debug, Clone)]
pub struct ProviderScan {
    pub folder: PathBuf,
    pub namespace: String,
    /// The namespace came from the folder name because no schema declared one.
    pub namespace_from_folder: bool,
    pub schemas: Vec<ScannedSchema>,
    pub skills: Vec<ScannedSkill>,
    pub failures: Vec<FileFailure>,
    /// Files looked at (schema modules and skill files).
    pub total_files: usize,
    pub warnings: Vec<Diagnostic>,
}

/// Reads and checks a provider folder. Per-file problems are collected; by default any of them
/// refuses the whole import (`allow_partial` keeps the files that passed).
pub fn scan_provider(folder: &Path, allow_partial: bool) -> Result<ProviderScan, IntakeError> {
    let meta = fs::metadata(folder).map_err(|_| IntakeError::NotFound(folder.to_path_buf()))?;
    if !meta.is_dir() {
        return Err(IntakeError::NotAFolder(folder.to_path_buf()));
    }
    let real_folder =
        fs::canonicalize(folder).map_err(|_| IntakeError::NotFound(folder.to_path_buf()))?;
    let mut failures = Vec::new();
    let mut warnings = Vec::new();

    let candidates = module_files(folder, &real_folder, &mut failures, &mut warnings)?;
    if candidates.is_empty() && failures.is_empty() {
        return Err(IntakeError::NoModules(folder.to_path_buf()));
    }
    let mut total_files = candidates.len() + failures.len();

    let mut schemas = Vec::new();
    let mut slugs = BTreeSet::new();
    for (path, file_name) in candidates {
        match read_schema(&path, &file_name) {
            Ok(schema) if !slugs.insert(schema.slug.clone()) => failures.push(FileFailure {
                file: path.clone(),
                errors: vec![Diagnostic::error(
                    "IMP-003",
                    format!(
                        "schema slug `{}` (from the file name) is already taken by another file",
                        schema.slug
                    ),
                    "rename one of the files: slugs are the file names without leading dashes",
                )
                .in_file(&path)],
            }),
            Ok(schema) => schemas.push(schema),
            Err(errors) => failures.push(FileFailure { file: path, errors }),
        }
    }

    let skill_dir = folder.join("skills");
    let mut skills = Vec::new();
    if skill_dir.is_dir() {
        let skill_files = module_files(&skill_dir, &real_folder, &mut failures, &mut warnings)?;
        total_files += skill_files.len();
        for (path, _) in skill_files {
            match read_skill(&path, true) {
                Ok(skill) => skills.push(skill),
                Err(errors) => failures.push(FileFailure { file: path, errors }),
            }
        }
    }

    let namespaces: BTreeSet<&str> = schemas.iter().map(ScannedSchema::namespace).collect();
    if namespaces.len() > 1 {
        return Err(IntakeError::ManyNamespaces {
            count: namespaces.len(),
            names: namespaces.into_iter().collect::<Vec<_>>().join(", "),
        });
    }
    let (namespace, namespace_from_folder) = match namespaces.into_iter().next() {
        Some(ns) => (ns.to_owned(), false),
        None => {
            let base = folder
                .file_name()
                .or_else(|| real_folder.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !is_id(&base) {
                return Err(IntakeError::BadFallback(base));
            }
            (base, true)
        }
    };

    if !failures.is_empty() && !allow_partial {
        return Err(IntakeError::Refused {
            failed: failures.len(),
            total: total_files,
            failures,
        });
    }
    if schemas.is_empty() {
        return Err(IntakeError::NothingLeft(folder.to_path_buf(), failures));
    }
    if let Some(base) = folder.file_name().and_then(|n| n.to_str())
        && base != namespace
    {
        warnings.push(
            Diagnostic::warning(
                "IMP-WARN-007",
                format!("folder name `{base}` differs from the declared namespace `{namespace}`"),
                "the declared namespace is used; rename the folder to match it",
            )
            .in_file(folder),
        );
    }
    Ok(ProviderScan {
        folder: folder.to_path_buf(),
        namespace,
        namespace_from_folder,
        schemas,
        skills,
        failures,
        total_files,
        warnings,
    })
}

/// Top-level `.mjs` files of `dir` not starting with `_`, sorted by name. Symlinks are followed
/// only when they stay inside the provider folder; anything else named `.mjs` that is not a
/// regular file is reported, never read (a FIFO would block).
fn module_files(
    dir: &Path,
    real_folder: &Path,
    failures: &mut Vec<FileFailure>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<(PathBuf, String)>, IntakeError> {
    let entries = fs::read_dir(dir).map_err(|_| IntakeError::NotFound(dir.to_path_buf()))?;
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let raw_name = entry.file_name();
        let Some(name) = raw_name.to_str() else {
            if raw_name.to_string_lossy().ends_with(".mjs") {
                failures.push(one_failure(
                    path,
                    Diagnostic::error(
                        "IMP-003",
                        "file name is not valid UTF-8",
                        "rename the file to an ASCII name such as `prices.mjs`",
                    ),
                ));
            }
            continue;
        };
        if !name.ends_with(".mjs") || name.starts_with('_') {
            continue;
        }
        let Ok(link_meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if link_meta.file_type().is_symlink() {
            match fs::canonicalize(&path) {
                Ok(target) if target.starts_with(real_folder) => {}
                Ok(target) => {
                    failures.push(one_failure(
                        path.clone(),
                        Diagnostic::error(
                            "IMP-011",
                            format!(
                                "symlink points outside the provider folder (to {})",
                                target.display()
                            ),
                            "copy the file into the provider folder instead of linking to it",
                        ),
                    ));
                    continue;
                }
                Err(err) => {
                    failures.push(one_failure(
                        path.clone(),
                        Diagnostic::error(
                            "IMP-011",
                            format!("symlink cannot be resolved: {err}"),
                            "remove the dangling link or point it at a file in the folder",
                        ),
                    ));
                    continue;
                }
            }
        }
        match fs::metadata(&path) {
            Ok(meta) if meta.is_file() => files.push((path, name.to_owned())),
            Ok(_) => warnings.push(
                Diagnostic::warning(
                    "IMP-WARN-011",
                    "named .mjs but not a regular file; ignored",
                    "rename it if it is not a schema module",
                )
                .in_file(&path),
            ),
            Err(_) => {}
        }
    }
    files.sort();
    Ok(files)
}

fn one_failure(file: PathBuf, diagnostic: Diagnostic) -> FileFailure {
    FileFailure {
        errors: vec![diagnostic.in_file(&file)],
        file,
    }
}

/// Reads the file once (bytes for the snapshot, text for the parser). Oversized files are not
/// read at all: the reader reports them from their metadata.
fn read_bytes_and_module(path: &Path) -> Result<(Vec<u8>, Module), Vec<Diagnostic>> {
    let source_error = |err: source::SourceError| vec![Diagnostic::from_coded(&err)];
    let len = fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if len > source::MAX_MODULE_BYTES {
        return Err(source_error(
            source::read_module(path).expect_err("oversized modules are refused"),
        ));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    let read = fs::File::open(path).and_then(|file| {
        file.take(source::MAX_MODULE_BYTES + 1)
            .read_to_end(&mut bytes)
    });
    if read.is_err() || bytes.len() as u64 > source::MAX_MODULE_BYTES {
        return Err(match source::read_module(path) {
            Err(err) => source_error(err),
            Ok(_) => vec![
                Diagnostic::error(
                    "SRC-001",
                    "the file changed while it was read",
                    "re-run the import",
                )
                .in_file(path),
            ],
        });
    }
    let module = match std::str::from_utf8(&bytes) {
        Ok(text) => source::parse_module(path, text),
        Err(_) => source::read_module(path),
    }
    .map_err(source_error)?;
    Ok((bytes, module))
}

fn read_schema(path: &Path, file_name: &str) -> Result<ScannedSchema, Vec<Diagnostic>> {
    let stem = file_name.trim_end_matches(".mjs");
    let slug = stem.trim_start_matches('-').to_owned();
    if !is_slug(&slug) {
        return Err(vec![
            Diagnostic::error(
                "IMP-003",
                format!("invalid schema slug `{slug}` (from the file name; expected [A-Za-z][A-Za-z0-9_-]*)"),
                "rename the file, e.g. `prices.mjs`",
            )
            .in_file(path),
        ]);
    }
    let (bytes, module) = read_bytes_and_module(path)?;
    let mut errors = import_errors(&module);
    let main = match module.schema_main() {
        Ok(main) => main.clone(),
        Err(err) => {
            errors.push(Diagnostic::from_coded(&err));
            return Err(errors);
        }
    };
    let mut warnings = Vec::new();
    for diagnostic in gate::check_schema(&main) {
        let diagnostic = diagnostic.in_file(path);
        if diagnostic.is_error() {
            errors.push(diagnostic);
        } else {
            warnings.push(diagnostic);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let hash8 = schema_hash(&main);
    Ok(ScannedSchema {
        path: path.to_path_buf(),
        file_name: file_name.to_owned(),
        slug,
        bytes,
        module,
        main,
        hash8,
        warnings,
    })
}

/// FlowMCP 4.3 schema modules have no imports; each one is a located error.
fn import_errors(module: &Module) -> Vec<Diagnostic> {
    module
        .imports
        .iter()
        .map(|import| {
            Diagnostic::error(
                "IMP-010",
                format!(
                    "{}:{}:{}: {} of `{}`: schema modules must not import anything",
                    module.path.display(),
                    import.span.line,
                    import.span.col,
                    describe(&import.kind),
                    import.source
                ),
                "inline the values into `main`; libraries belong in `requiredLibraries` and handlers",
            )
        })
        .collect()
}

/// Reads a skill module. `stem_is_name`: the file name must equal the skill's `name` (provider
/// skills); selection skills may also be named `<name>--<ts>--<hash8>.mjs`.
pub(crate) fn read_skill(path: &Path, stem_is_name: bool) -> Result<ScannedSkill, Vec<Diagnostic>> {
    let (bytes, module) = read_bytes_and_module(path)?;
    let mut errors = import_errors(&module);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bad = |message: String| {
        Diagnostic::error(
            "IMP-013",
            message,
            "export a static `skill` object whose `name` equals the file name, e.g. `export const skill = { name: 'price-check', … }`",
        )
        .in_file(path)
    };
    let skill = match module.export("skill").map(|e| &e.value) {
        Some(Ok(source::ExportValue::Json(value))) if value.is_object() => value.clone(),
        Some(Ok(_)) => {
            errors.push(bad("`skill` is not an object".into()));
            return Err(errors);
        }
        Some(Err(err)) => {
            errors.push(Diagnostic::from_coded(err));
            return Err(errors);
        }
        None => {
            errors.push(bad("the module exports no `skill`".into()));
            return Err(errors);
        }
    };
    let name = skill.get("name").and_then(Value::as_str).unwrap_or("");
    let stem_ok = name == stem
        || (!stem_is_name && stem.split("--").next().is_some_and(|first| first == name));
    if !is_id(name) || !stem_ok {
        errors.push(
            bad(format!(
                "skill name `{name}` must match [a-z][a-z0-9-]* and equal the file name `{stem}`"
            ))
            .at("/name"),
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ScannedSkill {
        path: path.to_path_buf(),
        name: name.to_owned(),
        bytes,
        hash8: hash8(&skill),
        skill,
    })
}

fn describe(kind: &source::ImportKind) -> &'static str {
    match kind {
        source::ImportKind::Static => "import statement",
        source::ImportKind::Dynamic => "dynamic import()",
        source::ImportKind::Require => "require() call",
        source::ImportKind::ReExport => "re-export",
    }
}
