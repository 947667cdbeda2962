//! What a resource refers to, for choosing the published items (a resource neither exported
//! nor used by a published resource is left out) and the package's dependencies.
//!
//! A component refers to the resources of its nodes (`src`/`pkg`) and to every `ui://` URL
//! anywhere in its content (loader URLs, list items, icons, fonts, sounds, gear and
//! transition values, scroll bars, UBB text…). The design image is the editor's own aid,
//! not content, so it refers to nothing. A bitmap font refers to its glyph images and its
//! texture.

use std::collections::BTreeMap;

use ofgui_contracts::uam::{ComponentModel, DisplayNode, UamPackage, UamResource};

use super::walk::each_string;
use crate::formats::fnt::{FntFile, parse_fnt};
use crate::lookup::urls::{Urls, urls_in};

/// A resource by (package id, resource id).
pub type Key = (String, String);

/// The resources `resource` (of `package`) refers to that exist, in first-reference order.
pub fn references(
    urls: &Urls,
    assets: &BTreeMap<String, Vec<u8>>,
    package: &UamPackage,
    resource: &UamResource,
) -> Vec<Key> {
    let mut out = Vec::new();
    match resource {
        UamResource::Component(component) => {
            component_references(urls, &package.id, &component.component, &mut out)
        }
        UamResource::Font(_) => {
            if let Some(fnt) = font_file(assets, resource) {
                for ch in &fnt.chars {
                    if let Some(img) = &ch.img {
                        push(&mut out, urls, &package.id, img);
                    }
                }
            }
            if let Some(texture) = font_texture(resource) {
                push(&mut out, urls, &package.id, texture);
            }
        }
        _ => {}
    }
    out
}

/// The `.fnt` text of a font resource, parsed; `None` when it was not read or is no BMFont.
pub fn font_file(assets: &BTreeMap<String, Vec<u8>>, resource: &UamResource) -> Option<FntFile> {
    let bytes = assets.get(resource.source_path()?)?;
    let text = std::str::from_utf8(bytes).ok()?;
    parse_fnt(text).ok()
}

/// The image resource a texture font's glyphs sit in (the `<font texture>` attribute).
pub fn font_texture(resource: &UamResource) -> Option<&str> {
    let UamResource::Font(font) = resource else {
        return None;
    };
    font.metadata
        .as_ref()?
        .get("texture")?
        .as_str()
        .filter(|t| !t.is_empty())
}

fn component_references(urls: &Urls, owner: &str, model: &ComponentModel, out: &mut Vec<Key>) {
    for node in &model.display_list {
        let reference = match node {
            DisplayNode::Image(n) => Some(&n.resource),
            DisplayNode::MovieClip(n) => Some(&n.resource),
            DisplayNode::Component(n) => Some(&n.resource),
            _ => None,
        };
        if let Some(reference) = reference {
            let package = reference
                .package_id
                .as_deref()
                .filter(|p| !p.is_empty())
                .unwrap_or(owner);
            push(out, urls, package, &reference.resource_id);
        }
        if let DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) = node {
            let package = Some(n.package_id.as_str())
                .filter(|p| !p.is_empty())
                .unwrap_or(owner);
            push(out, urls, package, &n.src);
        }
        if let DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) =
            node
        {
            let package = Some(n.package_id.as_str())
                .filter(|p| !p.is_empty())
                .unwrap_or(owner);
            push(out, urls, package, &n.src);
        }
    }
    let mut visit = |text: &str| {
        for url in urls_in(text) {
            if let Some((package, resource)) = urls.locate(url) {
                let key = (package.to_owned(), resource.id().to_owned());
                if !out.contains(&key) {
                    out.push(key);
                }
            }
        }
    };
    each_string(model, "designImage", &mut visit);
}

fn push(out: &mut Vec<Key>, urls: &Urls, package: &str, resource: &str) {
    if resource.is_empty() || urls.resource(package, resource).is_none() {
        return;
    }
    let key = (package.to_owned(), resource.to_owned());
    if !out.contains(&key) {
        out.push(key);
    }
}
