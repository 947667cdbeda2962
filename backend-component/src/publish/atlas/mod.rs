//! The atlas phase: the package's pictures packed onto pages, the sprite records saying
//! where each sits (segment 2), the pixel hit-test masks (segment 3), and the atlas items and
//! page images the runtime loads (`<Package>_atlas0.png`).
//!
//! Pictures ([`sources`]): every published image (its `.png`/`.jpg`/`.svg` decoded straight,
//! as its file stores it, by `render::straight`), every movie-clip frame (its texture from the `.jta`; frames
//! sharing a texture share its place), and a texture font's texture, which is its texture
//! image's picture written again under the font's id. Plain images are cut to their visible
//! pixels when `trimImage` is on; nine-grid and tiled images never are.
//!
//! Atlases: an image goes where its `atlas` attribute says (a slot number, or `alone*` for
//! pages of its own), else where its nearest folder's says, else atlas 0; movie clips follow
//! their folder. Each atlas is packed ([`pack`]) by the package's settings ([`settings`]); its
//! first page is `atlas<N>` (`atlas<N>.png`; `atlas_<imageId>` for an image alone), further
//! pages take ids from `atlas100` on, counted over the package, and files
//! `<firstId>_<k>.png`. The editor was never seen writing more than one page, so those names
//! follow its code as far as known (EDITOR.md, item 7). Placement differs from the editor's
//! (its packer is not known exactly); sizes, trims and pixels are its.
//!
//! Pages are PNG holding the pictures' own pixels, as today's editor writes them; at
//! version 2, rounded as the old editor rounded them (`PagePixels`). With `extractAlpha` on Unity, `package` writes each as a colour page and
//! an alpha page (`AtlasPage::encode_png_separate_alpha`). Not done: JPEG pages for the
//! web engines' atlases without alpha (a PNG loads the same, larger), atlas `compression`,
//! and the editor's shortcut of publishing a lone image's own file as its page.
//!
//! Branches: when branches have atlases of their own (`seperatedAtlasForBranch` with
//! `branchProcessing` 0) a branch's pictures are packed apart, each atlas slot's first page
//! `atlas<N>_<branch>.png` with an id from the counter of further pages (`atlas100`, after
//! the main atlases' further pages), as upstream OpenFairyGUI's editor samples show; they
//! are written beside the package, as the editor does (its `branchPath` is for merged
//! branch publishes). Otherwise a branch's pictures are packed with the main ones.

mod hit_test;
mod pack;
mod page;
mod settings;
mod sources;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use ofgui_contracts::uam::{DisplayNode, UamResource};

use super::buffer::Buf;
use super::{Ctx, PublishError, PublishWarning};
pub(crate) use hit_test::HalfSide;
use hit_test::HitMask;
use pack::{PackSettings, pack};
pub use page::{AtlasPage, PagePixels};
use settings::{AtlasSettings, Turn};
use sources::{Bin, Picture, SpriteKind};

/// Where one sprite sits, as its record says.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sprite {
    id: String,
    atlas: String,
    /// The rectangle on the page as stored: a rotated sprite's width runs up the page.
    rect: [u32; 4],
    rotated: bool,
    /// Where the kept part sits in the original picture, and the original's size.
    trim: Option<[u32; 4]>,
}

/// A package's atlases.
pub(crate) struct Atlas {
    pub pages: Vec<AtlasPage>,
    sprites: Vec<Sprite>,
    hit_tests: Vec<(String, HitMask)>,
    pub warnings: Vec<PublishWarning>,
}

