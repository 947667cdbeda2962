//! What the call being served reports to its client besides its result: progress
//! through its steps and notices raised while it ran.
//!
//! The protocol layer runs each call inside [`scope`]; code deep in the service reports
//! with [`progress`] and [`notice`] without a reporter being passed down to it (the
//! scope is task-local, so it covers exactly the call's own future).

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use crate::service::notice::Notice;

/// Sends one progress step to the client: `(completed steps, message)`.
pub type Reporter =
    Arc<dyn Fn(u32, String) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// One call's reporting state.
struct Scope {
    reporter: Option<Reporter>,
    /// Steps finished so far (each [`progress`] finishes one).
    steps: Mutex<u32>,
    notices: Mutex<Vec<Notice>>,
}

tokio::task_local! {
    static SCOPE: Scope;
}

/// Runs a call, sending its [`progress`] through `reporter` (none when the client asked
/// for no progress) and collecting its [`notice`]s, which come back with its output.
pub async fn scope<F: Future>(reporter: Option<Reporter>, call: F) -> (F::Output, Vec<Notice>) {
    let scope = Scope {
        reporter,
        steps: Mutex::new(0),
        notices: Mutex::new(Vec::new()),
    };
    SCOPE
        .scope(scope, async {
            let output = call.await;
            let notices = SCOPE.with(|scope| std::mem::take(&mut *lock(&scope.notices)));
            (output, notices)
        })
        .await
}

/// The call finished a step and goes on to `next` (e.g. "reading the project"). Waits
/// until the client was told, so progress always goes out before the result.
pub async fn progress(next: &str) {
    let step = SCOPE.try_with(|scope| {
        let reporter = scope.reporter.clone()?;
        let mut steps = lock(&scope.steps);
        *steps += 1;
        Some((reporter, *steps))
    });
    if let Ok(Some((reporter, steps))) = step {
        reporter(steps, next.to_string()).await;
    }
}

/// Adds a notice to the call being served; gives it back outside any call.
pub fn notice(notice: Notice) -> Option<Notice> {
    let mut notice = Some(notice);
    let _ = SCOPE.try_with(|scope| lock(&scope.notices).extend(notice.take()));
    notice
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::notice::NoticeLevel;

    fn sample(message: &str) -> Notice {
        Notice {
            level: NoticeLevel::Warning,
            topic: "test",
            message: message.into(),
            data: serde_json::Value::Null,
        }
    }

    #[tokio::test]
    async fn a_scope_collects_its_own_notices_and_steps_only() {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let record = sent.clone();
        let reporter: Reporter = Arc::new(move |steps, message| {
            record.lock().unwrap().push((steps, message));
            Box::pin(async {})
        });
        let ((), notices) = scope(Some(reporter), async {
            progress("reading").await;
            assert!(notice(sample("inside")).is_none());
            progress("writing").await;
        })
        .await;
        assert_eq!(notices, vec![sample("inside")]);
        assert_eq!(
            *sent.lock().unwrap(),
            vec![(1, "reading".to_string()), (2, "writing".to_string())]
        );
        // Outside a scope nothing is collected and nothing is sent.
        assert_eq!(notice(sample("outside")), Some(sample("outside")));
        progress("nowhere").await;
        assert_eq!(sent.lock().unwrap().len(), 2);
    }
}
