//! The neural evaluation: incremental accumulators equal ones built from scratch (and below a
//! set root are updated from it), the AVX2 and AVX-512 kernels equal the plain one, the network file
//! round-trips and damaged files are refused, packed training data round-trips, and the
//! trainer learns on a tiny data set and quantises faithfully.

mod common;

use common::Rng;
use quintessence::attacks::Magic;
use quintessence::board::Board;
use quintessence::eval::nnue::{
    Accumulator, AccumulatorStack, HIDDEN, INPUTS, InputLayout, Kernel, KingBuckets,
    MATERIAL_DIVISOR, MAX_DOT_LEN, Network, NetworkError, QA, default_network, file_image,
    file_size, header_len, material_scale, scale_by_material,
};
use quintessence::movegen::legal_moves;
use quintessence::train::nnue::net::{Activations, Features, FloatNet};
use quintessence::train::nnue::{Objective, TrainConfig, evaluation, loss, train};
use quintessence::train::packed::{self, ChessBoard, Filter};
use quintessence::types::Move;

/// Positions with castling, en passant, promotions and captures close at hand.
const STARTS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Chess960: castling where the king or the rook lands where it stood.
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
];

/// Walks random games keeping an accumulator stack the way the search does (copy-make, one
/// push per move, null moves included) and compares every evaluation with a fresh build.
#[test]
fn incremental_accumulators_equal_fresh_ones() {
    incremental_accumulators_equal_fresh_ones_with(&default_network());
}

/// The same with horizontal mirroring: a king crossing the d/e line rebuilds its side's view,
/// and what that gives equals a fresh build.
#[test]
fn mirrored_accumulators_rebuilt_at_a_king_crossing_equal_fresh_ones() {
    let mut net = (*default_network()).clone();
    net.layout.mirroring = true;
    let refreshes = incremental_accumulators_equal_fresh_ones_with(&net);
    // Random games move kings across the line often; each crossing is one rebuild.
    assert!(refreshes > 200, "{refreshes} rebuilds");
}

/// The same with four king buckets (mirrored): a king move into another bucket rebuilds its
/// side's view from the cache of that bucket. Each bucket's rows differ, so a view that used
/// another bucket's rows would score differently.
#[test]
fn king_bucketed_accumulators_rebuilt_at_a_bucket_change_equal_fresh_ones() {
    let net = king_bucketed(&default_network());
    let refreshes = incremental_accumulators_equal_fresh_ones_with(&net);
    assert!(refreshes > 400, "{refreshes} rebuilds");
    let board = Board::from_fen(STARTS[0]).unwrap();
    let plain = default_network();
    assert_ne!(
        Accumulator::from_board(&net, &board).evaluate(&net, &board),
        Accumulator::from_board(&plain, &board).evaluate(&plain, &board)
    );
}

const MIRRORED: InputLayout = InputLayout::mirrored(KingBuckets::One);
const FOUR: InputLayout = InputLayout::mirrored(KingBuckets::Four);

/// `net` with four mirrored king buckets, each a copy of its input rows moved a little in a
/// way of its own.
fn king_bucketed(net: &Network) -> Network {
    let mut net = net.clone();
    let rows = net.input_weights.len();
    net.input_weights = (0..FOUR.inputs())
        .map(|i| {
            let mut row = net.input_weights[i % rows];
            for (j, w) in row.0.iter_mut().enumerate() {
                *w = w.saturating_add(((i / rows * 7 + j) % 5) as i16 - 2);
            }
            row
        })
        .collect();
    net.layout = FOUR;
    net
}

/// Returns the rebuilds the stacks made.
fn incremental_accumulators_equal_fresh_ones_with(net: &Network) -> u64 {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut refreshes = 0;
    let mut checked = 0;
    for start in STARTS {
        for _ in 0..40 {
            let mut stack = AccumulatorStack::new(net, 128);
            let mut path = vec![Board::from_fen(start).unwrap()];
            for ply in 0..100 {
                let board = path[ply];
                // Evaluate only some plies so lazy updates cover several moves at once.
                if rng.below(3) == 0 {
                    let incremental = stack.evaluate(net, &board, ply);
                    let fresh = Accumulator::from_board(net, &board);
                    assert_eq!(
                        incremental,
                        fresh.evaluate(net, &board),
                        "{}",
                        board.to_fen()
                    );
                    checked += 1;
                }
                let moves = legal_moves::<Magic>(&board);
                if moves.is_empty() {
                    break;
                }
                let mut child = board;
                let mv = if rng.below(10) == 0 && !board.in_check::<Magic>() {
                    child.play_null();
                    Move::NULL
                } else {
                    let mv = *moves.iter().nth(rng.below(moves.len())).unwrap();
                    child.play(mv);
                    mv
                };
                stack.push(net, ply, &board, mv, &child);
                path.push(child);
            }
            refreshes += stack.refreshes();
        }
    }
    assert!(checked > 2000, "{checked}");
    refreshes
}

