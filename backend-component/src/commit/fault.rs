//! Fault injection for crash and runaway tests: stops, hangs, aborts, spins or exhausts
//! memory in a commit (or recovery) at a chosen step. Nothing happens unless a fault is configured: [`configured`] reads
//! [`ENV`], which the host passes into the component only when its own test
//! configuration sets it (the component sees no environment otherwise), and then only
//! into the first instance it starts, so a session restored after the fault runs clean.
//!
//! A specification is `<step>[:<occurrence>][:<action>]`, e.g. `apply:2:hang`: the step
//! name ([`StepKind::name`]), which occurrence of it (1-based, default 1) and what to do
//! there:
//! - `hang` (default): print `ofgui-save-fault: reached <step>#<n> at <path>` on stderr,
//!   then sleep forever, so an end-to-end test can SIGKILL the server at exactly that
//!   point once it sees the line;
//! - `abort`: abort at once (in `backend.wasm` a trap, which the host survives);
//! - `spin`: print the same line, then compute forever without calling the host (what
//!   the call deadline must stop);
//! - `alloc`: print the same line, then allocate and fill memory without bound (what the
//!   memory cap must stop);
//! - `stop`: return from the commit as if it crashed (what unit tests use);
//! - `pause`: print the same line, wait two seconds, then go on: a save that is surely
//!   in flight when a test stops the server (which must let it finish).
//!
//! `disk-full:<bytes>[:<saves>]` instead simulates a disk with only `<bytes>` free: the commit
//! writes through [`DiskLimit`], whose writes past that fail with
//! [`std::io::ErrorKind::StorageFull`] after writing what fits, as a full disk does. A
//! small tmpfs would be the real thing, but mounting one needs root and is not portable.

use std::cell::Cell;
use std::io;
use std::ops::ControlFlow;

use super::{Step, StepKind};
use crate::fs::{DirEntry, EntryMeta, ProjectFs, ProjectFsWrite};

/// The prefix of a disk limit specification (`disk-full:<bytes>`).
const DISK_FULL: &str = "disk-full:";

/// The environment variable holding a fault specification.
pub const ENV: &str = "OFGUI_SAVE_FAULT";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAction {
    Stop,
    Hang,
    Abort,
    Spin,
    Alloc,
    Pause,
}

impl FaultAction {
    const NAMES: [(&str, FaultAction); 6] = [
        ("stop", FaultAction::Stop),
        ("hang", FaultAction::Hang),
        ("abort", FaultAction::Abort),
        ("spin", FaultAction::Spin),
        ("alloc", FaultAction::Alloc),
        ("pause", FaultAction::Pause),
    ];
}

/// One configured fault, counting the steps it has seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultInjection {
    pub step: StepKind,
    pub occurrence: usize,
    pub action: FaultAction,
    seen: usize,
}

impl FaultInjection {
    pub fn new(step: StepKind, occurrence: usize, action: FaultAction) -> Self {
        Self {
            step,
            occurrence,
            action,
            seen: 0,
        }
    }

    /// Parses `<step>[:<occurrence>][:<action>]`.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let mut parts = spec.trim().split(':');
        let name = parts.next().unwrap_or_default();
        let step = StepKind::ALL
            .into_iter()
            .find(|step| step.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = StepKind::ALL.iter().map(|step| step.name()).collect();
                format!("unknown save step {name:?}; one of {}", names.join(", "))
            })?;
        let mut occurrence = 1;
        let mut action = FaultAction::Hang;
        for part in parts {
            if let Some((_, named)) = FaultAction::NAMES.iter().find(|(name, _)| *name == part) {
                action = *named;
                continue;
            }
            occurrence = part.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                let names: Vec<&str> = FaultAction::NAMES.iter().map(|(name, _)| *name).collect();
                format!(
                    "{part:?} is not an occurrence or an action ({})",
                    names.join(", ")
                )
            })?;
        }
        Ok(Self::new(step, occurrence, action))
    }

    /// The fault configured in [`ENV`], if any.
    pub fn from_env() -> Option<Result<Self, String>> {
        let spec = std::env::var(ENV).ok()?;
        Some(Self::parse(&spec))
    }

    /// The hook: acts on the configured occurrence of the configured step.
    pub fn check(&mut self, step: Step<'_>) -> ControlFlow<()> {
        if step.kind != self.step {
            return ControlFlow::Continue(());
        }
        self.seen += 1;
        if self.seen != self.occurrence {
            return ControlFlow::Continue(());
        }
        let at = format!("{}#{} at {}", step.kind.name(), self.seen, step.path);
        match self.action {
            FaultAction::Stop => return ControlFlow::Break(()),
            FaultAction::Abort => {
                eprintln!("ofgui-save-fault: aborting at {at}");
                std::process::abort()
            }
            FaultAction::Hang | FaultAction::Spin | FaultAction::Alloc => {
                eprintln!("ofgui-save-fault: reached {at}");
            }
            FaultAction::Pause => {
                eprintln!("ofgui-save-fault: reached {at}");
                std::thread::sleep(std::time::Duration::from_secs(2));
                return ControlFlow::Continue(());
            }
        }
        match self.action {
            FaultAction::Spin => {
                let mut turns = 0u64;
                loop {
                    turns = std::hint::black_box(turns.wrapping_add(1));
                }
            }
            FaultAction::Alloc => {
                // Filled, so the pages are really used, and kept, so none is reused.
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    hoard.push(vec![0xA5; 1 << 20]);
                    std::hint::black_box(&hoard);
                }
            }
            FaultAction::Hang | FaultAction::Stop | FaultAction::Abort | FaultAction::Pause => {
                loop {
                    std::thread::sleep(std::time::Duration::from_secs(3600));
                }
            }
        }
    }
}

