//! Syzygy endgame tablebases: win/draw/loss inside the search, distance-to-zeroing at the root.
//!
//! Probing is done by the `pyrrhic-rs` crate (MIT, in [`prober`]), which generates its own
//! moves with our attack tables (`adapter::Adapter`). It keeps its tables in process-wide state, so at most
//! one [`Tablebases`] exists at a time: drop the old one before opening another path.
//!
//! pyrrhic-rs 0.2 takes every table name it tries for present, and maps files of any size, so
//! it never sees the user's folders: [`catalog`] checks each file (name, size, magic number) and
//! the prober gets a private folder of links to the good ones, and is asked only about material
//! that is there.

#[cfg(target_arch = "x86_64")]
mod adapter;
mod catalog;
// pyrrhic-rs 0.2 does not compile where C's `char` is unsigned (aarch64 Linux): there the
// engine is built without a prober and `SyzygyPath` says so.
#[cfg_attr(not(target_arch = "x86_64"), path = "no_prober.rs")]
mod prober;

use crate::attacks::{Magic, Occupancy};
use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::{Color, Move, PieceType};
use catalog::Catalog;
use prober::Prober;
use std::path::Path;

/// The game-theoretic value for the side to move, with the 50-move rule taken into account:
/// a cursed win is a win that the 50-move rule turns into a draw, a blessed loss likewise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    BlessedLoss,
    Draw,
    CursedWin,
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), the numbers python-chess and Stockfish use.
    pub fn signed(self) -> i32 {
        self as i32 - 2
    }

    /// The value as the search should see it: without the 50-move rule a cursed win is a win
    /// and a blessed loss a loss.
    pub fn counting_50_moves(self, rule: bool) -> Wdl {
        match self {
            Wdl::CursedWin if !rule => Wdl::Win,
            Wdl::BlessedLoss if !rule => Wdl::Loss,
            other => other,
        }
    }
}

/// One legal root move as the tables see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// The value after this move, for the side playing it.
    pub wdl: Wdl,
    /// Plies to the next capture or pawn move (counting this one) under best play.
    pub dtz: i32,
}

/// The root position's value and every move's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    pub wdl: Wdl,
    /// Distance to zeroing with the sign of the result (positive: the side to move wins),
    /// as python-chess's `probe_dtz` gives it; 0 for draws and positions without moves.
    pub dtz: i32,
    pub moves: Vec<RootMove>,
}

impl RootProbe {
    /// The moves that keep the best value: the fastest conversion when winning, every
    /// drawing move when drawing, the longest resistance when losing. Without the 50-move
    /// `rule`, cursed wins rank as wins and blessed losses as losses.
    pub fn best_moves(&self, rule: bool) -> Vec<Move> {
        let rank = |m: &RootMove| match m.wdl.counting_50_moves(rule) {
            Wdl::Win | Wdl::CursedWin => 2 * 1024 * m.wdl.signed() - m.dtz,
            Wdl::Draw => 0,
            Wdl::BlessedLoss | Wdl::Loss => 2 * 1024 * m.wdl.signed() + m.dtz,
        };
        let best = self.moves.iter().map(rank).max();
        self.moves
            .iter()
            .filter(|m| Some(rank(m)) == best)
            .map(|m| m.mv)
            .collect()
    }
}

pub struct Tablebases {
    prober: Prober,
    catalog: Catalog,
    paths: String,
}

/// The separator between folders in `SyzygyPath`, as other engines use it.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

impl Tablebases {
    /// Opens the tables in `paths` (folders separated by [`PATH_SEPARATOR`]). Folders that do
    /// not exist are skipped and named in [`Tablebases::describe`]; finding no table at all is
    /// an error.
    pub fn open(paths: &str) -> Result<Tablebases, String> {
        let (catalog, paths) = scan(paths, true)?;
        let prober = Prober::open(catalog.prober_path())?;
        Ok(Tablebases {
            prober,
            catalog,
            paths,
        })
    }

    /// What [`Tablebases::open`] would find in `paths`, without opening anything.
    pub fn inspect(paths: &str) -> Result<String, String> {
        let (catalog, paths) = scan(paths, false)?;
        Ok(describe(&catalog, &paths))
    }

