//! Selectors: an entity named by ids (or by the names the outline shows, which the
//! backend turns into ids), as method inputs and operations take it.

use serde::{Deserialize, Serialize};

/// A resource, by ids or names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceSelector {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub package_id: String,
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub resource_id: String,
}

/// Selector of a package.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PackageSelector {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub package_id: String,
}

/// Selector of a component resource.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ComponentSelector {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub package_id: String,
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub component_resource_id: String,
}

/// Selector of a display node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DisplayNodeSelector {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub package_id: String,
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub component_resource_id: String,
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub display_node_id: String,
}

/// Selector of a controller.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ControllerSelector {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub package_id: String,
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub component_resource_id: String,
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub controller_name: String,
}

/// Selector of a transition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransitionSelector {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub package_id: String,
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub component_resource_id: String,
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub transition_name: String,
}

/// The keys of a selector that name existing entities, outermost first, as a lookup by
/// id or by name resolves them: the package, then a resource or component in it, then a
/// display node of that component. Controllers, transitions, folders and gears are
/// named within them by their own fields, which are not keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectorKeys<'a> {
    pub package: &'a str,
    pub resource: Option<ResourceKey<'a>>,
    pub node: Option<&'a str>,
}

/// A selector's resource key, and whether it must name a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceKey<'a> {
    pub key: &'a str,
    /// The selector's field: `selector.resourceId` or `selector.componentResourceId`.
    pub field: &'static str,
    pub component: bool,
}

/// A selector whose keys can be read and replaced by the ids they resolve to.
pub trait Selects {
    fn keys(&self) -> SelectorKeys<'_>;
    /// Replaces the keys given (`None` leaves a key as it is).
    fn set_keys(&mut self, package: Option<String>, resource: Option<String>, node: Option<String>);
}

/// Puts `with`, when given, in place of `key`.
pub fn replace(key: &mut String, with: Option<String>) {
    if let Some(with) = with {
        *key = with;
    }
}

/// Selectors whose only key is their package's (a package, a folder).
macro_rules! package_keys {
    ($($selector:ty),*) => {$(
        impl $crate::selectors::Selects for $selector {
            fn keys(&self) -> $crate::selectors::SelectorKeys<'_> {
                $crate::selectors::SelectorKeys {
                    package: &self.package_id,
                    resource: None,
                    node: None,
                }
            }
            fn set_keys(&mut self, package: Option<String>, _: Option<String>, _: Option<String>) {
                $crate::selectors::replace(&mut self.package_id, package);
            }
        }
    )*};
}
pub(crate) use package_keys;
package_keys!(PackageSelector);

impl Selects for ResourceSelector {
    fn keys(&self) -> SelectorKeys<'_> {
        SelectorKeys {
            package: &self.package_id,
            resource: Some(ResourceKey {
                key: &self.resource_id,
                field: "selector.resourceId",
                component: false,
            }),
            node: None,
        }
    }
    fn set_keys(&mut self, package: Option<String>, resource: Option<String>, _: Option<String>) {
        replace(&mut self.package_id, package);
        replace(&mut self.resource_id, resource);
    }
}

/// Selectors of a component or of something named inside one.
macro_rules! component_keys {
    ($($selector:ty),*) => {$(
        impl Selects for $selector {
            fn keys(&self) -> SelectorKeys<'_> {
                SelectorKeys {
                    package: &self.package_id,
                    resource: Some(ResourceKey {
                        key: &self.component_resource_id,
                        field: "selector.componentResourceId",
                        component: true,
                    }),
                    node: None,
                }
            }
            fn set_keys(&mut self, package: Option<String>, resource: Option<String>, _: Option<String>) {
                replace(&mut self.package_id, package);
                replace(&mut self.component_resource_id, resource);
            }
        }
    )*};
}
component_keys!(ComponentSelector, ControllerSelector, TransitionSelector);

/// Selectors of a display node or of something named on one.
macro_rules! node_keys {
    ($($selector:ty),*) => {$(
        impl $crate::selectors::Selects for $selector {
            fn keys(&self) -> $crate::selectors::SelectorKeys<'_> {
                $crate::selectors::SelectorKeys {
                    package: &self.package_id,
                    resource: Some($crate::selectors::ResourceKey {
                        key: &self.component_resource_id,
                        field: "selector.componentResourceId",
                        component: true,
                    }),
                    node: Some(&self.display_node_id),
                }
            }
            fn set_keys(&mut self, package: Option<String>, resource: Option<String>, node: Option<String>) {
                $crate::selectors::replace(&mut self.package_id, package);
                $crate::selectors::replace(&mut self.component_resource_id, resource);
                $crate::selectors::replace(&mut self.display_node_id, node);
            }
        }
    )*};
}
pub(crate) use node_keys;
node_keys!(DisplayNodeSelector);
