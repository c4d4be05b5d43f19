//! `quintessence spsa-input`: the search's tunable parameters (`search/params.rs`) as the lines
//! OpenBench's SPSA form takes, one per parameter: `name, int, value, min, max, c_end, r_end`.
//! The names are the UCI options a tuning build (`make TUNE=1`, `--features spsa`) offers.
//! `c_end` and `r_end` are `scripts/spsa.py`'s: a twentieth of the range (at least 1) and 0.002.

use clap::Args;
use quintessence::search::params::{ALL, Param};

/// OpenBench's `r_end`: the final step as a share of `c_end`².
pub const R_END: f64 = 0.002;

/// Print the tunable search parameters as OpenBench SPSA input lines
#[derive(Debug, Args)]
pub struct SpsaInputArgs {}

pub fn run(_: &SpsaInputArgs) -> Result<(), String> {
    let text: String = ALL.iter().map(|p| line(p) + "\n").collect();
    super::print_out(&text);
    Ok(())
}

/// The final perturbation: a twentieth of the range, at least 1 (an integer parameter moved
/// by less would not move).
pub fn c_end(param: &Param) -> f64 {
    (f64::from(param.max - param.min) / 20.0).max(1.0)
}

/// One parameter's input line.
pub fn line(param: &Param) -> String {
    format!(
        "{}, int, {}, {}, {}, {:.2}, {R_END}",
        param.name,
        param.default,
        param.min,
        param.max,
        c_end(param)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_follow_openbench_and_spsa_py() {
        let rfp = ALL.iter().find(|p| p.name == "RFP_MARGIN").unwrap();
        assert_eq!(
            line(rfp),
            format!("RFP_MARGIN, int, {}, 30, 150, 6.00, 0.002", rfp.default)
        );
        let lmp = ALL.iter().find(|p| p.name == "LMP_DIVISOR").unwrap();
        assert!(line(lmp).ends_with(", 2, 4, 1.00, 0.002"), "{}", line(lmp));
    }

    /// A tuning build offers one spin option per line, with the line's name, default and range.
    #[cfg(feature = "spsa")]
    #[test]
    fn every_line_is_a_spin_option_of_the_tuning_build() {
        use quintessence::uci::options::{Kind, specs};
        for param in ALL {
            let spec = specs().iter().find(|s| s.name == param.name).unwrap();
            let Kind::Spin { default, min, max } = spec.kind else {
                panic!("{}: not a spin option", param.name)
            };
            let fields: Vec<String> = line(param).split(", ").map(String::from).collect();
            assert_eq!(fields[2..5], [default, min, max].map(|n| n.to_string()));
        }
    }
}
