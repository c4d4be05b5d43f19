//! The Syzygy prober: pyrrhic-rs's tables, asked in its terms and answered in ours.

use super::adapter::Adapter;
use super::{Pieces, RootMove, RootProbe, Wdl};
use crate::types::{Move, PieceType};
use pyrrhic_rs::{DtzProbeValue, TBError, TableBases, WdlProbeResult};

pub struct Prober(TableBases<Adapter>);

impl Prober {
    /// Opens the tables in `path` (one folder; the catalogue's links to the good files).
    pub fn open(path: &str) -> Result<Prober, String> {
        TableBases::<Adapter>::new(path)
            .map(Prober)
            .map_err(|e| match e {
                TBError::AlreadyInitialized => {
                    "the previous tablebases are still in use".to_string()
                }
                other => format!("SyzygyPath: cannot open the tables ({other:?})"),
            })
    }

    /// Win/draw/loss for the side to move, as if the 50-move counter were 0.
    pub fn wdl(&self, p: &Pieces) -> Option<Wdl> {
        self.0
            .probe_wdl(
                p.white,
                p.black,
                p.kings,
                p.queens,
                p.rooks,
                p.bishops,
                p.knights,
                p.pawns,
                p.ep,
                p.white_to_move,
            )
            .ok()
            .map(from_probe)
    }

    /// The root's value and each of the `legal` moves', with this 50-move counter.
    pub fn root(&self, p: &Pieces, halfmove_clock: u16, legal: &[Move]) -> Option<RootProbe> {
        let probe = self
            .0
            .probe_root(
                p.white,
                p.black,
                p.kings,
                p.queens,
                p.rooks,
                p.bishops,
                p.knights,
                p.pawns,
                u32::from(halfmove_clock),
                p.ep,
                p.white_to_move,
            )
            .ok()?;
        let root = match probe.root {
            DtzProbeValue::Checkmate => return Some(no_moves(Wdl::Loss)),
            DtzProbeValue::Stalemate => return Some(no_moves(Wdl::Draw)),
            DtzProbeValue::Failed => return None,
            DtzProbeValue::DtzResult(r) => r,
        };
        let wdl = from_probe(root.wdl);
        let mut moves = Vec::with_capacity(probe.num_moves);
        for value in &probe.moves[..probe.num_moves] {
            let DtzProbeValue::DtzResult(r) = value else {
                return None;
            };
            let promotion = promotion_type(r.promotion);
            let mv = legal.iter().copied().find(|m| {
                m.from().index() == r.from_square as usize
                    && m.to().index() == r.to_square as usize
                    && m.promotion() == promotion
            })?;
            moves.push(RootMove {
                mv,
                wdl: from_probe(r.wdl),
                dtz: i32::from(r.dtz),
            });
        }
        let dtz = i32::from(root.dtz);
        Some(RootProbe {
            wdl,
            dtz: match wdl {
                Wdl::Win | Wdl::CursedWin => dtz,
                Wdl::Draw => 0,
                Wdl::BlessedLoss | Wdl::Loss => -dtz,
            },
            moves,
        })
    }
}

fn from_probe(value: WdlProbeResult) -> Wdl {
    match value {
        WdlProbeResult::Loss => Wdl::Loss,
        WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
        WdlProbeResult::Draw => Wdl::Draw,
        WdlProbeResult::CursedWin => Wdl::CursedWin,
        WdlProbeResult::Win => Wdl::Win,
    }
}

fn promotion_type(piece: pyrrhic_rs::Piece) -> Option<PieceType> {
    match piece {
        pyrrhic_rs::Piece::Queen => Some(PieceType::Queen),
        pyrrhic_rs::Piece::Rook => Some(PieceType::Rook),
        pyrrhic_rs::Piece::Bishop => Some(PieceType::Bishop),
        pyrrhic_rs::Piece::Knight => Some(PieceType::Knight),
        _ => None,
    }
}

fn no_moves(wdl: Wdl) -> RootProbe {
    RootProbe {
        wdl,
        dtz: 0,
        moves: Vec::new(),
    }
}
