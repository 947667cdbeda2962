//! The publisher's atlases against what the FairyGUI editor published from the same project
//! (`fairygui-unity-examples/published`: `<Pkg>_fui.bytes` and `<Pkg>_atlas0.png`).
//!
//! Placement is ours (the editor's packer is not known exactly), so sprites are compared by
//! id, independent of where they sit and whether they are turned: the same set of sprites,
//! each with the editor's size, trim offset and original size, and the same pixels cut out of
//! our page as out of the editor's (premultiplied, within ±3 of 255: decoders round
//! differently). Pixel hit-test masks have the editor's size and nearly all its bits.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::time::Instant;

use ofgui_backend::fs::StdFs;
use ofgui_backend::publish::{PublishOptions, PublishedPackage, publish_package};
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::render::image::decode;
use ofgui_backend::testing::unity_root;
use ofgui_contracts::uam::UamResource;
use serde_json::Value;
use tiny_skia::Pixmap;

/// Largest difference of a premultiplied channel still counted equal.
const TOLERANCE: u8 = 3;
/// Least share of a hit-test mask's bits that must equal the editor's (EDITOR.md: the rule
/// is known to 98.4–99.9 %).
const HIT_TEST_AGREEMENT: f64 = 0.98;

fn published_dir() -> std::path::PathBuf {
    unity_root().join("../published")
}

/// The package names of the reference, with their descriptor versions.
fn reference_packages() -> Vec<(String, i32)> {
    let mut names: Vec<(String, i32)> = std::fs::read_dir(published_dir())
        .unwrap()
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix("_fui.bytes").map(str::to_owned)
        })
        .map(|name| {
            let bytes = std::fs::read(published_dir().join(format!("{name}_fui.bytes"))).unwrap();
            let version = i32::from_be_bytes(bytes[4..8].try_into().unwrap());
            (name, version)
        })
        .collect();
    names.sort();
    names
}

/// A sprite record, decoded.
struct Sprite {
    atlas: String,
    rect: [u32; 4],
    rotated: bool,
    trim: Option<[u32; 4]>,
}

impl Sprite {
    /// Width and height as the picture is, not as stored.
    fn size(&self) -> (u32, u32) {
        let [_, _, w, h] = self.rect;
        if self.rotated { (h, w) } else { (w, h) }
    }

    /// Offset in the original and the original's size; without trim data the runtime takes
    /// offset 0,0 and the sprite's own size.
    fn placement_free_trim(&self) -> [u32; 4] {
        let (w, h) = self.size();
        self.trim.unwrap_or([0, 0, w, h])
    }

    /// Pixel (x, y) of the picture, premultiplied RGBA, read from its page.
    fn pixel<'p>(&self, page: &'p Pixmap, x: u32, y: u32) -> Option<&'p [u8]> {
        let [left, top, _, _] = self.rect;
        let (w, _) = self.size();
        let (px, py) = if self.rotated {
            // Stored turned a quarter counter-clockwise: the width runs up the page.
            (left + y, top + w - 1 - x)
        } else {
            (left + x, top + y)
        };
        let i = (py as usize * page.width() as usize + px as usize) * 4;
        page.data().get(i..i + 4)
    }
}

fn numbers(value: &Value) -> Vec<u32> {
    value
        .as_array()
        .map(|a| a.iter().map(|v| v.as_u64().unwrap() as u32).collect())
        .unwrap_or_default()
}

fn sprites(decoded: &Value) -> BTreeMap<String, Sprite> {
    decoded["sprites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let rect = numbers(&s["rect"]);
            let trim = (s["trimmed"] == true).then(|| {
                let offset = numbers(&s["offset"]);
                let original = numbers(&s["originalSize"]);
                [offset[0], offset[1], original[0], original[1]]
            });
            let sprite = Sprite {
                atlas: s["atlas"].as_str().unwrap().to_owned(),
                rect: [rect[0], rect[1], rect[2], rect[3]],
                rotated: s["rotated"] == true,
                trim,
            };
            (s["id"].as_str().unwrap().to_owned(), sprite)
        })
        .collect()
}

