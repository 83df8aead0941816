//! The on-disk kernel cache: compiled kernels content-addressed by everything that determines
//! them, written with temp-file-and-rename so that concurrent processes never see a partial
//! entry, and verified on every read (a truncated or corrupted entry is rebuilt, never used).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"MOJOKC01";

/// A 128-bit FNV-1a digest (two 64-bit lanes with different offsets); not cryptographic, it
/// names entries and detects damage.
pub fn digest(data: &[u8]) -> u128 {
    let mut a: u64 = 0xcbf2_9ce4_8422_2325;
    let mut b: u64 = 0x6c62_272e_07bb_0142;
    for &byte in data {
        a = (a ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        b = (b ^ u64::from(byte))
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(5);
    }
    (u128::from(a) << 64) | u128::from(b)
}

/// A directory of verified entries.
pub struct DiskCache {
    dir: PathBuf,
}

impl DiskCache {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        DiskCache { dir: dir.into() }
    }

    /// The entry path for a key made of every part that determines the compiled output.
    fn path(&self, key: &[&str]) -> PathBuf {
        let joined = key.join("\u{1f}");
        self.dir
            .join(key.first().copied().unwrap_or("kernel"))
            .join(format!("{:032x}.bin", digest(joined.as_bytes())))
    }

    /// The stored bytes for `key`, or None when absent or damaged (a damaged entry is removed).
    pub fn get(&self, key: &[&str]) -> Option<Vec<u8>> {
        let path = self.path(key);
        let data = fs::read(&path).ok()?;
        match verify(&data) {
            Some(payload) => Some(payload.to_vec()),
            None => {
                let _ = fs::remove_file(&path);
                None
            }
        }
    }

    /// Stores `payload` for `key` atomically; errors are ignored (the cache is an optimisation).
    pub fn put(&self, key: &[&str], payload: &[u8]) {
        let path = self.path(key);
        let _ = write_atomically(&path, &encode(payload));
    }
}

fn encode(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 32);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&digest(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of an entry whose header, length and digest all check out.
fn verify(data: &[u8]) -> Option<&[u8]> {
    let header = data.get(..32)?;
    if &header[..8] != MAGIC {
        return None;
    }
    let len = u64::from_le_bytes(header[8..16].try_into().ok()?) as usize;
    let sum = u128::from_le_bytes(header[16..32].try_into().ok()?);
    let payload = data.get(32..)?;
    (payload.len() == len && digest(payload) == sum).then_some(payload)
}

fn write_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let unique = format!(
        ".tmp-{}-{:?}-{}",
        std::process::id(),
        std::thread::current().id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let temp = dir.join(unique.replace(['(', ')'], ""));
    let mut file = fs::File::create(&temp)?;
    file.write_all(data)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&temp, path).inspect_err(|_| {
        let _ = fs::remove_file(&temp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_cache(name: &str) -> DiskCache {
        let dir =
            std::env::temp_dir().join(format!("mojo-cache-test-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        DiskCache::new(dir)
    }

    #[test]
    fn round_trip_and_distinct_keys() {
        let cache = temp_cache("roundtrip");
        cache.put(&["cuda", "src", "sm_90"], b"cubin");
        assert_eq!(
            cache.get(&["cuda", "src", "sm_90"]).as_deref(),
            Some(&b"cubin"[..])
        );
        assert_eq!(cache.get(&["cuda", "src", "sm_80"]), None);
    }

    #[test]
    fn damaged_entries_are_dropped() {
        let cache = temp_cache("damage");
        let key = ["cuda", "source", "sm_80"];
        cache.put(&key, b"payload bytes");
        let path = cache.path(&key);
        let mut data = fs::read(&path).unwrap();
        let last = data.len() - 1;
        data[last] ^= 1;
        fs::write(&path, &data).unwrap();
        assert_eq!(cache.get(&key), None, "a flipped bit is detected");
        assert!(!path.exists(), "the damaged entry is removed");
        cache.put(&key, b"payload bytes");
        let data = fs::read(&path).unwrap();
        fs::write(&path, &data[..data.len() / 2]).unwrap();
        assert_eq!(cache.get(&key), None, "a truncated entry is detected");
    }

    #[test]
    fn concurrent_writers_all_succeed() {
        let cache = std::sync::Arc::new(temp_cache("race"));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let cache = cache.clone();
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        cache.put(&["wgsl", "same"], b"identical output");
                        assert_eq!(
                            cache.get(&["wgsl", "same"]).as_deref(),
                            Some(&b"identical output"[..])
                        );
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }
}