/// The search never evaluates a root whose table entry holds its evaluation: once the root is
/// set, its children are still updated from it, not each rebuilt from scratch.
#[test]
fn children_of_a_set_root_are_updated_from_it() {
    let net = default_network();
    for start in STARTS {
        let root = Board::from_fen(start).unwrap();
        let mut stack = AccumulatorStack::new(&net, 8);
        stack.set_root(&net, &root);
        // With a mirrored network a king crossing the d/e line is rebuilt: that is expected.
        let mut crossings = 0;
        for &mv in legal_moves::<Magic>(&root).iter() {
            let mut child = root;
            child.play(mv);
            let side = root.side_to_move();
            crossings += u64::from(
                net.layout.view(side, root.king(side)) != net.layout.view(side, child.king(side)),
            );
            stack.push(&net, 0, &root, mv, &child);
            let fresh = Accumulator::from_board(&net, &child);
            assert_eq!(
                stack.evaluate(&net, &child, 1),
                fresh.evaluate(&net, &child)
            );
        }
        assert_eq!(stack.refreshes(), 1 + crossings, "{start}");
    }
}

/// A stack kept from one network's search and handed another network (a new `EvalFile`)
/// evaluates with the new one: the rows its rebuild cache holds belong to the old network.
#[test]
fn a_stack_handed_another_network_evaluates_with_it() {
    let first = default_network();
    let mut second = (*first).clone();
    for (i, v) in second.hidden_bias.0.iter_mut().enumerate() {
        *v = v.wrapping_add(40 + 10 * (i % 7) as i16);
    }
    for row in second.input_weights.iter_mut().take(INPUTS / 2) {
        row.0
            .iter_mut()
            .take(16)
            .for_each(|w| *w = w.wrapping_add(30));
    }
    let mut disagreements = 0;
    for start in STARTS {
        let board = Board::from_fen(start).unwrap();
        let expected = [&*first, &second]
            .map(|net| Accumulator::from_board(net, &board).evaluate(net, &board));
        disagreements += usize::from(expected[0] != expected[1]);
        let mut stack = AccumulatorStack::new(&first, 8);
        assert_eq!(stack.evaluate(&first, &board, 0), expected[0], "{start}");
        stack.reset();
        assert_eq!(stack.evaluate(&second, &board, 0), expected[1], "{start}");
        stack.reset();
        assert_eq!(stack.evaluate(&first, &board, 0), expected[0], "{start}");
    }
    assert!(
        disagreements >= 3,
        "the two networks must disagree ({disagreements} of 5)"
    );
}

/// The vector kernels this CPU runs (AVX2, AVX-512, NEON), each to be compared with the plain one;
/// a message for each one it lacks.
fn vector_kernels() -> Vec<Kernel> {
    let available = Kernel::available();
    // The engine's networks run the widest kernel the CPU has.
    assert_eq!(default_network().kernel(), *available.last().unwrap());
    assert_eq!(Kernel::detected(), *available.last().unwrap());
    let kernels = [
        ("AVX2", Kernel::avx2(), cfg!(target_arch = "x86_64")),
        ("AVX-512", Kernel::avx512(), cfg!(target_arch = "x86_64")),
        ("NEON", Kernel::neon(), cfg!(target_arch = "aarch64")),
    ];
    for (name, kernel, this_arch) in kernels {
        if this_arch && kernel.is_none() {
            eprintln!("skipped: this CPU has no {name}, that kernel is not compared");
        }
    }
    available
        .into_iter()
        .filter(|&k| k != Kernel::SCALAR)
        .collect()
}

/// i16 values drawn to hit the kernels' edges: the clamp bounds 0 and QA, the i16 limits and
/// the loader's ±127 output-weight bound, and anything in between.
fn edgy(rng: &mut Rng, bound: i16) -> i16 {
    let q = QA as i16;
    let edges = [
        0,
        1,
        -1,
        q - 1,
        q,
        q + 1,
        127,
        -127,
        i16::MAX,
        i16::MIN,
        128,
        -128,
    ];
    let v = match rng.below(3) {
        0 => edges[rng.below(edges.len())],
        1 => (rng.below(2 * q as usize + 40) as i16) - q / 2 - 20,
        _ => rng.next_u64() as i16,
    };
    if bound < i16::MAX && v.unsigned_abs() > bound.unsigned_abs() {
        (rng.below(2 * bound as usize + 1) as i32 - i32::from(bound)) as i16
    } else {
        v
    }
}

