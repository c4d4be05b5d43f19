//! Training data that lasts: self-play game records (`records.rs`) in xz-compressed chunks,
//! each listed with its SHA-256 and provenance in the folder's `manifest.toml`, so chunks can be
//! committed and every network rebuilt from a clone.
//!
//! Compression is xz (LZMA2, preset 9e, with literal and position bits set for the records'
//! 4-byte fields), measured on 34 511 self-play positions: 2.83 bytes a position, where zstd
//! at level 19 or 22 left 3.44. A chunk is a plain `.xz` file: `xz -d` gives records that
//! bullet and Viridithas's tools read.
//!
//! A chunk is written first as a plain record file under `partial/`, each game appended whole
//! and flushed, beside a `.toml` with its provenance. Finishing it compresses the records to
//! `<name>.vf.xz` (with the container's CRC-64), then appends its entry to the
//! manifest. A partial file left by a killed run is finished by the next run (`salvage`), its
//! last, cut-off game dropped.

use crate::train::records::{self, GameRecord};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub const MANIFEST: &str = "manifest.toml";
pub const PARTIAL: &str = "partial";
/// The file in [`PARTIAL`] a playing run holds locked.
const LOCK: &str = "datagen.lock";

/// One playing run's claim on a data folder, held until dropped: a second run on the same
/// folder would finish the first one's chunks in progress as its own (and list them twice).
/// The file stays behind, unlocked; only the lock on it matters.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

impl FolderLock {
    pub fn claim(dir: &Path) -> Result<FolderLock, String> {
        let partial = dir.join(PARTIAL);
        fs::create_dir_all(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
        let path = partial.join(LOCK);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(FolderLock { _file: file }),
            Err(fs::TryLockError::WouldBlock) => Err(format!(
                "{}: another datagen is playing into this folder (wait until it has stopped)",
                dir.display()
            )),
            Err(fs::TryLockError::Error(e)) => Err(format!("{}: {e}", path.display())),
        }
    }
}
pub const EXTENSION: &str = "vf.xz";

/// Where a chunk came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// Engine version and commit of the binary that played (`0.1.0+9c926fb`).
    pub engine: String,
    /// The bench signature of that binary with the evaluation the games used.
    pub bench: u64,
    /// The evaluation: the network's SHA-256 (first 16 hex digits) and where it came from.
    pub network: String,
    pub soft_nodes: u64,
    pub hard_nodes: u64,
    pub random_plies: usize,
    /// Per cent of the games started from a double Fischer random position.
    pub dfrc_percent: u32,
    pub syzygy: bool,
    /// Per cent of the games reaching the tables that played on past the hit (absent: none,
    /// before the playout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tb_playout_percent: Option<u32>,
    /// The transposition table of each game's searches, MB (absent: 16, before `--hash`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash_mb: Option<usize>,
    pub seed: u64,
    /// Where games not played by datagen came from (`datagen --from-pgn`: the workload and
    /// its file); absent for datagen's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub thread: usize,
    /// The chunk's number in its (seed, thread) stream.
    pub index: u32,
    /// UTC, when the chunk's first game started.
    pub started: String,
}

/// A finished chunk's entry in the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChunkEntry {
    pub file: String,
    pub sha256: String,
    pub bytes: u64,
    pub games: u64,
    pub positions: u64,
    /// White wins, draws, Black wins.
    pub results: [u64; 3],
    pub finished: String,
    /// Finished from a partial file a killed run left.
    #[serde(default)]
    pub salvaged: bool,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    #[serde(default)]
    pub chunk: Vec<ChunkEntry>,
}

