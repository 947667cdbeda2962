//! The scene painter: walks a component's display list as the runtime lays it out (gears
//! at the chosen controller pages, relations to a resized parent, nested components,
//! lists, loaders) and draws each node with the room that knows its look.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use ofgui_contracts::api::RenderApproximation;
use ofgui_contracts::capabilities::RENDER_MAX_DEPTH;
use ofgui_contracts::uam::{
    ComponentModel, ComponentResource, Controller, DisplayNode, Gear, GearBinding,
    InstanceProperties, ListItem, ListProperties, MovieClipResource, NodeBase, Relation,
    ResourceRef, TextProperties, UamResource,
};
use serde_json::Value;
use tiny_skia::{
    Color, FillRule, IntRect, Mask, Paint, PathBuilder, Pixmap, PixmapMut, PixmapPaint, Rect,
    Transform,
};

use super::font::Face;
use super::image::{self, Fill, ImageLook};
use super::pages::{self, Pages, Start};
use super::progress::{self, BarBox, Progress};
use super::shape::{self, Shape};
use super::text::{self, GlyphCache, TextStyle};
use super::{Files, Request, bitmap, color, font, shelf};
use crate::lookup::urls::Urls;
use crate::rules::gears::has_default;

/// The FairyGUI runtime's default font (`UIConfig.defaultFont`): a game draws text with
/// no font in it, and previews draw a family no granted face has in it too.
const RUNTIME_DEFAULT_FONT: &str = "Arial";

/// Draws the request's component onto `canvas`; returns what it approximated.
pub fn paint(request: &Request, canvas: &mut PixmapMut) -> Vec<RenderApproximation> {
    let mut painter = Painter {
        urls: Urls::new(request.project),
        files: request.files,
        images: HashMap::new(),
        faces: HashMap::new(),
        substitutes: BTreeMap::new(),
        glyphs: GlyphCache::default(),
        approximations: Vec::new(),
        default_font: request
            .project
            .settings
            .get("common")
            .and_then(|common| common.get("font"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    };
    let model = &request.component.component;
    let pages = Pages::start(model).over(model, request.pages);
    let frame = Frame {
        transform: Transform::from_scale(request.scale, request.scale),
        alpha: 1.0,
        depth: 0,
        package_id: request.package_id,
        path: String::new(),
    };
    painter.component(
        canvas,
        &frame,
        model,
        model.size.width.get() as f32,
        model.size.height.get() as f32,
        &pages,
        &Overrides::default(),
        false,
    );
    let substitutes = std::mem::take(&mut painter.substitutes);
    for ((asked, drawn_in), nodes) in substitutes {
        let reason = if asked.is_empty() {
            format!(
                "characters the text's font lacks ({nodes} text node(s)) are drawn in {drawn_in}"
            )
        } else {
            format!(
                "text asking for the font {asked:?} ({nodes} text node(s)) is drawn in {drawn_in}"
            )
        };
        painter.approximate("", "font", reason);
    }
    painter.approximations
}

/// Where and how a subtree is drawn.
struct Frame<'a> {
    /// Maps the subtree's local units to canvas pixels.
    transform: Transform,
    /// Inherited alpha.
    alpha: f32,
    /// Component instances above this one.
    depth: u32,
    /// The package whose resources an owner-relative reference means.
    package_id: &'a str,
    /// Node ids from the rendered component down to here, joined by `/`.
    path: String,
}

impl<'a> Frame<'a> {
    /// The same frame drawn through another transform (into a layer).
    fn moved(&self, transform: Transform) -> Frame<'a> {
        Frame {
            transform,
            alpha: self.alpha,
            depth: self.depth,
            package_id: self.package_id,
            path: self.path.clone(),
        }
    }

    fn child_path(&self, id: &str) -> String {
        if self.path.is_empty() {
            id.to_owned()
        } else {
            format!("{}/{id}", self.path)
        }
    }
}

/// What an instance or list item sets in the component it shows: its title and icon
/// (the children named `title` and `icon`), a progress value, and custom properties.
#[derive(Default, Clone)]
struct Overrides {
    title: Option<String>,
    icon: Option<String>,
    title_color: Option<String>,
    title_font_size: Option<f64>,
    /// A progress bar's or slider's value.
    progress: Option<progress::Value>,
    /// Node id → (property id, value): 0 text, 1 icon, 2 colour, 8 font size.
    properties: HashMap<String, Vec<(i32, String)>>,
}

impl Overrides {
    /// An owner's title, icon, title colour and font size (0: the title's own); empty
    /// ones set nothing.
    fn titled(title: &str, icon: &str, title_color: &str, font_size: f64) -> Overrides {
        let given = |text: &str| Some(text.to_owned()).filter(|text| !text.is_empty());
        Overrides {
            title: given(title),
            icon: given(icon),
            title_color: given(title_color),
            title_font_size: Some(font_size).filter(|size| *size > 0.0),
            ..Overrides::default()
        }
    }
}

/// A progress bar's bars (`bar`, `bar_v`) by node id.
struct Bars<'a> {
    moved: HashMap<&'a str, MovedBar>,
}

/// A bar's box as designed and at the progress, and a filled bar's fill amount.
struct MovedBar {
    vertical: bool,
    before: BarBox,
    after: BarBox,
    fill: Option<f32>,
}

impl Bars<'_> {
    /// Puts a bar at its progress, and a node related to a bar where the runtime's
    /// relation moves it when the bar changes.
    fn place(&self, base: &NodeBase, placed: &mut Placed) {
        if let Some(bar) = self.moved.get(base.id.as_str()) {
            let after = bar.after;
            (placed.x, placed.y, placed.width, placed.height) =
                (after.x, after.y, after.width, after.height);
            placed.fill_amount = bar.fill;
            return;
        }
        for relation in &base.relations {
            if let Some(bar) = self.moved.get(relation.target_node_id.as_str()) {
                follow(placed, relation, &bar.before, &bar.after);
            }
        }
    }
}

/// Moves or sizes a node as a relation to a sibling does when the sibling's box changes
/// from `before` to `after` (the runtime's `RelationItem`, without percentages).
fn follow(placed: &mut Placed, relation: &Relation, before: &BarBox, after: &BarBox) {
    let (dx, dy) = (after.x - before.x, after.y - before.y);
    let (dw, dh) = (after.width - before.width, after.height - before.height);
    match relation.relation_type {
        0 | 4 => placed.x += dx,
        1 | 3 | 5 => placed.x += dx + dw / 2.0,
        2 | 6 => placed.x += dx + dw,
        7 | 11 => placed.y += dy,
        8 | 10 | 12 => placed.y += dy + dh / 2.0,
        9 | 13 => placed.y += dy + dh,
        14 => placed.width += dw,
        15 => placed.height += dh,
        24 => {
            placed.width += dw;
            placed.height += dh;
        }
        _ => {}
    }
}