/// The hook production passes to [`super::commit`]: the fault from [`ENV`] when one is
/// configured (a malformed one is reported on stderr and ignored), otherwise nothing.
pub fn configured() -> impl FnMut(Step<'_>) -> ControlFlow<()> {
    let disk_limit = std::env::var(ENV).is_ok_and(|spec| spec.trim().starts_with(DISK_FULL));
    let mut fault = match FaultInjection::from_env().filter(|_| !disk_limit) {
        Some(Ok(fault)) => Some(fault),
        Some(Err(message)) => {
            eprintln!("ofgui-save-fault: ignoring {ENV}: {message}");
            None
        }
        None => None,
    };
    move |step| match &mut fault {
        Some(fault) => fault.check(step),
        None => ControlFlow::Continue(()),
    }
}

/// The free space [`ENV`] gives this commit (`disk-full:<bytes>[:<saves>]`), if any: the
/// first `<saves>` commits of the instance (all, without it) find only `<bytes>` free,
/// later ones as much as the disk has, as after the user freed some. A malformed
/// specification is reported on stderr and ignored.
pub fn configured_disk_limit() -> Option<u64> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COMMITS: AtomicUsize = AtomicUsize::new(0);
    let spec = std::env::var(ENV).ok()?;
    let rest = spec.trim().strip_prefix(DISK_FULL)?;
    let (bytes, saves) = match rest.split_once(':') {
        Some((bytes, saves)) => (bytes, Some(saves)),
        None => (rest, None),
    };
    let parsed = bytes.parse::<u64>().ok().zip(match saves {
        Some(saves) => saves.parse::<usize>().ok(),
        None => Some(usize::MAX),
    });
    let Some((bytes, saves)) = parsed else {
        eprintln!("ofgui-save-fault: ignoring {ENV}: {rest:?} is not <bytes>[:<saves>]");
        return None;
    };
    (COMMITS.fetch_add(1, Ordering::Relaxed) < saves).then_some(bytes)
}

/// A filesystem with only so many bytes free: a write that does not fit writes what fits
/// and then fails as a full disk does. Everything else passes through.
pub struct DiskLimit<'a> {
    inner: &'a dyn ProjectFsWrite,
    free: Cell<u64>,
}

impl<'a> DiskLimit<'a> {
    pub fn new(inner: &'a dyn ProjectFsWrite, free: u64) -> Self {
        Self {
            inner,
            free: Cell::new(free),
        }
    }
}

impl ProjectFs for DiskLimit<'_> {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        self.inner.read(path)
    }

    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
        self.inner.read_dir(path)
    }
}

impl ProjectFsWrite for DiskLimit<'_> {
    fn metadata(&self, path: &str) -> io::Result<EntryMeta> {
        self.inner.metadata(path)
    }

    fn write_new_synced(&self, path: &str, bytes: &[u8]) -> io::Result<()> {
        let free = self.free.get();
        let fits = usize::try_from(free).map_or(bytes.len(), |free| free.min(bytes.len()));
        self.free.set(free - fits as u64);
        if fits == bytes.len() {
            return self.inner.write_new_synced(path, bytes);
        }
        // The part that fits lands on disk, as it would: cleaning it up is the commit's job.
        self.inner.write_new_synced(path, &bytes[..fits])?;
        Err(io::Error::new(
            io::ErrorKind::StorageFull,
            "no space left on device",
        ))
    }

    fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        self.inner.rename(from, to)
    }

    fn remove_file(&self, path: &str) -> io::Result<()> {
        self.inner.remove_file(path)
    }

    fn create_dir(&self, path: &str) -> io::Result<()> {
        self.inner.create_dir(path)
    }

    fn remove_dir(&self, path: &str) -> io::Result<()> {
        self.inner.remove_dir(path)
    }

    fn sync_dir(&self, path: &str) -> io::Result<()> {
        self.inner.sync_dir(path)
    }
}
