//! `--filter PATTERN`: BenchmarkDotNet's glob over a benchmark's full name
//! (`Namespace.Class.Method`): `*` matches any run of characters, `?` one character, and
//! case is ignored.

/// Whether `name` matches any of `patterns` (every name matches when there are none).
pub fn selects(patterns: &[String], name: &str) -> bool {
    patterns.is_empty() || patterns.iter().any(|p| glob_matches(p, name))
}

/// Whether the whole of `name` matches `pattern`.
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.to_lowercase().chars().collect();
    let n: Vec<char> = name.to_lowercase().chars().collect();
    matches_from(&p, &n)
}

/// Iterative glob matching with backtracking to the last `*`.
fn matches_from(p: &[char], n: &[char]) -> bool {
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(&c) if c == '?' || c == n[ni] => {
                pi += 1;
                ni += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::glob_matches;

    #[test]
    fn globs_match_whole_names() {
        assert!(glob_matches("*", "Bench.Method"));
        assert!(glob_matches("*Yield*", "RuntimeAsyncBenchmarks.ClassicYielding"));
        assert!(glob_matches("runtimeasyncbenchmarks.classic*", "RuntimeAsyncBenchmarks.ClassicYielding"));
        assert!(glob_matches("*.Classic?ielding", "RuntimeAsyncBenchmarks.ClassicYielding"));
        assert!(!glob_matches("Yield", "RuntimeAsyncBenchmarks.ClassicYielding"));
        assert!(!glob_matches("*Completed", "RuntimeAsyncBenchmarks.ClassicYielding"));
    }
}