/// Atlas pages by item id, from the decoded descriptor and a file reader.
fn pages(decoded: &Value, read: impl Fn(&str) -> Vec<u8>) -> BTreeMap<String, Pixmap> {
    decoded["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["type"] == "atlas")
        .map(|item| {
            let file = item["file"].as_str().unwrap();
            let page = decode(&read(file)).unwrap();
            assert_eq!(
                (page.width(), page.height()),
                (
                    item["width"].as_u64().unwrap() as u32,
                    item["height"].as_u64().unwrap() as u32
                ),
                "{file}: the item's size is the page's"
            );
            (item["id"].as_str().unwrap().to_owned(), page)
        })
        .collect()
}

/// Whether the sprite's source is a JPEG (decoders differ a little there).
fn from_jpeg(source: &ProjectSource, package: &str, id: &str) -> bool {
    let package = source
        .project
        .packages
        .iter()
        .find(|p| p.name == package)
        .unwrap();
    package.resources.iter().any(|r| match r.as_ref() {
        UamResource::Image(image) if image.base.id == id => image
            .base
            .source_path
            .as_deref()
            .and_then(|path| source.bytes.get(path))
            .is_some_and(|bytes| bytes.starts_with(&[0xff, 0xd8])),
        _ => false,
    })
}

fn publish_all(source: &ProjectSource, packages: &[(String, i32)]) -> Vec<PublishedPackage> {
    packages
        .iter()
        .map(|(name, version)| {
            let options = PublishOptions { version: *version };
            publish_package(&source.project, &source.bytes, name, &options)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        })
        .collect()
}

/// Where a sprite's trim data breaks the habits of the editor that wrote the version
/// (EDITOR.md): never for movie-clip frames; for every image and font sprite at version 7;
/// at version 2 only for those trimmed or rotated.
fn trim_habit(decoded: &Value, sprites: &BTreeMap<String, Sprite>) -> Vec<(String, String)> {
    let version = decoded["header"]["version"].as_i64().unwrap();
    let items: Vec<&str> = decoded["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|item| item["id"].as_str())
        .collect();
    let mut problems = Vec::new();
    for (id, sprite) in sprites {
        let frame = !items.contains(&id.as_str());
        let (w, h) = sprite.size();
        let trimmed = sprite.placement_free_trim() != [0, 0, w, h];
        let expected = !frame && (version > 2 || trimmed || sprite.rotated);
        if sprite.trim.is_some() != expected {
            problems.push((
                id.clone(),
                format!("trim data {}, expected {expected}", sprite.trim.is_some()),
            ));
        }
    }
    problems
}

#[derive(Default)]
struct Tally {
    equal: usize,
    jpeg_differing: Vec<String>,
    differing: Vec<String>,
    pages_ours: Vec<String>,
    pages_theirs: Vec<String>,
}

#[test]
fn sprites_pages_and_hit_tests_match_the_editors() {
    let source = read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").unwrap();
    let packages = reference_packages();
    assert_eq!(packages.len(), 30);

    let started = Instant::now();
    let published = publish_all(&source, &packages);
    eprintln!(
        "published the 30 packages (descriptors, atlases, PNG pages) in {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );

    let mut tally = Tally::default();
    let mut problems = Vec::new();
    for ((package, _), ours) in packages.iter().zip(&published) {
        assert!(ours.warnings.is_empty(), "{package}: {:?}", ours.warnings);
        let files: BTreeMap<&str, &[u8]> = ours
            .files
            .iter()
            .map(|f| (f.name.as_str(), f.bytes.as_slice()))
            .collect();
        let ours_decoded = ofgui_fui::decode(files[format!("{package}_fui.bytes").as_str()])
            .unwrap_or_else(|e| panic!("{package}: {e}"));
        let theirs_decoded = ofgui_fui::decode(
            &std::fs::read(published_dir().join(format!("{package}_fui.bytes"))).unwrap(),
        )
        .unwrap();
        let our_pages = pages(&ours_decoded, |file| {
            files
                .get(format!("{package}_{file}").as_str())
                .unwrap_or_else(|| panic!("{package}: no file for {file}"))
                .to_vec()
        });
        let their_pages = pages(&theirs_decoded, |file| {
            std::fs::read(published_dir().join(format!("{package}_{file}"))).unwrap()
        });
        let describe = |pages: &BTreeMap<String, Pixmap>| {
            let sizes: Vec<String> = pages
                .values()
                .map(|p| format!("{}x{}", p.width(), p.height()))
                .collect();
            format!("{package} {}", sizes.join(" "))
        };
        tally.pages_ours.push(describe(&our_pages));
        tally.pages_theirs.push(describe(&their_pages));
        if our_pages.len() != their_pages.len() {
            problems.push(format!(
                "{package}: {} pages, the editor {}",
                our_pages.len(),
                their_pages.len()
            ));
        }

        let ours_sprites = sprites(&ours_decoded);
        let theirs_sprites = sprites(&theirs_decoded);
        for (who, decoded, sprites) in [
            ("ours", &ours_decoded, &ours_sprites),
            ("the editor's", &theirs_decoded, &theirs_sprites),
        ] {
            for (id, problem) in trim_habit(decoded, sprites) {
                problems.push(format!("{package} {id} ({who}): {problem}"));
            }
        }
        let our_ids: Vec<&String> = ours_sprites.keys().collect();
        let their_ids: Vec<&String> = theirs_sprites.keys().collect();
        if our_ids != their_ids {
            problems.push(format!(
                "{package}: sprites {our_ids:?}, the editor's {their_ids:?}"
            ));
            continue;
        }
        for (id, theirs) in &theirs_sprites {
            let ours = &ours_sprites[id];
            if ours.size() != theirs.size()
                || ours.placement_free_trim() != theirs.placement_free_trim()
            {
                problems.push(format!(
                    "{package} {id}: size {:?} trim {:?}, the editor's {:?} {:?}",
                    ours.size(),
                    ours.placement_free_trim(),
                    theirs.size(),
                    theirs.placement_free_trim()
                ));
                continue;
            }
            let (our_page, their_page) = (&our_pages[&ours.atlas], &their_pages[&theirs.atlas]);
            let (w, h) = theirs.size();
            let mut differing = 0usize;
            for y in 0..h {
                for x in 0..w {
                    let a = ours.pixel(our_page, x, y).unwrap();
                    let b = theirs.pixel(their_page, x, y).unwrap();
                    if a.iter().zip(b).any(|(a, b)| a.abs_diff(*b) > TOLERANCE) {
                        differing += 1;
                    }
                }
            }
            if differing == 0 {
                tally.equal += 1;
            } else {
                let line = format!("{package} {id}: {differing} of {} pixels", w * h);
                if from_jpeg(&source, package, id.split('_').next().unwrap_or(id)) {
                    tally.jpeg_differing.push(line);
                } else {
                    tally.differing.push(line);
                }
            }
        }

        let ours_hits = ours_decoded["hitTest"].as_array().unwrap();
        let theirs_hits = theirs_decoded["hitTest"].as_array().unwrap();
        if ours_hits.len() != theirs_hits.len() {
            problems.push(format!(
                "{package}: {} hit-test masks, the editor {}",
                ours_hits.len(),
                theirs_hits.len()
            ));
        }
        for (ours, theirs) in ours_hits.iter().zip(theirs_hits) {
            for key in ["id", "pixelWidth", "scaleDivisor", "pixelsLength"] {
                if ours[key] != theirs[key] {
                    problems.push(format!(
                        "{package} hit test {}: {key} {}, the editor's {}",
                        theirs["id"], ours[key], theirs[key]
                    ));
                }
            }
            let bits = |v: &Value| -> Vec<u8> {
                let hex = v["pixels"].as_str().unwrap();
                (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect()
            };
            let (a, b) = (bits(ours), bits(theirs));
            let width = theirs["pixelWidth"].as_u64().unwrap() as usize;
            // Bits past the grid's last cell are padding.
            let cells = {
                let len = b.len() * 8;
                let rows = len.checked_div(width).unwrap_or(0);
                (rows * width).min(len)
            };
            let same = (0..cells)
                .filter(|i| {
                    (a.get(i / 8).unwrap_or(&0) >> (i % 8)) & 1 == (b[i / 8] >> (i % 8)) & 1
                })
                .count();
            let agreement = same as f64 / cells.max(1) as f64;
            eprintln!(
                "{package} hit test {}: {:.2} % of {cells} bits agree",
                theirs["id"],
                agreement * 100.0
            );
            if agreement < HIT_TEST_AGREEMENT {
                problems.push(format!(
                    "{package} hit test {}: only {:.2} % of the bits agree",
                    theirs["id"],
                    agreement * 100.0
                ));
            }
        }
    }

    let total = tally.equal + tally.jpeg_differing.len() + tally.differing.len();
    eprintln!(
        "sprites: {} equal, {} JPEG sprites beyond ±{TOLERANCE}, {} others differing, of {total}",
        tally.equal,
        tally.jpeg_differing.len(),
        tally.differing.len()
    );
    for line in tally.jpeg_differing.iter().chain(&tally.differing) {
        eprintln!("  {line}");
    }
    eprintln!("pages, ours | the editor's:");
    for (ours, theirs) in tally.pages_ours.iter().zip(&tally.pages_theirs) {
        eprintln!("  {ours:<40} | {theirs}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        tally.differing.is_empty(),
        "sprites whose pixels differ:\n{}",
        tally.differing.join("\n")
    );
}
