//! A finding and its identity: what makes it the same finding before and after an edit.
//!
//! Transactions compare the findings of a project before and after a batch. Messages name
//! things by their current names (a renamed package changes every message about its
//! resources) and paths count list positions (a detached node shifts its siblings), so
//! neither identifies a finding. The identity is the code, the entities it is located at
//! (package, resource, node, and a controller, transition or gear by the keys the model
//! identifies them by), and the field without list positions. What it names
//! ([`Subject`]) tells transactions which operation caused it.

use std::ops::{Deref, DerefMut};

use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode};

/// What a finding is about beyond its location: the thing it names, in the structured
/// form the model holds it, so that transactions can tell which operation caused it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Subject {
    #[default]
    None,
    /// A resource named by ids: `(packageId, resourceId)`, the package already resolved.
    Resource(String, String),
    /// A `ui://` URL as written.
    Url(String),
    /// A display node of the same component, by id.
    Node(String),
    /// A controller, transition or group of the same component, by name or id.
    Name(String),
    /// A page of a controller of the same component: `(controller, pageId)`.
    Page(String, String),
    /// A component the located one instantiates, on a containment cycle:
    /// `(packageId, componentId)`.
    Instance(String, String),
}

/// A finding with the entity it is in and what it names.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub diagnostic: ProjectDiagnostic,
    /// The entity of the component the finding is in, beyond its node: a controller or a
    /// transition (by name), a gear (by kind and controller), as the model identifies them.
    pub entity: Option<String>,
    /// What it names (not part of its identity: a reference re-pointed from one missing
    /// target to another is the same broken reference).
    pub subject: Subject,
}

/// The identity of a finding (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Identity {
    pub code: ProjectDiagnosticCode,
    pub package_id: Option<String>,
    pub resource_id: Option<String>,
    pub node_id: Option<String>,
    pub entity: Option<String>,
    /// The model path without list positions: `packages.resources.component.displayList.group`.
    pub field: String,
}

impl Finding {
    pub fn new(diagnostic: ProjectDiagnostic) -> Self {
        Finding {
            diagnostic,
            entity: None,
            subject: Subject::None,
        }
    }

    /// Names what the finding is about.
    pub fn about(&mut self, subject: Subject) -> &mut Self {
        self.subject = subject;
        self
    }

    /// Names the entity of the component the finding is in.
    pub fn within(&mut self, entity: impl Into<String>) -> &mut Self {
        self.entity = Some(entity.into());
        self
    }

    pub fn identity(&self) -> Identity {
        let d = &self.diagnostic;
        Identity {
            code: d.code,
            package_id: d.package_id.clone(),
            resource_id: d.resource_id.clone(),
            node_id: d.node_id.clone(),
            entity: self.entity.clone(),
            field: field_of(&d.path),
        }
    }

    pub fn into_diagnostic(self) -> ProjectDiagnostic {
        self.diagnostic
    }
}

impl Deref for Finding {
    type Target = ProjectDiagnostic;

    fn deref(&self) -> &ProjectDiagnostic {
        &self.diagnostic
    }
}

impl DerefMut for Finding {
    fn deref_mut(&mut self) -> &mut ProjectDiagnostic {
        &mut self.diagnostic
    }
}

/// A model path without its list positions (`a[3].b[0].c` → `a.b.c`).
pub fn field_of(path: &str) -> String {
    let mut field = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => in_index = true,
            ']' => in_index = false,
            _ if !in_index => field.push(c),
            _ => {}
        }
    }
    field
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_drop_list_positions_only() {
        assert_eq!(
            field_of("packages[13].resources[7].component.displayList[0].resource"),
            "packages.resources.component.displayList.resource"
        );
        assert_eq!(
            field_of("settings.common.scrollBars.vertical"),
            "settings.common.scrollBars.vertical"
        );
    }

    #[test]
    fn identity_ignores_message_and_positions() {
        let at = |path: &str, message: &str| {
            let mut finding = Finding::new(
                ProjectDiagnostic::error(
                    ProjectDiagnosticCode::DanglingResourceReference,
                    path,
                    message,
                )
                .in_package("p")
                .in_resource("r")
                .at_node("n22"),
            );
            finding.about(Subject::Resource("p".into(), "x".into()));
            finding
        };
        let before = at(
            "packages[1].resources[2].component.displayList[0].resource",
            "… (Old)",
        );
        let after = at(
            "packages[0].resources[5].component.displayList[3].resource",
            "… (New)",
        );
        assert_eq!(before.identity(), after.identity());
        // Re-pointed at another missing resource, it is the same broken reference.
        let mut retargeted = after.clone();
        retargeted.about(Subject::Resource("p".into(), "y".into()));
        assert_eq!(before.identity(), retargeted.identity());
        // In another gear of the node, it is another finding.
        let mut other = after.clone();
        other.within("look gear of c1");
        assert_ne!(before.identity(), other.identity());
    }
}
