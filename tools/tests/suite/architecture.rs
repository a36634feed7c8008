//! The layering of the two crates (ARCHITECTURE.md). In the engine crate (`src/`) data flows one way,
//! uci → player → search → policy → bestmove, and no module reaches up or sideways: every
//! `crate::X` path in a module must name a module of a lower layer (or the module itself), and the
//! engine names nothing of the tools. In the tools crate (`tools/src/`) a tool (one folder or file
//! per subcommand) uses only `common/` and the engine (`sparring::`), never another tool (one declared
//! exception: the calibration plays games through the match runner's library); `common/`
//! uses no tool; only the command line (`cli.rs`, `main.rs`) uses the engine's `uci`.

use std::path::{Path, PathBuf};

/// The engine's top-level modules, lowest layer first. A module may use only those before it.
const LAYERS: &[&str] = &[
    "score",
    "board",
    "seed",
    "eval",
    "tablebase",
    "search",
    "human",
    "policy",
    "profile",
    "human_time",
    "player",
    "uci",
];

/// The tools crate's subcommands: none may use another. `cli` dispatches to all of them; `common`
/// is what they share.
const TOOLS: &[&str] =
    &["match", "strength", "humanlike", "calibrate", "model", "bench", "solve", "tune", "clock", "style", "avatar"];

/// The one declared exception (ARCHITECTURE.md): the calibration plays its self-play steps through
/// the match runner's library (`r#match::run_match` and its config types), not a child process.
const LIBRARY_USES: &[(&str, &str)] = &[("calibrate", "match")];

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

/// The identifiers that follow `prefix` (`crate::`, `sparring::`) on a line of code (comments
/// stripped), including the members of a braced group `crate::{a, b::c}`; `r#match` reads `match`.
fn paths_after(line: &str, prefix: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let ident = |s: &str| -> String {
        let s = s.trim_start().trim_start_matches("r#");
        s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()
    };
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        // `sparring::` must not match inside `sparring_tools::` or `other_sparring::`.
        let before = rest[..i].chars().last();
        let after = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            rest = after;
            continue;
        }
        if let Some(group) = after.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            found.extend(group[..end].split(',').map(ident).filter(|n| !n.is_empty()));
        } else {
            found.push(ident(after));
        }
        rest = after;
    }
    found
}

fn crate_paths(line: &str) -> Vec<String> {
    paths_after(line, "crate::")
}

/// The first path component of a file below `src` (`lib`, `main`, `bin` are the crate's roots).
fn owner(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let top = rel.iter().next()?.to_string_lossy().trim_end_matches(".rs").to_string();
    (!matches!(top.as_str(), "lib" | "main" | "bin")).then_some(top)
}

fn lines_of_code(file: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(n, l)| (n + 1, l.to_string()))
        .collect()
}

/// Imports against the engine's layering.
fn engine_violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let layer = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut bad = Vec::new();
    for file in &files {
        for (n, line) in lines_of_code(file) {
            if line.contains("sparring_tools") {
                bad.push(format!("{}:{n}: the engine names the tools crate", file.display()));
            }
        }
        let Some(top) = owner(src, file) else { continue };
        let Some(own) = layer(&top) else {
            bad.push(format!("{}: module '{top}' has no layer in tests/suite/architecture.rs", file.display()));
            continue;
        };
        for (n, line) in lines_of_code(file) {
            for used in crate_paths(&line) {
                match layer(&used) {
                    Some(l) if l < own || used == top => {}
                    Some(_) => bad
                        .push(format!("{}:{n}: {top} uses crate::{used} (a layer above or beside it)", file.display())),
                    None => bad.push(format!("{}:{n}: unknown module crate::{used}", file.display())),
                }
            }
        }
    }
    bad
}