/// Every slice length one dot product takes (1 to 256, so the vector loops' scalar
/// tails too), random and extreme values: updates and dot products agree exactly.
#[test]
fn vector_kernels_equal_scalar_on_random_and_extreme_rows() {
    for simd in vector_kernels() {
        kernel_equals_scalar_on_random_and_extreme_rows(simd);
    }
}

fn kernel_equals_scalar_on_random_and_extreme_rows(simd: Kernel) {
    let scalar = Kernel::SCALAR;
    let name = simd.name();
    let mut rng = Rng::new(0xD1B5_4A32_D192_ED03);
    for len in 1..=MAX_DOT_LEN {
        for trial in 0..6 {
            // Output weights within the loader's ±127, then (trial 5) any i16: the i16
            // product wraps alike in both kernels.
            let bound = if trial < 5 { 127 } else { i16::MAX };
            let mut draw = |b: i16| (0..len).map(|_| edgy(&mut rng, b)).collect::<Vec<i16>>();
            let (acc, weights) = (draw(i16::MAX), draw(bound));
            let (add, sub) = (draw(i16::MAX), draw(i16::MAX));
            assert_eq!(
                simd.screlu_dot(&acc, &weights),
                scalar.screlu_dot(&acc, &weights),
                "{name} dot, len {len}, trial {trial}"
            );
            let (mut a, mut b) = (acc.clone(), acc.clone());
            simd.add_assign(&mut a, &add);
            scalar.add_assign(&mut b, &add);
            assert_eq!(a, b, "{name} add, len {len}");
            simd.sub_assign(&mut a, &sub);
            scalar.sub_assign(&mut b, &sub);
            assert_eq!(a, b, "{name} sub, len {len}");
            // Wrapping undoes exactly.
            simd.sub_assign(&mut a, &add);
            simd.add_assign(&mut a, &sub);
            assert_eq!(a, acc, "{name} add then sub, len {len}");
            let (mut a, mut b) = (vec![0; len], vec![0; len]);
            simd.add_sub(&mut a, &acc, &add, &sub);
            scalar.add_sub(&mut b, &acc, &add, &sub);
            assert_eq!(a, b, "{name} add_sub, len {len}");
            // A capture's update in one pass equals add_sub, then the second removal.
            let sub2 = draw(i16::MAX);
            let (mut c, mut d) = (vec![0; len], vec![0; len]);
            simd.add_sub_sub(&mut c, &acc, &add, [&sub, &sub2]);
            scalar.add_sub_sub(&mut d, &acc, &add, [&sub, &sub2]);
            assert_eq!(c, d, "{name} add_sub_sub, len {len}");
            scalar.sub_assign(&mut b, &sub2);
            assert_eq!(c, b, "{name} add_sub_sub against add_sub, sub, len {len}");
        }
    }
    // The largest sum: every lane at QA against the loader's largest weights.
    let full = vec![QA as i16; MAX_DOT_LEN];
    for w in [127i16, -127] {
        let weights = vec![w; MAX_DOT_LEN];
        let expected = MAX_DOT_LEN as i32 * QA * QA * i32::from(w);
        assert_eq!(simd.screlu_dot(&full, &weights), expected);
        assert_eq!(scalar.screlu_dot(&full, &weights), expected);
    }
}

/// Output sums of networks wider than one i32 sum holds (the engine takes up to 1024): every
/// kernel equals a plain i64 sum, at random widths and at the largest terms, whose total at
/// 1024 is four times what an i32 holds.
#[test]
fn wide_output_sums_equal_an_i64_reference() {
    let reference = |acc: &[i16], weights: &[i16]| -> i64 {
        acc.iter()
            .zip(weights)
            .map(|(&v, &w)| {
                let c = i64::from(v.clamp(0, QA as i16));
                c * c * i64::from(w)
            })
            .sum()
    };
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for kernel in Kernel::available() {
        let name = kernel.name();
        for trial in 0..40 {
            let len = 1 + rng.below(1024);
            let acc: Vec<i16> = (0..len).map(|_| edgy(&mut rng, i16::MAX)).collect();
            let weights: Vec<i16> = (0..len).map(|_| edgy(&mut rng, 127)).collect();
            assert_eq!(
                kernel.screlu_sum(&acc, &weights),
                reference(&acc, &weights),
                "{name}, len {len}, trial {trial}"
            );
        }
        let full = vec![QA as i16; 1024];
        for w in [127i16, -127] {
            let weights = vec![w; 1024];
            let expected = 1024 * i64::from(QA * QA) * i64::from(w);
            assert!(expected.abs() > 3 * i64::from(i32::MAX));
            assert_eq!(kernel.screlu_sum(&full, &weights), expected, "{name}");
        }
    }
}

