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
        Some("datagen") => {
            let mut c = quintessence::tune::datagen::DatagenConfig::default();
            let mut i = 2;
            while i + 1 < args.len() {
                match args[i].as_str() {
                    "--games" => c.games = args[i + 1].parse().unwrap(),
                    "--threads" => c.threads = args[i + 1].parse().unwrap(),
                    "--nodes" => c.nodes = args[i + 1].parse().unwrap(),
                    "--seed" => c.seed = args[i + 1].parse().unwrap(),
                    "--out" => c.output = args[i + 1].clone().into(),
                    _ => panic!("unknown datagen option {}", args[i]),
                }
                i += 2;
            }
            let n = quintessence::tune::datagen::run(&c).unwrap();
            eprintln!("wrote {n} positions");
        }
        Some("tune") => {
            use quintessence::tune::tuner::*;
            let mut c = TuneConfig::default();
            let mut data = String::from("data/selfplay.txt");
            let mut out = String::from("src/eval/params.rs");
            let mut i = 2;
            while i + 1 < args.len() {
                match args[i].as_str() {
                    "--data" => data = args[i + 1].clone(),
                    "--epochs" => c.epochs = args[i + 1].parse().unwrap(),
                    "--lr" => c.learning_rate = args[i + 1].parse().unwrap(),
                    "--lambda" => c.result_weight = args[i + 1].parse().unwrap(),
                    "--reg" => c.regularization = args[i + 1].parse().unwrap(),
                    "--out" => out = args[i + 1].clone(),
                    _ => panic!("unknown tune option {}", args[i]),
                }
                i += 2;
            }
            let probe = Dataset::load(std::path::Path::new(&data), 1.0, 1.0).unwrap();
            let k = find_k(&probe, c.threads);
            drop(probe);
            let mut set = Dataset::load(std::path::Path::new(&data), c.result_weight, k).unwrap();
            let held = set.split_every(10);
            let w0 = current_weights();
            eprintln!(
                "{} positions, K = {k:.3}, error {:.6}, held-out {:.6}",
                set.len(),
                error(&set, &w0, k, c.threads),
                error(&held, &w0, k, c.threads)
            );
            let w = tune(&set, k, &c);
            eprintln!(
                "final error {:.6}, held-out {:.6}",
                error(&set, &w, k, c.threads),
                error(&held, &w, k, c.threads)
            );
            std::fs::write(&out, params_source(&w)).unwrap();
        }
        Some("eval") => {
            let b = Board::from_fen(&args[2]).unwrap();
            println!(
                "{}",
                quintessence::eval::describe::<quintessence::attacks::Magic>(&b)
            );
        }
        _ => {}
    }
}
