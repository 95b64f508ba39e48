//! The `handlers` export read statically: which tools have `preRequest`, `executeRequest` or
//! `postRequest`. Handles a plain object literal, an arrow or function factory whose body is (or
//! `return`s) an object literal, and references to top-level or factory-local `const`s.

use super::collect::Binding;
use super::{ToolHandlers, value::js_number_string};
use oxc_ast::ast::{
    ArrowFunctionBody, BindingPattern, Expression, ObjectExpression, ObjectPropertyKind,
    PropertyKey, Statement, VariableDeclarationKind,
};
use oxc_span::{GetSpan, Span as OxcSpan};
use std::collections::HashMap;

/// How many `const` references are followed before giving up (guards `a = b; b = a`).
const MAX_HOPS: u32 = 16;

pub(crate) struct HandlerScan {
    pub(crate) span: OxcSpan,
    pub(crate) tools: Vec<ToolHandlers>,
    pub(crate) complete: bool,
}

struct Reader<'s, 'a> {
    bindings: &'s HashMap<&'a str, Binding<'a>>,
    /// The factory body's top-level statements (for `const tools = {…}; return tools`).
    local: &'a [Statement<'a>],
    complete: bool,
    tools: Vec<ToolHandlers>,
}

/// Reads the handlers from the export's value expression.
pub(crate) fn scan_expression<'a>(
    expr: &'a Expression<'a>,
    bindings: &HashMap<&'a str, Binding<'a>>,
) -> HandlerScan {
    let mut reader = Reader {
        bindings,
        local: &[],
        complete: true,
        tools: Vec::new(),
    };
    let span = reader.factory_or_map(expr, 0);
    HandlerScan {
        span,
        tools: reader.tools,
        complete: reader.complete,
    }
}

/// Reads the handlers from a function declaration's body.
pub(crate) fn scan_function_body<'a>(
    span: OxcSpan,
    body: &'a [Statement<'a>],
    bindings: &HashMap<&'a str, Binding<'a>>,
) -> HandlerScan {
    let mut reader = Reader {
        bindings,
        local: body,
        complete: true,
        tools: Vec::new(),
    };
    reader.block_body(body);
    HandlerScan {
        span,
        tools: reader.tools,
        complete: reader.complete,
    }
}

