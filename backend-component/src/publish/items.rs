//! Which resources a package publishes, in what order, and their item records (segment 1),
//! with the dependencies they imply (segment 0).
//!
//! Published: every resource that is exported or used by a published resource of any
//! package (so a resource used only by a dropped component is dropped too), and the
//! high-resolution variants of published images the settings include, except the
//! package's `excludedResourceIds` and TrueType fonts, which are never items. Order, as
//! the editor writes it: non-exported items first, then exported ones; within each, by the
//! resource's XML element name and then by id (plain string order); the atlas items come
//! last, in page order.

use std::collections::{BTreeSet, VecDeque};

use ofgui_contracts::uam::{DisplayNode, UamPackage, UamResource};

use super::atlas::AtlasPage;
use super::buffer::{Buf, Offsets, with_blocks};
use super::kinds::{ATLAS_ITEM, element_name, extension_object_type, is_true_type, item_type};
use super::refs::{self, Key};
use super::values::{float_f64, int, number};
use super::{Ctx, PublishError, component, skeleton};

/// A resource chosen for publishing.
pub(crate) type Published<'a> = Vec<&'a UamResource>;

/// The package's published resources, in item order.
pub(crate) fn select<'a>(ctx: &Ctx<'a>) -> Result<Published<'a>, PublishError> {
    let used = used_resources(ctx);
    let package = ctx.package;
    let excluded: BTreeSet<&str> = package
        .publish
        .as_ref()
        .map(|p| p.excluded_resource_ids.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let mut chosen: Vec<&UamResource> = package
        .resources
        .iter()
        .map(|r| r.as_ref())
        .filter(|r| !excluded.contains(r.id()) && !is_true_type(r))
        .filter(|r| {
            // A merged branch resource is used where its main id is.
            let stands_for = ctx.merged.as_ref().and_then(|m| m.stands_for.get(r.id()));
            r.exported()
                || used.contains(&(package.id.clone(), r.id().to_owned()))
                || stands_for.is_some_and(|main| used.contains(&(package.id.clone(), main.clone())))
        })
        .collect();
    // An image's high-resolution variants go where it goes, used or not.
    let variants: BTreeSet<&str> = chosen
        .iter()
        .filter_map(|r| ctx.high_resolution.get(r.id()))
        .flatten()
        .map(String::as_str)
        .filter(|id| !id.is_empty())
        .collect();
    for resource in package.resources.iter().map(|r| r.as_ref()) {
        if variants.contains(resource.id()) && !chosen.iter().any(|c| c.id() == resource.id()) {
            chosen.push(resource);
        }
    }
    chosen.sort_by(|a, b| {
        (a.exported(), element_name(a), a.id()).cmp(&(b.exported(), element_name(b), b.id()))
    });
    Ok(chosen)
}

/// Every resource of the project reached from an exported one.
fn used_resources(ctx: &Ctx) -> BTreeSet<Key> {
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::new();
    for package in &ctx.project.packages {
        for resource in package.resources.iter().filter(|r| r.exported()) {
            let key = (package.id.clone(), resource.id().to_owned());
            if seen.insert(key.clone()) {
                queue.push_back(key);
            }
        }
    }
    while let Some((package_id, resource_id)) = queue.pop_front() {
        // The published package is read as published (merged, in a merged publish): a
        // replaced main resource uses what its branch variant uses.
        let (package, resource) = if package_id == ctx.package.id {
            let id = ctx
                .merged
                .as_ref()
                .and_then(|m| m.replaced_by.get(&resource_id))
                .unwrap_or(&resource_id);
            let found = ctx.package.resources.iter().find(|r| r.id() == id);
            (Some(ctx.package), found.map(|r| r.as_ref()))
        } else {
            (
                ctx.urls.package(&package_id),
                ctx.urls.resource(&package_id, &resource_id),
            )
        };
        let (Some(package), Some(resource)) = (package, resource) else {
            continue;
        };
        for key in refs::references(&ctx.urls, ctx.assets, package, resource) {
            if seen.insert(key.clone()) {
                queue.push_back(key);
            }
        }
    }
    seen
}