/// Decodes, trims and packs the pictures of the published resources.
pub(crate) fn build(ctx: &Ctx, published: &[&UamResource]) -> Atlas {
    let settings = AtlasSettings::of(ctx.project, ctx.package);
    let collected = sources::collect(
        ctx.package,
        published,
        ctx.assets,
        &settings,
        ctx.separate_branch_atlases,
    );
    // Pages keep their pictures until they are encoded, one at a time.
    let pictures: Vec<Arc<Picture>> = collected.pictures.into_iter().map(Arc::new).collect();
    let mut atlas = Atlas {
        pages: Vec::new(),
        sprites: Vec::new(),
        hit_tests: Vec::new(),
        warnings: collected.warnings,
    };
    let mut bins: BTreeMap<&Bin, Vec<&Arc<Picture>>> = BTreeMap::new();
    for picture in &pictures {
        bins.entry(&picture.bin).or_default().push(picture);
    }
    let mut extra_pages = 0u32;
    for (bin, members) in bins {
        // `first_file` is the first page's file without `.png`; a branch's first page
        // takes an id from the counter of further pages, as the editor's samples show
        // (`atlas0_dev.png` is `atlas100` beside a main `atlas0`).
        let (first_id, first_file, size_option) = match bin {
            Bin::Shared { branch, slot } if branch.is_empty() => (
                Some(format!("atlas{slot}")),
                format!("atlas{slot}"),
                settings.size_option,
            ),
            Bin::Shared { branch, slot } => {
                (None, format!("atlas{slot}_{branch}"), settings.size_option)
            }
            Bin::Alone { image_id, size } => (
                Some(format!("atlas_{image_id}")),
                format!("atlas_{image_id}"),
                *size,
            ),
        };
        let pack_settings = PackSettings {
            max_size: settings.max_size,
            size_option,
            square: settings.force_square,
            rotation: settings.allow_rotation,
            paging: settings.paging,
            padding: settings.padding,
            margin: members.iter().any(|p| p.extrude),
        };
        let sizes: Vec<(u32, u32)> = members
            .iter()
            .map(|p| (p.keep.width, p.keep.height))
            .collect();
        let packing = pack(&sizes, &pack_settings);
        if packing.overflowed {
            atlas.warnings.push(PublishWarning {
                code: "atlas_paged",
                resource_id: None,
                message: format!(
                    "the pictures of {first_file} do not fit one {0}×{0} page and paging is off, \
                     so they take {1} pages; turn paging on, raise the largest atlas size or \
                     move pictures to another atlas",
                    settings.max_size,
                    packing.pages.len()
                ),
            });
        }
        let first_page = atlas.pages.len();
        for (k, &(width, height)) in packing.pages.iter().enumerate() {
            let (id, file) = match (k, &first_id) {
                (0, Some(id)) => (id.clone(), format!("{first_file}.png")),
                _ => {
                    extra_pages += 1;
                    let file = if k == 0 {
                        format!("{first_file}.png")
                    } else {
                        format!("{first_file}_{k}.png")
                    };
                    (format!("atlas{}", 99 + extra_pages), file)
                }
            };
            atlas.pages.push(AtlasPage::new(
                id,
                file,
                (width, height),
                ctx.habits.page_pixels,
            ));
        }
        // Records in the editor's order: page by page, largest side first.
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by_key(|&i| {
            let page = packing.placements.get(i).map_or(0, |p| p.page);
            let (w, h) = sizes.get(i).copied().unwrap_or_default();
            (page, Reverse(w.max(h)))
        });
        for i in order {
            let (Some(picture), Some(place)) = (members.get(i), packing.placements.get(i)) else {
                continue;
            };
            let Some(page) = atlas.pages.get_mut(first_page + place.page) else {
                continue;
            };
            let turn = place.rotated.then_some(settings.turn);
            page.place(Arc::clone(picture), place.x, place.y, turn);
            let (w, h) = (picture.keep.width, picture.keep.height);
            let (w, h) = if turn == Some(Turn::CounterClockwise) {
                (h, w)
            } else {
                (w, h)
            };
            for name in &picture.names {
                atlas.sprites.push(Sprite {
                    id: name.id.clone(),
                    atlas: page.id.clone(),
                    rect: [place.x, place.y, w, h],
                    rotated: place.rotated,
                    trim: trim(ctx, &settings, picture, name.kind, place.rotated),
                });
            }
        }
    }
    atlas.hit_tests = hit_tests(ctx, published, &pictures);
    atlas
}

