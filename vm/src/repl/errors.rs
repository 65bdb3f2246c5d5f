//! Compile errors of a REPL input, located as C# interactive locates them: by line and
//! column within the input just typed (`(1,9): error CS0103: ...`), though the compiler saw
//! the whole session's program.

use crate::compiler::diagnostics::{render_located, Diag};
use crate::metadata::SourceFile;

/// Where one piece of the new input sits in the session's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The program line the piece starts on (1-based).
    pub program_line: u32,
    pub line_count: u32,
    /// The input line it came from (1-based).
    pub input_line: u32,
}

/// Renders `diags` with lines counted in the new input; an error outside it (an earlier
/// input that the new one broke) says so.
pub fn render_relative(diags: &[Diag], files: &[SourceFile], segments: &[Segment]) -> String {
    render_located(diags, files, |_, lc| match input_line(segments, lc.line) {
        Some(line) => format!("({line},{})", lc.col),
        None => format!("(earlier input, line {} of the session)", lc.line),
    })
}

/// The warnings located in the input just typed, rendered as [`render_relative`] does (the
/// session's program is compiled again with each input: earlier inputs' warnings were shown).
pub fn render_new_warnings(diags: &[Diag], files: &[SourceFile], segments: &[Segment]) -> String {
    let new: Vec<Diag> =
        diags.iter().filter(|d| files.get(d.file.index()).is_some_and(|f| input_line(segments, f.line_col(d.span.start).line).is_some())).cloned().collect();
    render_relative(&new, files, segments)
}

/// Rendered diagnostics about an expression the REPL wrapped in `call` (the call, the
/// expression, then `);`), shown as if about the expression as typed: the source line
/// without the call, the caret and the column moved left by its length.
pub fn without_display_call(rendered: &str, call: &str) -> String {
    let lines: Vec<&str> = rendered.lines().collect();
    let shift = call.chars().count();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let source = lines.get(i + 1).and_then(|l| l.strip_prefix(call));
        match (source, lines.get(i + 2)) {
            (Some(source), Some(caret)) => {
                out.push_str(&shift_column(lines[i], shift));
                out.push('\n');
                out.push_str(&source.strip_suffix(");").map_or(source.to_string(), |s| format!("{s};")));
                out.push('\n');
                out.push_str(caret.get(shift.min(caret.len())..).unwrap_or(caret));
                out.push('\n');
                i += 3;
            }
            _ => {
                out.push_str(lines[i]);
                out.push('\n');
                i += 1;
            }
        }
    }
    out
}

/// `(l,c): ...` with `c` less `shift`.
fn shift_column(header: &str, shift: usize) -> String {
    let parsed = header.strip_prefix('(').and_then(|rest| {
        let (line, rest) = rest.split_once(',')?;
        let (col, rest) = rest.split_once(')')?;
        Some((line, col.parse::<usize>().ok()?, rest))
    });
    match parsed {
        Some((line, col, rest)) => format!("({line},{}){rest}", col.saturating_sub(shift).max(1)),
        None => header.to_string(),
    }
}

fn input_line(segments: &[Segment], program_line: u32) -> Option<u32> {
    segments.iter().find(|s| (s.program_line..s.program_line + s.line_count).contains(&program_line)).map(|s| s.input_line + (program_line - s.program_line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_lines_map_back_to_the_input() {
        let segments = [Segment { program_line: 7, line_count: 2, input_line: 1 }, Segment { program_line: 12, line_count: 1, input_line: 3 }];
        assert_eq!(input_line(&segments, 8), Some(2));
        assert_eq!(input_line(&segments, 12), Some(3));
        assert_eq!(input_line(&segments, 9), None);
    }
}
