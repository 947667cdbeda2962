//! The strings sweep: every component drawn, at each page of its controllers, in its own
//! language and in a translation's, and each text the translation no longer fits where
//! the source text did: wider than its box, cut off at its edge, lines lost below it,
//! shrunk below a readable size, characters its font cannot draw, or grown into another
//! text.

use std::collections::{BTreeMap, HashMap};

use ofgui_contracts::api::{
    ComponentSelector, RenderedPage, StringsSweep, SweepComponent, TextTrouble, TranslationInput,
    TroubleKind,
};
use ofgui_contracts::uam::{ComponentResource, UamPackage, UamProject, UamResource};

use crate::render::{self, Files, Request, TextFit};
use crate::session::{Rejected, Session};
use crate::strings::{self, Translations};

/// Troubles after which an answer ends unless the input asks otherwise.
const DEFAULT_LIMIT: usize = 100;

/// A shrinking text drawn smaller than this many pixels (at scale 1), or than this share
/// of its own size, is no longer comfortably readable.
const READABLE_SIZE: f32 = 10.0;
const READABLE_SHARE: f32 = 0.6;

/// How badly a text fits, per kind: 0 when it fits.
fn severity(fit: &TextFit, kind: TroubleKind) -> f32 {
    let report = &fit.report;
    match kind {
        TroubleKind::Overflow if report.cut_chars == 0 && report.overflow >= 1.0 => report.overflow,
        TroubleKind::Clipped => report.cut_chars as f32,
        TroubleKind::HiddenLines => report.hidden_lines as f32,
        TroubleKind::Shrunk => match report.shrunk_to {
            Some(size) if size < READABLE_SIZE || size < fit.size * READABLE_SHARE => {
                fit.size - size
            }
            _ => 0.0,
        },
        TroubleKind::MissingGlyphs => report.missing_glyphs as f32,
        TroubleKind::Overflow | TroubleKind::Overlap => 0.0,
    }
}

/// The kinds judged text by text (an overlap is judged between two texts).
const KINDS: [TroubleKind; 5] = [
    TroubleKind::Overflow,
    TroubleKind::Clipped,
    TroubleKind::HiddenLines,
    TroubleKind::Shrunk,
    TroubleKind::MissingGlyphs,
];

/// The texts of `translated` that fit worse than the same texts (by node path and order)
/// of `source`, with their boxes; `scale` turns pixels back into component units.
pub fn troubles(
    source: &[TextFit],
    translated: &[TextFit],
    scale: f32,
) -> Vec<(TextTrouble, tiny_skia::Rect)> {
    let before: HashMap<(&str, usize), &TextFit> = keyed(source).into_iter().zip(source).collect();
    let now_keys = keyed(translated);
    let was_of = |index: usize| before.get(&now_keys[index]).copied();
    let unit = |pixels: f32| f64::from((pixels / scale * 10.0).round() / 10.0);
    let trouble = |fit: &TextFit, was: Option<&TextFit>, kind, message, rect: tiny_skia::Rect| {
        let trouble = TextTrouble {
            node_path: fit.node_path.clone(),
            kind,
            text: fit.text.clone(),
            source: was.map(|was| was.text.clone()).unwrap_or_default(),
            message,
            page: None,
            bounds: [
                unit(rect.x()),
                unit(rect.y()),
                unit(rect.width()),
                unit(rect.height()),
            ],
        };
        (trouble, rect)
    };
    let mut found = Vec::new();
    for (index, fit) in translated.iter().enumerate() {
        let was = was_of(index);
        for kind in KINDS {
            let now = severity(fit, kind);
            if now <= 0.0 || was.is_some_and(|was| severity(was, kind) >= now) {
                continue;
            }
            found.push(trouble(fit, was, kind, message(fit, kind), fit.bounds));
        }
        // A text that grew with its translation into another text it did not reach before.
        let grew = was.is_some_and(|was| area(fit.reach) > area(was.reach) + 1.0);
        if !grew {
            continue;
        }
        let into = translated.iter().enumerate().find(|&(other, them)| {
            other != index
                && overlaps(fit.reach, them.reach)
                && !match (was, was_of(other)) {
                    (Some(was), Some(they_were)) => overlaps(was.reach, they_were.reach),
                    _ => false,
                }
        });
        if let Some((_, them)) = into {
            let message = format!(
                "the text grows into the text {} ({:?}); shorten the translation or move them apart",
                them.node_path,
                short(&them.text)
            );
            found.push(trouble(fit, was, TroubleKind::Overlap, message, fit.reach));
        }
    }
    found
}

/// Each text's node path and how many texts of that path came before it (a list's items
/// repeat paths), which pairs a text with the same text drawn in another language.
fn keyed(fits: &[TextFit]) -> Vec<(&str, usize)> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    fits.iter()
        .map(|fit| {
            let n = seen.entry(fit.node_path.as_str()).or_default();
            *n += 1;
            (fit.node_path.as_str(), *n - 1)
        })
        .collect()
}

fn area(rect: tiny_skia::Rect) -> f32 {
    rect.width() * rect.height()
}

/// Whether two rectangles share more than a pixel's sliver.
fn overlaps(a: tiny_skia::Rect, b: tiny_skia::Rect) -> bool {
    let width = a.right().min(b.right()) - a.left().max(b.left());
    let height = a.bottom().min(b.bottom()) - a.top().max(b.top());
    width > 1.0 && height > 1.0
}

