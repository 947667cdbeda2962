//! What kind of item a resource is: its item type code and element name, whether it is
//! published at all (TrueType fonts are not), and the ObjectType of component extensions.

use ofgui_contracts::uam::UamResource;

/// A font resource that is a TrueType (or OpenType) file rather than a bitmap font.
pub(crate) fn is_true_type(resource: &UamResource) -> bool {
    let UamResource::Font(_) = resource else {
        return false;
    };
    let file = resource.primary_file().to_ascii_lowercase();
    file.ends_with(".ttf") || file.ends_with(".otf") || file.ends_with(".ttc")
}

/// The resource's element name in `package.xml`, which orders items of one export state.
pub(crate) fn element_name(resource: &UamResource) -> &'static str {
    match resource {
        UamResource::Image(_) => "image",
        UamResource::MovieClip(_) => "movieclip",
        UamResource::Sound(_) => "sound",
        UamResource::Component(_) => "component",
        UamResource::Font(_) => "font",
        UamResource::Spine(_) => "spine",
        UamResource::DragonBones(_) => "dragonbones",
        UamResource::Misc(_) if is_swf(resource) => "swf",
        UamResource::Misc(_) => "misc",
    }
}

fn is_swf(resource: &UamResource) -> bool {
    let UamResource::Misc(misc) = resource else {
        return false;
    };
    misc.metadata
        .as_ref()
        .and_then(|m| m.get("tag"))
        .and_then(|t| t.as_str())
        == Some("swf")
}

/// The item type of an atlas page.
pub(crate) const ATLAS_ITEM: u8 = 4;

pub(crate) fn item_type(resource: &UamResource) -> u8 {
    match resource {
        UamResource::Image(_) => 0,
        UamResource::MovieClip(_) => 1,
        UamResource::Sound(_) => 2,
        UamResource::Component(_) => 3,
        UamResource::Font(_) => 5,
        UamResource::Misc(_) if is_swf(resource) => 6,
        UamResource::Misc(_) => 7,
        UamResource::Spine(_) => 9,
        UamResource::DragonBones(_) => 10,
    }
}

/// The ObjectType of a component extension (0 for a plain component).
pub(crate) fn extension_object_type(extension: &str) -> u8 {
    match extension {
        "Label" => 11,
        "Button" => 12,
        "ComboBox" => 13,
        "ProgressBar" => 14,
        "Slider" => 15,
        "ScrollBar" => 16,
        _ => 0,
    }
}
