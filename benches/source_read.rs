//! Prints how long reading 400 realistic FlowMCP v4 schema modules takes with
//! `source::read_module` on one thread (warm cache: one warm-up pass, then the median of five).
//! Target: under 150 ms. Run with `cargo bench --bench source_read`.
//!
//! The modules are generated deterministically (a seeded xorshift PRNG) in the shape the public
//! corpus has (shared/notes/schema-corpus.md §3): 1–8 tools with 1–6 parameters, 1–3 tests and an
//! output schema each, a `handlers` factory in 40 % of the files, `requiredServerParams` with
//! `{{KEY}}` headers in 25 %, header comments on top.

use flowmcp_grading::source::read_module;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

const MODULES: usize = 400;
const PASSES: usize = 5;
const TARGET_MS: f64 = 150.0;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = write_modules(dir.path());
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).expect("written").len())
        .sum();
    println!(
        "source_read: {MODULES} modules, {:.2} MiB ({:.1} KiB per module)",
        bytes as f64 / 1_048_576.0,
        bytes as f64 / 1024.0 / MODULES as f64
    );

    // warm-up pass, which also checks that every module reads as expected
    let mut with_handlers = 0;
    for file in &files {
        let module = read_module(file).unwrap_or_else(|err| panic!("{err}"));
        assert!(module.schema_main().is_ok_and(|main| main.is_object()));
        assert!(module.imports.is_empty());
        if let Some(handlers) = &module.handlers {
            assert!(handlers.complete && !handlers.tools.is_empty());
            with_handlers += 1;
        }
    }
    println!("  {with_handlers} of {MODULES} modules have a handlers factory");

    let mut runs = Vec::with_capacity(PASSES);
    for _ in 0..PASSES {
        let started = Instant::now();
        let mut tools = 0;
        for file in &files {
            let module = read_module(file).expect("read");
            tools += module.handlers.map_or(0, |h| h.tools.len());
        }
        runs.push(started.elapsed().as_secs_f64());
        std::hint::black_box(tools);
    }
    runs.sort_by(f64::total_cmp);
    let median = runs[PASSES / 2];
    println!(
        "  one thread, median of {PASSES}: {:.1} ms total, {:.3} ms per file, {:.1} MB/s (min {:.1} ms, max {:.1} ms)",
        median * 1e3,
        median * 1e3 / MODULES as f64,
        bytes as f64 / 1e6 / median,
        runs[0] * 1e3,
        runs[PASSES - 1] * 1e3
    );
    println!(
        "  target < {TARGET_MS:.0} ms: {}",
        if median * 1e3 < TARGET_MS {
            "met"
        } else {
            "NOT met"
        }
    );
}

/// xorshift64*: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.range(0, items.len() - 1)]
    }
}

const WORDS: [&str; 24] = [
    "price", "token", "chain", "block", "wallet", "market", "volume", "pool", "asset", "account",
    "budget", "station", "weather", "index", "rate", "supply", "holder", "transfer", "contract",
    "gas", "fee", "symbol", "pair", "history",
];

fn camel(rng: &mut Rng, parts: usize) -> String {
    let mut out = String::new();
    for i in 0..parts {
        let word = rng.pick(&WORDS);
        if i == 0 {
            out.push_str(word);
        } else {
            out.push_str(&word[..1].to_uppercase());
            out.push_str(&word[1..]);
        }
    }
    out
}

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut out = String::new();
    for i in 0..words {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(rng.pick(&WORDS));
    }
    let mut chars = out.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => out,
    }
}

fn write_modules(dir: &Path) -> Vec<PathBuf> {
    let mut rng = Rng(0x5EED_F10C_4D47_A11E);
    (0..MODULES)
        .map(|i| {
            let namespace = format!("{}{i}", rng.pick(&WORDS));
            let path = dir.join(format!("{namespace}.mjs"));
            std::fs::write(&path, module_text(&mut rng, &namespace)).expect("write module");
            path
        })
        .collect()
}

