//! Selectors: an entity named by exact ids, as method inputs and operations take it.

use serde::{Deserialize, Serialize};

/// A resource, by exact ids.
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
