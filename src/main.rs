use quintessence::attacks::{Backend, magic_finder};
use quintessence::{Board, with_backend};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("magics") => print!("{}", magic_finder::source()),
        Some("perft") => {
            let depth: u32 = args[2].parse().unwrap();
            let fen = args
                .get(3)
                .cloned()
                .unwrap_or(quintessence::board::START_FEN.into());
            let backend = args
                .get(4)
                .map(|n| Backend::parse(n).unwrap())
                .unwrap_or(Backend::fastest());
            let board = Board::from_fen(&fen).unwrap();
            let start = Instant::now();
            let nodes = with_backend!(backend, A => quintessence::perft::perft::<A>(&board.with_occupancy(), depth));
            let t = start.elapsed().as_secs_f64();
            println!(
                "{backend}: {nodes} nodes {:.3}s {:.1} Mnps",
                t,
                nodes as f64 / t / 1e6
            );
        }
        Some("bench") => {
            let depth = args
                .get(2)
                .and_then(|d| d.parse().ok())
                .unwrap_or(quintessence::search::bench::DEFAULT_DEPTH);
            let r = quintessence::search::bench::run(depth, &Default::default());
            println!("{} nodes {} nps", r.nodes, r.nps());
        }
        Some("go") => {
            let fen = args
                .get(2)
                .cloned()
                .unwrap_or(quintessence::board::START_FEN.into());
            let depth: u32 = args.get(3).and_then(|d| d.parse().ok()).unwrap_or(10);
            let game = quintessence::board::Game::from_fen(&fen).unwrap();
            let mut s = quintessence::search::Searcher::new(64);
            let c = quintessence::search::SearchControl::new();
            let r = s.search(
                &game,
                &quintessence::search::Limits::depth(depth),
                &Default::default(),
                &c,
                &mut |i| {
                    println!(
                        "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
                        i.depth,
                        i.seldepth,
                        i.score,
                        i.nodes,
                        i.nps,
                        i.time_ms,
                        i.pv.iter()
                            .map(|m| m.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    );
                },
            );
            println!("bestmove {}", r.best);
        }
        _ => {}
    }
}
