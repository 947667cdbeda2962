//! All 30 published descriptors decode, and their contents add up to what the format study
//! counted with its own, independent decoder.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::{descriptor, unity_examples};

struct Expected {
    package: &'static str,
    version: i64,
    /// Items by type.
    items: &'static [(&'static str, usize)],
    /// Component items by object type (extension kind).
    components: &'static [(&'static str, usize)],
    sprites: usize,
    /// Sprites of image items, of movie-clip frames, of font textures.
    sprites_by_kind: [usize; 3],
    sprites_trimmed: usize,
    sprites_rotated: usize,
    hit_test: usize,
    /// Names of the packages depended on.
    dependencies: &'static [&'static str],
}

const EXPECTED: &[Expected] = &[
    Expected {
        package: "Bag",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 7),
            ("image", 8),
            ("movieclip", 1),
        ],
        components: &[("button", 4), ("component", 2), ("label", 1)],
        sprites: 20,
        sprites_by_kind: [8, 12, 0],
        sprites_trimmed: 2,
        sprites_rotated: 12,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Basics",
        version: 7,
        items: &[
            ("atlas", 1),
            ("component", 93),
            ("font", 2),
            ("image", 121),
            ("movieclip", 3),
            ("sound", 2),
        ],
        components: &[
            ("button", 35),
            ("combobox", 2),
            ("component", 40),
            ("label", 3),
            ("progressbar", 7),
            ("scrollbar", 2),
            ("slider", 4),
        ],
        sprites: 158,
        sprites_by_kind: [121, 36, 1],
        sprites_trimmed: 122,
        sprites_rotated: 77,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "BundleUsage",
        version: 2,
        items: &[("atlas", 1), ("component", 1), ("image", 1)],
        components: &[("component", 1)],
        sprites: 1,
        sprites_by_kind: [1, 0, 0],
        sprites_trimmed: 0,
        sprites_rotated: 0,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Cooldown",
        version: 2,
        items: &[("atlas", 1), ("component", 3), ("font", 1), ("image", 16)],
        components: &[("button", 2), ("component", 1)],
        sprites: 16,
        sprites_by_kind: [16, 0, 0],
        sprites_trimmed: 10,
        sprites_rotated: 1,
        hit_test: 0,
        dependencies: &["Cooldown"],
    },
    Expected {
        package: "Curve",
        version: 2,
        items: &[("atlas", 1), ("component", 2), ("image", 5)],
        components: &[("button", 1), ("component", 1)],
        sprites: 5,
        sprites_by_kind: [5, 0, 0],
        sprites_trimmed: 4,
        sprites_rotated: 4,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "CutScene",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 4),
            ("image", 3),
            ("movieclip", 1),
        ],
        components: &[("button", 1), ("component", 2), ("progressbar", 1)],
        sprites: 11,
        sprites_by_kind: [3, 8, 0],
        sprites_trimmed: 3,
        sprites_rotated: 8,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "EmitNumbers",
        version: 2,
        items: &[("atlas", 1), ("component", 1), ("font", 2), ("image", 23)],
        components: &[("component", 1)],
        sprites: 23,
        sprites_by_kind: [23, 0, 0],
        sprites_trimmed: 22,
        sprites_rotated: 1,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Emoji",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 9),
            ("image", 48),
            ("movieclip", 14),
        ],
        components: &[("button", 5), ("component", 3), ("scrollbar", 1)],
        sprites: 142,
        sprites_by_kind: [48, 94, 0],
        sprites_trimmed: 38,
        sprites_rotated: 38,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Extension",
        version: 2,
        items: &[("atlas", 1), ("component", 2), ("image", 9)],
        components: &[("button", 1), ("component", 1)],
        sprites: 9,
        sprites_by_kind: [9, 0, 0],
        sprites_trimmed: 3,
        sprites_rotated: 3,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Filter",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 4),
            ("image", 6),
            ("movieclip", 1),
        ],
        components: &[("button", 2), ("component", 1), ("slider", 1)],
        sprites: 14,
        sprites_by_kind: [6, 8, 0],
        sprites_trimmed: 4,
        sprites_rotated: 8,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Gesture",
        version: 2,
        items: &[("component", 1)],
        components: &[("component", 1)],
        sprites: 0,
        sprites_by_kind: [0, 0, 0],
        sprites_trimmed: 0,
        sprites_rotated: 0,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Guide",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 4),
            ("image", 1),
            ("movieclip", 2),
        ],
        components: &[("button", 2), ("component", 2)],
        sprites: 26,
        sprites_by_kind: [1, 25, 0],
        sprites_trimmed: 1,
        sprites_rotated: 7,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "HeadBar",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 3),
            ("image", 3),
            ("movieclip", 2),
        ],
        components: &[("component", 2), ("progressbar", 1)],
        sprites: 12,
        sprites_by_kind: [3, 9, 0],
        sprites_trimmed: 2,
        sprites_rotated: 3,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "HitTest",
        version: 2,
        items: &[("atlas", 1), ("component", 5), ("image", 3)],
        components: &[("button", 4), ("component", 1)],
        sprites: 3,
        sprites_by_kind: [3, 0, 0],
        sprites_trimmed: 2,
        sprites_rotated: 2,
        hit_test: 3,
        dependencies: &[],
    },
    Expected {
        package: "Joystick",
        version: 2,
        items: &[("atlas", 1), ("component", 2), ("image", 2)],
        components: &[("button", 1), ("component", 1)],
        sprites: 2,
        sprites_by_kind: [2, 0, 0],
        sprites_trimmed: 1,
        sprites_rotated: 0,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "LoopList",
        version: 2,
        items: &[("atlas", 1), ("component", 2), ("image", 5)],
        components: &[("button", 1), ("component", 1)],
        sprites: 5,
        sprites_by_kind: [5, 0, 0],
        sprites_trimmed: 4,
        sprites_rotated: 4,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "ModalWaiting",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 7),
            ("image", 5),
            ("movieclip", 1),
        ],
        components: &[("button", 2), ("component", 4), ("label", 1)],
        sprites: 11,
        sprites_by_kind: [5, 6, 0],
        sprites_trimmed: 1,
        sprites_rotated: 7,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Model",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 1),
            ("image", 1),
            ("movieclip", 1),
        ],
        components: &[("component", 1)],
        sprites: 9,
        sprites_by_kind: [1, 8, 0],
        sprites_trimmed: 1,
        sprites_rotated: 5,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Particles",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 2),
            ("image", 1),
            ("movieclip", 1),
        ],
        components: &[("button", 1), ("component", 1)],
        sprites: 9,
        sprites_by_kind: [1, 8, 0],
        sprites_trimmed: 1,
        sprites_rotated: 5,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Perspective",
        version: 2,
        items: &[("atlas", 1), ("component", 5), ("image", 14)],
        components: &[("button", 2), ("component", 3)],
        sprites: 14,
        sprites_by_kind: [14, 0, 0],
        sprites_trimmed: 4,
        sprites_rotated: 4,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "PullToRefresh",
        version: 2,
        items: &[("atlas", 1), ("component", 4), ("image", 4)],
        components: &[("button", 1), ("component", 3)],
        sprites: 4,
        sprites_by_kind: [4, 0, 0],
        sprites_trimmed: 0,
        sprites_rotated: 0,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "RenderTexture",
        version: 2,
        items: &[("atlas", 1), ("component", 7), ("image", 9)],
        components: &[("button", 4), ("component", 2), ("label", 1)],
        sprites: 9,
        sprites_by_kind: [9, 0, 0],
        sprites_trimmed: 7,
        sprites_rotated: 7,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "ScrollPane",
        version: 2,
        items: &[("atlas", 1), ("component", 5), ("image", 2)],
        components: &[("button", 3), ("component", 2)],
        sprites: 2,
        sprites_by_kind: [2, 0, 0],
        sprites_trimmed: 0,
        sprites_rotated: 0,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "TextMeshPro",
        version: 7,
        items: &[("atlas", 1), ("component", 1), ("image", 2)],
        components: &[("component", 1)],
        sprites: 2,
        sprites_by_kind: [2, 0, 0],
        sprites_trimmed: 2,
        sprites_rotated: 1,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "Transition",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 8),
            ("font", 3),
            ("image", 42),
            ("movieclip", 1),
            ("sound", 1),
        ],
        components: &[("button", 1), ("component", 7)],
        sprites: 52,
        sprites_by_kind: [42, 10, 0],
        sprites_trimmed: 36,
        sprites_rotated: 23,
        hit_test: 0,
        dependencies: &["Transition"],
    },
    Expected {
        package: "TreeView",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 3),
            ("image", 5),
            ("movieclip", 1),
        ],
        components: &[("button", 2), ("component", 1)],
        sprites: 15,
        sprites_by_kind: [5, 10, 0],
        sprites_trimmed: 3,
        sprites_rotated: 7,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "TurnCard",
        version: 2,
        items: &[("atlas", 1), ("component", 2), ("image", 3)],
        components: &[("button", 1), ("component", 1)],
        sprites: 3,
        sprites_by_kind: [3, 0, 0],
        sprites_trimmed: 1,
        sprites_rotated: 1,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "TurnPage",
        version: 2,
        items: &[("atlas", 1), ("component", 9), ("image", 9)],
        components: &[("button", 2), ("component", 6), ("slider", 1)],
        sprites: 9,
        sprites_by_kind: [9, 0, 0],
        sprites_trimmed: 5,
        sprites_rotated: 5,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "TypingEffect",
        version: 2,
        items: &[
            ("atlas", 1),
            ("component", 1),
            ("image", 2),
            ("movieclip", 3),
        ],
        components: &[("component", 1)],
        sprites: 24,
        sprites_by_kind: [2, 22, 0],
        sprites_trimmed: 1,
        sprites_rotated: 1,
        hit_test: 0,
        dependencies: &[],
    },
    Expected {
        package: "VirtualList",
        version: 2,
        items: &[("atlas", 1), ("component", 3), ("image", 9)],
        components: &[("button", 2), ("component", 1)],
        sprites: 9,
        sprites_by_kind: [9, 0, 0],
        sprites_trimmed: 3,
        sprites_rotated: 3,
        hit_test: 0,
        dependencies: &[],
    },
];

