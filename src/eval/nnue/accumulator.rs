//! Accumulators: the hidden layer's pre-activations for both perspectives, kept on a stack
//! indexed by ply. Making a move only records which pieces it put down and took away (read
//! from the move and the board it was played on);
//! the accumulator is brought up to date when a node is evaluated, from the nearest ancestor
//! that is, or rebuilt from the board when none is. With a mirrored or king-bucketed network a
//! king move across the d/e line or into another king bucket changes every feature of its
//! side's view: that accumulator is rebuilt at once, from a cache of the last rebuild in each
//! view ([`RefreshCache`]).

use super::network::{Network, Row};
use super::{MAX_KING_BUCKETS, View, feature_index};
use crate::attacks::Occupancy;
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, Piece, PieceType, Square};
use arrayvec::ArrayVec;

/// Both perspectives' hidden pre-activations (`[White, Black]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator(pub [Row; 2]);

impl Accumulator {
    /// Built from scratch: bias plus the rows of every piece on the board.
    pub fn from_board<O: Occupancy>(net: &Network, board: &Board<O>) -> Accumulator {
        let mut acc = Accumulator([net.hidden_bias; 2]);
        RefreshCache::new(net).rebuild(net, board, &mut acc);
        acc
    }

    /// The score of `board`, whose accumulator this is, for its side to move (by the output
    /// bucket of its piece count).
    #[inline]
    pub fn evaluate<O: Occupancy>(&self, net: &Network, board: &Board<O>) -> i32 {
        let side = board.side_to_move();
        let bucket = net.bucket(board.occupied().count() as usize);
        net.evaluate(&self.0[side.index()], &self.0[(!side).index()], bucket)
    }
}

/// The pieces a move put down and took away: at most two each (castling moves two pieces; a
/// capture with promotion removes two and adds one).
#[derive(Clone, Debug, Default)]
struct Delta {
    added: ArrayVec<(Piece, Square), 2>,
    removed: ArrayVec<(Piece, Square), 2>,
    /// Each perspective's view (mirroring, king bucket), the same before and after the move.
    views: [View; 2],
}

impl Delta {
    /// What `mv`, legal in `parent`, puts down and takes away; nothing for the null move.
    #[inline]
    fn of_move<O: Occupancy>(parent: &Board<O>, mv: Move, views: [View; 2]) -> Delta {
        let mut d = Delta {
            views,
            ..Delta::default()
        };
        if mv.is_null() {
            return d;
        }
        let (from, to) = (mv.from(), mv.to());
        let moving = parent.piece_on(from).expect("a piece on the from-square");
        d.removed.push((moving, from));
        if mv.is_castle() {
            // Encoded king takes rook; in Chess960 either may land where it stood.
            let rook = Piece::new(moving.color(), PieceType::Rook);
            d.removed.push((rook, to));
            d.added.push((moving, mv.castle_king_to()));
            d.added.push((rook, mv.castle_rook_to()));
            return d;
        }
        if mv.is_capture() {
            let sq = mv.captured_square();
            d.removed
                .push((parent.piece_on(sq).expect("a piece to capture"), sq));
        }
        let placed = mv
            .promotion()
            .map_or(moving, |kind| Piece::new(moving.color(), kind));
        d.added.push((placed, to));
        d
    }

    fn row<'n>(&self, net: &'n Network, view: Color, (piece, sq): (Piece, Square)) -> &'n Row {
        &net.input_weights[feature_index(view, piece, sq, self.views[view.index()])]
    }

    /// `child = parent` updated by this delta.
    fn apply(&self, net: &Network, parent: &Accumulator, child: &mut Accumulator) {
        let k = net.kernel();
        for view in Color::ALL {
            let (from, out) = (&parent.0[view.index()], &mut child.0[view.index()]);
            let (na, nr) = (self.added.len(), self.removed.len());
            if na == 1 && nr == 2 {
                let add = self.row(net, view, self.added[0]);
                let subs = [0, 1].map(|i| &self.row(net, view, self.removed[i]).0[..]);
                k.add_sub_sub(&mut out.0, &from.0, &add.0, subs);
                continue;
            }
            if na >= 1 && nr >= 1 {
                let add = self.row(net, view, self.added[0]);
                let sub = self.row(net, view, self.removed[0]);
                k.add_sub(&mut out.0, &from.0, &add.0, &sub.0);
            } else {
                *out = *from;
                if na >= 1 {
                    k.add_assign(&mut out.0, &self.row(net, view, self.added[0]).0);
                }
                if nr >= 1 {
                    k.sub_assign(&mut out.0, &self.row(net, view, self.removed[0]).0);
                }
            }
            for &a in self.added.iter().skip(1) {
                k.add_assign(&mut out.0, &self.row(net, view, a).0);
            }
            for &r in self.removed.iter().skip(1) {
                k.sub_assign(&mut out.0, &self.row(net, view, r).0);
            }
        }
    }
}

/// For each perspective and each view it may have (mirrored or not, king bucket), the row of
/// the last rebuild in it and the pieces it holds. A rebuild starts from it and adds or
/// takes away only the pieces that differ: positions of one search differ in a few pieces, so
/// that is a few rows where a build from scratch adds one per piece. Its rows are of one
/// network, like the accumulators: it is forgotten with them ([`AccumulatorStack::reset`]).
#[derive(Clone, Debug)]
struct RefreshCache {
    /// `[perspective][king bucket · 2 + mirrored]`.
    entries: [[CachedRow; 2 * MAX_KING_BUCKETS]; 2],
}

