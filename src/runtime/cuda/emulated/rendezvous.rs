//! Where the emulated NCCL's processes meet: a folder per communicator (named by its unique
//! id, under /dev/shm where there is one) in which each rank writes what it contributes to a
//! collective or sends to a peer, as one file written whole and renamed into place, and reads
//! the others' files. Waits poll until the file appears or the communicator is aborted; NCCL
//! itself has no timeout either (the process group's watchdog aborts).
//!
//! Each rank's join file holds its process id, so that a rank that died without leaving
//! counts as gone: the last live rank to leave removes the folder, and joining a new
//! communicator removes the folders whose ranks have all died (a killed job's).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::runtime::cuda::collective_api::{NcclResult, NCCL_REMOTE_ERROR, NCCL_SYSTEM_ERROR};

/// How long joining waits for the other ranks before failing (NCCL would wait forever; a
/// test must not).
const JOIN_TIMEOUT: Duration = Duration::from_secs(600);

/// One rank's view of an emulated communicator.
pub struct Rendezvous {
    folder: PathBuf,
    pub rank: usize,
    pub ranks: usize,
    /// Collectives issued so far: the next one's number.
    issued: AtomicU64,
    /// Messages issued to and from each peer so far.
    sent: Mutex<Vec<u64>>,
    received: Mutex<Vec<u64>>,
    aborted: AtomicBool,
}

/// The folder the communicators' folders go in.
fn base() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// Whether process `pid` is running (or may be: where /proc is missing, every process is).
fn alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

/// The process ids written in a communicator folder's join files.
fn joined_pids(folder: &Path) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return vec![];
    };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("join."))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok()?.trim().parse().ok())
        .collect()
}

/// How long a folder stays untouched before its ranks' deaths make it abandoned: a
/// communicator whose first ranks joined and died may still be joined by others meanwhile.
const ABANDONED_AFTER: Duration = Duration::from_secs(60);

/// Removes the communicator folders every joined rank of which has died without leaving.
fn remove_abandoned() {
    let Ok(entries) = std::fs::read_dir(base()) else {
        return;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let idle = (entry.metadata().and_then(|m| m.modified()).ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > ABANDONED_AFTER);
        if !idle || !entry.file_name().to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        let pids = joined_pids(&entry.path());
        if !pids.is_empty() && !pids.iter().any(|&pid| alive(pid)) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The start of every communicator folder's name.
const PREFIX: &str = "mojo-nccl-";

/// A name no other communicator has: the process, the time and a count.
pub fn unique_name() -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let count = COUNT.fetch_add(1, Ordering::Relaxed);
    format!("{PREFIX}{}-{nanos:x}-{count}", std::process::id())
}

/// Writes `bytes` to `path` whole: readers see the complete file or none.
fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path)
}

impl Rendezvous {
    /// Joins communicator `name` as `rank` of `ranks`, waiting until every rank has.
    pub fn join(name: &str, ranks: usize, rank: usize) -> Result<Rendezvous, NcclResult> {
        remove_abandoned();
        let folder = base().join(name);
        std::fs::create_dir_all(&folder).map_err(|_| NCCL_SYSTEM_ERROR)?;
        let rendezvous = Rendezvous {
            folder,
            rank,
            ranks,
            issued: AtomicU64::new(0),
            sent: Mutex::new(vec![0; ranks]),
            received: Mutex::new(vec![0; ranks]),
            aborted: AtomicBool::new(false),
        };
        let pid = std::process::id().to_string();
        write_whole(&rendezvous.path(&format!("join.{rank}")), pid.as_bytes())
            .map_err(|_| NCCL_SYSTEM_ERROR)?;
        let deadline = Instant::now() + JOIN_TIMEOUT;
        for r in 0..ranks {
            rendezvous.wait_for(&format!("join.{r}"), Some(deadline))?;
        }
        Ok(rendezvous)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.folder.join(file)
    }

    /// The number of the next collective (ranks issue collectives in the same order).
    pub fn next_collective(&self) -> u64 {
        self.issued.fetch_add(1, Ordering::SeqCst)
    }

    /// The number of the next message to (`sending`) or from `peer`.
    pub fn next_message(&self, peer: usize, sending: bool) -> u64 {
        let mut counts = if sending {
            self.sent.lock()
        } else {
            self.received.lock()
        };
        let n = counts[peer];
        counts[peer] += 1;
        n
    }

    /// Makes every wait, now and later, fail.
    pub fn abort(&self) {
        self.aborted.store(true, Ordering::SeqCst);
    }

    /// Waits until `file` exists (or the deadline passes, or the communicator is aborted).
    fn wait_for(&self, file: &str, deadline: Option<Instant>) -> Result<PathBuf, NcclResult> {
        let path = self.path(file);
        let mut pause = Duration::from_micros(20);
        while !path.exists() {
            if self.aborted.load(Ordering::SeqCst) {
                return Err(NCCL_REMOTE_ERROR);
            }
            if deadline.is_some_and(|d| Instant::now() > d) {
                return Err(NCCL_SYSTEM_ERROR);
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(2));
        }
        Ok(path)
    }

    fn read(&self, file: &str) -> Result<Vec<u8>, NcclResult> {
        let path = self.wait_for(file, None)?;
        std::fs::read(path).map_err(|_| NCCL_SYSTEM_ERROR)
    }

