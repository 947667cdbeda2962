//! Collects the problems of one node payload, with the value checks every field kind
//! shares (integers, ranges, colours, sounds, geometry).

use ofgui_contracts::Num;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::uam::Size;

use crate::rules::{fits_float, fits_geometry, is_color, is_unit};
use crate::txn::issue::Issue;
use crate::txn::workspace::Op;

/// Collects the problems of one node payload; paths are relative to `root` (`props` for
/// setDisplayNodeProps, `node` for attachDisplayNode), `field` is the top-level key.
pub(super) struct Checker<'c, 'o> {
    pub(super) at: &'c Op<'o>,
    pub(super) root: &'c str,
    pub(super) node_kind: &'static str,
    pub(super) node_id: String,
    pub(super) issues: Vec<Issue>,
    /// Component references that do not resolve yet, by field: an earlier or later
    /// operation of the batch may add the package or component, so the final state judges.
    pub(super) deferred: Vec<String>,
}

impl<'c, 'o> Checker<'c, 'o> {
    pub(super) fn new(
        at: &'c Op<'o>,
        root: &'c str,
        node_kind: &'static str,
        node_id: &str,
    ) -> Self {
        Checker {
            at,
            root,
            node_kind,
            node_id: node_id.to_string(),
            issues: Vec::new(),
            deferred: Vec::new(),
        }
    }

    /// `props.imageProperties.flip`, as the agent wrote it.
    pub(super) fn shown(&self, sub: &str) -> String {
        if sub.is_empty() {
            self.root.to_string()
        } else {
            format!("{}.{sub}", self.root)
        }
    }

    pub(super) fn fail(&mut self, code: Code, sub: &str, message: impl Into<String>) {
        let mut issue = self
            .at
            .issue(code, &self.shown(sub), message)
            .node_kind(self.node_kind);
        let field = sub.split(['.', '[']).next().unwrap_or(sub);
        if !field.is_empty() {
            issue = issue.field(field);
        }
        self.issues.push(issue);
    }

    pub(super) fn payload(&mut self, sub: &str, message: impl Into<String>) {
        self.fail(Code::InvalidDisplayNodePayload, sub, message);
    }

    /// An integer between `lo` and `hi`; `meaning` says what the values stand for.
    pub(super) fn int_in(&mut self, sub: &str, value: f64, lo: f64, hi: f64, meaning: &str) {
        if value.fract() != 0.0 || value < lo || value > hi {
            let meaning = if meaning.is_empty() {
                String::new()
            } else {
                format!(" ({meaning})")
            };
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use an integer from {lo} to {hi}{meaning}.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    /// An integer of at least `lo`.
    pub(super) fn int_min(&mut self, sub: &str, value: f64, lo: f64) {
        if value.fract() != 0.0 || value < lo {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use an integer of at least {lo}.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    pub(super) fn integer(&mut self, sub: &str, value: f64) {
        if value.fract() != 0.0 {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use a whole number.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    pub(super) fn non_negative(&mut self, sub: &str, value: f64) {
        if value < 0.0 {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use 0 or more.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    pub(super) fn color(&mut self, sub: &str, value: &str) {
        if !is_color(value) {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value:?}; use a colour #rrggbb (or 8 hex digits with alpha).",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    /// `''` or a colour.
    pub(super) fn optional_color(&mut self, sub: &str, value: &str) {
        if !value.is_empty() {
            self.color(sub, value);
        }
    }

    /// `''` or a `ui://` URL.
    pub(super) fn sound(&mut self, sub: &str, value: &str) {
        if !value.is_empty() && !value.starts_with("ui://") {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value:?}; use '' (no sound) or a ui:// URL of a sound resource.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    pub(super) fn unit(&mut self, sub: &str, value: f64) {
        if !is_unit(value) {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use a number from 0 to 1.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    /// Values the FairyGUI editor stores as 32-bit integers.
    pub(super) fn geometry(&mut self, sub: &str, values: &[Num]) {
        if !values.iter().copied().all(fits_geometry) {
            let shown: Vec<String> = values.iter().map(|v| v.get().to_string()).collect();
            self.payload(
                sub,
                format!(
                    "{} of node {} is {}, which does not fit a 32-bit integer; the FairyGUI editor could not load it.",
                    self.shown(sub),
                    self.node_id,
                    shown.join(",")
                ),
            );
        }
    }

    /// Values FairyGUI publishes as 32-bit floats (rotation, scale, skew, pivot).
    pub(super) fn float(&mut self, sub: &str, values: &[Num]) {
        if !values.iter().copied().all(fits_float) {
            let shown: Vec<String> = values.iter().map(|v| v.get().to_string()).collect();
            self.payload(
                sub,
                format!(
                    "{} of node {} is {}, beyond the 32-bit float FairyGUI publishes it as (about ±3.4e38).",
                    self.shown(sub),
                    self.node_id,
                    shown.join(",")
                ),
            );
        }
    }

    pub(super) fn size(&mut self, sub: &str, size: &Size) {
        self.geometry(sub, &[size.width, size.height]);
        if size.width.get() < 0.0 || size.height.get() < 0.0 {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {}x{}; width and height must be 0 or more.",
                    self.shown(sub),
                    self.node_id,
                    size.width.get(),
                    size.height.get()
                ),
            );
        }
    }
}
