//! The layering of `src/` (ARCHITECTURE.md): data flows one way, uci → player → search → policy →
//! bestmove, and no module reaches up or sideways. Every `crate::X` path in a module must name a
//! module of a lower layer (or the module itself); inside `tools/`, one tool never uses another
//! tool, only the shared building blocks, and only the command line (`tools::cli`) uses `uci`.

use std::path::{Path, PathBuf};

/// Top-level modules, lowest layer first. A module may use only those before it.
const LAYERS: &[&str] = &[
    "score",
    "board",
    "seed",
    "eval",
    "tablebase",
    "search",
    "policy",
    "profile",
    "human_time",
    "player",
    "uci",
    "tools",
];

/// The tools (subcommands) inside `tools/`: none may use another. `cli` dispatches to all of them;
/// everything else in `tools/` is a shared building block any tool may use.
const TOOLS: &[&str] = &["arena", "estimate", "humanlike", "bench", "solve", "tune", "clock", "style"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The identifiers that follow `crate::` on a line of code (comments stripped), including the
/// members of a braced group `crate::{a, b::c}`.
fn crate_paths(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    found.push(name);
                }
            }
        } else {
            let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            found.push(name);
        }
        rest = after;
    }
    found
}

/// (top-level module, tool inside `tools/` if any) of a source file.
fn owner(src: &Path, file: &Path) -> Option<(String, Option<String>)> {
    let rel = file.strip_prefix(src).unwrap();
    let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    let top = parts[0].clone();
    if top == "lib" || top == "main" || top == "bin" {
        return None;
    }
    // A tool still at the top level (as before the tools layer) counts as part of `tools`.
    if TOOLS.contains(&top.as_str()) {
        return Some(("tools".into(), Some(top)));
    }
    let tool = (top == "tools" && parts.len() > 1).then(|| parts[1].clone());
    Some((top, tool))
}

/// `tools::X` paths in a line (to check tools against each other).
fn tools_paths(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("tools::") {
        let after = &rest[i + "tools::".len()..];
        let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        found.push(name);
        rest = after;
    }
    found
}

fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let layer = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut bad = Vec::new();
    for file in &files {
        let Some((top, tool)) = owner(src, file) else { continue };
        let Some(own) = layer(&top) else {
            bad.push(format!("{}: module '{top}' has no layer in tests/layering.rs", file.display()));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for used in crate_paths(line) {
                if let Some(tool) = &tool
                    && TOOLS.contains(&tool.as_str())
                    && TOOLS.contains(&used.as_str())
                    && used != *tool
                {
                    bad.push(format!("{}:{}: tool {tool} uses tool {used}", file.display(), n + 1));
                    continue;
                }
                // `uci` is the engine's protocol only: the tools drive engines with `tools::process`,
                // and just `cli` starts the engine itself.
                if used == "uci" && top == "tools" && tool.as_deref() != Some("cli") {
                    bad.push(format!("{}:{}: tools use crate::uci (only tools::cli may)", file.display(), n + 1));
                    continue;
                }
                let used = if TOOLS.contains(&used.as_str()) { "tools".to_string() } else { used };
                match layer(&used) {
                    Some(l) if l < own || used == top => {}
                    Some(_) => bad.push(format!(
                        "{}:{}: {top} uses crate::{used} (a layer above or beside it)",
                        file.display(),
                        n + 1
                    )),
                    None => bad.push(format!("{}:{}: unknown module crate::{used}", file.display(), n + 1)),
                }
            }
            if let Some(tool) = &tool
                && TOOLS.contains(&tool.as_str())
            {
                for used in tools_paths(line) {
                    if TOOLS.contains(&used.as_str()) && used != *tool {
                        bad.push(format!("{}:{}: tool {tool} uses tool {used}", file.display(), n + 1));
                    }
                }
            }
        }
    }
    bad
}

#[test]
fn no_module_reaches_up_or_sideways() {
    // LAYERING_SRC=<other tree>/src lists another tree's violations (e.g. before a refactor).
    let src = std::env::var("LAYERING_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src"));
    let bad = violations(&src);
    assert!(bad.is_empty(), "{} imports against the layering:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn the_checker_sees_violations() {
    assert_eq!(crate_paths("use crate::{board::Game, search::Limits}; // crate::uci"), ["board", "search"]);
    assert_eq!(crate_paths("let x = crate::player::Player::strong();"), ["player"]);
    assert_eq!(tools_paths("use crate::tools::humanlike::types;"), ["humanlike"]);
}

/// Functions longer than this need a reason written beside them (a comment line above the
/// function that starts with `Long:`).
const MAX_FN_LINES: usize = 120;