/// Segment 0: the other packages the published components use (resources that exist
/// only), in first-reference order, and the package's branch names.
pub(crate) fn dependencies(ctx: &mut Ctx, published: &Published) -> Result<Buf, PublishError> {
    let package: &UamPackage = ctx.package;
    let mut ids: Vec<String> = Vec::new();
    for resource in published.iter().filter(|r| r.kind() == "component") {
        for (package_id, _) in refs::references(&ctx.urls, ctx.assets, package, resource) {
            if package_id != package.id && !ids.contains(&package_id) {
                ids.push(package_id);
            }
        }
        if ctx.habits.self_font_dependency
            && !ids.contains(&package.id)
            && uses_own_font(ctx, resource)
        {
            ids.push(package.id.clone());
        }
    }
    let mut out = Buf::default();
    out.i16_of(ids.len(), "dependencies")?;
    for id in &ids {
        let name = ctx
            .urls
            .package(id)
            .map(|p| p.name.as_str())
            .unwrap_or_default();
        out.id(&mut ctx.strings, id)?;
        out.id(&mut ctx.strings, name)?;
    }
    if ctx.version >= 2 {
        out.i16_of(package.branch_names.len(), "branches")?;
        for branch in &package.branch_names {
            out.id(&mut ctx.strings, branch)?;
        }
    }
    Ok(out)
}

/// Whether a text node of the component uses a font of its own package by URL.
fn uses_own_font(ctx: &Ctx, resource: &UamResource) -> bool {
    let Some(model) = resource.component() else {
        return false;
    };
    model.display_list.iter().any(|node| {
        let font = match node {
            DisplayNode::Text(n) => &n.text.font,
            DisplayNode::RichText(n) => &n.text.font,
            DisplayNode::TextInput(n) => &n.text.font,
            _ => return false,
        };
        ctx.urls
            .locate(font)
            .is_some_and(|(package, _)| package == ctx.package.id)
    })
}

/// Segment 1: the item records, the atlas pages' last.
pub(crate) fn write_items(
    ctx: &mut Ctx,
    published: &Published,
    pages: &[AtlasPage],
) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    out.i16_of(published.len() + pages.len(), "items")?;
    for resource in published {
        let record = item(ctx, resource)?;
        out.record_i32(&record, "item")?;
    }
    for page in pages {
        let record = atlas_item(ctx, page)?;
        out.record_i32(&record, "item")?;
    }
    Ok(out)
}

/// An atlas page's item: no name or path, the file the runtime loads, the page's size.
fn atlas_item(ctx: &mut Ctx, page: &AtlasPage) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    out.u8(ATLAS_ITEM);
    out.id(&mut ctx.strings, &page.id)?;
    out.null();
    out.null();
    out.id(&mut ctx.strings, &page.file)?;
    out.bool(false);
    for (side, what) in [(page.width, "atlas width"), (page.height, "atlas height")] {
        out.i32(i32::try_from(side).map_err(|_| PublishError::OutOfRange {
            what,
            value: f64::from(side),
        })?);
    }
    if ctx.version >= 2 {
        out.null();
        out.u8(0);
        out.u8(0);
    }
    Ok(out)
}

/// The file a sound or other raw resource is published as, beside the descriptor and
/// prefixed with `<Package>_`: `<id>.<ext>`.
pub(crate) fn raw_file_name(resource: &UamResource) -> String {
    let primary = resource.primary_file();
    match primary.rsplit_once('.') {
        Some((_, ext)) => format!("{}.{ext}", resource.id()),
        None => resource.id().to_owned(),
    }
}

