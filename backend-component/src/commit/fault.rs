//! Fault injection for crash tests: stops, hangs or aborts a commit (or recovery) at a
//! chosen step. Nothing happens unless a fault is configured: [`configured`] reads
//! [`ENV`], which the host passes into the component only when its own test
//! configuration sets it (the component sees no environment otherwise).
//!
//! A specification is `<step>[:<occurrence>][:<action>]`, e.g. `apply:2:hang`: the step
//! name ([`StepKind::name`]), which occurrence of it (1-based, default 1) and what to do
//! there:
//! - `hang` (default): print `ofgui-save-fault: reached <step>#<n> at <path>` on stderr,
//!   then sleep forever, so an end-to-end test can SIGKILL the server at exactly that
//!   point once it sees the line;
//! - `abort`: abort at once (in `backend.wasm` a trap, which the host survives);
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
            match part {
                "stop" => action = FaultAction::Stop,
                "hang" => action = FaultAction::Hang,
                "abort" => action = FaultAction::Abort,
                number => {
                    occurrence = number.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                        format!("{number:?} is not an occurrence or an action (stop, hang, abort)")
                    })?;
                }
            }
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
        match self.action {
            FaultAction::Stop => ControlFlow::Break(()),
            FaultAction::Hang => {
                eprintln!(
                    "ofgui-save-fault: reached {}#{} at {}",
                    step.kind.name(),
                    self.seen,
                    step.path
                );
                loop {
                    std::thread::sleep(std::time::Duration::from_secs(3600));
                }
            }
            FaultAction::Abort => {
                eprintln!(
                    "ofgui-save-fault: aborting at {}#{} at {}",
                    step.kind.name(),
                    self.seen,
                    step.path
                );
                std::process::abort()
            }
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