/// A network of random weights drawn by `value` (file order), through the loader.
fn random_network(rng: &mut Rng, mut value: impl FnMut(&mut Rng, usize) -> i16) -> Network {
    let count = (file_size(HIDDEN, 1, InputLayout::PLAIN) - 20) / 2;
    let values: Vec<i16> = (0..count).map(|i| value(rng, i)).collect();
    Network::from_bytes(&file_image(HIDDEN, 1, InputLayout::PLAIN, 400, &values)).unwrap()
}

/// Whole networks: the embedded one, one whose accumulators cross the clamp bounds often and
/// whose output weights sit at ±127, and one whose accumulators wrap around in i16. Over random
/// games, each vector kernel's accumulators (from scratch and incremental) and scores equal the
/// scalar kernel's.
#[test]
fn vector_kernel_network_scores_equal_scalar_ones() {
    let kernels = vector_kernels();
    let inputs = INPUTS * HIDDEN;
    let outputs = inputs + HIDDEN;
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let near_clamp = random_network(&mut rng, |rng, i| match i {
        i if i < outputs => (rng.below(161) as i16) - 80,
        i if i < outputs + 2 * HIDDEN => [127, -127][rng.below(2)],
        _ => rng.next_u64() as i16,
    });
    let wrapping = random_network(&mut rng, |rng, i| match i {
        i if i < outputs => rng.next_u64() as i16,
        i if i < outputs + 2 * HIDDEN => edgy(rng, 127),
        _ => rng.next_u64() as i16,
    });
    for net in [(*default_network()).clone(), near_clamp, wrapping] {
        for &kernel in &kernels {
            let simd = net.clone().with_kernel(kernel);
            let scalar = net.clone().with_kernel(Kernel::SCALAR);
            let [below, inside, above] = compare_kernels_over_games(&simd, &scalar, &mut rng);
            eprintln!(
                "{}: accumulator values {below} below 0, {inside} within 0..=QA, {above} above",
                kernel.name()
            );
            assert!(
                below > 0 && inside > 0 && above > 0,
                "both clamp bounds in play"
            );
        }
    }
}

/// Counts of the accumulator values seen below 0, within the clamp and above `QA`.
fn compare_kernels_over_games(simd: &Network, scalar: &Network, rng: &mut Rng) -> [usize; 3] {
    let mut checked = 0;
    let mut counts = [0; 3];
    for start in STARTS {
        for _ in 0..10 {
            let mut stacks = [simd, scalar].map(|n| AccumulatorStack::new(n, 128));
            let mut board = Board::from_fen(start).unwrap();
            for ply in 0..100 {
                let [a, b] = [simd, scalar].map(|n| Accumulator::from_board(n, &board));
                assert_eq!(a, b, "{}", board.to_fen());
                for &v in a.0.iter().flat_map(|row| row.0.iter()) {
                    counts[usize::from(v >= 0) + usize::from(i32::from(v) > QA)] += 1;
                }
                let fresh = a.evaluate(simd, &board);
                assert_eq!(fresh, b.evaluate(scalar, &board), "{}", board.to_fen());
                if rng.below(2) == 0 {
                    let [x, y] = &mut stacks;
                    let incremental = x.evaluate(simd, &board, ply);
                    assert_eq!(incremental, y.evaluate(scalar, &board, ply));
                    assert_eq!(incremental, fresh, "{}", board.to_fen());
                }
                checked += 1;
                let moves = legal_moves::<Magic>(&board);
                if moves.is_empty() {
                    break;
                }
                let mut child = board;
                let mv = *moves.iter().nth(rng.below(moves.len())).unwrap();
                child.play(mv);
                let [x, y] = &mut stacks;
                x.push(simd, ply, &board, mv, &child);
                y.push(scalar, ply, &board, mv, &child);
                board = child;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
    counts
}

#[test]
fn evaluation_is_colour_symmetric() {
    let net = default_network();
    for (fen, mirrored) in [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1",
        ),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1",
        ),
    ] {
        let a = Board::from_fen(fen).unwrap();
        let b = Board::from_fen(mirrored).unwrap();
        assert_eq!(
            Accumulator::from_board(&net, &a).evaluate(&net, &a),
            Accumulator::from_board(&net, &b).evaluate(&net, &b)
        );
    }
}

#[test]
fn network_file_round_trips_and_damage_is_named() {
    let net = default_network();
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), *net);

    assert_eq!(
        Network::from_bytes(&bytes[..10]),
        Err(NetworkError::TooShort(10))
    );
    let mut bad = bytes.clone();
    bad[0] ^= 1;
    assert_eq!(Network::from_bytes(&bad), Err(NetworkError::BadMagic));
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x40;
    assert_eq!(Network::from_bytes(&bad), Err(NetworkError::BadChecksum));
    assert!(matches!(
        Network::from_bytes(&bytes[..bytes.len() - 2]),
        Err(NetworkError::WrongSize { .. })
    ));
    // The scale is the header's second-to-last word (after the bucket count in `QNNUE03`).
    let scale_at = header_len(net.buckets(), net.layout) - 8;
    let mut bad = bytes.clone();
    bad[scale_at..scale_at + 4].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bad), Err(NetworkError::BadScale(0)));
    let mut wide = bytes.clone();
    wide[8..12].copy_from_slice(&((HIDDEN as u32) * 2).to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&wide),
        Err(NetworkError::WrongWidth { .. })
    ));
}

