//! Spot checks of decoded descriptors against the editor project they were published from
//! (`UIProject/assets/<Package>/`): resources, and for every published component its size,
//! extension, controllers, display list and transitions.

use std::collections::BTreeMap;
use std::path::Path;

use roxmltree::{Document, Node};
use serde_json::Value;

use crate::{decoded, unity_examples};

#[test]
fn bag_matches_its_project_xml() {
    let stats = compare_package("Bag");
    // What was compared (one of the 17 resources, an unused image, is not published).
    let compared = (
        stats.resources,
        stats.components,
        stats.controllers,
        stats.children,
        stats.transitions,
    );
    assert_eq!(compared, (16, 7, 6, 26, 0), "{stats:?}");
}

#[test]
fn basics_matches_its_project_xml() {
    let stats = compare_package("Basics");
    let compared = (
        stats.resources,
        stats.components,
        stats.controllers,
        stats.children,
        stats.transitions,
    );
    assert_eq!(compared, (221, 93, 43, 451, 1), "{stats:?}");
}

/// A controller's pages as published: Bag's list page controller and Basics' c1.
#[test]
fn controller_pages_are_published_by_id_and_name() {
    let bag = decoded("Bag");
    let bag_win = component_named(&bag, "BagWin");
    let page = &bag_win["controllers"][0];
    assert_eq!(page["name"], "page");
    let ids: Vec<&str> = page["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|page| page["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["0", "1", "2"]);
    // Unnamed pages are the empty string, not null.
    assert!(
        page["pages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|page| page["name"] == "")
    );

    let basics = decoded("Basics");
    let demo = component_named(&basics, "Demo_Controller");
    let names: Vec<&str> = demo["controllers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|controller| controller["name"].as_str().unwrap())
        .collect();
    assert_eq!(&names[..2], ["c1", "c2"]);
}

fn component_named<'a>(package: &'a Value, name: &str) -> &'a Value {
    package["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["type"] == "component" && item["name"] == name)
        .map(|item| &item["component"])
        .unwrap_or_else(|| panic!("no component {name}"))
}

#[derive(Debug, Default)]
struct Stats {
    resources: usize,
    components: usize,
    controllers: usize,
    children: usize,
    transitions: usize,
}

/// Compares every published resource of `package` with `package.xml` and every published
/// component with its XML file; fails listing every difference.
fn compare_package(package: &str) -> Stats {
    let decoded = decoded(package);
    let assets = unity_examples().join("UIProject/assets").join(package);
    let items: BTreeMap<&str, &Value> = decoded["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|item| Some((item["id"].as_str()?, item)))
        .collect();
    let package_xml = read(&assets.join("package.xml"));
    let document = Document::parse(&package_xml).unwrap();
    let resources = document
        .root_element()
        .children()
        .find(|node| node.has_tag_name("resources"))
        .unwrap();

    let mut stats = Stats::default();
    let mut problems = Vec::new();
    for resource in resources.children().filter(Node::is_element) {
        let id = resource.attribute("id").unwrap();
        let label = format!("{package} {id}");
        let Some(item) = items.get(id) else {
            // Unused, non-exported resources are not published; exported ones must be.
            if resource.attribute("exported") == Some("true") {
                problems.push(format!("{label}: exported but not published"));
            }
            continue;
        };
        stats.resources += 1;
        let file_name = resource.attribute("name").unwrap();
        let base = file_name
            .rsplit_once('.')
            .map_or(file_name, |(base, _)| base);
        check(
            &mut problems,
            &label,
            "name",
            item["name"].as_str(),
            Some(base),
        );
        check(
            &mut problems,
            &label,
            "path",
            item["path"].as_str(),
            resource.attribute("path"),
        );
        let exported = resource.attribute("exported") == Some("true");
        check(
            &mut problems,
            &label,
            "exported",
            item["exported"].as_bool(),
            Some(exported),
        );
        if resource.has_tag_name("image") {
            let scale = match resource.attribute("scale") {
                None | Some("") => "none",
                Some(scale) => scale,
            };
            check(
                &mut problems,
                &label,
                "scale",
                item["scaleOption"].as_str(),
                Some(scale),
            );
            if scale == "9grid" {
                let grid = numbers(resource.attribute("scale9grid").unwrap());
                check(
                    &mut problems,
                    &label,
                    "scale9grid",
                    Some(integers(&item["scale9grid"])),
                    Some(grid),
                );
            }
        }
        if resource.has_tag_name("component") {
            let path = format!("{}{}", resource.attribute("path").unwrap(), file_name);
            let xml = read(&assets.join(path.trim_start_matches('/')));
            let document = Document::parse(&xml).unwrap();
            let label = format!("{package}/{base}");
            compare_component(
                &label,
                item,
                document.root_element(),
                &mut stats,
                &mut problems,
            );
        }
    }
    assert!(
        problems.is_empty(),
        "{} difference(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
    stats
}

fn compare_component(
    label: &str,
    item: &Value,
    root: Node<'_, '_>,
    stats: &mut Stats,
    problems: &mut Vec<String>,
) {
    stats.components += 1;
    let component = &item["component"];
    let size = numbers(root.attribute("size").unwrap());
    let decoded_size = vec![
        component["width"].as_i64().unwrap(),
        component["height"].as_i64().unwrap(),
    ];
    check(problems, label, "size", Some(decoded_size), Some(size));
    let extension = root
        .attribute("extention")
        .unwrap_or("component")
        .to_lowercase();
    check(
        problems,
        label,
        "objectType",
        item["objectType"].as_str(),
        Some(extension.as_str()),
    );

    let controllers: Vec<Node<'_, '_>> = elements(root, "controller").collect();
    let decoded_controllers = component["controllers"].as_array().unwrap();
    check(
        problems,
        label,
        "controller count",
        Some(decoded_controllers.len()),
        Some(controllers.len()),
    );
    for (xml, decoded) in controllers.iter().zip(decoded_controllers) {
        let name = xml.attribute("name").unwrap_or("");
        check(
            problems,
            label,
            "controller name",
            decoded["name"].as_str(),
            Some(name),
        );
        let pages: Vec<&str> = xml
            .attribute("pages")
            .filter(|pages| !pages.is_empty())
            .map_or(Vec::new(), |pages| pages.split(',').collect());
        let expected: Vec<(&str, &str)> = pages
            .chunks_exact(2)
            .map(|pair| (pair[0], pair[1]))
            .collect();
        let actual: Vec<(&str, &str)> = decoded["pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|page| (page["id"].as_str().unwrap(), page["name"].as_str().unwrap()))
            .collect();
        check(
            problems,
            &format!("{label} controller {name}"),
            "pages",
            Some(actual),
            Some(expected),
        );
        stats.controllers += 1;
    }

    // Plain (non-advanced) groups exist only in the editor; the editor drops them.
    let display_list = root
        .children()
        .find(|node| node.has_tag_name("displayList"));
    let all: Vec<Node<'_, '_>> = display_list.map_or(Vec::new(), |list| {
        list.children().filter(Node::is_element).collect()
    });
    let is_plain_group = |node: &Node<'_, '_>| {
        node.has_tag_name("group") && node.attribute("advanced") != Some("true")
    };
    let dropped: Vec<&str> = all
        .iter()
        .filter(|node| is_plain_group(node))
        .filter_map(|node| node.attribute("id"))
        .collect();
    let kept: Vec<Node<'_, '_>> = all
        .iter()
        .copied()
        .filter(|node| !is_plain_group(node))
        .collect();
    let kept_ids: Vec<&str> = kept
        .iter()
        .map(|node| node.attribute("id").unwrap())
        .collect();
    let children = component["children"].as_array().unwrap();
    check(
        problems,
        label,
        "child count",
        Some(children.len()),
        Some(kept.len()),
    );
    for (xml, child) in kept.iter().zip(children) {
        let child_label = format!("{label} child {}", xml.attribute("id").unwrap());
        compare_child(&child_label, *xml, child, &kept_ids, &dropped, problems);
        stats.children += 1;
    }

    let transitions: Vec<Node<'_, '_>> = elements(root, "transition").collect();
    let decoded_transitions = component["transitions"].as_array().unwrap();
    let names: Vec<&str> = transitions
        .iter()
        .filter_map(|transition| transition.attribute("name"))
        .collect();
    let decoded_names: Vec<&str> = decoded_transitions
        .iter()
        .filter_map(|transition| transition["name"].as_str())
        .collect();
    check(
        problems,
        label,
        "transitions",
        Some(decoded_names),
        Some(names),
    );
    for (xml, decoded) in transitions.iter().zip(decoded_transitions) {
        compare_transition(
            &format!("{label} transition"),
            *xml,
            decoded,
            &kept_ids,
            problems,
        );
        stats.transitions += 1;
    }
}

fn compare_child(
    label: &str,
    xml: Node<'_, '_>,
    child: &Value,
    kept_ids: &[&str],
    dropped: &[&str],
    problems: &mut Vec<String>,
) {
    let tag = xml.tag_name().name();
    let expected_type = match tag {
        "jta" => "movieclip",
        "loader3D" => "loader3d",
        "text" if xml.attribute("input") == Some("true") => "inputtext",
        "list" if xml.attribute("treeView") == Some("true") => "tree",
        other => other,
    };
    check(
        problems,
        label,
        "type",
        child["type"].as_str(),
        Some(expected_type),
    );
    check(
        problems,
        label,
        "id",
        child["id"].as_str(),
        xml.attribute("id"),
    );
    check(
        problems,
        label,
        "name",
        child["name"].as_str(),
        xml.attribute("name"),
    );
    let xy = vec![child["x"].as_i64().unwrap(), child["y"].as_i64().unwrap()];
    check(
        problems,
        label,
        "xy",
        Some(xy),
        Some(numbers(xml.attribute("xy").unwrap())),
    );
    // The size is written exactly when the element has one.
    let size = child.get("size").map(integers);
    check(
        problems,
        label,
        "size",
        size,
        xml.attribute("size").map(numbers),
    );
    if let Some(src) = xml.attribute("src") {
        check(problems, label, "src", child["src"].as_str(), Some(src));
    }
    check(
        problems,
        label,
        "pkg",
        child["pkg"].as_str(),
        xml.attribute("pkg"),
    );
    let group = match xml.attribute("group") {
        Some(group) if !dropped.contains(&group) => kept_ids
            .iter()
            .position(|id| *id == group)
            .map(|index| index as i64),
        _ => Some(-1),
    };
    check(problems, label, "group", child["group"].as_i64(), group);

    if matches!(expected_type, "text" | "richtext" | "inputtext") {
        // Empty text is published as null.
        let text = xml.attribute("text").filter(|text| !text.is_empty());
        check(
            problems,
            label,
            "text",
            child["text"].as_str().filter(|text| !text.is_empty()),
            text,
        );
        let font_size = xml
            .attribute("fontSize")
            .map_or(12, |size| size.parse::<i64>().unwrap());
        check(
            problems,
            label,
            "fontSize",
            child["fontSize"].as_i64(),
            Some(font_size),
        );
    }
    if matches!(expected_type, "list" | "tree") {
        let items = child
            .get("items")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        check(
            problems,
            label,
            "list items",
            Some(items),
            Some(elements(xml, "item").count()),
        );
    }
    let mut gears: Vec<String> = xml
        .children()
        .filter(|node| node.is_element())
        .filter_map(|node| {
            node.tag_name()
                .name()
                .strip_prefix("gear")
                .map(str::to_lowercase)
        })
        .map(|gear| {
            if gear == "ani" {
                "animation".to_owned()
            } else {
                gear
            }
        })
        .collect();
    gears.sort();
    let mut decoded_gears: Vec<String> =
        child
            .get("gears")
            .and_then(Value::as_array)
            .map_or(Vec::new(), |gears| {
                gears
                    .iter()
                    .map(|gear| gear["type"].as_str().unwrap().to_owned())
                    .collect()
            });
    decoded_gears.sort();
    check(problems, label, "gears", Some(decoded_gears), Some(gears));
    let relations = child
        .get("relations")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    check(
        problems,
        label,
        "relation targets",
        Some(relations),
        Some(elements(xml, "relation").count()),
    );
}

/// Items aimed at elements that are no longer in the display list are not published.
fn compare_transition(
    label: &str,
    xml: Node<'_, '_>,
    decoded: &Value,
    kept_ids: &[&str],
    problems: &mut Vec<String>,
) {
    let label = format!("{label} {}", xml.attribute("name").unwrap_or(""));
    let items: Vec<Node<'_, '_>> = elements(xml, "item")
        .filter(|item| target_of(item).is_none_or(|target| kept_ids.contains(&target)))
        .collect();
    let decoded_items = decoded["items"].as_array().unwrap();
    check(
        problems,
        &label,
        "item count",
        Some(decoded_items.len()),
        Some(items.len()),
    );
    for (index, (xml, item)) in items.iter().zip(decoded_items).enumerate() {
        let label = format!("{label} item {index}");
        check(
            problems,
            &label,
            "type",
            item["type"].as_str(),
            xml.attribute("type"),
        );
        let target = target_of(xml).map_or(Some(-1), |target| {
            kept_ids
                .iter()
                .position(|id| *id == target)
                .map(|index| index as i64)
        });
        check(problems, &label, "target", item["target"].as_i64(), target);
        let frames = |name: &str| {
            xml.attribute(name)
                .map_or(0.0, |value| value.parse::<f64>().unwrap())
        };
        if (item["time"].as_f64().unwrap() - frames("time") / 24.0).abs() > 1e-4 {
            problems.push(format!(
                "{label}: time {} vs {} frames",
                item["time"],
                frames("time")
            ));
        }
        let tween = xml.attribute("tween") == Some("true");
        check(
            problems,
            &label,
            "tween",
            Some(item.get("tween").is_some()),
            Some(tween),
        );
        if tween {
            let duration = item["tween"]["duration"].as_f64().unwrap();
            if (duration - frames("duration") / 24.0).abs() > 1e-4 {
                problems.push(format!(
                    "{label}: duration {duration} vs {} frames",
                    frames("duration")
                ));
            }
            let ease = xml.attribute("ease").unwrap_or("Quad.Out");
            check(
                problems,
                &label,
                "ease",
                item["tween"]["ease"].as_str(),
                Some(ease),
            );
        }
    }
}

/// A transition item's target element id; absent or empty means the component itself.
fn target_of<'a>(item: &Node<'a, '_>) -> Option<&'a str> {
    item.attribute("target").filter(|target| !target.is_empty())
}

fn check<T: PartialEq + std::fmt::Debug>(
    problems: &mut Vec<String>,
    label: &str,
    what: &str,
    actual: Option<T>,
    expected: Option<T>,
) {
    if actual != expected {
        problems.push(format!(
            "{label}: {what} decoded {actual:?}, XML {expected:?}"
        ));
    }
}

fn elements<'a, 'input>(
    node: Node<'a, 'input>,
    tag: &'static str,
) -> impl Iterator<Item = Node<'a, 'input>> {
    node.children().filter(move |child| child.has_tag_name(tag))
}

/// "x,y,…" as integers, truncating decimals as the editor does.
fn numbers(text: &str) -> Vec<i64> {
    text.split(',')
        .map(|part| part.trim().parse::<f64>().unwrap() as i64)
        .collect()
}

fn integers(value: &Value) -> Vec<i64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|number| number.as_i64().unwrap())
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("read {}: {error}", path.display()))
}
