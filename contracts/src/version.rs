//! The versions of the contract every envelope and capability snapshot states.

/// The contract version ofgui speaks; it follows upstream `@openfairygui/backend` 3.0.0.
pub const CONTRACT_VERSION: &str = "3.0.0";

/// The capability schema version ofgui speaks; it follows upstream 15.
pub const CAPABILITY_SCHEMA_VERSION: u32 = 15;
