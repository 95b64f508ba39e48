//! Static evaluation of export values: literals, `-`/`+` numbers, expression-free templates,
//! top-level `const` references, object and array literals (shorthand, spreads, computed keys)
//! and `JSON.stringify(…)`. Everything else is a located "non-static construct" error.

use super::collect::Binding;
use super::value::{ConvertError, JsObject, JsVal, js_number_string, stringify};
use oxc_ast::ast::{
    Argument, ArrayExpressionElement, CallExpression, Expression, ObjectExpression,
    ObjectPropertyKind, PropertyKey, PropertyKind, StringLiteral, TemplateLiteral, UnaryOperator,
};
use oxc_span::{GetSpan, Span as OxcSpan};
use std::borrow::Cow;
use std::collections::HashMap;

/// The largest value (in JavaScript values produced) one export may evaluate to; guards against
/// amplification through repeated `const` references and spreads.
pub(crate) const MAX_VALUE_NODES: u32 = 2_000_000;

pub(crate) enum EvalError {
    /// The fast path's depth limit was reached: evaluate again on a large stack.
    Retry,
    /// A non-static construct (or a limit) at `offset`.
    At { offset: u32, construct: String },
}

fn at(span: OxcSpan, construct: impl Into<String>) -> EvalError {
    EvalError::At {
        offset: span.start,
        construct: construct.into(),
    }
}

pub(crate) struct Evaluator<'s, 'a> {
    text: &'a str,
    bindings: &'s HashMap<&'a str, Binding<'a>>,
    /// Top-level `const`s that top-level code modifies (first modification).
    mutated: &'s HashMap<&'a str, OxcSpan>,
    depth_limit: u32,
    /// When the depth limit is reached: `true` reports it, `false` asks for a retry.
    final_limit: bool,
    depth: u32,
    nodes: u32,
    in_progress: Vec<&'a str>,
    /// References must name declarations that start before this offset (temporal dead zone).
    visible_before: u32,
}

/// The nesting limit of evaluation (objects, arrays, references, `JSON.stringify`).
pub(crate) const MAX_EVAL_DEPTH: u32 = 256;

impl<'s, 'a> Evaluator<'s, 'a> {
    pub(crate) fn new(
        text: &'a str,
        bindings: &'s HashMap<&'a str, Binding<'a>>,
        mutated: &'s HashMap<&'a str, OxcSpan>,
        depth_limit: u32,
        final_limit: bool,
    ) -> Self {
        Evaluator {
            text,
            bindings,
            mutated,
            depth_limit,
            final_limit,
            depth: 0,
            nodes: 0,
            in_progress: Vec::new(),
            visible_before: u32::MAX,
        }
    }

