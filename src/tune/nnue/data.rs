//! Training data streamed from packed files: the whole set when it fits in one chunk,
//! otherwise chunk by chunk in a new random order each epoch, each chunk shuffled in memory.
//! Every `holdout_every`-th record is kept aside to measure the loss on unseen positions.

use super::Rng;
use crate::tune::packed::{ChessBoard, Filter, RECORD, read_chunk};
use std::fs::File;
use std::io::{BufReader, Seek, SeekFrom};
use std::path::PathBuf;

/// The held-out set is capped so measuring it stays cheap.
const MAX_HOLDOUT: usize = 200_000;

struct Chunk {
    file: usize,
    start: usize,
    len: usize,
}

pub struct Dataset {
    files: Vec<PathBuf>,
    chunks: Vec<Chunk>,
    records: usize,
    /// The filtered training positions, when they fit in one chunk.
    cached: Option<Vec<ChessBoard>>,
    holdout: Vec<ChessBoard>,
    holdout_every: usize,
    filter: Filter,
    train_count: usize,
}

impl Dataset {
    pub fn open(
        paths: &[PathBuf],
        chunk: usize,
        holdout_every: usize,
        filter: Filter,
    ) -> Result<Dataset, String> {
        if paths.is_empty() {
            return Err("no training data given (--data)".into());
        }
        let mut chunks = Vec::new();
        let mut records = 0;
        for (file, path) in paths.iter().enumerate() {
            let bytes = std::fs::metadata(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .len() as usize;
            let n = bytes / RECORD;
            for start in (0..n).step_by(chunk.max(1)) {
                chunks.push(Chunk {
                    file,
                    start,
                    len: chunk.min(n - start),
                });
            }
            records += n;
        }
        let mut set = Dataset {
            files: paths.to_vec(),
            chunks,
            records,
            cached: None,
            holdout: Vec::new(),
            holdout_every: holdout_every.max(2),
            filter,
            train_count: 0,
        };
        let single = set.chunks.len() == 1;
        for i in 0..set.chunks.len() {
            let (train, holdout) = set.load(i)?;
            set.train_count += train.len();
            let room = MAX_HOLDOUT - set.holdout.len().min(MAX_HOLDOUT);
            set.holdout.extend(holdout.into_iter().take(room));
            if single {
                set.cached = Some(train);
            }
        }
        if set.train_count == 0 {
            return Err("no position passes the filter".into());
        }
        Ok(set)
    }

    pub fn records(&self) -> usize {
        self.records
    }

    pub fn train_estimate(&self) -> usize {
        self.train_count
    }

    pub fn holdout(&self) -> &[ChessBoard] {
        &self.holdout
    }

    /// Chunk `i`'s positions that pass the filter, split into (training, held out).
    fn load(&self, i: usize) -> Result<(Vec<ChessBoard>, Vec<ChessBoard>), String> {
        let chunk = &self.chunks[i];
        let path = &self.files[chunk.file];
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut reader = BufReader::new(File::open(path).map_err(err)?);
        reader
            .seek(SeekFrom::Start((chunk.start * RECORD) as u64))
            .map_err(err)?;
        let positions = read_chunk(&mut reader, chunk.len).map_err(err)?;
        let (mut train, mut holdout) = (Vec::with_capacity(positions.len()), Vec::new());
        for (k, pos) in positions.into_iter().enumerate() {
            if !self.filter.keeps(&pos) {
                continue;
            }
            if (chunk.start + k).is_multiple_of(self.holdout_every) {
                holdout.push(pos);
            } else {
                train.push(pos);
            }
        }
        Ok((train, holdout))
    }

    /// Calls `f` with each chunk of shuffled training positions: one epoch.
    pub fn for_each_chunk(
        &mut self,
        rng: &mut Rng,
        mut f: impl FnMut(&[ChessBoard]),
    ) -> Result<(), String> {
        if let Some(cached) = self.cached.as_mut() {
            rng.shuffle(cached);
            f(cached);
            return Ok(());
        }
        let mut order: Vec<usize> = (0..self.chunks.len()).collect();
        rng.shuffle(&mut order);
        for i in order {
            let (mut train, _) = self.load(i)?;
            rng.shuffle(&mut train);
            f(&train);
        }
        Ok(())
    }
}
