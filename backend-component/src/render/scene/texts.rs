//! Text nodes in the scene: what a text shows, the face it is drawn in (the project's
//! fonts, the machine's, the runtime's default) and its runs.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use ofgui_contracts::uam::{MovieClipResource, NodeBase, TextProperties, UamResource};
use serde_json::Value;
use tiny_skia::{Color, Pixmap, PixmapMut, PixmapPaint, Transform};

use crate::render::font::Face;
use crate::render::image::{self};
use crate::render::text::{self, TextStyle};
use crate::render::{TextFit, bitmap, color, font, shelf};

use super::layout::{Markup, fade, is_title};
use super::{Frame, Overrides, Painter, Placed, RUNTIME_DEFAULT_FONT};

impl<'a> Painter<'a> {
    /// The text a text node shows: its gear's, a custom property's, its owner's title.
    pub(super) fn text_content(
        &self,
        placed: &Placed,
        props: &TextProperties,
        base: &NodeBase,
        overrides: &Overrides,
        property: Option<String>,
    ) -> String {
        placed
            .text
            .clone()
            .or(property)
            .or_else(|| {
                is_title(base, overrides)
                    .then(|| overrides.title.clone())
                    .flatten()
            })
            .unwrap_or_else(|| props.text.clone())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn text(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        props: &TextProperties,
        placed: &Placed,
        overrides: &Overrides,
        base: &NodeBase,
        content: &str,
        kind: &str,
        markup: Option<Markup>,
    ) {
        if content.is_empty() {
            return;
        }
        let title = is_title(base, overrides);
        let colour = placed
            .color
            .clone()
            .or_else(|| title.then(|| overrides.title_color.clone()).flatten())
            .unwrap_or_else(|| props.color.clone());
        let size = placed
            .font_size
            .or_else(|| title.then_some(overrides.title_font_size).flatten())
            .unwrap_or(props.font_size.get());
        let style = TextStyle {
            size: size as f32,
            color: color::with_alpha(color::parse(&colour).unwrap_or(Color::BLACK), frame.alpha),
            align: props.align,
            v_align: props.v_align,
            leading: props.leading.get() as f32,
            letter_spacing: props.letter_spacing.get() as f32,
            bold: props.bold,
            italic: props.italic,
            underline: props.underline,
            strikethrough: props.strikethrough,
            stroke: props
                .stroke_color
                .as_deref()
                .and_then(color::parse)
                .filter(|_| props.stroke_size.get() > 0.0)
                .map(|c| {
                    (
                        color::with_alpha(c, frame.alpha),
                        props.stroke_size.get() as f32,
                    )
                }),
            shadow: props
                .shadow_color
                .as_deref()
                .and_then(color::parse)
                .map(|c| {
                    (
                        color::with_alpha(c, frame.alpha),
                        props.shadow_offset.x.get() as f32,
                        props.shadow_offset.y.get() as f32,
                    )
                }),
            single_line: props.single_line,
            auto_size: props.auto_size,
        };
        let font = if props.font.is_empty() {
            self.default_font.clone()
        } else {
            props.font.clone()
        };
        let report = match markup {
            Some(Markup { ubb, html }) => {
                let runs = text::parse_markup(content, ubb, html);
                self.draw_runs(canvas, frame, placed, &runs, &style, &font)
            }
            None => {
                let Some(face) = self.face(&font, frame.package_id) else {
                    return;
                };
                text::draw(
                    canvas,
                    frame.transform,
                    placed.width,
                    placed.height,
                    content,
                    &style,
                    &face,
                    &mut self.glyphs,
                )
            }
        };
        let on_canvas = frame.transform.post_translate(frame.shift.0, frame.shift.1);
        let bounds = tiny_skia::Rect::from_xywh(0.0, 0.0, placed.width, placed.height)
            .and_then(|rect| rect.transform(on_canvas));
        let (reach_w, reach_h) = report.reach;
        let reach = tiny_skia::Rect::from_xywh(0.0, 0.0, reach_w, reach_h)
            .and_then(|rect| rect.transform(on_canvas));
        if let Some(bounds) = bounds {
            self.texts.push(TextFit {
                reach: reach.unwrap_or(bounds),
                node_path: frame.path.clone(),
                kind: kind.to_owned(),
                text: content.to_owned(),
                size: style.size,
                bounds,
                report: report.clone(),
            });
        }
        if report.missing_images > 0 {
            self.approximate(
                &frame.path,
                kind,
                format!(
                    "{} inline image(s) are not in the project or cannot be decoded: their room is left empty",
                    report.missing_images
                ),
            );
        }
        if report.missing_glyphs > 0 {
            self.approximate(
                &frame.path,
                kind,
                format!(
                    "{} character(s) no font of the project or this machine has are drawn as boxes (the bundled font covers Latin, Greek and Cyrillic; the server's --font-dir grants more)",
                    report.missing_glyphs
                ),
            );
        }
        if (report.broke_word || report.hidden_lines > 0)
            && let Some(stand_in) = self.stand_in_for(&font)
        {
            let mut what = Vec::new();
            if report.broke_word {
                what.push("a word too wide for its line is broken between letters".to_owned());
            }
            if report.hidden_lines > 0 {
                what.push(format!(
                    "{} line(s) below the box are cut off",
                    report.hidden_lines
                ));
            }
            self.approximate(
                &frame.path,
                kind,
                format!(
                    "{}, as the runtime would with these widths; but it is drawn in {stand_in}, and the game's font may break its lines elsewhere",
                    what.join(" and ")
                ),
            );
        }
        if let Some(used) = self.substitute_for(&font) {
            *self.substitutes.entry((font.clone(), used)).or_default() += 1;
        }
        if let Some(family) = report.fallback_family {
            let used = format!("{family}, a machine font");
            *self.substitutes.entry((String::new(), used)).or_default() += 1;
        }
    }

    /// What a text asking for `font` (empty: the runtime's default) is drawn in when that
    /// is not the face the game draws it in, whose widths may then differ.
    pub(super) fn stand_in_for(&self, font: &str) -> Option<String> {
        match font.is_empty() {
            true => self.substitute_for(RUNTIME_DEFAULT_FONT),
            false => self.substitute_for(font),
        }
    }

    /// What a text asking for `font` is drawn in when that is not `font` itself: a
    /// machine face with its metrics, or the bundled one.
    pub(super) fn substitute_for(&self, font: &str) -> Option<String> {
        if font.is_empty() || font.starts_with("ui://") {
            return None;
        }
        match shelf::family(font) {
            Some(shelf::Found::Exact(_)) => None,
            Some(shelf::Found::Alias(face)) => Some(format!(
                "{}, the machine's face with its metrics",
                face.family()
            )),
            None => Some(match shelf::family(RUNTIME_DEFAULT_FONT) {
                Some(shelf::Found::Exact(face) | shelf::Found::Alias(face)) => format!(
                    "{}, the face of the runtime's default font {RUNTIME_DEFAULT_FONT} (neither the project nor this machine has it)",
                    face.family()
                ),
                None => {
                    "the bundled DejaVu Sans subset (neither the project nor this machine has it)"
                        .to_owned()
                }
            }),
        }
    }

    /// Styled runs in a text node's box: their fonts and inline images resolved first
    /// (through the render's caches), their colours and images faded by the node's alpha.
    pub(super) fn draw_runs(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        placed: &Placed,
        runs: &[text::Run],
        style: &TextStyle,
        font: &str,
    ) -> text::TextReport {
        let mut faces: HashMap<Option<Rc<str>>, Option<Face>> = HashMap::new();
        let mut pictures: HashMap<Rc<str>, Option<Rc<Pixmap>>> = HashMap::new();
        let mut faded: Vec<text::Run> = Vec::with_capacity(runs.len());
        faces.insert(None, self.face(font, frame.package_id));
        for run in runs {
            if let Some(name) = &run.style.font
                && !faces.contains_key(&Some(name.clone()))
            {
                let face = self.face(name, frame.package_id);
                faces.insert(Some(name.clone()), face);
            }
            if let text::RunContent::Image { url, .. } = &run.content
                && !pictures.contains_key(url)
            {
                let picture = self.inline_image(url).map(|p| fade(p, frame.alpha));
                pictures.insert(url.clone(), picture);
            }
            let mut run = run.clone();
            run.style.color = run.style.color.map(|c| color::with_alpha(c, frame.alpha));
            faded.push(run);
        }
        text::draw_runs(
            canvas,
            frame.transform,
            placed.width,
            placed.height,
            &faded,
            style,
            &mut |name| faces.get(&name.map(Rc::from)).cloned().flatten(),
            &mut |url| pictures.get(url).cloned().flatten(),
            &mut self.glyphs,
        )
    }

    /// The pixels of an image resource a `ui://` URL names, or a movie clip's first frame
    /// in the clip's bounds (time stands still in a preview).
    pub(super) fn inline_image(&mut self, url: &str) -> Option<Rc<Pixmap>> {
        let (_, resource) = self.urls.locate(url)?;
        match resource {
            UamResource::Image(image) => {
                let path = image.base.source_path.clone()?;
                self.decoded(&path)
            }
            UamResource::MovieClip(clip) => {
                let (pixels, [x, y, _, _]) = self.clip_frame(clip, 0).ok()?;
                // Inline pictures are small; a clip claiming more is not drawn.
                let side = |n: f64| Some(n.max(1.0) as u32).filter(|n| *n <= 2048);
                let mut bounds = Pixmap::new(
                    side(clip.dimensions.width.get())?,
                    side(clip.dimensions.height.get())?,
                )?;
                bounds.draw_pixmap(
                    x as i32,
                    y as i32,
                    pixels.as_ref(),
                    &PixmapPaint::default(),
                    Transform::identity(),
                    None,
                );
                Some(Rc::new(bounds))
            }
            _ => None,
        }
    }

    /// A movie clip's frame (its first when it has no such frame) and where it sits in the
    /// clip's bounds; or why it cannot be drawn.
    pub(super) fn clip_frame(
        &self,
        clip: &MovieClipResource,
        index: usize,
    ) -> Result<(Pixmap, [f64; 4]), &'static str> {
        let bytes = clip
            .base
            .source_path
            .as_deref()
            .and_then(|p| self.files.get(p));
        let texture = bytes.and_then(|b| {
            crate::formats::jta::frame_texture(b, index)
                .or_else(|| crate::formats::jta::frame_texture(b, 0))
        });
        let Some((texture, place)) = texture else {
            return Err("its .jta file is missing or has no frames: drawn as a placeholder box");
        };
        let pixels = image::decode(texture)
            .map_err(|_| "its frame cannot be decoded: drawn as a placeholder box")?;
        Ok((pixels, place))
    }

