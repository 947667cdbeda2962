//! Reads the two real FairyGUI projects (and broken in-memory ones) and checks facts
//! verified by hand against the files.

use std::collections::{BTreeMap, BTreeSet};

use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::{ProjectSource, ReadError, read_project};
use ofgui_contracts::Num;
use ofgui_contracts::diagnostics::{ProjectDiagnosticCode as Code, Severity};
use ofgui_contracts::uam::{
    ComponentModel, DisplayNode, Gear, InstanceProperties, UamPackage, UamResource,
};
use serde_json::json;

use ofgui_backend::testing::{MemFs, experiments_root, unity_root};

fn read_unity() -> ProjectSource {
    read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").expect("unity reads")
}

fn read_experiments() -> ProjectSource {
    read_project(
        &StdFs::new(experiments_root()),
        "FairyGUI-Experiments.fairy",
    )
    .expect("experiments read")
}

fn package<'a>(source: &'a ProjectSource, name: &str) -> &'a UamPackage {
    source
        .project
        .packages
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("package {name}"))
}

fn resource<'a>(package: &'a UamPackage, id: &str) -> &'a UamResource {
    package
        .resources
        .iter()
        .find(|r| r.id() == id)
        .unwrap_or_else(|| panic!("resource {id}"))
}

fn component<'a>(package: &'a UamPackage, name: &str) -> &'a ComponentModel {
    package
        .resources
        .iter()
        .find(|r| r.kind() == "component" && r.name() == name)
        .and_then(|r| r.component())
        .unwrap_or_else(|| panic!("component {name}"))
}

fn node<'a>(model: &'a ComponentModel, id: &str) -> &'a DisplayNode {
    model
        .display_list
        .iter()
        .find(|n| n.id() == id)
        .unwrap_or_else(|| panic!("node {id}"))
}

fn n(v: f64) -> Num {
    Num(v)
}

// ---------------------------------------------------------------- unity examples

#[test]
fn unity_has_every_package_and_resource() {
    let source = read_unity();
    let project = &source.project;
    assert_eq!(project.project_id, "5b85d3c8fa4ef4d0cc856c635439191d");
    assert_eq!(project.project_type, 0);
    assert_eq!(project.version, "3.0");
    assert!(project.branches.is_empty());
    assert_eq!(project.packages.len(), 30);
    let names: Vec<&str> = project.packages.iter().map(|p| p.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "packages come in directory order");
    assert_eq!(names[0], "Bag");
    assert_eq!(names[29], "VirtualList");

    // Counted with `grep -ho '^\s*<[a-z]*' assets/*/package.xml | sort | uniq -c`.
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for r in project.packages.iter().flat_map(|p| &p.resources) {
        *kinds.entry(r.kind()).or_default() += 1;
    }
    let expected: BTreeMap<&str, usize> = [
        ("component", 205),
        ("image", 369),
        ("movieClip", 33),
        ("font", 9),
        ("sound", 3),
        // The one <swf> is read as misc.
        ("misc", 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(kinds, expected);

    // Every asset file exists, so every asset has its bytes; components are documents.
    assert_eq!(source.bytes.len(), 620 - 205);
    assert_eq!(source.documents.len(), 1 + 5 + 30 + 205);
    assert!(
        source
            .documents
            .contains_key("FairyGUI-Unity-Examples.fairy")
    );
    assert!(source.documents.contains_key("assets/Basics/package.xml"));
    assert!(source.documents.contains_key("settings/Publish.json"));
    assert!(source.complete);
}

#[test]
fn unity_reads_without_diagnostics() {
    let source = read_unity();
    let errors: Vec<_> = source
        .diagnostics
        .iter()
        .map(|d| format!("{:?} {} {}", d.code, d.path, d.message))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn unity_settings_are_kept() {
    let source = read_unity();
    let settings = &source.project.settings;
    let keys: BTreeSet<&str> = settings.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "adaptation",
            "common",
            "customProperties",
            "i18n",
            "publish"
        ]
        .into_iter()
        .collect()
    );
    assert_eq!(
        settings["publish"]["path"],
        json!("../Assets/Examples/Resources/UI")
    );
    assert_eq!(settings["adaptation"]["designResolutionX"], json!(1136));
    assert_eq!(
        settings["common"]["scrollBars"]["vertical"],
        json!("ui://9leh0eyfi3s65w")
    );
}

#[test]
fn unity_package_metadata() {
    let source = read_unity();
    let bag = package(&source, "Bag");
    assert_eq!(bag.id, "rbw1tv9t");
    assert_eq!(bag.compress_png, Some(true));
    assert_eq!(bag.jpeg_quality, Some(n(80.0)));
    let publish = bag.publish.as_ref().expect("publish");
    assert_eq!(publish.name, "Bag");
    assert!(publish.use_global_atlas_settings);
    assert_eq!(publish.max_atlas_index, n(10.0));
    assert_eq!(publish.atlases.len(), 1);
    assert_eq!(publish.atlases[0].name, "Default");

    let basics = package(&source, "Basics");
    assert_eq!(basics.id, "9leh0eyf");
    assert_eq!(basics.compress_png, None);
    assert!(basics.branch_names.is_empty());
    let folders: Vec<&str> = basics.folders.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        folders,
        [
            "/components/",
            "/font/",
            "/images/",
            "/popupmenu/",
            "/scrollbars/",
            "/sound/"
        ]
    );
    // TextMeshPro's publish name is empty and falls back to the package name.
    let tmp = package(&source, "TextMeshPro");
    assert_eq!(tmp.publish.as_ref().expect("publish").name, "TextMeshPro");
}