    /// The value of a top-level binding as an export sees it (after the module ran).
    pub(crate) fn binding_value(
        &mut self,
        name: &'a str,
        at: OxcSpan,
    ) -> Result<JsVal<'a>, EvalError> {
        self.nodes = 0;
        self.visible_before = u32::MAX;
        self.depth = 0;
        // the export's own binding is not a nesting level
        self.reference_at_level(name, at, false)
    }

    /// The value of `export default <expr>`, evaluated where it stands.
    pub(crate) fn expression_value(
        &mut self,
        expr: &'a Expression<'a>,
        start: u32,
    ) -> Result<JsVal<'a>, EvalError> {
        self.nodes = 0;
        self.visible_before = start;
        self.eval(expr)
    }

    fn enter(&mut self, span: OxcSpan) -> Result<(), EvalError> {
        self.depth += 1;
        if self.depth > self.depth_limit {
            self.depth -= 1;
            return Err(if self.final_limit {
                at(
                    span,
                    format!("nesting deeper than {} levels", self.depth_limit),
                )
            } else {
                EvalError::Retry
            });
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn count(&mut self, span: OxcSpan, n: usize) -> Result<(), EvalError> {
        self.nodes = self.nodes.saturating_add(n.min(u32::MAX as usize) as u32);
        if self.nodes > MAX_VALUE_NODES {
            return Err(at(
                span,
                format!(
                    "value with more than {MAX_VALUE_NODES} elements (amplified by references or spreads)"
                ),
            ));
        }
        Ok(())
    }

    fn eval(&mut self, expr: &'a Expression<'a>) -> Result<JsVal<'a>, EvalError> {
        self.count(expr.span(), 1)?;
        match expr {
            Expression::StringLiteral(lit) => string_literal(lit),
            Expression::NumericLiteral(lit) => Ok(JsVal::Number(lit.value)),
            Expression::BooleanLiteral(lit) => Ok(JsVal::Bool(lit.value)),
            Expression::NullLiteral(_) => Ok(JsVal::Null),
            Expression::TemplateLiteral(template) => template_string(template).map(JsVal::String),
            Expression::Identifier(id) => self.reference(id.name.as_str(), id.span),
            Expression::ArrayExpression(array) => {
                self.enter(array.span)?;
                let result = self.array(&array.elements);
                self.leave();
                result
            }
            Expression::ObjectExpression(object) => {
                self.enter(object.span)?;
                let result = self.object(object);
                self.leave();
                result
            }
            Expression::UnaryExpression(unary) => match unary.operator {
                UnaryOperator::UnaryNegation | UnaryOperator::UnaryPlus => {
                    self.enter(unary.span)?;
                    let value = self.eval(&unary.argument);
                    self.leave();
                    match value? {
                        JsVal::Number(n) if unary.operator == UnaryOperator::UnaryNegation => {
                            Ok(JsVal::Number(-n))
                        }
                        JsVal::Number(n) => Ok(JsVal::Number(n)),
                        _ => Err(at(
                            unary.span,
                            format!(
                                "unary `{}` on a value that is not a number `{}`",
                                unary.operator.as_str(),
                                snippet(self.text, unary.span)
                            ),
                        )),
                    }
                }
                UnaryOperator::Void => {
                    self.enter(unary.span)?;
                    let value = self.eval(&unary.argument);
                    self.leave();
                    value.map(|_| JsVal::Undefined)
                }
                op => Err(at(
                    unary.span,
                    format!(
                        "unary `{}` expression `{}`",
                        op.as_str(),
                        snippet(self.text, unary.span)
                    ),
                )),
            },
            Expression::CallExpression(call) => {
                if self.is_json_stringify(call) {
                    self.enter(call.span)?;
                    let result = self.json_stringify(call);
                    self.leave();
                    result
                } else {
                    Err(self.non_static(expr))
                }
            }
            Expression::ParenthesizedExpression(paren) => self.eval(&paren.expression),
            Expression::ArrowFunctionExpression(func) => Ok(JsVal::Function(func.span)),
            Expression::FunctionExpression(func) => Ok(JsVal::Function(func.span)),
            Expression::ClassExpression(class) => Ok(JsVal::Function(class.span)),
            _ => Err(self.non_static(expr)),
        }
    }

    fn reference(&mut self, name: &'a str, span: OxcSpan) -> Result<JsVal<'a>, EvalError> {
        self.reference_at_level(name, span, true)
    }

    fn reference_at_level(
        &mut self,
        name: &'a str,
        span: OxcSpan,
        nested: bool,
    ) -> Result<JsVal<'a>, EvalError> {
        match self.bindings.get(name).copied() {
            Some(Binding::Const { init, start, .. }) => {
                if self.in_progress.contains(&name) {
                    return Err(at(span, format!("cyclic const reference `{name}`")));
                }
                if start >= self.visible_before {
                    return Err(at(
                        span,
                        format!(
                            "reference to `{name}` before its declaration (temporal dead zone)"
                        ),
                    ));
                }
                if let Some(&site) = self.mutated.get(name) {
                    return Err(at(
                        site,
                        format!(
                            "modification of const `{name}` by top-level code `{}`",
                            snippet(self.text, site)
                        ),
                    ));
                }
                let Some(init) = init else {
                    return Ok(JsVal::Undefined);
                };
                if nested {
                    self.enter(span)?;
                }
                self.in_progress.push(name);
                let outer = std::mem::replace(&mut self.visible_before, start);
                let value = self.eval(init);
                self.visible_before = outer;
                self.in_progress.pop();
                if nested {
                    self.leave();
                }
                value
            }
            Some(Binding::Variable { kind, .. }) => {
                Err(at(span, format!("reference to `{kind}` binding `{name}`")))
            }
            Some(Binding::Destructured { kind, .. }) => Err(at(
                span,
                format!("reference to destructured `{kind}` binding `{name}`"),
            )),
            Some(Binding::Import { .. }) => {
                Err(at(span, format!("reference to imported binding `{name}`")))
            }
            Some(Binding::Function { func }) => Ok(JsVal::Function(func.span)),
            Some(Binding::Class { span: class, start }) => {
                if start >= self.visible_before {
                    return Err(at(
                        span,
                        format!(
                            "reference to class `{name}` before its declaration (temporal dead zone)"
                        ),
                    ));
                }
                Ok(JsVal::Function(class))
            }
            None => match name {
                "undefined" => Ok(JsVal::Undefined),
                "NaN" => Ok(JsVal::Number(f64::NAN)),
                "Infinity" => Ok(JsVal::Number(f64::INFINITY)),
                _ => Err(at(
                    span,
                    format!("reference to unknown identifier `{name}`"),
                )),
            },
        }
    }

    fn array(
        &mut self,
        elements: &'a [ArrayExpressionElement<'a>],
    ) -> Result<JsVal<'a>, EvalError> {
        let mut items = Vec::with_capacity(elements.len());
        for element in elements {
            match element {
                ArrayExpressionElement::SpreadElement(spread) => {
                    match self.eval(&spread.argument)? {
                        JsVal::Array(inner) => {
                            self.count(spread.span, inner.len())?;
                            items.extend(inner);
                        }
                        JsVal::String(s) => {
                            self.count(spread.span, s.len())?;
                            items.extend(
                                s.chars().map(|c| JsVal::String(Cow::Owned(c.to_string()))),
                            );
                        }
                        _ => {
                            return Err(at(
                                spread.span,
                                format!(
                                    "spread of a value that is not an array or string `{}`",
                                    snippet(self.text, spread.span)
                                ),
                            ));
                        }
                    }
                }
                ArrayExpressionElement::Elision(_) => items.push(JsVal::Undefined),
                other => {
                    let expr = other
                        .as_expression()
                        .expect("the other variants are expressions");
                    items.push(self.eval(expr)?);
                }
            }
        }
        Ok(JsVal::Array(items))
    }

    fn object(&mut self, object: &'a ObjectExpression<'a>) -> Result<JsVal<'a>, EvalError> {
        let mut out = JsObject::new();
        for property in &object.properties {
            match property {
                ObjectPropertyKind::SpreadProperty(spread) => {
                    let value = self.eval(&spread.argument)?;
                    self.spread_into_object(&mut out, value, spread.span)?;
                }
                ObjectPropertyKind::ObjectProperty(prop) => {
                    if !prop.computed
                        && !prop.shorthand
                        && !prop.method
                        && prop.kind == PropertyKind::Init
                        && is_proto_key(&prop.key)
                    {
                        // `__proto__: value` sets the prototype; it is not an own property.
                        self.eval(&prop.value)?;
                        continue;
                    }
                    if prop.kind == PropertyKind::Get {
                        // JSON.stringify would call the getter: that is running code.
                        return Err(at(prop.span, "getter (JSON.stringify would run it)"));
                    }
                    let key = self.property_key(&prop.key, prop.computed)?;
                    let value = if prop.kind == PropertyKind::Init && !prop.method {
                        self.eval(&prop.value)?
                    } else {
                        // methods and setters are opaque (a setter-only property prints nothing)
                        JsVal::Function(prop.value.span())
                    };
                    out.set(key, value);
                }
            }
        }
        Ok(JsVal::Object(out))
    }

    fn spread_into_object(
        &mut self,
        out: &mut JsObject<'a>,
        value: JsVal<'a>,
        span: OxcSpan,
    ) -> Result<(), EvalError> {
        match value {
            JsVal::Object(source) => {
                self.count(span, source.len())?;
                for (key, value) in source.into_entries() {
                    out.set(key, value);
                }
            }
            JsVal::Array(items) => {
                self.count(span, items.len())?;
                for (i, item) in items.into_iter().enumerate() {
                    out.set(Cow::Owned(i.to_string()), item);
                }
            }
            JsVal::String(s) => {
                if s.chars().any(|c| c as u32 > 0xFFFF) {
                    return Err(at(
                        span,
                        "object spread of a string with characters outside the BMP",
                    ));
                }
                self.count(span, s.len())?;
                for (i, c) in s.chars().enumerate() {
                    out.set(
                        Cow::Owned(i.to_string()),
                        JsVal::String(Cow::Owned(c.to_string())),
                    );
                }
            }
            // null, undefined, booleans, numbers and functions have no own enumerable properties
            _ => {}
        }
        Ok(())
    }

    fn property_key(
        &mut self,
        key: &'a PropertyKey<'a>,
        computed: bool,
    ) -> Result<Cow<'a, str>, EvalError> {
        if let PropertyKey::StaticIdentifier(id) = key {
            return Ok(Cow::Borrowed(id.name.as_str()));
        }
        let Some(expr) = key.as_expression() else {
            return Err(at(key.span(), "private name as an object key"));
        };
        if !computed {
            return match expr {
                Expression::StringLiteral(lit) => match string_literal(lit)? {
                    JsVal::String(s) => Ok(s),
                    _ => unreachable!("string_literal returns a string"),
                },
                Expression::NumericLiteral(lit) => Ok(Cow::Owned(js_number_string(lit.value))),
                Expression::BigIntLiteral(lit) => Ok(Cow::Borrowed(lit.value.as_str())),
                other => Err(self.non_static(other)),
            };
        }
        match self.eval(expr)? {
            JsVal::String(s) => Ok(s),
            JsVal::Number(n) => Ok(Cow::Owned(js_number_string(n))),
            JsVal::Bool(b) => Ok(Cow::Borrowed(if b { "true" } else { "false" })),
            JsVal::Null => Ok(Cow::Borrowed("null")),
            JsVal::Undefined => Ok(Cow::Borrowed("undefined")),
            _ => Err(at(
                expr.span(),
                format!(
                    "computed key that is not a string or number `[{}]`",
                    snippet(self.text, expr.span())
                ),
            )),
        }
    }

    fn is_json_stringify(&self, call: &CallExpression<'a>) -> bool {
        if call.optional || self.bindings.contains_key("JSON") {
            return false;
        }
        matches!(&call.callee, Expression::StaticMemberExpression(member)
            if !member.optional
                && member.property.name.as_str() == "stringify"
                && matches!(&member.object, Expression::Identifier(id) if id.name.as_str() == "JSON"))
    }

    fn json_stringify(&mut self, call: &'a CallExpression<'a>) -> Result<JsVal<'a>, EvalError> {
        let mut args = Vec::with_capacity(call.arguments.len());
        for argument in &call.arguments {
            match argument {
                Argument::SpreadElement(spread) => {
                    return Err(at(spread.span, "spread arguments to `JSON.stringify`"));
                }
                other => args.push(
                    other
                        .as_expression()
                        .expect("non-spread arguments are expressions"),
                ),
            }
        }
        let Some(&subject) = args.first() else {
            return Ok(JsVal::Undefined);
        };
        let value = self.eval(subject)?;
        if let Some(&replacer) = args.get(1) {
            let replacer_value = self.eval(replacer)?;
            if !matches!(replacer_value, JsVal::Null | JsVal::Undefined) {
                return Err(at(
                    replacer.span(),
                    format!(
                        "`JSON.stringify` with a replacer `{}`",
                        snippet(self.text, replacer.span())
                    ),
                ));
            }
        }
        let gap = match args.get(2) {
            Some(&space) => match self.eval(space)? {
                JsVal::Number(n) => " ".repeat(n.clamp(0.0, 10.0) as usize),
                JsVal::String(s) => s.chars().take(10).collect(),
                _ => String::new(),
            },
            None => String::new(),
        };
        for extra in args.iter().skip(3) {
            self.eval(extra)?;
        }
        match stringify(&value, &gap) {
            Ok(Some(text)) => Ok(JsVal::String(Cow::Owned(text))),
            Ok(None) => Ok(JsVal::Undefined),
            Err(ConvertError::ToJson(span)) => Err(at(span, "object with a `toJSON` method")),
        }
    }

    /// The error for an expression that needs execution, naming the construct.
    fn non_static(&self, expr: &Expression<'a>) -> EvalError {
        let span = expr.span();
        let text = snippet(self.text, span);
        let construct = match expr {
            Expression::CallExpression(_) => format!("call expression `{text}`"),
            Expression::NewExpression(_) => format!("`new` expression `{text}`"),
            Expression::BinaryExpression(_) => format!("binary expression `{text}`"),
            Expression::LogicalExpression(_) => format!("logical expression `{text}`"),
            Expression::ConditionalExpression(_) => format!("conditional expression `{text}`"),
            Expression::TemplateLiteral(_) => format!("template literal with expressions `{text}`"),
            Expression::TaggedTemplateExpression(_) => format!("tagged template `{text}`"),
            Expression::BigIntLiteral(_) => format!("BigInt literal `{text}`"),
            Expression::RegExpLiteral(_) => format!("regular expression `{text}`"),
            Expression::ThisExpression(_) => "`this`".to_string(),
            Expression::Super(_) => "`super`".to_string(),
            Expression::AwaitExpression(_) => format!("`await` expression `{text}`"),
            Expression::YieldExpression(_) => format!("`yield` expression `{text}`"),
            Expression::AssignmentExpression(_) => format!("assignment `{text}`"),
            Expression::SequenceExpression(_) => format!("sequence expression `{text}`"),
            Expression::UpdateExpression(_) => format!("update expression `{text}`"),
            Expression::ChainExpression(_) => format!("optional chain `{text}`"),
            Expression::ImportExpression(_) => format!("dynamic import `{text}`"),
            Expression::ImportMeta(_) => "`import.meta`".to_string(),
            Expression::NewTarget(_) => "`new.target`".to_string(),
            Expression::PrivateInExpression(_) => format!("private `in` check `{text}`"),
            Expression::StaticMemberExpression(_)
            | Expression::ComputedMemberExpression(_)
            | Expression::PrivateFieldExpression(_) => format!("member access `{text}`"),
            Expression::StringLiteral(_) | Expression::Identifier(_) => format!("`{text}`"),
            Expression::JSXElement(_) | Expression::JSXFragment(_) => format!("JSX `{text}`"),
            _ => format!("expression `{text}`"),
        };
        at(span, construct)
    }
}

