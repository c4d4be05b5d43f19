//! Which Syzygy tables the user's folders really hold, checked file by file, and, when some
//! file is refused, a private folder of links to the good ones for the prober.

use crate::attacks::Occupancy;
use crate::board::Board;
use crate::types::{Color, PieceType};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

const WDL_MAGIC: [u8; 4] = [0x71, 0xE8, 0x23, 0x5D];
const DTZ_MAGIC: [u8; 4] = [0xD7, 0x66, 0x0C, 0xA5];
/// Every complete table file is 16 bytes past a multiple of 64.
fn plausible_size(len: u64) -> bool {
    len % 64 == 16
}

/// A material balance regardless of which colour has which side: the two sides' piece
/// counts, stronger-looking side first.
type MaterialKey = u32;

/// Counts of Q, R, B, N, P (3 bits each) of one side.
fn side_code(counts: [u32; 5]) -> u32 {
    counts.iter().fold(0, |acc, &c| (acc << 3) | c.min(7))
}

fn key(a: u32, b: u32) -> MaterialKey {
    (a.max(b) << 15) | a.min(b)
}

/// The material key of a table name such as `KRPvKR`, if it is one.
fn parse_name(stem: &str) -> Option<(MaterialKey, u32)> {
    let (white, black) = stem.split_once('v')?;
    let side = |text: &str| -> Option<u32> {
        let rest = text.strip_prefix('K')?;
        let mut counts = [0u32; 5];
        for c in rest.chars() {
            let i = "QRBNP".find(c)?;
            counts[i] += 1;
        }
        Some(side_code(counts))
    };
    let pieces = stem.len() as u32 - 1;
    Some((key(side(white)?, side(black)?), pieces))
}

fn board_key<O: Occupancy>(board: &Board<O>) -> MaterialKey {
    let side = |color| {
        let kinds = [
            PieceType::Queen,
            PieceType::Rook,
            PieceType::Bishop,
            PieceType::Knight,
            PieceType::Pawn,
        ];
        side_code(kinds.map(|kind| board.pieces_of(color, kind).count()))
    };
    key(side(Color::White), side(Color::Black))
}

pub struct Catalog {
    wdl: HashSet<MaterialKey>,
    dtz: HashSet<MaterialKey>,
    max_pieces: u32,
    problems: Vec<String>,
    /// The folder of links the prober reads (removed on drop), or the user's folders where
    /// links cannot be made.
    links: Option<PathBuf>,
    prober_path: String,
}

/// Distinguishes the link folders of several catalogs in one process.
static LINK_FOLDERS: AtomicU32 = AtomicU32::new(0);
/// A link folder is named `{LINK_PREFIX}{process id}-{number}`.
const LINK_PREFIX: &str = "quintessence-syzygy-";