/// Every function in `src/` as (file, first line, name, lines), found by brace matching (string,
/// char and comment contents are skipped, which is all the precision this needs).
fn functions(src: &Path) -> Vec<(PathBuf, usize, String, usize, bool)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("").trim_start();
            let Some(name) = fn_name(code) else { continue };
            let Some(len) = body_lines(&lines[i..]) else { continue };
            // The comment and attribute lines right above the function.
            let excused = lines[..i]
                .iter()
                .rev()
                .take_while(|l| {
                    let t = l.trim_start();
                    t.starts_with("//") || t.starts_with("#[")
                })
                .any(|l| l.trim_start().trim_start_matches('/').trim_start().starts_with("Long:"));
            out.push((file.clone(), i + 1, name, len, excused));
        }
    }
    out
}

/// The name of the function a line of code declares, if it does.
fn fn_name(code: &str) -> Option<String> {
    let mut words = code.split_whitespace().peekable();
    while let Some(w) = words.next() {
        match w {
            "pub" | "pub(crate)" | "pub(super)" | "const" | "async" | "unsafe" | "extern" | "\"C\"" => continue,
            w if w.starts_with("pub(") => continue,
            "fn" => {
                let n: String = words.next()?.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                return (!n.is_empty()).then_some(n);
            }
            _ => return None,
        }
    }
    None
}

/// Lines from a function's declaration to its closing brace; `None` for a declaration without a
/// body (trait methods).
fn body_lines(lines: &[&str]) -> Option<usize> {
    let mut depth = 0i32;
    let mut opened = false;
    for (n, line) in lines.iter().enumerate() {
        let mut chars = line.chars().peekable();
        let mut in_str = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' if in_str => {
                    chars.next();
                }
                '"' => in_str = !in_str,
                '/' if !in_str && chars.peek() == Some(&'/') => break,
                '\'' if !in_str => {
                    // A char literal ('{', '\n') or a lifetime ('a): skip a literal's contents.
                    let rest: String = chars.clone().take(3).collect();
                    if rest.len() >= 2 && (rest.chars().nth(1) == Some('\'') || rest.starts_with('\\')) {
                        for x in chars.by_ref() {
                            if x == '\'' {
                                break;
                            }
                        }
                    }
                }
                '{' if !in_str => {
                    depth += 1;
                    opened = true;
                }
                '}' if !in_str => {
                    depth -= 1;
                    if opened && depth == 0 {
                        return Some(n + 1);
                    }
                }
                ';' if !in_str && !opened && depth == 0 => return None,
                _ => {}
            }
        }
    }
    None
}

#[test]
fn no_function_is_long_without_a_reason() {
    // LAYERING_SRC=<other tree>/src lists another tree's functions; FN_REPORT=1 prints the longest.
    let src = std::env::var("LAYERING_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut fns = functions(&src);
    fns.sort_by_key(|f| std::cmp::Reverse(f.3));
    if std::env::var_os("FN_REPORT").is_some() {
        for (file, line, name, len, excused) in fns.iter().take(15) {
            let why = if *excused { " (reason given)" } else { "" };
            println!("{len:>4} lines  {name}  {}:{line}{why}", file.strip_prefix(&src).unwrap().display());
        }
    }
    let long: Vec<String> = fns
        .iter()
        .filter(|f| f.3 > MAX_FN_LINES && !f.4)
        .map(|(file, line, name, len, _)| format!("{}:{line} {name}: {len} lines", file.display()))
        .collect();
    assert!(long.is_empty(), "functions over {MAX_FN_LINES} lines without a `Long:` reason:\n{}", long.join("\n"));
}

#[test]
fn the_length_checker_measures_bodies() {
    let text = ["pub fn a(x: u8) -> u8 {", "    let c = '{';", "    // }", "    x", "}", "fn b();"];
    assert_eq!(fn_name(text[0]).as_deref(), Some("a"));
    assert_eq!(body_lines(&text), Some(5));
    assert_eq!(body_lines(&text[5..]), None);
    assert_eq!(fn_name("let f = x;"), None);
}

/// Issue 59: README said the first test run takes "about 5 minutes" and later ones "about 2"; on 2
/// cores under load they took 16 (cold) and 5.4 (warm, with `../shared`) minutes. The section now
/// gives measured figures, cold and warm, with and without `../shared`, and says how they were
/// measured.
#[test]
fn readme_gives_measured_test_timings() {
    let readme = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme.find("## Test it").expect("a 'Test it' section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    assert!(!section.contains("about 5 minutes") && !section.contains("about 2 minutes"), "{section}");
    for word in ["measured", "cold", "warm", "without `../shared`", "2 cores", "min"] {
        assert!(section.contains(word), "'{word}' missing from:\n{section}");
    }
}