/// Imports against the tools crate's rule: a tool uses only `common` and the engine.
fn tools_violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for file in &files {
        let Some(top) = owner(src, file) else { continue };
        if top != "cli" && top != "common" && !TOOLS.contains(&top.as_str()) {
            bad.push(format!("{}: '{top}' is neither a tool, common nor cli (add it to TOOLS)", file.display()));
            continue;
        }
        for (n, line) in lines_of_code(file) {
            for used in crate_paths(&line) {
                let ok = used == top
                    || used == "common"
                    || top == "cli"
                    || LIBRARY_USES.contains(&(top.as_str(), used.as_str()));
                if !ok {
                    bad.push(format!("{}:{n}: {top} uses crate::{used} (a tool uses only common/)", file.display()));
                }
            }
            for used in paths_after(&line, "sparring::") {
                if used == "uci" && top != "cli" {
                    bad.push(format!("{}:{n}: {top} uses sparring::uci (only cli may)", file.display()));
                }
            }
        }
    }
    bad
}

fn repo() -> PathBuf {
    PathBuf::from(env!("SPARRING_REPO"))
}

#[test]
fn no_module_reaches_up_or_sideways() {
    // LAYERING_REPO=<other checkout> lists another tree's violations (e.g. before a refactor).
    let root = std::env::var("LAYERING_REPO").map(PathBuf::from).unwrap_or_else(|_| repo());
    let mut bad = engine_violations(&root.join("src"));
    bad.extend(tools_violations(&root.join("tools/src")));
    assert!(bad.is_empty(), "{} imports against the layering:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn the_engine_crate_depends_on_no_tool_crate() {
    let manifest = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let deps = manifest.split("\n[dependencies]").nth(1).expect("a [dependencies] table");
    let deps = deps.split("\n[").next().unwrap();
    for tool_crate in ["clap", "indicatif", "pgn-reader", "sparring-tools"] {
        assert!(
            !deps.lines().any(|l| l.trim_start().starts_with(tool_crate)),
            "the engine crate depends on {tool_crate}"
        );
    }
}

#[test]
fn the_checker_sees_violations() {
    assert_eq!(crate_paths("use crate::{board::Game, search::Limits}; // crate::uci"), ["board", "search"]);
    assert_eq!(crate_paths("let x = crate::player::Player::strong();"), ["player"]);
    assert_eq!(crate_paths("use crate::r#match::sprt;"), ["match"]);
    assert_eq!(paths_after("use sparring_tools::x; sparring::uci::run()", "sparring::"), ["uci"]);
    let dir = std::env::temp_dir().join(format!("sparring-layering-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("strength")).unwrap();
    std::fs::create_dir_all(dir.join("common")).unwrap();
    std::fs::write(dir.join("strength/mod.rs"), "use crate::r#match::sprt;\nuse crate::common::games;\n").unwrap();
    std::fs::write(dir.join("common/mod.rs"), "use sparring::uci::run_stdio;\n").unwrap();
    std::fs::create_dir_all(dir.join("calibrate")).unwrap();
    std::fs::write(dir.join("calibrate/steps.rs"), "use crate::r#match::run_match;\nuse crate::strength::pgn;\n")
        .unwrap();
    let bad = tools_violations(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(bad[0].contains("calibrate uses crate::strength"), "{bad:?}");
    assert!(bad[1].contains("common uses sparring::uci"), "{bad:?}");
    assert!(bad[2].contains("strength uses crate::match"), "{bad:?}");
}

/// Functions longer than this need a reason written beside them (a comment line above the
/// function that starts with `Long:`).
const MAX_FN_LINES: usize = 120;

/// Every function below `src` as (file, first line, name, lines), found by brace matching (string,
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
    // LAYERING_REPO=<other checkout> lists another tree's functions; FN_REPORT=1 prints the longest.
    let src = std::env::var("LAYERING_REPO").map(PathBuf::from).unwrap_or_else(|_| repo());
    let mut fns = functions(&src.join("src"));
    if src.join("tools/src").is_dir() {
        fns.extend(functions(&src.join("tools/src")));
    }
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
    let readme = std::fs::read_to_string(PathBuf::from(env!("SPARRING_REPO")).join("README.md")).unwrap();
    let start = readme.find("## Test it").expect("a 'Test it' section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    assert!(!section.contains("about 5 minutes") && !section.contains("about 2 minutes"), "{section}");
    for word in ["measured", "cold", "warm", "without `../shared`", "2 cores", "min"] {
        assert!(section.contains(word), "'{word}' missing from:\n{section}");
    }
}