/// The mean and worst quantisation error allowed, in centipawns. The output weights of
/// these small-weight networks round to 1/64 apiece and their errors add up over the 2·H
/// hidden units like a random walk, so the allowance grows with the square root of the width
/// (8 and 40 cp at H = 128).
fn quantisation_tolerance() -> (f32, f32) {
    let growth = (HIDDEN as f32 / 128.0).sqrt();
    (8.0 * growth, 40.0 * growth)
}

/// The board of a packed position.
fn board_of(pos: &ChessBoard) -> Board {
    let fen = packed::describe(pos);
    Board::from_fen(fen.split('|').next().unwrap().trim()).unwrap()
}

/// A float network of eight output buckets quantises to a file the engine loads, round-trips,
/// and scores each position by its own bucket as the float network does.
#[test]
fn output_buckets_quantise_and_score_by_piece_count() {
    let float = FloatNet::random(HIDDEN, 8, 21);
    let scale = 400.0;
    let bytes = float.quantise(scale);
    assert_eq!(bytes.len(), file_size(HIDDEN, 8, InputLayout::PLAIN));
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!(net.buckets(), 8);
    assert_eq!(net.to_bytes(), bytes);
    // A damaged bucket count is named.
    let mut bad = bytes.clone();
    bad[12..16].copy_from_slice(&17u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bad), Err(NetworkError::BadBuckets(17)));
    // The float checkpoint round-trips with its buckets.
    assert_eq!(FloatNet::from_bytes(&float.to_bytes()).unwrap(), float);

    let mut scratch = Activations::new(HIDDEN);
    let mut buckets_seen = std::collections::HashSet::new();
    let (mut total, mut worst, mut count, mut differs) = (0.0f32, 0.0f32, 0, 0);
    for pos in sample_positions(2_000, 5).iter().step_by(4) {
        let board = board_of(pos);
        let acc = Accumulator::from_board(&net, &board);
        let quantised = acc.evaluate(&net, &board);
        let float_cp = float.output(&Features::of(pos, float.layout), &mut scratch) * scale;
        let error = (float_cp - quantised as f32).abs();
        total += error;
        worst = worst.max(error);
        count += 1;
        let bucket = net.bucket(board.occupied().count() as usize);
        buckets_seen.insert(bucket);
        // Another bucket's output layer scores differently: the choice matters.
        let side = board.side_to_move();
        let other = net.evaluate(
            &acc.0[side.index()],
            &acc.0[(!side).index()],
            (bucket + 4) % 8,
        );
        differs += usize::from(other != quantised);
    }
    assert!(buckets_seen.len() >= 4, "buckets {buckets_seen:?}");
    assert!(
        differs * 10 > count * 9,
        "{differs} of {count} differ by bucket"
    );
    let mean = total / count as f32;
    let (mean_limit, worst_limit) = quantisation_tolerance();
    assert!(
        mean < mean_limit && worst < worst_limit,
        "quantisation error: mean {mean} cp, worst {worst} cp"
    );
}