#[test]
fn unity_assets() {
    let source = read_unity();
    let basics = package(&source, "Basics");

    // <image id="rpmbd" name="b5_png.png" path="/images/" scale="9grid" scale9grid="12,7,61,14"/>
    let UamResource::Image(image) = resource(basics, "rpmbd") else {
        panic!("rpmbd is an image")
    };
    assert_eq!(image.base.name, "b5_png");
    assert_eq!(image.file_name.as_deref(), Some("b5_png.png"));
    assert_eq!(image.base.path, "/images/");
    assert_eq!(
        image.base.source_path.as_deref(),
        Some("assets/Basics/images/b5_png.png")
    );
    assert_eq!(image.image.scale_option, 1);
    assert_eq!(
        image.image.scale9_grid,
        Some(vec![n(12.0), n(7.0), n(61.0), n(14.0)])
    );
    // From the IHDR chunk of b5_png.png.
    let dims = image.dimensions.as_ref().expect("dimensions");
    assert_eq!((dims.width, dims.height), (n(85.0), n(25.0)));
    assert_eq!(
        source.bytes["assets/Basics/images/b5_png.png"].len(),
        std::fs::metadata(unity_root().join("assets/Basics/images/b5_png.png"))
            .expect("file")
            .len() as usize
    );

    // nlge1k.jta: v102, 24 fps, speed 3, 15 frames of 59×56 in 59×59 bounds.
    let UamResource::MovieClip(clip) = resource(basics, "hixt1v") else {
        panic!("hixt1v is a movie clip")
    };
    assert_eq!(clip.base.name, "nlge1k");
    assert_eq!(
        (clip.dimensions.width, clip.dimensions.height),
        (n(59.0), n(59.0))
    );
    assert_eq!(clip.movie_clip.interval, n(125.0));
    assert_eq!(clip.movie_clip.frames.len(), 15);
    let frame = &clip.movie_clip.frames[0];
    assert_eq!((frame.rect_width, frame.rect_height), (n(59.0), n(56.0)));
    assert_eq!(frame.sprite_id, "");
    assert!(clip.movie_clip.smoothing);

    let UamResource::Font(font) = resource(basics, "wa8u2r") else {
        panic!("wa8u2r is a font")
    };
    assert_eq!(font.file_name.as_deref(), Some("BMFontTest.fnt"));
    assert_eq!(
        font.metadata.as_ref().expect("metadata")["texture"],
        json!("jb800")
    );

    let UamResource::Misc(swf) = resource(basics, "wa8u2w") else {
        panic!("the swf reads as misc")
    };
    assert_eq!(swf.file.as_deref(), Some("qtm01d.swf"));
    assert_eq!(
        swf.metadata.as_ref().expect("metadata")["tag"],
        json!("swf")
    );

    let UamResource::Sound(sound) = resource(basics, "gojg7u") else {
        panic!("gojg7u is a sound")
    };
    assert!(sound.base.exported);
    assert_eq!(sound.metadata, None);

    let tmp = package(&source, "TextMeshPro");
    let UamResource::Font(sdf) = resource(tmp, "v040e") else {
        panic!("v040e is a font")
    };
    let metadata = sdf.metadata.as_ref().expect("metadata");
    assert_eq!(metadata["renderMode"], json!("sdfaa"));
    assert_eq!(metadata["samplePointSize"], json!("60"));
}