impl Manifest {
    /// The manifest of `dir` (empty when there is none yet).
    pub fn read(dir: &Path) -> Result<Manifest, String> {
        let path = dir.join(MANIFEST);
        match fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Manifest::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Appends one entry (a `[[chunk]]` table: appending keeps the file valid TOML, and
    /// manifests from two machines merge by concatenation).
    fn append(dir: &Path, entry: &ChunkEntry) -> Result<(), String> {
        static LOCK: Mutex<()> = Mutex::new(());
        let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let path = dir.join(MANIFEST);
        let table = toml::to_string(&Manifest {
            chunk: vec![entry.clone()],
        })
        .map_err(|e| e.to_string())?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.write_all(format!("\n{table}").as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The file name of chunk `index` of a (seed, thread) stream.
pub fn chunk_name(seed: u64, thread: usize, index: u32) -> String {
    format!("s{seed}-t{thread:02}-{index:04}")
}

/// The first unused chunk number of a (seed, thread) stream.
pub fn next_index(dir: &Path, manifest: &Manifest, seed: u64, thread: usize) -> u32 {
    let listed = manifest
        .chunk
        .iter()
        .filter(|c| c.provenance.seed == seed && c.provenance.thread == thread)
        .map(|c| c.provenance.index + 1)
        .max()
        .unwrap_or(0);
    (listed..)
        .find(|&i| {
            let name = chunk_name(seed, thread, i);
            !dir.join(format!("{name}.{}", EXTENSION)).exists()
        })
        .expect("a free chunk number")
}

/// A chunk being written.
pub struct ChunkWriter {
    dir: PathBuf,
    name: String,
    file: File,
    positions: u64,
    buffer: Vec<u8>,
}

impl ChunkWriter {
    /// Starts chunk `provenance.index` of its stream in `dir`.
    pub fn create(dir: &Path, provenance: Provenance) -> Result<ChunkWriter, String> {
        let name = chunk_name(provenance.seed, provenance.thread, provenance.index);
        let partial = dir.join(PARTIAL);
        fs::create_dir_all(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
        let meta = partial.join(format!("{name}.toml"));
        let text = toml::to_string(&provenance).map_err(|e| e.to_string())?;
        fs::write(&meta, text).map_err(|e| format!("{}: {e}", meta.display()))?;
        let path = partial.join(format!("{name}.vf"));
        let file = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(ChunkWriter {
            dir: dir.to_path_buf(),
            name,
            file,
            positions: 0,
            buffer: Vec::new(),
        })
    }

    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// Appends a whole game and flushes it to the file.
    pub fn add(&mut self, game: &GameRecord) -> Result<(), String> {
        self.buffer.clear();
        game.encode(&mut self.buffer);
        self.file
            .write_all(&self.buffer)
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.positions += game.len() as u64;
        Ok(())
    }

    /// Compresses the chunk into `dir` and lists it in the manifest; an empty chunk is dropped.
    /// Returns the entry written, if any.
    pub fn finish(self) -> Result<Option<ChunkEntry>, String> {
        drop(self.file);
        finish_partial(&self.dir, &self.name, false)
    }
}

fn result_index(result_white: f32) -> usize {
    (2.0 - 2.0 * result_white).round() as usize
}

fn now() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Compresses `partial/<name>.vf` (its whole games) into `<name>.vf.xz`, appends the entry to
/// the manifest and removes the partial files.
fn finish_partial(dir: &Path, name: &str, salvaged: bool) -> Result<Option<ChunkEntry>, String> {
    let partial = dir.join(PARTIAL);
    let raw_path = partial.join(format!("{name}.vf"));
    let meta_path = partial.join(format!("{name}.toml"));
    let err = |p: &Path, e: &dyn std::fmt::Display| format!("{}: {e}", p.display());
    let provenance: Provenance =
        toml::from_str(&fs::read_to_string(&meta_path).map_err(|e| err(&meta_path, &e))?)
            .map_err(|e| err(&meta_path, &e))?;
    let raw = fs::read(&raw_path).map_err(|e| err(&raw_path, &e))?;
    // Whole games only: a killed run may have cut the last one short.
    let (mut games, mut whole) = (Vec::new(), 0);
    while whole < raw.len() {
        match GameRecord::decode(&raw[whole..]) {
            Ok((game, used)) => {
                games.push(game);
                whole += used;
            }
            Err(_) if salvaged => break,
            Err(e) => return Err(err(&raw_path, &e)),
        }
    }
    let cleanup = || {
        let _ = fs::remove_file(&raw_path);
        let _ = fs::remove_file(&meta_path);
    };
    if games.is_empty() {
        cleanup();
        return Ok(None);
    }
    let file = format!("{name}.{EXTENSION}");
    let path = dir.join(&file);
    if path.exists() {
        return Err(format!("{}: exists already", path.display()));
    }
    let compressed = compress(&raw[..whole])?;
    let tmp = dir.join(format!("{file}.tmp"));
    fs::write(&tmp, &compressed)
        .and_then(|()| File::open(&tmp)?.sync_all())
        .and_then(|()| fs::rename(&tmp, &path))
        .map_err(|e| err(&path, &e))?;
    let mut results = [0; 3];
    for game in &games {
        results[result_index(game.result)] += 1;
    }
    let entry = ChunkEntry {
        file,
        sha256: sha256_hex(&compressed),
        bytes: compressed.len() as u64,
        games: games.len() as u64,
        positions: games.iter().map(|g| g.len() as u64).sum(),
        results,
        finished: now(),
        salvaged,
        provenance,
    };
    Manifest::append(dir, &entry)?;
    cleanup();
    Ok(Some(entry))
}

fn compress(raw: &[u8]) -> Result<Vec<u8>, String> {
    use liblzma::stream::{Check, Filters, LzmaOptions, Stream};
    let mut options =
        LzmaOptions::new_preset(9 | liblzma::stream::PRESET_EXTREME).map_err(|e| e.to_string())?;
    options
        .literal_context_bits(0)
        .literal_position_bits(2)
        .position_bits(2);
    let mut filters = Filters::new();
    filters.lzma2(&options);
    let stream = Stream::new_stream_encoder(&filters, Check::Crc64).map_err(|e| e.to_string())?;
    let mut encoder = liblzma::write::XzEncoder::new_stream(Vec::new(), stream);
    encoder.write_all(raw).map_err(|e| e.to_string())?;
    encoder.finish().map_err(|e| e.to_string())
}

/// Finishes the partial chunks a killed run left in `dir`; returns their entries.
pub fn salvage(dir: &Path) -> Result<Vec<ChunkEntry>, String> {
    let partial = dir.join(PARTIAL);
    let Ok(entries) = fs::read_dir(&partial) else {
        return Ok(Vec::new());
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".toml"))
                .map(str::to_string)
        })
        .collect();
    names.sort();
    let mut finished = Vec::new();
    for name in names {
        if let Some(entry) = finish_partial(dir, &name, true)? {
            finished.push(entry);
        }
    }
    Ok(finished)
}

/// The games of a chunk that `manifest` (its folder's) lists with this size and SHA-256: a
/// stray file or another version of a listed one is refused by name, never trained on.
pub fn read_listed_games(path: &Path, manifest: &Manifest) -> Result<Vec<GameRecord>, String> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let refuse = |why: String| format!("{}: {why}", path.display());
    let entry = manifest
        .chunk
        .iter()
        .find(|e| e.file == name)
        .ok_or_else(|| refuse(format!("not in {}", MANIFEST)))?;
    let bytes = fs::read(path).map_err(|e| refuse(e.to_string()))?;
    check_listed_bytes(&bytes, entry).map_err(refuse)?;
    decode_chunk(&bytes).map_err(refuse)
}

/// The chunk files `dir`'s manifest lists, sorted by name; one it lists that is not
/// there, or a chunk file it does not list, is an error naming the file.
pub fn listed_chunk_files(dir: &Path, manifest: &Manifest) -> Result<Vec<PathBuf>, String> {
    let listed: std::collections::HashSet<&str> =
        manifest.chunk.iter().map(|e| e.file.as_str()).collect();
    for path in chunk_files(dir)? {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !listed.contains(name) {
            return Err(format!("{}: not in {MANIFEST}", path.display()));
        }
    }
    let mut files: Vec<PathBuf> = manifest.chunk.iter().map(|e| dir.join(&e.file)).collect();
    files.sort();
    files.dedup();
    match files.iter().find(|p| !p.exists()) {
        Some(missing) => Err(format!(
            "{}: listed in {MANIFEST} but missing",
            missing.display()
        )),
        None => Ok(files),
    }
}

/// The games of a chunk file. A damaged or cut-off file is refused with the reason.
pub fn read_games(path: &Path) -> Result<Vec<GameRecord>, String> {
    let compressed = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    decode_chunk(&compressed).map_err(|e| format!("{}: {e}", path.display()))
}

fn decode_chunk(compressed: &[u8]) -> Result<Vec<GameRecord>, String> {
    let mut raw = Vec::new();
    liblzma::read::XzDecoder::new(compressed)
        .read_to_end(&mut raw)
        .map_err(|e| format!("damaged or cut off (xz: {e})"))?;
    records::decode_all(&raw)
}

/// The chunk files of `dir`, sorted by name.
pub fn chunk_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_chunk(p))
        .collect();
    files.sort();
    Ok(files)
}

