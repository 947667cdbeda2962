//! Images and movie clips in the scene, decoded once per render.

use std::rc::Rc;

use ofgui_contracts::uam::{ResourceRef, UamResource};
use tiny_skia::{Color, Pixmap, PixmapMut};

use crate::render::color;
use crate::render::image::{self, Fill, ImageLook};

use super::{Frame, Painter};

impl<'a> Painter<'a> {
    pub(super) fn image_by_ids(&mut self, package_id: &str, resource_id: &str) -> Option<Pixmap> {
        let UamResource::Image(image) = self.urls.resource(package_id, resource_id)? else {
            return None;
        };
        let path = image.base.source_path.clone()?;
        self.image_at(&path)
    }

    pub(super) fn image_at(&mut self, path: &str) -> Option<Pixmap> {
        self.decoded(path).map(|p| (*p).clone())
    }

    /// The decoded image at a project path, once per render.
    pub(super) fn decoded(&mut self, path: &str) -> Option<Rc<Pixmap>> {
        if let Some(found) = self.images.get(path) {
            return found.clone();
        }
        let decoded = self
            .files
            .get(path)
            .and_then(|bytes| image::decode(bytes).ok())
            .map(Rc::new);
        self.images.insert(path.to_owned(), decoded.clone());
        decoded
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn image(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        reference: &ResourceRef,
        w: f32,
        h: f32,
        tint: &str,
        flip: i32,
        fill: Fill,
    ) {
        let resource = self.urls.reference(frame.package_id, reference);
        let Some(UamResource::Image(image)) = resource else {
            let reason = match resource {
                Some(other) => format!("it refers to a {}, not an image", other.kind()),
                None => format!("its image {} is not in the project", reference.resource_id),
            };
            self.placeholder(
                canvas,
                frame,
                w,
                h,
                "image",
                &format!("{reason}: drawn as a placeholder box"),
            );
            return;
        };
        let Some(pixels) = image
            .base
            .source_path
            .as_deref()
            .and_then(|p| self.decoded(p))
        else {
            self.placeholder(canvas, frame, w, h, "image", &format!("the file of image {} is missing or cannot be decoded: drawn as a placeholder box", image.base.name));
            return;
        };
        let grid = match (image.image.scale_option, &image.image.scale9_grid) {
            (1, Some(g)) if g.len() == 4 => Some([
                g[0].get() as f32,
                g[1].get() as f32,
                g[2].get() as f32,
                g[3].get() as f32,
            ]),
            _ => None,
        };
        if grid.is_some() && image.image.tile_grid_indice.get() != 0.0 {
            self.approximate(
                &frame.path,
                "image",
                "the 9-grid's tiled cells (gridTile) are stretched",
            );
        }
        let look = ImageLook {
            grid,
            tile: image.image.scale_option == 2,
            flip,
            tint: color::parse(tint).unwrap_or(Color::WHITE),
            fill: (fill.method != 0).then_some(fill),
            alpha: frame.alpha,
            smooth: image.image.smoothing,
        };
        image::draw(
            canvas,
            frame.transform,
            w,
            h,
            pixels.as_ref().as_ref(),
            None,
            &look,
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn movie_clip(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        reference: &ResourceRef,
        w: f32,
        h: f32,
        tint: &str,
        frame_index: usize,
    ) {
        let Some(UamResource::MovieClip(clip)) = self.urls.reference(frame.package_id, reference)
        else {
            self.placeholder(
                canvas,
                frame,
                w,
                h,
                "movieClip",
                "its movie clip is not in the project: drawn as a placeholder box",
            );
            return;
        };
        let (pixels, [x, y, fw, fh]) = match self.clip_frame(clip, frame_index) {
            Ok(drawn) => drawn,
            Err(reason) => {
                self.placeholder(canvas, frame, w, h, "movieClip", reason);
                return;
            }
        };
        // Frames sit in the clip's own bounds, which the node stretches to its size.
        let (cw, ch) = (
            clip.dimensions.width.get().max(1.0) as f32,
            clip.dimensions.height.get().max(1.0) as f32,
        );
        let at = frame
            .transform
            .pre_scale(w / cw, h / ch)
            .pre_translate(x as f32, y as f32);
        let look = ImageLook {
            grid: None,
            tile: false,
            flip: 0,
            tint: color::parse(tint).unwrap_or(Color::WHITE),
            fill: None,
            alpha: frame.alpha,
            smooth: clip.movie_clip.smoothing,
        };
        image::draw(
            canvas,
            at,
            fw as f32,
            fh as f32,
            pixels.as_ref(),
            None,
            &look,
        );
    }
}
