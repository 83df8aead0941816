//! A fast hasher for the kernel caches looked up on every launch. Their keys are kernel
//! descriptions built by this process (not attacker-chosen), so the standard library's
//! flood-resistant SipHash buys nothing there and cost a few percent of a tiny op's host
//! time. Each word is folded in with a rotate, an XOR and one multiplication by a large odd
//! constant.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// See the module documentation.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

/// An odd constant with well-mixed bits (from the golden ratio).
const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

impl FastHasher {
    fn fold(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(MULTIPLIER);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.fold(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.fold(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 56));
        }
    }

    fn write_u8(&mut self, v: u8) {
        self.fold(u64::from(v));
    }

    fn write_u32(&mut self, v: u32) {
        self.fold(u64::from(v));
    }

    fn write_u64(&mut self, v: u64) {
        self.fold(v);
    }

    fn write_usize(&mut self, v: usize) {
        self.fold(v as u64);
    }

    fn finish(&self) -> u64 {
        // The high bits are the best mixed; hashbrown picks buckets from the low ones.
        self.0.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::FastHasher;
    use std::hash::{Hash, Hasher};

    fn hash(value: impl Hash) -> u64 {
        let mut h = FastHasher::default();
        value.hash(&mut h);
        h.finish()
    }

    #[test]
    fn distinct_keys_hash_apart() {
        assert_ne!(hash((1u32, 2u32)), hash((2u32, 1u32)));
        assert_ne!(hash("ab"), hash("ba"));
        assert_ne!(hash([0u8; 3].as_slice()), hash([0u8; 4].as_slice()));
        assert_eq!(hash(vec![1i64, 2, 3]), hash(vec![1i64, 2, 3]));
    }
}