    /// What was found, for the user.
    pub fn describe(&self) -> String {
        describe(&self.catalog, &self.paths)
    }

    /// The most pieces (kings included) of any table found.
    pub fn max_pieces(&self) -> u32 {
        self.catalog.max_pieces()
    }

    pub fn paths(&self) -> &str {
        &self.paths
    }

    /// Whether the tables can answer for this position at all.
    pub fn covers<O: Occupancy>(&self, board: &Board<O>) -> bool {
        board.castling().is_empty()
            && board.occupied().count() <= self.max_pieces()
            && self.catalog.has_wdl(board)
    }

    /// Win/draw/loss for the side to move, assuming the 50-move counter was just reset (the
    /// answer is exact only then). None when the position is not in the tables.
    pub fn probe_wdl<O: Occupancy>(&self, board: &Board<O>) -> Option<Wdl> {
        if !self.covers(board) {
            return None;
        }
        self.prober.wdl(&Pieces::of(board))
    }

    /// The value and distance to zeroing of the position and of each legal move, honouring its
    /// 50-move counter. Not thread-safe in the prober: call it from one thread at a time.
    pub fn probe_root<O: Occupancy>(&self, board: &Board<O>) -> Option<RootProbe> {
        if !self.covers(board) || !self.catalog.has_dtz(board) {
            return None;
        }
        let legal = legal_moves::<Magic>(&board.with_occupancy::<crate::types::Bitboard>());
        self.prober
            .root(&Pieces::of(board), board.halfmove_clock(), &legal)
    }
}

/// Checks the path and reads which tables it holds.
fn scan(paths: &str, link: bool) -> Result<(Catalog, String), String> {
    let paths = paths.trim();
    if paths.contains('\0') {
        return Err("SyzygyPath contains a NUL character".to_string());
    }
    let folders: Vec<&str> = paths
        .split(PATH_SEPARATOR)
        .filter(|p| !p.is_empty())
        .collect();
    if folders.is_empty() {
        return Err("SyzygyPath is empty".to_string());
    }
    // Bad folders beside good ones are skipped (and named); with none good there is nothing.
    if let Some(missing) = folders.iter().find(|f| !Path::new(f).is_dir())
        && !folders.iter().any(|f| Path::new(f).is_dir())
    {
        return Err(format!("SyzygyPath: '{missing}' is not a folder"));
    }
    let catalog = Catalog::scan(&folders, link)?;
    if catalog.wdl_count() == 0 {
        let why = catalog
            .problems()
            .first()
            .map(|problem| format!("; {problem}"))
            .unwrap_or_default();
        return Err(format!(
            "SyzygyPath: no Syzygy tables found in '{paths}'{why}"
        ));
    }
    Ok((catalog, paths.to_string()))
}

fn describe(catalog: &Catalog, paths: &str) -> String {
    let mut text = format!(
        "Syzygy tablebases: {} WDL and {} DTZ tables, up to {} pieces, in {paths}",
        catalog.wdl_count(),
        catalog.dtz_count(),
        catalog.max_pieces(),
    );
    let problems = catalog.problems();
    for problem in problems.iter().take(5) {
        text.push_str("; skipped ");
        text.push_str(problem);
    }
    if problems.len() > 5 {
        text.push_str(&format!("; {} more skipped", problems.len() - 5));
    }
    text
}

/// The board in the prober's terms (which the stand-in prober never reads).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Pieces {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    ep: u32,
    white_to_move: bool,
}

impl Pieces {
    fn of<O: Occupancy>(board: &Board<O>) -> Pieces {
        Pieces {
            white: board.colored(Color::White).0,
            black: board.colored(Color::Black).0,
            kings: board.pieces(PieceType::King).0,
            queens: board.pieces(PieceType::Queen).0,
            rooks: board.pieces(PieceType::Rook).0,
            bishops: board.pieces(PieceType::Bishop).0,
            knights: board.pieces(PieceType::Knight).0,
            pawns: board.pieces(PieceType::Pawn).0,
            ep: board.en_passant().map_or(0, |sq| sq.index() as u32),
            white_to_move: board.side_to_move() == Color::White,
        }
    }
}
