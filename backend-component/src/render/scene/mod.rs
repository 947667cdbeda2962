//! The scene painter: walks a component's display list as the runtime lays it out (gears
//! at the chosen controller pages, relations to a resized parent, nested components,
//! lists, loaders) and draws each node with the room that knows its look.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use ofgui_contracts::api::RenderApproximation;
use ofgui_contracts::uam::{ComponentModel, DisplayNode, NodeBase, Relation};
use serde_json::Value;
use tiny_skia::{Color, Pixmap, PixmapMut, Transform};

use super::font::Face;
use super::image::Fill;
use super::pages::{Pages, Start};
use super::progress::{self, BarBox, Progress};
use super::shape::{self, Shape};
use super::text::GlyphCache;
use super::{Files, Request, TextFit, color};
use crate::lookup::urls::Urls;

mod instances;
mod layout;
mod pictures;
mod texts;

use self::layout::{
    Layer, Markup, button_selected, displayed, fill_rect, flat_reference, is_icon, layer,
    local_transform, placed, relate,
};

/// The FairyGUI runtime's default font (`UIConfig.defaultFont`): a game draws text with
/// no font in it, and previews draw a family no granted face has in it too.
const RUNTIME_DEFAULT_FONT: &str = "Arial";

/// Draws the request's component onto `canvas`; returns what it approximated and how
/// each text fit its box.
pub fn paint(
    request: &Request,
    canvas: &mut PixmapMut,
) -> (Vec<RenderApproximation>, Vec<TextFit>) {
    let mut painter = Painter {
        urls: Urls::new(request.project),
        files: request.files,
        images: HashMap::new(),
        faces: HashMap::new(),
        substitutes: BTreeMap::new(),
        glyphs: GlyphCache::default(),
        approximations: Vec::new(),
        texts: Vec::new(),
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
        shift: (0.0, 0.0),
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
    (painter.approximations, painter.texts)
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
    /// Where a layer being drawn into sits on the canvas (none: 0, 0).
    shift: (f32, f32),
}

impl<'a> Frame<'a> {
    /// The same frame drawn through another transform.
    fn moved(&self, transform: Transform) -> Frame<'a> {
        Frame {
            transform,
            alpha: self.alpha,
            depth: self.depth,
            package_id: self.package_id,
            path: self.path.clone(),
            shift: self.shift,
        }
    }

    /// The same frame drawn into a layer through `at`, the layer's view of `from`.
    fn in_layer(&self, from: Transform, at: Transform) -> Frame<'a> {
        Frame {
            shift: (
                self.shift.0 + from.tx - at.tx,
                self.shift.1 + from.ty - at.ty,
            ),
            ..self.moved(at)
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
    texts: Vec<TextFit>,
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
                |canvas, at| draw(self, canvas, &frame.in_layer(content, at)),
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
            shift: parent.shift,
        };
        if placed.grayed && !self.grays_by_page(node, parent.package_id) {
            let (w, h) = (placed.width, placed.height);
            layer(canvas, frame.transform, w, h, Layer::Grey, |canvas, at| {
                self.node_look(
                    canvas,
                    &frame.in_layer(frame.transform, at),
                    node,
                    placed,
                    overrides,
                );
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
}
