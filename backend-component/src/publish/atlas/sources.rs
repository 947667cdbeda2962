//! The pictures an atlas holds: image resources (cut to their visible pixels when the
//! settings say so), the frames of movie clips, and a bitmap font's texture (the texture
//! image's own picture, shown under the font's id too).

use std::collections::{BTreeMap, HashMap};

use ofgui_contracts::uam::{ImageResource, MovieClipResource, UamPackage, UamResource};

use super::super::PublishWarning;
use super::super::refs::font_texture;
use super::settings::{AtlasSettings, SizeOption};
use crate::formats::jta;
use crate::render::image::decode_svg;
use crate::render::straight::StraightImage;

/// What a sprite shows, which decides its trim data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpriteKind {
    Image,
    /// A texture font's sprite: its texture image's picture under the font's id.
    Font,
    /// A movie-clip frame (`<clipId>_<frameIndex>`): never trim data, the clip's frame
    /// record says where it sits.
    Frame,
}

/// One sprite record a picture is written as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SpriteName {
    pub id: String,
    pub kind: SpriteKind,
}

/// The atlas a picture is placed in.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Bin {
    /// A numbered atlas the package's pictures share (`atlas<N>`), or those of one branch
    /// when branches have atlases of their own (`branch` empty for the main one). Main
    /// atlases sort first, so they take the first page ids.
    Shared { branch: String, slot: u32 },
    /// An image on pages of its own (`atlas="alone"`, `alone_npot`, `alone_mof`).
    Alone { image_id: String, size: SizeOption },
}

/// The part of a picture kept in the atlas, in its own pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Keep {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// One picture to place.
#[derive(PartialEq)]
pub(crate) struct Picture {
    /// The sprites showing it, in the order their records are written.
    pub names: Vec<SpriteName>,
    /// The decoded image, whole (pixel hit tests read it all).
    pub image: StraightImage,
    pub keep: Keep,
    pub bin: Bin,
    /// Its edge pixels are copied into the padding around it (`duplicatePadding`), so
    /// filtering at the edge samples the picture, not its neighbour.
    pub extrude: bool,
}

impl Picture {
    /// Whether the kept part is less than the whole.
    pub fn trimmed(&self) -> bool {
        (self.keep.width, self.keep.height) != (self.image.width(), self.image.height())
    }
}

/// The pictures of a package, and what could not be read.
pub(crate) struct Collected {
    pub pictures: Vec<Picture>,
    pub warnings: Vec<PublishWarning>,
}

/// Decodes every picture the published resources need, in item order.
pub(crate) fn collect(
    package: &UamPackage,
    published: &[&UamResource],
    assets: &BTreeMap<String, Vec<u8>>,
    settings: &AtlasSettings,
    separate_branches: bool,
) -> Collected {
    // A texture font shows its texture image's picture: the font's sprite follows the
    // image's, at the same place.
    let mut fonts_by_texture: HashMap<&str, Vec<&str>> = HashMap::new();
    for resource in published {
        if let Some(texture) = font_texture(resource) {
            fonts_by_texture
                .entry(texture)
                .or_default()
                .push(resource.id());
        }
    }
    let mut collected = Collected {
        pictures: Vec::new(),
        warnings: Vec::new(),
    };
    for resource in published {
        match resource {
            UamResource::Image(image) => {
                let fonts = fonts_by_texture
                    .get(image.base.id.as_str())
                    .map_or(&[][..], Vec::as_slice);
                image_picture(
                    &mut collected,
                    package,
                    resource,
                    image,
                    fonts,
                    assets,
                    settings,
                    separate_branches,
                );
            }
            UamResource::MovieClip(clip) => {
                clip_pictures(
                    &mut collected,
                    package,
                    resource,
                    clip,
                    assets,
                    separate_branches,
                );
            }
            _ => {}
        }
    }
    collected
}

#[allow(clippy::too_many_arguments)]
fn image_picture(
    collected: &mut Collected,
    package: &UamPackage,
    resource: &UamResource,
    image: &ImageResource,
    fonts: &[&str],
    assets: &BTreeMap<String, Vec<u8>>,
    settings: &AtlasSettings,
    separate_branches: bool,
) {
    let Some(pixels) = decoded(collected, resource, assets) else {
        return;
    };
    // Nine-grid and tiled images keep their edges: the grid is in untrimmed pixels.
    let keep = if settings.trim && image.image.scale_option == 0 {
        visible_part(&pixels)
    } else {
        whole(&pixels)
    };
    let mut names = vec![SpriteName {
        id: image.base.id.clone(),
        kind: SpriteKind::Image,
    }];
    names.extend(fonts.iter().map(|font| SpriteName {
        id: (*font).to_owned(),
        kind: SpriteKind::Font,
    }));
    collected.pictures.push(Picture {
        names,
        keep,
        bin: image_bin(
            package,
            resource,
            &image.image.texture_set_mode,
            separate_branches,
        ),
        extrude: image.image.duplicate_padding,
        image: pixels,
    });
}

