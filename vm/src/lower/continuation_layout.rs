//! A runtime-async continuation laid out member by member, as the JIT's debug dump prints
//! it (`Continuation layout (24 bytes):` then `+000 Execution context`...), with the
//! offsets and sizes `--stats` charges (`runtime/stats.rs`, `runtime/clr_size.rs`).

use crate::runtime::clr_size::{place, round8, Layout};
use crate::runtime::stats::{continuation_bytes, continuation_data, ContinuationShape, CONTINUATION_HEADER};

/// A value the continuation saves, with how the dump names it.
pub struct Saved {
    pub label: String,
    pub layout: Layout,
}

/// One member of the data area.
struct Member {
    offset: u32,
    what: String,
}

pub struct ContinuationLayout {
    members: Vec<Member>,
    pub data_bytes: u32,
    pub object_bytes: u32,
}

/// The layout of a continuation of `shape` saving `saved`; `result` names the result
/// slot's type (`int`).
pub fn lay_out(shape: &ContinuationShape, result: Option<&str>, saved: &[Saved]) -> ContinuationLayout {
    let layouts: Vec<Layout> = saved.iter().map(|s| s.layout).collect();
    let data = continuation_data(shape, &layouts);
    let (offsets, packed) = place(&data);
    let mut labels = vec!["Execution context".to_string()];
    if shape.context_slot {
        labels.push("Continuation context".into());
    }
    if shape.exception_slot {
        labels.push("Exception".into());
    }
    if let Some(r) = shape.result {
        labels.push(format!("{} for {} return", bytes(r.size), result.unwrap_or("the")));
    }
    labels.extend(saved.iter().map(|s| format!("{}: {}", s.label, bytes(s.layout.size))));
    let mut members: Vec<Member> = offsets.iter().zip(labels).map(|(&offset, what)| Member { offset, what }).collect();
    members.sort_by_key(|m| m.offset);
    ContinuationLayout { members, data_bytes: packed.map_or(0, |l| round8(l.size)), object_bytes: continuation_bytes(&data) }
}

impl ContinuationLayout {
    /// The dump: a title line, then one line per member.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "Continuation layout ({}; object {} B = {CONTINUATION_HEADER} B header + {} B data):",
            bytes(self.data_bytes),
            self.object_bytes,
            self.data_bytes
        )];
        for m in &self.members {
            out.push(format!("  +{:03} {}", m.offset, m.what));
        }
        out
    }
}

fn bytes(n: u32) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}
