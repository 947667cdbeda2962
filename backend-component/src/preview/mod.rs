//! `renderComponent`: checks the request against the session, draws the component (and,
//! for a preview batch, the component as the batch would leave it) and encodes the PNG.

use std::collections::BTreeMap;

use ofgui_contracts::api::{
    ComponentSelector, HistoryPreview, RenderComparison, RenderComponentData, RenderComponentInput,
    RenderedPage,
};
use ofgui_contracts::capabilities::{RENDER_MAX_PNG_BYTES, RENDER_MAX_SCALE, RENDER_MIN_SCALE};
use ofgui_contracts::error::{BackendError, ReadFailureReason};
use ofgui_contracts::uam::{ComponentModel, ComponentResource, UamProject, UamResource};
use tiny_skia::{Color, Pixmap};

use crate::lookup::{Lookup, find_selected_resource, valid_id};
use crate::render::{self, Drawn, Files, Request};
use crate::session::history::Direction;
use crate::session::{Rejected, Session, Side, encode};
use crate::strings::{self, Translations};

pub mod sweep;

/// Pixels between the halves of a before/after picture.
const GAP: u32 = 9;

/// A drawn component: the `RenderComponentData` JSON and the PNG.
pub struct Preview {
    pub data: String,
    pub png: Vec<u8>,
}

