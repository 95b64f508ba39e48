//! One pass over the whole module for the static scans: every import (static, re-export,
//! dynamic `import()`, `require()`), every `fetch(…)` call, and modifications of top-level
//! bindings by code that runs when the module loads.
//!
//! Left-leaning chains (`a + b + c`, `a.b.c`, `f()()`, `a ? b : c ? d : e`) are walked in a loop,
//! so the recursion depth follows the source's real nesting, which the pre-scan bounds.

use super::ImportKind;
use oxc_ast::ast::{
    Argument, ArrayExpressionElement, ArrowFunctionBody, AssignmentTarget,
    AssignmentTargetMaybeDefault, AssignmentTargetPattern, AssignmentTargetProperty,
    BindingPattern, CallExpression, ChainElement, Class, ClassElement, Declaration,
    ExportDefaultDeclarationKind, Expression, ForStatementInit, ForStatementLeft, FormalParameters,
    Function, FunctionBody, MemberExpression, ObjectPropertyKind, Program, PropertyKey,
    SimpleAssignmentTarget, Statement, UnaryOperator, VariableDeclaration,
};
use oxc_span::{GetSpan, Span as OxcSpan};

pub(crate) struct Found<'a> {
    pub(crate) imports: Vec<(OxcSpan, ImportKind, String)>,
    pub(crate) fetch_calls: Vec<OxcSpan>,
    /// Names whose value top-level code modifies (`x.a = …`, `x.push(…)`, `Object.assign(x, …)`),
    /// with the modifying expression.
    pub(crate) mutations: Vec<(&'a str, OxcSpan)>,
    /// Where the walk went deeper than its limit.
    pub(crate) too_deep: Option<u32>,
}

pub(crate) struct Walker<'a> {
    text: &'a str,
    found: Found<'a>,
    /// 0 while walking code that runs when the module loads.
    fn_depth: u32,
    depth: u32,
    limit: u32,
}

const MUTATING_METHODS: [&str; 9] = [
    "push",
    "pop",
    "shift",
    "unshift",
    "splice",
    "sort",
    "reverse",
    "fill",
    "copyWithin",
];

const GLOBAL_OBJECTS: [&str; 4] = ["globalThis", "window", "self", "global"];

pub(crate) fn walk<'a>(program: &'a Program<'a>, text: &'a str, limit: u32) -> Found<'a> {
    let mut walker = Walker {
        text,
        found: Found {
            imports: Vec::new(),
            fetch_calls: Vec::new(),
            mutations: Vec::new(),
            too_deep: None,
        },
        fn_depth: 0,
        depth: 0,
        limit,
    };
    for statement in &program.body {
        walker.statement(statement);
    }
    let mut found = walker.found;
    found.imports.sort_by_key(|(span, _, _)| span.start);
    found.fetch_calls.sort_by_key(|span| span.start);
    found
}

impl<'a> Walker<'a> {
    fn enter(&mut self, span: OxcSpan) -> bool {
        if self.found.too_deep.is_some() {
            return false;
        }
        self.depth += 1;
        if self.depth > self.limit {
            self.depth -= 1;
            self.found.too_deep = Some(span.start);
            return false;
        }
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn statements(&mut self, statements: &'a [Statement<'a>]) {
        for statement in statements {
            self.statement(statement);
        }
    }

