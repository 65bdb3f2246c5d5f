//! .NET's report of a stack overflow: `Stack overflow.`, the longest run of frames that
//! repeats from the top of the stack as `Repeat N times:`, then the frames below it.

use super::Vm;
use crate::metadata::MethodId;

/// The line that frames a repeated run of frames.
const RULE: &str = "--------------------------------\n";

/// The longest sequence of methods that repeats from the top of the stack, found as the
/// runtime's stack logger finds it while it walks down the stack.
#[derive(Default)]
struct Repetition {
    /// How many frames one repetition holds (0: nothing repeats).
    length: usize,
    /// How many times it repeats.
    times: usize,
}

/// Walks the methods from the top of the stack down: a frame with the top frame's method
/// may start a repetition; it lasts while each frame matches the one `start` frames above.
fn find_repetition(methods: &[MethodId]) -> Repetition {
    let mut best = Repetition::default();
    let mut start: Option<usize> = None;
    for (count, &m) in methods.iter().enumerate() {
        if let Some(s) = start {
            if methods[count - s] != m {
                if count / s >= 2 {
                    best = Repetition { length: s, times: count / s };
                }
                start = None;
            }
        }
        if start.is_none() && count != 0 && m == methods[0] {
            start = Some(count);
        }
    }
    best
}

impl Vm {
    /// The text .NET prints to standard error when the current thread's stack overflows.
    pub fn stack_overflow_report(&self) -> String {
        let methods: Vec<MethodId> = self.thread.frames.iter().rev().filter_map(|f| self.frame_method(f.func)).collect();
        let repetition = find_repetition(&methods);
        let mut text = String::from("Stack overflow.\n");
        if repetition.length != 0 {
            text.push_str(&format!("Repeat {} times:\n{RULE}", repetition.times));
            for &m in &methods[..repetition.length] {
                text.push_str(&self.overflow_frame_line(m));
            }
            text.push_str(RULE);
        }
        for &m in &methods[repetition.length * repetition.times..] {
            text.push_str(&self.overflow_frame_line(m));
        }
        text
    }

    /// The user-visible method a frame runs (an async method's, not its body's).
    fn frame_method(&self, func: crate::bytecode::FunctionId) -> Option<MethodId> {
        let f = self.functions.get(func.0 as usize)?;
        Some(self.meta.kickoff_of.get(&f.method).copied().unwrap_or(f.method))
    }

    /// `   at Namespace.Outer+Inner.Method(Int32, System.String)`: the runtime's own format,
    /// with parameter types and no names or lines.
    fn overflow_frame_line(&self, method: MethodId) -> String {
        let m = self.meta.method(method);
        let params: Vec<String> = m.params.iter().map(|p| self.meta.clr_signature_name(p.ty)).collect();
        format!("   at {}.{}({})\n", self.meta.def_full_name(m.owner), self.runtime_method_name(method), params.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(xs: &[u32]) -> Vec<MethodId> {
        xs.iter().map(|&x| MethodId(x)).collect()
    }

    #[test]
    fn a_single_recursive_method_repeats_above_its_caller() {
        let r = find_repetition(&ids(&[1, 1, 1, 1, 9]));
        assert_eq!((r.length, r.times), (1, 4));
    }

    #[test]
    fn mutual_recursion_repeats_as_a_pair() {
        let r = find_repetition(&ids(&[2, 1, 2, 1, 2, 1, 9]));
        assert_eq!((r.length, r.times), (2, 3));
    }

    #[test]
    fn a_stack_without_repetition_has_none() {
        let r = find_repetition(&ids(&[1, 2, 3]));
        assert_eq!((r.length, r.times), (0, 0));
    }
}
