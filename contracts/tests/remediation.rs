//! The remediation a diagnostic carries once the envelope enriches it from the catalog:
//! the catalog's advice for the code and owner, and a read of the outline where it helps.
//! These tests span `catalog`, `diagnostics` and `envelope`, so they use the crate from
//! outside rather than live inside one of those modules.

use ofgui_contracts::catalog::Owner::{self, CoreValidation};
use ofgui_contracts::catalog::RemediationKind::{
    HostAction, RefreshAndReplan, ReviseOperation, ReviseSelector,
};
use ofgui_contracts::diagnostics::ProjectDiagnosticCode;
use ofgui_contracts::envelope::{BackendDiagnostic, Remediation};

fn enriched(code: &str, owner: Option<Owner>) -> Remediation {
    let mut diagnostic = BackendDiagnostic::error(code, "x");
    diagnostic.owner = owner;
    diagnostic
        .enriched(Some("s1"))
        .remediation
        .expect("a remediation")
}

#[test]
fn findings_of_an_untouched_project_are_project_defects_not_operations() {
    // Every code validation reports: none asks to revise an operation.
    for code in ProjectDiagnosticCode::ALL {
        let remediation = enriched(code.as_str(), Some(CoreValidation));
        assert_ne!(remediation.kind, ReviseOperation, "{code:?}");
    }
    // A defect already in the project is the user's to fix: a host action, with upstream's
    // four kinds (its schema allows no fifth), that still points at the outline.
    let finding = enriched("duplicate_resource_id", Some(CoreValidation));
    assert_eq!(finding.kind, HostAction);
    assert!(finding.message.contains("delete one entry"));
    assert_eq!(
        finding.read.expect("ids are in the outline").method,
        "getProjectOutline"
    );
    // The same code raised by a transaction is about the operation.
    let refused = enriched("duplicate_resource_id", None);
    assert_eq!(refused.kind, ReviseOperation);
    let dangling = enriched("dangling_resource_reference", Some(CoreValidation));
    assert_eq!(dangling.kind, HostAction);
    assert!(dangling.read.is_some());
    // File-level findings stay with the user, without a read.
    let missing = enriched("missing_source", Some(CoreValidation));
    assert_eq!(missing.kind, HostAction);
    assert!(missing.read.is_none());
}

#[test]
fn errors_a_caller_can_fix_are_not_host_actions() {
    for (code, kind) in [
        ("session_not_found", RefreshAndReplan),
        ("entity_query_failed", ReviseSelector),
        ("session_read_failed", ReviseSelector),
        ("transaction_preview_failed", ReviseOperation),
    ] {
        assert_eq!(enriched(code, None).kind, kind, "{code}");
    }
    // A closed session has no outline to read; a bad cursor needs getEvents.
    assert!(enriched("session_not_found", None).read.is_none());
    assert!(enriched("event_cursor_invalid", None).read.is_none());
    assert!(enriched("entity_query_failed", None).read.is_some());
    assert!(enriched("stale_write", None).read.is_some());
    // The outline has no gears, values or settings.
    for code in [
        "invalid_gear_selector",
        "invalid_look_gear_selector",
        "display_node_props_unchanged",
        "project_settings_unchanged",
        "invalid_display_node_payload",
    ] {
        assert!(enriched(code, None).read.is_none(), "{code}");
    }
}