/// One picture per distinct frame texture; frames that share a texture share its picture.
fn clip_pictures(
    collected: &mut Collected,
    package: &UamPackage,
    resource: &UamResource,
    clip: &MovieClipResource,
    assets: &BTreeMap<String, Vec<u8>>,
    separate_branches: bool,
) {
    let Some(bytes) = source_bytes(collected, resource, assets) else {
        return;
    };
    let bin = Bin::Shared {
        branch: bin_branch(resource, separate_branches),
        slot: folder_atlas(package, resource).unwrap_or(0),
    };
    let mut by_texture: HashMap<usize, Option<usize>> = HashMap::new();
    for (frame, texture) in jta::frame_textures(bytes).into_iter().enumerate() {
        // A frame without a texture shows nothing: no sprite, as the editor writes.
        let Some((texture, encoded)) = texture else {
            continue;
        };
        let name = SpriteName {
            id: format!("{}_{frame}", clip.base.id),
            kind: SpriteKind::Frame,
        };
        let picture = *by_texture.entry(texture).or_insert_with(|| {
            let image = match StraightImage::decode(encoded) {
                Ok(image) => image,
                Err(reason) => {
                    collected.warnings.push(unreadable(resource, &reason));
                    return None;
                }
            };
            collected.pictures.push(Picture {
                names: Vec::new(),
                keep: whole(&image),
                bin: bin.clone(),
                extrude: false,
                image,
            });
            Some(collected.pictures.len() - 1)
        });
        if let Some(picture) = picture.and_then(|p| collected.pictures.get_mut(p)) {
            picture.names.push(name);
        }
    }
}

fn source_bytes<'a>(
    collected: &mut Collected,
    resource: &UamResource,
    assets: &'a BTreeMap<String, Vec<u8>>,
) -> Option<&'a [u8]> {
    let bytes = resource.source_path().and_then(|path| assets.get(path));
    if bytes.is_none() {
        collected.warnings.push(PublishWarning {
            code: "missing_source",
            resource_id: Some(resource.id().to_owned()),
            message: format!(
                "the file of resource {} ({}) could not be read, so it has no sprite in the \
                 atlas; the runtime will not find its texture",
                resource.id(),
                resource.primary_file()
            ),
        });
    }
    let bytes = bytes?;
    // A checkout without `git lfs pull`: a picture or a movie clip that is a pointer.
    if let Some(why) = crate::formats::lfs::clause(bytes) {
        collected.warnings.push(PublishWarning {
            code: "corrupt_source",
            resource_id: Some(resource.id().to_owned()),
            message: format!(
                "resource {} ({}) has no sprite in the atlas, so the runtime will not find its \
                 texture: {why}",
                resource.id(),
                resource.primary_file(),
            ),
        });
        return None;
    }
    Some(bytes.as_slice())
}

fn decoded(
    collected: &mut Collected,
    resource: &UamResource,
    assets: &BTreeMap<String, Vec<u8>>,
) -> Option<StraightImage> {
    let bytes = source_bytes(collected, resource, assets)?;
    // An SVG is rasterized at the size the package declares for it, as the editor does.
    if resource
        .primary_file()
        .to_ascii_lowercase()
        .ends_with(".svg")
    {
        let declared = match resource {
            UamResource::Image(image) => image.dimensions.as_ref().and_then(|size| {
                let (width, height) = (size.width.0.round(), size.height.0.round());
                (width >= 1.0 && height >= 1.0).then_some((width as u32, height as u32))
            }),
            _ => None,
        };
        return decode_svg(bytes, declared)
            .map(StraightImage::from_premultiplied)
            .map_err(|reason| collected.warnings.push(unreadable(resource, &reason)))
            .ok();
    }
    StraightImage::decode(bytes)
        .map_err(|reason| collected.warnings.push(unreadable(resource, &reason)))
        .ok()
}

