//! `ofgui-mcp-host docs [<id>]`: the installed documentation, with the very texts the
//! MCP resources serve ([`crate::mcp::resources`]).

use std::fmt::Write as _;

use ofgui_contracts::cli::{DocumentData, ExitStatus};
use ofgui_contracts::error::BackendError;

use super::Done;
use crate::mcp::resources::{self, Document};

pub(super) fn run(id: Option<&str>) -> Result<Done, BackendError> {
    let index = resources::index_document();
    let documents = resources::documents();
    let Some(id) = id else {
        let data = data(&index)?;
        let mut text = String::from("Installed documents (ofgui-mcp-host docs <id> prints one):\n");
        for document in std::iter::once(&index).chain(&documents) {
            let _ = writeln!(text, "  {:<48} {}", document.id, document.title);
        }
        return Done::new(&data, text, ExitStatus::Success);
    };
    // Ids are looked up in the index, never read as paths; a document's URI names it too.
    let document = resources::document_by_id(id)
        .or_else(|| {
            std::iter::once(&index)
                .chain(&documents)
                .find(|document| document.uri == id)
                .cloned()
        })
        .ok_or_else(|| {
            BackendError::invalid_input(
                format!("No document {id:?}; `ofgui-mcp-host docs` lists them."),
                None,
            )
        })?;
    let data = data(&document)?;
    let mut text = data.text.clone();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Done::new(&data, text, ExitStatus::Success)
}

fn data(document: &Document) -> Result<DocumentData, BackendError> {
    let (mime, text) = resources::document(&document.uri)
        .map_err(|error| super::internal(&error))?
        .ok_or_else(|| super::internal(&format!("{} is indexed but not served", document.uri)))?;
    Ok(DocumentData {
        id: document.id.clone(),
        title: document.title.clone(),
        uri: document.uri.clone(),
        mime_type: mime.to_string(),
        text,
    })
}
