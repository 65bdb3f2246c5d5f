//! Standard input as `System.Console` reads it: the host's, or a text the harness gives
//! (`// vm-stdin:`). Input is read a line at a time and kept as UTF-16 code units, so
//! `Console.Read` (one char) and `Console.ReadLine` (the rest of a line) can be mixed, as
//! .NET's `StreamReader` over standard input allows.

use std::collections::VecDeque;
use std::io::BufRead;

/// The reader behind `Console.In`, opened at its first use.
pub struct ConsoleInput {
    /// The input's text until it is opened (`None`: the host's standard input).
    text: Option<String>,
    source: Option<Box<dyn BufRead>>,
    /// The unread rest of the last line read (with its line break, if it had one).
    pending: VecDeque<u16>,
}

impl ConsoleInput {
    pub fn new(text: Option<String>) -> Self {
        ConsoleInput { text, source: None, pending: VecDeque::new() }
    }

    /// The next char as `Console.Read` returns it, or -1 at the end of the input.
    pub fn read_char(&mut self) -> i32 {
        if self.pending.is_empty() && !self.fill() {
            return -1;
        }
        self.pending.pop_front().map_or(-1, i32::from)
    }

    /// The next char without consuming it, or -1 at the end of the input.
    pub fn peek_char(&mut self) -> i32 {
        if self.pending.is_empty() && !self.fill() {
            return -1;
        }
        self.pending.front().map_or(-1, |&c| i32::from(c))
    }

    /// The rest of the current line without its line break (`\n` or `\r\n`), or `None` at
    /// the end of the input.
    pub fn read_line(&mut self) -> Option<Vec<u16>> {
        if self.pending.is_empty() && !self.fill() {
            return None;
        }
        let mut line: Vec<u16> = self.pending.drain(..).collect();
        if line.last() == Some(&u16::from(b'\n')) {
            line.pop();
            if line.last() == Some(&u16::from(b'\r')) {
                line.pop();
            }
        }
        Some(line)
    }

    /// Reads the next line into `pending`; false at the end of the input.
    fn fill(&mut self) -> bool {
        let source = self.source.get_or_insert_with(|| open(self.text.take()));
        let mut bytes = Vec::new();
        match source.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => false,
            Ok(_) => {
                self.pending.extend(String::from_utf8_lossy(&bytes).encode_utf16());
                true
            }
        }
    }
}

/// The given text, or the host's standard input.
fn open(text: Option<String>) -> Box<dyn BufRead> {
    match text {
        Some(t) => Box::new(std::io::Cursor::new(t.into_bytes())),
        None => Box::new(std::io::BufReader::new(std::io::stdin())),
    }
}