    /// Collective `number`: contributes `mine` and returns every rank's contribution.
    pub fn exchange(&self, number: u64, mine: &[u8]) -> Result<Vec<Vec<u8>>, NcclResult> {
        let file = |r: usize| format!("c{number}.{r}");
        write_whole(&self.path(&file(self.rank)), mine).map_err(|_| NCCL_SYSTEM_ERROR)?;
        let parts = (0..self.ranks)
            .map(|r| self.read(&file(r)))
            .collect::<Result<Vec<_>, _>>()?;
        // Every rank has written this collective's file, so each has read all of the one
        // before: this rank's file of it can go.
        if number > 0 {
            let _ = std::fs::remove_file(self.path(&format!("c{}.{}", number - 1, self.rank)));
        }
        Ok(parts)
    }

    /// Message `number` to `peer`: written at once (a send never waits for its receive).
    pub fn send(&self, peer: usize, number: u64, bytes: &[u8]) -> Result<(), NcclResult> {
        let file = format!("p{}.{peer}.{number}", self.rank);
        write_whole(&self.path(&file), bytes).map_err(|_| NCCL_SYSTEM_ERROR)
    }

    /// Message `number` from `peer`, once it has been sent; removed once read.
    pub fn receive(&self, peer: usize, number: u64) -> Result<Vec<u8>, NcclResult> {
        let file = format!("p{peer}.{}.{number}", self.rank);
        let bytes = self.read(&file)?;
        let _ = std::fs::remove_file(self.path(&file));
        Ok(bytes)
    }

    /// Marks this rank as gone; the last rank to leave removes the folder. A rank's files
    /// stay until then: a slower rank may still be reading its last contribution (a leaving
    /// rank has run every call it issued, so once all have left none is read again). A rank
    /// whose process has died counts as gone.
    pub fn leave(&self) {
        let _ = write_whole(&self.path(&format!("left.{}", self.rank)), &[]);
        let gone = |r: usize| {
            self.path(&format!("left.{r}")).exists()
                || std::fs::read_to_string(self.path(&format!("join.{r}")))
                    .ok()
                    .and_then(|pid| pid.trim().parse().ok())
                    .is_some_and(|pid| !alive(pid))
        };
        if (0..self.ranks).all(gone) {
            let _ = std::fs::remove_dir_all(&self.folder);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_ranks_exchange_send_and_leave_no_files() {
        let name = unique_name();
        let ranks: Vec<_> = (0..2usize)
            .map(|rank| {
                let name = name.clone();
                std::thread::spawn(move || {
                    let r = Rendezvous::join(&name, 2, rank).expect("joins");
                    let mine = [rank as u8; 3];
                    let all = r.exchange(r.next_collective(), &mine).expect("exchanges");
                    assert_eq!(all, vec![vec![0; 3], vec![1; 3]]);
                    let all = r.exchange(r.next_collective(), &[]).expect("exchanges");
                    assert!(all.iter().all(Vec::is_empty));
                    let peer = 1 - rank;
                    let number = r.next_message(peer, true);
                    r.send(peer, number, &[rank as u8 + 7]).expect("sends");
                    let got = r.receive(peer, r.next_message(peer, false));
                    assert_eq!(got.expect("receives"), vec![peer as u8 + 7]);
                    r.leave();
                })
            })
            .collect();
        for rank in ranks {
            rank.join().expect("rank finished");
        }
        assert!(
            !base().join(&name).exists(),
            "the last rank removes the folder"
        );
    }

    #[test]
    fn a_rank_that_leaves_first_keeps_its_last_contribution() {
        let name = unique_name();
        let quick = {
            let name = name.clone();
            std::thread::spawn(move || {
                let r = Rendezvous::join(&name, 2, 1).expect("joins");
                r.exchange(r.next_collective(), &[1]).expect("exchanges");
                r.leave();
            })
        };
        let slow = Rendezvous::join(&name, 2, 0).expect("joins");
        // The slow rank contributes, and reads the quick rank's part only after it has left.
        write_whole(&slow.path("c0.0"), &[0]).expect("writes");
        quick.join().expect("the quick rank finished");
        assert_eq!(slow.read("c0.1"), Ok(vec![1]));
        slow.leave();
        assert!(
            !base().join(&name).exists(),
            "the last rank removes the folder"
        );
    }

    /// The id of a process that has exited.
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("runs true");
        let pid = child.id();
        child.wait().expect("true exits");
        pid
    }

    #[test]
    fn ranks_that_died_count_as_gone() {
        // Rank 1 joined and died without leaving: rank 0 leaving last removes the folder.
        let name = unique_name();
        let folder = base().join(&name);
        std::fs::create_dir_all(&folder).expect("creates");
        write_whole(&folder.join("join.1"), dead_pid().to_string().as_bytes()).expect("writes");
        let survivor = Rendezvous::join(&name, 2, 0).expect("joins");
        survivor.leave();
        assert!(!folder.exists(), "the last live rank removes the folder");
        // A folder whose every rank died is removed when another communicator forms.
        let abandoned = base().join(unique_name());
        std::fs::create_dir_all(&abandoned).expect("creates");
        for rank in 0..2 {
            let path = abandoned.join(format!("join.{rank}"));
            write_whole(&path, dead_pid().to_string().as_bytes()).expect("writes");
        }
        let old = std::time::SystemTime::now() - 2 * ABANDONED_AFTER;
        let folder_file = std::fs::File::open(&abandoned).expect("opens the folder");
        folder_file.set_modified(old).expect("ages the folder");
        let alone = Rendezvous::join(&unique_name(), 1, 0).expect("joins");
        assert!(!abandoned.exists(), "joining removes an abandoned folder");
        alone.leave();
    }

    #[test]
    fn an_aborted_wait_fails() {
        let name = unique_name();
        let alone = Rendezvous::join(&name, 1, 0).expect("joins");
        alone.abort();
        assert_eq!(alone.receive(0, 0), Err(NCCL_REMOTE_ERROR));
        alone.leave();
    }
}