fn short(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(40).collect();
    match chars.next() {
        Some(_) => format!("{head}…"),
        None => head,
    }
}

fn message(fit: &TextFit, kind: TroubleKind) -> String {
    let report = &fit.report;
    match kind {
        TroubleKind::Overflow => format!(
            "the text is {:.0} units wider than its box and runs past its edge; shorten the translation or widen the box",
            report.overflow
        ),
        TroubleKind::Clipped => format!(
            "{} character(s) at the end are cut off; shorten the translation, widen the box, or let it shrink (autoSize shrink)",
            report.cut_chars
        ),
        TroubleKind::HiddenLines => format!(
            "{} line(s) below the box are cut off; shorten the translation or make the box taller",
            report.hidden_lines
        ),
        TroubleKind::Shrunk => format!(
            "the text shrinks from {:.0} to {:.1} to fit, too small to read comfortably; shorten the translation or widen the box",
            fit.size,
            report.shrunk_to.unwrap_or(fit.size)
        ),
        TroubleKind::MissingGlyphs => format!(
            "{} character(s) are not in the text's font and show as boxes; choose a font that has them",
            report.missing_glyphs
        ),
        // Said where the other text is known (`troubles`).
        TroubleKind::Overlap => String::new(),
    }
}

/// One page of the sweep: components from the cursor on, until `limit` troubles.
pub fn sweep(session: &Session, input: &TranslationInput) -> Result<StringsSweep, Rejected> {
    let text = strings::needed(&input.strings, &input.strings_file, "sweep")?;
    let translated = session.translated(&Translations::decode(text)?)?;
    let start = strings::page_start(&input.cursor)?;
    let limit = input.limit.map_or(DEFAULT_LIMIT, |limit| limit as usize);
    let listed = components(session.side_now().project);
    let mut findings = Vec::new();
    let (mut count, mut at) = (0, start);
    while at < listed.len() && count < limit {
        let (package, component) = listed[at];
        at += 1;
        let troubles = component_troubles(session, &translated, &package.id, &component.id);
        if troubles.is_empty() {
            continue;
        }
        count += troubles.len();
        findings.push(SweepComponent {
            package: package.name.clone(),
            component: component.name.clone(),
            selector: ComponentSelector {
                package_id: package.id.clone(),
                component_resource_id: component.id.clone(),
            },
            troubles,
        });
    }
    Ok(StringsSweep {
        session_id: session.id().to_owned(),
        revision: session.status().revision,
        components: listed.len() as u32,
        swept: (at - start.min(at)) as u32,
        findings,
        next_cursor: (at < listed.len()).then(|| at.to_string()),
    })
}

/// The troubles of one component drawn at scale 1: at its start pages, then each page of
/// each of its controllers (the others at their start); a text troubled on several is
/// named once, with the first page that shows it. None when it cannot be drawn (too
/// large, or gone from the translated project).
pub fn component_troubles(
    session: &Session,
    translated: &UamProject,
    package_id: &str,
    component_id: &str,
) -> Vec<TextTrouble> {
    let Some(model) = component_in(session.side_now().project, package_id, component_id) else {
        return Vec::new();
    };
    let mut variants: Vec<Option<RenderedPage>> = vec![None];
    for controller in &model.component.controllers {
        variants.extend(controller.pages.iter().map(|page| {
            Some(RenderedPage {
                controller: controller.name.clone(),
                page_id: page.id.clone(),
                page_name: page.name.clone(),
            })
        }));
    }
    let mut found: Vec<TextTrouble> = Vec::new();
    for variant in variants {
        let pages: BTreeMap<String, String> = variant
            .iter()
            .map(|page| (page.controller.clone(), page.page_id.clone()))
            .collect();
        let draw = |project: &UamProject| {
            let component = component_in(project, package_id, component_id)?;
            render::draw(&Request {
                project,
                files: Files::new(session.files(), None),
                package_id,
                component,
                pages: &pages,
                scale: 1.0,
                background: None,
            })
            .ok()
        };
        let (Some(source), Some(language)) = (draw(session.side_now().project), draw(translated))
        else {
            continue;
        };
        for (mut trouble, _) in troubles(&source.texts, &language.texts, 1.0) {
            let known = found
                .iter()
                .any(|f| f.node_path == trouble.node_path && f.kind == trouble.kind);
            if !known {
                trouble.page = variant.clone();
                found.push(trouble);
            }
        }
    }
    found
}

fn component_in<'p>(
    project: &'p UamProject,
    package_id: &str,
    component_id: &str,
) -> Option<&'p ComponentResource> {
    let package = project.packages.iter().find(|p| p.id == package_id)?;
    package.resources.iter().find_map(|r| match r.as_ref() {
        UamResource::Component(c) if c.id == component_id => Some(c),
        _ => None,
    })
}

/// Every component with its package, packages and components by name.
fn components(project: &UamProject) -> Vec<(&UamPackage, &ComponentResource)> {
    let mut packages: Vec<_> = project.packages.iter().collect();
    packages.sort_by(|a, b| a.name.cmp(&b.name));
    let mut listed = Vec::new();
    for package in packages {
        let mut mine: Vec<_> = package
            .resources
            .iter()
            .filter_map(|r| match r.as_ref() {
                UamResource::Component(c) => Some(c),
                _ => None,
            })
            .collect();
        mine.sort_by(|a, b| (&a.name, &a.branch).cmp(&(&b.name, &b.branch)));
        listed.extend(mine.into_iter().map(|c| (package.as_ref(), c)));
    }
    listed
}
