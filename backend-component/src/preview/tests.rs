//! Pixel tests of whole renders: crafted projects read as the session reads them, drawn
//! through `renderComponent`, checked pixel by pixel.

use ofgui_contracts::api::{ComponentSelector, RenderComponentData, RenderComponentInput};
use tiny_skia::{Color, Pixmap};

use crate::preview::render_component;
use crate::session::{Names, Session};
use crate::testing::MemFs;

const FAIRY: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<projectDescription id="t0" type="Unity" version="3.0"/>"#;

/// A 30×30 PNG: red 10×10 corners, green edges, blue centre (a 9-grid source).
fn nine_grid_png() -> Vec<u8> {
    let mut source = Pixmap::new(30, 30).expect("pixmap");
    for y in 0..30u32 {
        for x in 0..30u32 {
            let edge_x = !(10..20).contains(&x);
            let edge_y = !(10..20).contains(&y);
            let c = match (edge_x, edge_y) {
                (true, true) => Color::from_rgba8(255, 0, 0, 255),
                (false, false) => Color::from_rgba8(0, 0, 255, 255),
                _ => Color::from_rgba8(0, 255, 0, 255),
            };
            let i = (y * 30 + x) as usize;
            source.pixels_mut()[i] = c.premultiply().to_color_u8();
        }
    }
    source.encode_png().expect("png")
}

/// A project with one package `p0` whose component `c0` holds `display_list`.
fn project(size: &str, controllers: &str, display_list: &str, extra: &[(&str, &str)]) -> Session {
    let mut resources = String::from(
        r#"<component id="c0" name="C.xml" path="/"/><image id="i0" name="grid.png" path="/" scale="9grid" scale9grid="10,10,10,10"/>"#,
    );
    let mut fs = MemFs::default()
        .with("T.fairy", FAIRY)
        .with("assets/P/grid.png", nine_grid_png())
        .with(
            "assets/P/C.xml",
            format!(
                r#"<?xml version="1.0" encoding="utf-8"?><component size="{size}">{controllers}<displayList>{display_list}</displayList></component>"#
            ),
        );
    for (name, xml) in extra {
        resources.push_str(&format!(
            r#"<component id="{}" name="{name}.xml" path="/"/>"#,
            name.to_lowercase()
        ));
        fs = fs.with(&format!("assets/P/{name}.xml"), xml);
    }
    let fs = fs.with(
        "assets/P/package.xml",
        format!(
            r#"<?xml version="1.0" encoding="utf-8"?><packageDescription id="p0"><resources>{resources}</resources><publish name=""/></packageDescription>"#
        ),
    );
    Session::open(&fs, Names::session("s"), "T.fairy", 0).expect("the fixture opens")
}

fn input(pages: &[(&str, &str)]) -> RenderComponentInput {
    RenderComponentInput {
        session_id: "s".into(),
        selector: ComponentSelector {
            package_id: "p0".into(),
            component_resource_id: "c0".into(),
        },
        controller_pages: (!pages.is_empty()).then(|| {
            pages
                .iter()
                .map(|(c, p)| ((*c).to_owned(), (*p).to_owned()))
                .collect()
        }),
        scale: None,
        background: None,
        expected_revision: None,
        preview_operations: None,
        preview_history: None,
        preview_batch: None,
        strings: None,
        strings_file: None,
        compare_strings: None,
    }
}

fn draw(session: &Session, input: &RenderComponentInput) -> (Pixmap, RenderComponentData) {
    let preview = render_component(session, input).expect("renders");
    let data: RenderComponentData = serde_json::from_str(&preview.data).expect("data");
    (Pixmap::decode_png(&preview.png).expect("a PNG"), data)
}

/// `(r, g, b, a)` of a pixel, unpremultiplied.
fn at(pixmap: &Pixmap, x: u32, y: u32) -> (u8, u8, u8, u8) {
    let c = pixmap.pixel(x, y).expect("inside").demultiply();
    (c.red(), c.green(), c.blue(), c.alpha())
}

const RED: (u8, u8, u8, u8) = (255, 0, 0, 255);
const CLEAR: (u8, u8, u8, u8) = (0, 0, 0, 0);

fn rect(id: &str, xy: &str, size: &str, more: &str, children: &str) -> String {
    format!(
        r##"<graph id="{id}" name="{id}" xy="{xy}" size="{size}" type="rect" lineSize="0" fillColor="#ff0000" {more}>{children}</graph>"##
    )
}