fn unreadable(resource: &UamResource, reason: &str) -> PublishWarning {
    PublishWarning {
        code: "corrupt_source",
        resource_id: Some(resource.id().to_owned()),
        message: format!(
            "resource {} ({}) does not decode ({reason}), so it has no sprite in the atlas; \
             the runtime will not find its texture",
            resource.id(),
            resource.primary_file()
        ),
    }
}

fn whole(image: &StraightImage) -> Keep {
    Keep {
        x: 0,
        y: 0,
        width: image.width(),
        height: image.height(),
    }
}

/// The bounding box of the pixels with any alpha. A picture with none keeps one (clear)
/// pixel: the editor stores a fully transparent image as a 1×1 sprite.
pub(crate) fn visible_part(image: &StraightImage) -> Keep {
    let width = image.width() as usize;
    let mut bounds: Option<(usize, usize, usize, usize)> = None;
    for (y, row) in image.data().chunks_exact(width * 4).enumerate() {
        let alpha = |x: &usize| row.get(x * 4 + 3).is_some_and(|&a| a != 0);
        let Some(first) = (0..width).find(alpha) else {
            continue;
        };
        let last = (first..width).rev().find(alpha).unwrap_or(first);
        bounds = Some(match bounds {
            None => (first, y, last, y),
            Some((left, top, right, _)) => (left.min(first), top, right.max(last), y),
        });
    }
    match bounds {
        // Each coordinate is below the image's u32 size.
        Some((left, top, right, bottom)) => Keep {
            x: left as u32,
            y: top as u32,
            width: (right - left + 1) as u32,
            height: (bottom - top + 1) as u32,
        },
        None => Keep {
            x: 0,
            y: 0,
            width: 1,
            height: 1,
        },
    }
}

/// An image's atlas: its own `atlas` setting, else its folder's (the nearest folder that
/// names one), else atlas 0.
fn image_bin(
    package: &UamPackage,
    resource: &UamResource,
    mode: &str,
    separate_branches: bool,
) -> Bin {
    let alone = |size| Bin::Alone {
        image_id: resource.id().to_owned(),
        size,
    };
    let shared = |slot| Bin::Shared {
        branch: bin_branch(resource, separate_branches),
        slot,
    };
    match mode.trim() {
        "alone" => alone(SizeOption::PowerOfTwo),
        "alone_npot" => alone(SizeOption::Any),
        "alone_mof" => alone(SizeOption::MultipleOfFour),
        "" => shared(folder_atlas(package, resource).unwrap_or(0)),
        index => shared(index.parse().unwrap_or(0)),
    }
}

/// The branch whose atlases a picture goes to: its own when branches have atlases of
/// their own, else the main ones.
fn bin_branch(resource: &UamResource, separate_branches: bool) -> String {
    if separate_branches {
        resource.branch().to_owned()
    } else {
        String::new()
    }
}

/// The atlas slot of the nearest folder above the resource that names one.
fn folder_atlas(package: &UamPackage, resource: &UamResource) -> Option<u32> {
    let mut path = resource.path();
    while path.len() > 1 {
        let slot = package
            .folders
            .iter()
            .filter(|f| f.path == path && (f.branch.is_empty() || f.branch == resource.branch()))
            .find_map(|f| f.atlas.trim().parse().ok());
        if slot.is_some() {
            return slot;
        }
        // `/a/b/` → `/a/`.
        let inner = path.strip_suffix('/').unwrap_or(path);
        path = inner
            .rfind('/')
            .and_then(|end| path.get(..=end))
            .unwrap_or("/");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixmap(width: u32, height: u32, opaque: &[(u32, u32)]) -> StraightImage {
        let mut image = StraightImage::new(width, height).expect("size");
        for &(x, y) in opaque {
            let i = ((y * width + x) * 4) as usize;
            image.data_mut()[i..i + 4].copy_from_slice(&[9, 9, 9, 255]);
        }
        image
    }

    #[test]
    fn the_visible_part_is_the_box_of_pixels_with_alpha() {
        let keep = visible_part(&pixmap(10, 8, &[(3, 2), (6, 5), (4, 1)]));
        assert_eq!(
            keep,
            Keep {
                x: 3,
                y: 1,
                width: 4,
                height: 5
            }
        );
        let clear = visible_part(&pixmap(66, 44, &[]));
        assert_eq!((clear.x, clear.y, clear.width, clear.height), (0, 0, 1, 1));
        let full = visible_part(&pixmap(2, 1, &[(0, 0), (1, 0)]));
        assert_eq!((full.width, full.height), (2, 1));
    }
}
