//! A .NET string seen as UTF-8 for the engine, with the offsets between the two: the
//! engine reports byte offsets, .NET counts UTF-16 units. A lone surrogate becomes U+FFFD,
//! one unit for one unit, so the two texts stay aligned.

pub struct Utf16Text {
    units: Vec<u16>,
    text: String,
    /// For each char of `text`: its byte offset and its UTF-16 index (empty when the text
    /// is ASCII, where the two are equal).
    starts: Vec<(usize, i32)>,
}

impl Utf16Text {
    pub fn new(units: Vec<u16>) -> Utf16Text {
        let text = String::from_utf16_lossy(&units);
        let mut starts = Vec::new();
        if !text.is_ascii() {
            let mut unit = 0i32;
            for (byte, c) in text.char_indices() {
                starts.push((byte, unit));
                unit += c.len_utf16() as i32;
            }
        }
        Utf16Text { units, text, starts }
    }

    /// Whether this is the text of `units`.
    pub fn is(&self, units: &[u16]) -> bool {
        self.units == units
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The UTF-16 index of byte offset `byte` (a char boundary).
    pub fn unit_of(&self, byte: usize) -> i32 {
        if self.starts.is_empty() {
            return i32::try_from(byte).unwrap_or(i32::MAX);
        }
        match self.starts.binary_search_by_key(&byte, |&(b, _)| b) {
            Ok(i) => self.starts[i].1,
            Err(_) => i32::try_from(self.units.len()).unwrap_or(i32::MAX),
        }
    }

    /// The byte offset of UTF-16 index `unit` (the next char's, inside a surrogate pair).
    pub fn byte_of(&self, unit: usize) -> usize {
        if self.starts.is_empty() {
            return unit.min(self.text.len());
        }
        let unit = i32::try_from(unit).unwrap_or(i32::MAX);
        match self.starts.binary_search_by_key(&unit, |&(_, u)| u) {
            Ok(i) => self.starts[i].0,
            Err(i) => self.starts.get(i).map_or(self.text.len(), |&(b, _)| b),
        }
    }
}