#[test]
fn a_rect_graph_has_its_colour_at_its_place() {
    let session = project("100,80", "", &rect("n0", "10,20", "30,10", "", ""), &[]);
    let (pixmap, data) = draw(&session, &input(&[]));
    assert_eq!((pixmap.width(), pixmap.height()), (100, 80));
    assert_eq!((data.pixel_width, data.pixel_height), (100, 80));
    assert_eq!(at(&pixmap, 10, 20), RED);
    assert_eq!(at(&pixmap, 39, 29), RED);
    assert_eq!(at(&pixmap, 9, 20), CLEAR);
    assert_eq!(at(&pixmap, 40, 25), CLEAR);
    assert_eq!(at(&pixmap, 20, 30), CLEAR);
    assert!(data.approximations.is_empty(), "{:?}", data.approximations);
}

#[test]
fn a_stretched_nine_grid_keeps_its_corners() {
    let image = r#"<image id="n0" name="n0" src="i0" xy="0,0" size="100,60"/>"#;
    let session = project("100,60", "", image, &[]);
    let (pixmap, _) = draw(&session, &input(&[]));
    for (x, y) in [
        (1, 1),
        (8, 8),
        (98, 1),
        (91, 8),
        (1, 58),
        (98, 58),
        (91, 51),
    ] {
        assert_eq!(at(&pixmap, x, y), RED, "corner pixel {x},{y}");
    }
    assert_eq!(
        at(&pixmap, 50, 30),
        (0, 0, 255, 255),
        "the centre stretches"
    );
    assert_eq!(
        at(&pixmap, 50, 3),
        (0, 255, 0, 255),
        "the top edge stretches"
    );
    assert_eq!(
        at(&pixmap, 5, 30),
        (0, 255, 0, 255),
        "the left edge stretches down"
    );
}

#[test]
fn stretched_nine_grids_have_no_seams_at_fractional_scales() {
    // Sizes and places like a real button row: cell edges land between pixels at these
    // scales, where rounding each cell on its own used to leave a clear column.
    let images: String = (0..5)
        .map(|i| {
            format!(
                r#"<image id="n{i}" name="n{i}" src="i0" xy="{},{}" size="{},69"/>"#,
                3 + 57 * i,
                2 + 3 * i,
                49 + 3 * i
            )
        })
        .collect();
    let session = project("300,90", "", &images, &[]);
    for scale in [0.5, 0.6, 1.5] {
        let mut request = input(&[]);
        request.scale = Some(scale);
        let (pixmap, _) = draw(&session, &request);
        let scale = scale as f32;
        for i in 0..5 {
            let (x, y, w) = ((3 + 57 * i) as f32, (2 + 3 * i) as f32, (49 + 3 * i) as f32);
            // Every pixel whose centre lies inside the image, one pixel in from its edge.
            let (left, right) = ((x * scale).ceil() as u32 + 1, ((x + w) * scale) as u32 - 1);
            let (top, bottom) = (
                (y * scale).ceil() as u32 + 1,
                ((y + 69.0) * scale) as u32 - 1,
            );
            for py in top..bottom {
                for px in left..right {
                    assert_eq!(
                        at(&pixmap, px, py).3,
                        255,
                        "image n{i} at scale {scale}: pixel {px},{py} shows through"
                    );
                }
            }
        }
    }
}

#[test]
fn a_controller_page_hides_a_gear_controlled_node() {
    let controllers = r#"<controller name="c" pages="0,off,1,on" selected="0"/>"#;
    let node = rect(
        "n0",
        "0,0",
        "20,20",
        "",
        r#"<gearDisplay controller="c" pages="1"/>"#,
    );
    let session = project("40,40", controllers, &node, &[]);
    let (off, data) = draw(&session, &input(&[]));
    assert_eq!(at(&off, 10, 10), CLEAR);
    assert_eq!(data.controller_pages[0].page_name, "off");
    let (on, data) = draw(&session, &input(&[("c", "on")]));
    assert_eq!(at(&on, 10, 10), RED);
    assert_eq!(data.controller_pages[0].page_id, "1");
}

