//! Tests of the module reader. Expected JSON strings were printed by node 20
//! (`JSON.stringify` of the same literals); values are compared as serde_json strings because
//! `Map` equality ignores key order.

use super::*;
use crate::diagnostic::Coded;
use std::io::Write as _;

fn parse(text: &str) -> Module {
    parse_module(Path::new("t.mjs"), text).unwrap_or_else(|err| panic!("{err}"))
}

fn value_of(module: &Module, name: &str) -> String {
    match &module.export(name).expect("export exists").value {
        Ok(ExportValue::Json(value)) => serde_json::to_string(value).unwrap(),
        Ok(ExportValue::Function { .. }) => "<function>".to_string(),
        Err(err) => panic!("{err}"),
    }
}

/// The compact JSON of `export const x = <expr>` with `prelude` before it.
fn eval_with(prelude: &str, expr: &str) -> String {
    value_of(
        &parse(&format!("{prelude}\nexport const x = {expr};\n")),
        "x",
    )
}

fn eval(expr: &str) -> String {
    eval_with("", expr)
}

fn eval_err_with(prelude: &str, expr: &str) -> SourceError {
    let module = parse(&format!("{prelude}\nexport const x = {expr};\n"));
    match &module.export("x").expect("export x").value {
        Err(err) => err.clone(),
        Ok(value) => panic!("expected an error, got {value:?}"),
    }
}

fn eval_err(expr: &str) -> SourceError {
    eval_err_with("", expr)
}

fn construct(err: &SourceError) -> String {
    match err {
        SourceError::NonStatic { construct, .. } => construct.clone(),
        other => panic!("expected SRC-005, got {other}"),
    }
}

fn module_err(text: &str) -> SourceError {
    match parse_module(Path::new("t.mjs"), text) {
        Err(err) => err,
        Ok(_) => panic!("expected the module to be refused"),
    }
}

// ---------------------------------------------------------------- literals and numbers

