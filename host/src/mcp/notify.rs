//! What the server pushes to a client besides responses: `notifications/resources/updated`
//! for the session resources it subscribed to, `notifications/message` for notices a user
//! should see, and `notifications/progress` for long calls.
//!
//! What each protocol revision gets:
//! - **Up to 2025-11-25** (the `initialize` handshake): `resources/subscribe` and
//!   `resources/unsubscribe` per connection; `logging/setLevel` sets the connection's
//!   level (default [`DEFAULT_LEVEL`]), and notices reach the connection whether they
//!   arose in one of its calls or in the background (idle expiry).
//! - **2026-07-28** (no handshake): `subscriptions/listen` streams updates of the
//!   session resources it names; a notice reaches the client only with the call it arose
//!   in, and only when that request's `_meta` asks for a log level (the revision forbids
//!   messages otherwise; there is no `logging/setLevel`).
//!
//! In both, progress goes out only for a request with `_meta.progressToken`, always
//! before its result.

// MCP logging is deprecated by the 2026-07-28 revision (SEP-2577) but stays specified
// for a year, and clients of earlier revisions use it; rmcp marks its types deprecated.
#![allow(deprecated)]

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};

use ofgui_contracts::methods::MethodId;
use rmcp::ErrorData;
use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken,
    ProtocolVersion, ResourceUpdatedNotificationParam, SubscriptionFilter,
};
use rmcp::service::{Peer, RequestContext, RoleServer, SubscriptionContext};
use serde_json::json;
use tokio::sync::{broadcast, oneshot};

use crate::mcp::resources::SessionView;
use crate::service::Service;
use crate::service::events::SessionChange;
use crate::service::notice::{Notice, NoticeLevel};
use crate::service::report::{self, Reporter};

/// The level a connection of the handshake era gets before it sets one: what a user
/// should act on, not routine news (an idle session closing is `notice`).
pub const DEFAULT_LEVEL: LoggingLevel = LoggingLevel::Warning;

/// One client connection's notification state. Dropping it ends its forwarding task.
#[derive(Default)]
pub struct Connection {
    shared: Arc<Shared>,
    /// Held while the forwarding task runs; dropping it stops the task.
    stop: Mutex<Option<oneshot::Sender<()>>>,
}

#[derive(Default)]
struct Shared {
    /// Set by `logging/setLevel`; `None` means [`DEFAULT_LEVEL`].
    level: Mutex<Option<LoggingLevel>>,
    /// URIs subscribed with `resources/subscribe`.
    subscribed: Mutex<BTreeSet<String>>,
}

impl Connection {
    /// Starts pushing resource updates and background notices to a client that
    /// connected with the `initialize` handshake. Once per connection.
    pub fn start(&self, service: &Arc<Service>, peer: Peer<RoleServer>) {
        let mut stop = lock(&self.stop);
        if stop.is_some() {
            return;
        }
        let (sender, stopped) = oneshot::channel();
        *stop = Some(sender);
        let shared = self.shared.clone();
        let changes = service.events().watch_changes();
        let notices = service.events().watch_notices();
        tokio::spawn(forward(
            service.clone(),
            shared,
            peer,
            changes,
            notices,
            stopped,
        ));
    }

    pub fn set_level(&self, level: LoggingLevel) {
        *lock(&self.shared.level) = Some(level);
    }

    /// `resources/subscribe`: only an open session's resources change.
    pub fn subscribe(&self, service: &Service, uri: &str) -> Result<(), ErrorData> {
        // Subscribed first, checked second: a close in between still reaches it.
        lock(&self.shared.subscribed).insert(uri.to_string());
        if subscribable(service, uri) {
            return Ok(());
        }
        lock(&self.shared.subscribed).remove(uri);
        Err(not_subscribable(uri))
    }

    /// `resources/unsubscribe`; unsubscribing what was not subscribed is no error.
    pub fn unsubscribe(&self, uri: &str) {
        lock(&self.shared.subscribed).remove(uri);
    }

    /// Serves one request's `work` (a `method` reports progress when the request asked
    /// for it): its progress and the notices it raised reach the client before it returns,
    /// so before its result.
    pub async fn serve<F: Future>(
        &self,
        context: &RequestContext<RoleServer>,
        method: Option<MethodId>,
        work: F,
        failed: impl Fn(&F::Output) -> bool,
    ) -> F::Output {
        let progress = match method {
            Some(method) => Progress::start(context, method).await,
            None => None,
        };
        let reporter = progress.as_ref().map(Progress::reporter);
        let (output, notices) = report::scope(reporter, work).await;
        // A client that went away gets nothing more, its result included.
        let _ = send_notices(&context.peer, notices, self.level_for(context)).await;
        if let Some(progress) = progress {
            progress.finish(failed(&output)).await;
        }
        output
    }