fn module_text(rng: &mut Rng, namespace: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Schema: {namespace}\n// Migrated from v3.0.0 -> v4.0.0\n// {}\n",
        sentence(rng, 8)
    );
    let keyed = rng.chance(25);
    let key = format!("{}_API_KEY", namespace.to_uppercase());
    let tool_count = rng.range(1, 8);
    let tool_names: Vec<String> = (0..tool_count)
        .map(|t| {
            format!("get{}{t}", {
                let word = camel(rng, 2);
                let mut chars = word.chars();
                chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                    .unwrap_or_default()
            })
        })
        .collect();

    out.push_str("export const main = {\n");
    let _ = writeln!(out, "    namespace: '{namespace}',");
    let _ = writeln!(out, "    name: '{}',", sentence(rng, 2));
    let _ = writeln!(out, "    description: '{}',", sentence(rng, 14));
    out.push_str("    version: '4.0.0',\n");
    let _ = writeln!(
        out,
        "    docs: [ 'https://docs.{namespace}.example/api', 'https://{namespace}.example' ],"
    );
    let _ = writeln!(
        out,
        "    tags: [ '{}', '{}', 'cacheTtlDaily' ],",
        rng.pick(&WORDS),
        rng.pick(&WORDS)
    );
    let _ = writeln!(out, "    root: 'https://api.{namespace}.example/v1',");
    if keyed {
        let _ = writeln!(out, "    requiredServerParams: [ '{key}' ],");
        let _ = writeln!(
            out,
            "    headers: {{ 'X-API-Key': '{{{{{key}}}}}', 'Accept': 'application/json' }},"
        );
    } else {
        out.push_str("    requiredServerParams: [],\n    headers: {},\n");
    }
    out.push_str("    tools: {\n");
    for (t, tool) in tool_names.iter().enumerate() {
        let params: Vec<String> = (0..rng.range(1, 6)).map(|_| camel(rng, 1)).collect();
        let post = rng.chance(5);
        let _ = writeln!(out, "        {tool}: {{");
        let _ = writeln!(
            out,
            "            method: '{}',",
            if post { "POST" } else { "GET" }
        );
        let _ = writeln!(
            out,
            "            path: '/{}/:{}',",
            rng.pick(&WORDS),
            params[0]
        );
        let _ = writeln!(out, "            description: '{}',", sentence(rng, 12));
        out.push_str("            parameters: [\n");
        for (p, param) in params.iter().enumerate() {
            let location = if p == 0 {
                "insert"
            } else if post {
                "body"
            } else {
                "query"
            };
            let (primitive, options) = match rng.range(0, 3) {
                0 => ("string()", "[]".to_string()),
                1 => (
                    "number()",
                    "[ 'min(1)', 'max(100)', 'default(10)' ]".to_string(),
                ),
                2 => (
                    "enum(asc,desc)",
                    "[ 'default(asc)', 'optional()' ]".to_string(),
                ),
                _ => ("boolean()", "[ 'optional()' ]".to_string()),
            };
            let _ = write!(
                out,
                "                {{ position: {{ key: '{param}{p}', value: '{{{{USER_PARAM}}}}', location: '{location}' }}, z: {{ primitive: '{primitive}', options: {options} }}"
            );
            if rng.chance(15) {
                let _ = write!(out, ", description: '{}'", sentence(rng, 6));
            }
            out.push_str(" },\n");
        }
        out.push_str("            ],\n            tests: [\n");
        for _ in 0..rng.range(1, 3) {
            let _ = write!(
                out,
                "                {{ _description: '{}'",
                sentence(rng, 5)
            );
            for (p, param) in params.iter().enumerate() {
                let _ = write!(out, ", {param}{p}: '{}'", rng.pick(&WORDS));
            }
            out.push_str(" },\n");
        }
        out.push_str("            ],\n");
        if t % 5 != 4 {
            out.push_str("            output: {\n                mimeType: 'application/json',\n                description: 'The response',\n                schema: {\n                    type: 'object',\n                    properties: {\n");
            for _ in 0..rng.range(2, 6) {
                let field = camel(rng, 2);
                if rng.chance(30) {
                    let _ = writeln!(
                        out,
                        "                        {field}: {{ type: 'array', items: {{ type: 'object', properties: {{ id: {{ type: 'string' }}, value: {{ type: 'number', description: '{}' }} }} }} }},",
                        sentence(rng, 3)
                    );
                } else {
                    let _ = writeln!(
                        out,
                        "                        {field}: {{ type: '{}', description: '{}' }},",
                        rng.pick(&["string", "number", "boolean"]),
                        sentence(rng, 4)
                    );
                }
            }
            out.push_str("                    }\n                }\n            }\n");
        }
        out.push_str("        },\n");
    }
    out.push_str("    }\n}\n");

    if rng.chance(40) {
        out.push_str("\n\nexport const handlers = ( { sharedLists, libraries } ) => ( {\n");
        for tool in tool_names.iter().take(rng.range(1, tool_count)) {
            let _ = writeln!(out, "    {tool}: {{");
            if rng.chance(40) {
                out.push_str(
                    "        preRequest: async ( { struct, payload } ) => {\n            const { userParams } = payload\n            payload.url = payload.url.replace( ':id', userParams.id )\n            return { struct, payload }\n        },\n",
                );
            }
            if rng.chance(45) {
                out.push_str(
                    "        executeRequest: async ( { struct, payload } ) => {\n            const response = { status: true, messages: [], data: [] }\n            const items = ( payload.items || [] ).map( ( item ) => ( { id: item.id, value: Number( item.value ) } ) )\n            response.data = items.filter( ( item ) => !Number.isNaN( item.value ) )\n            return { struct: response, payload }\n        },\n",
                );
            }
            out.push_str(
                "        postRequest: async ( { response, struct, payload } ) => {\n            if( !struct.status ) { return { response } }\n            const rows = Array.isArray( response ) ? response : response.data\n            return { response: rows.slice( 0, 100 ) }\n        }\n    },\n",
            );
        }
        out.push_str("} )\n");
    }
    out
}