#[test]
fn literals() {
    assert_eq!(eval("'a\\'b'"), r#""a'b""#);
    assert_eq!(eval("\"é\\u0041\\n\""), r#""éA\n""#);
    assert_eq!(eval("true"), "true");
    assert_eq!(eval("false"), "false");
    assert_eq!(eval("null"), "null");
    assert_eq!(eval("[1, 'x', null, true, {}]"), r#"[1,"x",null,true,{}]"#);
}

#[test]
fn numbers_follow_javascript() {
    assert_eq!(eval("-1"), "-1");
    assert_eq!(eval("+2"), "2");
    assert_eq!(eval("-0"), "0");
    assert_eq!(eval("- -3"), "3");
    assert_eq!(eval("1.5"), "1.5");
    assert_eq!(eval("1.0"), "1");
    assert_eq!(eval("0x10"), "16");
    assert_eq!(eval("0o17"), "15");
    assert_eq!(eval("0b101"), "5");
    assert_eq!(eval("1_000_000"), "1000000");
    // 2^53 + 1 is not representable: JS holds 2^53, an integer
    assert_eq!(eval("9007199254740993"), "9007199254740992");
    assert_eq!(eval("-9007199254740992"), "-9007199254740992");
    // beyond 2^53 stays a float
    let float = |expr: &str| -> serde_json::Value { serde_json::from_str(&eval(expr)).unwrap() };
    assert!(float("18014398509481984").is_f64());
    assert_eq!(
        float("18014398509481984").as_f64(),
        Some(18014398509481984.0)
    );
    assert_eq!(float("1e300").as_f64(), Some(1e300));
    assert_eq!(eval("0.1"), "0.1");
    // JSON.stringify prints NaN and the infinities as null
    assert_eq!(
        eval("[NaN, Infinity, -Infinity, 1e999]"),
        "[null,null,null,null]"
    );
    assert!(matches!(
        parse("export const x = 3;").export("x").unwrap().value,
        Ok(ExportValue::Json(serde_json::Value::Number(ref n))) if n.is_i64()
    ));
}

#[test]
fn templates_without_expressions_are_cooked() {
    assert_eq!(eval("`a\\nb\\u0041`"), r#""a\nbA""#);
    assert_eq!(eval("`line\nbreak`"), r#""line\nbreak""#);
    assert_eq!(eval("``"), r#""""#);
    assert_eq!(
        construct(&eval_err("`a${1}`")),
        "template literal with expressions"
    );
}

// ---------------------------------------------------------------- references

#[test]
fn const_references_and_shorthand() {
    let prelude = "const a = 1;\nconst b = { a, c: a, list: [a, 'x'] };";
    assert_eq!(eval_with(prelude, "b"), r#"{"a":1,"c":1,"list":[1,"x"]}"#);
    assert_eq!(
        eval_with(prelude, "{ b }"),
        r#"{"b":{"a":1,"c":1,"list":[1,"x"]}}"#
    );
    assert_eq!(eval_with("const u = undefined;", "[u]"), "[null]");
    assert_eq!(eval("{ a: undefined, b: 1 }"), r#"{"b":1}"#);
    assert_eq!(eval("[undefined]"), "[null]");
}

#[test]
fn cyclic_and_early_references_fail() {
    let err = eval_err_with("const a = [a];", "a");
    assert_eq!(construct(&err), "cyclic const reference `a`");
    assert_eq!(err.position(), Some((1, 12)));
    let module = parse("export const main = { x: later };\nconst later = 1;\n");
    let err = module.schema_main().unwrap_err();
    assert_eq!(
        construct(&err),
        "reference to `later` before its declaration (temporal dead zone)"
    );
    assert_eq!(err.position(), Some((1, 26)));
}

#[test]
fn non_const_bindings_are_not_static() {
    assert_eq!(
        construct(&eval_err_with("let v = 1;", "{ v }")),
        "reference to `let` binding `v`"
    );
    assert_eq!(
        construct(&eval_err_with("var v = 1;", "v")),
        "reference to `var` binding `v`"
    );
    assert_eq!(
        construct(&eval_err_with("import v from './v.mjs';", "[v]")),
        "reference to imported binding `v`"
    );
    assert_eq!(
        construct(&eval_err_with("const { d } = { d: 1 };", "d")),
        "reference to destructured `const` binding `d`"
    );
    assert_eq!(
        construct(&eval_err("process")),
        "reference to unknown identifier `process`"
    );
}

#[test]
fn functions_are_opaque() {
    let prelude = "function f() {}\nclass K {}";
    assert_eq!(
        eval_with(
            prelude,
            "{ m() {}, g: () => 1, h: function () {}, k: class {}, f, K, set y(v) {}, v: 1 }"
        ),
        r#"{"v":1}"#
    );
    assert_eq!(
        eval_with(prelude, "[1, () => 2, f, undefined, , 3]"),
        "[1,null,null,null,null,3]"
    );
    let module = parse("export const handlers = () => ({});\nexport function helper() {}\n");
    match &module.export("handlers").unwrap().value {
        Ok(ExportValue::Function { span }) => {
            assert_eq!((span.line, span.col, span.start), (1, 25, 24));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(value_of(&module, "helper"), "<function>");
}

// ---------------------------------------------------------------- objects

#[test]
fn array_index_keys_come_first() {
    assert_eq!(
        eval("{ b: 1, 2: 'two', a: 3, 1: 'one', '01': 'x', 4294967295: 'big', 4294967294: 'max' }"),
        r#"{"1":"one","2":"two","4294967294":"max","b":1,"a":3,"01":"x","4294967295":"big"}"#
    );
}

#[test]
fn repeated_keys_keep_the_first_position_and_the_last_value() {
    assert_eq!(eval("{ a: 1, b: 2, a: 3 }"), r#"{"a":3,"b":2}"#);
    assert_eq!(eval("{ a: 1, b: 2, a: undefined }"), r#"{"b":2}"#);
    assert_eq!(eval("{ a: undefined, b: 2, a: 1 }"), r#"{"a":1,"b":2}"#);
    assert_eq!(eval("{ a: () => 1, b: 2, a: 1 }"), r#"{"a":1,"b":2}"#);
}

#[test]
fn spreads() {
    let prelude = "const base = { a: 1, b: 2 };\nconst o = { a: undefined };\nconst list = [1, 2];";
    assert_eq!(
        eval_with(prelude, "{ b: 0, ...base, c: 3 }"),
        r#"{"b":2,"a":1,"c":3}"#
    );
    assert_eq!(eval_with(prelude, "{ ...base, a: 9 }"), r#"{"a":9,"b":2}"#);
    assert_eq!(eval_with(prelude, "{ a: 1, ...o }"), "{}");
    assert_eq!(eval_with(prelude, "[0, ...list, ...[3]]"), "[0,1,2,3]");
    assert_eq!(eval_with(prelude, "{ ...list }"), r#"{"0":1,"1":2}"#);
    assert_eq!(eval("{ ...[1, , 2] }"), r#"{"0":1,"2":2}"#);
    assert_eq!(eval("[...'ab']"), r#"["a","b"]"#);
    assert_eq!(eval("{ ...'ab' }"), r#"{"0":"a","1":"b"}"#);
    assert_eq!(eval("{ ...null, ...1, ...true, ...undefined }"), "{}");
    assert_eq!(
        eval_with(prelude, "{ z: 1, ...{ 2: 'b', 1: 'a' } }"),
        r#"{"1":"a","2":"b","z":1}"#
    );
    assert_eq!(
        construct(&eval_err_with(prelude, "[...base]")),
        "spread of a value that is not an array or string `...base`"
    );
}

#[test]
fn proto_setter_is_not_an_own_property() {
    assert_eq!(eval("{ __proto__: { x: 1 }, a: 1 }"), r#"{"a":1}"#);
    assert_eq!(eval("{ '__proto__': [], a: 1 }"), r#"{"a":1}"#);
    assert_eq!(eval("{ ['__proto__']: 1 }"), r#"{"__proto__":1}"#);
    assert_eq!(
        eval_with("const __proto__ = 5;", "{ __proto__ }"),
        r#"{"__proto__":5}"#
    );
}

#[test]
fn computed_and_literal_keys() {
    assert_eq!(
        eval_with(
            "const k = 'name';",
            "{ [k]: 1, [2]: 'x', [1.50]: 1, [true]: 2, [-0]: 3, [1e21]: 4, 0x10: 5, 1n: 6 }"
        ),
        r#"{"0":3,"1":6,"2":"x","16":5,"name":1,"1.5":1,"true":2,"1e+21":4}"#
    );
    assert_eq!(
        construct(&eval_err("{ [[]]: 1 }")),
        "computed key that is not a string or number `[[]]`"
    );
}

#[test]
fn large_objects_keep_order_and_dedupe() {
    let mut expr = String::from("{ ");
    for i in (0..40).rev() {
        expr.push_str(&format!("k{i}: {i}, "));
    }
    expr.push_str("k39: 'last', 7: 'seven', k0: 'zero' }");
    let json = eval(&expr);
    assert!(
        json.starts_with(r#"{"7":"seven","k39":"last","k38":38"#),
        "{json}"
    );
    assert!(json.ends_with(r#""k1":1,"k0":"zero"}"#), "{json}");
}

// ---------------------------------------------------------------- JSON.stringify

#[test]
fn json_stringify_prints_as_javascript() {
    assert_eq!(
        eval(
            "JSON.stringify({ a: [1, 'x', null, true], b: undefined, c: () => 1, d: 1e21, e: 1.0 })"
        ),
        r#""{\"a\":[1,\"x\",null,true],\"d\":1e+21,\"e\":1}""#
    );
    assert_eq!(
        eval("JSON.stringify({ a: 1, b: [1, 2], c: {}, d: [] }, null, 2)"),
        r#""{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": {},\n  \"d\": []\n}""#
    );
    assert_eq!(
        eval("JSON.stringify({ 2: 'b', z: '\\u0001\"', 1: [NaN, -0, 1e-7] })"),
        r#""{\"1\":[null,0,1e-7],\"2\":\"b\",\"z\":\"\\u0001\\\"\"}""#
    );
    assert_eq!(
        eval("[JSON.stringify(undefined), JSON.stringify()]"),
        "[null,null]"
    );
    assert_eq!(eval("{ s: JSON.stringify(() => 1) }"), "{}");
    // the quickchart pattern: a test value computed from a const
    assert_eq!(
        eval_with(
            "const chart = { type: 'bar', data: { labels: ['a'] } };",
            "[{ chart: JSON.stringify(chart) }]"
        ),
        r#"[{"chart":"{\"type\":\"bar\",\"data\":{\"labels\":[\"a\"]}}"}]"#
    );
    assert_eq!(
        construct(&eval_err("JSON.stringify({ toJSON() { return 1 } })")),
        "object with a `toJSON` method"
    );
    assert_eq!(
        construct(&eval_err_with(
            "const JSON = { stringify: 1 };",
            "JSON.stringify(1)"
        )),
        "call expression `JSON.stringify(1)`"
    );
}

// ---------------------------------------------------------------- exports

const SCHEMA: &str = "{ namespace: 'demo', name: 'Demo', tools: { a: { method: 'GET' } } }";

#[test]
fn export_const_main() {
    let module = parse(&format!("// header\nexport const main = {SCHEMA};\n"));
    assert_eq!(module.schema_export_name(), Some("main"));
    assert_eq!(
        serde_json::to_string(module.schema_main().unwrap()).unwrap(),
        r#"{"namespace":"demo","name":"Demo","tools":{"a":{"method":"GET"}}}"#
    );
    let span = module.export("main").unwrap().span;
    assert_eq!((span.line, span.col), (2, 14));
}

#[test]
fn export_list_and_aliases() {
    let module = parse(&format!(
        "const main = {SCHEMA};\nconst handlers = () => ({{}});\nconst extra = [1];\nexport {{ main, handlers, extra as more, main as 'quoted name' }};\n"
    ));
    let names: Vec<&str> = module.exports.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["main", "handlers", "more", "quoted name"]);
    assert!(module.schema_main().is_ok());
    assert_eq!(value_of(&module, "more"), "[1]");
    assert_eq!(value_of(&module, "handlers"), "<function>");
    // the export's span is the declaration of the local binding
    assert_eq!(module.export("main").unwrap().span.line, 1);
}

#[test]
fn export_const_schema_alias_of_main() {
    let module = parse(&format!(
        "export const main = {SCHEMA};\nexport const schema = main;\n"
    ));
    assert_eq!(value_of(&module, "schema"), value_of(&module, "main"));
    assert_eq!(module.schema_export_name(), Some("main"));
}

#[test]
fn legacy_export_const_schema() {
    let module = parse(&format!("export const schema = {SCHEMA};\n"));
    assert_eq!(module.schema_export_name(), Some("schema"));
    assert_eq!(module.schema_main().unwrap()["namespace"], "demo");
}

#[test]
fn export_default_and_declarations() {
    let module = parse(
        "export default { a: 1 };\nexport function f() {}\nexport class C {}\nexport const n = 1, s = 'x';\n",
    );
    let names: Vec<&str> = module.exports.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["default", "f", "C", "n", "s"]);
    assert_eq!(value_of(&module, "default"), r#"{"a":1}"#);
    assert_eq!(value_of(&module, "f"), "<function>");
    assert_eq!(value_of(&module, "C"), "<function>");
    assert_eq!(value_of(&module, "s"), r#""x""#);
    let module = parse("export default function named() {}\nexport const x = [named];\n");
    assert_eq!(value_of(&module, "default"), "<function>");
    assert_eq!(value_of(&module, "x"), "[null]");
}

#[test]
fn a_non_static_export_does_not_spoil_the_module() {
    let module = parse(&format!(
        "export const main = {SCHEMA};\nexport const other = build();\nexport let counter = 0;\nexport {{ x }} from './x.mjs';\n"
    ));
    assert!(module.schema_main().is_ok());
    let other = module.export("other").unwrap().value.as_ref().unwrap_err();
    assert_eq!(
        other.to_string(),
        "t.mjs:2:22: non-static construct call expression `build()` in export `other`"
    );
    assert_eq!(other.code(), "SRC-005");
    let counter = module
        .export("counter")
        .unwrap()
        .value
        .as_ref()
        .unwrap_err();
    assert_eq!(
        construct(counter),
        "exported `let` binding `counter` (its value can change)"
    );
    let x = module.export("x").unwrap().value.as_ref().unwrap_err();
    assert_eq!(construct(x), "re-export from `./x.mjs`");
}

#[test]
fn non_static_constructs_are_named_and_located() {
    let cases: [(&str, &str); 16] = [
        ("build()", "call expression `build()`"),
        ("1 + 2", "binary expression `1 + 2`"),
        ("a && b", "logical expression `a && b`"),
        ("a ? 1 : 2", "conditional expression `a ? 1 : 2`"),
        ("`x${1}y`", "template literal with expressions"),
        ("10n", "BigInt literal `10n`"),
        ("/ab+c/g", "regular expression `/ab+c/g`"),
        ("new Date()", "`new` expression `new Date()`"),
        ("Math.PI", "member access `Math.PI`"),
        ("this", "`this`"),
        ("await 1", "`await` expression `await 1`"),
        ("tag`x`", "tagged template `tag`x``"),
        ("!true", "unary `!` expression `!true`"),
        ("typeof 1", "unary `typeof` expression `typeof 1`"),
        ("-'1'", "unary `-` on a value that is not a number `-'1'`"),
        ("import('x')", "dynamic import `import('x')`"),
    ];
    for (expr, expected) in cases {
        let err = eval_err(&format!("{{ v: [{expr}] }}"));
        assert_eq!(construct(&err), expected, "{expr}");
        // `export const x = { v: [` is 23 characters; line 1 is the empty prelude
        assert_eq!(err.position(), Some((2, 24)), "{expr}");
    }
    // a long snippet is shortened to one line
    let err = eval_err("compute(\n  'a very long argument that goes on and on', 2)");
    assert_eq!(
        construct(&err),
        "call expression `compute( 'a very long argument that goes…`"
    );
}

#[test]
fn top_level_modification_of_a_const_is_reported() {
    let module = parse(
        "export const main = { tools: {} };\nmain.tools.extra = { method: 'GET' };\nfunction later() { main.x = 1; }\n",
    );
    let err = module.schema_main().unwrap_err();
    assert_eq!(
        construct(&err),
        "modification of const `main` by top-level code `main.tools.extra = { method: 'GET' }`"
    );
    assert_eq!(err.position(), Some((2, 1)));
    let module = parse("const list = [1];\nlist.push(2);\nexport const main = { list };\n");
    assert!(module.schema_main().is_err());
    let module = parse("const o = {};\nObject.assign(o, { a: 1 });\nexport const main = { o };\n");
    assert!(module.schema_main().is_err());
    // code inside functions does not run when the module loads
    let module = parse("export const main = { a: 1 };\nexport const h = () => { main.a = 2; };\n");
    assert!(module.schema_main().is_ok());
}

// ---------------------------------------------------------------- handlers

fn handlers_of(text: &str) -> Handlers {
    parse(text).handlers.expect("handlers export")
}

fn phases(handlers: &Handlers) -> Vec<(String, bool, bool, bool)> {
    handlers
        .tools
        .iter()
        .map(|t| {
            (
                t.tool.clone(),
                t.pre_request,
                t.execute_request,
                t.post_request,
            )
        })
        .collect()
}

#[test]
fn handlers_arrow_factory_with_expression_body() {
    let text = "export const main = { tools: {} };\n\
export const handlers = ( { sharedLists, libraries } ) => ( {\n\
    getPrice: {\n\
        preRequest: async ( { struct, payload } ) => { return { struct, payload } },\n\
        postRequest: async ( { response } ) => ( { response } )\n\
    },\n\
    'getChart': { executeRequest: async ( { struct, payload } ) => { return { struct } } }\n\
} );\n";
    let handlers = handlers_of(text);
    assert!(handlers.complete);
    assert_eq!(
        phases(&handlers),
        [
            ("getPrice".to_string(), true, false, true),
            ("getChart".to_string(), false, true, false)
        ]
    );
    assert_eq!((handlers.span.line, handlers.span.col), (2, 25));
}

#[test]
fn handlers_block_body_methods_and_locals() {
    let text = "const main = {};\n\
const handlers = ({ sharedLists }) => {\n\
    const chains = sharedLists.evmChains;\n\
    const getBalance = { preRequest(x) { return x }, async executeRequest() {} };\n\
    return { getBalance, other: { get postRequest() { return 1 } } };\n\
};\n\
export { main, handlers };\n";
    let handlers = handlers_of(text);
    assert!(handlers.complete);
    assert_eq!(
        phases(&handlers),
        [
            ("getBalance".to_string(), true, true, false),
            ("other".to_string(), false, false, true)
        ]
    );
}

#[test]
fn handlers_plain_object_and_function_declaration() {
    let handlers = handlers_of(
        "export const main = {};\nexport const handlers = { a: { executeRequest: () => 1, preRequest: undefined } };\n",
    );
    assert!(handlers.complete);
    assert_eq!(phases(&handlers), [("a".to_string(), false, true, false)]);

    let handlers = handlers_of(
        "export const main = {};\nfunction handlers() { return { t: { postRequest() {} } }; }\nexport { handlers };\n",
    );
    assert!(handlers.complete);
    assert_eq!(phases(&handlers), [("t".to_string(), false, false, true)]);

    let handlers = handlers_of(
        "export const main = {};\nconst shared = { x: { preRequest: f } };\nexport const handlers = () => ({ ...shared, y: { executeRequest: f } });\nfunction f() {}\n",
    );
    assert!(handlers.complete);
    assert_eq!(
        phases(&handlers),
        [
            ("x".to_string(), true, false, false),
            ("y".to_string(), false, true, false)
        ]
    );
}

#[test]
fn handlers_that_cannot_be_seen_are_incomplete() {
    let computed = handlers_of(
        "export const main = {};\nexport const handlers = (deps) => Object.fromEntries(list.map((t) => [t, {}]));\n",
    );
    assert!(!computed.complete);
    assert!(computed.tools.is_empty());
    assert_eq!(computed.span.line, 2);

    let partly = handlers_of(
        "export const main = {};\nexport const handlers = () => ({ a: { preRequest: f }, [name]: {}, ...more() });\n",
    );
    assert!(!partly.complete);
    assert_eq!(phases(&partly), [("a".to_string(), true, false, false)]);

    let built = handlers_of("export const main = {};\nexport const handlers = makeHandlers();\n");
    assert!(!built.complete);

    assert!(parse("export const main = {};\n").handlers.is_none());
}

// ---------------------------------------------------------------- fetch and imports

#[test]
fn fetch_calls_anywhere() {
    let text = "export const main = {};\n\
export const handlers = () => ({\n\
  a: { executeRequest: async ({ struct }) => {\n\
    const r = await fetch(url);\n\
    const s = await globalThis.fetch(url, { method: 'POST' });\n\
    const t = await window.fetch(url);\n\
    return [r, s, t, self['fetch'](u), fetch?.(u), helper.fetch(u)];\n\
  } }\n\
});\n\
function helper() { return fetch('x').then((r) => r.json()); }\n";
    let module = parse(text);
    let at: Vec<(u32, u32)> = module.fetch_calls.iter().map(|s| (s.line, s.col)).collect();
    // (`\n\` continuation lines start without indentation)
    assert_eq!(at, [(4, 17), (5, 17), (6, 17), (7, 18), (7, 36), (10, 28)]);
    let first = module.fetch_calls[0];
    assert_eq!(
        &text[first.start as usize..first.end as usize],
        "fetch(url)"
    );
}

#[test]
fn imports_of_every_kind() {
    let text = "import x from 'a';\n\
import 'b';\n\
export * from 'c';\n\
export { y } from 'd';\n\
export * as ns from 'e';\n\
export const main = {};\n\
export const handlers = () => ({ t: { executeRequest: async () => {\n\
  const m = await import('f');\n\
  const n = require(`g`);\n\
  return import(name);\n\
} } });\n";
    let module = parse(text);
    let imports: Vec<(ImportKind, &str, u32, u32)> = module
        .imports
        .iter()
        .map(|i| (i.kind, i.source.as_str(), i.span.line, i.span.col))
        .collect();
    assert_eq!(
        imports,
        [
            (ImportKind::Static, "a", 1, 1),
            (ImportKind::Static, "b", 2, 1),
            (ImportKind::ReExport, "c", 3, 1),
            (ImportKind::ReExport, "d", 4, 1),
            (ImportKind::ReExport, "e", 5, 1),
            (ImportKind::Dynamic, "f", 8, 17),
            (ImportKind::Require, "g", 9, 11),
            (ImportKind::Dynamic, "name", 10, 8),
        ]
    );
    assert_eq!(
        serde_json::to_string(&module.imports[3]).unwrap(),
        r#"{"source":"d","kind":"re-export","span":{"line":4,"col":1,"start":50,"end":72}}"#
    );
    // the re-exported names are exports too, not readable statically
    assert!(module.export("y").unwrap().value.is_err());
    assert!(module.export("ns").unwrap().value.is_err());
}

// ---------------------------------------------------------------- error codes

#[test]
fn src_001_missing_file_and_directory() {
    let dir = tempfile::tempdir().unwrap();
    let missing = read_module(&dir.path().join("nope.mjs")).unwrap_err();
    assert_eq!(missing.code(), "SRC-001");
    assert!(
        missing
            .to_string()
            .ends_with("nope.mjs: cannot read: no such file"),
        "{missing}"
    );
    let folder = read_module(dir.path()).unwrap_err();
    assert_eq!(folder.code(), "SRC-001");
    assert!(folder.to_string().contains("is a directory"));
    assert!(!folder.fix().is_empty());
}

#[test]
fn src_002_size_cap_is_checked_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    for size in [100 * 1024 * 1024u64, 1024 * 1024 * 1024] {
        let path = dir.path().join(format!("huge-{size}.mjs"));
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(size).unwrap(); // sparse: nothing is written
        let started = std::time::Instant::now();
        let err = read_module(&path).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_millis(500));
        assert_eq!(err.code(), "SRC-002");
        assert_eq!(
            err,
            SourceError::TooLarge {
                path: path.clone(),
                size,
                limit: MAX_MODULE_BYTES
            }
        );
    }
    // exactly at the limit is read (the NUL bytes sit in a line comment)
    let path = dir.path().join("limit.mjs");
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(b"export const main = {};//").unwrap();
    file.set_len(MAX_MODULE_BYTES).unwrap();
    assert!(read_module(&path).unwrap().schema_main().is_ok());
}

#[test]
fn src_003_not_utf8_with_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.mjs");
    std::fs::write(&path, b"// header\n// caf\xe9\nexport const main = {};\n").unwrap();
    let err = read_module(&path).unwrap_err();
    assert_eq!(err.code(), "SRC-003");
    assert_eq!(err.position(), Some((2, 7)));
    assert!(
        err.to_string()
            .ends_with("latin1.mjs:2:7: not UTF-8: invalid byte 0xe9"),
        "{err}"
    );
}

#[test]
fn src_004_syntax_error_with_position() {
    let err = module_err("export const main = {\n  a: 1,,\n};\n");
    assert_eq!(err.code(), "SRC-004");
    assert_eq!(err.position(), Some((2, 8)));
    assert!(
        err.to_string().starts_with("t.mjs:2:8: syntax error: "),
        "{err}"
    );

    let err = module_err("const a = 1;\nconst a = 2;\n");
    assert_eq!(err.code(), "SRC-004");
    assert_eq!(err.position(), Some((2, 7)));
    assert!(err.to_string().contains("`a` has already been declared"));

    let err = module_err("export const main = {};\nconst x = 1;\nexport { x as main };\n");
    assert_eq!(err.code(), "SRC-004");
    assert!(err.to_string().contains("export 'main'"), "{err}");
    assert_eq!(err.position(), Some((3, 15)));

    let err = module_err("export { nothing };\n");
    assert!(
        err.to_string().contains("`nothing` is not defined"),
        "{err}"
    );
}

#[test]
fn src_005_display_format() {
    let module = parse("const a = 1;\nexport const main = { tools: build() };\n");
    let err = module.schema_main().unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.mjs:2:30: non-static construct call expression `build()` in export `main`"
    );
    assert_eq!(err.code(), "SRC-005");
}

#[test]
fn src_006_no_schema_export() {
    let module = parse("export const handlers = () => ({});\nexport const other = 1;\n");
    let err = module.schema_main().unwrap_err();
    assert_eq!(err.code(), "SRC-006");
    assert_eq!(
        err.to_string(),
        "t.mjs: no `main` or `schema` export (it exports `handlers`, `other`)"
    );
    assert_eq!(module.schema_export_name(), None);
}

#[test]
fn src_007_main_not_an_object() {
    for (value, found) in [
        ("[]", "an array"),
        ("() => ({})", "a function"),
        ("'x'", "a string"),
        ("undefined", "null or undefined"),
    ] {
        let module = parse(&format!("\nexport const main = {value};\n"));
        let err = module.schema_main().unwrap_err();
        assert_eq!(err.code(), "SRC-007");
        assert_eq!(
            err.to_string(),
            format!("t.mjs:2:14: export `main` is {found}, not a plain object")
        );
    }
}

#[test]
fn columns_count_characters() {
    let module = parse("const é = 'ü'; export const main = { a: 'ö', b: fn() };\n");
    let err = module.schema_main().unwrap_err();
    // `fn()` starts at character 49 (byte 52)
    assert_eq!(err.position(), Some((1, 49)));
    let module = parse("// a\r\n// b\rexport const main = { b: fn() };\n");
    assert_eq!(module.schema_main().unwrap_err().position(), Some((3, 26)));
    let module = parse("\u{2028}export const main = { b: fn() };\n");
    assert_eq!(module.schema_main().unwrap_err().position(), Some((2, 26)));
    // a byte order mark is not a column
    let module = parse("\u{feff}export const main = fn();\n");
    assert_eq!(module.schema_main().unwrap_err().position(), Some((1, 21)));
}

// ---------------------------------------------------------------- depth

#[test]
fn evaluation_depth_is_limited_to_256() {
    let ok = format!("{}1{}", "[".repeat(256), "]".repeat(256));
    assert!(eval(&ok).starts_with("[[[["));
    let deep = format!("{}1{}", "[".repeat(300), "]".repeat(300));
    let err = eval_err(&deep);
    assert_eq!(construct(&err), "nesting deeper than 256 levels");
    // through const references too
    let mut prelude = String::from("const c0 = 1;\n");
    for i in 1..300 {
        prelude.push_str(&format!("const c{i} = [c{}];\n", i - 1));
    }
    let err = eval_err_with(&prelude, "c299");
    assert_eq!(construct(&err), "nesting deeper than 256 levels");
}

#[test]
fn ten_thousand_levels_are_an_error_not_a_crash() {
    for (open, close) in [("[", "]"), ("{a:", "}"), ("(", ")")] {
        let text = format!(
            "export const main = {}1{};\n",
            open.repeat(10_000),
            close.repeat(10_000)
        );
        let err = module_err(&text);
        assert_eq!(err.code(), "SRC-005", "{open}");
        assert!(
            err.to_string().contains("nesting deeper than 1000 levels"),
            "{err}"
        );
    }
    for text in [
        format!("export const main = {}1;", "!".repeat(100_000)),
        format!("export const main = {}1;", "-".repeat(100_000)),
        format!("export const main = {}1;", "x=>".repeat(10_000)),
        format!("export const main = {}1;", "a?1:".repeat(10_000)),
        format!("export const main = {}1;", "x=".repeat(10_000)),
        format!("export const main = {}1;", "2**".repeat(10_000)),
        format!("export const main = {}x;", "new ".repeat(10_000)),
        format!(
            "export const main = {}1{};",
            "`${".repeat(10_000),
            "}`".repeat(10_000)
        ),
        format!("{}1;", "if(x)".repeat(10_000)),
        format!("if(x)1;{}", "else if(x)1;".repeat(10_000)),
        format!("if(x)a,b;{}", "else if(x)a,b;".repeat(10_000)),
        format!("{}1;", "a:".repeat(10_000)),
        format!("{}{}", "{".repeat(10_000), "}".repeat(10_000)),
        format!(
            "x = {}1{};",
            "function(){return [".repeat(5_000),
            "]}".repeat(5_000)
        ),
    ] {
        let err = module_err(&text);
        assert_eq!(err.code(), "SRC-005", "{}", &text[..40.min(text.len())]);
    }
}

#[test]
fn long_flat_chains_are_fine() {
    // left-leaning chains are parsed and walked in loops
    let sum = format!(
        "export const main = {{}};\nexport const h = () => 1{};\n",
        "+1".repeat(50_000)
    );
    assert!(parse(&sum).schema_main().is_ok());
    let member = format!(
        "export const main = {{}};\nexport const h = () => a{};\n",
        ".b".repeat(50_000)
    );
    assert!(parse(&member).schema_main().is_ok());
    // ASI-style code without semicolons is not mistaken for nesting
    let mut lines = String::from("export const main = {}\nexport const h = () => {\n");
    for i in 0..3_000 {
        lines.push_str(&format!("  let v{i} = w = {i}\n"));
    }
    lines.push_str("}\n");
    assert!(parse(&lines).schema_main().is_ok());
}

#[test]
fn moderately_deep_modules_use_the_helper_thread() {
    // deeper than the fast path, within the limits: read on the large-stack thread
    let text = format!(
        "export const main = {{ v: {}1{} }};\n",
        "[".repeat(200),
        "]".repeat(200)
    );
    let module = parse(&text);
    assert!(module.schema_main().is_ok());
}

#[test]
fn read_module_reads_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.mjs");
    std::fs::write(
        &path,
        format!("\u{feff}// demo\nexport const main = {SCHEMA};\n"),
    )
    .unwrap();
    let module = read_module(&path).unwrap();
    assert_eq!(module.path, path);
    assert_eq!(module.schema_main().unwrap()["name"], "Demo");
}

// ---------------------------------------------------------------- the structural gate

mod gate_tests {
    use super::super::gate::{check_schema, is_namespace};
    use serde_json::json;

    fn valid() -> serde_json::Value {
        json!({
            "namespace": "bundeshaushalt",
            "name": "Bundeshaushalt",
            "description": "Federal budget",
            "version": "4.0.0",
            "docs": ["https://example.org"],
            "tags": ["finance", "cacheTtlDaily"],
            "root": "https://bundeshaushalt.de/internalapi",
            "requiredServerParams": [],
            "headers": {"X-Key": "{{KEY}}"},
            "sharedLists": [{"ref": "evmChains", "version": "3.1.0"}],
            "tools": {
                "getBudget": {
                    "method": "GET",
                    "path": "/budgetData",
                    "description": "Get the budget",
                    "parameters": [],
                    "tests": [{"_description": "2024"}]
                }
            }
        })
    }

    #[test]
    fn a_valid_schema_passes() {
        assert!(check_schema(&valid()).is_empty());
        let mut flowmcp = valid();
        flowmcp["version"] = json!("flowmcp/4.3.0");
        flowmcp["root"] = json!("");
        flowmcp["resources"] = json!({});
        flowmcp["skills"] = json!([]);
        assert!(check_schema(&flowmcp).is_empty());
    }

    #[test]
    fn every_problem_is_reported_with_its_pointer() {
        let mut main = valid();
        main["namespace"] = json!("Bad_NS");
        main.as_object_mut().unwrap().shift_remove("description");
        main["version"] = json!("3.0.0");
        main["tags"] = json!(["ok", 7]);
        main["tools"]["getBudget"]["method"] = json!("get");
        main["tools"]["a/b~c"] = json!({"method": "POST", "path": "/x", "description": "d", "parameters": {}, "tests": []});
        let found = check_schema(&main);
        let pointers: Vec<&str> = found
            .iter()
            .map(|d| d.pointer.as_deref().unwrap())
            .collect();
        assert_eq!(
            pointers,
            [
                "/namespace",
                "/description",
                "/version",
                "/tools/getBudget/method",
                "/tools/a~1b~0c/parameters",
                "/tags/1",
            ]
        );
        assert!(
            found
                .iter()
                .all(|d| d.code == "IMP-002" && d.is_error() && !d.fix.is_empty())
        );
        assert_eq!(
            found[1].message,
            "missing `description` (a non-empty string)"
        );
    }

    #[test]
    fn legacy_routes_warn() {
        let mut main = valid();
        let tools = main.as_object_mut().unwrap().shift_remove("tools").unwrap();
        main["routes"] = tools;
        let found = check_schema(&main);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "IMP-WARN-002");
        assert!(!found[0].is_error());
        assert_eq!(found[0].pointer.as_deref(), Some("/routes"));
    }

    #[test]
    fn wrong_types_and_empty_tools() {
        let found = check_schema(&json!({
            "namespace": "x", "name": "", "description": "d", "version": "4.0.0", "root": 1,
            "tools": {}, "headers": {"a": 1}, "sharedLists": [{"version": "1"}, 2],
            "resources": "no", "skills": {}, "docs": "x", "requiredServerParams": [null]
        }));
        let pointers: Vec<&str> = found
            .iter()
            .map(|d| d.pointer.as_deref().unwrap())
            .collect();
        assert_eq!(
            pointers,
            [
                "/name",
                "/root",
                "/tools",
                "/docs",
                "/requiredServerParams/0",
                "/headers/a",
                "/sharedLists/0/ref",
                "/sharedLists/1",
                "/resources",
                "/skills",
            ]
        );
        let root = check_schema(&json!([1]));
        assert_eq!(root.len(), 1);
        assert_eq!(root[0].pointer.as_deref(), Some(""));
        let tool = check_schema(&json!({"namespace": "x", "name": "n", "description": "d",
            "version": "4.0.0", "root": "", "tools": {"t": 1}}));
        assert_eq!(tool[0].pointer.as_deref(), Some("/tools/t"));
    }

    #[test]
    fn namespaces() {
        for ok in ["a", "coingecko", "a1-b2", "x-"] {
            assert!(is_namespace(ok), "{ok}");
        }
        for bad in ["", "1a", "-a", "A", "aB", "a_b", "a.b", "é", "a b"] {
            assert!(!is_namespace(bad), "{bad}");
        }
    }
}

#[test]
fn find_any_matches_a_plain_search() {
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"ab'\"\\\n\r*`$ \xe2\x80";
    for _ in 0..2_000 {
        let len = (next() % 40) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let set = [b'\'', b'\\', b'\n', b'\r'];
        for from in 0..=len + 2 {
            let expected = (from..len)
                .find(|&i| set.contains(&bytes[i]))
                .unwrap_or(len);
            assert_eq!(
                scan::find_any(&bytes, from, set),
                expected,
                "{bytes:?} {from}"
            );
        }
    }
}

#[test]
fn regex_and_division_are_told_apart_before_parsing() {
    // Each hides 10,000 nested arrays from a scanner that confuses `/` after `}` or `)`: the
    // pre-scan must see them as code exactly where the parser does.
    let arrays = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
    let cases = [
        format!("if (x) /\"/; {arrays} //\""),
        format!("a: {{}} /\"/; {arrays} //\""),
        format!("switch (x) {{ case 1: {{}} /\"/; {arrays} //\" }}"),
        format!("class A {{}} /\"/; {arrays} //\""),
        format!("function f() {{}} /\"/; {arrays} //\""),
        format!("for (x of /\"/) ; {arrays} //\""),
        format!("x = function () {{}} /{arrays}/ 1"),
        format!("x = class {{}} /{arrays}/ 1"),
        format!("export default {{}} /{arrays}/ 1"),
        format!("const of = 1; x = of /{arrays}/ 1"),
        format!("x = a ? {{}} : {{}} /{arrays}/ 1"),
        format!("x = y\n/{arrays}/g"),
    ];
    for text in cases {
        let err = module_err(&text);
        assert_eq!(err.code(), "SRC-005", "{}", &text[..30]);
    }
    // and regular expressions with quotes and brackets in ordinary code are not nesting
    let module = parse(
        "export const main = {};\nfunction f() {}\n/[\"'({[]/.test(x);\nexport const h = (s) => {\n  if (s) /\"/.test(s);\n  return s.replace(/[({[]+/g, '') / 2;\n};\n",
    );
    assert!(module.schema_main().is_ok());
}

#[test]
fn getters_are_not_static_but_setters_print_nothing() {
    let err = eval_err("{ a: 1, get g() { return 1 } }");
    assert!(construct(&err).contains("getter"), "{err}");
    assert_eq!(eval("{ a: 1, set s(v) {} }"), r#"{"a":1}"#);
}
