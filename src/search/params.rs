//! Every margin, reduction and limit of the search, by name, in one place: what a reader
//! looks up to see the search's knobs, and what a tuner (SPSA) adjusts. All are integers;
//! the late-move reduction formula's two real constants are kept in hundredths. Each has a
//! range for the tuner: `--features spsa` (`make TUNE=1`) builds an engine that offers them as
//! UCI options (`scripts/spsa.py` and OpenBench drive it).

/// One search parameter: its value, and the range a tuner may move it in.
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// Tuning builds read the value at run time, so a UCI option can change it.
    #[cfg(feature = "spsa")]
    value: std::sync::atomic::AtomicI32,
}

impl Param {
    const fn new(name: &'static str, default: i32, min: i32, max: i32) -> Param {
        Param {
            name,
            default,
            min,
            max,
            #[cfg(feature = "spsa")]
            value: std::sync::atomic::AtomicI32::new(default),
        }
    }

    /// The value in use: the built-in one, or in a tuning build the last one set.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        #[cfg(feature = "spsa")]
        return self.value.load(std::sync::atomic::Ordering::Relaxed);
        #[cfg(not(feature = "spsa"))]
        self.default
    }
}

/// Sets the parameter `name` (a tuning build's UCI option), clamped into its range; false
/// when there is no such parameter.
#[cfg(feature = "spsa")]
pub fn set(name: &str, value: i32) -> bool {
    let Some(param) = ALL.iter().find(|p| p.name == name) else {
        return false;
    };
    let value = value.clamp(param.min, param.max);
    param
        .value
        .store(value, std::sync::atomic::Ordering::Relaxed);
    true
}

// A normal build makes every parameter a constant, so the search compiles as if the numbers
// were written inline; a tuning build (`--features spsa`) makes them statics it can change.
macro_rules! params {
    ($($(#[doc = $doc:expr])* $name:ident = $value:literal, $min:literal..=$max:literal;)*) => {
        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "spsa"))]
            pub const $name: Param = Param::new(stringify!($name), $value, $min, $max);
            $(#[doc = $doc])*
            #[cfg(feature = "spsa")]
            pub static $name: Param = Param::new(stringify!($name), $value, $min, $max);
        )*

        /// Every parameter, for tuning tools and the tuning build's UCI options.
        pub static ALL: &[&Param] = &[$(&$name),*];
    };
}