pub fn is_chunk(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(&format!(".{EXTENSION}")))
}

/// What `verify` found.
#[derive(Debug, Default, PartialEq)]
pub struct Totals {
    pub chunks: u64,
    pub games: u64,
    pub positions: u64,
    pub bytes: u64,
}

impl std::fmt::Display for Totals {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{} positions in {} chunks, {} bytes",
            self.positions, self.chunks, self.bytes
        )
    }
}

/// Checks every chunk of `dir` against the manifest (the file is there, its size, SHA-256,
/// games and positions match, every game decodes) and that every chunk file is listed.
/// Each problem is reported through `problem`; the totals cover the chunks that verified.
pub fn verify(dir: &Path, mut problem: impl FnMut(&str)) -> Result<Totals, String> {
    let manifest = Manifest::read(dir)?;
    let mut totals = Totals::default();
    let mut listed = std::collections::HashSet::new();
    for entry in &manifest.chunk {
        if !listed.insert(entry.file.clone()) {
            problem(&format!("{}: listed twice in the manifest", entry.file));
            continue;
        }
        match verify_entry(dir, entry) {
            Ok(()) => {
                totals.chunks += 1;
                totals.games += entry.games;
                totals.positions += entry.positions;
                totals.bytes += entry.bytes;
            }
            Err(e) => problem(&format!("{}: {e}", entry.file)),
        }
    }
    for path in chunk_files(dir)? {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !listed.contains(name) {
            problem(&format!("{name}: not in the manifest"));
        }
    }
    Ok(totals)
}