#[test]
fn unity_demo_controller_component() {
    let source = read_unity();
    let basics = package(&source, "Basics");
    let UamResource::Component(resource) = basics
        .resources
        .iter()
        .find(|r| r.name() == "Demo_Controller")
        .expect("Demo_Controller")
        .as_ref()
    else {
        panic!("component")
    };
    assert_eq!(
        resource.source_path.as_deref(),
        Some("assets/Basics/Demo_Controller.xml")
    );
    let model = &resource.component;
    assert_eq!((model.size.width, model.size.height), (n(1136.0), n(570.0)));
    assert_eq!(model.controllers.len(), 2);
    let pages: Vec<(&str, &str)> = model.controllers[0]
        .pages
        .iter()
        .map(|p| (p.id.as_str(), p.name.as_str()))
        .collect();
    assert_eq!(pages, [("0", ""), ("1", "")]);

    // <graph id="n3" xy="181,271" size="100,100" type="rect" fillColor="#ff666699">
    let DisplayNode::Graph(graph) = node(model, "n3") else {
        panic!("n3 is a graph")
    };
    assert_eq!(
        (graph.base.position.x, graph.base.position.y),
        (n(181.0), n(271.0))
    );
    assert_eq!(graph.props.graph_type, 1);
    assert_eq!(graph.props.fill_color, "#ff666699");
    assert_eq!(graph.props.line_size, n(1.0));
    let Gear::Xy(xy) = &graph.base.gears[0] else {
        panic!("gearXY")
    };
    assert_eq!(xy.controller_name, "c1");
    assert_eq!(xy.states[1].page_id, "1");
    assert_eq!(xy.states[1].value, Some(json!({ "x": 60, "y": 328 })));
    assert!(xy.tween);
    let Gear::Size(size) = &graph.base.gears[1] else {
        panic!("gearSize")
    };
    assert_eq!(
        size.default_value,
        json!({ "width": 100, "height": 100, "scaleX": 1, "scaleY": 1 })
    );

    // <image id="n7" src="h5p722" pivot="0.5,0.5" size="90,90" aspect="true"> with gearLook.
    let DisplayNode::Image(image) = node(model, "n7") else {
        panic!("n7 is an image")
    };
    assert_eq!(image.resource.resource_id, "h5p722");
    assert!(image.base.aspect);
    assert_eq!(image.base.pivot.as_ref().map(|p| p.x), Some(n(0.5)));
    let Gear::Look(look) = &image.base.gears[2] else {
        panic!("gearLook")
    };
    assert_eq!(
        look.states[0].value,
        Some(json!({ "alpha": 0.54, "rotation": 180, "grayed": false, "touchable": false }))
    );

    // <movieclip id="n10" src="hixt1v"> has no size: it takes the clip's 59×59.
    let DisplayNode::MovieClip(clip) = node(model, "n10") else {
        panic!("n10 is a movie clip")
    };
    assert_eq!(
        (clip.base.size.width, clip.base.size.height),
        (n(59.0), n(59.0))
    );
    assert!(clip.props.playing);

    // <component id="n11" src="rpmb12"><Button controller="c1" page="1"/></component>
    let DisplayNode::Component(button) = node(model, "n11") else {
        panic!("n11 is a component instance")
    };
    assert_eq!(button.resource.resource_id, "rpmb12");
    assert_eq!(button.file_name.as_deref(), Some("components/Button4.xml"));
    let Some(InstanceProperties::Button {
        controller, page, ..
    }) = &button.instance_properties
    else {
        panic!("Button instance properties")
    };
    assert_eq!((controller.as_str(), page.as_str()), ("c1", "1"));

    // <group id="n16" advanced="true"> with two relations and gears on c2.
    let DisplayNode::Group(group) = node(model, "n16") else {
        panic!("n16 is a group")
    };
    assert!(group.props.advanced);
    let relations: Vec<(i32, bool)> = group
        .base
        .relations
        .iter()
        .map(|r| (r.relation_type, r.use_percent))
        .collect();
    assert_eq!(relations, [(13, false), (6, false)]);
    let DisplayNode::Image(member) = node(model, "n13") else {
        panic!("n13 is an image")
    };
    assert_eq!(member.base.group.as_deref(), Some("n16"));

    // gearDisplay2 with condition="0".
    let DisplayNode::Graph(graph) = node(model, "n18_d9q3") else {
        panic!("n18_d9q3 is a graph")
    };
    assert_eq!(graph.props.graph_type, 2);
    assert!(
        graph
            .base
            .gears
            .iter()
            .any(|g| matches!(g, Gear::Display2(d) if d.condition.as_deref() == Some("0")))
    );
}

