//! The names a scope declares, and the names its block declares further on: looked up on
//! every identifier, so a block declaring thousands of locals must not make each lookup
//! (and each declaration) scan all of them.

use hashbrown::HashMap;

use super::LocalId;

/// Above this many names a scope keeps a hash index beside its list.
const INDEX_FROM: usize = 16;

/// A scope's names in declaration order; the latest declaration of a name wins.
#[derive(Default)]
pub struct ScopeNames {
    entries: Vec<(String, LocalId)>,
    /// Name → its latest entry, once there are more than [`INDEX_FROM`] entries.
    index: HashMap<String, LocalId>,
}

impl ScopeNames {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn push(&mut self, name: &str, id: LocalId) {
        self.entries.push((name.to_string(), id));
        if !self.index.is_empty() {
            self.index.insert(name.to_string(), id);
        } else if self.entries.len() > INDEX_FROM {
            self.rebuild_index();
        }
    }

    /// The local `name` means in this scope.
    pub fn find(&self, name: &str) -> Option<LocalId> {
        if self.index.is_empty() {
            return self.entries.iter().rev().find(|(n, _)| n == name).map(|&(_, l)| l);
        }
        self.index.get(name).copied()
    }

    /// Removes and returns the entries from the `first`th on.
    pub fn split_off(&mut self, first: usize) -> Vec<(String, LocalId)> {
        let rest = self.entries.split_off(first.min(self.entries.len()));
        self.rebuild_index();
        rest
    }

    pub fn extend(&mut self, entries: Vec<(String, LocalId)>) {
        for (name, id) in entries {
            self.push(&name, id);
        }
    }

    /// Keeps the entries whose local satisfies `keep`.
    pub fn retain(&mut self, keep: impl Fn(LocalId) -> bool) {
        let before = self.entries.len();
        self.entries.retain(|&(_, l)| keep(l));
        if self.entries.len() != before {
            self.rebuild_index();
        }
    }

    fn rebuild_index(&mut self) {
        self.index.clear();
        if self.entries.len() > INDEX_FROM {
            self.index.extend(self.entries.iter().map(|(n, l)| (n.clone(), *l)));
        }
    }
}

/// The names a block declares that are not declared yet (a multiset: a name declared
/// twice, CS0128, is pending twice).
#[derive(Default)]
pub struct PendingNames {
    counts: HashMap<String, u32>,
}

impl PendingNames {
    pub fn add(&mut self, name: &str) {
        *self.counts.entry_ref(name).or_insert(0) += 1;
    }

    /// `name`'s declaration was reached.
    pub fn remove_one(&mut self, name: &str) {
        if let Some(count) = self.counts.get_mut(name) {
            *count -= 1;
            if *count == 0 {
                self.counts.remove(name);
            }
        }
    }

    pub fn contains(&self, name: &str) -> bool {
        self.counts.contains_key(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_agree_with_and_without_the_index() {
        let mut names = ScopeNames::default();
        for i in 0..40 {
            names.push(&format!("v{}", i % 30), LocalId(i));
        }
        assert_eq!(names.find("v5"), Some(LocalId(35)));
        assert_eq!(names.find("v29"), Some(LocalId(29)));
        let rest = names.split_off(10);
        assert_eq!(names.find("v5"), Some(LocalId(5)));
        assert_eq!(names.find("v12"), None);
        names.extend(rest);
        assert_eq!(names.find("v12"), Some(LocalId(12)));
        names.retain(|l| l.0 < 20);
        assert_eq!((names.len(), names.find("v5")), (20, Some(LocalId(5))));
    }

    #[test]
    fn a_name_pending_twice_needs_two_declarations() {
        let mut pending = PendingNames::default();
        pending.add("x");
        pending.add("x");
        pending.remove_one("x");
        assert!(pending.contains("x"));
        pending.remove_one("x");
        assert!(!pending.contains("x"));
    }
}