/// A node's geometry and look after gears.
struct Placed {
    x: f32,
    y: f32,
    width: f32,
    height: f32,
    scale_x: f32,
    scale_y: f32,
    alpha: f32,
    rotation: f32,
    grayed: bool,
    /// A button instance's selection (its `checked`, or its related controller's page).
    selected: bool,
    /// A progress bar's filled bar: its fill amount.
    fill_amount: Option<f32>,
    color: Option<String>,
    text: Option<String>,
    icon: Option<String>,
    font_size: Option<f64>,
}

struct Painter<'a> {
    urls: Urls<'a>,
    files: Files<'a>,
    /// Decoded images by source path (`None`: not decodable), for this render.
    images: HashMap<String, Option<Rc<Pixmap>>>,
    /// Faces by font reference (`""` is the bundled font).
    faces: HashMap<String, Option<Face>>,
    /// Text nodes drawn in another face than they ask for, by what they ask for and what
    /// drew them: one approximation each, for the whole component.
    substitutes: BTreeMap<(String, String), u32>,
    glyphs: GlyphCache,
    approximations: Vec<RenderApproximation>,
    /// The project's default font (`settings/Common.json` `font`).
    default_font: String,
}

impl<'a> Painter<'a> {
    fn approximate(&mut self, path: &str, kind: &str, reason: impl Into<String>) {
        self.approximations.push(RenderApproximation {
            node_path: path.to_owned(),
            kind: kind.to_owned(),
            reason: reason.into(),
        });
    }