/// A mirrored float network quantises to a `QNNUE04` file that loads with mirroring on,
/// round-trips (file and checkpoint), and scores as the float network does.
#[test]
fn mirrored_networks_quantise_load_and_score_as_the_float_one() {
    let float = FloatNet::random(HIDDEN, 8, 23)
        .with_layout(MIRRORED)
        .unwrap();
    let bytes = float.quantise(400.0);
    assert_eq!(bytes.len(), file_size(HIDDEN, 8, MIRRORED));
    assert_eq!(&bytes[..8], b"QNNUE04\0");
    let net = Network::from_bytes(&bytes).unwrap();
    assert!(net.layout.mirroring);
    assert_eq!(net.to_bytes(), bytes);
    assert_eq!(FloatNet::from_bytes(&float.to_bytes()).unwrap(), float);
    let one = FloatNet::random(HIDDEN, 1, 23)
        .with_layout(MIRRORED)
        .unwrap();
    assert_eq!(FloatNet::from_bytes(&one.to_bytes()).unwrap(), one);
    // An unknown flag is refused.
    let mut bad = bytes.clone();
    for flags in [8u32, 0b100] {
        bad[16..20].copy_from_slice(&flags.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&bad),
            Err(NetworkError::BadFlags(flags))
        );
    }

    let mut scratch = Activations::new(HIDDEN);
    let (mut total, mut count, mut mirrored) = (0.0f32, 0, 0);
    for pos in sample_positions(2_000, 7).iter().step_by(4) {
        let board = board_of(pos);
        let quantised = Accumulator::from_board(&net, &board).evaluate(&net, &board);
        let float_cp = float.output(&Features::of(pos, MIRRORED), &mut scratch) * 400.0;
        total += (float_cp - quantised as f32).abs();
        count += 1;
        mirrored += usize::from(board.king(board.side_to_move()).file() as usize >= 4);
    }
    // Both halves of the board were seen, and scored alike by both networks.
    assert!(mirrored > 0 && mirrored < count, "{mirrored} of {count}");
    let mean = total / count as f32;
    assert!(
        mean < quantisation_tolerance().0,
        "quantisation error: mean {mean} cp"
    );
}

/// A float network of four king buckets quantises to a `QNNUE04` file that loads with its
/// layout, round-trips (file and checkpoint), and scores as the float network does; a plain
/// network copied into four king buckets scores every position as before, and training then
/// moves only the bucket of each side's king.
#[test]
fn king_bucketed_networks_quantise_load_and_score_as_the_float_one() {
    let plain = FloatNet::random(HIDDEN, 8, 29)
        .with_layout(MIRRORED)
        .unwrap();
    let float = plain.clone().with_layout(FOUR).unwrap();
    assert_eq!(float.params.len(), plain.params.len() + 3 * INPUTS * HIDDEN);
    let bytes = float.quantise(400.0);
    assert_eq!(bytes.len(), file_size(HIDDEN, 8, FOUR));
    assert_eq!(&bytes[..8], b"QNNUE04\0");
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!(net.layout, FOUR);
    assert_eq!(net.input_weights.len(), 4 * INPUTS);
    assert_eq!(net.to_bytes(), bytes);
    assert_eq!(FloatNet::from_bytes(&float.to_bytes()).unwrap(), float);
    // Four buckets cannot become eight, nor go back to one.
    assert!(float.clone().with_layout(MIRRORED).is_err());

    let mut scratch = Activations::new(HIDDEN);
    let mut buckets = std::collections::HashSet::new();
    let (mut total, mut count) = (0.0f32, 0);
    for pos in sample_positions(2_000, 11).iter().step_by(4) {
        let board = board_of(pos);
        let (f, f_plain) = (Features::of(pos, FOUR), Features::of(pos, MIRRORED));
        let float_out = float.output(&f, &mut scratch);
        assert_eq!(float_out, plain.output(&f_plain, &mut scratch));
        let quantised = Accumulator::from_board(&net, &board).evaluate(&net, &board);
        total += (float_out * 400.0 - quantised as f32).abs();
        count += 1;
        buckets.insert(usize::from(f.us[0]) / INPUTS);
    }
    assert!(buckets.len() >= 3, "king buckets seen {buckets:?}");
    // A gradient touches only the king buckets of the position's two views.
    let pos = &sample_positions(10, 13)[0];
    let f = Features::of(pos, FOUR);
    let mut grad = vec![0.0; float.params.len()];
    float.backprop(&f, 0.9, 2.0, 1.0, &mut scratch, &mut grad);
    let used = [
        usize::from(f.us[0]) / INPUTS,
        usize::from(f.them[0]) / INPUTS,
    ];
    for bucket in 0..4 {
        let rows = &grad[bucket * INPUTS * HIDDEN..(bucket + 1) * INPUTS * HIDDEN];
        let moved = rows.iter().any(|&g| g != 0.0);
        assert_eq!(
            moved,
            used.contains(&bucket),
            "bucket {bucket}, used {used:?}"
        );
    }
    let mean = total / count as f32;
    assert!(
        mean < quantisation_tolerance().0,
        "quantisation error: mean {mean} cp"
    );
}

/// A one-bucket network copied into eight buckets scores every position as before, so training
/// buckets can start from a trained network.
#[test]
fn one_bucket_network_spread_over_eight_scores_the_same() {
    let one = FloatNet::random(HIDDEN, 1, 9);
    let eight = one.clone().with_buckets(8).unwrap();
    assert_eq!(eight.buckets, 8);
    assert!(eight.clone().with_buckets(4).is_err());
    let mut scratch = Activations::new(HIDDEN);
    for pos in sample_positions(400, 13) {
        let f = Features::of(&pos, InputLayout::PLAIN);
        assert_eq!(one.output(&f, &mut scratch), eight.output(&f, &mut scratch));
    }
}