fn is_proto_key(key: &PropertyKey<'_>) -> bool {
    match key {
        PropertyKey::StaticIdentifier(id) => id.name.as_str() == "__proto__",
        PropertyKey::StringLiteral(lit) => lit.value.as_str() == "__proto__",
        _ => false,
    }
}

fn string_literal<'a>(lit: &StringLiteral<'a>) -> Result<JsVal<'a>, EvalError> {
    if lit.lone_surrogates {
        return Err(at(
            lit.span,
            "string with a lone surrogate (not representable as UTF-8)",
        ));
    }
    Ok(JsVal::String(Cow::Borrowed(lit.value.as_str())))
}

/// The cooked value of a template without expressions.
fn template_string<'a>(template: &TemplateLiteral<'a>) -> Result<Cow<'a, str>, EvalError> {
    if !template.expressions.is_empty() {
        return Err(at(template.span, "template literal with expressions"));
    }
    let Some(quasi) = template.quasis.first() else {
        return Ok(Cow::Borrowed(""));
    };
    if quasi.lone_surrogates {
        return Err(at(
            template.span,
            "template with a lone surrogate (not representable as UTF-8)",
        ));
    }
    match &quasi.value.cooked {
        Some(cooked) => Ok(Cow::Borrowed(cooked.as_str())),
        None => Err(at(
            template.span,
            "template with an invalid escape sequence",
        )),
    }
}

/// A short, one-line excerpt of the source for messages.
pub(crate) fn snippet(text: &str, span: OxcSpan) -> String {
    const MAX_CHARS: usize = 40;
    let start = (span.start as usize).min(text.len());
    let end = (span.end as usize).clamp(start, text.len());
    let raw = text.get(start..end).unwrap_or("");
    let mut out = String::new();
    let mut chars = 0;
    let mut space = false;
    for c in raw.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        let needed = 1 + usize::from(space && !out.is_empty());
        if chars + needed > MAX_CHARS {
            out.push('…');
            return out;
        }
        if needed == 2 {
            out.push(' ');
        }
        space = false;
        out.push(c);
        chars += needed;
    }
    out
}