#[derive(Clone, Copy, Debug)]
struct CachedRow {
    row: Row,
    /// `[colour][piece type]`: the pieces `row` holds besides the bias.
    pieces: [[Bitboard; 6]; 2],
}

impl RefreshCache {
    /// Every entry the bias alone: valid for `net` only.
    fn new(net: &Network) -> RefreshCache {
        let empty = CachedRow {
            row: net.hidden_bias,
            pieces: [[Bitboard::EMPTY; 6]; 2],
        };
        RefreshCache {
            entries: [[empty; 2 * MAX_KING_BUCKETS]; 2],
        }
    }

    /// Both views of `board` into `out`.
    fn rebuild<O: Occupancy>(&mut self, net: &Network, board: &Board<O>, out: &mut Accumulator) {
        for view in Color::ALL {
            self.rebuild_view(net, board, view, &mut out.0[view.index()]);
        }
    }

    /// `view`'s row of `board`, from the entry of its king's view.
    fn rebuild_view<O: Occupancy>(
        &mut self,
        net: &Network,
        board: &Board<O>,
        view: Color,
        out: &mut Row,
    ) {
        let seen = net.layout.view(view, board.king(view));
        let slot = usize::from(seen.bucket) * 2 + seen.mirror as usize;
        let entry = &mut self.entries[view.index()][slot];
        let k = net.kernel();
        for color in Color::ALL {
            for kind in PieceType::ALL {
                let now = board.pieces_of(color, kind);
                let was = &mut entry.pieces[color.index()][kind.index()];
                if now == *was {
                    continue;
                }
                let piece = Piece::new(color, kind);
                let row = |sq| &net.input_weights[feature_index(view, piece, sq, seen)].0;
                for sq in now & !*was {
                    k.add_assign(&mut entry.row.0, row(sq));
                }
                for sq in *was & !now {
                    k.sub_assign(&mut entry.row.0, row(sq));
                }
                *was = now;
            }
        }
        *out = entry.row;
    }
}

/// One accumulator per ply of the search path.
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    deltas: Vec<Delta>,
    /// `accumulators[ply]` matches the position at `ply` on the current path.
    fresh: Vec<bool>,
    /// Accumulators rebuilt (from the cache) so far.
    refreshes: u64,
    /// Made for the network of the first rebuild after a reset.
    cache: Option<RefreshCache>,
}

impl AccumulatorStack {
    pub fn new(net: &Network, plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            accumulators: vec![Accumulator([net.hidden_bias; 2]); plies + 1],
            deltas: vec![Delta::default(); plies + 1],
            fresh: vec![false; plies + 1],
            refreshes: 0,
            cache: None,
        }
    }

    /// Builds the root's accumulator, so that every node below is updated from it even when
    /// the root itself is never evaluated (its table entry holding the evaluation).
    pub fn set_root<O: Occupancy>(&mut self, net: &Network, board: &Board<O>) {
        self.reset();
        self.refresh(net, board, 0);
    }

    /// Accumulators built from scratch so far.
    pub fn refreshes(&self) -> u64 {
        self.refreshes
    }

    fn refresh<O: Occupancy>(&mut self, net: &Network, board: &Board<O>, ply: usize) {
        let cache = self.cache.get_or_insert_with(|| RefreshCache::new(net));
        cache.rebuild(net, board, &mut self.accumulators[ply]);
        self.fresh[ply] = true;
        self.refreshes += 1;
    }

    /// Forgets every accumulator and the rebuild cache (a new root, perhaps of another
    /// network: a stack outlives a search).
    pub fn reset(&mut self) {
        self.fresh.iter_mut().for_each(|f| *f = false);
        self.cache = None;
    }

    /// Records `mv` (or the null move), which took `parent` (at `ply`) to `child` (at
    /// `ply + 1`); a king move that changed its side's view (across the d/e line of a mirrored
    /// network, into another king bucket) has that side rebuilt now.
    #[inline]
    pub fn push<O: Occupancy>(
        &mut self,
        net: &Network,
        ply: usize,
        parent: &Board<O>,
        mv: Move,
        child: &Board<O>,
    ) {
        // Plain networks look at no king here: this runs for every move.
        let mut views = [View::default(); 2];
        if !net.layout.is_plain() {
            views = Color::ALL.map(|side| net.layout.view(side, child.king(side)));
            let crossed = Color::ALL
                .iter()
                .any(|&side| net.layout.view(side, parent.king(side)) != views[side.index()]);
            if crossed {
                self.refresh(net, child, ply + 1);
                return;
            }
        }
        self.deltas[ply + 1] = Delta::of_move(parent, mv, views);
        self.fresh[ply + 1] = false;
    }

    /// The evaluation of `board`, the position at `ply` on the current path.
    #[inline]
    pub fn evaluate<O: Occupancy>(&mut self, net: &Network, board: &Board<O>, ply: usize) -> i32 {
        self.update(net, board, ply);
        self.accumulators[ply].evaluate(net, board)
    }

    fn update<O: Occupancy>(&mut self, net: &Network, board: &Board<O>, ply: usize) {
        if self.fresh[ply] {
            return;
        }
        let Some(base) = (0..ply).rev().find(|&p| self.fresh[p]) else {
            self.refresh(net, board, ply);
            return;
        };
        for p in base + 1..=ply {
            let (done, rest) = self.accumulators.split_at_mut(p);
            self.deltas[p].apply(net, &done[p - 1], &mut rest[0]);
            self.fresh[p] = true;
        }
    }
}
