//! The command line: `bench`, `perft`, `--help`, and errors for bad arguments.

use crate::harness::{BIN, TempDir};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    let dir = TempDir::new(&format!(
        "cli-{}",
        args.join("-").replace(['/', ' ', '"'], "_")
    ));
    Command::new(BIN)
        .args(args)
        .current_dir(&dir.0)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn bench_ends_with_a_deterministic_openbench_line() {
    let signature = |output: &Output| -> u64 {
        assert!(output.status.success());
        let out = stdout(output);
        let last = out.lines().last().expect("a line on stdout");
        let words: Vec<&str> = last.split(' ').collect();
        assert_eq!(
            (words.len(), words[1], words[3]),
            (4, "nodes", "nps"),
            "{last}"
        );
        words[2].parse::<u64>().unwrap();
        words[0].parse().unwrap()
    };
    let first = run(&["bench", "1"]);
    let progress = stderr(&first);
    assert!(
        progress.contains("Position  1/"),
        "per-position progress on stderr: {progress}"
    );
    assert_eq!(
        stdout(&first).lines().count(),
        1,
        "stdout holds only the result line"
    );
    let second = run(&["bench", "1"]);
    assert_eq!(
        signature(&first),
        signature(&second),
        "the bench signature is deterministic"
    );
}

#[test]
fn perft_counts_per_root_move_and_in_total() {
    let output = run(&["perft", "3"]);
    assert!(output.status.success());
    let out = stdout(&output);
    assert!(
        out.contains("\ne2e4: 600\n") || out.starts_with("e2e4: 600\n"),
        "{out}"
    );
    assert!(out.contains("\nNodes searched: 8902\n"), "{out}");
    assert!(out.contains("Nodes/second: "), "{out}");

    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let output = run(&["perft", "2", "--fen", kiwipete, "--attacks", "rotated"]);
    assert!(
        stdout(&output).contains("Nodes searched: 2039\n"),
        "{}",
        stdout(&output)
    );
    assert!(stdout(&output).contains("(rotated)"));

    let output = run(&[
        "perft",
        "1",
        "--fen",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "--chess960",
    ]);
    let out = stdout(&output);
    assert!(
        out.contains("e1h1: 1\n") && out.contains("e1a1: 1\n"),
        "{out}"
    );
}

#[test]
fn bad_arguments_are_explained_not_panicked_on() {
    for args in [
        &["perft"][..],
        &["perft", "x"],
        &["perft", "2", "--fen", "nonsense"],
        &["perft", "2", "--attacks", "nonsense"],
        &["perft", "2", "--bogus"],
        &["bench", "x"],
        &["frobnicate"],
        &["--config"],
        &["datagen", "--games", "x"],
        &["datagen", "--bogus", "1"],
        &["tune", "--epochs"],
        &["tune", "--data", "/nonexistent/data.txt"],
        &["go", "not a fen"],
        &["go", "8/8/8/8/8/8/8/K1k5 w - - 0 1", "x"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        assert!(err.starts_with("quintessence"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_describes_the_modes() {
    let output = run(&["--help"]);
    assert!(output.status.success());
    let out = stdout(&output);
    for needle in [
        "UCI", "bench", "perft", "datagen", "tune", "train", "eval", "go", "tbprobe", "magics",
        "compiler", "--config",
    ] {
        assert!(out.contains(needle), "{needle} in {out}");
    }
}

#[test]
fn every_subcommand_has_help_naming_its_options() {
    for (command, needles) in [
        (
            "datagen",
            &[
                "--games",
                "--threads",
                "--nodes",
                "--seed",
                "--dir",
                "--verify",
                "--import-packed",
                "--out",
            ][..],
        ),
        (
            "tune",
            &["--data", "--epochs", "--lr", "--lambda", "--reg", "--out"],
        ),
        ("perft", &["<DEPTH>", "--fen", "--attacks", "--chess960"]),
        ("bench", &["[DEPTH]", "default: 11"]),
        ("go", &["[FEN]", "[DEPTH]"]),
        ("eval", &["[FEN]"]),
        ("tbprobe", &["<FOLDERS>"]),
        ("magics", &["magic"]),
        ("compiler", &["version", "kernel"]),
    ] {
        let output = run(&[command, "--help"]);
        let out = stdout(&output);
        assert!(
            output.status.success(),
            "{command} --help: {}",
            stderr(&output)
        );
        for needle in needles {
            assert!(out.contains(needle), "{needle} in {command} --help: {out}");
        }
    }
}

#[test]
fn errors_name_the_argument_and_the_value() {
    for (args, needles) in [
        (&["datagen", "--games", "x"][..], &["--games", "'x'"][..]),
        (&["datagen", "--bogus", "1"], &["--bogus"]),
        (&["tune", "--epochs"], &["--epochs", "value"]),
        (
            &["perft", "2", "--attacks", "nonsense"],
            &["nonsense", "magic"],
        ),
        (&["bench", "99"], &["99", "1..=64"]),
    ] {
        let err = stderr(&run(args));
        for needle in needles {
            assert!(err.contains(needle), "{needle} for {args:?}: {err}");
        }
    }
}

#[test]
fn a_closed_stdout_ends_a_tool_quietly() {
    // The read end is closed before the tool starts, so its first write meets a broken pipe.
    for args in [
        &["compiler"][..],
        &["perft", "1"],
        &["bench", "1"],
        &["--help"],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let output = Command::new(BIN)
            .args(args)
            .stdout(writer)
            .output()
            .expect("the binary runs");
        let err = stderr(&output);
        assert!(
            !err.contains("internal error") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
        assert!(output.status.success(), "{args:?}: {:?}", output.status);
    }
}