#[test]
fn unity_transitions_and_text() {
    let source = read_unity();
    let transition_pkg = package(&source, "Transition");
    let boss = component(transition_pkg, "BOSS");
    let t0 = &boss.transitions[0];
    assert_eq!(t0.name, "t0");
    assert_eq!(t0.items.len(), 11);
    // <item time="0" type="Sound" value="ui://zgmoraj4gkq03"/>
    assert_eq!(t0.items[0].action_type, 9);
    assert_eq!(t0.items[0].start_value, vec![json!("ui://zgmoraj4gkq03")]);
    assert!(t0.items[0].end_value.is_empty());
    // <item type="XY" target="n3" tween="true" startValue="-,-398" endValue="-,88" duration="12" ease="Back.Out"/>
    let item = &t0.items[2];
    assert_eq!(item.action_type, 0);
    assert_eq!(item.target_node_id, "n3");
    assert!(item.tween);
    assert_eq!(item.start_value, vec![json!("-"), json!(-398)]);
    assert_eq!(item.end_value, vec![json!("-"), json!(88)]);
    assert_eq!(item.duration, n(12.0));
    assert_eq!(item.ease_type, 26);
    // No ease attribute: Quad.Out.
    assert_eq!(t0.items[4].ease_type, 5);
    assert_eq!(t0.items[4].time, n(12.0));

    // <text id="n2" ... fontSize="26" color="#ffffff" strokeColor="#000000" text="居中文字">
    let basics = package(&source, "Basics");
    let c6 = component(basics, "Component6");
    let DisplayNode::Text(text) = node(c6, "n2") else {
        panic!("n2 is a text")
    };
    assert_eq!(text.text.text, "居中文字");
    assert_eq!(text.text.font_size, n(26.0));
    assert_eq!(text.text.stroke_color.as_deref(), Some("#000000"));
    assert_eq!(text.text.stroke_size, n(1.0));
    assert_eq!(text.text.auto_size, 1);
    assert_eq!(text.text.leading, n(3.0));
}

// ---------------------------------------------------------------- experiments

#[test]
fn experiments_branches_link_variants() {
    let source = read_experiments();
    assert!(source.complete);
    assert!(source.diagnostics.is_empty(), "{:#?}", source.diagnostics);
    assert_eq!(source.project.branches, ["dev"]);
    let names: Vec<&str> = source
        .project
        .packages
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["Branch", "Loader"]);

    let branch = package(&source, "Branch");
    assert_eq!(branch.id, "a9lkf94s");
    assert_eq!(branch.branch_names, ["dev"]);
    let ids: Vec<&str> = branch.resources.iter().map(|r| r.id()).collect();
    assert_eq!(ids, ["kn7w0", "kn7w1", "kn7w3", "kn7w2"]);

    let UamResource::Image(face) = resource(branch, "kn7w1") else {
        panic!("kn7w1 is an image")
    };
    assert_eq!(face.base.branch, "");
    assert_eq!(face.base.branch_item_ids, ["kn7w2"]);
    let dims = face.dimensions.as_ref().expect("dimensions");
    assert_eq!((dims.width, dims.height), (n(60.0), n(58.0)));

    let UamResource::Image(dev_face) = resource(branch, "kn7w2") else {
        panic!("kn7w2 is an image")
    };
    assert_eq!(dev_face.base.branch, "dev");
    assert!(dev_face.base.branch_item_ids.is_empty());
    assert_eq!(
        dev_face.base.source_path.as_deref(),
        Some("assets_dev/Branch/face.png")
    );
    let dims = dev_face.dimensions.as_ref().expect("dimensions");
    assert_eq!((dims.width, dims.height), (n(62.0), n(60.0)));
    assert!(source.bytes.contains_key("assets_dev/Branch/face.png"));
    assert!(
        source
            .documents
            .contains_key("assets_dev/Branch/package_branch.xml")
    );

    let UamResource::Component(main) = resource(branch, "kn7w0") else {
        panic!("kn7w0 is a component")
    };
    assert_eq!(main.branch_item_ids, ["kn7w3"]);
    let UamResource::Component(dev_main) = resource(branch, "kn7w3") else {
        panic!("kn7w3 is a component")
    };
    assert_eq!(dev_main.branch, "dev");
    assert_eq!(
        (
            dev_main.component.size.width,
            dev_main.component.size.height
        ),
        (n(820.0), n(620.0))
    );
    let DisplayNode::Loader(loader) = &dev_main.component.display_list[0] else {
        panic!("loader")
    };
    assert_eq!(loader.props.url, "ui://a9lkf94skn7w2");
    assert!(loader.props.auto_size);
    assert_eq!(loader.base.group, None);
    assert!(loader.base.pivot.is_some());
}

