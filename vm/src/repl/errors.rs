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
