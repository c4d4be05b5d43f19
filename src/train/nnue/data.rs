//! The training set: every source decoded once into one array of packed positions, shuffled as
//! a whole each epoch, so positions of different sources (old and new games, other engines'
//! evaluations) are mixed in every batch. Whole games are held out, so the held-out loss is
//! measured on positions whose neighbours the network never saw.
//!
//! Sources: a folder (its chunks, `*.vf.xz`), a chunk, or a packed file (`datagen --convert`,
//! or datagen's output before chunks). A packed file has no game boundaries; a game there is a
//! run of positions whose plies follow one another, as datagen wrote them.

use crate::train::chunks;
use crate::train::packed::{ChessBoard, Filter, RECORD, read_chunk};
use crate::types::Rng;
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

impl Split {
    fn add_game(&mut self, positions: impl IntoIterator<Item = ChessBoard>) {
        let held = (self.set.games + 1).is_multiple_of(self.holdout_every);
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
        for path in &files {
            if chunks::is_chunk(path) {
                for game in chunks::read_games(path)? {
                    split.add_game(game.packed());
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

/// The files of `paths`, folders replaced by their chunk files.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(chunks::chunk_files(path)?);
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
                split.add_game(game.drain(..));
            }
            game.push(pos);
        }
    }
    if !game.is_empty() {
        split.add_game(game);
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
    fn whole_games_of_a_packed_file_are_held_out() {
        // Three games: plies 0-9, 0-4 and 3-19.
        let games: Vec<Vec<ChessBoard>> = [(0, 10), (0, 5), (3, 20)]
            .iter()
            .map(|&(from, to)| (from..to).map(at_ply).collect())
            .collect();
        let path = std::env::temp_dir().join(format!("qdata-{}.bin", std::process::id()));
        let all: Vec<ChessBoard> = games.concat();
        std::fs::write(&path, packed::to_bytes(&all)).unwrap();
        let filter = Filter {
            min_ply: 0,
            ..Filter::default()
        };
        let set = Dataset::open(std::slice::from_ref(&path), 2, filter).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(set.games(), 3);
        assert_eq!(set.records(), 32);
        // Game 1 held out, games 0 and 2 trained on.
        assert_eq!(set.holdout().len(), 5);
        assert_eq!(set.train_len(), 10 + 17);
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
