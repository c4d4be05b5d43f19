//! Where PGN text comes from: a `.pgn` file, a `.pgn.bz2` (what OpenBench's client uploads), a
//! `.tar` of those (what OpenBench's server gives for a workload's PGNs), or a folder of any of
//! them (read in name order, without going into sub-folders).

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Calls `each` with every PGN text under `path` and a name for it (a file's path, or
/// `archive.tar:member`). A file of another kind in a folder is passed over through `skipped`.
pub fn for_each_text(
    path: &Path,
    each: &mut dyn FnMut(&str, &str) -> Result<(), String>,
    skipped: &mut dyn FnMut(&Path),
) -> Result<(), String> {
    if !path.is_dir() {
        return read_file(path, each);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    for file in files {
        match kind(&file.to_string_lossy()) {
            Some(_) => read_file(&file, each)?,
            None => skipped(&file),
        }
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Pgn,
    Bz2,
    Tar,
}

fn kind(name: &str) -> Option<Kind> {
    if name.ends_with(".tar") {
        Some(Kind::Tar)
    } else if name.ends_with(".pgn.bz2") {
        Some(Kind::Bz2)
    } else if name.ends_with(".pgn") {
        Some(Kind::Pgn)
    } else {
        None
    }
}

/// A file given by name: a tar archive, a bzip2-compressed PGN, or else PGN text.
fn read_file(
    path: &Path,
    each: &mut dyn FnMut(&str, &str) -> Result<(), String>,
) -> Result<(), String> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| format!("{name}: {e}"))?;
    match kind(&name) {
        Some(Kind::Tar) => read_tar(file, &name, each),
        Some(Kind::Bz2) => each(
            &name,
            &read_text(file, true).map_err(|e| format!("{name}: {e}"))?,
        ),
        _ => each(
            &name,
            &read_text(file, false).map_err(|e| format!("{name}: {e}"))?,
        ),
    }
}

/// The `.pgn` and `.pgn.bz2` members of a tar archive, in the archive's order.
fn read_tar(
    file: File,
    name: &str,
    each: &mut dyn FnMut(&str, &str) -> Result<(), String>,
) -> Result<(), String> {
    let mut archive = tar::Archive::new(file);
    let entries = archive.entries().map_err(|e| format!("{name}: {e}"))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{name}: {e}"))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let member = entry
            .path()
            .map_err(|e| format!("{name}: {e}"))?
            .to_string_lossy()
            .into_owned();
        let full = format!("{name}:{member}");
        let text = match kind(&member) {
            Some(Kind::Bz2) => read_text(entry, true),
            Some(Kind::Pgn) => read_text(entry, false),
            _ => continue,
        }
        .map_err(|e| format!("{full}: {e}"))?;
        each(&full, &text)?;
    }
    Ok(())
}

/// Text, decompressed when `bz2`; bytes that are not UTF-8 are replaced (they can only be in
/// names and comments, which a game does not need).
fn read_text(reader: impl Read, bz2: bool) -> Result<String, String> {
    let mut bytes = Vec::new();
    let read = if bz2 {
        bzip2::read::MultiBzDecoder::new(reader).read_to_end(&mut bytes)
    } else {
        let mut reader = reader;
        reader.read_to_end(&mut bytes)
    };
    read.map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