fn sample_positions(n: usize, seed: u64) -> Vec<ChessBoard> {
    // Labels from the hand-crafted evaluation so that there is something to learn.
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut board = Board::from_fen(STARTS[rng.below(STARTS.len())]).unwrap();
        for _ in 0..(20 + rng.below(40)) {
            let moves = legal_moves::<Magic>(&board);
            if moves.is_empty() {
                break;
            }
            board.play(*moves.iter().nth(rng.below(moves.len())).unwrap());
            let score =
                quintessence::eval::hce::evaluate_uncached::<Magic>(&board).clamp(-3000, 3000);
            let result = [0.0, 0.5, 1.0][rng.below(3)];
            out.push(packed::pack(&board, score, result, 0));
        }
    }
    out
}

#[test]
fn packed_positions_round_trip() {
    let positions = sample_positions(500, 7);
    let bytes = packed::to_bytes(&positions).to_vec();
    assert_eq!(bytes.len(), 32 * positions.len());
    assert_eq!(packed::from_bytes(&bytes), positions);
    // A record cut short by a crash is dropped, not misread.
    assert_eq!(
        packed::from_bytes(&bytes[..bytes.len() - 5]).len(),
        positions.len() - 1
    );
    // The text dump is a FEN of the side to move's view that packs to the same record.
    for pos in &positions[..50] {
        let line = packed::describe(pos);
        let fen = line.split('|').next().unwrap().trim();
        let board = Board::from_fen(fen).unwrap();
        let again = packed::pack(&board, i32::from(pos.score), f32::from(pos.result) / 2.0, 0);
        assert_eq!(
            (again.occ, again.pcs, again.score, again.result),
            (pos.occ, pos.pcs, pos.score, pos.result)
        );
    }
}