    /// Draws a component model in a `width`×`height` box of `frame`'s space; `nested`
    /// when it is an instance in another component, which clips it to its box and sets it
    /// up (a progress bar's value) as the runtime does a child.
    #[allow(clippy::too_many_arguments)]
    fn component(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        model: &'a ComponentModel,
        width: f32,
        height: f32,
        pages: &Pages,
        overrides: &Overrides,
        nested: bool,
    ) {
        let properties = &model.properties;
        if properties.bg_color_enabled
            && let Some(bg) = color::parse(&properties.bg_color)
        {
            fill_rect(canvas, frame.transform, width, height, bg, frame.alpha);
        }
        if !properties.mask.is_empty() {
            self.approximate(
                &frame.path,
                "component",
                format!(
                    "the mask (node {}) is not applied: its node is drawn as it is",
                    properties.mask
                ),
            );
        }
        let design_w = model.size.width.get() as f32;
        let design_h = model.size.height.get() as f32;
        let resized = (width - design_w).abs() > 0.01 || (height - design_h).abs() > 0.01;
        // The runtime sets a bar's value up only when it is added to a parent.
        let progress = Progress::of(properties, overrides.progress).filter(|_| nested);
        let titled;
        let overrides = match &progress {
            Some(progress) => {
                titled = Overrides {
                    title: Some(progress.title.clone()),
                    ..overrides.clone()
                };
                &titled
            }
            None => overrides,
        };
        let bars = progress.as_ref().map(|progress| {
            self.bars(
                model,
                pages,
                progress,
                resized,
                (design_w, design_h),
                (width, height),
            )
        });
        let groups: HashMap<&str, &NodeBase> = model
            .display_list
            .iter()
            .filter(|node| matches!(node, DisplayNode::Group(_)))
            .map(|node| (node.id(), node.base()))
            .collect();
        let draw = |painter: &mut Painter<'a>, canvas: &mut PixmapMut, frame: &Frame| {
            for node in &model.display_list {
                let base = node.base();
                if !painter.visible(base, pages, &groups) {
                    continue;
                }
                let mut placed = placed(base, pages, &model.controllers);
                placed.selected = button_selected(node, pages);
                if resized {
                    relate(
                        &mut placed,
                        &base.relations,
                        design_w,
                        design_h,
                        width,
                        height,
                    );
                }
                if let Some(bars) = &bars {
                    bars.place(base, &mut placed);
                }
                painter.node(canvas, frame, node, &placed, overrides);
            }
        };
        // The runtime puts the children in a container at the margin's top left, and
        // clips a hidden or scrolled component to the rectangle inside its margin.
        let margin = &properties.margin;
        let (left, top) = (margin.left.get() as f32, margin.top.get() as f32);
        let (right, bottom) = (margin.right.get() as f32, margin.bottom.get() as f32);
        let has_margin = left != 0.0 || top != 0.0 || right != 0.0 || bottom != 0.0;
        let content = frame.transform.pre_translate(left, top);
        if properties.overflow != 0 && (nested || has_margin) {
            layer(
                canvas,
                content,
                width - left - right,
                height - top - bottom,
                Layer::Clip,
                |canvas, at| draw(self, canvas, &frame.moved(at)),
            );
        } else {
            draw(self, canvas, &frame.moved(content));
        }
    }

    /// Where a progress bar's or slider's `bar` and `bar_v` stand at its progress.
    fn bars(
        &self,
        model: &'a ComponentModel,
        pages: &Pages,
        progress: &Progress,
        resized: bool,
        (design_w, design_h): (f32, f32),
        (width, height): (f32, f32),
    ) -> Bars<'a> {
        let mut moved = HashMap::new();
        for node in &model.display_list {
            let base = node.base();
            let vertical = match base.name.as_str() {
                "bar" => false,
                "bar_v" => true,
                _ => continue,
            };
            if moved
                .values()
                .any(|bar: &MovedBar| bar.vertical == vertical)
            {
                continue; // the runtime takes the first child of each name
            }
            let mut full = placed(base, pages, &model.controllers);
            if resized {
                relate(
                    &mut full,
                    &base.relations,
                    design_w,
                    design_h,
                    width,
                    height,
                );
            }
            let filled = match node {
                DisplayNode::Image(n) => n.props.fill_method != 0,
                DisplayNode::Loader(n) => n.props.fill_method != 0,
                _ => false,
            };
            let before = BarBox {
                x: full.x,
                y: full.y,
                width: full.width,
                height: full.height,
            };
            let (after, fill) = progress.bar(before, vertical, filled);
            moved.insert(
                base.id.as_str(),
                MovedBar {
                    vertical,
                    before,
                    after,
                    fill,
                },
            );
        }
        Bars { moved }
    }

    /// Whether a node shows at these pages: its own flag, its display gears, its group's.
    fn visible(&self, base: &NodeBase, pages: &Pages, groups: &HashMap<&str, &NodeBase>) -> bool {
        let mut seen = 0;
        let mut current = Some(base);
        while let Some(node) = current {
            if !node.visible || !displayed(node, pages) {
                return false;
            }
            // A group's group, to a bound: the model may hold a cycle.
            seen += 1;
            current = node
                .group
                .as_deref()
                .filter(|g| !g.is_empty() && seen < 16)
                .and_then(|g| groups.get(g).copied());
        }
        true
    }

    fn node(
        &mut self,
        canvas: &mut PixmapMut,
        parent: &Frame,
        node: &'a DisplayNode,
        placed: &Placed,
        overrides: &Overrides,
    ) {
        let base = node.base();
        let alpha = parent.alpha * placed.alpha;
        if alpha <= 0.0 || placed.scale_x == 0.0 || placed.scale_y == 0.0 {
            return;
        }
        let frame = Frame {
            transform: parent.transform.pre_concat(local_transform(base, placed)),
            alpha,
            depth: parent.depth,
            package_id: parent.package_id,
            path: parent.child_path(&base.id),
        };
        if placed.grayed && !self.grays_by_page(node, parent.package_id) {
            let (w, h) = (placed.width, placed.height);
            layer(canvas, frame.transform, w, h, Layer::Grey, |canvas, at| {
                self.node_look(canvas, &frame.moved(at), node, placed, overrides);
            });
        } else {
            self.node_look(canvas, &frame, node, placed, overrides);
        }
    }

    fn node_look(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        node: &'a DisplayNode,
        placed: &Placed,
        overrides: &Overrides,
    ) {
        let (w, h) = (placed.width, placed.height);
        let base = node.base();
        let own = overrides.properties.get(&base.id);
        let property = |id: i32| {
            own.and_then(|list| list.iter().find(|(p, _)| *p == id))
                .map(|(_, v)| v.clone())
        };
        match node {
            DisplayNode::Image(n) => {
                let tint = placed.color.clone().or_else(|| property(2));
                let tint = tint.as_deref().unwrap_or(&n.props.color);
                let fill = Fill {
                    method: n.props.fill_method,
                    origin: n.props.fill_origin,
                    clockwise: n.props.fill_clockwise,
                    amount: placed
                        .fill_amount
                        .unwrap_or(n.props.fill_amount.get() as f32),
                };
                self.image(canvas, frame, &n.resource, w, h, tint, n.props.flip, fill);
            }
            DisplayNode::MovieClip(n) => {
                let tint = placed.color.as_deref().unwrap_or(&n.props.color);
                let frame_index = n.props.frame.get().max(0.0) as usize;
                self.movie_clip(canvas, frame, &n.resource, w, h, tint, frame_index);
            }
            DisplayNode::Graph(n) => {
                let p = &n.props;
                let numbers = |v: &Option<Vec<ofgui_contracts::Num>>| {
                    v.as_ref()
                        .map(|v| v.iter().map(|n| n.get() as f32).collect::<Vec<f32>>())
                };
                let (radius, points, distances) = (
                    numbers(&p.corner_radius),
                    numbers(&p.points),
                    numbers(&p.distances),
                );
                let fill = placed.color.as_deref().unwrap_or(&p.fill_color);
                let shape = Shape {
                    kind: p.graph_type,
                    fill: color::parse(fill).unwrap_or(Color::WHITE),
                    line: color::parse(&p.line_color).unwrap_or(Color::BLACK),
                    line_size: p.line_size.get() as f32,
                    corner_radius: radius.as_deref(),
                    points: points.as_deref(),
                    sides: p.sides.get() as i32,
                    start_angle: p.start_angle.get() as f32,
                    distances: distances.as_deref(),
                };
                shape::draw(canvas, frame.transform, w, h, &shape, frame.alpha);
            }
            DisplayNode::Text(n) => {
                let content = self.text_content(placed, &n.text, base, overrides, property(0));
                // The runtime parses UBB only when the field enables it.
                let markup = n.text.ubb_enabled.then_some(Markup {
                    ubb: true,
                    html: false,
                });
                self.text(
                    canvas, frame, &n.text, placed, overrides, base, &content, "text", markup,
                );
            }
            DisplayNode::RichText(n) => {
                let content = self.text_content(placed, &n.text, base, overrides, property(0));
                let markup = Some(Markup {
                    ubb: n.text.ubb_enabled,
                    html: true,
                });
                self.text(
                    canvas, frame, &n.text, placed, overrides, base, &content, "richText", markup,
                );
            }
            DisplayNode::TextInput(n) => {
                let mut content = self.text_content(placed, &n.text, base, overrides, property(0));
                let mut style_text = n.text.clone();
                let mut markup = None;
                if content.is_empty() && !n.prompt_text.is_empty() {
                    // An empty input shows its prompt, which the runtime parses as UBB.
                    content = n.prompt_text.clone();
                    style_text.color = "#999999".into();
                    markup = Some(Markup {
                        ubb: true,
                        html: false,
                    });
                } else if n.password {
                    content = "*".repeat(content.chars().count());
                }
                self.text(
                    canvas,
                    frame,
                    &style_text,
                    placed,
                    overrides,
                    base,
                    &content,
                    "textInput",
                    markup,
                );
            }
            DisplayNode::Component(n) => {
                self.instance(canvas, frame, node, &n.resource, placed, n, property(1));
            }
            DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
                let reference = flat_reference(&n.src, &n.package_id);
                let own =
                    Overrides::titled(&n.title, &n.icon, &n.title_color, n.title_font_size.get());
                let start = Start::default();
                self.nested(canvas, frame, node.kind(), &reference, w, h, &start, &own);
            }
            DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
                let reference = flat_reference(&n.src, &n.package_id);
                let (start, own) = (Start::default(), Overrides::default());
                self.nested(canvas, frame, node.kind(), &reference, w, h, &start, &own);
            }
            DisplayNode::List(n) => self.list(canvas, frame, &n.list, w, h, "list"),
            DisplayNode::Tree(n) => {
                self.approximate(
                    &frame.path,
                    "tree",
                    "a tree is drawn as a flat column of its items, without indents or folding",
                );
                let mut list = n.list.clone();
                list.layout = 0;
                self.list(canvas, frame, &list, w, h, "tree");
            }
            DisplayNode::Loader(n) => {
                let url = placed
                    .icon
                    .clone()
                    .or_else(|| property(1))
                    .or_else(|| {
                        is_icon(base, overrides)
                            .then(|| overrides.icon.clone())
                            .flatten()
                    })
                    .unwrap_or_else(|| n.props.url.clone());
                let tint = placed.color.as_deref().unwrap_or(&n.props.color);
                self.loader(canvas, frame, &n.props, &url, w, h, tint);
            }
            DisplayNode::Loader3D(n) => {
                let what = if n.props.url.is_empty() {
                    "an empty 3-D loader".to_owned()
                } else {
                    format!("a Spine/DragonBones animation ({})", n.props.url)
                };
                self.placeholder(
                    canvas,
                    frame,
                    w,
                    h,
                    "loader3D",
                    &format!("{what} is drawn as a placeholder box"),
                );
            }
            DisplayNode::Group(_) => {}
        }
    }

    /// The text a text node shows: its gear's, a custom property's, its owner's title.
    fn text_content(
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
    fn text(
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
    fn stand_in_for(&self, font: &str) -> Option<String> {
        match font.is_empty() {
            true => self.substitute_for(RUNTIME_DEFAULT_FONT),
            false => self.substitute_for(font),
        }
    }

    /// What a text asking for `font` is drawn in when that is not `font` itself: a
    /// machine face with its metrics, or the bundled one.
    fn substitute_for(&self, font: &str) -> Option<String> {
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
    fn draw_runs(
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
    fn inline_image(&mut self, url: &str) -> Option<Rc<Pixmap>> {
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
    fn clip_frame(
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
    fn face(&mut self, font: &str, package_id: &str) -> Option<Face> {
        self.named_face(font, package_id)
            .or_else(|| self.named_face(RUNTIME_DEFAULT_FONT, package_id))
            .or_else(Face::bundled)
    }

    fn named_face(&mut self, font: &str, package_id: &str) -> Option<Face> {
        if let Some(face) = self.faces.get(font) {
            return face.clone();
        }
        let loaded = self.load_face(font, package_id);
        self.faces.insert(font.to_owned(), loaded.clone());
        loaded
    }

    fn load_face(&mut self, url: &str, _package_id: &str) -> Option<Face> {
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

    fn image_by_ids(&mut self, package_id: &str, resource_id: &str) -> Option<Pixmap> {
        let UamResource::Image(image) = self.urls.resource(package_id, resource_id)? else {
            return None;
        };
        let path = image.base.source_path.clone()?;
        self.image_at(&path)
    }

    fn image_at(&mut self, path: &str) -> Option<Pixmap> {
        self.decoded(path).map(|p| (*p).clone())
    }

    /// The decoded image at a project path, once per render.
    fn decoded(&mut self, path: &str) -> Option<Rc<Pixmap>> {
        if let Some(found) = self.images.get(path) {
            return found.clone();
        }
        let decoded = self
            .files
            .get(path)
            .and_then(|bytes| image::decode(bytes).ok())
            .map(Rc::new);
        self.images.insert(path.to_owned(), decoded.clone());
        decoded
    }

    #[allow(clippy::too_many_arguments)]
    fn image(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        reference: &ResourceRef,
        w: f32,
        h: f32,
        tint: &str,
        flip: i32,
        fill: Fill,
    ) {
        let resource = self.urls.reference(frame.package_id, reference);
        let Some(UamResource::Image(image)) = resource else {
            let reason = match resource {
                Some(other) => format!("it refers to a {}, not an image", other.kind()),
                None => format!("its image {} is not in the project", reference.resource_id),
            };
            self.placeholder(
                canvas,
                frame,
                w,
                h,
                "image",
                &format!("{reason}: drawn as a placeholder box"),
            );
            return;
        };
        let Some(pixels) = image
            .base
            .source_path
            .as_deref()
            .and_then(|p| self.decoded(p))
        else {
            self.placeholder(canvas, frame, w, h, "image", &format!("the file of image {} is missing or cannot be decoded: drawn as a placeholder box", image.base.name));
            return;
        };
        let grid = match (image.image.scale_option, &image.image.scale9_grid) {
            (1, Some(g)) if g.len() == 4 => Some([
                g[0].get() as f32,
                g[1].get() as f32,
                g[2].get() as f32,
                g[3].get() as f32,
            ]),
            _ => None,
        };
        if grid.is_some() && image.image.tile_grid_indice.get() != 0.0 {
            self.approximate(
                &frame.path,
                "image",
                "the 9-grid's tiled cells (gridTile) are stretched",
            );
        }
        let look = ImageLook {
            grid,
            tile: image.image.scale_option == 2,
            flip,
            tint: color::parse(tint).unwrap_or(Color::WHITE),
            fill: (fill.method != 0).then_some(fill),
            alpha: frame.alpha,
            smooth: image.image.smoothing,
        };
        image::draw(
            canvas,
            frame.transform,
            w,
            h,
            pixels.as_ref().as_ref(),
            None,
            &look,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn movie_clip(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        reference: &ResourceRef,
        w: f32,
        h: f32,
        tint: &str,
        frame_index: usize,
    ) {
        let Some(UamResource::MovieClip(clip)) = self.urls.reference(frame.package_id, reference)
        else {
            self.placeholder(
                canvas,
                frame,
                w,
                h,
                "movieClip",
                "its movie clip is not in the project: drawn as a placeholder box",
            );
            return;
        };
        let (pixels, [x, y, fw, fh]) = match self.clip_frame(clip, frame_index) {
            Ok(drawn) => drawn,
            Err(reason) => {
                self.placeholder(canvas, frame, w, h, "movieClip", reason);
                return;
            }
        };
        // Frames sit in the clip's own bounds, which the node stretches to its size.
        let (cw, ch) = (
            clip.dimensions.width.get().max(1.0) as f32,
            clip.dimensions.height.get().max(1.0) as f32,
        );
        let at = frame
            .transform
            .pre_scale(w / cw, h / ch)
            .pre_translate(x as f32, y as f32);
        let look = ImageLook {
            grid: None,
            tile: false,
            flip: 0,
            tint: color::parse(tint).unwrap_or(Color::WHITE),
            fill: None,
            alpha: frame.alpha,
            smooth: clip.movie_clip.smoothing,
        };
        image::draw(
            canvas,
            at,
            fw as f32,
            fh as f32,
            pixels.as_ref(),
            None,
            &look,
        );
    }

    /// A component node: its referenced component at the node's size, with the pages
    /// and titles the instance sets.
    #[allow(clippy::too_many_arguments)]
    fn instance(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        node: &DisplayNode,
        reference: &ResourceRef,
        placed: &Placed,
        n: &ofgui_contracts::uam::ComponentNode,
        icon_property: Option<String>,
    ) {
        let mut own = Overrides::default();
        match &n.instance_properties {
            Some(InstanceProperties::Button {
                title,
                selected_title,
                icon,
                selected_icon,
                title_color,
                title_font_size,
                ..
            }) => {
                let shown = |normal, on| selected_or(placed.selected, normal, on);
                own = Overrides::titled(
                    shown(title, selected_title),
                    shown(icon, selected_icon),
                    title_color,
                    title_font_size.get(),
                );
            }
            Some(InstanceProperties::Label {
                title,
                icon,
                title_color,
                title_font_size,
                ..
            }) => own = Overrides::titled(title, icon, title_color, title_font_size.get()),
            Some(InstanceProperties::ComboBox {
                title,
                icon,
                title_color,
                ..
            }) => own = Overrides::titled(title, icon, title_color, 0.0),
            Some(InstanceProperties::ProgressBar {
                value, max, min, ..
            })
            | Some(InstanceProperties::Slider { value, max, min }) => {
                own.progress = Some(progress::Value {
                    value: value.get(),
                    min: min.get(),
                    max: max.get(),
                });
            }
            _ => {}
        }
        if let Some(text) = placed.text.clone() {
            own.title = Some(text);
        }
        if let Some(icon) = placed.icon.clone().or(icon_property) {
            own.icon = Some(icon);
        }
        if let Some(size) = placed.font_size {
            own.title_font_size = Some(size);
        }
        if let Some(colour) = placed.color.clone() {
            own.title_color = Some(colour);
        }
        for property in n.property_overrides.iter().flatten() {
            own.properties
                .entry(property.target.clone())
                .or_default()
                .push((property.property_id, property.value.clone()));
        }
        let start = Start {
            controllers: n.controller_overrides.as_deref().unwrap_or_default(),
            selected: placed.selected,
            grayed: placed.grayed,
        };
        self.nested(
            canvas,
            frame,
            node.kind(),
            reference,
            placed.width,
            placed.height,
            &start,
            &own,
        );
    }

    /// The component `reference` names (owner-relative to `package_id`), with its package.
    fn component_of(
        &self,
        reference: &ResourceRef,
        package_id: &str,
    ) -> Option<(&'a str, &'a ComponentResource)> {
        let package_id = reference
            .package_id
            .as_deref()
            .filter(|id| !id.is_empty())
            .unwrap_or(package_id);
        let package_id = self.urls.package(package_id)?.id.as_str();
        match self.urls.resource(package_id, &reference.resource_id)? {
            UamResource::Component(component) => Some((package_id, component)),
            _ => None,
        }
    }

    /// Whether a grayed node shows grey by its component's own page, not by a filter.
    fn grays_by_page(&self, node: &DisplayNode, package_id: &str) -> bool {
        let DisplayNode::Component(n) = node else {
            return false;
        };
        self.component_of(&n.resource, package_id)
            .is_some_and(|(_, component)| pages::grays_by_page(&component.component))
    }

    /// Draws the component `reference` names in a `w`×`h` box of `frame`.
    #[allow(clippy::too_many_arguments)]
    fn nested(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        kind: &str,
        reference: &ResourceRef,
        w: f32,
        h: f32,
        start: &Start,
        overrides: &Overrides,
    ) {
        let Some((package_id, component)) = self.component_of(reference, frame.package_id) else {
            self.placeholder(
                canvas,
                frame,
                w,
                h,
                kind,
                &format!(
                    "its component {} is not in the project: drawn as a placeholder box",
                    reference.resource_id
                ),
            );
            return;
        };
        self.nested_component(
            canvas, frame, kind, package_id, component, w, h, start, overrides,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn nested_component(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        kind: &str,
        package_id: &'a str,
        component: &'a ComponentResource,
        w: f32,
        h: f32,
        start: &Start,
        overrides: &Overrides,
    ) {
        if frame.depth >= RENDER_MAX_DEPTH {
            self.placeholder(canvas, frame, w, h, kind, &format!("component {} is nested more than {RENDER_MAX_DEPTH} deep: drawn as a placeholder box", component.name));
            return;
        }
        let model = &component.component;
        let pages = Pages::instance(model, start);
        let mut inner = Overrides {
            properties: overrides.properties.clone(),
            ..Overrides::default()
        };
        inner.title = overrides.title.clone();
        inner.icon = overrides.icon.clone();
        inner.title_color = overrides.title_color.clone();
        inner.title_font_size = overrides.title_font_size;
        inner.progress = overrides.progress;
        let child = Frame {
            transform: frame.transform,
            alpha: frame.alpha,
            depth: frame.depth + 1,
            package_id,
            path: frame.path.clone(),
        };
        self.component(canvas, &child, model, w, h, &pages, &inner, true);
    }

    /// A list's items (their default item, or each item's own url), laid out as the
    /// list's layout places them, clipped to the list.
    fn list(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        list: &ListProperties,
        w: f32,
        h: f32,
        kind: &str,
    ) {
        if list.list_items.is_empty() {
            return;
        }
        let margin = &list.margin;
        let (left, top) = (margin.left.get() as f32, margin.top.get() as f32);
        let view_w = w - left - margin.right.get() as f32;
        let view_h = h - top - margin.bottom.get() as f32;
        let line_gap = list.line_gap.get() as f32;
        let column_gap = list.column_gap.get() as f32;
        if list.layout == 4 {
            self.approximate(
                &frame.path,
                kind,
                "a paged list is drawn as a horizontal flow",
            );
        }
        let body = |painter: &mut Painter<'a>, canvas: &mut PixmapMut, frame: &Frame| {
            let (mut x, mut y) = (0.0f32, 0.0f32);
            let mut line_extent = 0.0f32;
            let mut in_line = 0;
            for (index, item) in list.list_items.iter().enumerate() {
                let url = item
                    .url
                    .clone()
                    .filter(|u| !u.is_empty())
                    .unwrap_or_else(|| list.default_item.clone());
                let Some((package_id, UamResource::Component(component))) =
                    painter.urls.locate(&url)
                else {
                    painter.approximate(
                        &format!("{}#{index}", frame.path),
                        kind,
                        format!("item {index} names no component ({url:?}): not drawn"),
                    );
                    continue;
                };
                let size = &component.component.size;
                let (mut iw, mut ih) = (size.width.get() as f32, size.height.get() as f32);
                if list.auto_resize_item {
                    match list.layout {
                        0 => iw = view_w,
                        1 => ih = view_h,
                        _ => {}
                    }
                }
                // A flow wraps at its line's item count, or else at the view's edge.
                let flow = match list.layout {
                    0 | 1 => None,
                    3 => Some((list.line_count.get() as i32, y + ih, view_h)),
                    _ => Some((list.column_count.get() as i32, x + iw, view_w)),
                };
                if let Some((count, reach, view)) = flow
                    && in_line > 0
                    && ((count > 0 && in_line >= count) || (count <= 0 && reach > view))
                {
                    if list.layout == 3 {
                        x += line_extent + column_gap;
                        y = 0.0;
                    } else {
                        y += line_extent + line_gap;
                        x = 0.0;
                    }
                    line_extent = 0.0;
                    in_line = 0;
                }
                if x < view_w && y < view_h {
                    let item_frame = Frame {
                        transform: frame.transform.pre_translate(left + x, top + y),
                        alpha: frame.alpha,
                        depth: frame.depth,
                        package_id: frame.package_id,
                        path: format!("{}#{index}", frame.path),
                    };
                    let overrides = item_overrides(item);
                    let start = Start {
                        controllers: item.controllers.as_deref().unwrap_or_default(),
                        ..Start::default()
                    };
                    painter.nested_component(
                        canvas,
                        &item_frame,
                        "component",
                        package_id,
                        component,
                        iw,
                        ih,
                        &start,
                        &overrides,
                    );
                }
                in_line += 1;
                match list.layout {
                    0 => y += ih + line_gap,
                    1 => x += iw + column_gap,
                    3 => {
                        y += ih + line_gap;
                        line_extent = line_extent.max(iw);
                    }
                    _ => {
                        x += iw + column_gap;
                        line_extent = line_extent.max(ih);
                    }
                }
                if (list.layout == 0 && y > view_h) || (list.layout == 1 && x > view_w) {
                    break;
                }
            }
        };
        layer(canvas, frame.transform, w, h, Layer::Clip, |canvas, at| {
            body(self, canvas, &frame.moved(at))
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn loader(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        props: &ofgui_contracts::uam::LoaderProperties,
        url: &str,
        w: f32,
        h: f32,
        tint: &str,
    ) {
        if url.is_empty() {
            return;
        }
        let Some((package_id, resource)) = self.urls.locate(url) else {
            let reason = if url.starts_with("ui://") {
                format!("its url {url} names nothing in the project")
            } else {
                format!("its url {url} is outside the project (loaded at run time)")
            };
            self.placeholder(
                canvas,
                frame,
                w,
                h,
                "loader",
                &format!("{reason}: drawn as a placeholder box"),
            );
            return;
        };
        let (cw, ch) = match resource {
            UamResource::Image(image) => image
                .dimensions
                .as_ref()
                .map(|d| (d.width.get() as f32, d.height.get() as f32))
                .unwrap_or((w, h)),
            UamResource::MovieClip(clip) => (
                clip.dimensions.width.get() as f32,
                clip.dimensions.height.get() as f32,
            ),
            UamResource::Component(c) => (
                c.component.size.width.get() as f32,
                c.component.size.height.get() as f32,
            ),
            other => {
                self.placeholder(
                    canvas,
                    frame,
                    w,
                    h,
                    "loader",
                    &format!(
                        "it shows a {}, which a preview cannot draw: drawn as a placeholder box",
                        other.kind()
                    ),
                );
                return;
            }
        };
        let (sx, sy) = fit(props.fill, props.shrink_only, cw, ch, w, h);
        let (dw, dh) = (cw * sx, ch * sy);
        let x = match props.align {
            1 => (w - dw) / 2.0,
            2 => w - dw,
            _ => 0.0,
        };
        let y = match props.v_align {
            1 => (h - dh) / 2.0,
            2 => h - dh,
            _ => 0.0,
        };
        let content = Frame {
            transform: frame.transform.pre_translate(x, y),
            alpha: frame.alpha,
            depth: frame.depth,
            package_id,
            path: frame.path.clone(),
        };
        let fill = Fill {
            method: props.fill_method,
            origin: props.fill_origin,
            clockwise: props.fill_clockwise,
            amount: props.fill_amount.get() as f32,
        };
        match resource {
            UamResource::Image(image) => {
                let reference = ResourceRef {
                    package_id: Some(package_id.to_owned()),
                    resource_id: image.base.id.clone(),
                };
                self.image(canvas, &content, &reference, dw, dh, tint, 0, fill);
            }
            UamResource::MovieClip(clip) => {
                let reference = ResourceRef {
                    package_id: Some(package_id.to_owned()),
                    resource_id: clip.base.id.clone(),
                };
                let frame_index = props.frame.get().max(0.0) as usize;
                self.movie_clip(canvas, &content, &reference, dw, dh, tint, frame_index);
            }
            UamResource::Component(component) => {
                self.nested_component(
                    canvas,
                    &content,
                    "loader",
                    package_id,
                    component,
                    dw,
                    dh,
                    &Start::default(),
                    &Overrides::default(),
                );
            }
            _ => {}
        }
    }

    /// A labelled box where something cannot be drawn, listed with why.
    fn placeholder(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        w: f32,
        h: f32,
        kind: &str,
        reason: &str,
    ) {
        self.approximate(&frame.path, kind, reason);
        let (w, h) = (w.max(8.0), h.max(8.0));
        let shape = Shape {
            kind: 1,
            fill: Color::from_rgba8(128, 128, 128, 72),
            line: Color::from_rgba8(96, 96, 96, 200),
            line_size: 1.0,
            corner_radius: None,
            points: None,
            sides: 0,
            start_angle: 0.0,
            distances: None,
        };
        shape::draw(canvas, frame.transform, w, h, &shape, frame.alpha);
        let style = TextStyle {
            size: 10.0,
            color: color::with_alpha(Color::from_rgba8(48, 48, 48, 255), frame.alpha),
            align: 1,
            v_align: 1,
            leading: 0.0,
            ..TextStyle::default()
        };
        if let Some(face) = Face::bundled() {
            text::draw(
                canvas,
                frame.transform,
                w,
                h,
                kind,
                &style,
                &face,
                &mut self.glyphs,
            );
        }
    }
}

/// Which markup a text node's text carries.
#[derive(Clone, Copy)]
struct Markup {
    ubb: bool,
    html: bool,
}

/// `picture` with its alpha multiplied by `alpha` (an inline image of a faded node).
fn fade(picture: Rc<Pixmap>, alpha: f32) -> Rc<Pixmap> {
    if alpha >= 1.0 {
        return picture;
    }
    let mut out = (*picture).clone();
    let Some(rect) = Rect::from_xywh(0.0, 0.0, out.width() as f32, out.height() as f32) else {
        return picture;
    };
    let mut paint = Paint::default();
    paint.set_color(Color::from_rgba(0.0, 0.0, 0.0, alpha.clamp(0.0, 1.0)).unwrap_or(Color::BLACK));
    // Keeps each pixel, scaled by the paint's alpha.
    paint.blend_mode = tiny_skia::BlendMode::DestinationIn;
    out.fill_rect(rect, &paint, Transform::identity(), None);
    Rc::new(out)
}

/// A flat control's `src` and package as a reference.
fn flat_reference(src: &str, package_id: &str) -> ResourceRef {
    ResourceRef {
        package_id: Some(package_id.to_owned()).filter(|p| !p.is_empty()),
        resource_id: src.to_owned(),
    }
}

fn item_overrides(item: &ListItem) -> Overrides {
    let mut overrides = Overrides {
        title: item.title.clone().filter(|t| !t.is_empty()),
        icon: item.icon.clone().filter(|t| !t.is_empty()),
        ..Overrides::default()
    };
    for property in item.property_overrides.iter().flatten() {
        overrides
            .properties
            .entry(property.target.clone())
            .or_default()
            .push((property.property_id, property.value.clone()));
    }
    overrides
}

/// The child an owner's title goes to: the one named `title`.
fn is_title(base: &NodeBase, overrides: &Overrides) -> bool {
    base.name == "title" && (overrides.title.is_some() || overrides.title_color.is_some())
}

/// The child an owner's icon goes to: the one named `icon`.
fn is_icon(base: &NodeBase, overrides: &Overrides) -> bool {
    base.name == "icon" && overrides.icon.is_some()
}

/// The scale a loader gives its content for a fill mode (FairyGUI `FillType`).
fn fit(fill: i32, shrink_only: bool, cw: f32, ch: f32, w: f32, h: f32) -> (f32, f32) {
    if cw <= 0.0 || ch <= 0.0 {
        return (1.0, 1.0);
    }
    let (rx, ry) = (w / cw, h / ch);
    let (mut sx, mut sy) = match fill {
        1 => (rx.min(ry), rx.min(ry)),
        2 => (ry, ry),
        3 => (rx, rx),
        4 => (rx, ry),
        5 => (rx.max(ry), rx.max(ry)),
        _ => (1.0, 1.0),
    };
    if shrink_only {
        sx = sx.min(1.0);
        sy = sy.min(1.0);
    }
    (sx, sy)
}

/// Whether a node's display gears show it at these pages (`display2` joins `display` by
/// its condition: 0 and, 1 or).
fn displayed(base: &NodeBase, pages: &Pages) -> bool {
    let mut display = None;
    let mut display2 = None;
    for gear in &base.gears {
        let (slot, g) = match gear {
            Gear::Display(g) => (&mut display, g),
            Gear::Display2(g) => (&mut display2, g),
            _ => continue,
        };
        if let Some(page) = pages.page(&g.controller_name) {
            *slot = Some((
                g.visible_on_page_ids.iter().any(|p| p == page),
                g.condition.clone(),
            ));
        }
    }
    match (display, display2) {
        (None, None) => true,
        (Some((one, _)), None) => one,
        (None, Some((two, _))) => two,
        (Some((one, _)), Some((two, condition))) => {
            if condition.as_deref() == Some("1") {
                one || two
            } else {
                one && two
            }
        }
    }
}

/// A value gear's value at the page its controller shows: the page's, else the gear's
/// default; `None` when neither is set (the node keeps its own value).
fn gear_value<'v>(gear: &'v Gear, pages: &Pages, controllers: &[Controller]) -> Option<&'v Value> {
    let GearBinding::Value(g) = gear.binding() else {
        return None;
    };
    let page = pages.page(&g.controller_name)?;
    if let Some(value) = g
        .states
        .iter()
        .find(|s| s.page_id == page)
        .and_then(|s| s.value.as_ref())
    {
        return Some(value);
    }
    let controller = controllers.iter().find(|c| c.name == g.controller_name);
    has_default(gear.kind(), g, controller).then_some(&g.default_value)
}

fn number(value: &Value, key: &str) -> Option<f32> {
    value.get(key).and_then(Value::as_f64).map(|n| n as f32)
}

/// A selected button's selected title or icon, when it has one.
fn selected_or<'t>(selected: bool, normal: &'t str, on: &'t str) -> &'t str {
    if selected && !on.is_empty() {
        on
    } else {
        normal
    }
}

/// A button instance's selection: its related controller's page when it names one (the
/// runtime applies that after `checked`), else `checked`.
fn button_selected(node: &DisplayNode, pages: &Pages) -> bool {
    let DisplayNode::Component(n) = node else {
        return false;
    };
    let Some(InstanceProperties::Button {
        controller,
        page,
        checked,
        ..
    }) = &n.instance_properties
    else {
        return false;
    };
    match pages.page(controller) {
        Some(shown) if !controller.is_empty() => shown == page,
        _ => *checked,
    }
}

/// A node's geometry and look at these pages.
fn placed(base: &NodeBase, pages: &Pages, controllers: &[Controller]) -> Placed {
    let mut placed = Placed {
        x: base.position.x.get() as f32,
        y: base.position.y.get() as f32,
        width: base.size.width.get() as f32,
        height: base.size.height.get() as f32,
        scale_x: base.scale.x.get() as f32,
        scale_y: base.scale.y.get() as f32,
        alpha: base.alpha.get().clamp(0.0, 1.0) as f32,
        rotation: base.rotation.get() as f32,
        grayed: base.grayed,
        selected: false,
        fill_amount: None,
        color: None,
        text: None,
        icon: None,
        font_size: None,
    };
    for gear in &base.gears {
        let Some(value) = gear_value(gear, pages, controllers) else {
            continue;
        };
        match gear {
            Gear::Xy(_) => {
                placed.x = number(value, "x").unwrap_or(placed.x);
                placed.y = number(value, "y").unwrap_or(placed.y);
            }
            Gear::Size(_) => {
                placed.width = number(value, "width").unwrap_or(placed.width);
                placed.height = number(value, "height").unwrap_or(placed.height);
                placed.scale_x = number(value, "scaleX").unwrap_or(placed.scale_x);
                placed.scale_y = number(value, "scaleY").unwrap_or(placed.scale_y);
            }
            Gear::Look(_) => {
                placed.alpha = number(value, "alpha")
                    .unwrap_or(placed.alpha)
                    .clamp(0.0, 1.0);
                placed.rotation = number(value, "rotation").unwrap_or(placed.rotation);
                placed.grayed = value
                    .get("grayed")
                    .and_then(Value::as_bool)
                    .unwrap_or(placed.grayed);
            }
            Gear::Color(_) => {
                placed.color = value
                    .get("color")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
            Gear::Text(_) => {
                placed.text = value.get("text").and_then(Value::as_str).map(str::to_owned);
            }
            Gear::Icon(_) => {
                placed.icon = value.get("icon").and_then(Value::as_str).map(str::to_owned);
            }
            Gear::FontSize(_) => {
                placed.font_size = value.get("fontSize").and_then(Value::as_f64);
            }
            Gear::Animation(_) | Gear::Display(_) | Gear::Display2(_) => {}
        }
    }
    placed
}

/// Moves and resizes a node by its relations to a parent drawn at `width`×`height`
/// instead of its design size (relations to siblings keep the node where it is).
fn relate(
    placed: &mut Placed,
    relations: &[Relation],
    design_w: f32,
    design_h: f32,
    width: f32,
    height: f32,
) {
    let (dw, dh) = (width - design_w, height - design_h);
    let (rx, ry) = (
        if design_w > 0.0 {
            width / design_w
        } else {
            1.0
        },
        if design_h > 0.0 {
            height / design_h
        } else {
            1.0
        },
    );
    for relation in relations.iter().filter(|r| r.target_node_id.is_empty()) {
        let percent = relation.use_percent;
        let (x, w, y, h) = (placed.x, placed.width, placed.y, placed.height);
        match relation.relation_type {
            0 | 4 if percent => placed.x = x * rx,
            1 | 3 | 5 => placed.x = if percent { x * rx } else { x + dw / 2.0 },
            2 | 6 => placed.x = if percent { x * rx } else { x + dw },
            7 | 11 if percent => placed.y = y * ry,
            8 | 10 | 12 => placed.y = if percent { y * ry } else { y + dh / 2.0 },
            9 | 13 => placed.y = if percent { y * ry } else { y + dh },
            14 => placed.width = if percent { w * rx } else { w + dw },
            15 => placed.height = if percent { h * ry } else { h + dh },
            24 => {
                placed.width = if percent { w * rx } else { w + dw };
                placed.height = if percent { h * ry } else { h + dh };
            }
            // LeftExt_Right / TopExt_Bottom: the near edge follows, the far edge stays.
            17 => {
                placed.x = x + dw;
                placed.width = w - dw;
            }
            21 => {
                placed.y = y + dh;
                placed.height = h - dh;
            }
            // RightExt_Right / BottomExt_Bottom: the far edge follows.
            19 => placed.width = if percent { w * rx } else { w + dw },
            23 => placed.height = if percent { h * ry } else { h + dh },
            _ => {}
        }
    }
}

/// A node's box in its parent's units: position (or anchor), then rotation, skew and
/// scale about the pivot.
fn local_transform(base: &NodeBase, placed: &Placed) -> Transform {
    let pivot = base
        .pivot
        .as_ref()
        .map_or((0.0, 0.0), |p| (p.x.get() as f32, p.y.get() as f32));
    let (px, py) = (pivot.0 * placed.width, pivot.1 * placed.height);
    let anchor = base.pivot_as_anchor.unwrap_or(false);
    let (x, y) = if anchor {
        (placed.x - px, placed.y - py)
    } else {
        (placed.x, placed.y)
    };
    let mut t = Transform::from_translate(x, y);
    let (kx, ky) = (base.skew.x.get() as f32, base.skew.y.get() as f32);
    let turned = placed.rotation != 0.0 || kx != 0.0 || ky != 0.0;
    let scaled = placed.scale_x != 1.0 || placed.scale_y != 1.0;
    if turned || scaled {
        t = t.pre_translate(px, py);
        if placed.rotation != 0.0 {
            t = t.pre_concat(Transform::from_rotate(placed.rotation));
        }
        if kx != 0.0 || ky != 0.0 {
            // Skew turns the axes, as in Flash and FairyGUI-unity's `SkewMatrix`: the x axis
            // by skewY, the y axis by skewX (not a shear by their tangents, which is flat at
            // 60°/30°).
            let (kx, ky) = (kx.to_radians(), ky.to_radians());
            t = t.pre_concat(Transform::from_row(
                ky.cos(),
                ky.sin(),
                -kx.sin(),
                kx.cos(),
                0.0,
                0.0,
            ));
        }
        t = t
            .pre_scale(placed.scale_x, placed.scale_y)
            .pre_translate(-px, -py);
    }
    t
}

fn fill_rect(
    canvas: &mut PixmapMut,
    transform: Transform,
    w: f32,
    h: f32,
    colour: Color,
    alpha: f32,
) {
    let Some(rect) = Rect::from_xywh(0.0, 0.0, w, h) else {
        return;
    };
    let mut paint = Paint::default();
    paint.set_color(color::with_alpha(colour, alpha));
    paint.anti_alias = false;
    canvas.fill_rect(rect, &paint, transform, None);
}

/// The canvas pixels a `w`×`h` box under `transform` covers, clamped to the canvas.
fn covered(canvas: &PixmapMut, transform: Transform, w: f32, h: f32) -> Option<IntRect> {
    let mut corners = [
        tiny_skia::Point::from_xy(0.0, 0.0),
        tiny_skia::Point::from_xy(w, 0.0),
        tiny_skia::Point::from_xy(0.0, h),
        tiny_skia::Point::from_xy(w, h),
    ];
    transform.map_points(&mut corners);
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for p in corners {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    let x0 = x0.floor().max(0.0);
    let y0 = y0.floor().max(0.0);
    let x1 = x1.ceil().min(canvas.width() as f32);
    let y1 = y1.ceil().min(canvas.height() as f32);
    if !(x1 > x0 && y1 > y0) {
        return None;
    }
    IntRect::from_xywh(x0 as i32, y0 as i32, (x1 - x0) as u32, (y1 - y0) as u32)
}

/// How a layer is composited back.
#[derive(Clone, Copy, PartialEq)]
enum Layer {
    /// Everything outside the box is cut away (overflow hidden, lists).
    Clip,
    /// The layer is made grey (a grayed node); it may draw a little past its box.
    Grey,
}

/// Draws into an offscreen window of the canvas over the box, then composites it back
/// clipped or grey. `draw` gets the window and `transform` moved into it.
fn layer(
    canvas: &mut PixmapMut,
    transform: Transform,
    w: f32,
    h: f32,
    kind: Layer,
    draw: impl FnOnce(&mut PixmapMut, Transform),
) {
    let area = match kind {
        Layer::Clip => covered(canvas, transform, w, h),
        // Children and text of a grayed node may reach past its box.
        Layer::Grey => {
            let margin = 64.0;
            let grown = transform.pre_translate(-margin, -margin);
            covered(canvas, grown, w + 2.0 * margin, h + 2.0 * margin)
        }
    };
    let Some(area) = area else {
        return;
    };
    let Some(mut window) = Pixmap::new(area.width(), area.height()) else {
        return;
    };
    let shifted = transform.post_translate(-(area.x() as f32), -(area.y() as f32));
    draw(&mut window.as_mut(), shifted);
    match kind {
        Layer::Grey => {
            for pixel in window.pixels_mut() {
                // Luminance of premultiplied channels stays premultiplied.
                let (r, g, b, a) = (pixel.red(), pixel.green(), pixel.blue(), pixel.alpha());
                let grey =
                    ((u32::from(r) * 77 + u32::from(g) * 150 + u32::from(b) * 29) >> 8) as u8;
                if let Some(c) = tiny_skia::PremultipliedColorU8::from_rgba(
                    grey.min(a),
                    grey.min(a),
                    grey.min(a),
                    a,
                ) {
                    *pixel = c;
                }
            }
        }
        Layer::Clip => {
            // The window already cuts an axis-aligned box; a turned one needs its shape.
            let turned = transform.kx != 0.0 || transform.ky != 0.0;
            if turned
                && let Some(rect) = Rect::from_xywh(0.0, 0.0, w, h)
                && let Some(mut mask) = Mask::new(area.width(), area.height())
            {
                let path = PathBuilder::from_rect(rect);
                mask.fill_path(&path, FillRule::Winding, true, shifted);
                window.apply_mask(&mask);
            }
        }
    }
    canvas.draw_pixmap(
        area.x(),
        area.y(),
        window.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
}
