//! The MCP stdio transport: newline-delimited JSON-RPC on stdin and stdout.
//!
//! rmcp's own stdio transport drops a line it cannot parse and one longer than 16 MiB,
//! so a client that sent `Infinity`, truncated JSON, a number beyond the double range or
//! a large upload waits forever. Here every request line gets an answer: a message that
//! is not JSON is a JSON-RPC parse error (`-32700`), a JSON value that is not a valid
//! message or a line over [`MAX_LINE_BYTES`] is an invalid request (`-32600`), both
//! carrying the request's `id` whenever it can be read, and the server keeps serving.
//! Broken notifications get no answer, as JSON-RPC requires.
//!
//! Writes go through one writer task fed by a channel, so every message reaches stdout
//! whole and in order even when a receive is cancelled mid-way.

use std::borrow::Cow;
use std::fmt;
use std::io;

use ofgui_contracts::echo::{MAX_ECHO_CHARS, clip};
use rmcp::model::{CallToolResult, JsonRpcMessage, ServerResult};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::{RoleServer, ServiceExt as _};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use super::lifecycle::Lifecycle;
use crate::mcp::OfguiServer;

/// Longest request line accepted: an 8 MiB upload written as JSON integers (up to four
/// characters and a separator each) fits with room to spare.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// How much of an oversized line is kept to find its `id`.
const PROBE_PREFIX_BYTES: usize = 64 << 10;

/// The server side of MCP over a byte stream pair (stdin and stdout in production).
pub struct LineTransport<R> {
    reader: BufReader<R>,
    /// The line being read; kept across cancelled receives.
    line: Vec<u8>,
    /// The current line outgrew [`MAX_LINE_BYTES`]: its rest is skipped up to its newline,
    /// and `line` keeps only its beginning, to find its `id`.
    oversized: bool,
    outgoing: mpsc::UnboundedSender<Vec<u8>>,
    /// Which lifecycle the client chose, so an `initialize` after a handshake-free start
    /// is honoured.
    lifecycle: Lifecycle,
}

/// Writes the transport's messages, in order; ends when the transport is dropped.
pub struct Writer {
    task: tokio::task::JoinHandle<io::Result<()>>,
}

impl Writer {
    /// Waits until every message sent so far is written and flushed.
    pub async fn finish(self) -> io::Result<()> {
        self.task
            .await
            .map_err(|error| io::Error::other(error.to_string()))?
    }
}

impl<R: AsyncRead + Send + Unpin + 'static> LineTransport<R> {
    pub fn new<W: AsyncWrite + Send + Unpin + 'static>(reader: R, mut writer: W) -> (Self, Writer) {
        let (outgoing, mut queue) = mpsc::unbounded_channel::<Vec<u8>>();
        let task = tokio::spawn(async move {
            while let Some(message) = queue.recv().await {
                writer.write_all(&message).await?;
                // Several queued messages go out with one flush.
                if queue.is_empty() {
                    writer.flush().await?;
                }
            }
            writer.flush().await
        });
        let transport = LineTransport {
            reader: BufReader::with_capacity(1 << 16, reader),
            line: Vec::new(),
            oversized: false,
            outgoing,
            lifecycle: Lifecycle::default(),
        };
        (transport, Writer { task })
    }

    /// Reads the next whole line into `self.line`; `false` at end of input. Cancel-safe:
    /// what was read stays in `self.line` for the next call.
    async fn read_line(&mut self) -> io::Result<bool> {
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(false);
            }
            let (chunk, complete) = match available.iter().position(|&b| b == b'\n') {
                Some(end) => (&available[..end], true),
                None => (available, false),
            };
            if !self.oversized && self.line.len() + chunk.len() > MAX_LINE_BYTES {
                self.oversized = true;
                self.line.truncate(PROBE_PREFIX_BYTES);
            }
            let limit = if self.oversized {
                PROBE_PREFIX_BYTES
            } else {
                MAX_LINE_BYTES
            };
            let keep = chunk.len().min(limit.saturating_sub(self.line.len()));
            self.line.extend_from_slice(&chunk[..keep]);
            let consumed = chunk.len() + usize::from(complete);
            self.reader.consume(consumed);
            if complete {
                return Ok(true);
            }
        }
    }

    /// Answers a line that is not a message. Only a well-formed notification (no `id`)
    /// goes unanswered, as JSON-RPC requires; a line that is not JSON is answered even
    /// without an `id`, since nothing says it was a notification.
    fn answer(&self, line: &[u8], unread: Unread) {
        let probe = Probe::of(line);
        let (code, message) = match &unread {
            Unread::Oversized => (
                -32600,
                format!(
                    "Invalid request: the message is longer than {MAX_LINE_BYTES} bytes and was not read; nothing was done."
                ),
            ),
            Unread::NotAMessage(error) => {
                if probe.id.is_none() && probe.method.is_some() {
                    tracing::debug!(
                        "ignoring a malformed notification: {:?}",
                        clip(&error.to_string(), MAX_ECHO_CHARS)
                    );
                    return;
                }
                (
                    -32600,
                    format!("Invalid request: {error}; nothing was done."),
                )
            }
            Unread::NotJson(error) => (
                -32700,
                format!(
                    "Parse error: the message is not valid JSON ({error}). JSON has no Infinity or NaN, and every number must fit a double. Nothing was done."
                ),
            ),
        };
        // What the client sent stays out of the log above debug, and is clipped there.
        tracing::warn!(code, "answering an unreadable message");
        tracing::debug!(
            "the unreadable message's answer: {:?}",
            clip(&message, MAX_ECHO_CHARS)
        );
        let response = json!({
            "jsonrpc": "2.0",
            "id": probe.id.unwrap_or(Value::Null),
            "error": { "code": code, "message": message },
        });
        self.queue(response.to_string().into_bytes());
    }

    fn queue(&self, mut message: Vec<u8>) {
        message.push(b'\n');
        // The writer only stops when the process is ending; nothing is left to tell.
        let _ = self.outgoing.send(message);
    }
}

