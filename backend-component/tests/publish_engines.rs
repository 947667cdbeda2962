//! The publisher against what the FairyGUI editor published for other engines: packages of
//! the runtimes' own example projects (`tests/fixtures/engines`, see its SOURCE.md), each
//! published at the reference's version and compared as `publish_descriptors.rs` compares
//! the unity corpus (content, not placement), and by the pixels of every sprite, read the
//! way the engine's runtime reads them. Cocos runtimes take a turned sprite's rectangle as
//! the picture's own size, turned clockwise; LayaAir's cannot draw one at all.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use ofgui_backend::fs::StdFs;
use ofgui_backend::publish::{PublishOptions, publish_package};
use ofgui_backend::reader::read_project;
use ofgui_backend::render::straight::StraightImage;
use serde_json::Value;

use crate::publish_atlas::pages;
use crate::publish_descriptors::comparable_as;

/// Least share of a hit-test mask's bits that must equal the editor's (EDITOR.md).
const HIT_TEST_AGREEMENT: f64 = 0.98;

#[derive(Clone, Copy, PartialEq)]
enum Runtime {
    /// Turned clockwise, the rectangle holding the picture's own size.
    Cocos,
    /// Never turned.
    Laya,
}

struct Fixture {
    folder: &'static str,
    project: &'static str,
    descriptor: &'static str,
    runtime: Runtime,
    packages: &'static [&'static str],
}

const FIXTURES: &[Fixture] = &[
    Fixture {
        folder: "cocos2dx",
        project: "FairyGUI-cocos2dx-Examples.fairy",
        descriptor: "fui",
        runtime: Runtime::Cocos,
        packages: &["Bag", "HitTest"],
    },
    Fixture {
        folder: "cocoscreator",
        project: "FairyGUI-cocoscreator-demo.fairy",
        descriptor: "bin",
        runtime: Runtime::Cocos,
        packages: &["Bag", "HitTest"],
    },
    Fixture {
        folder: "layabox",
        project: "FairyGUI-layabox-demo.fairy",
        descriptor: "fui",
        runtime: Runtime::Laya,
        packages: &["HitTest"],
    },
];

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/engines")
}

/// A sprite's rectangle on its page and whether it is turned.
struct Placed {
    atlas: String,
    rect: [u32; 4],
    rotated: bool,
}

impl Placed {
    /// The picture's own size.
    fn size(&self, runtime: Runtime) -> (u32, u32) {
        let [_, _, w, h] = self.rect;
        if self.rotated && runtime != Runtime::Cocos {
            (h, w)
        } else {
            (w, h)
        }
    }

    /// Pixel (x, y) of the picture, read from its page as the runtime reads it.
    fn pixel<'p>(&self, runtime: Runtime, page: &'p StraightImage, x: u32, y: u32) -> &'p [u8] {
        let [left, top, _, _] = self.rect;
        let (w, h) = self.size(runtime);
        let (px, py) = match (self.rotated, runtime) {
            (false, _) => (left + x, top + y),
            (true, Runtime::Cocos) => (left + h - 1 - y, top + x),
            (true, Runtime::Laya) => (left + y, top + w - 1 - x),
        };
        let i = (py as usize * page.width() as usize + px as usize) * 4;
        &page.data()[i..i + 4]
    }
}

fn placed(decoded: &Value) -> BTreeMap<String, Placed> {
    decoded["sprites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let rect: Vec<u32> = s["rect"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u32)
                .collect();
            let sprite = Placed {
                atlas: s["atlas"].as_str().unwrap().to_owned(),
                rect: [rect[0], rect[1], rect[2], rect[3]],
                rotated: s["rotated"] == true,
            };
            (s["id"].as_str().unwrap().to_owned(), sprite)
        })
        .collect()
}

