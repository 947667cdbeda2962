//! Writes an accepted `setDisplayNodeProps` into the node: base fields, text shortcuts and
//! the node kind's snapshot, retargeting resource references as the node wrote them.

use ofgui_contracts::ops::DisplayNodePropsUpdate;
use ofgui_contracts::uam::{
    DisplayNode, EdgeInsets, InstanceProperties, ListProperties, ResourceRef, UamProject,
};

use super::checks::resolve;
use crate::txn::layout::resource_folder;

/// The reference after retargeting `current` to `wanted`. A reference into the owning
/// package keeps the form the node already had (`pkg` written or not), so retargeting
/// changes only the resource id.
fn retarget(current: &ResourceRef, wanted: &ResourceRef, owner: &str) -> ResourceRef {
    let is_own = |id: Option<&str>| id.is_none_or(|id| id.is_empty() || id == owner);
    let package_id =
        if is_own(wanted.package_id.as_deref()) && is_own(current.package_id.as_deref()) {
            current.package_id.clone()
        } else if is_own(wanted.package_id.as_deref()) {
            None
        } else {
            wanted.package_id.clone()
        };
    ResourceRef {
        package_id,
        resource_id: wanted.resource_id.clone(),
    }
}

/// An empty or absent `packageId` becomes the owning package.
pub(super) fn own_package(resource: &mut ResourceRef, owner: &str) {
    if resource.package_id.as_deref().is_none_or(str::is_empty) {
        resource.package_id = Some(owner.to_string());
    }
}

/// Whether a list's file writes its margin after a snapshot: as before while the margin
/// stays, otherwise as the editor writes a margin it sets (only one that is not zero).
fn margin_written(written: bool, old: &ListProperties, new: &ListProperties) -> bool {
    if old.margin == new.margin {
        written
    } else {
        new.margin != EdgeInsets::default()
    }
}

/// `instance` is the component node's instance properties as `props` leaves them (see
/// `instance::change`).
pub(super) fn apply_props(
    node: &mut DisplayNode,
    props: &DisplayNodePropsUpdate,
    instance: Option<Option<InstanceProperties>>,
    project: &UamProject,
    owner: &str,
) {
    let base = node.base_mut();
    if let Some(v) = &props.position {
        base.position = v.clone();
    }
    if let Some(v) = &props.size {
        base.size = v.clone();
        // A size the agent sets is the node's own: written to the file and published.
        base.explicit_size = true;
    }
    if let Some(v) = props.locked {
        base.locked = v;
    }
    if let Some(v) = props.aspect {
        base.aspect = v;
    }
    if let Some(v) = &props.min_size {
        base.min_size = v.clone();
    }
    if let Some(v) = &props.max_size {
        base.max_size = v.clone();
    }
    if let Some(v) = &props.pivot {
        base.pivot = Some(v.clone());
    }
    if let Some(v) = props.pivot_as_anchor {
        base.pivot_as_anchor = Some(v);
    }
    if let Some(v) = &props.scale {
        base.scale = v.clone();
    }
    if let Some(v) = &props.skew {
        base.skew = v.clone();
    }
    if let Some(v) = props.visible {
        base.visible = v;
    }
    if let Some(v) = props.touchable {
        base.touchable = v;
    }
    if let Some(v) = props.grayed {
        base.grayed = v;
    }
    if let Some(v) = props.alpha {
        base.alpha = v;
    }
    if let Some(v) = props.rotation {
        base.rotation = v;
    }
    if let Some(v) = &props.tooltips {
        base.tooltips = v.clone();
    }
    if let Some(v) = &props.blend_mode {
        base.blend_mode = v.clone();
    }
    if let Some(v) = &props.filter {
        base.filter = v.clone();
    }
    if let Some(v) = &props.filter_data {
        base.filter_data = v.clone();
    }
    if let Some(v) = &props.custom_data {
        base.custom_data = v.clone();
    }
    if let Some(v) = &props.group {
        base.group = Some(v.clone());
    }

    let text = match node {
        DisplayNode::Text(n) => Some(&mut n.text),
        DisplayNode::RichText(n) => Some(&mut n.text),
        DisplayNode::TextInput(n) => Some(&mut n.text),
        _ => None,
    };
    if let Some(text) = text {
        if let Some(v) = &props.text {
            text.text = v.clone();
        }
        if let Some(v) = &props.font {
            text.font = v.clone();
        }
        if let Some(v) = props.font_size {
            text.font_size = v;
        }
        if let Some(v) = &props.color {
            text.color = v.clone();
        }
        if let Some(update) = &props.text_properties {
            *text = update.text.clone();
        }
    }
    match node {
        DisplayNode::Text(n) => {
            if let Some(plain) = props
                .text_properties
                .as_ref()
                .and_then(|u| u.plain.as_ref())
            {
                n.plain = plain.clone();
            }
        }
        DisplayNode::TextInput(n) => {
            if let Some(update) = &props.text_properties {
                if let Some(plain) = &update.plain {
                    n.plain = plain.clone();
                }
                if let Some(input) = &update.input {
                    n.prompt_text = input.prompt_text.clone();
                    n.max_length = input.max_length;
                    n.restrict = input.restrict.clone();
                    n.password = input.password;
                    n.keyboard_type = input.keyboard_type;
                }
            }
        }
        DisplayNode::Image(n) => {
            if let Some(v) = &props.image_properties {
                if let Some(resource) = &v.resource {
                    n.resource = retarget(&n.resource, resource, owner);
                }
                n.props = v.image.clone();
            }
        }
        DisplayNode::MovieClip(n) => {
            if let Some(v) = &props.movie_clip_properties {
                if let Some(resource) = &v.resource {
                    n.resource = retarget(&n.resource, resource, owner);
                    n.file_name = match (
                        &v.file_name,
                        resolve(
                            project,
                            owner,
                            resource.package_id.as_deref(),
                            &resource.resource_id,
                        ),
                    ) {
                        (Some(file_name), _) => file_name.clone(),
                        (None, Some(target)) => format!(
                            "{}{}",
                            resource_folder(target).trim_start_matches('/'),
                            target.primary_file()
                        ),
                        (None, None) => n.file_name.clone(),
                    };
                }
                n.props = v.clip.clone();
            }
        }
        DisplayNode::Graph(n) => {
            if let Some(v) = &props.graph_properties {
                n.props = v.clone();
            }
        }
        DisplayNode::Group(n) => {
            if let Some(v) = &props.group_properties {
                n.props = v.clone();
            }
        }
        DisplayNode::Loader(n) => {
            if let Some(v) = &props.loader_properties {
                n.props = v.clone();
            }
        }
        DisplayNode::Loader3D(n) => {
            if let Some(v) = &props.loader3d_properties {
                n.props = v.clone();
            }
        }
        DisplayNode::List(n) => {
            if let Some(v) = &props.list_properties {
                n.explicit_margin = margin_written(n.explicit_margin, &n.list, &v.list);
                n.list = v.list.clone();
            }
        }
        DisplayNode::Tree(n) => {
            if let Some(v) = &props.list_properties {
                n.explicit_margin = margin_written(n.explicit_margin, &n.list, &v.list);
                n.list = v.list.clone();
                if let Some(tree) = &v.tree {
                    n.tree = tree.clone();
                }
            }
        }
        DisplayNode::Component(n) => {
            if let Some(v) = instance {
                n.instance_properties = v;
            }
        }
        _ => {}
    }
}
