//! What a program asks the operating system for that the VM answers deterministically: the
//! random bytes that seed `new Random()`, `Random.Shared` and `Guid.NewGuid()` (a splitmix64
//! stream seeded by `--seed`), and the wall clock (`DateTime.UtcNow`: the `--now` instant
//! plus the virtual time elapsed since the program started).

/// `DateTime` ticks (100 ns since 0001-01-01) per day.
const TICKS_PER_DAY: i64 = 864_000_000_000;
const TICKS_PER_SECOND: i64 = 10_000_000;

/// The wall clock's start when `--now` is not given: 2026-01-01T00:00:00Z.
pub const DEFAULT_START: &str = "2026-01-01T00:00:00Z";
/// [`DEFAULT_START`] in `DateTime` ticks.
pub const DEFAULT_START_TICKS: i64 = 639_028_224_000_000_000;

/// The generator behind `Interop.GetRandomUInt64` (splitmix64, Vigna's seeding generator).
#[derive(Clone, Debug)]
pub struct Entropy {
    state: u64,
}

impl Entropy {
    pub fn new(seed: u64) -> Entropy {
        Entropy { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// `DateTime` ticks (UTC) of an instant written `YYYY-MM-DDTHH:MM:SS[.fffffff]Z` (a date
/// alone means midnight).
pub fn parse_utc_instant(text: &str) -> Result<i64, String> {
    let bad = || format!("'{text}' is not an instant like {DEFAULT_START}");
    let body = text.strip_suffix('Z').unwrap_or(text);
    let (date, time) = body.split_once('T').unwrap_or((body, "00:00:00"));
    let date: Vec<&str> = date.split('-').collect();
    let [year, month, day] = date.as_slice() else { return Err(bad()) };
    let (whole, fraction) = time.split_once('.').unwrap_or((time, ""));
    let time: Vec<&str> = whole.split(':').collect();
    let [hour, minute, second] = time.as_slice() else { return Err(bad()) };
    let number = |s: &str, max: i64| s.parse::<i64>().ok().filter(|n| (0..=max).contains(n)).ok_or_else(bad);
    let (year, month, day) = (number(year, 9999)?, number(month, 12)?, number(day, 31)?);
    if year < 1 || month < 1 || day < 1 || day > days_in_month(year, month) {
        return Err(bad());
    }
    let seconds = number(hour, 23)? * 3600 + number(minute, 59)? * 60 + number(second, 59)?;
    if fraction.len() > 7 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let fraction_ticks = format!("{fraction:0<7}").parse::<i64>().map_err(|_| bad())?;
    Ok(days_before(year, month, day) * TICKS_PER_DAY + seconds * TICKS_PER_SECOND + fraction_ticks)
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 0001-01-01 to the date.
fn days_before(year: i64, month: i64, day: i64) -> i64 {
    let y = year - 1;
    let months: i64 = (1..month).map(|m| days_in_month(year, m)).sum();
    y * 365 + y / 4 - y / 100 + y / 400 + months + day - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_start_is_dotnet_ticks_of_2026() {
        // new DateTime(2026, 1, 1).Ticks on .NET
        assert_eq!(parse_utc_instant(DEFAULT_START), Ok(DEFAULT_START_TICKS));
        assert_eq!(DEFAULT_START_TICKS, 639_028_224_000_000_000);
    }

    #[test]
    fn fractions_and_bad_input() {
        assert_eq!(parse_utc_instant("0001-01-01T00:00:00.5Z"), Ok(5_000_000));
        assert!(parse_utc_instant("2025-02-29T00:00:00Z").is_err());
        assert!(parse_utc_instant("tomorrow").is_err());
    }
}
