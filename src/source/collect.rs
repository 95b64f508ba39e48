//! The module's top level: its bindings (`const`/`let`/`var`, functions, classes, imports) and
//! its exported names, in source order.

use oxc_ast::ast::{
    BindingPattern, Declaration, ExportDefaultDeclarationKind, Expression, Function,
    ModuleExportName, Program, Statement, VariableDeclaration, VariableDeclarationKind,
};
use oxc_span::Span as OxcSpan;
use std::collections::HashMap;

/// What a top-level name is bound to.
#[derive(Clone, Copy)]
pub(crate) enum Binding<'a> {
    /// `const x = init`; `start` orders declarations for the temporal dead zone.
    Const {
        init: Option<&'a Expression<'a>>,
        start: u32,
        decl: OxcSpan,
    },
    /// `let`/`var`/`using`, read only by executing code.
    Variable { kind: &'static str, decl: OxcSpan },
    /// A name bound by a destructuring pattern.
    Destructured { kind: &'static str, decl: OxcSpan },
    /// A function declaration (hoisted, opaque).
    Function { func: &'a Function<'a> },
    /// A class declaration (opaque, in the temporal dead zone before its declaration).
    Class { span: OxcSpan, start: u32 },
    /// An imported binding.
    Import { decl: OxcSpan },
}

impl Binding<'_> {
    /// The declaring construct, for an export's span.
    pub(crate) fn decl_span(&self) -> OxcSpan {
        match *self {
            Binding::Const { decl, .. }
            | Binding::Variable { decl, .. }
            | Binding::Destructured { decl, .. }
            | Binding::Import { decl } => decl,
            Binding::Function { func } => func.span,
            Binding::Class { span, .. } => span,
        }
    }

    fn is_var(&self) -> bool {
        matches!(self, Binding::Variable { kind: "var", .. })
    }
}

/// What an exported name stands for.
pub(crate) enum ExportTarget<'a> {
    /// A local binding (`export const x`, `export function f`, `export { a as b }`).
    Local { name: &'a str },
    /// `export default <expression>`; `start` for the temporal dead zone.
    Expression {
        expr: &'a Expression<'a>,
        start: u32,
    },
    /// `export default function …` / `export default class …`.
    Function(OxcSpan),
    /// `export { x } from 'm'`, `export * as ns from 'm'`.
    ReExport { source: &'a str },
}

pub(crate) struct ExportEntry<'a> {
    pub(crate) name: String,
    /// Where the exported value is declared (the declarator, function or class; the specifier
    /// for re-exports and imported bindings).
    pub(crate) span: OxcSpan,
    /// Where the export itself is written, for source order and duplicate errors.
    pub(crate) order: u32,
    pub(crate) target: ExportTarget<'a>,
}

pub(crate) struct TopLevel<'a> {
    pub(crate) bindings: HashMap<&'a str, Binding<'a>>,
    pub(crate) exports: Vec<ExportEntry<'a>>,
}

/// A syntax error the parser leaves to semantic analysis (duplicates, undefined exports).
pub(crate) struct CollectError {
    pub(crate) offset: u32,
    pub(crate) message: String,
}

