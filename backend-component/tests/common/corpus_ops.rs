//! Random operations drawn from a project as it is: edits that can close containment or
//! group cycles, edits near the corpus's legacy defects, removals, renames. Shared by the
//! property tests (txn_properties) and the fuzz harnesses.

use ofgui_contracts::uam::{ComponentModel, DisplayNode, UamProject};
use serde_json::{Value, json};

/// What the generator can name in a project.
pub struct Names {
    pub packages: Vec<String>,
    /// `(packageId, componentId)`.
    pub components: Vec<(String, String)>,
    /// `(packageId, resourceId)` of assets.
    pub assets: Vec<(String, String)>,
}

impl Names {
    pub fn of(project: &UamProject) -> Self {
        let mut names = Names {
            packages: Vec::new(),
            components: Vec::new(),
            assets: Vec::new(),
        };
        for package in &project.packages {
            names.packages.push(package.id.clone());
            for resource in &package.resources {
                let key = (package.id.clone(), resource.id().to_string());
                if resource.component().is_some() {
                    names.components.push(key);
                } else {
                    names.assets.push(key);
                }
            }
        }
        names
    }
}

pub fn pick<'a, T>(rng: &mut fastrand::Rng, items: &'a [T]) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[rng.usize(..items.len())])
}

pub fn model_of<'p>(
    project: &'p UamProject,
    (package, id): &(String, String),
) -> &'p ComponentModel {
    project
        .packages
        .iter()
        .find(|p| p.id == *package)
        .and_then(|p| p.resources.iter().find(|r| r.id() == id))
        .and_then(|r| r.component())
        .expect("component")
}

fn comp_selector((package, id): &(String, String)) -> Value {
    json!({ "packageId": package, "componentResourceId": id })
}

fn node_selector((package, id): &(String, String), node: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": id, "displayNodeId": node })
}

/// A component instance node of `target`.
fn instance_node(id: &str, (package, comp): &(String, String)) -> Value {
    json!({
        "kind": "component", "id": id, "name": id, "position": { "x": 0, "y": 0 },
        "size": { "width": 10, "height": 10 }, "locked": false, "aspect": false,
        "minSize": { "width": 0, "height": 0 }, "maxSize": { "width": 0, "height": 0 },
        "scale": { "x": 1, "y": 1 }, "skew": { "x": 0, "y": 0 }, "visible": true,
        "touchable": true, "grayed": false, "alpha": 1, "rotation": 0, "tooltips": "",
        "blendMode": "normal", "filter": "", "filterData": "", "customData": "",
        "group": "", "relations": [], "gears": [],
        "resource": { "packageId": package, "resourceId": comp }
    })
}

/// A group node, itself in `group`.
fn group_node(id: &str, group: &str) -> Value {
    json!({
        "kind": "group", "id": id, "name": id, "position": { "x": 0, "y": 0 },
        "size": { "width": 10, "height": 10 }, "locked": false, "aspect": false,
        "minSize": { "width": 0, "height": 0 }, "maxSize": { "width": 0, "height": 0 },
        "scale": { "x": 1, "y": 1 }, "skew": { "x": 0, "y": 0 }, "visible": true,
        "touchable": true, "grayed": false, "alpha": 1, "rotation": 0, "tooltips": "",
        "blendMode": "normal", "filter": "", "filterData": "", "customData": "",
        "group": group, "relations": [], "gears": [],
        "layout": 0, "lineGap": 0, "columnGap": 0, "advanced": false,
        "excludeInvisibles": false, "autoSizeDisabled": false, "mainGridIndex": -1
    })
}

