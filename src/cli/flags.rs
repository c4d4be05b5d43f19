//! `--name value` pairs for the tool subcommands, with errors instead of panics.

use std::str::FromStr;

/// Splits `args` into `(flag, value)` pairs; every flag needs a value.
pub fn pairs<'a>(command: &str, args: &'a [String]) -> Result<Vec<(&'a str, &'a str)>, String> {
    args.chunks(2)
        .map(|pair| match pair {
            [flag, value] if flag.starts_with("--") => Ok((flag.as_str(), value.as_str())),
            [flag] => Err(format!("{command}: '{flag}' needs a value")),
            [other, _] => Err(format!("{command}: expected a --flag, got '{other}'")),
            _ => unreachable!("chunks of two"),
        })
        .collect()
}

/// Parses the value of `flag`.
pub fn value<T: FromStr>(command: &str, flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{command}: bad value '{text}' for {flag}"))
}
