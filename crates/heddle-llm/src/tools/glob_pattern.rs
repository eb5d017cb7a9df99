//! Glob patterns, compiled to regular expressions: `*` and `?` match within one path
//! component, `**` as a whole component matches any number of folders, `[abc]`/`[!abc]`
//! match one character of (not of) a set, `{a,b}` either alternative, `\` escapes.

use regex::Regex;

/// A bad glob pattern.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GlobError {
    /// `[` without `]`.
    #[error("`[` at character {0} is never closed by `]` (write `\\[` for a literal `[`)")]
    UnclosedClass(usize),
    /// `{` without `}`.
    #[error("`{{` is never closed by `}}` (write `\\{{` for a literal `{{`)")]
    UnclosedBrace,
    /// The translation was refused by the regex engine (e.g. too large).
    #[error("{0}")]
    Regex(#[from] regex::Error),
}

/// A compiled glob, matched against whole `/`-separated relative paths.
#[derive(Debug, Clone)]
pub(crate) struct GlobPattern {
    regex: Regex,
}

impl GlobPattern {
    /// Compiles `pattern`.
    pub(crate) fn new(pattern: &str) -> Result<Self, GlobError> {
        Ok(GlobPattern {
            regex: Regex::new(&to_regex(pattern)?)?,
        })
    }

    /// Whether the whole of `path` matches.
    pub(crate) fn is_match(&self, path: &str) -> bool {
        self.regex.is_match(path)
    }
}

/// The anchored regular expression for `pattern`.
fn to_regex(pattern: &str) -> Result<String, GlobError> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::from("^");
    let mut braces = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '*' if chars.get(i + 1) == Some(&'*') => {
                let whole_component = i == 0 || chars[i - 1] == '/';
                match chars.get(i + 2) {
                    Some('/') if whole_component => {
                        out.push_str("(?:[^/]*/)*");
                        i += 3;
                    }
                    None if whole_component => {
                        out.push_str(".*");
                        i += 2;
                    }
                    _ => {
                        out.push_str("[^/]*");
                        i += 2;
                    }
                }
                continue;
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '[' => {
                i = push_class(&chars, i, &mut out)?;
                continue;
            }
            '{' => {
                braces += 1;
                out.push_str("(?:");
            }
            '}' if braces > 0 => {
                braces -= 1;
                out.push(')');
            }
            ',' if braces > 0 => out.push('|'),
            '\\' => {
                i += 1;
                let literal = chars.get(i).copied().unwrap_or('\\');
                out.push_str(&regex::escape(literal.encode_utf8(&mut [0; 4])));
            }
            _ => out.push_str(&regex::escape(c.encode_utf8(&mut [0; 4]))),
        }
        i += 1;
    }
    if braces > 0 {
        return Err(GlobError::UnclosedBrace);
    }
    out.push('$');
    Ok(out)
}

/// Translates the class starting at `chars[start]` (`[`) into `out`; returns the index
/// after its `]`.
fn push_class(chars: &[char], start: usize, out: &mut String) -> Result<usize, GlobError> {
    let mut i = start + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let first = i;
    // A `]` right after the opening is part of the set.
    while i < chars.len() && (chars[i] != ']' || i == first) {
        i += 1;
    }
    if i >= chars.len() {
        return Err(GlobError::UnclosedClass(start + 1));
    }
    let members = &chars[first..i];
    out.push('[');
    if negated {
        out.push_str("^/");
    }
    for (k, c) in members.iter().enumerate() {
        let is_range = *c == '-' && k > 0 && k + 1 < members.len();
        if is_range {
            out.push('-');
        } else {
            if matches!(c, '\\' | '[' | ']' | '^' | '&' | '~' | '-') {
                out.push('\\');
            }
            out.push(*c);
        }
    }
    out.push(']');
    Ok(i + 1)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        GlobPattern::new(pattern).unwrap().is_match(path)
    }

    #[test]
    fn stars_and_double_stars() {
        assert!(matches("*.rs", "main.rs"));
        assert!(!matches("*.rs", "src/main.rs"));
        assert!(matches("**/*.rs", "main.rs"));
        assert!(matches("**/*.rs", "src/a/main.rs"));
        assert!(matches("src/**", "src/a/b.txt"));
        assert!(matches("src/**/mod.rs", "src/mod.rs"));
        assert!(matches("src/**/mod.rs", "src/x/y/mod.rs"));
        assert!(!matches("src/**/mod.rs", "srcx/mod.rs"));
        assert!(matches("a?c", "abc"));
        assert!(!matches("a?c", "a/c"));
    }

    #[test]
    fn classes_braces_and_escapes() {
        assert!(matches("[ab].txt", "a.txt"));
        assert!(!matches("[!ab].txt", "a.txt"));
        assert!(matches("[!ab].txt", "c.txt"));
        assert!(matches("[a-c]x", "bx"));
        assert!(matches("*.{rs,toml}", "Cargo.toml"));
        assert!(!matches("*.{rs,toml}", "a.md"));
        assert!(matches("\\*.md", "*.md"));
        assert!(!matches("\\*.md", "a.md"));
        assert!(matches("a+b(1).txt", "a+b(1).txt"));
    }

    #[test]
    fn bad_patterns() {
        assert!(matches!(
            GlobPattern::new("a[bc"),
            Err(GlobError::UnclosedClass(2))
        ));
        assert!(matches!(
            GlobPattern::new("{a,b"),
            Err(GlobError::UnclosedBrace)
        ));
    }
}