fn item(ctx: &mut Ctx, resource: &UamResource) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    out.u8(item_type(resource));
    out.id(&mut ctx.strings, resource.id())?;
    out.id(&mut ctx.strings, resource.name())?;
    out.id(&mut ctx.strings, resource.path())?;
    match resource {
        UamResource::Sound(_) | UamResource::Misc(_) => {
            out.id(&mut ctx.strings, &raw_file_name(resource))?;
        }
        UamResource::Spine(_) | UamResource::DragonBones(_) => {
            let name = skeleton::published_name(&resource.primary_file(), ctx.unity_like);
            out.id(&mut ctx.strings, &name)?;
        }
        _ => out.null(),
    }
    out.bool(resource.exported());
    let (width, height) = match resource {
        UamResource::Image(r) => r
            .dimensions
            .as_ref()
            .map_or((0, 0), |d| (d.width, d.height).into_ints()),
        UamResource::MovieClip(r) => (r.dimensions.width, r.dimensions.height).into_ints(),
        UamResource::Component(c) => (c.component.size.width, c.component.size.height).into_ints(),
        UamResource::Spine(r) | UamResource::DragonBones(r) => r
            .dimensions
            .as_ref()
            .map_or((0, 0), |d| (d.width, d.height).into_ints()),
        _ => (0, 0),
    };
    out.i32(width);
    out.i32(height);
    match resource {
        UamResource::Image(image) => {
            let props = &image.image;
            match (props.scale_option, props.scale9_grid.as_deref()) {
                (1, Some([x, y, w, h])) => {
                    out.u8(1);
                    for v in [x, y, w, h] {
                        out.i32(int(*v, "scale9grid")?);
                    }
                    out.i32(int(props.tile_grid_indice, "gridTile")?);
                }
                (2, _) => out.u8(2),
                _ => out.u8(0),
            }
            out.bool(props.smoothing);
        }
        UamResource::MovieClip(clip) => {
            out.bool(clip.movie_clip.smoothing);
            let data = movie_clip(ctx, clip)?;
            out.record_i32(&data, "movie clip")?;
        }
        UamResource::Font(_) => {
            let data = font(ctx, resource)?;
            out.record_i32(&data, "font")?;
        }
        UamResource::Component(c) => {
            out.u8(extension_object_type(
                &c.component.properties.extension_type,
            ));
            let data = component::write(ctx, c)?;
            out.record_i32(&data, "component")?;
        }
        UamResource::Spine(r) | UamResource::DragonBones(r) => {
            let anchor = r
                .metadata
                .as_ref()
                .and_then(|m| m.get("anchor"))
                .and_then(|a| a.as_str())
                .unwrap_or_default();
            let mut parts = anchor.split(',').map(|p| number(p).unwrap_or(0.0));
            out.f32(float_f64(parts.next().unwrap_or(0.0), "anchor")?);
            out.f32(float_f64(parts.next().unwrap_or(0.0), "anchor")?);
        }
        UamResource::Sound(_) | UamResource::Misc(_) => {}
    }
    if ctx.version >= 2 {
        // Merged: no branch name, and the main id a merged resource stands for, under
        // which the runtime registers it too.
        let stands_for = ctx
            .merged
            .as_ref()
            .and_then(|m| m.stands_for.get(resource.id()).cloned());
        let branch = if ctx.merged.is_some() {
            ""
        } else {
            resource.branch()
        };
        out.opt(&mut ctx.strings, branch)?;
        // The per-branch replacement ids, written only when the package has branches.
        let branch_ids: Vec<String> = if let Some(main) = stands_for {
            vec![main]
        } else if ctx.package.branch_names.is_empty() {
            Vec::new()
        } else {
            resource.branch_item_ids().to_vec()
        };
        out.u8_of(branch_ids.len(), "branch ids of an item")?;
        for id in &branch_ids {
            out.opt(&mut ctx.strings, id)?;
        }
        let variants = ctx
            .high_resolution
            .get(resource.id())
            .cloned()
            .unwrap_or_default();
        out.u8_of(variants.len(), "high-resolution variants of an item")?;
        for id in &variants {
            out.opt(&mut ctx.strings, id)?;
        }
    }
    Ok(out)
}

trait IntoInts {
    fn into_ints(self) -> (i32, i32);
}