pub(crate) fn collect<'a>(program: &'a Program<'a>) -> Result<TopLevel<'a>, CollectError> {
    let mut top = TopLevel {
        bindings: HashMap::new(),
        exports: Vec::new(),
    };
    // Local export specifiers are resolved after every declaration is known.
    let mut pending: Vec<(String, &'a str, OxcSpan)> = Vec::new();
    for statement in &program.body {
        match statement {
            Statement::VariableDeclaration(decl) => declare_variables(&mut top, decl, None)?,
            Statement::FunctionDeclaration(func) => {
                if let Some(id) = &func.id {
                    let binding = Binding::Function { func };
                    declare(&mut top, id.name.as_str(), id.span, binding)?;
                }
            }
            Statement::ClassDeclaration(class) => {
                if let Some(id) = &class.id {
                    let binding = Binding::Class {
                        span: class.span,
                        start: class.span.start,
                    };
                    declare(&mut top, id.name.as_str(), id.span, binding)?;
                }
            }
            Statement::ImportDeclaration(import) => {
                for specifier in import.specifiers.iter().flatten() {
                    let local = specifier.local();
                    let binding = Binding::Import { decl: import.span };
                    declare(&mut top, local.name.as_str(), local.span, binding)?;
                }
            }
            Statement::ExportDeclaration(export) => match &export.declaration {
                Declaration::VariableDeclaration(decl) => {
                    let mut names = Vec::new();
                    declare_variables(&mut top, decl, Some(&mut names))?;
                    for (name, span) in names {
                        top.exports.push(ExportEntry {
                            name: name.to_string(),
                            span,
                            order: span.start,
                            target: ExportTarget::Local { name },
                        });
                    }
                }
                Declaration::FunctionDeclaration(func) => {
                    if let Some(id) = &func.id {
                        let name = id.name.as_str();
                        declare(&mut top, name, id.span, Binding::Function { func })?;
                        top.exports.push(ExportEntry {
                            name: name.to_string(),
                            span: func.span,
                            order: func.span.start,
                            target: ExportTarget::Local { name },
                        });
                    }
                }
                Declaration::ClassDeclaration(class) => {
                    if let Some(id) = &class.id {
                        let name = id.name.as_str();
                        let binding = Binding::Class {
                            span: class.span,
                            start: class.span.start,
                        };
                        declare(&mut top, name, id.span, binding)?;
                        top.exports.push(ExportEntry {
                            name: name.to_string(),
                            span: class.span,
                            order: class.span.start,
                            target: ExportTarget::Local { name },
                        });
                    }
                }
                _ => {}
            },
            Statement::ExportNamedDeclaration(export) => {
                for specifier in &export.specifiers {
                    let local = match &specifier.local {
                        ModuleExportName::IdentifierReference(id) => id.name.as_str(),
                        ModuleExportName::IdentifierName(id) => id.name.as_str(),
                        ModuleExportName::StringLiteral(lit) => {
                            return Err(CollectError {
                                offset: lit.span.start,
                                message: format!(
                                    "a string name (`'{}'`) can only be exported from another module",
                                    lit.value.as_str()
                                ),
                            });
                        }
                    };
                    let exported = specifier.exported.name().as_str().to_string();
                    pending.push((exported, local, specifier.span));
                }
            }
            Statement::ExportFromDeclaration(export) => {
                for specifier in &export.specifiers {
                    top.exports.push(ExportEntry {
                        name: specifier.exported.name().as_str().to_string(),
                        span: specifier.span,
                        order: specifier.span.start,
                        target: ExportTarget::ReExport {
                            source: export.source.value.as_str(),
                        },
                    });
                }
            }
            Statement::ExportAllDeclaration(export) => {
                if let Some(exported) = &export.exported {
                    top.exports.push(ExportEntry {
                        name: exported.name().as_str().to_string(),
                        span: export.span,
                        order: export.span.start,
                        target: ExportTarget::ReExport {
                            source: export.source.value.as_str(),
                        },
                    });
                }
            }
            Statement::ExportDefaultDeclaration(export) => {
                let target = match &export.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(func) => {
                        if let Some(id) = &func.id {
                            let binding = Binding::Function { func };
                            declare(&mut top, id.name.as_str(), id.span, binding)?;
                        }
                        ExportTarget::Function(func.span)
                    }
                    ExportDefaultDeclarationKind::ClassDeclaration(class) => {
                        if let Some(id) = &class.id {
                            let binding = Binding::Class {
                                span: class.span,
                                start: class.span.start,
                            };
                            declare(&mut top, id.name.as_str(), id.span, binding)?;
                        }
                        ExportTarget::Function(class.span)
                    }
                    kind => match kind.as_expression() {
                        Some(expr) => ExportTarget::Expression {
                            expr,
                            start: export.span.start,
                        },
                        None => continue, // TypeScript only
                    },
                };
                top.exports.push(ExportEntry {
                    name: "default".to_string(),
                    span: export.span,
                    order: export.span.start,
                    target,
                });
            }
            _ => {}
        }
    }
    for (exported, local, span) in pending {
        let Some(binding) = top.bindings.get(local) else {
            return Err(CollectError {
                offset: span.start,
                message: format!("export `{local}` is not defined in the module"),
            });
        };
        let order = span.start;
        let span = match binding {
            Binding::Import { .. } => span,
            other => other.decl_span(),
        };
        top.exports.push(ExportEntry {
            name: exported,
            span,
            order,
            target: ExportTarget::Local { name: local },
        });
    }
    // Source order, then duplicates.
    top.exports.sort_by_key(|entry| entry.order);
    let mut seen: HashMap<&str, ()> = HashMap::with_capacity(top.exports.len());
    for entry in &top.exports {
        if seen.insert(entry.name.as_str(), ()).is_some() {
            return Err(CollectError {
                offset: entry.order,
                message: format!("duplicate export of `{}`", entry.name),
            });
        }
    }
    Ok(top)
}

