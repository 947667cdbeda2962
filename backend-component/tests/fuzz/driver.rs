//! Runs a harness's cases: how many and from which seed (environment), each case on its
//! own deterministic generator so one case can be replayed alone, a watchdog for cases
//! that hang, and a report of the failing case's seed and input.
//!
//! - `OFGUI_FUZZ_CASES`: cases per harness (each harness has a small default for CI).
//! - `OFGUI_FUZZ_SECONDS`: stop a harness after this long (with or without a case count).
//! - `OFGUI_FUZZ_SEED`: the run's seed (default: fixed per harness, so CI is repeatable).
//! - `OFGUI_FUZZ_REPLAY`: one case seed (printed on failure): run only that case, and
//!   print its input whatever the outcome.
//! - `OFGUI_FUZZ_TIMEOUT`: seconds one case may take before it counts as hung (default 120).
//! - `OFGUI_FUZZ_TRACE`: print each case's seed before it runs, for a crash no report
//!   survives (a stack overflow aborts the process): the last seed printed is the one.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the running case has generated so far, for the report if it fails or hangs.
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    /// Records one part of the case's input (a mutated file, a batch).
    pub fn note(&self, entry: impl Into<String>) {
        self.0.lock().unwrap().push(entry.into());
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// What the watchdog watches: the case running and since when.
struct Running {
    case_seed: u64,
    since: Instant,
    finished: bool,
}

fn env_u64(name: &str) -> Option<u64> {
    let raw = std::env::var(name).ok()?;
    let raw = raw.trim().replace('_', "");
    let parsed = match raw.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => raw.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={raw} is not a number")))
}

/// A bounded input for a report: long generated files would drown the message.
pub fn excerpt(text: &str) -> String {
    const MAX: usize = 4000;
    if text.len() <= MAX {
        return text.to_string();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len())
}

/// Runs `case` `default_cases` times (or as the environment says), each with a fresh
/// generator seeded from the run's seed; panics with the first failing case's seed, input
/// and error. A case fails by returning `Err` or by panicking.
pub fn run(
    harness: &str,
    default_cases: u64,
    default_seed: u64,
    case: impl Fn(&mut fastrand::Rng, &Log) -> Result<(), String>,
) {
    let replay = env_u64("OFGUI_FUZZ_REPLAY");
    let cases = if replay.is_some() {
        1
    } else {
        env_u64("OFGUI_FUZZ_CASES").unwrap_or(default_cases)
    };
    let seconds = env_u64("OFGUI_FUZZ_SECONDS").map(Duration::from_secs);
    let seed = env_u64("OFGUI_FUZZ_SEED").unwrap_or(default_seed);
    let timeout = Duration::from_secs(env_u64("OFGUI_FUZZ_TIMEOUT").unwrap_or(120));
    let trace = std::env::var_os("OFGUI_FUZZ_TRACE").is_some();
    eprintln!("fuzz {harness}: up to {cases} cases from seed {seed:#x}");

    let log = Log::default();
    let running = Arc::new(Mutex::new(Running {
        case_seed: 0,
        since: Instant::now(),
        finished: false,
    }));
    // A hung case never returns to report itself: the watchdog reports it and ends the
    // process, since a thread stuck in a loop cannot be stopped.
    let watchdog = {
        let running = Arc::clone(&running);
        let log = log.clone();
        let harness = harness.to_string();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(200));
                let state = running.lock().unwrap();
                if state.finished {
                    return;
                }
                if state.since.elapsed() > timeout {
                    let input = log.0.lock().map(|l| l.join("\n")).unwrap_or_default();
                    eprintln!(
                        "fuzz {harness}: case seed {:#x} ran for more than {timeout:?}\n\
                         replay: OFGUI_FUZZ_REPLAY={:#x} cargo test -p ofgui-backend --test fuzz {harness}\n\
                         input:\n{}",
                        state.case_seed,
                        state.case_seed,
                        excerpt(&input)
                    );
                    std::process::abort();
                }
            }
        })
    };

    let started = Instant::now();
    let mut seeds = fastrand::Rng::with_seed(seed);
    let mut ran = 0;
    let mut failure = None;
    for index in 0..cases {
        if seconds.is_some_and(|limit| started.elapsed() > limit) {
            break;
        }
        let case_seed = replay.unwrap_or_else(|| seeds.u64(..));
        {
            let mut state = running.lock().unwrap();
            state.case_seed = case_seed;
            state.since = Instant::now();
        }
        log.take();
        if trace {
            eprintln!("fuzz {harness}: case {index} seed {case_seed:#x}");
        }
        let mut rng = fastrand::Rng::with_seed(case_seed);
        let case_started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| case(&mut rng, &log)));
        ran += 1;
        if trace {
            eprintln!(
                "fuzz {harness}: case {index} took {:.1?}",
                case_started.elapsed()
            );
        }
        if replay.is_some() {
            eprintln!(
                "fuzz {harness}: the input was:\n{}",
                log.0.lock().unwrap().join("\n")
            );
        }
        let error = match outcome {
            Ok(Ok(())) => continue,
            Ok(Err(error)) => error,
            Err(panic) => format!(
                "panicked: {}",
                panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)")
            ),
        };
        failure = Some(format!(
            "fuzz {harness}: case {index} (seed {case_seed:#x}) failed: {error}\n\
             replay: OFGUI_FUZZ_REPLAY={case_seed:#x} cargo test -p ofgui-backend --test fuzz {harness}\n\
             input:\n{}",
            excerpt(&log.take().join("\n"))
        ));
        break;
    }
    running.lock().unwrap().finished = true;
    watchdog.join().unwrap();
    eprintln!("fuzz {harness}: {ran} cases in {:.1?}", started.elapsed());
    if let Some(failure) = failure {
        panic!("{failure}");
    }
}