/// Copies the chunks of another folder's manifest (another machine's run) into `dir`, each
/// verified first, and appends their entries to `dir`'s manifest. A chunk that is missing or
/// fails to verify, or whose name `dir` already has, is skipped and reported through
/// `problem`. Returns the totals of what was imported.
pub fn import(from: &Path, dir: &Path, mut problem: impl FnMut(&str)) -> Result<Totals, String> {
    let manifest = Manifest::read(from)?;
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut totals = Totals::default();
    for entry in &manifest.chunk {
        let target = dir.join(&entry.file);
        if target.exists() {
            problem(&format!("{}: already in {}", entry.file, dir.display()));
            continue;
        }
        if let Err(e) = verify_entry(from, entry) {
            problem(&format!("{}: {e}", entry.file));
            continue;
        }
        fs::copy(from.join(&entry.file), &target)
            .map_err(|e| format!("{}: {e}", target.display()))?;
        Manifest::append(dir, entry)?;
        totals.chunks += 1;
        totals.games += entry.games;
        totals.positions += entry.positions;
        totals.bytes += entry.bytes;
    }
    Ok(totals)
}

/// A chunk's bytes have the size and SHA-256 its manifest entry lists.
fn check_listed_bytes(bytes: &[u8], entry: &ChunkEntry) -> Result<(), String> {
    if bytes.len() as u64 != entry.bytes {
        return Err(format!(
            "{} bytes, the manifest says {} (damaged or replaced)",
            bytes.len(),
            entry.bytes
        ));
    }
    if sha256_hex(bytes) != entry.sha256 {
        return Err("SHA-256 differs from the manifest's (damaged or replaced)".into());
    }
    Ok(())
}

fn verify_entry(dir: &Path, entry: &ChunkEntry) -> Result<(), String> {
    let bytes = fs::read(dir.join(&entry.file)).map_err(|e| e.to_string())?;
    check_listed_bytes(&bytes, entry)?;
    let games = decode_chunk(&bytes)?;
    let positions: u64 = games.iter().map(|g| g.len() as u64).sum();
    if games.len() as u64 != entry.games || positions != entry.positions {
        return Err(format!(
            "{} games and {positions} positions, the manifest says {} and {}",
            games.len(),
            entry.games,
            entry.positions
        ));
    }
    Ok(())
}
