//! Training data that lasts: datagen's chunks round-trip, are checked against the manifest,
//! damage is named, a killed run's chunks are finished, and the records read the same in the
//! viriformat crate (Viridithas's reference reader) as in ours.

use quintessence::eval::Evaluator;
use quintessence::train::chunks::{self, Manifest};
use quintessence::train::records::GameRecord;
use quintessence::train::selfplay::{self, DatagenConfig};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quintessence-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A few quick games (HCE, few nodes, every third from a DFRC start) into `dir`.
fn generate(dir: &Path, games: usize, chunk_positions: u64) -> u64 {
    let config = DatagenConfig {
        games,
        threads: 2,
        soft_nodes: 200,
        hard_nodes: 800,
        dfrc_percent: 34,
        seed: 5,
        dir: dir.to_path_buf(),
        chunk_positions,
        evaluator: Evaluator::Hce,
        network: "hce".into(),
        ..DatagenConfig::default()
    };
    selfplay::run(&config, 1000, &AtomicBool::new(false), |_| {}).unwrap()
}

fn all_games(dir: &Path) -> Vec<GameRecord> {
    chunks::chunk_files(dir)
        .unwrap()
        .iter()
        .flat_map(|path| chunks::read_games(path).unwrap())
        .collect()
}

#[test]
fn chunks_round_trip_and_verify_against_the_manifest() {
    let dir = scratch_dir("chunks");
    let written = generate(&dir, 8, 300);
    let manifest = Manifest::read(&dir).unwrap();
    assert!(manifest.chunk.len() >= 2, "one stream per thread");
    let games = all_games(&dir);
    assert_eq!(games.len(), 8);
    let positions: u64 = games.iter().map(|g| g.len() as u64).sum();
    assert_eq!(positions, written);
    let mut problems = Vec::new();
    let totals = chunks::verify(&dir, |p| problems.push(p.to_string())).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(totals.positions, written);
    assert_eq!(totals.chunks, manifest.chunk.len() as u64);
    for entry in &manifest.chunk {
        assert_eq!(entry.provenance.seed, 5);
        assert_eq!(entry.provenance.network, "hce");
        assert_eq!(
            entry.provenance.hash_mb,
            Some(DatagenConfig::default().hash_mb)
        );
        assert!(entry.provenance.bench > 0);
        assert_eq!(entry.results.iter().sum::<u64>(), entry.games);
    }
    // Each thread plays its fixed share, however the scheduler ran them.
    for thread in 0..2 {
        let played: u64 = manifest
            .chunk
            .iter()
            .filter(|c| c.provenance.thread == thread)
            .map(|c| c.games)
            .sum();
        assert_eq!(played, 4, "thread {thread}");
    }
    // Every position the trainer gets is one the game passed through.
    for game in &games {
        let mut board = game.start;
        for (pos, (mv, _)) in game.packed().zip(&game.moves) {
            assert_eq!(pos.extra[1] as u32, board.game_ply().min(255));
            board.play(*mv);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_cut_off_and_unlisted_chunks_are_named() {
    let dir = scratch_dir("damage");
    generate(&dir, 4, 1_000_000);
    let files = chunks::chunk_files(&dir).unwrap();
    assert_eq!(files.len(), 2);
    let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();

    // One bit flipped in the middle of the first chunk.
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&files[0], &bytes).unwrap();
    let err = chunks::read_games(&files[0]).unwrap_err();
    assert!(err.contains(&name(&files[0])), "{err}");
    // The second cut short.
    let bytes = std::fs::read(&files[1]).unwrap();
    std::fs::write(&files[1], &bytes[..bytes.len() - 20]).unwrap();
    let err = chunks::read_games(&files[1]).unwrap_err();
    assert!(err.contains("damaged or cut off"), "{err}");
    // A chunk the manifest does not list.
    std::fs::copy(&files[1], dir.join("stray.vf.xz")).unwrap();

    let mut problems = Vec::new();
    let totals = chunks::verify(&dir, |p| problems.push(p.to_string())).unwrap();
    assert_eq!(totals.chunks, 0);
    assert_eq!(problems.len(), 3, "{problems:?}");
    let about = |file: &str| problems.iter().find(|p| p.starts_with(file)).unwrap();
    assert!(about(&name(&files[0])).contains("SHA-256"));
    assert!(about(&name(&files[1])).contains("bytes, the manifest says"));
    assert!(about("stray.vf.xz").ends_with("not in the manifest"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_run_keeps_its_whole_games_and_the_next_run_goes_on() {
    let dir = scratch_dir("resume");
    generate(&dir, 4, 1_000_000);
    let before = Manifest::read(&dir).unwrap();
    // What a kill leaves: a partial chunk whose last game is cut off.
    let games = all_games(&dir);
    let partial = dir.join(chunks::PARTIAL);
    std::fs::create_dir_all(&partial).unwrap();
    let stream = chunks::chunk_name(5, 0, 1);
    let mut provenance = before.chunk[0].provenance.clone();
    provenance.thread = 0;
    provenance.index = 1;
    std::fs::write(
        partial.join(format!("{stream}.toml")),
        toml::to_string(&provenance).unwrap(),
    )
    .unwrap();
    let mut raw = Vec::new();
    games[0].encode(&mut raw);
    games[1].encode(&mut raw);
    let whole = raw.len();
    games[2].encode(&mut raw);
    let mut file = std::fs::File::create(partial.join(format!("{stream}.vf"))).unwrap();
    file.write_all(&raw[..whole + 50]).unwrap();
    drop(file);

    // The next run finishes it first, then writes its own chunks after it.
    generate(&dir, 2, 1_000_000);
    let after = Manifest::read(&dir).unwrap();
    let salvaged: Vec<_> = after.chunk.iter().filter(|c| c.salvaged).collect();
    assert_eq!(salvaged.len(), 1);
    assert_eq!(salvaged[0].file, format!("{stream}.{}", chunks::EXTENSION));
    assert_eq!(salvaged[0].games, 2);
    let rebuilt = chunks::read_games(&dir.join(&salvaged[0].file)).unwrap();
    assert_eq!(rebuilt, games[..2]);
    let thread0: Vec<u32> = after
        .chunk
        .iter()
        .filter(|c| c.provenance.thread == 0)
        .map(|c| c.provenance.index)
        .collect();
    assert_eq!(
        thread0,
        [0, 1, 2],
        "the new run's chunk follows the salvaged one"
    );
    // No chunk is left in progress (the run's lock file stays, unlocked).
    let left: Vec<_> = std::fs::read_dir(&partial)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name != "datagen.lock")
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let mut problems = Vec::new();
    chunks::verify(&dir, |p| problems.push(p.to_string())).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_viriformat_crate_reads_our_records_as_we_do() {
    use viriformat::dataformat::Game;
    let dir = scratch_dir("viriformat");
    generate(&dir, 6, 1_000_000);
    let games = all_games(&dir);
    let mut raw = Vec::new();
    for game in &games {
        game.encode(&mut raw);
    }
    let mut reader = std::io::BufReader::new(&raw[..]);
    let mut positions = 0;
    for game in &games {
        let theirs = Game::deserialise_from(&mut reader, Vec::new()).unwrap();
        assert_eq!(theirs.len(), game.len());
        let expected = match game.result {
            1.0 => viriformat::dataformat::WDL::Win,
            0.5 => viriformat::dataformat::WDL::Draw,
            _ => viriformat::dataformat::WDL::Loss,
        };
        assert!(theirs.outcome() == expected);
        let ours: Vec<(String, i32)> = game
            .positions()
            .map(|(board, score, _)| (board.to_fen(), i32::from(score)))
            .collect();
        let mut i = 0;
        theirs.visit_positions(|board, score| {
            let fen = board.to_string();
            let (our_fen, our_score) = &ours[i];
            // Placement and side to move; the two write castling rights differently.
            let head = |f: &str| f.split(' ').take(2).collect::<Vec<_>>().join(" ");
            assert_eq!(head(&fen), head(our_fen));
            assert_eq!(score, *our_score);
            i += 1;
        });
        positions += i;
    }
    assert!(positions > 100);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_trainer_reads_a_folder_of_chunks_and_refuses_a_damaged_one() {
    use quintessence::train::nnue::{TrainConfig, train};
    use quintessence::train::packed::Filter;
    let dir = scratch_dir("train-chunks");
    let written = generate(&dir, 6, 1_000_000);
    let out = dir.join("net");
    let config = TrainConfig {
        data: vec![dir.clone()],
        hidden: quintessence::eval::nnue::HIDDEN,
        epochs: 2,
        batch: 256,
        holdout_every: 3,
        filter: Filter {
            min_ply: 0,
            ..Filter::default()
        },
        out: out.clone(),
        ..TrainConfig::default()
    };
    let mut lines = Vec::new();
    let reports = train(&config, |line| lines.push(line.to_string())).unwrap();
    assert_eq!(reports.len(), 2);
    assert!(reports[1].holdout_loss.is_finite());
    let expected = format!("{written} positions of 6 games in 2 file(s)");
    assert!(lines[0].starts_with(&expected), "{}", lines[0]);
    assert!(out.join("epoch-2.nnue").exists());

    // A stray chunk (a valid file the manifest does not list) is refused by name, not
    // trained on; so is a listed chunk replaced by another valid one.
    let files = chunks::chunk_files(&dir).unwrap();
    let stray = dir.join("s9-t00-0000.vf.xz");
    std::fs::copy(&files[0], &stray).unwrap();
    let err = train(&config, |_| {}).unwrap_err();
    assert!(
        err.contains("s9-t00-0000.vf.xz") && err.contains("not in manifest.toml"),
        "{err}"
    );
    std::fs::remove_file(&stray).unwrap();
    let (first, second) = (
        std::fs::read(&files[0]).unwrap(),
        std::fs::read(&files[1]).unwrap(),
    );
    std::fs::write(&files[0], &second).unwrap();
    let err = train(&config, |_| {}).unwrap_err();
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        err.contains(&name) && err.contains("damaged or replaced"),
        "{err}"
    );
    std::fs::write(&files[0], &first).unwrap();
    // A listed chunk that is missing is named too.
    std::fs::rename(&files[1], dir.join("aside")).unwrap();
    let err = train(&config, |_| {}).unwrap_err();
    let name = files[1].file_name().unwrap().to_string_lossy().into_owned();
    assert!(err.contains(&name) && err.contains("missing"), "{err}");
    std::fs::rename(dir.join("aside"), &files[1]).unwrap();

    // A chunk cut short stops the training with its name.
    let file = chunks::chunk_files(&dir).unwrap().remove(0);
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let err = train(&config, |_| {}).unwrap_err();
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        err.contains(&name) && err.contains("damaged or replaced"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_runs_chunks_are_imported_verified_and_listed() {
    let from = scratch_dir("import-from");
    let into = scratch_dir("import-into");
    generate(&from, 4, 1_000_000);
    let files = chunks::chunk_files(&from).unwrap();
    // One chunk lost on the way (as when a transfer drops files).
    std::fs::remove_file(&files[1]).unwrap();
    let mut problems = Vec::new();
    let totals = chunks::import(&from, &into, |p| problems.push(p.to_string())).unwrap();
    assert_eq!(totals.chunks, 1);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let mut again = Vec::new();
    chunks::import(&from, &into, |p| again.push(p.to_string())).unwrap();
    assert!(again.iter().any(|p| p.contains("already in")), "{again:?}");
    let mut bad = Vec::new();
    let verified = chunks::verify(&into, |p| bad.push(p.to_string())).unwrap();
    assert!(bad.is_empty(), "{bad:?}");
    assert_eq!(verified, totals);
    let _ = std::fs::remove_dir_all(&from);
    let _ = std::fs::remove_dir_all(&into);
}

/// A second run on a folder that a run is playing into is refused (it would finish the first
/// run's chunks in progress as its own); once the first has stopped, a run may start.
#[test]
fn a_second_run_on_a_busy_folder_is_refused() {
    let dir = scratch_dir("lock");
    let first = chunks::FolderLock::claim(&dir).unwrap();
    let config = DatagenConfig {
        games: 1,
        dir: dir.clone(),
        evaluator: Evaluator::Hce,
        ..DatagenConfig::default()
    };
    let stop = AtomicBool::new(false);
    let refused = selfplay::run(&config, 1, &stop, |_| {}).unwrap_err();
    assert!(refused.contains("another datagen"), "{refused}");
    assert!(chunks::FolderLock::claim(&dir).is_err());
    drop(first);
    assert!(chunks::FolderLock::claim(&dir).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `datagen` stops on SIGTERM with its chunks closed, also when the signal arrives while the
/// process is paused (`kill -STOP`, as when a match needs the cores) and it is continued after.
#[cfg(unix)]
#[test]
fn sigterm_while_paused_stops_datagen_with_its_chunks_closed() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let dir = scratch_dir("sigterm");
    let mut child = Command::new(env!("CARGO_BIN_EXE_quintessence"))
        .args([
            "datagen",
            "--threads",
            "1",
            "--eval",
            "hce",
            "--nodes",
            "300",
        ])
        .arg("--dir")
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    let kill = |signal: &str| {
        let status = Command::new("kill").args([signal, &pid]).status().unwrap();
        assert!(status.success(), "kill {signal}");
    };
    // Let it finish a game or two before pausing it.
    let partial = dir.join(chunks::PARTIAL);
    let started = Instant::now();
    while !has_whole_game(&partial) && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    kill("-STOP");
    kill("-TERM");
    std::thread::sleep(Duration::from_millis(300));
    kill("-CONT");
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("datagen still running 30 s after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut log = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut log).unwrap();
    assert!(status.success(), "{status}: {log}");
    assert!(log.contains("stopping"), "{log}");
    let manifest = Manifest::read(&dir).unwrap();
    assert_eq!(manifest.chunk.len(), 1, "{log}");
    assert!(manifest.chunk[0].games >= 1);
    let mut problems = Vec::new();
    chunks::verify(&dir, |p| problems.push(p.to_string())).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether a chunk in progress in `partial` holds at least one whole game's bytes.
#[cfg(unix)]
fn has_whole_game(partial: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(partial) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let name = entry.file_name();
        name.to_string_lossy().ends_with(".vf") && entry.metadata().is_ok_and(|m| m.len() > 200)
    })
}
