//! What the review view costs (`cargo run --release -p bench -- review`): its page, and the
//! calls it makes to show a session with unsaved edits (the review with its diff, and the
//! pictures of a step and of every unsaved edit together).

use std::path::Path;

use anyhow::Result;
use serde_json::json;

use crate::{OpenCopy, median, ms};

/// Batches applied before the view is read.
const BATCHES: u64 = 10;
/// Reads of each kind, for the median.
const RUNS: usize = 10;

pub fn review(host: &Path, cache: &Path, source: &Path) -> Result<()> {
    let OpenCopy {
        mut client,
        session: id,
        ..
    } = OpenCopy::new(host, cache, source)?;
    let selector = json!({ "packageId": "zgmoraj4", "componentResourceId": "gkq00" });
    for revision in 0..BATCHES {
        let edit = json!([{ "kind": "setDisplayNodeProps",
            "selector": { "packageId": "zgmoraj4", "componentResourceId": "gkq00", "displayNodeId": "n4" },
            "props": { "position": { "x": revision * 3, "y": 34 } } }]);
        client.call(
            "openfairygui_backend_apply_transaction",
            json!({ "sessionId": id, "expectedRevision": revision, "operations": edit }),
        )?;
    }
    let (mut reviews, mut batches, mut unsaved) = (Vec::new(), Vec::new(), Vec::new());
    let mut review_bytes = 0;
    for _ in 0..RUNS {
        let (_, took) = client.call("openfairygui_review", json!({ "sessionId": id }))?;
        review_bytes = client.last_response_bytes;
        reviews.push(took);
        let picture = |preview: serde_json::Value| {
            let mut arguments = json!({ "sessionId": id, "selector": selector, "expectedRevision": BATCHES, "scale": 2 });
            for (key, value) in preview.as_object().into_iter().flatten() {
                arguments[key] = value.clone();
            }
            arguments
        };
        let (_, took) = client.call(
            "openfairygui_render_component",
            picture(json!({ "previewBatch": BATCHES })),
        )?;
        batches.push(took);
        let (_, took) = client.call(
            "openfairygui_render_component",
            picture(json!({ "previewHistory": "unsaved" })),
        )?;
        unsaved.push(took);
    }
    drop(client);
    let page = ofgui_host::review::browser_page().len()
        + ofgui_host::review::SCRIPT.len()
        + ofgui_host::review::STYLE.len();
    let app = ofgui_host::review::app_page().len();
    println!(
        "\n| review, fairygui-unity-examples ({BATCHES} unsaved batches, medians of {RUNS}) | review (history + diff) | its answer | a step's pictures (scale 2) | every unsaved edit's pictures (scale 2) | browser page + script + styles | MCP App document |"
    );
    println!("|---|---|---|---|---|---|---|");
    println!(
        "| one server, stdio | {} | {review_bytes} B | {} | {} | {page} B | {app} B |",
        ms(median(reviews)),
        ms(median(batches)),
        ms(median(unsaved)),
    );
    Ok(())
}