params! {
    /// Aspiration windows start at this iteration...
    ASPIRATION_MIN_DEPTH = 4, 1..=8;
    /// ... this far either side of the last score,
    ASPIRATION_DELTA = 12, 5..=60;
    /// and the search falls back to a full window once the step grows past this.
    ASPIRATION_MAX_DELTA = 1_000, 200..=3000;

    /// Reverse futility pruning: up to this depth,
    RFP_MAX_DEPTH = 8, 4..=12;
    /// when the evaluation beats beta by this much per ply of depth.
    RFP_MARGIN = 58, 30..=150;

    /// Null-move pruning from this depth,
    NMP_MIN_DEPTH = 3, 1..=6;
    /// when the static evaluation is at least `beta - NMP_EVAL_DEPTH_MARGIN * depth +
    /// NMP_EVAL_BASE`.
    NMP_EVAL_DEPTH_MARGIN = 22, 0..=60;
    NMP_EVAL_BASE = 104, 0..=400;
    /// Reduction: `NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR` plus one ply per
    /// `NMP_EVAL_DIVISOR` of evaluation above beta, at most `NMP_MAX_EVAL_REDUCTION`.
    NMP_BASE_REDUCTION = 4, 2..=6;
    NMP_DEPTH_DIVISOR = 3, 2..=8;
    NMP_EVAL_DIVISOR = 166, 50..=500;
    NMP_MAX_EVAL_REDUCTION = 3, 0..=6;

    /// Internal iterative reduction from this depth.
    IIR_MIN_DEPTH = 4, 2..=8;

    /// Late-move pruning: quiet moves seen before the rest are skipped,
    /// `(LMP_BASE + depth²) / (LMP_DIVISOR - improving)`.
    LMP_BASE = 3, 1..=10;
    LMP_DIVISOR = 2, 2..=4;

    /// Futility pruning of quiet moves up to this depth, when the evaluation plus
    /// `FUTILITY_BASE + FUTILITY_MARGIN * depth` does not reach alpha.
    FUTILITY_MAX_DEPTH = 8, 4..=12;
    FUTILITY_BASE = 114, 0..=250;
    FUTILITY_MARGIN = 87, 30..=200;

    /// SEE pruning of quiet moves up to this depth, losing more than this per ply.
    SEE_QUIET_MAX_DEPTH = 8, 4..=12;
    SEE_QUIET_MARGIN = 56, 10..=150;
    /// SEE pruning of captures up to this depth, losing more than this times depth².
    SEE_NOISY_MAX_DEPTH = 6, 2..=10;
    SEE_NOISY_MARGIN = 24, 5..=80;

    /// Singular extensions from this depth, when the table's entry is at most
    /// `SE_TT_DEPTH_MARGIN` plies shallower; the other moves must stay below the table's
    /// score minus `SE_BETA_MARGIN` per ply.
    SE_MIN_DEPTH = 8, 4..=12;
    SE_TT_DEPTH_MARGIN = 3, 1..=6;
    SE_BETA_MARGIN = 2, 1..=6;
    /// Outside PV nodes, a hash move whose alternatives fail that bound by more than
    /// `DEXT_MARGIN` is extended twice, at most `DEXT_LIMIT` times on one path.
    DEXT_MARGIN = 20, 0..=60;
    DEXT_LIMIT = 6, 0..=16;

    /// Late-move reductions from this depth; the table is
    /// `LMR_BASE / 100 + ln(depth) ln(moves) / (LMR_DIVISOR / 100)`.
    LMR_MIN_DEPTH = 3, 2..=5;
    LMR_BASE = 80, 0..=200;
    LMR_DIVISOR = 230, 120..=400;
    /// One ply less per this much history (quiet moves), at most `LMR_MAX_HISTORY` either way.
    LMR_HISTORY_DIVISOR = 6_720, 2000..=20_000;
    LMR_MAX_HISTORY = 2, 0..=4;

    /// Time management, in hundredths: after an iteration the soft limit is scaled by
    /// `(TM_CHANGE_BASE + TM_CHANGE_STEP * best-move changes) / 100` (at most `TM_CHANGE_MAX`),
    /// by `(TM_SHARE_BASE / 100 - the best move's share of the nodes) * TM_SHARE_SCALE / 100`
    /// (at least `TM_SHARE_MIN`), and by `1 + TM_DROP_PER_CP / 10 000` per centipawn the score
    /// fell (within `TM_DROP_MIN` and `TM_DROP_MAX`); at most `TM_SCALE_MAX` in all.
    TM_CHANGE_BASE = 70, 30..=120;
    TM_CHANGE_STEP = 30, 0..=80;
    TM_CHANGE_MAX = 200, 100..=400;
    TM_SHARE_BASE = 150, 100..=250;
    TM_SHARE_SCALE = 135, 50..=250;
    TM_SHARE_MIN = 50, 10..=100;
    TM_DROP_PER_CP = 100, 0..=300;
    TM_DROP_MIN = 85, 50..=100;
    TM_DROP_MAX = 150, 100..=300;
    TM_SCALE_MAX = 250, 100..=500;

    /// Quiescence delta pruning: a capture must be able to lift the score this close to alpha.
    DELTA_MARGIN = 239, 50..=500;
    /// Quiescence futility: when the stand-pat plus this stays below alpha, a capture that
    /// does not win material (SEE < 1) cannot lift the score.
    QS_FUTILITY_MARGIN = 152, 0..=400;
    /// Quiescence move-count pruning: past this many moves searched, captures that do not
    /// give check are skipped (not in check).
    QS_MOVE_LIMIT = 3, 1..=8;

    /// Tablebase results are stored this much deeper than the node's depth.
    TB_DEPTH_BONUS = 6, 0..=12;

    /// History bonus for a cut-off: `HISTORY_BONUS_MARGIN * depth - HISTORY_BONUS_BASE`,
    /// at most `HISTORY_BONUS_MAX`.
    HISTORY_BONUS_MARGIN = 207, 50..=400;
    HISTORY_BONUS_BASE = 84, 0..=300;
    HISTORY_BONUS_MAX = 1_402, 500..=4000;

    /// Move picker: a capture whose SEE falls below `-score / PICKER_SEE_DIVISOR` waits
    /// until after the quiet moves; a queen promotion may lose up to `PICKER_PROMOTION_SEE`.
    PICKER_SEE_DIVISOR = 60, 16..=256;
    PICKER_PROMOTION_SEE = 176, 0..=600;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_in_range() {
        for (i, p) in ALL.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(
                ALL[..i].iter().all(|q| q.name != p.name),
                "{} twice",
                p.name
            );
            // (A tuning build's tests change some values.)
            #[cfg(not(feature = "spsa"))]
            assert_eq!(p.get(), p.default, "{}", p.name);
        }
    }

    /// Divisors stay positive over their whole range, so a tuner cannot make the search divide
    /// by zero (`LMP_DIVISOR - improving` included).
    #[test]
    fn divisors_cannot_reach_zero() {
        let divisors = [
            (&NMP_DEPTH_DIVISOR, 1),
            (&NMP_EVAL_DIVISOR, 1),
            (&LMR_DIVISOR, 1),
            (&LMR_HISTORY_DIVISOR, 1),
            (&PICKER_SEE_DIVISOR, 1),
            (&LMP_DIVISOR, 2),
        ];
        for (p, least) in divisors {
            assert!(p.min >= least, "{}", p.name);
        }
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn set_changes_the_value_within_its_range() {
        assert!(set("RFP_MARGIN", 100));
        assert_eq!(RFP_MARGIN.get(), 100);
        assert!(set("RFP_MARGIN", 1_000_000));
        assert_eq!(RFP_MARGIN.get(), RFP_MARGIN.max);
        assert!(set("RFP_MARGIN", RFP_MARGIN.default));
        assert!(!set("NO_SUCH_PARAMETER", 1));
    }
}