#[test]
fn training_lowers_the_loss_and_quantising_keeps_the_scores() {
    let dir = std::env::temp_dir().join(format!("quintessence-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("tiny.bin");
    std::fs::write(&data, packed::to_bytes(&sample_positions(30_000, 11))).unwrap();
    let filter = Filter {
        min_ply: 0,
        ..Filter::default()
    };
    let config = TrainConfig {
        data: vec![data.clone()],
        hidden: HIDDEN,
        epochs: 6,
        batch: 256,
        lr: 0.01,
        lambda: 0.0,
        score_scale: 150.0,
        threads: 2,
        seed: 3,
        out: dir.clone(),
        holdout_every: 10,
        filter,
        ..TrainConfig::default()
    };
    let reports = train(&config, |_| {}).unwrap();
    let first = FloatNet::random(HIDDEN, config.buckets, config.seed)
        .with_layout(config.layout)
        .unwrap();
    let held: Vec<ChessBoard> = packed::read_all(&data)
        .unwrap()
        .into_iter()
        .step_by(10)
        .collect();
    let blend = Objective {
        lambda: 0.0,
        score_scale: config.score_scale,
        power: 2.0,
        material_scaling: config.material_scaling,
    };
    let before = loss(&first, &held, blend);
    let after = reports.last().unwrap().holdout_loss;
    assert!(after < before * 0.5, "held-out loss {before} -> {after}");
    assert!(reports.last().unwrap().train_loss < reports[0].train_loss);
    // The loss curve is drawn beside the CSV.
    let png = std::fs::read(dir.join("loss.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));

    // The quantised file the engine loads scores like the float network it came from.
    let float =
        FloatNet::from_bytes(&std::fs::read(dir.join("checkpoint-6.bin")).unwrap()).unwrap();
    let net = Network::from_bytes(&std::fs::read(dir.join("epoch-6.nnue")).unwrap()).unwrap();
    // Rounding the output weights to 1/QB moves a score by a few centipawns per active
    // neuron, so the bound is on the mean error with a looser one on the worst.
    let mut scratch = Activations::new(HIDDEN);
    let (mut total, mut worst) = (0.0f32, 0.0f32);
    let sample = &held[..300];
    for pos in sample {
        let float_cp =
            float.output(&Features::of(pos, float.layout), &mut scratch) * config.score_scale;
        let board = board_of(pos);
        let quantised = Accumulator::from_board(&net, &board).evaluate(&net, &board);
        let error = (float_cp - quantised as f32).abs();
        total += error;
        worst = worst.max(error);
    }
    let mean = total / sample.len() as f32;
    let (mean_limit, worst_limit) = quantisation_tolerance();
    assert!(
        mean < mean_limit && worst < worst_limit,
        "quantisation error: mean {mean} cp, worst {worst} cp"
    );
    // What the trainer fitted is what the search evaluates: the raw output times the
    // material scale, applied once (issue 69 §0.1).
    assert!(config.material_scaling, "the default objective scales");
    let (mut scaled_error, mut raw_error) = (0.0f32, 0.0f32);
    for pos in sample {
        let f = Features::of(pos, float.layout);
        let fitted = evaluation(&float, &f, blend, &mut scratch) * config.score_scale;
        let raw = float.output(&f, &mut scratch) * config.score_scale;
        let board = board_of(pos);
        let quantised = Accumulator::from_board(&net, &board).evaluate(&net, &board);
        let searched = scale_by_material(quantised, &board) as f32;
        scaled_error += (fitted - searched).abs();
        raw_error += (raw - searched).abs();
        assert_eq!(
            f.material,
            material_scale(&board) as f32 / MATERIAL_DIVISOR as f32
        );
    }
    let scaled_error = scaled_error / sample.len() as f32;
    let raw_error = raw_error / sample.len() as f32;
    assert!(
        scaled_error < mean_limit && raw_error > 2.0 * scaled_error,
        "search minus fitted evaluation: {scaled_error} cp; minus the raw output: {raw_error} cp"
    );
    // Same seed, same threads: the same network.
    let again_dir = dir.join("again");
    let again = TrainConfig {
        out: again_dir.clone(),
        epochs: 1,
        ..config.clone()
    };
    train(&again, |_| {}).unwrap();
    let once = TrainConfig {
        out: dir.join("once"),
        epochs: 1,
        ..config
    };
    train(&once, |_| {}).unwrap();
    assert_eq!(
        std::fs::read(again_dir.join("epoch-1.nnue")).unwrap(),
        std::fs::read(dir.join("once/epoch-1.nnue")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_training_ends_where_an_unbroken_one_does() {
    let dir = std::env::temp_dir().join(format!("quintessence-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("tiny.bin");
    std::fs::write(&data, packed::to_bytes(&sample_positions(3_000, 5))).unwrap();
    let config = TrainConfig {
        data: vec![data.clone()],
        hidden: HIDDEN,
        epochs: 4,
        batch: 128,
        threads: 2,
        seed: 9,
        out: dir.join("whole"),
        holdout_every: 10,
        filter: Filter {
            min_ply: 0,
            ..Filter::default()
        },
        ..TrainConfig::default()
    };
    let whole = train(&config, |_| {}).unwrap();
    let resumed = train(
        &TrainConfig {
            out: dir.join("resumed"),
            resume: Some(dir.join("whole/checkpoint-2.bin")),
            ..config.clone()
        },
        |_| {},
    )
    .unwrap();
    assert_eq!(resumed.len(), 2, "epochs 3 and 4");
    assert_eq!(resumed[1].train_loss, whole[3].train_loss);
    let read = |p: &str| std::fs::read(dir.join(p)).unwrap();
    assert_eq!(
        read("resumed/checkpoint-4.bin"),
        read("whole/checkpoint-4.bin")
    );
    assert_eq!(
        read("resumed/optimiser-4.bin"),
        read("whole/optimiser-4.bin")
    );
    // A checkpoint without its optimiser state is refused by name.
    std::fs::remove_file(dir.join("whole/optimiser-3.bin")).unwrap();
    let err = train(
        &TrainConfig {
            out: dir.join("again"),
            resume: Some(dir.join("whole/checkpoint-3.bin")),
            ..config.clone()
        },
        |_| {},
    )
    .unwrap_err();
    assert!(err.contains("optimiser-3.bin"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--lambda-end` moves the result's weight linearly over the run; without it λ stays put.
#[test]
fn a_lambda_schedule_moves_linearly_from_start_to_end() {
    let plain = TrainConfig {
        lambda: 0.1,
        ..TrainConfig::default()
    };
    assert_eq!(plain.lambda_at(0.0), 0.1);
    assert_eq!(plain.lambda_at(1.0), 0.1);
    let schedule = TrainConfig {
        lambda: 0.1,
        lambda_end: Some(0.5),
        ..TrainConfig::default()
    };
    assert!((schedule.lambda_at(0.0) - 0.1).abs() < 1e-6);
    assert!((schedule.lambda_at(0.5) - 0.3).abs() < 1e-6);
    assert!((schedule.lambda_at(1.0) - 0.5).abs() < 1e-6);
    assert!(
        (schedule.lambda_at(2.0) - 0.5).abs() < 1e-6,
        "past the end it stays at the end"
    );
}