impl<'a> Reader<'_, 'a> {
    /// The value of the export: a factory or the tool map itself. Returns the span of the
    /// construct that was read.
    fn factory_or_map(&mut self, expr: &'a Expression<'a>, hops: u32) -> OxcSpan {
        match expr.without_parentheses() {
            Expression::ArrowFunctionExpression(func) => {
                match &func.body {
                    ArrowFunctionBody::FunctionBody(body) => {
                        self.local = &body.statements;
                        self.block_body(&body.statements);
                    }
                    other => match other.as_expression() {
                        Some(returned) => self.tool_map(returned, 0),
                        None => self.complete = false,
                    },
                }
                func.span
            }
            Expression::FunctionExpression(func) => {
                match &func.body {
                    Some(body) => {
                        self.local = &body.statements;
                        self.block_body(&body.statements);
                    }
                    None => self.complete = false,
                }
                func.span
            }
            Expression::ObjectExpression(object) => {
                self.object_map(object);
                object.span
            }
            Expression::Identifier(id) if hops < MAX_HOPS => {
                match self.bindings.get(id.name.as_str()).copied() {
                    Some(Binding::Const {
                        init: Some(init), ..
                    }) => self.factory_or_map(init, hops + 1),
                    _ => {
                        self.complete = false;
                        id.span
                    }
                }
            }
            other => {
                self.complete = false;
                other.span()
            }
        }
    }

    /// A block body: the object its last top-level `return` returns.
    fn block_body(&mut self, statements: &'a [Statement<'a>]) {
        let returned = statements
            .iter()
            .rev()
            .find_map(|statement| match statement {
                Statement::ReturnStatement(ret) => Some(ret.argument.as_ref()),
                _ => None,
            });
        match returned {
            Some(Some(expr)) => self.tool_map(expr, 0),
            _ => self.complete = false,
        }
    }

    /// The tool map: an object literal, or a `const` that holds one.
    fn tool_map(&mut self, expr: &'a Expression<'a>, hops: u32) {
        match self.resolve(expr, hops) {
            Some(object) => self.object_map(object),
            None => self.complete = false,
        }
    }

    /// An object literal behind `expr`, following references to factory-local and top-level
    /// `const`s.
    fn resolve(&self, expr: &'a Expression<'a>, hops: u32) -> Option<&'a ObjectExpression<'a>> {
        match expr.without_parentheses() {
            Expression::ObjectExpression(object) => Some(object),
            Expression::Identifier(id) if hops < MAX_HOPS => {
                let name = id.name.as_str();
                let init = local_const(self.local, name).or_else(|| {
                    match self.bindings.get(name).copied() {
                        Some(Binding::Const { init, .. }) => init,
                        _ => None,
                    }
                })?;
                self.resolve(init, hops + 1)
            }
            _ => None,
        }
    }

    fn object_map(&mut self, object: &'a ObjectExpression<'a>) {
        for property in &object.properties {
            match property {
                ObjectPropertyKind::SpreadProperty(spread) => {
                    match self.resolve(&spread.argument, 0) {
                        Some(inner) => self.object_map(inner),
                        None => self.complete = false,
                    }
                }
                ObjectPropertyKind::ObjectProperty(prop) => {
                    let Some(tool) = static_key(&prop.key, prop.computed) else {
                        self.complete = false;
                        continue;
                    };
                    let mut entry = ToolHandlers {
                        tool,
                        pre_request: false,
                        execute_request: false,
                        post_request: false,
                    };
                    if prop.method {
                        self.complete = false;
                    } else {
                        match self.resolve(&prop.value, 0) {
                            Some(phases) => self.phases(phases, &mut entry, 0),
                            None => self.complete = false,
                        }
                    }
                    match self.tools.iter_mut().find(|t| t.tool == entry.tool) {
                        Some(existing) => *existing = entry, // a repeated key takes the last value
                        None => self.tools.push(entry),
                    }
                }
            }
        }
    }

    /// The phases a tool's handler object defines (properties and methods).
    fn phases(&mut self, object: &'a ObjectExpression<'a>, entry: &mut ToolHandlers, hops: u32) {
        for property in &object.properties {
            match property {
                ObjectPropertyKind::SpreadProperty(spread) => {
                    match self.resolve(&spread.argument, hops) {
                        Some(inner) if hops < MAX_HOPS => self.phases(inner, entry, hops + 1),
                        _ => self.complete = false,
                    }
                }
                ObjectPropertyKind::ObjectProperty(prop) => {
                    let Some(key) = static_key(&prop.key, prop.computed) else {
                        self.complete = false;
                        continue;
                    };
                    let value = prop.value.without_parentheses();
                    let present = prop.method
                        || (!matches!(value, Expression::NullLiteral(_))
                            && !value.is_specific_id("undefined"));
                    match key.as_str() {
                        "preRequest" => entry.pre_request = present,
                        "executeRequest" => entry.execute_request = present,
                        "postRequest" => entry.post_request = present,
                        _ => {}
                    }
                }
            }
        }
    }
}

/// A property key known without evaluation.
fn static_key(key: &PropertyKey<'_>, computed: bool) -> Option<String> {
    match key {
        PropertyKey::StaticIdentifier(id) if !computed => Some(id.name.as_str().to_string()),
        PropertyKey::StringLiteral(lit) => Some(lit.value.as_str().to_string()),
        PropertyKey::NumericLiteral(lit) => Some(js_number_string(lit.value)),
        PropertyKey::TemplateLiteral(t) if t.expressions.is_empty() => t
            .quasis
            .first()
            .and_then(|q| q.value.cooked.as_ref())
            .map(|c| c.as_str().to_string()),
        _ => None,
    }
}

/// `const name = <init>` among a body's top-level statements.
fn local_const<'a>(statements: &'a [Statement<'a>], name: &str) -> Option<&'a Expression<'a>> {
    statements.iter().find_map(|statement| match statement {
        Statement::VariableDeclaration(decl) if decl.kind == VariableDeclarationKind::Const => decl
            .declarations
            .iter()
            .find_map(|declarator| match &declarator.id {
                BindingPattern::BindingIdentifier(id) if id.name.as_str() == name => {
                    declarator.init.as_ref()
                }
                _ => None,
            }),
        _ => None,
    })
}