#[test]
fn a_gear_moves_a_node_on_its_page() {
    let controllers = r#"<controller name="c" pages="0,a,1,b" selected="0"/>"#;
    let node = rect(
        "n0",
        "0,0",
        "10,10",
        "",
        r#"<gearXY controller="c" pages="1" values="30,30"/>"#,
    );
    let session = project("50,50", controllers, &node, &[]);
    let (a, _) = draw(&session, &input(&[]));
    assert_eq!(
        at(&a, 5, 5),
        RED,
        "no default: the node's own place elsewhere"
    );
    let (b, _) = draw(&session, &input(&[("c", "1")]));
    assert_eq!(at(&b, 5, 5), CLEAR);
    assert_eq!(at(&b, 35, 35), RED);
}

#[test]
fn alpha_and_rotation_are_applied() {
    let nodes = format!(
        "{}{}",
        rect("n0", "0,0", "10,10", r#"alpha="0.5""#, ""),
        rect("n1", "50,50", "40,10", r#"rotation="90""#, "")
    );
    let session = project("100,100", "", &nodes, &[]);
    let (pixmap, _) = draw(&session, &input(&[]));
    let (r, _, _, a) = at(&pixmap, 5, 5);
    assert_eq!(r, 255);
    assert!((120..=136).contains(&a), "half alpha, got {a}");
    // Turned 90° about its top-left, the bar runs down from (50,50), left of x = 50.
    assert_eq!(at(&pixmap, 45, 70), RED);
    assert_eq!(at(&pixmap, 70, 55), CLEAR);
}

#[test]
fn a_nested_component_follows_its_relations_at_the_instance_size() {
    let child = r##"<?xml version="1.0" encoding="utf-8"?><component size="20,20"><displayList><graph id="b0" name="bar" xy="0,0" size="20,20" type="rect" lineSize="0" fillColor="#ff0000"><relation target="" sidePair="width-width,height-height"/></graph></displayList></component>"##;
    let node = r#"<component id="n0" name="n0" src="child" xy="10,10" size="60,30"/>"#;
    let session = project("100,100", "", node, &[("Child", child)]);
    let (pixmap, data) = draw(&session, &input(&[]));
    assert_eq!(at(&pixmap, 12, 12), RED);
    assert_eq!(at(&pixmap, 68, 38), RED, "the bar grows with its parent");
    assert_eq!(at(&pixmap, 72, 42), CLEAR);
    assert!(data.approximations.is_empty(), "{:?}", data.approximations);
}

#[test]
fn what_cannot_be_drawn_is_a_listed_placeholder() {
    let nodes = r#"<loader3D id="n0" name="spine" xy="0,0" size="40,40" url="ui://p0zz"/><component id="n1" name="gone" src="nothing" xy="50,0" size="40,40"/>"#;
    let session = project("100,50", "", nodes, &[]);
    let (pixmap, data) = draw(&session, &input(&[]));
    assert_ne!(at(&pixmap, 20, 20).3, 0, "a placeholder box is drawn");
    let kinds: Vec<(&str, &str)> = data
        .approximations
        .iter()
        .map(|a| (a.node_path.as_str(), a.kind.as_str()))
        .collect();
    assert_eq!(kinds, [("n0", "loader3D"), ("n1", "component")]);
}

#[test]
fn a_component_that_contains_itself_stops_at_the_depth_limit() {
    let node = r#"<component id="n0" name="me" src="c0" xy="1,1" size="10,10"/>"#;
    let session = project("12,12", "", node, &[]);
    let (_, data) = draw(&session, &input(&[]));
    assert_eq!(data.approximations.len(), 1, "{:?}", data.approximations);
    assert!(data.approximations[0].reason.contains("nested more than 8"));
    assert_eq!(data.approximations[0].node_path.matches("n0").count(), 9);
}

#[test]
fn rich_text_draws_its_colours_and_inline_images() {
    // `i0` is the 30×30 9-grid source: red corners.
    let nodes = r##"<richtext id="n0" name="t" xy="0,0" size="200,50" fontSize="20" color="#000000" ubb="true" text="[color=#00ff00]WW[/color][img]ui://p0i0[/img]&lt;font color='#0000ff'&gt;WW&lt;/font&gt;[img]ui://p0zz[/img]"/><text id="n1" name="u" xy="0,60" size="200,30" fontSize="20" color="#000000" ubb="true" text="[color=#ff0000]WW[/color]"/>"##;
    let session = project("200,100", "", nodes, &[]);
    let (pixmap, data) = draw(&session, &input(&[]));
    let find = |keep: &dyn Fn((u8, u8, u8, u8)) -> bool, y0: u32, y1: u32| {
        (y0..y1).any(|y| (0..200).any(|x| keep(at(&pixmap, x, y))))
    };
    assert!(
        find(&|c| c.1 > 200 && c.0 < 50 && c.3 > 200, 0, 50),
        "green run"
    );
    assert!(
        find(&|c| c.2 > 200 && c.0 < 50 && c.3 > 200, 0, 50),
        "blue run"
    );
    // The image's red corner, just right of the green text.
    assert!(find(&|c| c == RED, 0, 50), "inline image");
    assert!(
        find(&|c| c.0 > 200 && c.1 < 50 && c.3 > 200, 60, 90),
        "UBB text field"
    );
    let reasons: Vec<&str> = data
        .approximations
        .iter()
        .map(|a| a.reason.as_str())
        .collect();
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(reasons[0].contains("1 inline image"), "{reasons:?}");
}

/// A 20×20 button whose red square shows on its `down` page only.
fn button(mode: &str, more_controllers: &str) -> String {
    format!(
        r##"<?xml version="1.0" encoding="utf-8"?><component size="20,20" extention="Button"><controller name="button" pages="0,up,1,down,2,disabled" selected="1"/>{more_controllers}<displayList><graph id="b0" name="b0" xy="0,0" size="20,20" type="rect" lineSize="0" fillColor="#ff0000"><gearDisplay controller="button" pages="1"/></graph><graph id="b1" name="b1" xy="0,0" size="20,20" type="rect" lineSize="0" fillColor="#0000ff"><gearDisplay controller="button" pages="2"/></graph></displayList><Button mode="{mode}"/></component>"##
    )
}

#[test]
fn controllers_start_at_their_home_page_not_the_editors_selection() {
    let node = |gear: &str| rect("n0", "0,0", "20,20", "", gear);
    let shown_on_on = node(r#"<gearDisplay controller="c" pages="1"/>"#);
    let selected = r#"<controller name="c" pages="0,off,1,on" selected="1"/>"#;
    let session = project("40,40", selected, &shown_on_on, &[]);
    let (pixmap, data) = draw(&session, &input(&[]));
    assert_eq!(
        at(&pixmap, 10, 10),
        CLEAR,
        "the game starts on the first page"
    );
    assert_eq!(data.controller_pages[0].page_name, "off");

    let home = r#"<controller name="c" pages="0,off,1,on" selected="0" homePageType="specific" homePage="1"/>"#;
    let session = project("40,40", home, &shown_on_on, &[]);
    let (pixmap, data) = draw(&session, &input(&[]));
    assert_eq!(
        at(&pixmap, 10, 10),
        RED,
        "a specific home page is where it starts"
    );
    assert_eq!(data.controller_pages[0].page_name, "on");
}

#[test]
fn a_button_starts_up_and_a_checked_one_shows_down() {
    let plain = button("Common", "");
    let check = button("Check", "");
    let nodes = r#"<component id="n0" name="n0" src="plain" xy="0,0" size="20,20"><Button checked="true"/></component><component id="n1" name="n1" src="check" xy="30,0" size="20,20"/><component id="n2" name="n2" src="check" xy="60,0" size="20,20"><Button checked="true"/></component>"#;
    let session = project(
        "80,20",
        "",
        nodes,
        &[("Plain", plain.as_str()), ("Check", check.as_str())],
    );
    let (pixmap, _) = draw(&session, &input(&[]));
    assert_eq!(
        at(&pixmap, 10, 10),
        CLEAR,
        "a plain button starts up and ignores checked"
    );
    assert_eq!(
        at(&pixmap, 40, 10),
        CLEAR,
        "an unchecked check button is up"
    );
    assert_eq!(at(&pixmap, 70, 10), RED, "a checked check button is down");
}

#[test]
fn a_radio_button_follows_its_related_controller() {
    let radio = button("Radio", "");
    let controllers = r#"<controller name="tabs" pages="0,a,1,b" selected="1"/>"#;
    let nodes = r#"<component id="n0" name="n0" src="radio" xy="0,0" size="20,20"><Button controller="tabs" page="1"/></component><component id="n1" name="n1" src="radio" xy="30,0" size="20,20"><Button controller="tabs" page="0"/></component>"#;
    let session = project("50,20", controllers, nodes, &[("Radio", radio.as_str())]);
    let (pixmap, _) = draw(&session, &input(&[]));
    assert_eq!(at(&pixmap, 10, 10), CLEAR);
    assert_eq!(at(&pixmap, 40, 10), RED, "tabs starts on page 0");
    let (pixmap, _) = draw(&session, &input(&[("tabs", "b")]));
    assert_eq!(at(&pixmap, 10, 10), RED);
    assert_eq!(at(&pixmap, 40, 10), CLEAR);
}

#[test]
fn grayed_instances_show_a_disabled_page_or_a_grayed_controller_unfiltered() {
    let radio = button("Check", "");
    let own = r##"<?xml version="1.0" encoding="utf-8"?><component size="20,20"><controller name="grayed" pages="0,,1," selected="0"/><displayList><graph id="g0" name="g0" xy="0,0" size="20,20" type="rect" lineSize="0" fillColor="#00ff00"><gearDisplay controller="grayed" pages="1"/></graph></displayList></component>"##;
    let nodes = r#"<component id="n0" name="n0" src="radio" xy="0,0" size="20,20" grayed="true"/><component id="n1" name="n1" src="own" xy="30,0" size="20,20" grayed="true"/>"#;
    let session = project(
        "50,20",
        "",
        nodes,
        &[("Radio", radio.as_str()), ("Own", own)],
    );
    let (pixmap, _) = draw(&session, &input(&[]));
    assert_eq!(
        at(&pixmap, 10, 10),
        (0, 0, 255, 255),
        "the disabled page, in colour"
    );
    assert_eq!(
        at(&pixmap, 40, 10),
        (0, 255, 0, 255),
        "the grayed page, in colour"
    );
}

#[test]
fn skew_turns_the_axes() {
    let node = rect("n0", "40,40", "20,20", r#"skew="0,30""#, "");
    let session = project("100,100", "", &node, &[]);
    let (pixmap, _) = draw(&session, &input(&[]));
    // The top edge now runs down at 30°: past its middle it is well below y = 40.
    assert_eq!(at(&pixmap, 55, 50), RED);
    assert_eq!(at(&pixmap, 57, 42), CLEAR);
    // A shear by the tangents would flatten this one to a line; turned axes do not.
    let node = rect("n0", "40,40", "20,20", r#"skew="60,30""#, "");
    let session = project("100,100", "", &node, &[]);
    let (pixmap, _) = draw(&session, &input(&[]));
    let drawn = pixmap.pixels().iter().filter(|p| p.alpha() == 255).count();
    assert!(drawn > 200, "{drawn} opaque pixels");
}

/// The reviewer's label: at size 60 its first word is wider than its 356-unit box, so the
/// runtime breaks it between letters and clips the lines below. Drawn in a face that is
/// not the game's, where it breaks is not the game's: the preview says so.
#[test]
fn lines_broken_by_a_stand_in_faces_widths_are_reported() {
    let text = |width: u32| {
        format!(
            r##"<text id="n0" name="t" xy="0,0" size="{width},70" fontSize="60" color="#000000" autoSize="none" text="Localization test"/>"##
        )
    };
    let session = project("356,70", "", &text(356), &[]);
    let (_, data) = draw(&session, &input(&[]));
    let reasons: Vec<&str> = data
        .approximations
        .iter()
        .filter(|a| a.node_path.contains("n0"))
        .map(|a| a.reason.as_str())
        .collect();
    assert!(
        reasons.iter().any(|r| r
            .contains("a word too wide for its line is broken between letters")
            && r.contains("1 line(s) below the box are cut off")
            && r.contains("the game's font may break its lines elsewhere")),
        "{:?}",
        data.approximations
    );

    // Room for the whole text: nothing depends on where lines break.
    let session = project("900,70", "", &text(900), &[]);
    let (_, data) = draw(&session, &input(&[]));
    assert!(
        data.approximations
            .iter()
            .all(|a| !a.reason.contains("break its lines")),
        "{:?}",
        data.approximations
    );
}

/// Moves node `n0` of the fixture to `x,y` at `revision`.
fn move_rect(session: &mut Session, revision: u64, x: u32, y: u32) {
    let batch = serde_json::json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": "p0", "componentResourceId": "c0", "displayNodeId": "n0" },
        "props": { "position": { "x": x, "y": y } }
    }]);
    session
        .apply(revision, &batch.to_string())
        .expect("the move applies");
}

#[test]
fn a_kept_batch_and_the_unsaved_edits_are_drawn_before_and_after() {
    use ofgui_contracts::api::HistoryPreview;
    let mut session = project("100,80", "", &rect("n0", "0,0", "10,10", "", ""), &[]);
    move_rect(&mut session, 0, 20, 0);
    move_rect(&mut session, 1, 40, 0);
    let halves = |data: &RenderComponentData| {
        let comparison = data.comparison.as_ref().expect("two halves");
        comparison.panel_width + comparison.gap
    };
    // The first batch: 0,0 → 20,0, whatever came after it.
    let mut asked = input(&[]);
    asked.expected_revision = Some(2);
    asked.preview_batch = Some(1);
    let (pixmap, data) = draw(&session, &asked);
    let right = halves(&data);
    assert_eq!(at(&pixmap, 0, 0), RED);
    assert_eq!(at(&pixmap, right + 20, 0), RED);
    assert_eq!(at(&pixmap, right + 40, 0), CLEAR);
    // Every unsaved edit: 0,0 → 40,0.
    asked.preview_batch = None;
    asked.preview_history = Some(HistoryPreview::Unsaved);
    let (pixmap, data) = draw(&session, &asked);
    assert_eq!(at(&pixmap, 0, 0), RED);
    assert_eq!(at(&pixmap, halves(&data) + 20, 0), CLEAR);
    assert_eq!(at(&pixmap, halves(&data) + 40, 0), RED);
    // A revision no kept batch made is refused, naming the field.
    asked.preview_history = None;
    asked.preview_batch = Some(9);
    let refused = render_component(&session, &asked).err().expect("refused");
    assert!(
        matches!(&refused.error, ofgui_contracts::error::BackendError::InvalidInput { path: Some(path), .. } if path == "/previewBatch"),
        "{:?}",
        refused.error
    );
    asked.preview_history = Some(HistoryPreview::Undo);
    assert!(
        render_component(&session, &asked).is_err(),
        "one preview at a time"
    );
}

#[test]
fn a_review_lists_operations_and_the_diff_a_save_would_write() {
    let mut session = project("100,80", "", &rect("n0", "0,0", "10,10", "", ""), &[]);
    let clean = session.review(&crate::testing::MemFs::default(), 50);
    assert!(clean.save.is_none(), "nothing unsaved, nothing to show");
    move_rect(&mut session, 0, 20, 5);
    let review = session.review(&crate::testing::MemFs::default(), 50);
    let entry = &review.history.entries[0];
    let operations = entry.operations.as_ref().expect("the batch's operations");
    assert_eq!(operations[0]["props"]["position"]["x"], 20);
    assert_eq!(review.names["p0"], "P");
    assert_eq!(review.names["p0/c0"], "C");
    assert_eq!(review.names["p0/c0/n0"], "n0");
    assert_eq!(review.files["p0/c0"], "assets/P/C.xml");
    let save = review.save.expect("a save would write");
    assert_eq!(save.files.len(), 1, "{save:?}");
    let file = &save.files[0];
    assert_eq!(file.path, "assets/P/C.xml");
    let diff = file.diff.as_deref().expect("a text diff");
    assert!(diff.contains("+") && diff.contains("xy=\"20,5\""), "{diff}");
}

#[test]
fn a_review_says_which_findings_the_unsaved_edits_resolved() {
    let list = format!(
        "{}{}",
        rect("n0", "0,0", "10,10", "", ""),
        r#"<image id="n1" name="broken" src="zz" xy="0,0"/>"#
    );
    let mut session = project("100,80", "", &list, &[]);
    let before = session.validate().diagnostics;
    assert!(!before.is_empty(), "the fixture has a broken reference");
    let batch = serde_json::json!([{
        "kind": "detachDisplayNode",
        "selector": { "packageId": "p0", "componentResourceId": "c0", "displayNodeId": "n1" }
    }]);
    session
        .apply(0, &batch.to_string())
        .expect("the detach applies");
    let change = session
        .review(&crate::testing::MemFs::default(), 50)
        .validation
        .expect("a dirty session says what its edits changed in validation");
    assert!(change.added.is_empty(), "{change:?}");
    assert!(
        change
            .resolved
            .iter()
            .any(|d| d.node_id.as_deref() == Some("n1")),
        "{change:?}"
    );
}
