//! A batch as sent: its operations decoded strictly, and a refused batch as the contract
//! error with its issues.

use ofgui_contracts::catalog::DiagnosticCode;
use ofgui_contracts::echo::{MAX_ECHO_CHARS, clip};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::error::{SupportIssue, TransactionRejection};
use ofgui_contracts::ops::{MAX_OPERATIONS, Operation};
use ofgui_contracts::strict;

use serde_json::value::RawValue;

use crate::txn::{self, Issue};

use super::Rejected;

/// Decodes the `operations` field strictly: 1 to [`MAX_OPERATIONS`] operations, each
/// exactly one of the operation schemas. The first malformed one is `invalid_input` at
/// its JSON pointer.
pub(super) fn decode_operations(text: &str) -> Result<Vec<Operation>, BackendError> {
    let shape = || {
        BackendError::invalid_input(
            format!("operations must hold 1 to {MAX_OPERATIONS} operations."),
            Some("/operations".into()),
        )
    };
    // Each operation stays text until it is decoded strictly, so a batch carrying
    // megabytes of byte values is never held as a tree of JSON numbers.
    let operations: Vec<&RawValue> = serde_json::from_str(text).map_err(|_| shape())?;
    if operations.is_empty() || operations.len() > MAX_OPERATIONS {
        return Err(shape());
    }
    operations
        .iter()
        .enumerate()
        .map(|(index, operation)| {
            strict::from_str::<Operation>(operation.get(), &format!("/operations/{index}")).map_err(
                |error| {
                    // The host puts this in plain words at the deepest field; on its own it
                    // still names the schema and repeats at most 200 characters of input.
                    let kind = operation_kind(operation.get());
                    let schema = kind
                        .map(|kind| format!(" Schema: openfairygui://contracts/operations/{kind}"))
                        .unwrap_or_default();
                    let what = kind.map(|kind| format!(" ({kind})")).unwrap_or_default();
                    BackendError::invalid_input(
                        format!(
                            "Operation {index}{what} is malformed: {}.{schema}",
                            clip(&error.message, MAX_ECHO_CHARS)
                        ),
                        Some(error.path),
                    )
                },
            )
        })
        .collect()
}

/// The operation kind an operation's text names, if it names a known one.
fn operation_kind(text: &str) -> Option<&'static str> {
    #[derive(serde::Deserialize)]
    struct Kind {
        kind: String,
    }
    let kind = serde_json::from_str::<Kind>(text).ok()?.kind;
    ofgui_contracts::ops::OPERATION_KINDS
        .iter()
        .copied()
        .find(|known| *known == kind)
}

/// The contract error of a refused batch, with its issues as diagnostics.
pub(super) fn rejected(failure: txn::Failure, operations: &[Operation]) -> Rejected {
    let diagnostics = failure.issues.iter().map(Issue::diagnostic).collect();
    let first = failure.first_issue();
    let op_kind = first
        .map(|issue| issue.operation_kind.to_string())
        .filter(|kind| !kind.is_empty());
    let selector = first
        .and_then(|issue| operations.get(issue.op_index))
        .and_then(|operation| {
            serde_json::to_value(operation)
                .map_err(|error| {
                    eprintln!("ofgui-backend: an operation does not serialize: {error}")
                })
                .ok()
        })
        .and_then(|operation| operation.get("selector").cloned());
    let rejection = TransactionRejection {
        message: failure.message.clone(),
        stage: failure.stage.into(),
        op_index: first.map(|issue| issue.op_index as u32),
        op_id: first.and_then(|issue| issue.op_id.clone()),
        operation_kind: op_kind.clone(),
        op_kind,
        selector,
        issues: failure
            .issues
            .iter()
            .map(|issue| SupportIssue {
                code: issue.code.into(),
                path: issue.path.clone(),
                message: issue.message.clone(),
                operation_kind: Some(issue.operation_kind.to_string())
                    .filter(|kind| !kind.is_empty()),
                node_kind: issue.node_kind.clone(),
                resource_kind: issue.resource_kind.clone(),
                gear_kind: issue.gear_kind.clone(),
                field: issue.field.clone(),
            })
            .collect(),
    };
    let error = if failure.code == DiagnosticCode::SelectorAmbiguity {
        BackendError::SelectorAmbiguity(rejection)
    } else {
        BackendError::TransactionUnsupported(rejection)
    };
    Rejected { error, diagnostics }
}
