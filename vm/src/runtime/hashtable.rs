//! The storage behind `Dictionary<K,V>` and `HashSet<T>`: CoreLib's algorithm (an entries
//! array, chained buckets, a LIFO free list), so enumeration order matches .NET exactly —
//! insertion order, except that an `Add` after a `Remove` reuses the freed slot.
//!
//! The table never hashes or compares keys itself: callers pass the hash code and an
//! equality test, so the same storage serves keys compared natively (strings, numbers)
//! and keys with user-defined `Equals`/`GetHashCode`.

use super::value::Value;

#[derive(Clone, Copy, Debug)]
struct Entry {
    hash: i32,
    /// Next entry in the bucket chain (-1 = end). For a free entry: `-3 - next_free`.
    next: i32,
    key: Value,
    value: Value,
}

#[derive(Clone, Debug, Default)]
pub struct HashTable {
    entries: Vec<Entry>,
    /// 1-based index of the first entry of each bucket (0 = empty).
    buckets: Vec<i32>,
    /// `u64::MAX / buckets.len() + 1`: finds a hash's bucket without a division.
    bucket_multiplier: u64,
    /// Entries in use or on the free list (`entries.len()` can be larger after a clear).
    count: i32,
    free_list: i32,
    free_count: i32,
    /// Bumped by additions (as .NET Core 3.0+: removing or overwriting during enumeration
    /// is allowed); enumerators compare it to detect modification.
    pub version: i32,
}

const START_OF_FREE_LIST: i32 = -3;

impl HashTable {
    pub fn new() -> HashTable {
        HashTable { free_list: -1, ..Default::default() }
    }

    pub fn len(&self) -> usize {
        (self.count - self.free_count) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn bucket_of(&self, hash: i32) -> usize {
        fast_mod(hash as u32, self.buckets.len() as u32, self.bucket_multiplier) as usize
    }

    /// The index of the entry whose key has `hash` and satisfies `eq`.
    pub fn find(&self, hash: i32, mut eq: impl FnMut(Value) -> bool) -> Option<usize> {
        if self.buckets.is_empty() {
            return None;
        }
        let mut i = self.buckets[self.bucket_of(hash)] - 1;
        while i >= 0 {
            let e = &self.entries[i as usize];
            if e.hash == hash && eq(e.key) {
                return Some(i as usize);
            }
            i = e.next;
        }
        None
    }

    /// Entries whose stored hash equals `hash`, starting after entry `after` in the chain
    /// (`None` = from the start): lets managed code run user `Equals` on each candidate.
    pub fn next_with_hash(&self, hash: i32, after: Option<usize>) -> Option<usize> {
        if self.buckets.is_empty() {
            return None;
        }
        let mut i = match after {
            Some(a) => self.entries.get(a)?.next,
            None => self.buckets[self.bucket_of(hash)] - 1,
        };
        while i >= 0 {
            let e = &self.entries[i as usize];
            if e.hash == hash {
                return Some(i as usize);
            }
            i = e.next;
        }
        None
    }

    /// Adds a key known to be absent; returns its entry index.
    pub fn insert_new(&mut self, hash: i32, key: Value, value: Value) -> usize {
        if self.buckets.is_empty() {
            self.resize(3);
        }
        let index = if self.free_count > 0 {
            let i = self.free_list;
            self.free_list = START_OF_FREE_LIST - self.entries[i as usize].next;
            self.free_count -= 1;
            i as usize
        } else {
            if self.count as usize == self.buckets.len() {
                self.resize(next_size(self.count as usize));
            }
            let i = self.count as usize;
            self.count += 1;
            i
        };
        let b = self.bucket_of(hash);
        let entry = Entry { hash, next: self.buckets[b] - 1, key, value };
        if index == self.entries.len() {
            self.entries.push(entry);
        } else {
            self.entries[index] = entry;
        }
        self.buckets[b] = index as i32 + 1;
        self.version = self.version.wrapping_add(1);
        index
    }

    fn resize(&mut self, size: usize) {
        self.buckets = vec![0; size];
        self.bucket_multiplier = fast_mod_multiplier(size as u32);
        self.entries.reserve_exact(size.saturating_sub(self.entries.len()));
        for i in 0..self.count as usize {
            if self.entries[i].next >= -1 {
                let b = self.bucket_of(self.entries[i].hash);
                self.entries[i].next = self.buckets[b] - 1;
                self.buckets[b] = i as i32 + 1;
            }
        }
    }

    /// Removes the entry at `index` (which must be in use).
    pub fn remove_at(&mut self, index: usize) {
        let hash = self.entries[index].hash;
        let b = self.bucket_of(hash);
        let mut prev: i32 = -1;
        let mut i = self.buckets[b] - 1;
        while i >= 0 {
            if i as usize == index {
                let next = self.entries[index].next;
                if prev < 0 {
                    self.buckets[b] = next + 1;
                } else {
                    self.entries[prev as usize].next = next;
                }
                let e = &mut self.entries[index];
                e.next = START_OF_FREE_LIST - self.free_list;
                e.key = Value::Null;
                e.value = Value::Null;
                self.free_list = index as i32;
                self.free_count += 1;
                return;
            }
            prev = i;
            i = self.entries[i as usize].next;
        }
    }

    pub fn clear(&mut self) {
        if self.count > 0 {
            self.buckets.iter_mut().for_each(|b| *b = 0);
            self.entries.clear();
            self.count = 0;
            self.free_list = -1;
            self.free_count = 0;
        }
    }

    pub fn key_at(&self, index: usize) -> Value {
        self.entries.get(index).map_or(Value::Null, |e| e.key)
    }

    pub fn value_at(&self, index: usize) -> Value {
        self.entries.get(index).map_or(Value::Null, |e| e.value)
    }

    pub fn set_value_at(&mut self, index: usize, value: Value) {
        if let Some(e) = self.entries.get_mut(index) {
            e.value = value;
        }
    }

    /// The first entry in use at or after `from`, in enumeration order.
    pub fn next_occupied(&self, from: usize) -> Option<usize> {
        (from..self.count as usize).find(|&i| self.entries[i].next >= -1)
    }

    pub fn for_each_value(&self, f: &mut dyn FnMut(&Value)) {
        for e in &self.entries[..self.count as usize] {
            f(&e.key);
            f(&e.value);
        }
    }
}

/// The multiplier [`fast_mod`] needs for `divisor` (not 0).
fn fast_mod_multiplier(divisor: u32) -> u64 {
    (u64::MAX / u64::from(divisor.max(1))).wrapping_add(1)
}

/// `value % divisor` without a division, as CoreLib's `HashHelpers.FastMod` (Lemire's
/// method: exact for every 32-bit value and divisor).
fn fast_mod(value: u32, divisor: u32, multiplier: u64) -> u32 {
    let low = multiplier.wrapping_mul(u64::from(value));
    ((u128::from(low) * u128::from(divisor)) >> 64) as u32
}

/// Bucket counts grow through primes roughly doubling, as `HashHelpers.ExpandPrime`.
fn next_size(current: usize) -> usize {
    let mut n = (current * 2).max(3) | 1;
    while !is_prime(n) {
        n += 2;
    }
    n
}

fn is_prime(n: usize) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(t: &HashTable) -> Vec<i32> {
        let mut out = vec![];
        let mut i = 0;
        while let Some(j) = t.next_occupied(i) {
            out.push(t.key_at(j).as_i32().unwrap_or(-1));
            i = j + 1;
        }
        out
    }