fn declare<'a>(
    top: &mut TopLevel<'a>,
    name: &'a str,
    at: OxcSpan,
    binding: Binding<'a>,
) -> Result<(), CollectError> {
    if let Some(existing) = top.bindings.get(name) {
        if existing.is_var() && binding.is_var() {
            return Ok(()); // `var x; var x;` is allowed; both are non-static anyway
        }
        return Err(CollectError {
            offset: at.start,
            message: format!("identifier `{name}` has already been declared"),
        });
    }
    top.bindings.insert(name, binding);
    Ok(())
}

fn declare_variables<'a>(
    top: &mut TopLevel<'a>,
    decl: &'a VariableDeclaration<'a>,
    mut exported: Option<&mut Vec<(&'a str, OxcSpan)>>,
) -> Result<(), CollectError> {
    let kind = match decl.kind {
        VariableDeclarationKind::Const => "const",
        VariableDeclarationKind::Let => "let",
        VariableDeclarationKind::Var => "var",
        VariableDeclarationKind::Using => "using",
        VariableDeclarationKind::AwaitUsing => "await using",
    };
    for declarator in &decl.declarations {
        let decl_span = declarator.span;
        match &declarator.id {
            BindingPattern::BindingIdentifier(id) => {
                let binding = if kind == "const" {
                    Binding::Const {
                        init: declarator.init.as_ref(),
                        start: declarator.span.start,
                        decl: decl_span,
                    }
                } else {
                    Binding::Variable {
                        kind,
                        decl: decl_span,
                    }
                };
                let name = id.name.as_str();
                declare(top, name, id.span, binding)?;
                if let Some(names) = exported.as_deref_mut() {
                    names.push((name, decl_span));
                }
            }
            pattern => {
                let mut names = Vec::new();
                pattern_names(pattern, &mut names);
                for (name, span) in names {
                    let binding = Binding::Destructured {
                        kind,
                        decl: decl_span,
                    };
                    declare(top, name, span, binding)?;
                    if let Some(exported) = exported.as_deref_mut() {
                        exported.push((name, decl_span));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The names a destructuring pattern binds.
fn pattern_names<'a>(pattern: &'a BindingPattern<'a>, out: &mut Vec<(&'a str, OxcSpan)>) {
    match pattern {
        BindingPattern::BindingIdentifier(id) => out.push((id.name.as_str(), id.span)),
        BindingPattern::ObjectPattern(object) => {
            for property in &object.properties {
                pattern_names(&property.value, out);
            }
            if let Some(rest) = &object.rest {
                pattern_names(&rest.argument, out);
            }
        }
        BindingPattern::ArrayPattern(array) => {
            for element in array.elements.iter().flatten() {
                pattern_names(element, out);
            }
            if let Some(rest) = &array.rest {
                pattern_names(&rest.argument, out);
            }
        }
        BindingPattern::AssignmentPattern(assign) => pattern_names(&assign.left, out),
    }
}
