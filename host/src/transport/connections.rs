//! Accepting HTTP connections under limits, for clients that may be hostile: headers must
//! arrive within a deadline, connections are capped in all and per address, and a drain
//! after SIGTERM ends by its deadline even while a connection stalls.
//!
//! It serves whatever router it is given and knows nothing of MCP (`transport::http`
//! decides what a request means and when the work in flight is done).

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::time::Instant;

/// What one server accepts, and how long it waits.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// How long a client may take to send a request's headers (also the next request's on
    /// a kept-alive connection).
    pub header_timeout: Duration,
    /// Open connections at once, from everyone.
    pub max_connections: usize,
    /// Open connections at once from one IP address.
    pub max_per_address: usize,
    /// How long a drain may take after SIGTERM or SIGINT before the connections still open
    /// are dropped.
    pub drain: Duration,
}

/// The open connections, in all and by address.
#[derive(Default)]
struct Open {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// One admitted connection; dropping it frees its place.
struct Admitted {
    open: Arc<Mutex<Open>>,
    address: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        crate::metrics::metrics().connection_closed();
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.total -= 1;
        if let Some(count) = open.by_address.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.by_address.remove(&self.address);
            }
        }
    }
}

fn admit(open: &Arc<Mutex<Open>>, address: IpAddr, limits: &ConnectionLimits) -> Option<Admitted> {
    let mut counts = open.lock().unwrap_or_else(|e| e.into_inner());
    let from_address = counts.by_address.get(&address).copied().unwrap_or(0);
    if counts.total >= limits.max_connections || from_address >= limits.max_per_address {
        return None;
    }
    counts.total += 1;
    *counts.by_address.entry(address).or_default() += 1;
    crate::metrics::metrics().connection_opened();
    Some(Admitted {
        open: open.clone(),
        address,
    })
}

/// Serves `app` on `listener`. When `shutdown` resolves the drain begins; connections are
/// still accepted throughout it, so `/readyz` can say the server is draining. When
/// `drained` resolves (the work in flight is done), the open connections are asked to
/// close and new ones serve one request each; the drain ends when every asked connection
/// has closed, or at its deadline, when whatever is still open is dropped.
pub async fn serve(
    listener: TcpListener,
    app: axum::Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
    drained: impl Future<Output = ()>,
) -> io::Result<()> {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let mut last_requests = http.clone();
    last_requests.keep_alive(false);
    let mut graceful = Some(GracefulShutdown::new());
    let mut closing: Option<Pin<Box<dyn Future<Output = ()> + Send>>> = None;
    let open = Arc::new(Mutex::new(Open::default()));
    tokio::pin!(shutdown, drained);
    let mut deadline: Option<Instant> = None;
    loop {
        let drain_over = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let closed = async {
            match closing.as_mut() {
                Some(closing) => closing.await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(accepted) => accepted,
                    // Out of file descriptors, say: the connections open now still finish.
                    Err(error) => {
                        tracing::warn!("accepting a connection failed: {error}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let Some(admitted) = admit(&open, peer.ip(), &limits) else {
                    tracing::debug!(peer = %peer.ip(), "refused a connection: too many open");
                    continue;
                };
                let io = TokioIo::new(stream);
                let service = TowerToHyperService::new(app.clone());
                match &graceful {
                    Some(graceful) => {
                        let connection = graceful.watch(http.serve_connection(io, service));
                        tokio::spawn(finish(connection, admitted));
                    }
                    None => {
                        let connection = last_requests.serve_connection(io, service);
                        tokio::spawn(finish(connection, admitted));
                    }
                }
            }
            () = &mut shutdown, if deadline.is_none() => {
                deadline = Some(Instant::now() + limits.drain);
            }
            () = &mut drained, if deadline.is_some() && graceful.is_some() => {
                if let Some(graceful) = graceful.take() {
                    closing = Some(Box::pin(graceful.shutdown()));
                }
            }
            () = closed => break,
            () = drain_over => {
                let open = open.lock().unwrap_or_else(|e| e.into_inner()).total;
                tracing::warn!(connections = open, "the drain reached its deadline; dropping what is still open");
                break;
            }
        }
    }
    Ok(())
}

/// Runs one connection to its end, then frees its place.
async fn finish<E: std::fmt::Display>(
    connection: impl Future<Output = Result<(), E>>,
    admitted: Admitted,
) {
    if let Err(error) = connection.await {
        tracing::debug!("connection ended: {error}");
    }
    drop(admitted);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_in_all_and_by_address_and_freed_on_drop() {
        let limits = ConnectionLimits {
            header_timeout: Duration::from_secs(1),
            max_connections: 3,
            max_per_address: 2,
            drain: Duration::from_secs(1),
        };
        let open = Arc::new(Mutex::new(Open::default()));
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = admit(&open, a, &limits).unwrap();
        let _second = admit(&open, a, &limits).unwrap();
        assert!(admit(&open, a, &limits).is_none(), "two per address");
        let _third = admit(&open, b, &limits).unwrap();
        assert!(admit(&open, b, &limits).is_none(), "three in all");
        drop(first);
        assert!(
            admit(&open, a, &limits).is_some(),
            "a closed connection frees its place"
        );
    }
}
