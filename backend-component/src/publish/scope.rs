//! The published children and the controllers of one component, by which the ids and
//! names the model uses become the indexes the format stores.
//!
//! The display list published is the model's without plain groups (groups that are not
//! `advanced`): the editor drops them, and every index the buffer stores (relation targets,
//! groups, mask, hit test, transition targets) counts children after that removal.

use ofgui_contracts::uam::{Controller, DisplayNode};

/// The published children of a component and its controllers, to resolve the names and
/// ids the model uses into the indexes the format stores.
pub(crate) struct Scope<'m> {
    pub nodes: Vec<&'m DisplayNode>,
    pub controllers: &'m [Controller],
}

impl<'m> Scope<'m> {
    pub fn new(display_list: &'m [DisplayNode], controllers: &'m [Controller]) -> Self {
        Scope {
            nodes: display_list.iter().filter(|n| is_published(n)).collect(),
            controllers,
        }
    }

    /// The published index of the child with this id.
    pub fn node_index(&self, id: &str) -> Option<usize> {
        if id.is_empty() {
            return None;
        }
        self.nodes.iter().position(|n| n.id() == id)
    }

    /// The index of the controller with this name.
    pub fn controller_index(&self, name: &str) -> Option<usize> {
        if name.is_empty() {
            return None;
        }
        self.controllers.iter().position(|c| c.name == name)
    }
}

/// Whether a display node is published: every node but a plain group.
fn is_published(node: &DisplayNode) -> bool {
    match node {
        DisplayNode::Group(group) => group.props.advanced,
        _ => true,
    }
}