fn bits(entry: &Value) -> Vec<u8> {
    let hex = entry["pixels"].as_str().unwrap();
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn other_engines_publish_what_their_editor_published() {
    let mut problems = Vec::new();
    let mut turned = 0;
    for fixture in FIXTURES {
        let root = fixtures().join(fixture.folder);
        let source = read_project(&StdFs::new(root.join("UIProject")), fixture.project).unwrap();
        for package in fixture.packages {
            let label = format!("{} {package}", fixture.folder);
            let published = root.join("published");
            let theirs_bytes =
                std::fs::read(published.join(format!("{package}.{}", fixture.descriptor))).unwrap();
            let theirs = ofgui_fui::decode(&theirs_bytes).unwrap();
            let version = theirs["header"]["version"].as_i64().unwrap();
            let options = PublishOptions {
                version: i32::try_from(version).unwrap(),
                ..Default::default()
            };
            let ours_package = publish_package(&source.project, &source.bytes, package, &options)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            assert!(
                ours_package.warnings.is_empty(),
                "{label}: {:?}",
                ours_package.warnings
            );
            let files: BTreeMap<&str, &[u8]> = ours_package
                .files
                .iter()
                .map(|f| (f.name.as_str(), f.bytes.as_slice()))
                .collect();
            let descriptor_name = format!("{package}.{}", fixture.descriptor);
            let ours = ofgui_fui::decode(files[descriptor_name.as_str()]).unwrap();

            // The descriptors' content.
            let own_size = fixture.runtime == Runtime::Cocos;
            let lines = ofgui_fui::diff(
                &comparable_as(theirs.clone(), own_size),
                &comparable_as(ours.clone(), own_size),
                100,
            );
            problems.extend(lines.into_iter().map(|line| format!("{label}: {line}")));

            // Every sprite's pixels, as the runtime reads them.
            let our_pages = pages(&ours, |file| {
                files[format!("{package}_{file}").as_str()].to_vec()
            });
            let their_pages = pages(&theirs, |file| {
                std::fs::read(published.join(format!("{package}_{file}"))).unwrap()
            });
            let (our_sprites, their_sprites) = (placed(&ours), placed(&theirs));
            for (id, their_sprite) in &their_sprites {
                let Some(our_sprite) = our_sprites.get(id) else {
                    problems.push(format!("{label}: no sprite {id}"));
                    continue;
                };
                turned += usize::from(our_sprite.rotated);
                if fixture.runtime == Runtime::Laya && our_sprite.rotated {
                    problems.push(format!("{label} {id}: turned, which LayaAir cannot draw"));
                }
                let (w, h) = their_sprite.size(fixture.runtime);
                if our_sprite.size(fixture.runtime) != (w, h) {
                    continue; // Reported by the descriptor comparison.
                }
                let (our_page, their_page) = (
                    &our_pages[&our_sprite.atlas],
                    &their_pages[&their_sprite.atlas],
                );
                let differing = (0..h)
                    .flat_map(|y| (0..w).map(move |x| (x, y)))
                    .filter(|&(x, y)| {
                        our_sprite.pixel(fixture.runtime, our_page, x, y)
                            != their_sprite.pixel(fixture.runtime, their_page, x, y)
                    })
                    .count();
                if differing > 0 {
                    problems.push(format!("{label} {id}: {differing} of {} pixels", w * h));
                }
            }

            // Hit-test masks: their sizes are compared above; nearly all their bits agree.
            let empty = Vec::new();
            let our_masks = ours["hitTest"].as_array().unwrap_or(&empty);
            for (our_mask, their_mask) in
                our_masks.iter().zip(theirs["hitTest"].as_array().unwrap())
            {
                let (a, b) = (bits(our_mask), bits(their_mask));
                let same = (0..b.len() * 8)
                    .filter(|i| (a[i / 8] >> (i % 8)) & 1 == (b[i / 8] >> (i % 8)) & 1)
                    .count();
                let agreement = same as f64 / (b.len() * 8).max(1) as f64;
                if a.len() != b.len() || agreement < HIT_TEST_AGREEMENT {
                    problems.push(format!(
                        "{label} hit test {}: {:.2} % of the bits agree",
                        their_mask["id"],
                        agreement * 100.0
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The Cocos packages do turn sprites, so the clockwise convention was exercised.
    assert!(turned > 10, "only {turned} turned sprites");
}

/// An old project marks the hit-test child itself and writes a gear's bare default beside
/// values for every page; a save of an edited component keeps the default and writes the
/// hit area as today's editor does.
#[test]
fn an_old_projects_hit_test_child_and_gear_default_survive_a_save() {
    let root = fixtures().join("layabox/UIProject");
    let source = read_project(&StdFs::new(root), "FairyGUI-layabox-demo.fairy").unwrap();
    let package = source
        .project
        .packages
        .iter()
        .find(|p| p.name == "HitTest")
        .unwrap();
    let button = package
        .resources
        .iter()
        .find_map(|r| match r.as_ref() {
            ofgui_contracts::uam::UamResource::Component(c) if c.name == "button1" => Some(c),
            _ => None,
        })
        .unwrap();
    let model = &button.component;
    assert_eq!(model.properties.hit_test, "n1");
    let text = ofgui_backend::writer::component::document(model);
    assert!(text.contains(r#"hitTest="n1""#), "{text}");
    assert!(text.contains(r##"default="#ffffff""##), "{text}");
}