    /// The least level of messages a request's client wants: its `_meta` log level, else
    /// (handshake era only) the connection's.
    fn level_for(&self, context: &RequestContext<RoleServer>) -> Option<LoggingLevel> {
        if let Some(level) = context.meta.log_level() {
            return Some(level);
        }
        handshake_era(context).then(|| lock(&self.shared.level).unwrap_or(DEFAULT_LEVEL))
    }
}

/// Whether a request belongs to a connection that began with `initialize`.
pub fn handshake_era(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_none_or(|version| version < ProtocolVersion::V_2026_07_28)
}

/// The session resources a client may subscribe to: those of open sessions.
fn subscribable(service: &Service, uri: &str) -> bool {
    SessionView::parse(uri).is_some_and(|(session_id, _)| service.is_open(session_id))
}

fn not_subscribable(uri: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "Only an open session's resources change ({}, {}); {uri} is not one, so there is nothing to subscribe to.",
            SessionView::Session.uri("{sessionId}"),
            SessionView::Outline.uri("{sessionId}"),
        ),
        Some(json!({ "uri": uri })),
    )
}

/// The 2026-07-28 `subscriptions/listen` filter this server honours: the requested
/// resources of open sessions (nothing else it could be asked for ever changes).
pub fn accepted_filter(service: &Service, requested: &SubscriptionFilter) -> SubscriptionFilter {
    let uris = requested
        .resource_subscriptions
        .iter()
        .flatten()
        .filter(|uri| subscribable(service, uri))
        .cloned()
        .collect::<Vec<_>>();
    if uris.is_empty() {
        return SubscriptionFilter::new();
    }
    SubscriptionFilter::builder()
        .resource_subscriptions(uris)
        .build()
}

/// Runs one `subscriptions/listen` stream: an update per change of a listed resource,
/// one last update when its session closes. Ends gracefully once every listed session
/// has closed (nothing more can come), or when the client cancels.
pub async fn listen(service: &Service, context: SubscriptionContext) -> Result<(), ErrorData> {
    let mut changes = service.events().watch_changes();
    let mut uris: BTreeSet<String> = context
        .accepted()
        .resource_subscriptions
        .iter()
        .flatten()
        .cloned()
        .collect();
    let sink = context.sink().clone();
    // A session may have closed between acceptance and the watch above.
    let mut updated = closed_uris(service, &uris);
    loop {
        for uri in &updated {
            if sink.notify_resource_updated(uri.clone()).await.is_err() {
                // The client ended the subscription.
                return Ok(());
            }
        }
        prune(service, &mut uris);
        if uris.is_empty() {
            return Ok(());
        }
        updated = tokio::select! {
            () = context.cancelled() => return Ok(()),
            change = changes.recv() => match change {
                Ok(change) => affected(&uris, &change),
                // Changes were missed: any listed resource may have changed.
                Err(broadcast::error::RecvError::Lagged(_)) => uris.iter().cloned().collect(),
                Err(broadcast::error::RecvError::Closed) => return Ok(()),
            },
        };
    }
}