/// One operation drawn from the project as it is: edits that can close containment or
/// group cycles, edits near the corpus's legacy defects, removals, renames.
pub fn corpus_operation(rng: &mut fastrand::Rng, project: &UamProject, fresh: &str) -> Value {
    let names = Names::of(project);
    let (Some(component), Some(target)) = (
        pick(rng, &names.components).cloned(),
        pick(rng, &names.components).cloned(),
    ) else {
        return json!({ "kind": "addBranch", "branch": fresh });
    };
    let model = model_of(project, &component);
    let url = format!("ui://{}{}", target.0, target.1);
    let node = pick(rng, &model.display_list).map(|n| n.id().to_string());
    let groups: Vec<String> = model
        .display_list
        .iter()
        .filter(|n| matches!(n, DisplayNode::Group(_)))
        .map(|n| n.id().to_string())
        .chain(["gA", "gB", "gC"].map(String::from))
        .collect();
    let group = pick(rng, &groups).cloned().unwrap_or_default();
    match rng.usize(..16) {
        0 | 1 => {
            json!({ "kind": "attachDisplayNode", "selector": comp_selector(&component), "atIndex": 0, "node": instance_node(fresh, &target) })
        }
        2 => {
            let id = ["gA", "gB", "gC"][rng.usize(..3)];
            json!({ "kind": "attachDisplayNode", "selector": comp_selector(&component), "atIndex": 0, "node": group_node(id, &group) })
        }
        3 => match node {
            Some(node) => {
                json!({ "kind": "setDisplayNodeProps", "selector": node_selector(&component, &node), "props": { "group": group } })
            }
            None => json!({ "kind": "addBranch", "branch": fresh }),
        },
        4 => match node {
            Some(node) => {
                json!({ "kind": "detachDisplayNode", "selector": node_selector(&component, &node) })
            }
            None => json!({ "kind": "addBranch", "branch": fresh }),
        },
        5 => {
            // A loader or a list of the component now builds the target.
            let snapshot = model.display_list.iter().find_map(|n| match n {
                DisplayNode::Loader(l) => {
                    let mut props = serde_json::to_value(&l.props).expect("loader");
                    props["url"] = json!(url);
                    Some((n.id(), json!({ "loaderProperties": props })))
                }
                DisplayNode::List(l) if !l.list.list_items.is_empty() => {
                    let mut props = serde_json::to_value(&l.list).expect("list");
                    props["defaultItem"] = json!(url);
                    Some((n.id(), json!({ "listProperties": props })))
                }
                _ => None,
            });
            match snapshot {
                Some((id, props)) => {
                    json!({ "kind": "setDisplayNodeProps", "selector": node_selector(&component, id), "props": props })
                }
                None => {
                    json!({ "kind": "attachDisplayNode", "selector": comp_selector(&component), "atIndex": 0, "node": instance_node(fresh, &target) })
                }
            }
        }
        6 => {
            let package = pick(rng, &names.packages).expect("packages");
            json!({ "kind": "renamePackage", "selector": { "packageId": package }, "newName": format!("P{fresh}") })
        }
        7 => {
            json!({ "kind": "renameResource", "selector": { "packageId": component.0, "resourceId": component.1 }, "newName": format!("R{fresh}") })
        }
        8 => match pick(rng, &model.transitions) {
            Some(t) => {
                let mut transition = serde_json::to_value(t).expect("transition");
                transition["autoPlay"] = json!(rng.bool());
                if rng.usize(..3) == 0
                    && let Some(items) = transition["items"].as_array_mut()
                    && let Some(first) = items.first().cloned()
                {
                    let mut item = first;
                    item["targetNodeId"] = json!(node.clone().unwrap_or_else(|| "n404".into()));
                    items.push(item);
                }
                json!({ "kind": "updateTransition", "selector": { "packageId": component.0, "componentResourceId": component.1, "transitionName": t.name }, "transition": transition })
            }
            None => json!({ "kind": "removeComponent", "selector": comp_selector(&component) }),
        },
        9 => json!({ "kind": "removeComponent", "selector": comp_selector(&component) }),
        10 => match pick(rng, &names.assets) {
            Some((package, id)) => {
                json!({ "kind": "removeResource", "selector": { "packageId": package, "resourceId": id } })
            }
            None => json!({ "kind": "removePackage", "selector": { "packageId": component.0 } }),
        },
        11 => match pick(rng, &model.controllers) {
            Some(c) => {
                json!({ "kind": "removeController", "selector": { "packageId": component.0, "componentResourceId": component.1, "controllerName": c.name } })
            }
            None => match pick(rng, &model.transitions) {
                Some(t) => {
                    json!({ "kind": "removeTransition", "selector": { "packageId": component.0, "componentResourceId": component.1, "transitionName": t.name } })
                }
                None => {
                    json!({ "kind": "removePackage", "selector": { "packageId": component.0 } })
                }
            },
        },
        12 => match (node, pick(rng, &model.controllers)) {
            (Some(node), Some(c)) => {
                let kind = ["text", "color", "icon", "animation"][rng.usize(..4)];
                let value = match kind {
                    "text" => json!({ "text": "x" }),
                    "icon" => json!({ "icon": url }),
                    "color" => json!({ "color": "#ff0000", "outlineColor": null }),
                    _ => {
                        json!({ "frame": 0, "playing": true, "animationName": "", "skinName": "" })
                    }
                };
                let page = c.pages.first().map(|p| p.id.clone()).unwrap_or_default();
                json!({ "kind": "addGear",
                    "selector": { "packageId": component.0, "componentResourceId": component.1, "displayNodeId": node, "kind": kind, "controllerName": c.name },
                    "gear": { "kind": kind, "name": "", "controllerName": c.name, "states": [{ "pageId": page, "value": value }],
                        "defaultValue": value, "condition": "", "positionsInPercent": false, "tween": false,
                        "tweenDuration": 0.3, "tweenDelay": 0, "easeType": 5, "customEasePath": "" } })
            }
            _ => json!({ "kind": "removePackage", "selector": { "packageId": component.0 } }),
        },
        13 => {
            let to = pick(rng, &names.packages).expect("packages");
            json!({ "kind": "moveComponent", "selector": comp_selector(&component), "toPackageId": to, "toIndex": 0 })
        }
        14 => {
            let mut settings = serde_json::to_value(&project.settings).expect("settings");
            settings["common"]["scrollBars"]["vertical"] = json!(url);
            settings["common"]["fontSize"] = json!(rng.usize(10..20));
            json!({ "kind": "updateProjectSettings", "settings": settings })
        }
        _ => {
            // The corpus's legacy defects: HitTest/component1 and Transition/BOSS.
            let legacy = if rng.bool() {
                ("ezq9a8mh".to_string(), "g40jh".to_string())
            } else {
                ("zgmoraj4".to_string(), "gkq00".to_string())
            };
            match project.packages.iter().any(|p| p.id == legacy.0)
                && Names::of(project).components.contains(&legacy)
            {
                true => {
                    let model = model_of(project, &legacy);
                    match (
                        rng.usize(..3),
                        model.transitions.first(),
                        pick(rng, &model.display_list),
                    ) {
                        (0, Some(t), _) => {
                            json!({ "kind": "updateTransition", "selector": { "packageId": legacy.0, "componentResourceId": legacy.1, "transitionName": t.name }, "transition": t })
                        }
                        (1, _, Some(n)) => {
                            json!({ "kind": "detachDisplayNode", "selector": node_selector(&legacy, n.id()) })
                        }
                        _ => {
                            json!({ "kind": "renamePackage", "selector": { "packageId": legacy.0 }, "newName": format!("L{fresh}") })
                        }
                    }
                }
                false => json!({ "kind": "addBranch", "branch": fresh }),
            }
        }
    }
}
