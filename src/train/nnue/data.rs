//! The training set: every source decoded once into one array of packed positions, shuffled as
//! a whole each epoch, so positions of different sources (old and new games, other engines'
//! evaluations) are mixed in every batch. Whole games are held out, so the held-out loss is
//! measured on positions whose neighbours the network never saw; which games is decided by a
//! hash of the file's name and the game's number in it, so a game is held out in every run that
//! reads its file, whatever else is read beside it, and held-out losses compare across runs.
//!
//! Sources: a folder (its chunks, `*.vf.xz`, each checked against the folder's manifest), a
//! chunk (checked against the manifest beside it), or a packed file (`datagen --convert`, or
//! datagen's output before chunks). A packed file has no game boundaries; a game there is a
//! run of positions whose plies follow one another, as datagen wrote them.

use crate::train::chunks::{self, Manifest};
use crate::train::packed::{ChessBoard, Filter, RECORD, read_chunk};
use crate::types::{Rng, splitmix64};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

pub struct Dataset {
    train: Vec<ChessBoard>,
    holdout: Vec<ChessBoard>,
    /// Positions read, before the filter.
    records: usize,
    games: usize,
    files: usize,
}

/// Where positions go while sources are read: one game in `holdout_every` is held out.
struct Split {
    set: Dataset,
    filter: Filter,
    holdout_every: usize,
}

/// Whether game `index` of the file named `file` is held out: one game in `every`.
pub fn held_out(file: &str, index: usize, every: usize) -> bool {
    // FNV-1a over the name, then SplitMix64 to spread name and index over every bit.
    let mut state = file.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    splitmix64(&mut state).is_multiple_of(every as u64)
}

impl Split {
    /// Adds game `index` of the file named `file`.
    fn add_game(
        &mut self,
        file: &str,
        index: usize,
        positions: impl IntoIterator<Item = ChessBoard>,
    ) {
        let held = held_out(file, index, self.holdout_every);
        self.set.games += 1;
        for pos in positions {
            self.set.records += 1;
            if self.filter.keeps(&pos) {
                match held {
                    true => self.set.holdout.push(pos),
                    false => self.set.train.push(pos),
                }
            }
        }
    }
}

impl Dataset {
    /// Reads every source in `paths` (folders are expanded to their chunks, by name).
    pub fn open(
        paths: &[PathBuf],
        holdout_every: usize,
        filter: Filter,
    ) -> Result<Dataset, String> {
        let files = expand(paths)?;
        if files.is_empty() {
            return Err("no training data given (--data)".into());
        }
        let mut split = Split {
            set: Dataset {
                train: Vec::new(),
                holdout: Vec::new(),
                records: 0,
                games: 0,
                files: files.len(),
            },
            filter,
            holdout_every: holdout_every.max(2),
        };
        // The manifest of the folder being read (a folder's chunks come one after another).
        let mut manifest: Option<(PathBuf, Manifest)> = None;
        for path in &files {
            let name = file_name(path);
            if chunks::is_chunk(path) {
                let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
                if manifest.as_ref().is_none_or(|(d, _)| *d != dir) {
                    manifest = Some((dir.clone(), Manifest::read(&dir)?));
                }
                let (_, listed) = manifest.as_ref().expect("just read");
                for (index, game) in chunks::read_listed_games(path, listed)?.iter().enumerate() {
                    split.add_game(name, index, game.packed());
                }
            } else {
                read_packed(path, &mut split)?;
            }
        }
        if split.set.train.is_empty() {
            return Err("no position passes the filter".into());
        }
        split.set.train.shrink_to_fit();
        Ok(split.set)
    }

    /// Positions read (before the filter).
    pub fn records(&self) -> usize {
        self.records
    }

    pub fn games(&self) -> usize {
        self.games
    }

    pub fn files(&self) -> usize {
        self.files
    }

    pub fn train_len(&self) -> usize {
        self.train.len()
    }

    pub fn holdout(&self) -> &[ChessBoard] {
        &self.holdout
    }

    /// The training positions in a new random order: one epoch.
    pub fn epoch(&mut self, rng: &mut Rng) -> &[ChessBoard] {
        rng.shuffle(&mut self.train);
        &self.train
    }
}

fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// The files of `paths`, folders replaced by the chunk files their manifests list.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(chunks::listed_chunk_files(path, &Manifest::read(path)?)?);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// A packed file, a block at a time (no second copy of the file in memory), split into games
/// where the ply does not follow.
fn read_packed(path: &Path, split: &mut Split) -> Result<(), String> {
    const BLOCK: usize = 1 << 16;
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let bytes = std::fs::metadata(path).map_err(err)?.len() as usize;
    let mut reader = BufReader::new(File::open(path).map_err(err)?);
    split.set.train.reserve(bytes / RECORD);
    let name = file_name(path);
    let mut index = 0;
    let mut game: Vec<ChessBoard> = Vec::new();
    loop {
        let block = read_chunk(&mut reader, BLOCK).map_err(err)?;
        if block.is_empty() {
            break;
        }
        for pos in block {
            let ply = pos.extra[1];
            let follows = game
                .last()
                .is_some_and(|last| ply == last.extra[1].saturating_add(1) || ply == u8::MAX);
            if !follows && !game.is_empty() {
                split.add_game(name, index, game.drain(..));
                index += 1;
            }
            game.push(pos);
        }
    }
    if !game.is_empty() {
        split.add_game(name, index, game);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::train::packed;

    /// A packed position at `ply` (the start position's pieces; only the ply matters here).
    fn at_ply(ply: u32) -> ChessBoard {
        let side = if ply.is_multiple_of(2) { "w" } else { "b" };
        let fen = format!(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR {side} KQkq - 0 {}",
            ply / 2 + 1
        );
        packed::pack(&Board::from_fen(&fen).unwrap(), 0, 0.5, 0)
    }

    #[test]
    fn whole_games_of_a_packed_file_are_held_out_by_name_and_number() {
        // Three games: plies 0-9, 0-4 and 3-19.
        let games: Vec<Vec<ChessBoard>> = [(0, 10), (0, 5), (3, 20)]
            .iter()
            .map(|&(from, to)| (from..to).map(at_ply).collect())
            .collect();
        let dir = std::env::temp_dir().join(format!("qdata-held-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.bin");
        std::fs::write(&path, packed::to_bytes(&games.concat())).unwrap();
        let filter = Filter {
            min_ply: 0,
            ..Filter::default()
        };
        let set = Dataset::open(std::slice::from_ref(&path), 2, filter).unwrap();
        assert_eq!(set.games(), 3);
        assert_eq!(set.records(), 32);
        let held: usize = (0..3)
            .filter(|&i| held_out("games.bin", i, 2))
            .map(|i| games[i].len())
            .sum();
        assert_eq!(set.holdout().len(), held);
        assert_eq!(set.train_len(), 32 - held);

        // Another file read first changes nothing about which of these games are held out.
        let other = dir.join("other.bin");
        // Six games of plies 0-6, told apart from ours by their score.
        let more: Vec<ChessBoard> = (0..42)
            .map(|g| ChessBoard {
                score: 7,
                ..at_ply(g % 7)
            })
            .collect();
        std::fs::write(&other, packed::to_bytes(&more)).unwrap();
        let both = Dataset::open(&[other, path], 2, filter).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let plies = |positions: &[ChessBoard]| {
            let mut plies: Vec<u8> = positions
                .iter()
                .filter(|p| p.score == 0)
                .map(|p| p.extra[1])
                .collect();
            plies.sort();
            plies
        };
        assert_eq!(both.games(), 3 + 6);
        assert_eq!(plies(both.holdout()), plies(set.holdout()));
    }

    #[test]
    fn one_game_in_n_is_held_out_spread_over_files_and_numbers() {
        for every in [2usize, 10, 100] {
            let held = (0..20_000)
                .filter(|&i| held_out(&format!("s1-t{:02}-0000.vf.xz", i % 16), i / 16, every))
                .count();
            let expected = 20_000 / every;
            assert!(
                held.abs_diff(expected) * 10 < expected + 40,
                "1 in {every}: {held} of 20 000"
            );
        }
        assert_ne!(
            (0..64)
                .map(|i| held_out("a.vf.xz", i, 2))
                .collect::<Vec<_>>(),
            (0..64)
                .map(|i| held_out("b.vf.xz", i, 2))
                .collect::<Vec<_>>(),
        );
    }

    #[test]
    fn an_epoch_mixes_the_sources() {
        let dir = std::env::temp_dir().join(format!("qdata-mix-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Two files, one game of 100 positions each, told apart by their plies.
        let paths: Vec<PathBuf> = [0u32, 100]
            .iter()
            .map(|&first| {
                let path = dir.join(format!("{first}.bin"));
                let game: Vec<ChessBoard> = (first..first + 100).map(at_ply).collect();
                std::fs::write(&path, packed::to_bytes(&game)).unwrap();
                path
            })
            .collect();
        let filter = Filter {
            min_ply: 0,
            ..Filter::default()
        };
        // A game in a million is held out: none here.
        let mut set = Dataset::open(&paths, 1_000_000, filter).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(set.train_len(), 200);
        let epoch = set.epoch(&mut Rng::new(1));
        let second = |p: &ChessBoard| p.extra[1] >= 100;
        let first_half = epoch[..100].iter().filter(|p| second(p)).count();
        assert!((30..=70).contains(&first_half), "{first_half} of 100");
    }
}