/// Removes the link folders of engine processes that are gone: one killed (a GUI's kill, a
/// match runner's timeout) never drops its catalog.
fn remove_stale_link_folders(temp: &Path) {
    let Ok(entries) = fs::read_dir(temp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(LINK_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if process_is_gone(pid) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Only where the answer is certain: Linux's /proc lists every live process.
#[cfg(target_os = "linux")]
fn process_is_gone(pid: u32) -> bool {
    Path::new("/proc/self").exists() && !Path::new(&format!("/proc/{pid}")).exists()
}

#[cfg(not(target_os = "linux"))]
fn process_is_gone(_pid: u32) -> bool {
    false
}

/// pyrrhic-rs splits its path at every ':', on Windows too, so no folder given to it may hold
/// one. A Windows folder on the working folder's drive loses its drive (`C:\tb` is read as
/// `\tb`); one on another drive has no such form.
fn prober_form(folder: &str, working_drive: Option<char>) -> Option<String> {
    if !folder.contains(':') {
        return Some(folder.to_string());
    }
    let mut chars = folder.chars();
    let (drive, colon) = (chars.next()?, chars.next()?);
    let rest = chars.as_str();
    let same_drive = working_drive.is_some_and(|d| d.eq_ignore_ascii_case(&drive));
    (drive.is_ascii_alphabetic() && colon == ':' && same_drive && !rest.contains(':'))
        .then(|| rest.to_string())
}

/// The drive letter of the working folder, where paths have drives.
fn working_drive() -> Option<char> {
    if !cfg!(windows) {
        return None;
    }
    let dir = std::env::current_dir().ok()?;
    let text = dir.to_str()?;
    let text = text.strip_prefix(r"\\?\").unwrap_or(text);
    let mut chars = text.chars();
    let drive = chars.next()?;
    (chars.next() == Some(':')).then_some(drive)
}

impl Catalog {
    /// Reads the folders; files that are not good tables are noted in `problems` and left out.
    /// With `link`, and a file refused, also makes the prober's folder of the good ones; with
    /// every file good the prober reads the user's folders (no folder to leave behind if the
    /// process is killed).
    pub fn scan(folders: &[&str], link: bool) -> Result<Catalog, String> {
        let mut catalog = Catalog {
            wdl: HashSet::new(),
            dtz: HashSet::new(),
            max_pieces: 0,
            problems: Vec::new(),
            links: None,
            prober_path: String::new(),
        };
        let drive = working_drive();
        let mut reachable: Vec<String> = Vec::new();
        let mut good: Vec<(PathBuf, String)> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut refused = false;
        for folder in folders {
            if Path::new(folder).is_dir() {
                let Some(form) = prober_form(folder, drive) else {
                    catalog.problems.push(format!(
                        "folder '{folder}' (on another drive than the engine's working folder: \
                         the prober cannot read it there)"
                    ));
                    continue;
                };
                reachable.push(form);
            }
            let entries = match fs::read_dir(folder) {
                Ok(entries) => entries,
                Err(e) => {
                    let reason = if Path::new(folder).is_dir() {
                        e.to_string()
                    } else {
                        "not a folder".to_string()
                    };
                    catalog
                        .problems
                        .push(format!("folder '{folder}' ({reason})"));
                    continue;
                }
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                let Some((stem, magic, is_wdl)) = name
                    .strip_suffix(".rtbw")
                    .map(|s| (s, WDL_MAGIC, true))
                    .or_else(|| name.strip_suffix(".rtbz").map(|s| (s, DTZ_MAGIC, false)))
                else {
                    continue;
                };
                let Some((key, pieces)) = parse_name(stem) else {
                    continue;
                };
                if !seen.insert(name.to_string()) {
                    continue; // The first folder that has it wins, as in the prober.
                }
                if let Err(problem) = check_file(&path, magic) {
                    catalog.problems.push(format!("{name} ({problem})"));
                    refused = true;
                    continue;
                }
                if is_wdl {
                    catalog.wdl.insert(key);
                    catalog.max_pieces = catalog.max_pieces.max(pieces);
                } else {
                    catalog.dtz.insert(key);
                }
                let name = name.to_string();
                good.push((path, name));
            }
        }
        // WDL without DTZ still answers in the search, but the root cannot pick a converting move.
        let mut without_dtz: Vec<String> = good
            .iter()
            .filter_map(|(_, name)| name.strip_suffix(".rtbw"))
            .filter(|stem| parse_name(stem).is_some_and(|(key, _)| !catalog.dtz.contains(&key)))
            .map(|stem| format!("{stem}.rtbz (missing: no root move choice for that material)"))
            .collect();
        without_dtz.sort();
        catalog.problems.extend(without_dtz);
        catalog.prober_path = reachable.join(":");
        if link && refused {
            catalog.link(&good);
        }
        Ok(catalog)
    }

    /// Gives the prober a folder with links to the good files only.
    fn link(&mut self, good: &[(PathBuf, String)]) {
        remove_stale_link_folders(&std::env::temp_dir());
        let folder = std::env::temp_dir().join(format!(
            "{LINK_PREFIX}{}-{}",
            std::process::id(),
            LINK_FOLDERS.fetch_add(1, Ordering::Relaxed)
        ));
        let made = fs::create_dir_all(&folder).is_ok()
            && good.iter().all(|(path, name)| {
                let target = fs::canonicalize(path).unwrap_or_else(|_| path.clone());
                make_link(&target, &folder.join(name)).is_ok()
            });
        match (made, folder.to_str()) {
            (true, Some(text)) if !text.contains(':') => {
                self.prober_path = text.to_string();
                self.links = Some(folder);
            }
            _ => {
                log::warn!("cannot make the tablebase link folder; the prober reads the folders");
                let _ = fs::remove_dir_all(&folder);
            }
        }
    }

    pub fn prober_path(&self) -> &str {
        &self.prober_path
    }

    pub fn wdl_count(&self) -> usize {
        self.wdl.len()
    }

    pub fn dtz_count(&self) -> usize {
        self.dtz.len()
    }

    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    pub fn has_wdl<O: Occupancy>(&self, board: &Board<O>) -> bool {
        self.wdl.contains(&board_key(board))
    }

    pub fn has_dtz<O: Occupancy>(&self, board: &Board<O>) -> bool {
        self.dtz.contains(&board_key(board))
    }
}

impl Drop for Catalog {
    fn drop(&mut self) {
        if let Some(folder) = &self.links {
            let _ = fs::remove_dir_all(folder);
        }
    }
}

fn check_file(path: &Path, magic: [u8; 4]) -> Result<(), String> {
    use std::io::Read;
    let mut file = fs::File::open(path).map_err(|e| e.to_string())?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if !plausible_size(len) {
        return Err(format!("truncated or damaged: {len} bytes"));
    }
    let mut head = [0u8; 4];
    file.read_exact(&mut head).map_err(|e| e.to_string())?;
    if head != magic {
        return Err("not a Syzygy table".to_string());
    }
    Ok(())
}

#[cfg(unix)]
fn make_link(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
fn make_link(_target: &Path, _link: &Path) -> std::io::Result<()> {
    Err(std::io::Error::other("no symbolic links here"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_boards_give_the_same_material_key() {
        let (table, pieces) = parse_name("KRPvKR").unwrap();
        assert_eq!(pieces, 5);
        let board = Board::from_fen("8/8/4k3/8/3r4/8/3PK3/3R4 w - - 0 1").unwrap();
        assert_eq!(board_key(&board), table);
        let flipped = Board::from_fen("3r4/3kp3/8/3R4/8/4K3/8/8 b - - 0 1").unwrap();
        assert_eq!(board_key(&flipped), table, "colours do not matter");
        assert_ne!(parse_name("KRvKP").unwrap().0, table);
        assert!(parse_name("KXvK").is_none());
        assert!(parse_name("readme").is_none());
    }

    #[test]
    fn folders_are_given_to_the_prober_without_colons() {
        assert_eq!(prober_form("/data/syzygy", None).unwrap(), "/data/syzygy");
        assert_eq!(prober_form("tables", Some('C')).unwrap(), "tables");
        assert_eq!(prober_form(r"C:\tb\wdl", Some('C')).unwrap(), r"\tb\wdl");
        assert_eq!(prober_form(r"c:\tb", Some('C')).unwrap(), r"\tb");
        assert_eq!(prober_form(r"D:\tb", Some('C')), None, "another drive");
        assert_eq!(prober_form(r"D:\tb", None), None);
        assert_eq!(prober_form(r"\\?\D:\tb", Some('D')), None);
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qtest-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn good_folders_are_read_in_place_and_a_refused_file_gets_a_link_folder() {
        let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
        let catalog = Catalog::scan(&[tables], true).unwrap();
        assert!(catalog.problems().is_empty(), "{:?}", catalog.problems());
        assert!(catalog.links.is_none(), "nothing refused, so no folder");
        assert_eq!(catalog.prober_path(), tables);

        let dir = scratch("catalog");
        fs::copy(format!("{tables}/KBvK.rtbw"), dir.join("KBvK.rtbw")).unwrap();
        fs::copy(format!("{tables}/KBvK.rtbz"), dir.join("KBvK.rtbz")).unwrap();
        fs::write(dir.join("KNvK.rtbw"), [0x71, 0xE8, 0x23, 0x5D, 0, 0]).unwrap();
        let catalog = Catalog::scan(&[dir.to_str().unwrap()], true).unwrap();
        assert_eq!(catalog.wdl_count(), 1);
        assert!(
            catalog
                .problems()
                .iter()
                .any(|p| p.starts_with("KNvK.rtbw"))
        );
        let links = catalog
            .links
            .clone()
            .expect("a refused file, so a link folder");
        assert_eq!(catalog.prober_path(), links.to_str().unwrap());
        let mut linked: Vec<_> = fs::read_dir(&links)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        linked.sort();
        assert_eq!(linked, ["KBvK.rtbw", "KBvK.rtbz"]);
        drop(catalog);
        assert!(!links.exists(), "removed with its catalog");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn link_folders_of_processes_that_are_gone_are_removed() {
        let temp = scratch("stale");
        // Process ids stay below 2^22 on Linux, so this one is never alive.
        let gone = temp.join(format!("{LINK_PREFIX}4294967295-0"));
        let alive = temp.join(format!("{LINK_PREFIX}{}-0", std::process::id()));
        let other = temp.join("someone-elses-7-0");
        for dir in [&gone, &alive, &other] {
            fs::create_dir_all(dir).unwrap();
        }
        remove_stale_link_folders(&temp);
        assert!(!gone.exists());
        assert!(alive.exists() && other.exists());
        fs::remove_dir_all(&temp).unwrap();
    }
}