impl IntoInts for (ofgui_contracts::Num, ofgui_contracts::Num) {
    /// A size in whole pixels; a size that does not fit is 0 (validation reports it).
    fn into_ints(self) -> (i32, i32) {
        (
            int(self.0, "width").unwrap_or(0),
            int(self.1, "height").unwrap_or(0),
        )
    }
}

/// A movie clip's buffer (§4.1): timing, then the frames.
fn movie_clip(
    ctx: &mut Ctx,
    clip: &ofgui_contracts::uam::MovieClipResource,
) -> Result<Buf, PublishError> {
    let props = &clip.movie_clip;
    let mut timing = Buf::default();
    // Milliseconds, whole: the editor truncates (24 fps is 41).
    timing.i32(int_trunc(props.interval.get(), "interval")?);
    timing.bool(props.swing);
    timing.i32(int_trunc(props.repeat_delay.get(), "repeatDelay")?);
    let mut frames = Buf::default();
    frames.i16_of(props.frames.len(), "movie clip frames")?;
    for (index, frame) in props.frames.iter().enumerate() {
        let mut record = Buf::default();
        record.i32(int(frame.rect_x, "frame x")?);
        record.i32(int(frame.rect_y, "frame y")?);
        record.i32(int(frame.rect_width, "frame width")?);
        record.i32(int(frame.rect_height, "frame height")?);
        record.i32(int_trunc(frame.add_delay.get(), "frame delay")?);
        // The frame's sprite. The model does not say whether a frame is empty (no
        // texture; the editor would write null), so every frame names its sprite.
        record.id(&mut ctx.strings, &format!("{}_{index}", clip.base.id))?;
        frames.record_u16(&record, "movie clip frame")?;
    }
    with_blocks(
        Offsets::Long,
        vec![Some(timing), Some(frames)],
        "movie clip",
    )
}

fn int_trunc(value: f64, what: &'static str) -> Result<i32, PublishError> {
    super::values::int_f64(value.trunc(), what)
}

/// A bitmap font's buffer (§4.2), from its `.fnt` text. A font made in the editor names an
/// image resource per glyph (`img=`); a BMFont texture font places its glyphs in one
/// texture. A font whose file could not be read or parsed is published without glyphs
/// (validation reports the file).
fn font(ctx: &mut Ctx, resource: &UamResource) -> Result<Buf, PublishError> {
    let fnt = refs::font_file(ctx.assets, resource).unwrap_or_default();
    let image_font = fnt.chars.iter().any(|c| c.img.is_some());
    let mut settings = Buf::default();
    settings.bool(!image_font);
    settings.bool(fnt.info.colored.unwrap_or(!image_font));
    settings.bool(fnt.info.resizable);
    settings.bool(fnt.common.packed);
    settings.i32(if image_font { 0 } else { fnt.info.size });
    settings.i32(fnt.common.xadvance);
    settings.i32(fnt.common.line_height);
    let mut glyphs = Buf::default();
    // `char id=0` is BMFont's "missing glyph"; the editor drops it, and a code point past
    // the format's one UTF-16 unit cannot be carried.
    let chars: Vec<_> = fnt
        .chars
        .iter()
        .filter_map(|c| Some((u16::try_from(c.id).ok().filter(|&id| id != 0)?, c)))
        .collect();
    glyphs.i32_of(chars.len(), "font glyphs")?;
    for (code, ch) in chars {
        let mut record = Buf::default();
        record.u16(code);
        match &ch.img {
            Some(img) => {
                record.id(&mut ctx.strings, img)?;
                for v in [0, 0, ch.xoffset, ch.yoffset, 0, 0, ch.xadvance] {
                    record.i32(v);
                }
                record.u8(0);
            }
            None => {
                record.null();
                for v in [
                    ch.x,
                    ch.y,
                    ch.xoffset,
                    ch.yoffset,
                    ch.width,
                    ch.height,
                    ch.xadvance,
                ] {
                    record.i32(v);
                }
                record.u8(u8::try_from(ch.chnl).unwrap_or(15));
            }
        }
        glyphs.record_u16(&record, "font glyph")?;
    }
    with_blocks(Offsets::Long, vec![Some(settings), Some(glyphs)], "font")
}
