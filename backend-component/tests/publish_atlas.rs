//! The publisher's atlases against what the FairyGUI editor published from the same project
//! (`fairygui-unity-examples/published`: `<Pkg>_fui.bytes` and `<Pkg>_atlas0.png`).
//!
//! Placement is ours (the editor's packer is not known exactly), so sprites are compared by
//! id, independent of where they sit and whether they are turned: the same set of sprites,
//! each with the editor's size, trim offset and original size, and the same pixels cut out of
//! our page as out of the editor's: byte for byte (straight RGBA, as the pages store them),
//! except that a JPEG's may be within ±3 (decoders differ), and one JPEG's beyond (another
//! IDCT, EDITOR.md). Pixel hit-test masks have the editor's size and nearly all its bits.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::time::Instant;

use ofgui_backend::fs::StdFs;
use ofgui_backend::publish::{PublishOptions, PublishedPackage, publish_package};
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::render::straight::StraightImage;
use ofgui_backend::testing::unity_root;
use ofgui_contracts::uam::UamResource;
use serde_json::Value;

/// Largest difference of a channel of a JPEG's pixel still counted equal.
const JPEG_TOLERANCE: u8 = 3;
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

    /// Pixel (x, y) of the picture, straight RGBA, read from its page.
    fn pixel<'p>(&self, page: &'p StraightImage, x: u32, y: u32) -> Option<&'p [u8]> {
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
pub(crate) fn pages(
    decoded: &Value,
    read: impl Fn(&str) -> Vec<u8>,
) -> BTreeMap<String, StraightImage> {
    decoded["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["type"] == "atlas")
        .map(|item| {
            let file = item["file"].as_str().unwrap();
            let page = StraightImage::decode(&read(file)).unwrap();
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
            let options = PublishOptions {
                version: *version,
                ..Default::default()
            };
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
        let describe = |pages: &BTreeMap<String, StraightImage>| {
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
            let jpeg = from_jpeg(&source, package, id.split('_').next().unwrap_or(id));
            let tolerance = if jpeg { JPEG_TOLERANCE } else { 0 };
            let (w, h) = theirs.size();
            let mut differing = 0usize;
            for y in 0..h {
                for x in 0..w {
                    let a = ours.pixel(our_page, x, y).unwrap();
                    let b = theirs.pixel(their_page, x, y).unwrap();
                    if a.iter().zip(b).any(|(a, b)| a.abs_diff(*b) > tolerance) {
                        differing += 1;
                    }
                }
            }
            if differing == 0 {
                tally.equal += 1;
            } else {
                let line = format!("{package} {id}: {differing} of {} pixels", w * h);
                if jpeg {
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
        "sprites: {} equal, {} JPEG sprites beyond ±{JPEG_TOLERANCE}, {} others differing, of {total}",
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

/// What a publish under other settings must still be: every sprite on an atlas item's page
/// and inside it, sprites of different pictures apart, and pages sized as the settings say.
struct Rules {
    max_size: u32,
    size: &'static str,
    square: bool,
    rotation: bool,
}

fn check_atlases(package: &str, published: &PublishedPackage, rules: &Rules) -> Value {
    let files: BTreeMap<&str, &[u8]> = published
        .files
        .iter()
        .map(|f| (f.name.as_str(), f.bytes.as_slice()))
        .collect();
    let decoded = ofgui_fui::decode(files[format!("{package}_fui.bytes").as_str()])
        .unwrap_or_else(|e| panic!("{package}: {e}"));
    let pages = pages(&decoded, |file| {
        files
            .get(format!("{package}_{file}").as_str())
            .unwrap_or_else(|| panic!("{package}: no file for {file}"))
            .to_vec()
    });
    let sprites = sprites(&decoded);
    for (id, page) in &pages {
        let (w, h) = (page.width(), page.height());
        let on_page: Vec<&Sprite> = sprites.values().filter(|s| s.atlas == *id).collect();
        assert!(!on_page.is_empty(), "{package} {id}: an empty page");
        let oversized = on_page.len() == 1 && (w > rules.max_size || h > rules.max_size);
        assert!(
            oversized || (w <= rules.max_size && h <= rules.max_size),
            "{package} {id}: {w}x{h} past {}",
            rules.max_size
        );
        match rules.size {
            "pot" => assert!(w.is_power_of_two() && h.is_power_of_two(), "{id}: {w}x{h}"),
            "mof" => assert!(w % 4 == 0 && h % 4 == 0, "{id}: {w}x{h}"),
            _ => {}
        }
        if rules.square {
            assert_eq!(w, h, "{package} {id}");
        }
    }
    let placed: Vec<(&String, &Sprite)> = sprites.iter().collect();
    for (i, (id, sprite)) in placed.iter().enumerate() {
        let page = pages
            .get(&sprite.atlas)
            .unwrap_or_else(|| panic!("{package} {id}: no page {}", sprite.atlas));
        let [x, y, w, h] = sprite.rect;
        assert!(
            x + w <= page.width() && y + h <= page.height(),
            "{package} {id}: {:?} outside {}",
            sprite.rect,
            sprite.atlas
        );
        assert!(rules.rotation || !sprite.rotated, "{package} {id}: rotated");
        for (other_id, other) in &placed[i + 1..] {
            let [ox, oy, ow, oh] = other.rect;
            let apart = x + w <= ox || ox + ow <= x || y + h <= oy || oy + oh <= y;
            // A font's sprite and its texture's, or frames sharing a texture, share a place.
            assert!(
                other.atlas != sprite.atlas || apart || other.rect == sprite.rect,
                "{package}: {id} and {other_id} overlap"
            );
        }
    }
    decoded
}

fn publish_basics(source: &ProjectSource) -> PublishedPackage {
    publish_package(
        &source.project,
        &source.bytes,
        "Basics",
        &PublishOptions::default(),
    )
    .unwrap()
}

fn set_atlas_settings(source: &mut ProjectSource, settings: Value) {
    let publish = source
        .project
        .settings
        .entry("publish")
        .or_insert_with(|| serde_json::json!({}));
    publish["atlasSetting"] = settings;
}

fn basics(source: &mut ProjectSource) -> &mut ofgui_contracts::uam::UamPackage {
    let package = source
        .project
        .packages
        .iter_mut()
        .find(|p| p.name == "Basics")
        .unwrap();
    std::sync::Arc::make_mut(package)
}

#[test]
fn other_atlas_settings_publish_valid_atlases() {
    let mut source =
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").unwrap();

    // Small pages: Basics (one 1024x1024 page for the editor) takes several, the first
    // `atlas0`, the others `atlas100`…, and its 480-pixel images pages of their own.
    set_atlas_settings(
        &mut source,
        serde_json::json!({"maxSize": 256, "paging": true, "sizeOption": "npot",
                           "allowRotation": false, "trimImage": true}),
    );
    let published = publish_basics(&source);
    assert!(published.warnings.is_empty(), "{:?}", published.warnings);
    let rules = Rules {
        max_size: 256,
        size: "npot",
        square: false,
        rotation: false,
    };
    let decoded = check_atlases("Basics", &published, &rules);
    let atlases: Vec<(&str, &str)> = decoded["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["type"] == "atlas")
        .map(|item| (item["id"].as_str().unwrap(), item["file"].as_str().unwrap()))
        .collect();
    assert!(atlases.len() > 4, "{atlases:?}");
    assert_eq!(atlases[0], ("atlas0", "atlas0.png"));
    assert_eq!(atlases[1], ("atlas100", "atlas0_1.png"));
    assert_eq!(decoded["sprites"].as_array().unwrap().len(), 158);

    // Paging off: the same pages, and a warning that says so.
    set_atlas_settings(
        &mut source,
        serde_json::json!({"maxSize": 256, "paging": false, "sizeOption": "npot",
                           "allowRotation": false}),
    );
    let published = publish_basics(&source);
    assert_eq!(
        published
            .warnings
            .iter()
            .map(|w| w.code)
            .collect::<Vec<_>>(),
        ["atlas_paged"]
    );
    check_atlases("Basics", &published, &rules);

    // Multiples of four, square pages, rotation, no padding, no trimming: plain images
    // keep their whole size and carry no trim data at version 2.
    set_atlas_settings(
        &mut source,
        serde_json::json!({"maxSize": 2048, "sizeOption": "mof", "forceSquare": true,
                           "allowRotation": true, "trimImage": false, "padding": 0}),
    );
    let published = publish_package(
        &source.project,
        &source.bytes,
        "Basics",
        &PublishOptions {
            version: 2,
            ..Default::default()
        },
    )
    .unwrap();
    let rules = Rules {
        max_size: 2048,
        size: "mof",
        square: true,
        rotation: true,
    };
    let decoded = check_atlases("Basics", &published, &rules);
    // The bitmap font's texture, trimmed to 254x57 by default, and the font's copy of it.
    let sprites = sprites(&decoded);
    for id in ["jb800", "wa8u2r"] {
        assert_eq!(
            (sprites[id].size(), sprites[id].trim),
            ((256, 256), None),
            "{id}"
        );
    }

    // The package's own settings win over the project's.
    let publish = basics(&mut source).publish.as_mut().unwrap();
    publish.use_global_atlas_settings = false;
    publish.max_atlas_size = ofgui_contracts::Num(512.0);
    publish.size_option = "pot".into();
    publish.force_square = false;
    publish.allow_rotation = false;
    publish.paging = true;
    let published = publish_basics(&source);
    check_atlases(
        "Basics",
        &published,
        &Rules {
            max_size: 512,
            size: "pot",
            square: false,
            rotation: false,
        },
    );
}

#[test]
fn atlas_assignment_and_unreadable_pictures() {
    let mut source =
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").unwrap();
    let package = basics(&mut source);
    let mut broken = None;
    let mut missing = None;
    for resource in &mut package.resources {
        let UamResource::Image(image) = std::sync::Arc::make_mut(resource) else {
            continue;
        };
        match image.base.id.as_str() {
            // 320x480: a page of its own, exactly its size.
            "es4130" => image.image.texture_set_mode = "alone_npot".into(),
            "eut94v" => image.image.texture_set_mode = "1".into(),
            "rt103z" => broken = image.base.source_path.clone(),
            "l6f46y" => missing = image.base.source_path.clone(),
            _ => {}
        }
    }
    source
        .bytes
        .insert(broken.unwrap(), b"\x89PNG\r\n\x1a\nnot really".to_vec());
    source.bytes.remove(&missing.unwrap());
    let published = publish_basics(&source);
    let codes: Vec<(&str, Option<&str>)> = published
        .warnings
        .iter()
        .map(|w| (w.code, w.resource_id.as_deref()))
        .collect();
    assert_eq!(
        codes,
        [
            ("missing_source", Some("l6f46y")),
            ("corrupt_source", Some("rt103z"))
        ]
    );
    let rules = Rules {
        max_size: 2048,
        size: "any",
        square: false,
        rotation: true,
    };
    let decoded = check_atlases("Basics", &published, &rules);
    let sprites = sprites(&decoded);
    assert!(!sprites.contains_key("rt103z") && !sprites.contains_key("l6f46y"));
    assert_eq!(sprites["es4130"].atlas, "atlas_es4130");
    assert_eq!(sprites["es4130"].rect, [0, 0, 320, 480]);
    assert_eq!(sprites["eut94v"].atlas, "atlas1");
    let files: Vec<&str> = published.files.iter().map(|f| f.name.as_str()).collect();
    for file in [
        "Basics_atlas0.png",
        "Basics_atlas1.png",
        "Basics_atlas_es4130.png",
    ] {
        assert!(files.contains(&file), "{files:?}");
    }
}

/// `extractAlpha` (Unity): each page is published as its colours (`Basics_atlas0.png`, RGB)
/// and, beside it, its alpha (`Basics_atlas0!a.png`, the name Unity's runtime loads), which
/// put together give the page published without it.
#[test]
fn separate_alpha_pages_put_together_give_the_page() {
    let mut source =
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").unwrap();
    let whole = publish_basics(&source);
    basics(&mut source).publish.as_mut().unwrap().extract_alpha = true;
    let separated = publish_basics(&source);
    let file = |package: &PublishedPackage, name: &str| {
        package
            .files
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.bytes.clone())
    };
    let pages: Vec<&str> = whole
        .files
        .iter()
        .map(|f| f.name.as_str())
        .filter(|name| name.contains("_atlas"))
        .collect();
    assert!(!pages.is_empty());
    assert_eq!(
        separated.files.len(),
        whole.files.len() + pages.len(),
        "one alpha picture per page (every page of Basics has clear pixels)"
    );
    for page in pages {
        let expected = StraightImage::decode(&file(&whole, page).unwrap()).unwrap();
        let colours = StraightImage::decode(&file(&separated, page).unwrap()).unwrap();
        let alpha_name = page.replace(".png", "!a.png");
        let alpha = StraightImage::decode(&file(&separated, &alpha_name).unwrap()).unwrap();
        for picture in [&colours, &alpha] {
            assert_eq!(
                (picture.width(), picture.height()),
                (expected.width(), expected.height())
            );
        }
        let together = colours
            .data()
            .chunks_exact(4)
            .zip(alpha.data().chunks_exact(4))
            .zip(expected.data().chunks_exact(4));
        for (i, ((colour, alpha), expected)) in together.enumerate() {
            assert_eq!(colour[3], 255, "{page}: the colour page is opaque");
            // Clear pixels are black on the colour page.
            let rgb = if expected[3] == 0 {
                &[0; 3]
            } else {
                &expected[..3]
            };
            assert_eq!(
                (&colour[..3], alpha[1]),
                (rgb, expected[3]),
                "{page} pixel {i}"
            );
        }
    }
}

/// An SVG picture with a DTD (as Illustrator writes them, internal entities and all) is
/// rasterized into the atlas at the size its package declares, as the editor does.
#[test]
fn an_svg_with_a_dtd_is_rasterized_into_the_atlas() {
    let svg = br##"<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
  <!ENTITY ns_svg "http://www.w3.org/2000/svg">
  <!ENTITY orange "#ff8000">
]>
<svg version="1.1" xmlns="&ns_svg;" width="32" height="16" viewBox="0 0 32 16">
  <rect width="32" height="16" fill="&orange;"/>
</svg>
"##;
    let mut source =
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").unwrap();
    let package = basics(&mut source);
    let mut path = None;
    for resource in &mut package.resources {
        let UamResource::Image(image) = std::sync::Arc::make_mut(resource) else {
            continue;
        };
        if image.base.id == "rt103z" {
            image.base.name = "icon.svg".into();
            image.file_name = None;
            // The size the package declares wins over the SVG's own, as in the editor.
            image.dimensions = Some(ofgui_contracts::uam::Size {
                width: ofgui_contracts::num::Num(64.0),
                height: ofgui_contracts::num::Num(32.0),
            });
            image.image.scale_option = 0;
            path = image.base.source_path.clone();
        }
    }
    source.bytes.insert(path.unwrap(), svg.to_vec());
    let published = publish_basics(&source);
    assert!(
        published
            .warnings
            .iter()
            .all(|w| w.resource_id.as_deref() != Some("rt103z")),
        "{:?}",
        published.warnings
    );
    let descriptor = &published
        .files
        .iter()
        .find(|f| f.name == "Basics_fui.bytes")
        .unwrap()
        .bytes;
    let decoded = ofgui_fui::decode(descriptor).unwrap();
    let sprite = &sprites(&decoded)["rt103z"];
    assert_eq!(sprite.size(), (64, 32));
    let pages = pages(&decoded, |file| {
        let name = format!("Basics_{file}");
        published
            .files
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .bytes
            .clone()
    });
    let page = &pages[&sprite.atlas];
    assert_eq!(sprite.pixel(page, 32, 16), Some(&[255, 128, 0, 255][..]));

    // A DTD whose entities nest (the "billion laughs") is refused, not expanded.
    let laughs = br##"<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><text>&b;</text></svg>"##;
    let refused = ofgui_backend::render::image::decode_svg(laughs, None).unwrap_err();
    assert!(refused.contains("entities"), "{refused}");
}
