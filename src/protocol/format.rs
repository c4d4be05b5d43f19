//! The engine's protocol lines, written with vampirc-uci's serializer where it can say them
//! (`id`, `option`, `info`, `bestmove`) and by hand where it cannot (`bestmove 0000`, `wdl`).

use crate::search::{Bound, Heartbeat, Score, SearchInfo};
use crate::types::Move;
use vampirc_uci::{
    Duration, Serializable, UciInfoAttribute, UciMessage, UciMove, UciOptionConfig, UciPiece,
    UciSquare,
};

pub const ENGINE_NAME: &str = "Quintessence";
pub const ENGINE_AUTHOR: &str = "the Quintessence developers";

/// `id name`, `id author`.
pub fn id_lines() -> [String; 2] {
    [
        UciMessage::id_name(&format!("{ENGINE_NAME} {}", crate::build_info::VERSION)).serialize(),
        UciMessage::id_author(ENGINE_AUTHOR).serialize(),
    ]
}

pub fn option_line(option: &UciOptionConfig) -> String {
    UciMessage::Option(option.clone()).serialize()
}

/// Input echoed back in a message, cut short so a huge line does not come back whole.
pub fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX).collect();
        format!("{head}...")
    }
}

/// `info string <text>`, kept on one line.
pub fn info_string(text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    UciMessage::Info(vec![UciInfoAttribute::String(one_line)]).serialize()
}

/// Our move as vampirc-uci's (none for the null move).
fn uci_move(mv: Move, chess960: bool) -> Option<UciMove> {
    let text = mv.to_uci(chess960);
    let b = text.as_bytes();
    if mv.is_null() || !(4..=5).contains(&b.len()) {
        return None;
    }
    let square = |f: u8, r: u8| UciSquare::from(f as char, r - b'0');
    let promotion = match b.get(4) {
        None => None,
        Some(c) => Some((*c as char).to_string().parse::<UciPiece>().ok()?),
    };
    Some(UciMove {
        from: square(b[0], b[1]),
        to: square(b[2], b[3]),
        promotion,
    })
}

/// `bestmove X [ponder Y]`, or `bestmove 0000` when there is no move.
pub fn bestmove_line(best: Move, ponder: Option<Move>, chess960: bool) -> String {
    match uci_move(best, chess960) {
        None => "bestmove 0000".to_string(),
        Some(best_move) => UciMessage::BestMove {
            best_move,
            ponder: ponder.and_then(|p| uci_move(p, chess960)),
        }
        .serialize(),
    }
}

/// `info depth .. seldepth .. multipv .. score cp|mate [lowerbound|upperbound] [wdl W D L]
/// nodes .. nps .. hashfull .. tbhits .. time .. pv ...`; for a position without moves just
/// `info depth 0 score mate 0` (or `cp 0`).
pub fn info_line(info: &SearchInfo, chess960: bool) -> String {
    let (cp, mate) = match info.score {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n.clamp(-127, 127) as i8)),
    };
    let score = UciInfoAttribute::Score {
        cp,
        mate,
        lower_bound: (info.bound == Bound::Lower).then_some(true),
        upper_bound: (info.bound == Bound::Upper).then_some(true),
    };
    let depth = UciInfoAttribute::Depth(info.depth.min(255) as u8);
    if info.depth == 0 && info.pv.is_empty() {
        return UciMessage::Info(vec![depth, score]).serialize();
    }
    let mut attributes = vec![
        depth,
        UciInfoAttribute::SelDepth(info.seldepth.min(255) as u8),
        UciInfoAttribute::MultiPv(info.multipv.min(u16::MAX as usize) as u16),
        score,
    ];
    if let Some((w, d, l)) = info.wdl {
        attributes.push(UciInfoAttribute::Any(
            "wdl".to_string(),
            format!("{w} {d} {l}"),
        ));
    }
    attributes.extend([
        UciInfoAttribute::Nodes(info.nodes),
        UciInfoAttribute::Nps(info.nps),
        UciInfoAttribute::HashFull(info.hashfull.min(1000) as u16),
        UciInfoAttribute::TbHits(info.tbhits),
        UciInfoAttribute::Time(Duration::milliseconds(
            info.time_ms.min(i64::MAX as u64) as i64
        )),
    ]);
    let pv: Vec<UciMove> = info
        .pv
        .iter()
        .map_while(|&mv| uci_move(mv, chess960))
        .collect();
    if !pv.is_empty() {
        attributes.push(UciInfoAttribute::Pv(pv));
    }
    UciMessage::Info(attributes).serialize()
}