    #[test]
    fn fast_mod_is_the_remainder() {
        for divisor in [1u32, 3, 7, 17, 37, 1103, 1_048_583, 2_147_483_647, u32::MAX] {
            let m = fast_mod_multiplier(divisor);
            for value in [0u32, 1, 2, 3, 1000, 123_456_789, 2_147_483_647, 2_147_483_648, u32::MAX - 1, u32::MAX] {
                assert_eq!(fast_mod(value, divisor, m), value % divisor, "{value} % {divisor}");
            }
        }
    }

    #[test]
    fn removed_slots_are_reused_lifo() {
        let mut t = HashTable::new();
        for k in 0..5 {
            t.insert_new(k, Value::I32(k), Value::Null);
        }
        let i1 = t.find(1, |k| k == Value::I32(1)).unwrap_or(99);
        t.remove_at(i1);
        let i3 = t.find(3, |k| k == Value::I32(3)).unwrap_or(99);
        t.remove_at(i3);
        t.insert_new(10, Value::I32(10), Value::Null);
        t.insert_new(11, Value::I32(11), Value::Null);
        assert_eq!(keys(&t), vec![0, 11, 2, 10, 4]);
        assert_eq!(t.len(), 5);
    }

    #[test]
    fn grows_and_finds_everything() {
        let mut t = HashTable::new();
        for k in 0..1000 {
            t.insert_new(k * 31, Value::I32(k), Value::I32(k * 2));
        }
        for k in 0..1000 {
            let i = t.find(k * 31, |key| key == Value::I32(k));
            assert_eq!(i.map(|i| t.value_at(i)), Some(Value::I32(k * 2)));
        }
    }
}