/// A sprite's trim data, by the editor's habits: only with `trimImage` on and never for
/// movie-clip frames; today's editor writes it for every image and font sprite, the old one
/// only for those trimmed or turned counter-clockwise (whose rectangle holds the extents on
/// the page, so the runtime needs the original size).
fn trim(
    ctx: &Ctx,
    settings: &AtlasSettings,
    picture: &Picture,
    kind: SpriteKind,
    rotated: bool,
) -> Option<[u32; 4]> {
    let wanted = settings.trim
        && kind != SpriteKind::Frame
        && (ctx.habits.trim_data_always
            || picture.trimmed()
            || (rotated && settings.turn == Turn::CounterClockwise));
    wanted.then(|| {
        [
            picture.keep.x,
            picture.keep.y,
            picture.image.width(),
            picture.image.height(),
        ]
    })
}

/// The masks of the images the package's published components use as pixel hit areas
/// (an image child of the same package named by the component's `hitTest`), in item order.
fn hit_tests(
    ctx: &Ctx,
    published: &[&UamResource],
    pictures: &[Arc<Picture>],
) -> Vec<(String, HitMask)> {
    let mut wanted = BTreeSet::new();
    for resource in published {
        let Some(model) = resource.component() else {
            continue;
        };
        let target = &model.properties.hit_test;
        if target.is_empty() {
            continue;
        }
        let image = model.display_list.iter().find_map(|node| match node {
            DisplayNode::Image(image) if image.base.id == *target => Some(&image.resource),
            _ => None,
        });
        if let Some(reference) = image.filter(|r| {
            r.package_id
                .as_deref()
                .is_none_or(|p| p.is_empty() || p == ctx.package.id)
        }) {
            wanted.insert(reference.resource_id.as_str());
        }
    }
    published
        .iter()
        .filter(|r| wanted.contains(r.id()))
        .filter_map(|r| {
            let picture = pictures.iter().find(|p| {
                p.names
                    .iter()
                    .any(|n| n.kind == SpriteKind::Image && n.id == r.id())
            })?;
            Some((
                r.id().to_owned(),
                hit_test::mask(&picture.image, ctx.habits.hit_test_half),
            ))
        })
        .collect()
}

impl Atlas {
    /// Segment 2: the sprite records.
    pub(crate) fn write_sprites(&self, ctx: &mut Ctx) -> Result<Buf, PublishError> {
        let mut out = Buf::default();
        out.i16_of(self.sprites.len(), "sprites")?;
        for sprite in &self.sprites {
            let mut record = Buf::default();
            record.id(&mut ctx.strings, &sprite.id)?;
            record.id(&mut ctx.strings, &sprite.atlas)?;
            for value in sprite.rect {
                record.i32(whole(value, "sprite rectangle")?);
            }
            record.bool(sprite.rotated);
            if ctx.version >= 2 {
                record.bool(sprite.trim.is_some());
                for value in sprite.trim.into_iter().flatten() {
                    record.i32(whole(value, "sprite trim")?);
                }
            }
            out.record_u16(&record, "sprite")?;
        }
        Ok(out)
    }

    /// Segment 3: the hit-test masks; absent when there are none, as the editor writes it.
    pub(crate) fn write_hit_tests(&self, ctx: &mut Ctx) -> Result<Option<Buf>, PublishError> {
        if self.hit_tests.is_empty() {
            return Ok(None);
        }
        let mut out = Buf::default();
        out.i16_of(self.hit_tests.len(), "hit tests")?;
        for (id, mask) in &self.hit_tests {
            let mut record = Buf::default();
            record.id(&mut ctx.strings, id)?;
            // Unused by the runtimes; the editor writes 0.
            record.i32(0);
            record.i32(whole(mask.width, "hit-test width")?);
            record.u8(hit_test::SCALE_DIVISOR);
            record.i32_of(mask.bits.len(), "hit-test mask")?;
            record.bytes(&mask.bits);
            out.record_i32(&record, "hit test")?;
        }
        Ok(Some(out))
    }
}

fn whole(value: u32, what: &'static str) -> Result<i32, PublishError> {
    i32::try_from(value).map_err(|_| PublishError::OutOfRange {
        what,
        value: f64::from(value),
    })
}