    fn statement(&mut self, statement: &'a Statement<'a>) {
        if !self.enter(statement.span()) {
            return;
        }
        match statement {
            Statement::BlockStatement(block) => self.statements(&block.body),
            Statement::DoWhileStatement(s) => {
                self.statement(&s.body);
                self.expression(&s.test);
            }
            Statement::ExpressionStatement(s) => self.expression(&s.expression),
            Statement::ForInStatement(s) => {
                self.for_left(&s.left);
                self.expression(&s.right);
                self.statement(&s.body);
            }
            Statement::ForOfStatement(s) => {
                self.for_left(&s.left);
                self.expression(&s.right);
                self.statement(&s.body);
            }
            Statement::ForStatement(s) => {
                match &s.init {
                    Some(ForStatementInit::VariableDeclaration(decl)) => self.variables(decl),
                    Some(init) => {
                        if let Some(expr) = init.as_expression() {
                            self.expression(expr);
                        }
                    }
                    None => {}
                }
                if let Some(test) = &s.test {
                    self.expression(test);
                }
                if let Some(update) = &s.update {
                    self.expression(update);
                }
                self.statement(&s.body);
            }
            Statement::IfStatement(s) => {
                self.expression(&s.test);
                self.statement(&s.consequent);
                if let Some(alternate) = &s.alternate {
                    self.statement(alternate);
                }
            }
            Statement::LabeledStatement(s) => self.statement(&s.body),
            Statement::ReturnStatement(s) => {
                if let Some(argument) = &s.argument {
                    self.expression(argument);
                }
            }
            Statement::SwitchStatement(s) => {
                self.expression(&s.discriminant);
                for case in &s.cases {
                    if let Some(test) = &case.test {
                        self.expression(test);
                    }
                    self.statements(&case.consequent);
                }
            }
            Statement::ThrowStatement(s) => self.expression(&s.argument),
            Statement::TryStatement(s) => {
                self.statements(&s.block.body);
                if let Some(handler) = &s.handler {
                    if let Some(param) = &handler.param {
                        self.binding_pattern(&param.pattern);
                    }
                    self.statements(&handler.body.body);
                }
                if let Some(finalizer) = &s.finalizer {
                    self.statements(&finalizer.body);
                }
            }
            Statement::WhileStatement(s) => {
                self.expression(&s.test);
                self.statement(&s.body);
            }
            Statement::WithStatement(s) => {
                self.expression(&s.object);
                self.statement(&s.body);
            }
            Statement::VariableDeclaration(decl) => self.variables(decl),
            Statement::FunctionDeclaration(func) => self.function(func),
            Statement::ClassDeclaration(class) => self.class(class),
            Statement::ImportDeclaration(import) => {
                let source = import.source.value.as_str().to_string();
                self.found
                    .imports
                    .push((import.span, ImportKind::Static, source));
            }
            Statement::ExportAllDeclaration(export) => {
                let source = export.source.value.as_str().to_string();
                self.found
                    .imports
                    .push((export.span, ImportKind::ReExport, source));
            }
            Statement::ExportFromDeclaration(export) => {
                let source = export.source.value.as_str().to_string();
                self.found
                    .imports
                    .push((export.span, ImportKind::ReExport, source));
            }
            Statement::ExportDeclaration(export) => match &export.declaration {
                Declaration::VariableDeclaration(decl) => self.variables(decl),
                Declaration::FunctionDeclaration(func) => self.function(func),
                Declaration::ClassDeclaration(class) => self.class(class),
                _ => {}
            },
            Statement::ExportDefaultDeclaration(export) => match &export.declaration {
                ExportDefaultDeclarationKind::FunctionDeclaration(func) => self.function(func),
                ExportDefaultDeclarationKind::ClassDeclaration(class) => self.class(class),
                kind => {
                    if let Some(expr) = kind.as_expression() {
                        self.expression(expr);
                    }
                }
            },
            _ => {}
        }
        self.leave();
    }

    fn variables(&mut self, decl: &'a VariableDeclaration<'a>) {
        for declarator in &decl.declarations {
            self.binding_pattern(&declarator.id);
            if let Some(init) = &declarator.init {
                self.expression(init);
            }
        }
    }

    fn for_left(&mut self, left: &'a ForStatementLeft<'a>) {
        match left {
            ForStatementLeft::VariableDeclaration(decl) => self.variables(decl),
            other => {
                if let Some(target) = other.as_assignment_target() {
                    self.assignment_target(target, target.span());
                }
            }
        }
    }

    fn binding_pattern(&mut self, pattern: &'a BindingPattern<'a>) {
        if !self.enter(pattern.span()) {
            return;
        }
        match pattern {
            BindingPattern::BindingIdentifier(_) => {}
            BindingPattern::ObjectPattern(object) => {
                for property in &object.properties {
                    if property.computed {
                        self.property_key(&property.key);
                    }
                    self.binding_pattern(&property.value);
                }
                if let Some(rest) = &object.rest {
                    self.binding_pattern(&rest.argument);
                }
            }
            BindingPattern::ArrayPattern(array) => {
                for element in array.elements.iter().flatten() {
                    self.binding_pattern(element);
                }
                if let Some(rest) = &array.rest {
                    self.binding_pattern(&rest.argument);
                }
            }
            BindingPattern::AssignmentPattern(assign) => {
                self.binding_pattern(&assign.left);
                self.expression(&assign.right);
            }
        }
        self.leave();
    }

