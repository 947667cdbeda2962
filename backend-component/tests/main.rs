//! The backend's integration tests, as one test binary: each module was a test target of
//! its own, and one binary compiles and links the backend's dependencies once instead of
//! 21 times. The fuzz harness stays apart (`fuzz/main.rs`).

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

mod common {
    pub mod corpus_ops;
    pub mod diff;
    pub mod disk;
    pub mod kinds;
    pub mod wording;
}

mod case_folders;
mod codegen;
mod documents;
mod history;
mod publish_atlas;
mod publish_branches;
mod publish_descriptors;
mod publish_engines;
mod publish_files;
mod publish_high_resolution;
mod publish_skeletons;
mod read_corpora;
mod read_scope;
mod save_documents;
mod save_kinds;
mod save_session;
mod strings_export;
mod txn_display;
mod txn_lifecycle;
mod txn_new_asset;
mod txn_properties;
mod txn_resources;
mod txn_rules;
mod validation_findings;