#[test]
fn every_published_descriptor_is_in_the_table() {
    let published = unity_examples().join("published");
    let found: BTreeSet<String> = std::fs::read_dir(&published)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|name| name.strip_suffix("_fui.bytes").map(str::to_owned))
        .collect();
    let expected: BTreeSet<String> = EXPECTED.iter().map(|row| row.package.to_owned()).collect();
    assert_eq!(found, expected, "descriptors in {}", published.display());
    assert_eq!(expected.len(), 30);
}

#[test]
fn every_descriptor_decodes_with_the_expected_counts() {
    let mut failures = Vec::new();
    for row in EXPECTED {
        match ofgui_fui::decode(&descriptor(row.package)) {
            Ok(package) => {
                let problems = check(row, &package);
                failures.extend(
                    problems
                        .into_iter()
                        .map(|problem| format!("{}: {problem}", row.package)),
                );
            }
            Err(error) => failures.push(format!("{}: {error}", row.package)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn check(row: &Expected, package: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let header = &package["header"];
    expect(
        &mut problems,
        "name",
        row.package.to_owned(),
        text(&header["name"]),
    );
    expect(
        &mut problems,
        "version",
        row.version.to_string(),
        header["version"].to_string(),
    );

    let items = package["items"].as_array().unwrap();
    let by_type = tally(items.iter().map(|item| text(&item["type"])));
    expect(
        &mut problems,
        "items by type",
        format!("{:?}", table(row.items)),
        format!("{by_type:?}"),
    );
    let component_items: Vec<&Value> = items
        .iter()
        .filter(|item| item["type"] == "component")
        .collect();
    let by_object_type = tally(component_items.iter().map(|item| text(&item["objectType"])));
    let expected = format!("{:?}", table(row.components));
    expect(
        &mut problems,
        "components by object type",
        expected,
        format!("{by_object_type:?}"),
    );
    // Each component item carries its decoded content, whose size is the item's.
    for item in component_items {
        let component = &item["component"];
        if component["width"] != item["width"] || component["height"] != item["height"] {
            problems.push(format!(
                "component {}: item and component sizes differ",
                text(&item["id"])
            ));
        }
    }

    let sprites = package["sprites"].as_array().unwrap();
    expect(
        &mut problems,
        "sprites",
        row.sprites.to_string(),
        sprites.len().to_string(),
    );
    let kinds = sprite_kinds(items, sprites, &mut problems);
    expect(
        &mut problems,
        "sprites by kind",
        format!("{:?}", row.sprites_by_kind),
        format!("{kinds:?}"),
    );
    let trimmed = sprites
        .iter()
        .filter(|sprite| sprite["trimmed"] == true)
        .count();
    expect(
        &mut problems,
        "trimmed sprites",
        row.sprites_trimmed.to_string(),
        trimmed.to_string(),
    );
    let rotated = sprites
        .iter()
        .filter(|sprite| sprite["rotated"] == true)
        .count();
    expect(
        &mut problems,
        "rotated sprites",
        row.sprites_rotated.to_string(),
        rotated.to_string(),
    );

    let hit_test = package["hitTest"].as_array().unwrap().len();
    expect(
        &mut problems,
        "hit-test entries",
        row.hit_test.to_string(),
        hit_test.to_string(),
    );
    let dependencies: Vec<String> = package["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|dependency| text(&dependency["name"]))
        .collect();
    expect(
        &mut problems,
        "dependencies",
        format!("{:?}", row.dependencies),
        format!("{dependencies:?}"),
    );
    problems
}

fn expect(problems: &mut Vec<String>, what: &str, expected: String, actual: String) {
    if expected != actual {
        problems.push(format!("{what}: expected {expected}, got {actual}"));
    }
}

/// Sprites of image items, of movie-clip frames (`<clipId>_<frame>`) and of font items.
fn sprite_kinds(items: &[Value], sprites: &[Value], problems: &mut Vec<String>) -> [usize; 3] {
    let types: BTreeMap<String, String> = items
        .iter()
        .map(|item| (text(&item["id"]), text(&item["type"])))
        .collect();
    let mut kinds = [0; 3];
    for sprite in sprites {
        let id = text(&sprite["id"]);
        let clip_type = id.rsplit_once('_').and_then(|(clip, _)| types.get(clip));
        let kind = match (
            types.get(&id).map(String::as_str),
            clip_type.map(String::as_str),
        ) {
            (Some("image"), _) => 0,
            (Some("font"), _) => 2,
            (None, Some("movieclip")) => 1,
            _ => {
                problems.push(format!(
                    "sprite {id} belongs to no image, font or movie clip"
                ));
                continue;
            }
        };
        kinds[kind] += 1;
    }
    kinds
}

fn tally(names: impl Iterator<Item = String>) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for name in names {
        *counts.entry(name).or_insert(0) += 1;
    }
    counts
}

fn table(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs
        .iter()
        .map(|&(name, count)| (name.to_owned(), count))
        .collect()
}

/// A JSON string's text (other values as JSON).
fn text(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_owned)
}
