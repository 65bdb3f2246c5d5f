//! The summary table, as BenchmarkDotNet prints it in Markdown: one row per benchmark,
//! `| Method | Categories | Mean | Error | Ratio | Allocated |`, rows grouped by category
//! when the class asks for it (an empty row between groups), times in one unit for the
//! whole column, Ratio against the group's baseline, then the legend.

use super::statistics::Summary;

/// One benchmark's line.
pub struct Row {
    pub method: String,
    pub categories: Vec<String>,
    pub baseline: bool,
    /// `None` in a dry job (times not measured).
    pub time: Option<Summary>,
    /// Modeled bytes per operation.
    pub allocated: f64,
}

const HEADER: [&str; 6] = ["Method", "Categories", "Mean", "Error", "Ratio", "Allocated"];
/// Columns aligned right (numbers).
const RIGHT: [bool; 6] = [false, false, true, true, true, true];

/// The table for `groups` (each a list of rows; the first baseline of a group is its
/// baseline), followed by the legend.
pub fn render(groups: &[Vec<Row>]) -> String {
    let unit = TimeUnit::for_means(groups.iter().flatten().filter_map(|r| r.time.map(|t| t.mean)));
    let mut lines: Vec<[String; 6]> = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        if i > 0 {
            lines.push(Default::default());
        }
        let baseline = group.iter().find(|r| r.baseline).and_then(|r| r.time).map(|t| t.mean);
        lines.extend(group.iter().map(|r| cells(r, baseline, unit)));
    }
    let mut out = layout(&lines);
    out.push('\n');
    out.push_str(&legend(unit));
    out
}

fn cells(row: &Row, baseline: Option<f64>, unit: TimeUnit) -> [String; 6] {
    let (mean, error, ratio) = match row.time {
        Some(t) => {
            (unit.format(t.mean), unit.format(t.error), super::statistics::ratio(t.mean, baseline).map_or_else(|| "?".to_string(), |r| format!("{r:.2}")))
        }
        None => ("-".to_string(), "-".to_string(), "-".to_string()),
    };
    [row.method.clone(), row.categories.join(","), mean, error, ratio, bytes(row.allocated)]
}

/// Pads every column to its widest cell; the separator line marks numeric columns as
/// right-aligned.
fn layout(lines: &[[String; 6]]) -> String {
    let mut widths = HEADER.map(str::len);
    for line in lines {
        for (w, cell) in widths.iter_mut().zip(line) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = row_text(&HEADER.map(str::to_string), &widths);
    let rules: Vec<String> = widths.iter().zip(RIGHT).map(|(&w, right)| if right { format!("{}:", "-".repeat(w + 1)) } else { "-".repeat(w + 2) }).collect();
    out.push_str(&format!("|{}|\n", rules.join("|")));
    for line in lines {
        out.push_str(&row_text(line, &widths));
    }
    out
}

fn row_text(cells: &[String; 6], widths: &[usize; 6]) -> String {
    let padded: Vec<String> =
        cells.iter().zip(widths).zip(RIGHT).map(|((c, &w), right)| if right { format!(" {c:>w$} ") } else { format!(" {c:<w$} ") }).collect();
    format!("|{}|\n", padded.join("|"))
}

/// Bytes per operation, as BenchmarkDotNet shows them (`1 KB = 1024 B`).
fn bytes(per_op: f64) -> String {
    let rounded = per_op.round();
    if rounded < 1024.0 {
        format!("{rounded} B")
    } else {
        format!("{:.2} KB", per_op / 1024.0)
    }
}

/// The unit of a time column: the largest in which the fastest mean is at least 1.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TimeUnit {
    Nanoseconds,
    Microseconds,
    Milliseconds,
}

impl TimeUnit {
    fn for_means(means: impl Iterator<Item = f64>) -> TimeUnit {
        let fastest = means.fold(f64::INFINITY, f64::min);
        if fastest >= 1_000_000.0 && fastest.is_finite() {
            TimeUnit::Milliseconds
        } else if fastest >= 1_000.0 && fastest.is_finite() {
            TimeUnit::Microseconds
        } else {
            TimeUnit::Nanoseconds
        }
    }

    fn nanoseconds(self) -> f64 {
        match self {
            TimeUnit::Nanoseconds => 1.0,
            TimeUnit::Microseconds => 1_000.0,
            TimeUnit::Milliseconds => 1_000_000.0,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            TimeUnit::Nanoseconds => "ns",
            TimeUnit::Microseconds => "μs",
            TimeUnit::Milliseconds => "ms",
        }
    }

    fn name(self) -> &'static str {
        match self {
            TimeUnit::Nanoseconds => "1 Nanosecond (0.000000001 sec)",
            TimeUnit::Microseconds => "1 Microsecond (0.000001 sec)",
            TimeUnit::Milliseconds => "1 Millisecond (0.001 sec)",
        }
    }

    /// `1,234.567 ns`: three decimals, thousands grouped.
    fn format(self, ns: f64) -> String {
        let value = format!("{:.3}", ns / self.nanoseconds());
        let (whole, fraction) = value.split_once('.').unwrap_or((&value, "000"));
        format!("{}.{fraction} {}", group_thousands(whole), self.symbol())
    }
}

fn group_thousands(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn legend(unit: TimeUnit) -> String {
    format!(
        "// * Legends *\n\
         \x20 Categories : All categories of the corresponding method, class, and assembly\n\
         \x20 Mean       : Arithmetic mean of all measurements (host time per operation)\n\
         \x20 Error      : Half of 99.9% confidence interval\n\
         \x20 Ratio      : Mean of this benchmark / mean of its group's baseline\n\
         \x20 Allocated  : Allocated memory per single operation, in the VM's model of .NET's sizes (as vm run --stats counts)\n\
         \x20 {:<10} : {}\n",
        format!("1 {}", unit.symbol()),
        unit.name()
    )
}

#[cfg(test)]
mod tests {
    use super::{bytes, TimeUnit};

    #[test]
    fn units_follow_the_fastest_mean() {
        assert_eq!(TimeUnit::for_means([21.5, 550.0].into_iter()), TimeUnit::Nanoseconds);
        assert_eq!(TimeUnit::for_means([2_500.0, 1_234_567.0].into_iter()), TimeUnit::Microseconds);
        assert_eq!(TimeUnit::Microseconds.format(1_234_567.0), "1,234.567 μs");
        assert_eq!(TimeUnit::Nanoseconds.format(6.96), "6.960 ns");
    }

    #[test]
    fn bytes_round_like_benchmarkdotnet() {
        assert_eq!(bytes(0.0), "0 B");
        assert_eq!(bytes(300.98), "301 B");
        assert_eq!(bytes(2048.0), "2.00 KB");
    }
}
