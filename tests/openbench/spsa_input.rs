//! `quintessence spsa-input`: one OpenBench SPSA line per tunable parameter, in any build.

use super::{TempDir, run_in, stdout};
use quintessence::search::params::ALL;

#[test]
fn one_parsable_line_per_parameter_named_as_the_uci_option() {
    let dir = TempDir::new("spsa-input");
    let output = run_in(&dir, &["spsa-input"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), ALL.len());
    for (line, param) in lines.iter().zip(ALL) {
        // OpenBench splits on commas and strips each field.
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, kind, value, min, max, c_end, r_end] = fields[..] else {
            panic!("'{line}': 7 fields expected")
        };
        assert_eq!((name, kind), (param.name, "int"), "{line}");
        let [value, min, max] = [value, min, max].map(|f| f.parse::<i32>().unwrap());
        assert_eq!((value, min, max), (param.default, param.min, param.max));
        assert!(min <= value && value <= max, "{line}");
        let (c_end, r_end): (f64, f64) = (c_end.parse().unwrap(), r_end.parse().unwrap());
        assert!(
            c_end >= 1.0 && c_end <= f64::from(max - min).max(1.0),
            "{line}"
        );
        assert!(r_end > 0.0, "{line}");
    }
}