/// Draws the component the input selects.
pub fn render_component(
    session: &Session,
    input: &RenderComponentInput,
) -> Result<Preview, Rejected> {
    let invalid = |message: String, path: &str| {
        Rejected::from(BackendError::invalid_input(message, Some(path.to_owned())))
    };
    let previews = [
        input.preview_operations.is_some(),
        input.preview_history.is_some(),
        input.preview_batch.is_some(),
    ];
    let previewing = previews.iter().any(|asked| *asked);
    let translations = strings::sent(&input.strings, &input.strings_file)?
        .map(Translations::decode)
        .transpose()?;
    if translations.is_some() && previewing {
        return Err(invalid(
            "strings draws the component now in a language; it does not combine with previewOperations, previewHistory or previewBatch. Send one of them.".into(),
            "/strings",
        ));
    }
    let translated = match &translations {
        Some(translations) => Some(session.translated(translations)?),
        None => None,
    };
    let compare_strings = input.compare_strings == Some(true);
    if compare_strings && translated.is_none() {
        return Err(invalid(
            "compareStrings draws the component in its own language and in a translation's; send the translation in strings (or stringsFile).".into(),
            "/compareStrings",
        ));
    }
    if previews.iter().filter(|asked| **asked).count() > 1 {
        return Err(invalid(
            "previewOperations, previewHistory and previewBatch each ask for the two halves of the picture; send one of them.".into(),
            "/previewHistory",
        ));
    }
    if let Some(expected) = input.expected_revision {
        session.check_revision(expected)?;
    } else if previewing {
        return Err(invalid(
            "previewOperations, previewHistory and previewBatch need expectedRevision: the preview is of one revision. Pass the current revision from the outline or getSession.".into(),
            "/expectedRevision",
        ));
    }
    let scale = input.scale.unwrap_or(1.0);
    if !(RENDER_MIN_SCALE..=RENDER_MAX_SCALE).contains(&scale) {
        return Err(invalid(
            format!(
                "scale must be from {RENDER_MIN_SCALE} to {RENDER_MAX_SCALE}; {scale} is outside."
            ),
            "/scale",
        ));
    }
    let background = match &input.background {
        None => None,
        Some(text) => Some(
            render::color::parse(text)
                .filter(|_| text.len() == 7)
                .ok_or_else(|| {
                    invalid(
                        format!("background must be #RRGGBB, like #ffffff; {text:?} is not."),
                        "/background",
                    )
                })?,
        ),
    };
    // The halves: by default now and, for a preview, as it would be; a batch of the
    // history and the unsaved edits show two states the session holds.
    let projected = match (&input.preview_operations, input.preview_history) {
        (Some(operations), _) => Some(session.project_batch(&encode(operations)?)?),
        (None, Some(HistoryPreview::Undo)) => {
            Some(session.stepped(session.status().revision, Direction::Undo)?)
        }
        (None, Some(HistoryPreview::Redo)) => {
            Some(session.stepped(session.status().revision, Direction::Redo)?)
        }
        _ => None,
    };
    let (left, right): (Side, Option<Side>) = if let Some(batch) = input.preview_batch {
        let (before, after) = session.batch_sides(batch)?;
        (before, Some(after))
    } else if input.preview_history == Some(HistoryPreview::Unsaved) {
        (session.saved_side()?, Some(session.side_now()))
    } else {
        let right = projected.as_ref().map(|applied| Side {
            project: &applied.project,
            overlay: Some(&applied.bytes),
        });
        let in_language = translated.as_ref().map(|project| Side {
            project,
            overlay: None,
        });
        match (in_language, compare_strings) {
            (Some(language), true) => (session.side_now(), Some(language)),
            (Some(language), false) => (language, right),
            (None, _) => (session.side_now(), right),
        }
    };
    // A batch that added (or removed) the component leaves one half empty; its pages and
    // size come from the half that has it.
    let on_left = component_of(session, left.project, &input.selector);
    let on_right = right
        .as_ref()
        .and_then(|side| component_of(session, side.project, &input.selector).ok());
    let left_found = on_left.as_ref().ok().copied();
    let (_, component) = match on_left {
        Ok(found) => found,
        Err(error) => on_right.ok_or(error)?,
    };
    let requested = input.controller_pages.clone().unwrap_or_default();
    let (pages, shown) = resolve_pages(&component.component, &requested)?;
    let draw = |side: &Side, package_id: &str, component| {
        render::draw(&Request {
            project: side.project,
            files: Files::new(session.files(), side.overlay),
            package_id,
            component,
            pages: &pages,
            scale: scale as f32,
            background,
        })
        .map_err(|too_large| budget(session, too_large.describe()))
    };
    let before = match left_found {
        Some((package_id, component)) => Some(draw(&left, package_id, component)?),
        None => None,
    };
    let size = &component.component.size;
    let mut data = RenderComponentData {
        session_id: session.id().to_owned(),
        revision: session.status().revision,
        selector: input.selector.clone(),
        width: size.width.get(),
        height: size.height.get(),
        scale,
        pixel_width: 0,
        pixel_height: 0,
        controller_pages: shown,
        png_bytes: 0,
        approximations: before
            .as_ref()
            .map(|drawn| drawn.approximations.clone())
            .unwrap_or_default(),
        comparison: None,
        troubles: Vec::new(),
    };
    let picture = match (right, before) {
        (None, Some(before)) => before.pixmap,
        (None, None) => return Err(budget(session, "Nothing to draw.".into())),
        (Some(right), before) => {
            let after = match on_right {
                Some((package_id, component)) => {
                    let size = &component.component.size;
                    let drawn = draw(&right, package_id, component)?;
                    Some((drawn, size.width.get(), size.height.get()))
                }
                None => None,
            };
            let (before, (mut after, width_after, height_after)) = match (before, after) {
                (Some(before), Some(after)) => (before, after),
                (Some(before), None) => {
                    let after = empty(&before);
                    (before, (after, 0.0, 0.0))
                }
                (None, Some(after)) => (empty(&after.0), after),
                (None, None) => return Err(budget(session, "Nothing to draw.".into())),
            };
            if compare_strings {
                let found = sweep::troubles(&before.texts, &after.texts, scale as f32);
                for (_, bounds) in &found {
                    render::outline(&mut after.pixmap, *bounds);
                }
                data.troubles = found.into_iter().map(|(trouble, _)| trouble).collect();
            }
            let (joined, changed_pixels) = render::side_by_side(&before.pixmap, &after.pixmap, GAP)
                .ok_or_else(|| {
                    budget(
                        session,
                        "The two pictures side by side would be too large.".into(),
                    )
                })?;
            let (joined_w, joined_h) = (joined.width(), joined.height());
            render::pixel_size(f64::from(joined_w), f64::from(joined_h), 1.0)
                .map_err(|too_large| budget(session, too_large.describe()))?;
            data.comparison = Some(RenderComparison {
                panel_width: before.pixmap.width().max(after.pixmap.width()),
                panel_height: joined_h,
                gap: GAP,
                width_after,
                height_after,
                changed_pixels,
                approximations_after: after.approximations,
            });
            joined
        }
    };
    data.pixel_width = picture.width();
    data.pixel_height = picture.height();
    let png = render::encode(&picture).map_err(|cause| {
        eprintln!("ofgui-backend: a render could not be encoded: {cause}");
        Rejected::from(BackendError::unhandled(
            ofgui_contracts::error::UnhandledReason::Internal,
        ))
    })?;
    if png.len() as u64 > RENDER_MAX_PNG_BYTES {
        return Err(budget(
            session,
            format!(
                "The PNG is {} bytes, more than the {RENDER_MAX_PNG_BYTES} a render may return.",
                png.len()
            ),
        ));
    }
    data.png_bytes = png.len() as u64;
    Ok(Preview {
        data: encode(&data)?,
        png,
    })
}

