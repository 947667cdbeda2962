//! What an operator scrapes from `serve --http`'s `/metrics`, in Prometheus' text format:
//! tool calls by tool and outcome with their latency, sessions open, sessions rebuilt after
//! their backend instance failed, sessions resumed from a state directory after the server
//! that had them died, advisory locks taken over from a process that had exited,
//! bytes written to edit journals, and HTTP connections open.
//!
//! One set of counters for the process (every tenant of an HTTP server, or a stdio server),
//! counted where the thing happens; the gauges that describe the present (sessions,
//! connections) are read when scraped. It uses no other room.

use std::sync::OnceLock;
use std::sync::atomic::AtomicU64;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The tool call a sample counts.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    /// The tool's name, when it is one of this server's; else `unknown`.
    tool: String,
    /// `ok` or `error` (an envelope with `ok: false`, or a protocol error).
    outcome: &'static str,
}

/// The tool whose latency a sample measures.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ToolLabel {
    tool: String,
}

/// The latency buckets of a tool call: 1 ms to about 33 s, doubling.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

/// The process's metrics.
pub struct Metrics {
    registry: Registry,
    calls: Family<CallLabels, Counter>,
    latency: Family<ToolLabel, Histogram, fn() -> Histogram>,
    sessions_rebuilt: Counter,
    sessions_resumed: Counter,
    locks_taken_over: Counter,
    journal_bytes: Counter,
    sessions_open: Gauge,
    connections_open: Gauge<u64, AtomicU64>,
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("ofgui");
        let calls = registered(
            &mut registry,
            "tool_calls",
            "Tool calls answered, by tool and outcome",
            Family::<CallLabels, Counter>::default(),
        );
        let latency = registered(
            &mut registry,
            "tool_call_seconds",
            "How long a tool call took, from its request to its result",
            Family::<ToolLabel, Histogram, fn() -> Histogram>::new_with_constructor(
                latency_histogram,
            ),
        );
        Metrics {
            calls,
            latency,
            sessions_rebuilt: registered(
                &mut registry,
                "sessions_rebuilt",
                "Sessions rebuilt on a fresh backend instance after theirs failed (a trap, a deadline, memory)",
                Counter::default(),
            ),
            sessions_resumed: registered(
                &mut registry,
                "sessions_resumed",
                "Sessions served again from their record in the state directory, after the server that had them died",
                Counter::default(),
            ),
            locks_taken_over: registered(
                &mut registry,
                "locks_taken_over",
                "Project locks taken over from a process that no longer runs",
                Counter::default(),
            ),
            journal_bytes: registered(
                &mut registry,
                "journal_written_bytes",
                "Bytes written to the edit journals of projects",
                Counter::default(),
            ),
            sessions_open: registered(
                &mut registry,
                "sessions_open",
                "Sessions open, in every tenant",
                Gauge::default(),
            ),
            connections_open: registered(
                &mut registry,
                "http_connections_open",
                "HTTP connections open",
                Gauge::<u64, AtomicU64>::default(),
            ),
            registry,
        }
    }

    /// A tool call answered: `tool` is the tool's name (a known one: an unknown name is a
    /// client's string, counted as `unknown`), `ok` its outcome.
    pub fn tool_call(&self, tool: Option<&str>, ok: bool, seconds: f64) {
        let tool = tool.unwrap_or("unknown").to_string();
        let outcome = if ok { "ok" } else { "error" };
        self.calls
            .get_or_create(&CallLabels {
                tool: tool.clone(),
                outcome,
            })
            .inc();
        self.latency
            .get_or_create(&ToolLabel { tool })
            .observe(seconds);
    }

    pub fn session_rebuilt(&self) {
        self.sessions_rebuilt.inc();
    }

    pub fn session_resumed(&self) {
        self.sessions_resumed.inc();
    }

    pub fn lock_taken_over(&self) {
        self.locks_taken_over.inc();
    }

    pub fn journal_written(&self, bytes: usize) {
        self.journal_bytes.inc_by(bytes as u64);
    }

    pub fn connection_opened(&self) {
        self.connections_open.inc();
    }

    pub fn connection_closed(&self) {
        self.connections_open.dec();
    }

    /// The text a scrape answers, with the sessions open now.
    pub fn encode(&self, sessions_open: usize) -> String {
        self.sessions_open.set(sessions_open as i64);
        let mut text = String::new();
        if let Err(error) = prometheus_client::encoding::text::encode(&mut text, &self.registry) {
            tracing::error!("the metrics could not be encoded: {error}");
        }
        text
    }
}

/// `metric`, registered under `name` with its `help`.
fn registered<M: prometheus_client::registry::Metric + Clone>(
    registry: &mut Registry,
    name: &str,
    help: &str,
    metric: M,
) -> M {
    registry.register(name, help, metric.clone());
    metric
}

/// The process's metrics, made on first use.
pub fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scrape_names_every_metric_with_its_samples() {
        let metrics = Metrics::new();
        metrics.tool_call(Some("openfairygui_backend_open_session"), true, 0.004);
        metrics.tool_call(None, false, 0.0001);
        metrics.journal_written(120);
        metrics.connection_opened();
        let text = metrics.encode(3);
        for line in [
            "ofgui_tool_calls_total{tool=\"openfairygui_backend_open_session\",outcome=\"ok\"} 1",
            "ofgui_tool_calls_total{tool=\"unknown\",outcome=\"error\"} 1",
            "ofgui_tool_call_seconds_count{tool=\"openfairygui_backend_open_session\"} 1",
            "ofgui_journal_written_bytes_total 120",
            "ofgui_sessions_open 3",
            "ofgui_http_connections_open 1",
            "ofgui_sessions_rebuilt_total 0",
            "ofgui_sessions_resumed_total 0",
            "ofgui_locks_taken_over_total 0",
        ] {
            assert!(text.contains(line), "no {line:?} in:\n{text}");
        }
    }
}
