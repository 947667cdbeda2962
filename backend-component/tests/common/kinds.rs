//! One valid batch per operation kind on the real corpora: the table the save of each
//! kind is checked with (save_kinds) and the fuzz harnesses start from.

use std::path::{Path, PathBuf};

use ofgui_backend::testing::{experiments_root, unity_root};
use ofgui_contracts::uam::{ComponentModel, UamProject, UamResource};
use serde_json::{Value, json};

// Unity examples: Basics, Joystick (Main iitt1 holds instance n4 of circle q9do18),
// Gesture (only Main t5or0), TextMeshPro (font v040e alone in /font/), PullToRefresh
// (Header n3qdr and Footer 9sflu, each with controller c1 and transition t0).
const BASICS: &str = "9leh0eyf";
const JOYSTICK: &str = "rbw1tvvv";
const GESTURE: &str = "lua1ugq6";
const TEXT_MESH_PRO: &str = "33vzljm4";
const PULL: &str = "3u9795n0";
const HEADER: &str = "n3qdr";
const FOOTER: &str = "9sflu";
// Experiments: Branch has main Main kn7w0 and face kn7w1, on `dev` Main kn7w3 and face
// kn7w2; Loader's spineboy.png (czqy1c) is used by nothing.
const BRANCH: &str = "a9lkf94s";
const LOADER: &str = "hzobybbt";

#[derive(Clone, Copy, Debug)]
pub enum Corpus {
    Unity,
    Experiments,
}

impl Corpus {
    pub fn root(self) -> PathBuf {
        match self {
            Corpus::Unity => unity_root(),
            Corpus::Experiments => experiments_root(),
        }
    }

    pub fn fairy(self) -> &'static str {
        match self {
            Corpus::Unity => "FairyGUI-Unity-Examples.fairy",
            Corpus::Experiments => "FairyGUI-Experiments.fairy",
        }
    }
}

/// What a batch is built from: the project as opened, and its files.
pub struct Base<'a> {
    pub project: &'a UamProject,
    pub dir: &'a Path,
}

impl Base<'_> {
    fn bytes(&self, path: &str) -> Vec<u8> {
        std::fs::read(self.dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn resource(&self, package: &str, id: &str) -> &UamResource {
        self.project
            .packages
            .iter()
            .find(|p| p.id == package)
            .and_then(|p| p.resources.iter().find(|r| r.id() == id))
            .unwrap_or_else(|| panic!("resource {package}/{id}"))
    }

    fn component(&self, package: &str, id: &str) -> &ComponentModel {
        self.resource(package, id).component().unwrap()
    }

    /// A resource as an agent sends it: without its derived sourcePath.
    fn resource_json(&self, package: &str, id: &str) -> Value {
        let mut value = serde_json::to_value(self.resource(package, id)).unwrap();
        value.as_object_mut().unwrap().remove("sourcePath");
        value
    }

    /// A component as an addComponent payload (no `kind` either).
    fn component_json(&self, package: &str, id: &str) -> Value {
        let mut value = self.resource_json(package, id);
        value.as_object_mut().unwrap().remove("kind");
        value
    }

    fn node_json(&self, package: &str, comp: &str, node: &str) -> Value {
        let model = self.component(package, comp);
        let found = model.display_list.iter().find(|n| n.id() == node).unwrap();
        serde_json::to_value(found).unwrap()
    }

    fn controller_json(&self, package: &str, comp: &str, name: &str) -> Value {
        let model = self.component(package, comp);
        let found = model.controllers.iter().find(|c| c.name == name).unwrap();
        serde_json::to_value(found).unwrap()
    }

    fn transition_json(&self, package: &str, comp: &str, name: &str) -> Value {
        let model = self.component(package, comp);
        let found = model.transitions.iter().find(|t| t.name == name).unwrap();
        serde_json::to_value(found).unwrap()
    }
}

fn res_sel(package: &str, id: &str) -> Value {
    json!({ "packageId": package, "resourceId": id })
}

fn comp_sel(package: &str, comp: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp })
}