    /// The face a text node's `font` names: a font resource of the project, the machine's
    /// face of a family name (`render::shelf`); for no font or one neither has, the
    /// runtime's default font, else the bundled font.
    pub(super) fn face(&mut self, font: &str, package_id: &str) -> Option<Face> {
        self.named_face(font, package_id)
            .or_else(|| self.named_face(RUNTIME_DEFAULT_FONT, package_id))
            .or_else(Face::bundled)
    }

    pub(super) fn named_face(&mut self, font: &str, package_id: &str) -> Option<Face> {
        if let Some(face) = self.faces.get(font) {
            return face.clone();
        }
        let loaded = self.load_face(font, package_id);
        self.faces.insert(font.to_owned(), loaded.clone());
        loaded
    }

    pub(super) fn load_face(&mut self, url: &str, _package_id: &str) -> Option<Face> {
        if url.is_empty() {
            return None;
        }
        if !url.starts_with("ui://") {
            return match shelf::family(url)? {
                shelf::Found::Exact(face) | shelf::Found::Alias(face) => Some(Face::Vector(face)),
            };
        }
        let (package_id, resource) = self.urls.locate(url)?;
        let UamResource::Font(font) = resource else {
            return None;
        };
        let bytes = self.files.get(font.base.source_path.as_deref()?)?;
        if let Some(ttf) = font::parse_ttf(bytes) {
            return Some(Face::Vector(Arc::new(font::VectorFont::Eager(ttf))));
        }
        let fnt = crate::formats::fnt::parse_fnt(std::str::from_utf8(bytes).ok()?).ok()?;
        let texture = font
            .metadata
            .as_ref()
            .and_then(|m| m.get("texture"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let folder = font
            .base
            .source_path
            .as_deref()
            .and_then(|p| p.rsplit_once('/'))
            .map(|(dir, _)| dir.to_owned())
            .unwrap_or_default();
        let built = bitmap::BitmapFont::build(&fnt, |wanted| match wanted {
            bitmap::GlyphImageRef::Resource { id } => self.image_by_ids(package_id, id),
            bitmap::GlyphImageRef::Atlas { file, .. } => match &texture {
                Some(id) if !id.is_empty() => self.image_by_ids(package_id, id),
                _ => self.image_at(&format!("{folder}/{file}")),
            },
        });
        Some(Face::Bitmap(Arc::new(built)))
    }
}