#[test]
fn experiments_loader3d_and_skeletons() {
    let source = read_experiments();
    let loader = package(&source, "Loader");
    assert_eq!(loader.id, "hzobybbt");
    assert!(loader.branch_names.is_empty());

    let UamResource::Spine(spine) = resource(loader, "nbcge") else {
        panic!("nbcge is a spine skeleton")
    };
    assert_eq!(spine.file.as_deref(), Some("alien-pro.skel"));
    let dims = spine.dimensions.as_ref().expect("dimensions");
    assert_eq!((dims.width, dims.height), (n(368.0), n(384.0)));
    let metadata = spine.metadata.as_ref().expect("metadata");
    assert_eq!(metadata["require"], json!("nbcg7,nbcg8"));
    assert_eq!(metadata["atlasNames"], json!("alien-pma"));
    assert_eq!(metadata["anchor"], json!("176,380"));
    assert!(matches!(
        resource(loader, "biss6"),
        UamResource::DragonBones(_)
    ));

    let main = component(loader, "Main");
    let l3d: Vec<_> = main
        .display_list
        .iter()
        .map(|node| match node {
            DisplayNode::Loader3D(l) => l,
            other => panic!("expected loader3D, got {}", other.kind()),
        })
        .collect();
    assert_eq!(l3d.len(), 3);
    assert_eq!(l3d[0].props.url, "ui://hzobybbtbiss6");
    assert_eq!(l3d[0].props.animation_name, "stand");
    assert!(l3d[0].props.looping);
    assert!(l3d[0].props.playing);
    assert_eq!(l3d[1].props.animation_name, "run");
    assert!(!l3d[1].props.playing);
    assert_eq!(l3d[1].props.frame, n(10.0));
    assert!(!l3d[1].props.looping);
    assert_eq!(l3d[2].props.skin_name, "full-skins/boy");
    assert_eq!(
        (l3d[2].base.size.width, l3d[2].base.size.height),
        (n(410.0), n(806.0))
    );
    assert_eq!(l3d[2].base.group, None);
    let json = serde_json::to_value(&main.display_list[0]).expect("json");
    assert_eq!(json["kind"], json!("loader3D"));
    assert_eq!(json["loop"], json!(true));
}

#[test]
fn experiments_settings() {
    let source = read_experiments();
    let publish = &source.project.settings["publish"];
    assert_eq!(
        publish["branchPath"],
        json!("../../../../../release/branch")
    );
    assert_eq!(publish["atlasSetting"]["maxSize"], json!(2048));
}

// ---------------------------------------------------------------- broken projects

const FAIRY: &str =
    r#"<?xml version="1.0" encoding="utf-8"?><projectDescription id="p1" type="unity"/>"#;
const PACKAGE: &str = r#"<packageDescription id="pk1">
  <resources>
    <image id="img1" name="a.png" path="/img/" width="4" height="3"/>
    <component id="cmp1" name="Main.xml" path="/"/>
  </resources>
</packageDescription>"#;
const MAIN: &str = r#"<component size="100,50"><displayList><image id="n0" src="img1" xy="1,2"/></displayList></component>"#;

fn minimal() -> MemFs {
    MemFs::default()
        .with("p.fairy", FAIRY)
        .with("assets/Pkg/package.xml", PACKAGE)
        .with("assets/Pkg/img/a.png", b"not really a png")
        .with("assets/Pkg/Main.xml", MAIN)
}

