//! `uci`, the option list, `isready`, and the start-up config file.

use crate::harness::{Engine, SOON, TempDir, run_in};

fn handshake(engine: &mut Engine) -> Vec<String> {
    engine.send("uci");
    engine.until(SOON, |l| l == "uciok")
}

fn option_line<'a>(lines: &'a [String], name: &str) -> &'a str {
    let prefix = format!("option name {name} type ");
    lines
        .iter()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no option {name} in {lines:#?}"))
}

#[test]
fn handshake_announces_the_engine_and_every_option() {
    let mut engine = Engine::start();
    let lines = handshake(&mut engine);
    assert!(lines[0].starts_with("id name Quintessence "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    for expected in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 1024",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name Clear Hash type button",
        "option name UCI_Chess960 type check default false",
        "option name UCI_ShowWDL type check default false",
        "option name Debug Log File type string default <empty>",
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2635 min 1012 max 2635",
        "option name EvalFile type string default <empty>",
    ] {
        assert!(
            lines.iter().any(|l| l == expected),
            "missing '{expected}' in {lines:#?}"
        );
    }
    let attacks = option_line(&lines, "Attacks");
    let vars: Vec<&str> = attacks.split(" var ").skip(1).collect();
    assert!(
        vars.contains(&"magic") && vars.contains(&"classical"),
        "{attacks}"
    );
    let default = attacks
        .split(" default ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap();
    assert!(vars.contains(&default), "{attacks}");
    let options = lines.iter().filter(|l| l.starts_with("option ")).count();
    assert_eq!(options, 18, "no option that does nothing: {lines:#?}");
    assert!(
        engine.sync().is_empty(),
        "isready answers readyok and nothing else"
    );
}

#[test]
fn config_file_sets_the_announced_defaults() {
    let dir = TempDir::new("config");
    let path = dir.0.join("engine.toml");
    std::fs::write(
        &path,
        "[options]\nHash = 32\n\"Move Overhead\" = 50\nUCI_ShowWDL = true\n[log]\nlevel = \"error\"\n",
    )
    .unwrap();
    let mut engine = Engine::start_with(&["--config", path.to_str().unwrap()], "config");
    let lines = handshake(&mut engine);
    assert_eq!(
        option_line(&lines, "Hash"),
        "option name Hash type spin default 32 min 1 max 65536"
    );
    assert!(option_line(&lines, "Move Overhead").contains("default 50"));
    assert!(option_line(&lines, "UCI_ShowWDL").contains("default true"));
    engine.send("position startpos");
    engine.send("go depth 2");
    let (info, _, _) = engine.bestmove(SOON);
    assert!(
        info.iter().any(|l| l.contains(" wdl ")),
        "ShowWDL from the file is on: {info:?}"
    );
}

#[test]
fn engine_config_in_the_working_directory_is_read() {
    let dir = TempDir::new("cwd-config");
    std::fs::create_dir_all(dir.0.join("engine-config")).unwrap();
    std::fs::write(
        dir.0.join("engine-config/engine.toml"),
        "[options]\nMultiPV = 3\n",
    )
    .unwrap();
    let output = run_in(&dir.0, &[], "uci\nquit\n");
    assert!(
        output
            .0
            .contains("option name MultiPV type spin default 3 min 1 max 256"),
        "{}",
        output.0
    );
}

#[test]
fn malformed_config_is_reported_on_stderr_and_defaults_are_used() {
    let dir = TempDir::new("bad-config");
    let path = dir.0.join("bad.toml");
    std::fs::write(&path, "[options]\nHash = = 3\n").unwrap();
    let (stdout, stderr) = run_in(
        &dir.0,
        &["--config", path.to_str().unwrap()],
        "uci\nisready\nquit\n",
    );
    assert!(stderr.contains("line 2"), "stderr names the line: {stderr}");
    assert!(
        stdout.contains("option name Hash type spin default 16 "),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("uciok\nreadyok\n"),
        "stdout has only protocol lines: {stdout}"
    );

    let (stdout, stderr) = run_in(
        &dir.0,
        &["--config", "/nonexistent/engine.toml"],
        "isready\nquit\n",
    );
    assert!(stderr.contains("cannot read config file"), "{stderr}");
    assert_eq!(stdout, "readyok\n");

    std::fs::write(&path, "[options]\nHash = \"lots\"\nThreads = 2\n").unwrap();
    let (stdout, stderr) = run_in(&dir.0, &["--config", path.to_str().unwrap()], "uci\nquit\n");
    assert!(stderr.contains("Hash"), "{stderr}");
    assert!(
        stdout.contains("option name Hash type spin default 16 "),
        "{stdout}"
    );
    assert!(
        stdout.contains("option name Threads type spin default 2 "),
        "{stdout}"
    );
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut engine = Engine::start();
    engine.send("isready");
    engine.until(SOON, |l| l == "readyok");
    engine.close_stdin();
    assert!(engine.wait_exit(SOON).is_some_and(|s| s.success()));
}

/// One field of a one-line JSON object: `"key": value` up to the next `,` or `}`.
fn json_field<'a>(object: &'a str, key: &str) -> Option<&'a str> {
    let start = object.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = object[start..].trim_start();
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim().trim_matches('"'))
}

#[test]
fn the_cute_chess_snippet_offers_the_engines_own_option_ranges() {
    let mut engine = Engine::start();
    let lines = handshake(&mut engine);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine-config/snippets/cutechess-engines.json"
    );
    let snippet = std::fs::read_to_string(path).unwrap();
    let objects: Vec<&str> = snippet
        .lines()
        .filter(|l| l.contains("\"name\":") && l.contains("\"type\":"))
        .collect();
    assert!(objects.len() >= 4, "{snippet}");
    for object in objects {
        let name = json_field(object, "name").unwrap();
        let kind = json_field(object, "type").unwrap();
        let mut expected = format!(
            "option name {name} type {kind} default {}",
            json_field(object, "default").unwrap()
        );
        if kind == "spin" {
            let (min, max) = (json_field(object, "min"), json_field(object, "max"));
            expected += &format!(" min {} max {}", min.unwrap(), max.unwrap());
        }
        assert_eq!(option_line(&lines, name), expected, "{object}");
    }
}
