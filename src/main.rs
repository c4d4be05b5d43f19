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
        _ => {}
    }
}
