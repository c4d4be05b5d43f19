//! Every margin, reduction and limit of the search, by name, in one place: what a reader
//! looks up to see the search's knobs, and what a tuner (SPSA) adjusts. All are integers;
//! the late-move reduction formula's two real constants are kept in hundredths.

macro_rules! params {
    ($($(#[doc = $doc:expr])* $name:ident = $value:expr;)*) => {
        $($(#[doc = $doc])* pub const $name: i32 = $value;)*

        /// Every parameter with its value, for tuning tools.
        pub const ALL: &[(&str, i32)] = &[$((stringify!($name), $name)),*];
    };
}

params! {
    /// Aspiration windows start at this iteration...
    ASPIRATION_MIN_DEPTH = 4;
    /// ... this far either side of the last score,
    ASPIRATION_DELTA = 20;
    /// and the search falls back to a full window once the step grows past this.
    ASPIRATION_MAX_DELTA = 1_000;

    /// Reverse futility pruning: up to this depth,
    RFP_MAX_DEPTH = 8;
    /// when the evaluation beats beta by this much per ply of depth.
    RFP_MARGIN = 75;

    /// Null-move pruning from this depth,
    NMP_MIN_DEPTH = 3;
    /// when the static evaluation is at least `beta - NMP_EVAL_DEPTH_MARGIN * depth +
    /// NMP_EVAL_BASE`.
    NMP_EVAL_DEPTH_MARGIN = 20;
    NMP_EVAL_BASE = 150;
    /// Reduction: `NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR` plus one ply per
    /// `NMP_EVAL_DIVISOR` of evaluation above beta, at most `NMP_MAX_EVAL_REDUCTION`.
    NMP_BASE_REDUCTION = 4;
    NMP_DEPTH_DIVISOR = 3;
    NMP_EVAL_DIVISOR = 200;
    NMP_MAX_EVAL_REDUCTION = 3;

    /// Internal iterative reduction from this depth.
    IIR_MIN_DEPTH = 4;

    /// Late-move pruning: quiet moves seen before the rest are skipped,
    /// `(LMP_BASE + depth²) / (LMP_DIVISOR - improving)`.
    LMP_BASE = 3;
    LMP_DIVISOR = 2;

    /// Futility pruning of quiet moves up to this depth, when the evaluation plus
    /// `FUTILITY_BASE + FUTILITY_MARGIN * depth` does not reach alpha.
    FUTILITY_MAX_DEPTH = 8;
    FUTILITY_BASE = 100;
    FUTILITY_MARGIN = 90;

    /// SEE pruning of quiet moves up to this depth, losing more than this per ply.
    SEE_QUIET_MAX_DEPTH = 8;
    SEE_QUIET_MARGIN = 60;
    /// SEE pruning of captures up to this depth, losing more than this times depth².
    SEE_NOISY_MAX_DEPTH = 6;
    SEE_NOISY_MARGIN = 25;

    /// Singular extensions from this depth, when the table's entry is at most
    /// `SE_TT_DEPTH_MARGIN` plies shallower; the other moves must stay below the table's
    /// score minus `SE_BETA_MARGIN` per ply.
    SE_MIN_DEPTH = 8;
    SE_TT_DEPTH_MARGIN = 3;
    SE_BETA_MARGIN = 2;

    /// Late-move reductions from this depth; the table is
    /// `LMR_BASE / 100 + ln(depth) ln(moves) / (LMR_DIVISOR / 100)`.
    LMR_MIN_DEPTH = 3;
    LMR_BASE = 80;
    LMR_DIVISOR = 230;
    /// One ply less per this much history (quiet moves), at most `LMR_MAX_HISTORY` either way.
    LMR_HISTORY_DIVISOR = 8_000;
    LMR_MAX_HISTORY = 2;

    /// Time management, in hundredths: after an iteration the soft limit is scaled by
    /// `(TM_CHANGE_BASE + TM_CHANGE_STEP * best-move changes) / 100` (at most `TM_CHANGE_MAX`),
    /// by `(TM_SHARE_BASE / 100 - the best move's share of the nodes) * TM_SHARE_SCALE / 100`
    /// (at least `TM_SHARE_MIN`), and by `1 + TM_DROP_PER_CP / 10 000` per centipawn the score
    /// fell (within `TM_DROP_MIN` and `TM_DROP_MAX`); at most `TM_SCALE_MAX` in all.
    TM_CHANGE_BASE = 70;
    TM_CHANGE_STEP = 30;
    TM_CHANGE_MAX = 200;
    TM_SHARE_BASE = 150;
    TM_SHARE_SCALE = 135;
    TM_SHARE_MIN = 50;
    TM_DROP_PER_CP = 100;
    TM_DROP_MIN = 85;
    TM_DROP_MAX = 150;
    TM_SCALE_MAX = 250;

    /// Quiescence delta pruning: a capture must be able to lift the score this close to alpha.
    DELTA_MARGIN = 200;

    /// Tablebase results are stored this much deeper than the node's depth.
    TB_DEPTH_BONUS = 6;

    /// History bonus for a cut-off: `HISTORY_BONUS_MARGIN * depth - HISTORY_BONUS_BASE`,
    /// at most `HISTORY_BONUS_MAX`.
    HISTORY_BONUS_MARGIN = 170;
    HISTORY_BONUS_BASE = 80;
    HISTORY_BONUS_MAX = 1_600;

    /// Move picker: a capture whose SEE falls below `-score / PICKER_SEE_DIVISOR` waits
    /// until after the quiet moves; a queen promotion may lose up to `PICKER_PROMOTION_SEE`.
    PICKER_SEE_DIVISOR = 64;
    PICKER_PROMOTION_SEE = 200;
}