/// Pushes to a handshake-era connection until it goes: updates of its subscribed
/// resources and the notices raised outside any call, at its level.
async fn forward(
    service: Arc<Service>,
    shared: Arc<Shared>,
    peer: Peer<RoleServer>,
    mut changes: broadcast::Receiver<SessionChange>,
    mut notices: broadcast::Receiver<Notice>,
    mut stopped: oneshot::Receiver<()>,
) {
    loop {
        tokio::select! {
            _ = &mut stopped => return,
            change = changes.recv() => {
                let updated = {
                    let mut subscribed = lock(&shared.subscribed);
                    let updated = match change {
                        Ok(change) => affected(&subscribed, &change),
                        Err(broadcast::error::RecvError::Lagged(_)) => subscribed.iter().cloned().collect(),
                        Err(broadcast::error::RecvError::Closed) => return,
                    };
                    // A closed session's resources will not change again.
                    prune(&service, &mut subscribed);
                    updated
                };
                for uri in updated {
                    if peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri)).await.is_err() {
                        return;
                    }
                }
            }
            notice = notices.recv() => {
                let notice = match notice {
                    Ok(notice) => notice,
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        tracing::warn!(missed, "notices were dropped for a slow client");
                        continue;
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                let level = lock(&shared.level).unwrap_or(DEFAULT_LEVEL);
                if send_notices(&peer, vec![notice], Some(level)).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// The listed URIs a change shows in.
fn affected(uris: &BTreeSet<String>, change: &SessionChange) -> Vec<String> {
    uris.iter()
        .filter(|uri| {
            SessionView::parse(uri).is_some_and(|(session_id, view)| {
                session_id == change.session_id() && view.shows(change)
            })
        })
        .cloned()
        .collect()
}

fn closed_uris(service: &Service, uris: &BTreeSet<String>) -> Vec<String> {
    uris.iter()
        .filter(|uri| !subscribable(service, uri))
        .cloned()
        .collect()
}

/// Drops the URIs of sessions that are no longer open.
fn prune(service: &Service, uris: &mut BTreeSet<String>) {
    uris.retain(|uri| subscribable(service, uri));
}

/// Sends the notices at or above `level` (none without a level).
async fn send_notices(
    peer: &Peer<RoleServer>,
    notices: Vec<Notice>,
    level: Option<LoggingLevel>,
) -> Result<(), rmcp::service::ServiceError> {
    let Some(least) = level else {
        return Ok(());
    };
    for notice in notices {
        let level = match notice.level {
            NoticeLevel::Notice => LoggingLevel::Notice,
            NoticeLevel::Warning => LoggingLevel::Warning,
            NoticeLevel::Error => LoggingLevel::Error,
        };
        if severity(level) < severity(least) {
            continue;
        }
        let mut data = notice.data;
        if let Some(object) = data.as_object_mut() {
            object.insert("message".into(), notice.message.into());
        }
        let message = LoggingMessageNotificationParam::new(level, data).with_logger(notice.topic);
        peer.notify_logging_message(message).await?;
    }
    Ok(())
}

/// RFC 5424 order, least severe first.
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// The steps of a method worth reporting progress on: how many, and what the first is.
/// Open has two: checking the path and lock, then reading the project (reported by the
/// service); the others are one backend call each.
fn plan(method: MethodId) -> Option<(u32, &'static str)> {
    Some(match method {
        MethodId::OpenSession => (2, "checking the project path and lock"),
        MethodId::ValidateSession => (1, "validating the project"),
        MethodId::SaveSession => (1, "saving"),
        MethodId::MaterializeSession => (1, "materializing"),
        MethodId::Publish => (1, "publishing"),
        MethodId::GetProjectOutline => (1, "reading the outline"),
        MethodId::ReadSessionState => (1, "reading the model"),
        _ => return None,
    })
}

/// Progress of one call, for a request that sent a `progressToken`.
struct Progress {
    peer: Peer<RoleServer>,
    token: ProgressToken,
    total: u32,
}

impl Progress {
    /// Sends the first notification (`0` of the method's steps) if the request asked for
    /// progress and the method is one that reports it.
    async fn start(context: &RequestContext<RoleServer>, method: MethodId) -> Option<Progress> {
        let token = context.meta.get_progress_token()?;
        let (total, first) = plan(method)?;
        let progress = Progress {
            peer: context.peer.clone(),
            token,
            total,
        };
        send_progress(&progress.peer, &progress.token, 0, total, first).await;
        Some(progress)
    }

    /// Sends the service's intermediate steps; a step past the last is not sent, since
    /// [`Progress::finish`] reports that one.
    fn reporter(&self) -> Reporter {
        let (peer, token, total) = (self.peer.clone(), self.token.clone(), self.total);
        Arc::new(move |steps, message| {
            let (peer, token) = (peer.clone(), token.clone());
            Box::pin(async move {
                if steps < total {
                    send_progress(&peer, &token, steps, total, &message).await;
                }
            })
        })
    }

    /// Sends the last notification (all steps done), before the result goes out.
    async fn finish(self, failed: bool) {
        let message = if failed { "failed" } else { "done" };
        send_progress(&self.peer, &self.token, self.total, self.total, message).await;
    }
}

async fn send_progress(
    peer: &Peer<RoleServer>,
    token: &ProgressToken,
    steps: u32,
    total: u32,
    message: &str,
) {
    let mut params = ProgressNotificationParam::new(token.clone(), f64::from(steps));
    params.total = Some(f64::from(total));
    params.message = Some(message.to_string());
    // A client that went away gets its result dropped the same way.
    let _ = peer.notify_progress(params).await;
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_shows_in_the_views_it_changes() {
        let uris: BTreeSet<String> = ["a", "b"]
            .into_iter()
            .flat_map(|id| SessionView::ALL.map(|view| view.uri(id)))
            .collect();
        let revised = SessionChange::Revised {
            session_id: "a".into(),
            revision: 1,
        };
        assert_eq!(
            affected(&uris, &revised),
            vec![SessionView::Session.uri("a"), SessionView::Outline.uri("a")]
        );
        let saved = SessionChange::Saved {
            session_id: "b".into(),
            revision: 1,
        };
        assert_eq!(affected(&uris, &saved), vec![SessionView::Session.uri("b")]);
        let closed = SessionChange::Closed {
            session_id: "c".into(),
        };
        assert!(affected(&uris, &closed).is_empty());
    }

    #[test]
    fn severities_follow_rfc_5424() {
        assert!(severity(LoggingLevel::Warning) > severity(LoggingLevel::Notice));
        assert!(severity(LoggingLevel::Emergency) > severity(LoggingLevel::Error));
        assert!(severity(DEFAULT_LEVEL) > severity(LoggingLevel::Info));
    }
}