    fn params(&mut self, params: &'a FormalParameters<'a>) {
        for param in &params.items {
            for decorator in &param.decorators {
                self.expression(&decorator.expression);
            }
            self.binding_pattern(&param.pattern);
            if let Some(init) = &param.initializer {
                self.expression(init);
            }
        }
        if let Some(rest) = &params.rest {
            self.binding_pattern(&rest.rest.argument);
        }
    }

    fn function_body(&mut self, body: &'a FunctionBody<'a>) {
        self.statements(&body.statements);
    }

    /// A function's parameters and body run when it is called, not when the module loads.
    fn function(&mut self, func: &'a Function<'a>) {
        self.fn_depth += 1;
        self.params(&func.params);
        if let Some(body) = &func.body {
            self.function_body(body);
        }
        self.fn_depth -= 1;
    }

    fn class(&mut self, class: &'a Class<'a>) {
        if !self.enter(class.span) {
            return;
        }
        for decorator in &class.decorators {
            self.expression(&decorator.expression);
        }
        if let Some(heritage) = &class.heritage {
            self.expression(&heritage.expression);
        }
        for element in &class.body.body {
            match element {
                ClassElement::StaticBlock(block) => self.statements(&block.body),
                ClassElement::MethodDefinition(method) => {
                    if method.computed {
                        self.property_key(&method.key);
                    }
                    self.function(&method.value);
                }
                ClassElement::PropertyDefinition(prop) => {
                    if prop.computed {
                        self.property_key(&prop.key);
                    }
                    if let Some(value) = &prop.value {
                        self.fn_depth += u32::from(!prop.r#static);
                        self.expression(value);
                        self.fn_depth -= u32::from(!prop.r#static);
                    }
                }
                ClassElement::AccessorProperty(prop) => {
                    if prop.computed {
                        self.property_key(&prop.key);
                    }
                    if let Some(value) = &prop.value {
                        self.expression(value);
                    }
                }
                ClassElement::TSIndexSignature(_) => {}
            }
        }
        self.leave();
    }

    fn property_key(&mut self, key: &'a PropertyKey<'a>) {
        if let Some(expr) = key.as_expression() {
            self.expression(expr);
        }
    }

    fn arguments(&mut self, arguments: &'a [Argument<'a>]) {
        for argument in arguments {
            match argument {
                Argument::SpreadElement(spread) => self.expression(&spread.argument),
                other => {
                    if let Some(expr) = other.as_expression() {
                        self.expression(expr);
                    }
                }
            }
        }
    }

    /// Walks an assignment target; `site` is the whole assignment, for modification reports.
    fn assignment_target(&mut self, target: &'a AssignmentTarget<'a>, site: OxcSpan) {
        if let Some(member) = target.as_member_expression() {
            self.note_mutation_of(member.object(), site);
            self.member(member);
            return;
        }
        if let Some(pattern) = target.as_assignment_target_pattern() {
            if !self.enter(pattern.span()) {
                return;
            }
            match pattern {
                AssignmentTargetPattern::ArrayAssignmentTarget(array) => {
                    for element in array.elements.iter().flatten() {
                        self.assignment_target_maybe_default(element, site);
                    }
                    if let Some(rest) = &array.rest {
                        self.assignment_target(&rest.target, site);
                    }
                }
                AssignmentTargetPattern::ObjectAssignmentTarget(object) => {
                    for property in &object.properties {
                        match property {
                            AssignmentTargetProperty::AssignmentTargetPropertyIdentifier(p) => {
                                if let Some(init) = &p.init {
                                    self.expression(init);
                                }
                            }
                            AssignmentTargetProperty::AssignmentTargetPropertyProperty(p) => {
                                if p.computed {
                                    self.property_key(&p.name);
                                }
                                self.assignment_target_maybe_default(&p.binding, site);
                            }
                        }
                    }
                    if let Some(rest) = &object.rest {
                        self.assignment_target(&rest.target, site);
                    }
                }
            }
            self.leave();
            return;
        }
        if let Some(simple) = target.as_simple_assignment_target() {
            self.simple_target(simple, site);
        }
    }

    fn assignment_target_maybe_default(
        &mut self,
        target: &'a AssignmentTargetMaybeDefault<'a>,
        site: OxcSpan,
    ) {
        match target {
            AssignmentTargetMaybeDefault::AssignmentTargetWithDefault(with_default) => {
                self.assignment_target(&with_default.binding, site);
                self.expression(&with_default.init);
            }
            other => {
                if let Some(target) = other.as_assignment_target() {
                    self.assignment_target(target, site);
                }
            }
        }
    }

    fn simple_target(&mut self, target: &'a SimpleAssignmentTarget<'a>, site: OxcSpan) {
        match target {
            SimpleAssignmentTarget::AssignmentTargetIdentifier(_) => {}
            SimpleAssignmentTarget::TSAsExpression(e) => self.expression(&e.expression),
            SimpleAssignmentTarget::TSSatisfiesExpression(e) => self.expression(&e.expression),
            SimpleAssignmentTarget::TSNonNullExpression(e) => self.expression(&e.expression),
            SimpleAssignmentTarget::TSTypeAssertion(e) => self.expression(&e.expression),
            other => {
                if let Some(member) = other.as_member_expression() {
                    self.note_mutation_of(member.object(), site);
                    self.member(member);
                }
            }
        }
    }

    /// Records a modification of the binding at the root of `object` (`x` in `x.a.b = …`) when
    /// the code runs at load time.
    fn note_mutation_of(&mut self, object: &'a Expression<'a>, site: OxcSpan) {
        if self.fn_depth > 0 {
            return;
        }
        let mut root = object;
        loop {
            match root {
                Expression::Identifier(id) => {
                    self.found.mutations.push((id.name.as_str(), site));
                    return;
                }
                Expression::StaticMemberExpression(m) => root = &m.object,
                Expression::ComputedMemberExpression(m) => root = &m.object,
                Expression::PrivateFieldExpression(m) => root = &m.object,
                Expression::ParenthesizedExpression(p) => root = &p.expression,
                Expression::ChainExpression(chain) => match chain.expression.as_member_expression()
                {
                    Some(member) => root = member.object(),
                    None => return,
                },
                _ => return,
            }
        }
    }

    fn member(&mut self, member: &'a MemberExpression<'a>) {
        match member {
            MemberExpression::ComputedMemberExpression(m) => {
                self.expression(&m.object);
                self.expression(&m.expression);
            }
            MemberExpression::StaticMemberExpression(m) => self.expression(&m.object),
            MemberExpression::PrivateFieldExpression(m) => self.expression(&m.object),
        }
    }

    fn call(&mut self, call: &'a CallExpression<'a>) {
        self.inspect_call(call);
        match &call.callee {
            // An immediately invoked function runs at load time.
            Expression::ArrowFunctionExpression(func) => {
                self.params(&func.params);
                self.arrow_body(&func.body);
            }
            Expression::FunctionExpression(func) => {
                self.params(&func.params);
                if let Some(body) = &func.body {
                    self.function_body(body);
                }
            }
            callee => self.expression(callee),
        }
        self.arguments(&call.arguments);
    }

    fn arrow_body(&mut self, body: &'a ArrowFunctionBody<'a>) {
        match body {
            ArrowFunctionBody::FunctionBody(body) => self.function_body(body),
            other => {
                if let Some(expr) = other.as_expression() {
                    self.expression(expr);
                }
            }
        }
    }

    /// `fetch(…)`, `globalThis.fetch(…)`, `require(…)`, and load-time modifications through
    /// `x.push(…)` or `Object.assign(x, …)`.
    fn inspect_call(&mut self, call: &'a CallExpression<'a>) {
        match &call.callee {
            Expression::Identifier(id) => match id.name.as_str() {
                "fetch" => self.found.fetch_calls.push(call.span),
                "require" => {
                    let source = self.module_specifier(call.arguments.first());
                    self.found
                        .imports
                        .push((call.span, ImportKind::Require, source));
                }
                _ => {}
            },
            Expression::StaticMemberExpression(member) => {
                let property = member.property.name.as_str();
                if property == "fetch" && is_global_object(&member.object) {
                    self.found.fetch_calls.push(call.span);
                } else if MUTATING_METHODS.contains(&property) {
                    self.note_mutation_of(&member.object, call.span);
                } else if (is_identifier(&member.object, "Object")
                    && matches!(
                        property,
                        "assign" | "defineProperty" | "defineProperties" | "setPrototypeOf"
                    )
                    || is_identifier(&member.object, "Reflect")
                        && matches!(property, "set" | "defineProperty" | "deleteProperty"))
                    && let Some(expr) = call.arguments.first().and_then(Argument::as_expression)
                {
                    self.note_mutation_of(expr, call.span);
                }
            }
            Expression::ComputedMemberExpression(member)
                if is_global_object(&member.object)
                    && matches!(&member.expression, Expression::StringLiteral(s) if s.value.as_str() == "fetch") =>
            {
                self.found.fetch_calls.push(call.span);
            }
            _ => {}
        }
    }

    fn module_specifier(&self, argument: Option<&'a Argument<'a>>) -> String {
        match argument.and_then(Argument::as_expression) {
            Some(Expression::StringLiteral(lit)) => lit.value.as_str().to_string(),
            Some(Expression::TemplateLiteral(t)) if t.expressions.is_empty() => t
                .quasis
                .first()
                .and_then(|q| q.value.cooked.as_ref())
                .map(|c| c.as_str().to_string())
                .unwrap_or_default(),
            Some(expr) => super::eval::snippet(self.text, expr.span()),
            None => String::new(),
        }
    }

    fn expression(&mut self, expr: &'a Expression<'a>) {
        if !self.enter(expr.span()) {
            return;
        }
        let mut expr = expr;
        loop {
            match expr {
                Expression::BinaryExpression(e) => {
                    self.expression(&e.right);
                    expr = &e.left;
                }
                Expression::LogicalExpression(e) => {
                    self.expression(&e.right);
                    expr = &e.left;
                }
                Expression::ConditionalExpression(e) => {
                    self.expression(&e.test);
                    self.expression(&e.consequent);
                    expr = &e.alternate;
                }
                Expression::StaticMemberExpression(m) => expr = &m.object,
                Expression::ComputedMemberExpression(m) => {
                    self.expression(&m.expression);
                    expr = &m.object;
                }
                Expression::PrivateFieldExpression(m) => expr = &m.object,
                Expression::CallExpression(call) => {
                    self.inspect_call(call);
                    self.arguments(&call.arguments);
                    match &call.callee {
                        Expression::ArrowFunctionExpression(_)
                        | Expression::FunctionExpression(_) => {
                            self.call_immediate(&call.callee);
                            break;
                        }
                        callee => expr = callee,
                    }
                }
                Expression::ParenthesizedExpression(p) => expr = &p.expression,
                Expression::SequenceExpression(s) => {
                    if let Some((last, rest)) = s.expressions.split_last() {
                        for e in rest {
                            self.expression(e);
                        }
                        expr = last;
                    } else {
                        break;
                    }
                }
                _ => {
                    self.leaf_expression(expr);
                    break;
                }
            }
        }
        self.leave();
    }

    /// The callee of an immediately invoked function: its body runs at load time.
    fn call_immediate(&mut self, callee: &'a Expression<'a>) {
        match callee {
            Expression::ArrowFunctionExpression(func) => {
                self.params(&func.params);
                self.arrow_body(&func.body);
            }
            Expression::FunctionExpression(func) => {
                self.params(&func.params);
                if let Some(body) = &func.body {
                    self.function_body(body);
                }
            }
            other => self.expression(other),
        }
    }

    fn leaf_expression(&mut self, expr: &'a Expression<'a>) {
        match expr {
            Expression::TemplateLiteral(t) => {
                for e in &t.expressions {
                    self.expression(e);
                }
            }
            Expression::ArrayExpression(array) => {
                for element in &array.elements {
                    match element {
                        ArrayExpressionElement::SpreadElement(spread) => {
                            self.expression(&spread.argument);
                        }
                        ArrayExpressionElement::Elision(_) => {}
                        other => {
                            if let Some(e) = other.as_expression() {
                                self.expression(e);
                            }
                        }
                    }
                }
            }
            Expression::ObjectExpression(object) => {
                for property in &object.properties {
                    match property {
                        ObjectPropertyKind::ObjectProperty(p) => {
                            if p.computed {
                                self.property_key(&p.key);
                            }
                            self.expression(&p.value);
                        }
                        ObjectPropertyKind::SpreadProperty(spread) => {
                            self.expression(&spread.argument);
                        }
                    }
                }
            }
            Expression::ArrowFunctionExpression(func) => {
                self.fn_depth += 1;
                self.params(&func.params);
                self.arrow_body(&func.body);
                self.fn_depth -= 1;
            }
            Expression::FunctionExpression(func) => self.function(func),
            Expression::ClassExpression(class) => self.class(class),
            Expression::AssignmentExpression(e) => {
                self.assignment_target(&e.left, e.span);
                self.expression(&e.right);
            }
            Expression::AwaitExpression(e) => self.expression(&e.argument),
            Expression::ChainExpression(chain) => match &chain.expression {
                ChainElement::CallExpression(call) => self.call(call),
                ChainElement::TSNonNullExpression(e) => self.expression(&e.expression),
                other => {
                    if let Some(member) = other.as_member_expression() {
                        self.member(member);
                    }
                }
            },
            Expression::ImportExpression(import) => {
                let source = match &import.source {
                    Expression::StringLiteral(lit) => lit.value.as_str().to_string(),
                    Expression::TemplateLiteral(t) if t.expressions.is_empty() => t
                        .quasis
                        .first()
                        .and_then(|q| q.value.cooked.as_ref())
                        .map(|c| c.as_str().to_string())
                        .unwrap_or_default(),
                    other => super::eval::snippet(self.text, other.span()),
                };
                self.found
                    .imports
                    .push((import.span, ImportKind::Dynamic, source));
                self.expression(&import.source);
                if let Some(options) = &import.options {
                    self.expression(options);
                }
            }
            Expression::NewExpression(e) => {
                self.expression(&e.callee);
                self.arguments(&e.arguments);
            }
            Expression::TaggedTemplateExpression(e) => {
                self.expression(&e.tag);
                for q in &e.quasi.expressions {
                    self.expression(q);
                }
            }
            Expression::UnaryExpression(e) => {
                if e.operator == UnaryOperator::Delete
                    && let Some(member) = e.argument.as_member_expression()
                {
                    self.note_mutation_of(member.object(), e.span);
                }
                self.expression(&e.argument);
            }
            Expression::UpdateExpression(e) => self.simple_target(&e.argument, e.span),
            Expression::YieldExpression(e) => {
                if let Some(argument) = &e.argument {
                    self.expression(argument);
                }
            }
            Expression::PrivateInExpression(e) => self.expression(&e.right),
            Expression::TSAsExpression(e) => self.expression(&e.expression),
            Expression::TSSatisfiesExpression(e) => self.expression(&e.expression),
            Expression::TSTypeAssertion(e) => self.expression(&e.expression),
            Expression::TSNonNullExpression(e) => self.expression(&e.expression),
            Expression::TSInstantiationExpression(e) => self.expression(&e.expression),
            Expression::V8IntrinsicExpression(e) => self.arguments(&e.arguments),
            // literals, identifiers, `this`, `super`, `import.meta`, `new.target`, JSX
            _ => {}
        }
    }
}

fn is_identifier(expr: &Expression<'_>, name: &str) -> bool {
    matches!(expr, Expression::Identifier(id) if id.name.as_str() == name)
}

fn is_global_object(expr: &Expression<'_>) -> bool {
    matches!(expr, Expression::Identifier(id) if GLOBAL_OBJECTS.contains(&id.name.as_str()))
}