/// `info depth D currmove M currmovenumber N`, or `info depth D nodes .. nps .. hashfull ..
/// tbhits .. time ..`.
pub fn heartbeat_line(beat: &Heartbeat, chess960: bool) -> String {
    let attributes = match *beat {
        Heartbeat::CurrMove { depth, mv, number } => {
            let Some(mv) = uci_move(mv, chess960) else {
                return String::new();
            };
            vec![
                UciInfoAttribute::Depth(depth.min(255) as u8),
                UciInfoAttribute::CurrMove(mv),
                // vampirc-uci writes `currmovenum`; the protocol's word is `currmovenumber`.
                UciInfoAttribute::Any("currmovenumber".to_string(), number.to_string()),
            ]
        }
        Heartbeat::Counters {
            depth,
            nodes,
            nps,
            hashfull,
            tbhits,
            time_ms,
        } => vec![
            UciInfoAttribute::Depth(depth.min(255) as u8),
            UciInfoAttribute::Nodes(nodes),
            UciInfoAttribute::Nps(nps),
            UciInfoAttribute::HashFull(hashfull.min(1000) as u16),
            UciInfoAttribute::TbHits(tbhits),
            UciInfoAttribute::Time(Duration::milliseconds(time_ms.min(i64::MAX as u64) as i64)),
        ],
    };
    UciMessage::Info(attributes).serialize()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::game::parse_uci_move;

    fn mv(board: &Board, text: &str) -> Move {
        parse_uci_move(board, text, false).unwrap()
    }

    fn sample(score: Score, bound: Bound, wdl: Option<(u32, u32, u32)>) -> SearchInfo {
        let board = Board::startpos();
        SearchInfo {
            depth: 7,
            seldepth: 11,
            multipv: 2,
            score,
            bound,
            wdl,
            nodes: 12345,
            nps: 600000,
            hashfull: 17,
            time_ms: 20,
            tbhits: 0,
            pv: vec![mv(&board, "e2e4"), Move::NULL],
        }
    }

    #[test]
    fn info_line_has_the_fields_in_order() {
        let line = info_line(
            &sample(Score::Cp(-31), Bound::Lower, Some((100, 800, 100))),
            false,
        );
        assert_eq!(
            line,
            "info depth 7 seldepth 11 multipv 2 score cp -31 lowerbound wdl 100 800 100 \
             nodes 12345 nps 600000 hashfull 17 tbhits 0 time 20 pv e2e4"
        );
        let line = info_line(&sample(Score::Mate(-3), Bound::Upper, None), false);
        assert!(line.contains("score mate -3 upperbound nodes"), "{line}");
    }

    #[test]
    fn heartbeat_lines() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let castle = mv(&board, "e1g1");
        let beat = Heartbeat::CurrMove {
            depth: 21,
            mv: castle,
            number: 3,
        };
        assert_eq!(
            heartbeat_line(&beat, false),
            "info depth 21 currmove e1g1 currmovenumber 3"
        );
        assert_eq!(
            heartbeat_line(&beat, true),
            "info depth 21 currmove e1h1 currmovenumber 3"
        );
        let beat = Heartbeat::Counters {
            depth: 9,
            nodes: 5_000_000,
            nps: 1_250_000,
            hashfull: 444,
            tbhits: 2,
            time_ms: 4000,
        };
        assert_eq!(
            heartbeat_line(&beat, false),
            "info depth 9 nodes 5000000 nps 1250000 hashfull 444 tbhits 2 time 4000"
        );
    }

    #[test]
    fn no_move_positions_and_strings() {
        let mut info = sample(Score::Mate(0), Bound::Exact, None);
        info.depth = 0;
        info.pv.clear();
        assert_eq!(info_line(&info, false), "info depth 0 score mate 0");
        assert_eq!(bestmove_line(Move::NULL, None, false), "bestmove 0000");
        assert_eq!(info_string("a\nb"), "info string a b");
    }

    #[test]
    fn bestmove_with_ponder_and_promotion_and_castling() {
        let board = Board::from_fen("4k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let promo = mv(&board, "b7b8n");
        let castle = mv(&board, "e1g1");
        assert_eq!(bestmove_line(promo, None, false), "bestmove b7b8n");
        assert_eq!(
            bestmove_line(castle, Some(promo), false),
            "bestmove e1g1 ponder b7b8n"
        );
        assert_eq!(bestmove_line(castle, None, true), "bestmove e1h1");
    }
}
