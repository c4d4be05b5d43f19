//! `datagen --from-pgn`: every game of OpenBench PGNs replayed (`mod.rs`) into chunks of a data
//! folder, listed in its manifest with the workload they came from; refused games are reported
//! by number and reason, and each finished chunk is read back against the manifest.

use super::sources::for_each_text;
use super::{replay, split_games};
use crate::train::chunks::{self, ChunkEntry, ChunkWriter, FolderLock, Manifest, Provenance};
use crate::train::records::GameRecord;
use std::path::PathBuf;

/// What to import, and where.
pub struct PgnImport {
    /// A PGN file, a `.pgn.bz2`, a `.tar` of them, or a folder of any of these.
    pub input: PathBuf,
    /// The data folder (chunks and manifest).
    pub dir: PathBuf,
    /// The workload's name, for the manifest (`source`); an import of the same name and file
    /// again is refused.
    pub workload: String,
    /// Chunks are named by this seed (thread 0, numbered on from the folder's last).
    pub seed: u64,
    /// A new chunk starts after this many positions.
    pub chunk_positions: u64,
}

/// What an import did.
#[derive(Debug, Default, PartialEq)]
pub struct Tally {
    pub games: u64,
    pub refused: u64,
    pub positions: u64,
    pub chunks: Vec<ChunkEntry>,
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{} games imported ({} refused), {} positions in {} chunks",
            self.games,
            self.refused,
            self.positions,
            self.chunks.len()
        )
    }
}

impl PgnImport {
    /// The manifest's `source` of these chunks.
    pub fn source(&self) -> String {
        let file = self.input.file_name().map_or_else(
            || self.input.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        format!("OpenBench workload {} ({file})", self.workload)
    }

    /// Imports every game; `report` hears of each refused game and each chunk written.
    pub fn run(&self, report: &mut dyn FnMut(&str)) -> Result<Tally, String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let _claim = FolderLock::claim(&self.dir)?;
        let manifest = Manifest::read(&self.dir)?;
        let source = self.source();
        if manifest
            .chunk
            .iter()
            .any(|c| c.provenance.source.as_ref() == Some(&source))
        {
            return Err(format!(
                "{}: {source} is imported already",
                self.dir.display()
            ));
        }
        let mut out = Output {
            import: self,
            source,
            index: chunks::next_index(&self.dir, &manifest, self.seed, 0),
            writer: None,
            tally: Tally::default(),
        };
        let (mut number, mut skipped) = (0u64, Vec::new());
        for_each_text(
            &self.input,
            &mut |name, text| {
                for game in split_games(text) {
                    number += 1;
                    match replay(&game) {
                        Ok(record) => out.add(&record, &game_engine(&game.tags), report)?,
                        Err(why) => {
                            out.tally.refused += 1;
                            report(&format!(
                                "game {number} ({name}, line {}) refused: {why}",
                                game.line
                            ));
                        }
                    }
                }
                Ok(())
            },
            &mut |path| skipped.push(path.to_path_buf()),
        )?;
        out.finish(report)?;
        for path in skipped {
            report(&format!(
                "{}: not a .pgn, .pgn.bz2 or .tar: passed over",
                path.display()
            ));
        }
        Ok(out.tally)
    }
}

/// The engine that played, for the manifest: the White tag (datagen games are one engine
/// against itself).
fn game_engine(tags: &[String]) -> String {
    tags.iter()
        .filter_map(|line| super::parse_tag(line).ok())
        .find(|(name, _)| name == "White")
        .map_or_else(|| "unknown".to_string(), |(_, value)| value)
}

/// The chunk being written and what is done so far.
struct Output<'a> {
    import: &'a PgnImport,
    source: String,
    index: u32,
    writer: Option<ChunkWriter>,
    tally: Tally,
}

impl Output<'_> {
    fn add(
        &mut self,
        game: &GameRecord,
        engine: &str,
        report: &mut dyn FnMut(&str),
    ) -> Result<(), String> {
        if self.writer.is_none() {
            let provenance = Provenance {
                engine: format!("{engine} (OpenBench PGN)"),
                network: "unknown".to_string(),
                seed: self.import.seed,
                source: Some(self.source.clone()),
                index: self.index,
                started: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
                ..Provenance::default()
            };
            self.writer = Some(ChunkWriter::create(&self.import.dir, provenance)?);
            self.index += 1;
        }
        let writer = self.writer.as_mut().expect("a chunk in progress");
        writer.add(game)?;
        self.tally.games += 1;
        self.tally.positions += game.len() as u64;
        if writer.positions() >= self.import.chunk_positions {
            self.finish(report)?;
        }
        Ok(())
    }

    /// Finishes the chunk in progress and reads it back against the manifest.
    fn finish(&mut self, report: &mut dyn FnMut(&str)) -> Result<(), String> {
        let Some(writer) = self.writer.take() else {
            return Ok(());
        };
        let Some(entry) = writer.finish()? else {
            return Ok(());
        };
        let dir = &self.import.dir;
        let games = chunks::read_listed_games(&dir.join(&entry.file), &Manifest::read(dir)?)?;
        if games.len() as u64 != entry.games {
            return Err(format!(
                "{}: {} games read back, {} written",
                entry.file,
                games.len(),
                entry.games
            ));
        }
        report(&format!(
            "chunk {}: {} games, {} positions, {} bytes",
            entry.file, entry.games, entry.positions, entry.bytes
        ));
        self.tally.chunks.push(entry);
        Ok(())
    }
}
