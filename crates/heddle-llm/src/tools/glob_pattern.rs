//! The glob patterns of the `glob` and `grep` tools, compiled by `globset` with the rules
//! the tools describe to the model: `*` and `?` match within one path component, `**` as a
//! whole component matches any number of folders, `[abc]`/`[!abc]` match one character of
//! (not of) a set, `{a,b}` either alternative, `\` escapes.

use globset::{ErrorKind, GlobBuilder, GlobMatcher};

/// A compiled glob, matched against whole `/`-separated relative paths.
#[derive(Debug, Clone)]
pub(crate) struct GlobPattern {
    matcher: GlobMatcher,
}

impl GlobPattern {
    /// Compiles `pattern`; the error says what is wrong with it, for the model.
    pub(crate) fn new(pattern: &str) -> Result<Self, String> {
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| match e.kind() {
                ErrorKind::UnclosedClass => {
                    "`[` is never closed by `]` (write `\\[` for a literal `[`)".to_string()
                }
                ErrorKind::UnclosedAlternates => {
                    "`{` is never closed by `}` (write `\\{` for a literal `{`)".to_string()
                }
                ErrorKind::UnopenedAlternates => {
                    "`}` closes no `{` (write `\\}` for a literal `}`)".to_string()
                }
                other => other.to_string(),
            })?;
        Ok(GlobPattern {
            matcher: glob.compile_matcher(),
        })
    }

    /// Whether the whole of `path` matches.
    pub(crate) fn is_match(&self, path: &str) -> bool {
        self.matcher.is_match(path)
    }
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
        assert!(matches("**/*.ts", "main.ts"));
        assert!(matches("**/*.ts", "src/a/main.ts"));
        assert!(matches("src/**", "src/a/b.txt"));
        assert!(!matches("src/**", "srcx/b.txt"));
        assert!(matches("src/**/mod.rs", "src/mod.rs"));
        assert!(matches("src/**/mod.rs", "src/x/y/mod.rs"));
        assert!(!matches("src/**/mod.rs", "srcx/mod.rs"));
        assert!(matches("a?c", "abc"));
        assert!(!matches("a?c", "a/c"));
        assert!(matches("**", "a/b/c"));
    }

    #[test]
    fn classes_braces_and_escapes() {
        assert!(matches("[ab].txt", "a.txt"));
        assert!(!matches("[!ab].txt", "a.txt"));
        assert!(matches("[!ab].txt", "c.txt"));
        assert!(matches("[a-c]x", "bx"));
        assert!(matches("*.{js,ts}", "index.ts"));
        assert!(matches("*.{js,ts}", "index.js"));
        assert!(!matches("*.{js,ts}", "index.tsx"));
        assert!(!matches("*.{js,ts}", "lib/index.ts"));
        assert!(matches("\\*.md", "*.md"));
        assert!(!matches("\\*.md", "a.md"));
        assert!(matches("a+b(1).txt", "a+b(1).txt"));
    }

    #[test]
    fn bad_patterns_say_what_is_wrong() {
        let class = GlobPattern::new("a[bc").unwrap_err();
        assert!(class.contains("never closed by `]`"), "{class}");
        let brace = GlobPattern::new("{a,b").unwrap_err();
        assert!(brace.contains("never closed by `}`"), "{brace}");
    }
}
