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
//! - `stop`: return from the commit as if it crashed (what unit tests use).

use std::ops::ControlFlow;

use super::{Step, StepKind};

/// The environment variable holding a fault specification.
pub const ENV: &str = "OFGUI_SAVE_FAULT";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultAction {
    Stop,
    Hang,
    Abort,
    Spin,
    Alloc,
}

impl FaultAction {
    const NAMES: [(&str, FaultAction); 5] = [
        ("stop", FaultAction::Stop),
        ("hang", FaultAction::Hang),
        ("abort", FaultAction::Abort),
        ("spin", FaultAction::Spin),
        ("alloc", FaultAction::Alloc),
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
            FaultAction::Hang | FaultAction::Stop | FaultAction::Abort => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
        }
    }
}

/// The hook production passes to [`super::commit`]: the fault from [`ENV`] when one is
/// configured (a malformed one is reported on stderr and ignored), otherwise nothing.
pub fn configured() -> impl FnMut(Step<'_>) -> ControlFlow<()> {
    let mut fault = match FaultInjection::from_env() {
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