fn node_sel(package: &str, comp: &str, node: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp, "displayNodeId": node })
}

fn folder_sel(package: &str, path: &str) -> Value {
    json!({ "packageId": package, "path": path })
}

fn controller_sel(package: &str, comp: &str, name: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp, "controllerName": name })
}

fn transition_sel(package: &str, comp: &str, name: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp, "transitionName": name })
}

fn gear_sel(package: &str, comp: &str, node: &str, kind: &str, controller: &str) -> Value {
    json!({
        "packageId": package, "componentResourceId": comp, "displayNodeId": node,
        "kind": kind, "controllerName": controller
    })
}

fn move_resource(package: &str, id: &str, to: &str) -> Value {
    json!({ "kind": "moveResource", "selector": res_sel(package, id), "toPath": to })
}

fn remove_component(package: &str, comp: &str) -> Value {
    json!({ "kind": "removeComponent", "selector": comp_sel(package, comp) })
}

fn image_input(id: &str, file: &str, path: &str, bytes: &[u8]) -> Value {
    json!({
        "kind": "image", "id": id, "name": file, "fileName": file, "path": path,
        "exported": false, "favorite": false, "branch": "", "branchItemIds": [],
        "image": {
            "textureSetMode": "", "qualityOption": "", "quality": 0, "smoothing": true,
            "duplicatePadding": false, "scaleOption": 0, "scale9Grid": null, "tileGridIndice": 0
        },
        "sourceBytes": bytes,
    })
}

fn new_controller(name: &str, pages: &[(&str, &str)]) -> Value {
    let pages: Vec<Value> = pages
        .iter()
        .map(|(id, name)| json!({ "id": id, "name": name }))
        .collect();
    json!({
        "name": name, "selectedIndex": 0, "autoRadioGroupDepth": false, "alias": "",
        "exported": false, "homePageType": "default", "homePage": "", "pages": pages, "actions": []
    })
}

fn look_gear(controller: &str, states: Value) -> Value {
    json!({
        "kind": "look", "name": "", "controllerName": controller, "states": states,
        "defaultValue": { "alpha": 1, "rotation": 0, "grayed": false, "touchable": true },
        "condition": "", "positionsInPercent": false, "tween": false, "tweenDuration": 0.3,
        "tweenDelay": 0, "easeType": 5, "customEasePath": ""
    })
}

fn look(alpha: f64) -> Value {
    json!({ "alpha": alpha, "rotation": 0, "grayed": false, "touchable": true })
}

fn display_gear(controller: &str, pages: &[&str]) -> Value {
    json!({ "kind": "display", "name": "", "controllerName": controller, "visibleOnPageIds": pages })
}

/// An instance of Joystick's circle as a new node n99 (Main's n4 without relations).
fn new_instance_node(base: &Base) -> Value {
    let mut node = base.node_json(JOYSTICK, "iitt1", "n4");
    node["id"] = json!("n99");
    node["name"] = json!("n99");
    node["gears"] = json!([]);
    node["relations"] = json!([]);
    node
}

/// An addPackage payload with the experiments' Branch publish settings.
fn package_input(
    base: &Base,
    id: &str,
    name: &str,
    branch_names: Value,
    resources: Vec<Value>,
) -> Value {
    let branch = base
        .project
        .packages
        .iter()
        .find(|p| p.id == BRANCH)
        .unwrap();
    json!({
        "id": id, "name": name, "compressPNG": null, "jpegQuality": null,
        "publish": branch.publish, "branchNames": branch_names, "folders": [], "resources": resources
    })
}

pub type Build = fn(&Base) -> Value;

