//! `ofgui-mcp-host render <project> <package>/<component> -o out.png`: a
//! component drawn by the component's renderer, written as a PNG file.

use ofgui_contracts::methods::MethodId;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use ofgui_contracts::api::RenderComponentData;
use ofgui_contracts::cli::ExitStatus;
use ofgui_contracts::error::{BackendError, ReadFailureReason};
use serde_json::json;

use super::names::{Ambiguous, Located};
use super::{Done, Project};
use crate::cli::args::Args;

/// What to draw and where to put it.
pub(super) struct Picture<'a> {
    pub component: &'a str,
    pub out: &'a Path,
    pub pages: &'a [String],
    pub scale: f64,
    pub background: Option<&'a str>,
    /// A translation to draw it in, and whether beside its own language.
    pub strings: Option<&'a Path>,
    pub compare_strings: bool,
}

pub(super) async fn run(
    args: &Args,
    path: &Path,
    picture: Picture<'_>,
) -> Result<Done, BackendError> {
    let (package, component) = picture
        .component
        .split_once('/')
        .filter(|(a, b)| !a.is_empty() && !b.is_empty())
        .ok_or_else(|| {
            BackendError::invalid_input(
                format!(
                    "The component is <package>/<component>, each by id or name, not {:?}.",
                    picture.component
                ),
                Some("/selector".into()),
            )
        })?;
    let mut pages = BTreeMap::new();
    for page in picture.pages {
        let (controller, page_name) = page
            .split_once('=')
            .filter(|(c, p)| !c.is_empty() && !p.is_empty())
            .ok_or_else(|| {
                BackendError::invalid_input(
                    format!("--page takes <controller>=<page id or name>, not {page:?}."),
                    Some("/controllerPages".into()),
                )
            })?;
        pages.insert(controller.to_owned(), page_name.to_owned());
    }
    let strings = picture
        .strings
        .map(super::strings::strings_file)
        .transpose()?;
    let granted = strings.iter().cloned().collect();
    Project::reading_with(args, path, granted, async |project| {
        let ambiguous = |ambiguous: Ambiguous, what: &str| {
            BackendError::read_failed(
                project.session_id(),
                ReadFailureReason::Ambiguous,
                ambiguous.message(what),
            )
        };
        let located = Located::look_up(project, package, Some(component), true, ambiguous).await?;
        let mut input = json!({
            "sessionId": project.session_id(),
            "selector": {
                "packageId": located.package_id,
                "componentResourceId": located.resource_id,
            },
            "scale": picture.scale,
        });
        if !pages.is_empty() {
            input["controllerPages"] = json!(pages);
        }
        if let Some(background) = picture.background {
            input["background"] = json!(background);
        }
        if let Some(strings) = &strings {
            input["stringsFile"] = json!(strings);
            input["compareStrings"] = json!(picture.compare_strings);
        }
        let (data, png): (RenderComponentData, Vec<u8>) = project
            .call_picture(MethodId::RenderComponent, input)
            .await?;
        std::fs::write(picture.out, &png).map_err(|error| {
            BackendError::invalid_input(
                format!("{} cannot be written: {error}.", picture.out.display()),
                Some("/out".into()),
            )
        })?;
        let text = text(&data, picture.out);
        Done::new(&data, text, ExitStatus::Success)
    })
    .await
}

fn text(data: &RenderComponentData, out: &Path) -> String {
    let mut text = format!(
        "{}: {}×{} pixels ({}×{} at scale {}), {} bytes\n",
        out.display(),
        data.pixel_width,
        data.pixel_height,
        data.width,
        data.height,
        data.scale,
        data.png_bytes
    );
    for page in &data.controller_pages {
        let _ = writeln!(
            text,
            "  controller {}: page {}{}",
            page.controller,
            page.page_id,
            if page.page_name.is_empty() {
                String::new()
            } else {
                format!(" ({})", page.page_name)
            }
        );
    }
    if data.approximations.is_empty() {
        text.push_str("  everything was drawn\n");
    } else {
        let _ = writeln!(text, "  approximated ({}):", data.approximations.len());
        for approximation in &data.approximations {
            let at = if approximation.node_path.is_empty() {
                "the component"
            } else {
                &approximation.node_path
            };
            let _ = writeln!(
                text,
                "    {at} ({}): {}",
                approximation.kind, approximation.reason
            );
        }
    }
    if !data.troubles.is_empty() {
        let _ = writeln!(
            text,
            "  texts the translation no longer fits, outlined ({}):",
            data.troubles.len()
        );
        text.push_str(&super::strings::troubles_text(&data.troubles));
    }
    text
}
