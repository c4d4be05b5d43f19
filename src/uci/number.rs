//! Integers as GUIs (and fuzzers) write them: an optional sign and digits, of any length. A
//! number too large for `i128` saturates instead of failing, so "absurd" and "not a number"
//! stay two different answers.

/// Parses `[+-]digits`, saturating at the bounds of `i128`; `None` when it is not a number.
pub fn parse_integer(text: &str) -> Option<i128> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut value: i128 = 0;
    for b in digits.bytes() {
        let d = i128::from(b - b'0');
        value = value.saturating_mul(10).saturating_add(d);
    }
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::parse_integer;

    #[test]
    fn parses_signed_numbers() {
        assert_eq!(parse_integer("0"), Some(0));
        assert_eq!(parse_integer("+17"), Some(17));
        assert_eq!(parse_integer("-250"), Some(-250));
    }

    #[test]
    fn huge_numbers_saturate() {
        assert_eq!(parse_integer(&"9".repeat(60)), Some(i128::MAX));
        assert_eq!(
            parse_integer(&format!("-{}", "9".repeat(60))),
            Some(-i128::MAX)
        );
    }

    #[test]
    fn rejects_non_numbers() {
        for text in ["", "-", "+", "12a", "1.5", "abc", " 3", "٣"] {
            assert_eq!(parse_integer(text), None, "{text:?}");
        }
    }
}