/// One batch per kind: the batch holds an operation of that kind, with whatever the kind
/// needs around it to be valid (a folder must be empty to be renamed, moved or removed).
pub fn cases() -> Vec<(&'static str, Corpus, Build)> {
    use Corpus::{Experiments, Unity};
    vec![
        ("updateProjectSettings", Unity, |base| {
            let mut settings = serde_json::to_value(&base.project.settings).unwrap();
            settings["common"]["fontSize"] = json!(20);
            settings["customProperties"] = json!({ "theme": "dark" });
            json!([{ "kind": "updateProjectSettings", "settings": settings }])
        }),
        ("updatePackageSettings", Unity, |base| {
            let package = base
                .project
                .packages
                .iter()
                .find(|p| p.id == BASICS)
                .unwrap();
            let mut publish = serde_json::to_value(&package.publish).unwrap();
            publish["maxAtlasIndex"] = json!(20);
            publish["atlases"] = json!([
                { "index": 3, "name": "", "compression": true },
                { "index": 0, "name": "Default", "compression": false }
            ]);
            publish["excludedResourceIds"] = json!(["rpmbd"]);
            json!([{
                "kind": "updatePackageSettings", "selector": { "packageId": BASICS },
                "settings": { "compressPNG": true, "jpegQuality": 90, "publish": publish }
            }])
        }),
        ("renameResource", Unity, |_| {
            json!([
                { "kind": "renameResource", "selector": res_sel(BASICS, "rpmbj"), "newName": "k3_frame" },
                { "kind": "renameResource", "selector": res_sel(BASICS, "rpmb10"), "newName": "FancyButton" }
            ])
        }),
        // Into a folder the batch adds: an image and a component file move.
        ("moveResource", Unity, |_| {
            json!([
                { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/frames/" },
                move_resource(BASICS, "rpmbj", "frames"),
                move_resource(BASICS, "rpmbz", "/frames/")
            ])
        }),
        ("setResourceFavorite", Unity, |_| {
            json!([
                { "kind": "setResourceFavorite", "selector": res_sel(BASICS, "rpmbj"), "favorite": true },
                { "kind": "setResourceFavorite", "selector": res_sel(BASICS, "rpmbz"), "favorite": true }
            ])
        }),
        ("setResourceFolderFavorite", Unity, |_| {
            json!([
                { "kind": "setResourceFolderFavorite", "selector": folder_sel(BASICS, "/images/"), "favorite": true }
            ])
        }),
        ("setResourceFolderAtlas", Unity, |_| {
            json!([
                { "kind": "setResourceFolderAtlas", "selector": folder_sel(BASICS, "/images/"), "atlas": "3" },
                { "kind": "setResourceFolderAtlas", "selector": folder_sel(BASICS, "/font/"), "atlas": "10" }
            ])
        }),
        ("setResourceExported", Unity, |_| {
            json!([
                { "kind": "setResourceExported", "selector": res_sel(BASICS, "rpmbj"), "exported": true },
                { "kind": "setResourceExported", "selector": res_sel(BASICS, "wa8u2r"), "exported": false }
            ])
        }),
        ("addResourceFolder", Experiments, |_| {
            json!([
                { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/ui/", "favorite": true, "atlas": "2" },
                { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/ui/icons/" },
                { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/ui/", "branch": "dev", "favorite": true }
            ])
        }),
        // The font leaves its folder while the folder is renamed, then moves into it.
        ("renameResourceFolder", Unity, |_| {
            json!([
                move_resource(TEXT_MESH_PRO, "v040e", "/"),
                { "kind": "renameResourceFolder", "selector": folder_sel(TEXT_MESH_PRO, "/font/"), "newName": "fonts" },
                move_resource(TEXT_MESH_PRO, "v040e", "/fonts/")
            ])
        }),
        ("moveResourceFolder", Unity, |_| {
            json!([
                { "kind": "addResourceFolder", "selector": { "packageId": TEXT_MESH_PRO }, "path": "/res/" },
                move_resource(TEXT_MESH_PRO, "v040e", "/"),
                { "kind": "moveResourceFolder", "selector": folder_sel(TEXT_MESH_PRO, "/font/"), "toPath": "/res/" },
                move_resource(TEXT_MESH_PRO, "v040e", "/res/font/")
            ])
        }),
        ("removeResourceFolder", Unity, |_| {
            json!([
                move_resource(TEXT_MESH_PRO, "v040e", "/"),
                { "kind": "removeResourceFolder", "selector": folder_sel(TEXT_MESH_PRO, "/font/") }
            ])
        }),
        ("setImageResourceProps", Unity, |_| {
            json!([{ "kind": "setImageResourceProps", "selector": res_sel(BASICS, "rpmbj"), "props": {
                "textureSetMode": "alone", "qualityOption": "custom", "quality": 75, "smoothing": false,
                "duplicatePadding": true, "scaleOption": 1, "scale9Grid": [10, 8, 30, 12], "tileGridIndice": 3
            } }])
        }),
        ("addResource", Unity, |base| {
            let png = base.bytes("assets/Basics/images/k4.png");
            let wav = base.bytes("assets/Basics/sound/click.wav");
            json!([
                { "kind": "addResource", "selector": { "packageId": BASICS }, "atIndex": 0,
                  "resource": image_input("newimg1", "added.png", "/images", &png) },
                { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": {
                    "kind": "sound", "id": "click2", "name": "click2", "fileName": "click2.wav", "path": "/sound/",
                    "exported": true, "favorite": false, "branch": "", "branchItemIds": [], "sourceBytes": wav,
                } }
            ])
        }),
        // A package with a variant on the new branch gives the branch files of its own.
        ("addBranch", Experiments, |base| {
            let face = |id: &str, branch: &str, slots: Value| {
                let mut image = base.resource_json(BRANCH, "kn7w1");
                image["id"] = json!(id);
                image["branch"] = json!(branch);
                image["branchItemIds"] = slots;
                image["sourceBytes"] = json!(base.bytes("assets/Branch/face.png"));
                image
            };
            json!([
                { "kind": "addBranch", "branch": "qa" },
                { "kind": "addPackage", "atIndex": 0, "package": package_input(base, "slots001", "Slots", json!(["qa"]), vec![
                    face("s1", "", json!(["s2"])),
                    face("s2", "qa", json!([])),
                ]) }
            ])
        }),
        (
            "renameBranch",
            Experiments,
            |_| json!([{ "kind": "renameBranch", "selector": { "branch": "dev" }, "newName": "qa" }]),
        ),
        // The branch must be empty first: its Main, then its face, which only that Main shows.
        ("removeBranch", Experiments, |_| {
            json!([
                remove_component(BRANCH, "kn7w3"),
                { "kind": "removeResource", "selector": res_sel(BRANCH, "kn7w2") },
                { "kind": "removeBranch", "selector": { "branch": "dev" } }
            ])
        }),
        ("addPackage", Experiments, |base| {
            let mut image = base.resource_json(BRANCH, "kn7w1");
            image["id"] = json!("x1");
            image["path"] = json!("/images/");
            image["branchItemIds"] = json!([]);
            image["sourceBytes"] = json!(base.bytes("assets/Branch/face.png"));
            let clip = json!({
                "kind": "movieClip", "id": "x2", "name": "clip", "fileName": "clip.jta", "path": "/",
                "exported": true, "favorite": false, "branch": "", "branchItemIds": [],
                "dimensions": { "width": 0, "height": 0 },
                "movieClip": { "interval": 0, "repeatDelay": 0, "swing": false, "smoothing": false, "frames": [] },
                "sourceBytes": std::fs::read(unity_root().join("assets/ModalWaiting/qtm011.jta")).unwrap(),
            });
            let mut main = base.component_json(BRANCH, "kn7w0");
            main["kind"] = json!("component");
            main["id"] = json!("x3");
            main["branchItemIds"] = json!([]);
            let mut package = package_input(
                base,
                "extra001",
                "Extra",
                json!([]),
                vec![image, clip, main],
            );
            package["folders"] =
                json!([{ "branch": "", "path": "/images/", "favorite": false, "atlas": "" }]);
            json!([{ "kind": "addPackage", "atIndex": 1, "package": package }])
        }),
        // Branch files move too.
        (
            "renamePackage",
            Experiments,
            |_| json!([{ "kind": "renamePackage", "selector": { "packageId": BRANCH }, "newName": "Twig" }]),
        ),
        (
            "removePackage",
            Experiments,
            |_| json!([{ "kind": "removePackage", "selector": { "packageId": BRANCH } }]),
        ),
        ("addComponent", Unity, |base| {
            let mut copy = base.component_json(JOYSTICK, "q9do18");
            copy["id"] = json!("new01");
            copy["name"] = json!("circle2");
            copy["path"] = json!("/images");
            json!([{ "kind": "addComponent", "selector": { "packageId": JOYSTICK }, "component": copy, "atIndex": 0 }])
        }),
        ("removeComponent", Unity, |_| {
            json!([remove_component(JOYSTICK, "iitt1")])
        }),
        // Gesture's Main takes the file Joystick's Main leaves: one path removed and written.
        ("moveComponent", Unity, |_| {
            json!([
                remove_component(JOYSTICK, "iitt1"),
                { "kind": "moveComponent", "selector": comp_sel(GESTURE, "t5or0"), "toPackageId": JOYSTICK, "toIndex": 1 }
            ])
        }),
        ("replaceResourceBytes", Unity, |base| {
            let jpeg = base.bytes("assets/TurnPage/haibian.jpg");
            let png = base.bytes("assets/Basics/images/k4.png");
            let heart = base.bytes("assets/TreeView/Icons/heart.jta");
            json!([
                { "kind": "replaceResourceBytes", "selector": res_sel(PULL, "n3qdn"), "sourceBytes": jpeg },
                { "kind": "replaceResourceBytes", "selector": res_sel(BASICS, "rpmbj"), "sourceBytes": png },
                { "kind": "replaceResourceBytes", "selector": res_sel(BASICS, "hixt1v"), "sourceBytes": heart }
            ])
        }),
        (
            "removeResource",
            Experiments,
            |_| json!([{ "kind": "removeResource", "selector": res_sel(LOADER, "czqy1c") }]),
        ),
        // The circle's new size is the size of Main's instance of it, which its file
        // leaves out.
        ("setComponentProps", Unity, |base| {
            let mut properties =
                serde_json::to_value(&base.component(JOYSTICK, "q9do18").properties).unwrap();
            properties["remark"] = json!("the thumb");
            properties["opaque"] = json!(false);
            json!([
                { "kind": "setComponentProps", "selector": comp_sel(JOYSTICK, "iitt1"),
                  "props": { "size": { "width": 800, "height": 480 } } },
                { "kind": "setComponentProps", "selector": comp_sel(JOYSTICK, "q9do18"),
                  "props": { "size": { "width": 200, "height": 200 }, "properties": properties } }
            ])
        }),
        // The circle's thumb has no size in its file: retargeted to a smaller image, it
        // keeps its size.
        ("setDisplayNodeProps", Unity, |base| {
            let thumb = base.node_json(JOYSTICK, "q9do18", "n1");
            let mut image: serde_json::Map<String, Value> = [
                "color",
                "flip",
                "fillMethod",
                "fillOrigin",
                "fillClockwise",
                "fillAmount",
            ]
            .iter()
            .map(|key| (key.to_string(), thumb[*key].clone()))
            .collect();
            image.insert("resource".into(), json!({ "resourceId": "q9do1a" }));
            json!([
                { "kind": "setDisplayNodeProps", "selector": node_sel(PULL, HEADER, "n3_n3qd"), "props": { "alpha": 0.5 } },
                { "kind": "setDisplayNodeProps", "selector": node_sel(PULL, FOOTER, "n1_n3qd"),
                  "props": { "text": "Loading…", "position": { "x": 70, "y": 24 } } },
                { "kind": "setDisplayNodeProps", "selector": node_sel(JOYSTICK, "q9do18", "n1"),
                  "props": { "imageProperties": image } }
            ])
        }),
        ("attachDisplayNode", Unity, |base| {
            json!([{ "kind": "attachDisplayNode", "selector": comp_sel(JOYSTICK, "iitt1"), "atIndex": 0,
                     "node": new_instance_node(base) }])
        }),
        (
            "detachDisplayNode",
            Unity,
            |_| json!([{ "kind": "detachDisplayNode", "selector": node_sel(JOYSTICK, "iitt1", "n4") }]),
        ),
        ("addController", Unity, |_| {
            json!([{ "kind": "addController", "selector": controller_sel(PULL, FOOTER, "c3"),
                     "controller": new_controller("c3", &[("0", "a"), ("1", "b")]) }])
        }),
        ("updateController", Unity, |base| {
            let mut c1 = base.controller_json(PULL, FOOTER, "c1");
            c1["pages"][0]["name"] = json!("up");
            json!([{ "kind": "updateController", "selector": controller_sel(PULL, FOOTER, "c1"), "controller": c1 }])
        }),
        // Footer's c1 goes with the three gears bound to it.
        ("removeController", Unity, |_| {
            json!([
                { "kind": "removeGear", "selector": gear_sel(PULL, FOOTER, "n0_n3qd", "display", "c1") },
                { "kind": "removeGear", "selector": gear_sel(PULL, FOOTER, "n1_n3qd", "text", "c1") },
                { "kind": "removeGear", "selector": gear_sel(PULL, FOOTER, "n2_n3qd", "display", "c1") },
                { "kind": "removeController", "selector": controller_sel(PULL, FOOTER, "c1") }
            ])
        }),
        ("addTransition", Unity, |base| {
            let mut t1 = base.transition_json(PULL, FOOTER, "t0");
            t1["name"] = json!("t1");
            t1["autoPlay"] = json!(false);
            json!([{ "kind": "addTransition", "selector": transition_sel(PULL, FOOTER, "t1"), "transition": t1 }])
        }),
        ("updateTransition", Unity, |base| {
            let mut t0 = base.transition_json(PULL, FOOTER, "t0");
            t0["items"][0]["duration"] = json!(30);
            json!([{ "kind": "updateTransition", "selector": transition_sel(PULL, FOOTER, "t0"), "transition": t0 }])
        }),
        (
            "removeTransition",
            Unity,
            |_| json!([{ "kind": "removeTransition", "selector": transition_sel(PULL, FOOTER, "t0") }]),
        ),
        ("addLookGear", Unity, |_| {
            json!([{ "kind": "addLookGear", "selector": gear_sel(PULL, HEADER, "n0_n3qd", "look", "c1"),
                     "gear": look_gear("c1", json!([{ "pageId": "1", "value": look(0.5) }])) }])
        }),
        ("updateLookGear", Unity, |_| {
            json!([{ "kind": "updateLookGear", "selector": gear_sel(PULL, HEADER, "n3_n3qd", "look", "c1"),
                     "gear": look_gear("c1", json!([{ "pageId": "0", "value": look(0.25) }, { "pageId": "1", "value": look(0.75) }])) }])
        }),
        (
            "removeLookGear",
            Unity,
            |_| json!([{ "kind": "removeLookGear", "selector": gear_sel(PULL, HEADER, "n3_n3qd", "look", "c1") }]),
        ),
        ("addGear", Unity, |_| {
            json!([{ "kind": "addGear", "selector": gear_sel(PULL, FOOTER, "n1_n3qd", "display", "c1"),
                     "gear": display_gear("c1", &["0", "2"]) }])
        }),
        ("updateGear", Unity, |_| {
            json!([{ "kind": "updateGear", "selector": gear_sel(PULL, HEADER, "n0_n3qd", "display", "c1"),
                     "gear": display_gear("c1", &["1", "2"]) }])
        }),
        (
            "removeGear",
            Unity,
            |_| json!([{ "kind": "removeGear", "selector": gear_sel(PULL, HEADER, "n0_n3qd", "display", "c1") }]),
        ),
    ]
}