fn codes(source: &ProjectSource) -> Vec<Code> {
    source.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn minimal_project_reads_cleanly() {
    let source = read_project(&minimal(), "p.fairy").expect("read");
    assert!(source.diagnostics.is_empty(), "{:#?}", source.diagnostics);
    assert_eq!(
        source.project.project_type, 0,
        "type matches case-insensitively"
    );
    let pkg = &source.project.packages[0];
    assert_eq!((pkg.id.as_str(), pkg.name.as_str()), ("pk1", "Pkg"));
    let folders: Vec<&str> = pkg.folders.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(folders, ["/img/"]);
    // No header in the bytes: the declared size stays, and the node without `size` takes it.
    let UamResource::Image(img) = pkg.resources[0].as_ref() else {
        panic!("image")
    };
    let dims = img.dimensions.as_ref().expect("declared size");
    assert_eq!((dims.width, dims.height), (n(4.0), n(3.0)));
    let main = pkg.resources[1].component().expect("component");
    assert_eq!(main.display_list[0].base().size.width, n(4.0));
}

#[test]
fn missing_fairy_file_is_not_found() {
    let fs = minimal();
    assert_eq!(
        read_project(&fs, "other.fairy").err(),
        Some(ReadError::NotFound)
    );
    let denied = minimal().deny("p.fairy");
    assert!(matches!(
        read_project(&denied, "p.fairy"),
        Err(ReadError::AccessDenied(_))
    ));
    // Without packages beside it, a broken project file leaves nothing to open.
    let alone = |fairy: &[u8]| MemFs::default().with("p.fairy", fairy);
    assert!(matches!(
        read_project(&alone(b"\x00\x01 not xml"), "p.fairy"),
        Err(ReadError::Unreadable(_))
    ));
    assert!(matches!(
        read_project(&alone(b"<packageDescription/>"), "p.fairy"),
        Err(ReadError::Unreadable(_))
    ));
}

#[test]
fn broken_project_file_beside_packages_opens_with_a_diagnostic() {
    for fairy in [
        &b"\x00\x01 not xml"[..],
        b"<packageDescription/>",
        b"<projectDescription id=",
    ] {
        let source = read_project(&minimal().with("p.fairy", fairy), "p.fairy").expect("opens");
        assert_eq!(codes(&source), [Code::InvalidProjectXml]);
        assert_eq!(source.project.project_id, "");
        assert_eq!(source.project.project_type, -1, "no engine is assumed");
        assert_eq!(
            source.project.packages.len(),
            1,
            "the packages are still read"
        );
    }
}

#[test]
fn unknown_project_type_is_kept_and_reported_as_a_warning() {
    let fs = minimal().with(
        "p.fairy",
        r#"<projectDescription id="x" type="Godot" version="4.1"/>"#,
    );
    let source = read_project(&fs, "p.fairy").expect("read");
    // Never read as Unity: the name stays as written, the number says "unknown".
    assert_eq!(source.project.project_type, -1);
    assert_eq!(source.project.project_type_name, "Godot");
    assert_eq!(source.project.version, "4.1");
    assert_eq!(codes(&source), [Code::InvalidProjectValue]);
    assert_eq!(source.diagnostics[0].severity, Severity::Warning);
    assert!(
        source.diagnostics[0]
            .message
            .contains("not a type this server knows")
    );
    let fs = minimal().with("p.fairy", r#"<projectDescription id="x" type="Layabox"/>"#);
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(source.project.project_type, 4);
    assert_eq!(source.project.project_type_name, "Layabox");
    assert_eq!(source.project.version, "3.0");
}

#[test]
fn every_editor_target_opens_with_its_real_type() {
    // What official FairyGUI demo projects write (FairyGUI-cocos2dx, -threejs, -solar2d,
    // -dom, -monogame, -unreal-example, -egret, -layabox, -cocoscreator), and the
    // editor's other targets.
    let cases = [
        ("Cocos2dx", -1),
        ("ThreeJS", -1),
        ("Corona", -1),
        ("DOM", -1),
        ("CreateJS", -1),
        ("Cry", 10),
        ("CryEngine", 10),
        ("Unreal", 9),
        ("Egret", 5),
        ("Layabox", 4),
        ("CocosCreator", 3),
        ("Flash", 1),
        ("Starling", 2),
        ("Haxe", 6),
        ("PIXI", 7),
        ("LibGDX", 8),
        ("MonoGame", 11),
        ("Vision", 12),
    ];
    for (name, number) in cases {
        let fairy = format!(r#"<projectDescription id="x" type="{name}" version="5.0"/>"#);
        let source = read_project(&minimal().with("p.fairy", fairy), "p.fairy").expect("read");
        assert!(
            source.diagnostics.is_empty(),
            "{name}: {:#?}",
            source.diagnostics
        );
        assert_eq!(source.project.project_type, number, "{name}");
        assert_eq!(source.project.project_type_name, name);
    }
}

#[test]
fn an_unknown_image_scale_is_reported_not_read_as_none() {
    let fs = minimal().with(
        "assets/Pkg/package.xml",
        PACKAGE.replace(r#"path="/img/""#, r#"path="/img/" scale="stretch""#),
    );
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(codes(&source), [Code::InvalidProjectValue]);
    assert!(
        source.diagnostics[0]
            .message
            .ends_with("is not one of none, 9grid, tile")
    );
    // What the editor writes for no scaling is no finding.
    let fs = minimal().with(
        "assets/Pkg/package.xml",
        PACKAGE.replace(r#"path="/img/""#, r#"path="/img/" scale="""#),
    );
    assert!(
        read_project(&fs, "p.fairy")
            .expect("read")
            .diagnostics
            .is_empty()
    );
}

#[test]
fn bad_settings_json_is_reported_and_left_out() {
    let fs = minimal()
        .with("settings/Publish.json", "{ not json")
        .with("settings/Common.json", "\u{feff}{\"fontSize\": 12}");
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(codes(&source), [Code::InvalidSettingsJson]);
    let d = &source.diagnostics[0];
    assert_eq!(d.path, "settings.publish");
    assert_eq!(d.source_path.as_deref(), Some("settings/Publish.json"));
    assert!(!source.project.settings.contains_key("publish"));
    assert_eq!(source.project.settings["common"]["fontSize"], json!(12));
}

#[test]
fn malformed_package_xml_opens_empty() {
    let fs = minimal().with(
        "assets/Pkg/package.xml",
        "<packageDescription id=\"pk1\"><resources>",
    );
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(codes(&source), [Code::InvalidPackageXml]);
    assert_eq!(source.diagnostics[0].path, "packages[0]");
    assert_eq!(
        source.diagnostics[0].source_path.as_deref(),
        Some("assets/Pkg/package.xml")
    );
    let pkg = &source.project.packages[0];
    assert_eq!(pkg.name, "Pkg");
    assert!(pkg.resources.is_empty());
    assert!(source.documents.contains_key("assets/Pkg/package.xml"));
}

#[test]
fn missing_asset_is_missing_source() {
    let mut fs = minimal();
    fs.files.remove("assets/Pkg/img/a.png");
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(codes(&source), [Code::MissingSource]);
    let d = &source.diagnostics[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.path, "packages[0].resources[0]");
    assert_eq!(d.package_id.as_deref(), Some("pk1"));
    assert_eq!(d.resource_id.as_deref(), Some("img1"));
    assert_eq!(d.source_path.as_deref(), Some("assets/Pkg/img/a.png"));
    assert!(source.complete);
    let r = &source.project.packages[0].resources[0];
    assert_eq!(r.source_path(), Some("assets/Pkg/img/a.png"));

    // A missing component file is missing too; the component keeps an empty model.
    let mut fs = minimal();
    fs.files.remove("assets/Pkg/Main.xml");
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(codes(&source), [Code::MissingSource]);
    assert_eq!(source.diagnostics[0].path, "packages[0].resources[1]");
    assert_eq!(
        source.diagnostics[0].source_path.as_deref(),
        Some("assets/Pkg/Main.xml")
    );
    let main = source.project.packages[0].resources[1]
        .component()
        .expect("component");
    assert!(main.display_list.is_empty());
}

#[test]
fn unreadable_asset_makes_the_read_incomplete() {
    let fs = minimal().deny("assets/Pkg/img/a.png");
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(codes(&source), [Code::UnreadableSource]);
    assert!(!source.complete);
}

#[test]
fn malformed_component_keeps_an_empty_model() {
    let fs = minimal().with(
        "assets/Pkg/Main.xml",
        "<component size=\"1,1\"><displayList>",
    );
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(codes(&source), [Code::InvalidComponentXml]);
    let d = &source.diagnostics[0];
    assert_eq!(d.path, "packages[0].resources[1].component");
    assert_eq!(d.resource_id.as_deref(), Some("cmp1"));
    assert_eq!(d.source_path.as_deref(), Some("assets/Pkg/Main.xml"));
    let main = source.project.packages[0].resources[1]
        .component()
        .expect("component");
    assert!(main.display_list.is_empty());
    assert!(main.properties.opaque);
}

#[test]
fn unknown_resource_tags_and_unsafe_paths_are_skipped() {
    let fs = minimal().with(
        "assets/Pkg/package.xml",
        r#"<packageDescription id="pk1"><resources>
            <image id="img1" name="a.png" path="/img/"/>
            <video id="v1" name="clip.mp4" path="/"/>
            <image id="bad" name="x.png" path="/../../etc/"/>
            <component id="cmp1" name="Main.xml" path="/"/>
        </resources></packageDescription>"#,
    );
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(
        codes(&source),
        [Code::UnsupportedResourceKind, Code::UnsafePath]
    );
    assert_eq!(source.diagnostics[0].severity, Severity::Warning);
    let ids: Vec<&str> = source.project.packages[0]
        .resources
        .iter()
        .map(|r| r.id())
        .collect();
    assert_eq!(ids, ["img1", "cmp1"]);
}

#[test]
fn branch_packages_and_broken_branch_xml() {
    let fs = minimal()
        .with(
            "assets/Pkg/package.xml",
            r#"<packageDescription id="pk1" branchNames='["dev","qa"]'><resources>
                <image id="img1" name="a.png" path="/img/"/>
                <folder id="/:qa/extra/" favorite="true"/>
            </resources></packageDescription>"#,
        )
        .with(
            "assets_dev/Pkg/package_branch.xml",
            r#"<branchDescription><resources><image id="img2" name="a.png" path="/img/"/></resources></branchDescription>"#,
        )
        .with("assets_dev/Pkg/img/a.png", b"x")
        .with("assets_qa/Pkg/package_branch.xml", "<branchDescription><resources>");
    let source = read_project(&fs, "p.fairy").expect("read");
    assert_eq!(source.project.branches, ["dev", "qa"]);
    assert_eq!(codes(&source), [Code::InvalidBranchPackageXml]);
    let pkg = &source.project.packages[0];
    assert_eq!(pkg.branch_names, ["dev", "qa"]);
    let UamResource::Image(img) = pkg.resources[0].as_ref() else {
        panic!("image")
    };
    assert_eq!(img.base.branch_item_ids, ["img2", ""]);
    let folders: Vec<(&str, &str, bool)> = pkg
        .folders
        .iter()
        .map(|f| (f.branch.as_str(), f.path.as_str(), f.favorite))
        .collect();
    assert_eq!(
        folders,
        [
            ("", "/img/", false),
            ("dev", "/img/", false),
            ("qa", "/extra/", true)
        ]
    );
}

// ---------------------------------------------------------------- robustness

fn real_component() -> Vec<u8> {
    std::fs::read(unity_root().join("assets/Basics/Demo_Controller.xml")).expect("corpus file")
}

#[test]
fn every_prefix_of_a_real_component_reads_without_panicking() {
    let xml = real_component();
    let mut errors = 0;
    for end in 0..=xml.len() {
        let fs = minimal().with("assets/Pkg/Main.xml", &xml[..end]);
        let source = read_project(&fs, "p.fairy").expect("the project still opens");
        if codes(&source).contains(&Code::InvalidComponentXml) {
            errors += 1;
        }
    }
    // Only the complete document (and the one missing just its final newline, if any) parses.
    assert!(
        errors >= xml.len() - 1,
        "{errors} of {} prefixes reported",
        xml.len()
    );
}

#[test]
fn mutated_component_and_package_xml_never_panic() {
    let xml = real_component();
    let package =
        std::fs::read(unity_root().join("assets/Basics/package.xml")).expect("corpus file");
    // A fixed seed, so a failure can be replayed.
    let mut rng = fastrand::Rng::with_seed(0x9e37_79b9_7f4a_7c15);
    let interesting = b"<>\"'&=/,;-|%#0123456789.e\x00\xff ";
    for round in 0..400 {
        let (target, base) = if round % 2 == 0 {
            ("assets/Pkg/Main.xml", &xml)
        } else {
            ("assets/Pkg/package.xml", &package)
        };
        let mut bytes = base.clone();
        for _ in 0..1 + rng.usize(..8) {
            let at = rng.usize(..bytes.len());
            match rng.usize(..3) {
                0 => bytes[at] = interesting[rng.usize(..interesting.len())],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, interesting[rng.usize(..interesting.len())]),
            }
        }
        let fs = minimal().with(target, &bytes);
        read_project(&fs, "p.fairy").expect("the project still opens");
    }
    // Pure noise in every file the reader parses.
    for _ in 0..50 {
        let noise: Vec<u8> = (0..rng.usize(..512)).map(|_| rng.u8(..)).collect();
        let fs = minimal()
            .with("assets/Pkg/Main.xml", &noise)
            .with("assets/Pkg/img/a.png", &noise)
            .with("settings/Common.json", &noise);
        read_project(&fs, "p.fairy").expect("the project still opens");
        let fs = minimal().with("assets/Pkg/package.xml", &noise);
        read_project(&fs, "p.fairy").expect("the project still opens");
    }
}

#[test]
fn hostile_values_are_reported_not_fatal() {
    let fs = minimal().with(
        "assets/Pkg/Main.xml",
        r#"<component size="1e999,5" overflow="sideways">
            <controller name="c" pages="0"/>
            <displayList>
              <image id="n0" src="img1" xy="99999999999999999999999,1" alpha="NaN"/>
              <text id="n1" fontSize="-" autoSize="grow"><gearXY controller="c" pages="0" values="a,b"/></text>
              <list id="n2" layout="diagonal"><item level="x"/></list>
              <swf id="n3"/>
            </displayList>
            <transition name="t"><item type="XY" tween="true" startValue="1,2" ease="Wobble"/></transition>
          </component>"#,
    );
    let source = read_project(&fs, "p.fairy").expect("read");
    let main = source.project.packages[0].resources[1]
        .component()
        .expect("component");
    assert_eq!(main.display_list.len(), 3);
    assert_eq!(main.size.width, n(0.0));
    let got = codes(&source);
    assert!(got.contains(&Code::InvalidComponentXml), "{got:?}");
    assert!(
        got.iter()
            .filter(|c| **c == Code::InvalidProjectValue)
            .count()
            >= 7,
        "{got:?}"
    );
    assert!(
        source
            .diagnostics
            .iter()
            .all(|d| d.path.starts_with("packages[0].resources[1].component"))
    );
    // A huge but finite number is a number; the validator judges its range.
    assert_eq!(main.display_list[0].base().position.x, n(1e23));
}