impl<R: AsyncRead + Send + Unpin + 'static> Transport<RoleServer> for LineTransport<R> {
    type Error = io::Error;

    fn name() -> Cow<'static, str> {
        "stdio".into()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.lifecycle.sent(&item);
        let sent = encode(item).and_then(|mut message| {
            message.push(b'\n');
            self.outgoing
                .send(message)
                .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "stdout is closed"))
        });
        std::future::ready(sent)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read_line().await {
                Ok(true) => {}
                Ok(false) => return None,
                Err(error) => {
                    tracing::error!("reading stdin failed: {error}");
                    return None;
                }
            }
            let line = std::mem::take(&mut self.line);
            let oversized = std::mem::take(&mut self.oversized);
            let text = trim(&line);
            if text.is_empty() && !oversized {
                continue;
            }
            if oversized {
                self.answer(text, Unread::Oversized);
                continue;
            }
            match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(text) {
                Ok(mut message) => {
                    self.lifecycle.received(&mut message);
                    return Some(message);
                }
                Err(error) if error.is_data() => self.answer(text, Unread::NotAMessage(error)),
                Err(error) => self.answer(text, Unread::NotJson(error)),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Serializes an outgoing message. A tool result whose envelope is still JSON text (see
/// [`crate::mcp::take_raw_envelope`]) gets it written in as `structuredContent.backendResult`.
pub fn encode(mut item: TxJsonRpcMessage<RoleServer>) -> io::Result<Vec<u8>> {
    let raw = match &mut item {
        JsonRpcMessage::Response(response) => match &mut response.result {
            ServerResult::CallToolResult(result) => crate::mcp::take_raw_envelope(result),
            _ => None,
        },
        _ => None,
    };
    let (Some(raw), Some(result)) = (raw, tool_result(&item)) else {
        return Ok(serde_json::to_vec(&item)?);
    };
    let raw = raw
        .text(result)
        .ok_or_else(|| io::Error::other("a tool result lost its envelope text"))?;
    // Room for the message with the envelope in it twice (escaped text, then raw) is
    // reserved at once: pages never written are never resident, and the message is
    // neither regrown nor copied to splice.
    let mut message = Vec::with_capacity(raw.len() * 3 + 4096);
    serde_json::to_writer(&mut message, &item)?;
    // The placeholder is the first unescaped `"structuredContent":null` in the message:
    // inside strings (the id, the content) quotes are escaped, and `_meta`, the only
    // object after it, is never searched.
    const PLACEHOLDER: &[u8] = br#""structuredContent":null"#;
    let at = message
        .windows(PLACEHOLDER.len())
        .position(|window| window == PLACEHOLDER)
        .ok_or_else(|| io::Error::other("a tool result lost its structuredContent placeholder"))?;
    let tail = message.split_off(at + PLACEHOLDER.len());
    message.truncate(at);
    message.extend_from_slice(br#""structuredContent":{"backendResult":"#);
    message.extend_from_slice(raw.as_bytes());
    message.push(b'}');
    message.extend_from_slice(&tail);
    Ok(message)
}

/// The tool result a message answers with, if it is one.
fn tool_result(item: &TxJsonRpcMessage<RoleServer>) -> Option<&CallToolResult> {
    match item {
        JsonRpcMessage::Response(response) => match &response.result {
            ServerResult::CallToolResult(result) => Some(result),
            _ => None,
        },
        _ => None,
    }
}

/// Serves MCP with `server` on stdin and stdout until the client leaves; everything
/// answered reaches the client before this returns.
pub async fn serve(server: OfguiServer) -> io::Result<()> {
    let (stdin, stdout) = rmcp::transport::stdio_pipes();
    let (transport, writer) = LineTransport::new(stdin, stdout);
    match server.serve(transport).await {
        Ok(running) => {
            running.waiting().await.map_err(io::Error::other)?;
        }
        // A client that closes stdin before initializing is not an error.
        // The library's words may quote what the client sent: debug only, clipped.
        Err(error) => {
            tracing::info!("client left before initializing");
            tracing::debug!("{:?}", clip(&error.to_string(), MAX_ECHO_CHARS));
        }
    }
    writer.finish().await
}

/// Why a line was not taken as a message.
enum Unread {
    Oversized,
    /// Valid JSON, but not a JSON-RPC message this server knows.
    NotAMessage(serde_json::Error),
    NotJson(serde_json::Error),
}

/// A line without its carriage return, byte order mark and surrounding white space.
fn trim(line: &[u8]) -> &[u8] {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    line.trim_ascii()
}

/// What can be read of a broken message: its `id` and `method`, found even when the
/// message is truncated or holds a number no double can carry (scalars are skipped, not
/// converted).
#[derive(Default)]
struct Probe {
    id: Option<Value>,
    method: Option<String>,
}

impl Probe {
    fn of(line: &[u8]) -> Probe {
        let mut probe = Probe::default();
        let mut deserializer = serde_json::Deserializer::from_slice(line);
        // An error only means the probe saw less; what it found is kept.
        let _ = (&mut probe).deserialize(&mut deserializer);
        probe
    }
}

impl<'de> DeserializeSeed<'de> for &mut Probe {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for &mut Probe {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "id" => {
                    let id: Value = map.next_value()?;
                    // Only a string or a whole number can identify a request.
                    if id.is_string() || id.is_u64() || id.is_i64() {
                        self.id = Some(id);
                    }
                }
                "method" => self.method = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::envelope::Envelope;
    use rmcp::model::{CallToolResult, NumberOrString};

    fn tool_response(result: CallToolResult) -> TxJsonRpcMessage<RoleServer> {
        JsonRpcMessage::response(
            ServerResult::CallToolResult(result),
            NumberOrString::Number(4),
        )
    }

    #[test]
    fn a_text_envelope_is_written_as_structured_content() {
        // Data that itself mentions the placeholder must not confuse the splice.
        let text =
            r#"{"ok":true,"meta":{},"data":{"note":"\"structuredContent\":null","n":[1,2]}}"#;
        let envelope = Envelope {
            text: text.to_string(),
            value: None,
            session_id: None,
            additions: Default::default(),
            gist: None,
        };
        let result = crate::mcp::wrap(envelope, None, false);
        let written: Value =
            serde_json::from_slice(&encode(tool_response(result.clone())).unwrap()).unwrap();
        let expected: Value = serde_json::from_str(text).unwrap();
        assert_eq!(written["id"], 4);
        assert_eq!(
            written["result"]["structuredContent"]["backendResult"],
            expected
        );
        assert_eq!(written["result"]["content"][0]["text"], text);
        assert!(written["result"].get("_meta").is_none(), "{written}");

        let mut materialized = result;
        crate::mcp::materialize(&mut materialized).unwrap();
        let plain: Value = serde_json::to_value(tool_response(materialized)).unwrap();
        assert_eq!(
            plain, written,
            "splicing writes what serializing the value would"
        );
    }

    fn probe(text: &str) -> (Option<Value>, Option<String>) {
        let probe = Probe::of(text.as_bytes());
        (probe.id, probe.method)
    }

    #[test]
    fn ids_are_found_in_broken_messages() {
        let call =
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"x":1e999}}}"#;
        assert!(serde_json::from_str::<Value>(call).is_err());
        assert_eq!(probe(call), (Some(json!(7)), Some("tools/call".into())));
        assert_eq!(
            probe(r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"#),
            (Some(json!("a")), Some("tools/call".into()))
        );
        assert_eq!(
            probe(r#"{"jsonrpc":"2.0","method":"x","params":Infinity,"id":3}"#),
            (None, Some("x".into()))
        );
        assert_eq!(probe("Infinity"), (None, None));
        assert_eq!(
            probe(r#"{"id":{"nested":1},"method":"m"}"#),
            (None, Some("m".into()))
        );
    }
}
