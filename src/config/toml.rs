//! The small part of TOML that `engine.toml` uses: `[section]` headers, `key = value` with bare
//! or quoted keys, and string, integer and boolean values, with `#` comments. Anything else is
//! an error naming the line, never a guess.

/// A value of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    String(String),
    Integer(i64),
    Boolean(bool),
}

impl Value {
    /// As a UCI `setoption` value.
    pub fn to_option_text(&self) -> String {
        match self {
            Value::String(s) => s.clone(),
            Value::Integer(n) => n.to_string(),
            Value::Boolean(b) => b.to_string(),
        }
    }
}

/// One `key = value` line, with its section (empty before the first header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub section: String,
    pub key: String,
    pub value: Value,
    pub line: usize,
}

pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut section = String::new();
    let mut entries: Vec<Entry> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let fail = |what: &str| format!("line {line}: {what}: {}", raw.trim());
        let content = raw.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if let Some(header) = content.strip_prefix('[') {
            let (name, rest) = header
                .split_once(']')
                .ok_or_else(|| fail("a section header needs a closing ']'"))?;
            if !is_comment_or_empty(rest) {
                return Err(fail("unexpected text after the section header"));
            }
            let name = name.trim();
            if !is_bare_key(name) {
                return Err(fail("bad section name"));
            }
            section = name.to_string();
            continue;
        }
        let (key, rest) = parse_key(content).ok_or_else(|| fail("expected 'key = value'"))?;
        let rest = rest
            .trim_start()
            .strip_prefix('=')
            .ok_or_else(|| fail("expected '=' after the key"))?;
        let (value, rest) = parse_value(rest.trim_start()).map_err(|e| fail(&e))?;
        if !is_comment_or_empty(rest) {
            return Err(fail("unexpected text after the value"));
        }
        if entries.iter().any(|e| e.section == section && e.key == key) {
            return Err(fail(&format!("'{key}' is set twice")));
        }
        entries.push(Entry {
            section: section.clone(),
            key,
            value,
            line,
        });
    }
    Ok(entries)
}

fn is_comment_or_empty(text: &str) -> bool {
    let text = text.trim();
    text.is_empty() || text.starts_with('#')
}

fn is_bare_key(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A bare or quoted key, and the text after it.
fn parse_key(text: &str) -> Option<(String, &str)> {
    if text.starts_with('"') || text.starts_with('\'') {
        let (value, rest) = parse_string(text).ok()?;
        return Some((value, rest));
    }
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(text.len());
    (end > 0).then(|| (text[..end].to_string(), &text[end..]))
}

fn parse_value(text: &str) -> Result<(Value, &str), String> {
    if text.starts_with('"') || text.starts_with('\'') {
        let (s, rest) = parse_string(text)?;
        return Ok((Value::String(s), rest));
    }
    let end = text
        .find(|c: char| c.is_whitespace() || c == '#')
        .unwrap_or(text.len());
    let (word, rest) = text.split_at(end);
    match word {
        "true" => Ok((Value::Boolean(true), rest)),
        "false" => Ok((Value::Boolean(false), rest)),
        "" => Err("the value is missing".to_string()),
        _ => {
            let digits: String = word.chars().filter(|&c| c != '_').collect();
            digits
                .parse::<i64>()
                .map(|n| (Value::Integer(n), rest))
                .map_err(|_| {
                    format!("'{word}' is not a string (in quotes), an integer, true or false")
                })
        }
    }
}

/// A `"basic"` (with `\` escapes) or `'literal'` string, and the text after it.
fn parse_string(text: &str) -> Result<(String, &str), String> {
    let quote = text.chars().next().ok_or("expected a string")?;
    let mut out = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        if c == quote {
            return Ok((out, &text[i + 1..]));
        }
        if c == '\\' && quote == '"' {
            let (_, escaped) = chars.next().ok_or("unfinished escape")?;
            out.push(match escaped {
                '"' => '"',
                '\\' => '\\',
                'n' => '\n',
                't' => '\t',
                other => return Err(format!("unsupported escape '\\{other}'")),
            });
        } else {
            out.push(c);
        }
    }
    Err("the string has no closing quote".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sections_keys_and_values() {
        let text = r#"
# defaults
[options]
Hash = 64            # MB
"Move Overhead" = 1_000
Ponder = true
Attacks = "magic"
'Debug Log File' = 'C:\logs\q.log'

[log]
level = "info"
"#;
        let entries = parse(text).unwrap();
        let got: Vec<(&str, &str, Value)> = entries
            .iter()
            .map(|e| (e.section.as_str(), e.key.as_str(), e.value.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("options", "Hash", Value::Integer(64)),
                ("options", "Move Overhead", Value::Integer(1000)),
                ("options", "Ponder", Value::Boolean(true)),
                ("options", "Attacks", Value::String("magic".into())),
                (
                    "options",
                    "Debug Log File",
                    Value::String(r"C:\logs\q.log".into())
                ),
                ("log", "level", Value::String("info".into())),
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        for (text, needle) in [
            ("[options\nHash = 1", "line 1"),
            ("Hash 1", "expected '='"),
            ("Hash = ", "missing"),
            ("Hash = lots", "not a string"),
            ("Attacks = \"magic", "closing quote"),
            ("Hash = 1 2", "after the value"),
            ("a = 1\na = 2", "line 2: 'a' is set twice"),
            ("= 3", "expected 'key = value'"),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
    }
}