/// An empty picture the size of `like` (the after half when the batch removes the
/// component).
fn empty(like: &Drawn) -> Drawn {
    let pixmap = Pixmap::new(like.pixmap.width(), like.pixmap.height())
        .unwrap_or_else(|| like.pixmap.clone());
    let mut pixmap = pixmap;
    pixmap.fill(Color::TRANSPARENT);
    Drawn {
        pixmap,
        approximations: Vec::new(),
        texts: Vec::new(),
    }
}

fn budget(session: &Session, message: String) -> Rejected {
    Rejected::from(BackendError::read_failed(
        session.id(),
        ReadFailureReason::ResponseBudgetExceeded,
        format!("{message} Lower scale, or render a smaller component."),
    ))
}

/// The selected component and the id of its package.
fn component_of<'p>(
    session: &Session,
    project: &'p UamProject,
    selector: &ComponentSelector,
) -> Result<(&'p str, &'p ComponentResource), Rejected> {
    let fail = |reason, message: String| {
        Rejected::from(BackendError::read_failed(session.id(), reason, message))
    };
    if !valid_id(&selector.package_id) || !valid_id(&selector.component_resource_id) {
        return Err(fail(
            ReadFailureReason::InvalidQuery,
            "packageId and componentResourceId must be strings of 1 to 256 characters.".into(),
        ));
    }
    // By id, or by the names a person reads in the outline (`Bag`, `Main`, `/views/Main`).
    match find_selected_resource(
        project,
        &selector.package_id,
        &selector.component_resource_id,
    ) {
        Lookup::Found((package, UamResource::Component(component))) => {
            Ok((package.id.as_str(), component))
        }
        Lookup::Found((_, other)) => Err(fail(
            ReadFailureReason::UnsupportedResource,
            format!(
                "Resource {} is a {}, not a component; only components are rendered. Find components with getProjectOutline or searchProject (kind component).",
                selector.component_resource_id,
                other.kind()
            ),
        )),
        Lookup::NotFound(what) => Err(fail(
            ReadFailureReason::NotFound,
            format!("{what} Take packageId and componentResourceId from getProjectOutline."),
        )),
        Lookup::Ambiguous(what) => Err(fail(ReadFailureReason::Ambiguous, what)),
    }
}

/// Controller name → page id for the requested pages (by id or name), and the page
/// every controller shows.
fn resolve_pages(
    model: &ComponentModel,
    requested: &BTreeMap<String, String>,
) -> Result<(BTreeMap<String, String>, Vec<RenderedPage>), Rejected> {
    let mut pages = BTreeMap::new();
    for (name, wanted) in requested {
        let path = format!("/controllerPages/{}", pointer_escape(name));
        let Some(controller) = model.controllers.iter().find(|c| &c.name == name) else {
            let names: Vec<&str> = model.controllers.iter().map(|c| c.name.as_str()).collect();
            let message = if names.is_empty() {
                format!(
                    "The component has no controller {name:?}: it has no controllers, so leave controllerPages out."
                )
            } else {
                format!(
                    "The component has no controller {name:?}; its controllers are {}.",
                    listed(&names)
                )
            };
            return Err(Rejected::from(BackendError::invalid_input(
                message,
                Some(path),
            )));
        };
        let Some(page) = controller
            .pages
            .iter()
            .find(|p| &p.id == wanted)
            .or_else(|| controller.pages.iter().find(|p| &p.name == wanted))
        else {
            let choices: Vec<String> = controller
                .pages
                .iter()
                .map(|p| {
                    if p.name.is_empty() {
                        p.id.clone()
                    } else {
                        format!("{} ({})", p.id, p.name)
                    }
                })
                .collect();
            let choices: Vec<&str> = choices.iter().map(String::as_str).collect();
            return Err(Rejected::from(BackendError::invalid_input(
                format!(
                    "Controller {name:?} has no page {wanted:?}; give a page id or name: {}.",
                    listed(&choices)
                ),
                Some(path),
            )));
        };
        pages.insert(name.clone(), page.id.clone());
    }
    let drawn = render::pages::Pages::start(model).over(model, &pages);
    let shown = model
        .controllers
        .iter()
        .filter_map(|controller| {
            let id = drawn.page(&controller.name)?;
            let page = controller.pages.iter().find(|p| p.id == id)?;
            Some(RenderedPage {
                controller: controller.name.clone(),
                page_id: page.id.clone(),
                page_name: page.name.clone(),
            })
        })
        .collect();
    Ok((pages, shown))
}

fn listed(items: &[&str]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

/// A JSON Pointer token (RFC 6901).
fn pointer_escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests;
