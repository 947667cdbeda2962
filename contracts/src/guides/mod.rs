//! The diagnostic guides: for each catalog code, what it means for a FairyGUI project, how
//! to confirm it and how to fix it, in plain words for agents and UI designers.
//!
//! The catalog ([`crate::catalog`]) keeps the one-line remediation that travels with every
//! diagnostic; these longer texts are only served at `openfairygui://docs/diagnostics/{code}`.
//! They live apart from the catalog table so the two can change independently. The match
//! below is exhaustive, so a new catalog code does not compile until it has a guide.
//!
//! House rules for the texts: describe what this server really does (including codes it
//! never raises), name tools by their MCP names, fix the safe way first, and never advise
//! deleting or replacing a file that exists and is valid.

use crate::catalog::DiagnosticCode;

mod backend;
mod transaction;
mod validation;

/// The long-form guide of one diagnostic code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GuideText {
    /// What is wrong, in FairyGUI terms.
    pub meaning: &'static str,
    /// How an agent or a designer checks it: which tool with which ids, or where to look
    /// in the FairyGUI editor.
    pub confirm: &'static str,
    /// The fix, safe steps first; for transaction codes, how to revise the operation.
    pub fix: &'static str,
}

/// The guide text of a code given as it crosses the wire (`stale_write`), if the code is in
/// the catalog.
pub fn for_code(code: &str) -> Option<&'static GuideText> {
    DiagnosticCode::ALL
        .iter()
        .find(|typed| typed.as_str() == code)
        .map(|typed| text(*typed))
}

/// The guide text of a catalog code.
pub fn text(code: DiagnosticCode) -> &'static GuideText {
    use DiagnosticCode as C;
    match code {
        C::StaleRead => &backend::STALE_READ,
        C::StaleWrite => &backend::STALE_WRITE,
        C::EventCursorInvalid => &backend::EVENT_CURSOR_INVALID,
        C::SessionReadFailed => &backend::SESSION_READ_FAILED,
        C::TransactionPreviewFailed => &backend::TRANSACTION_PREVIEW_FAILED,
        C::EntityQueryFailed => &backend::ENTITY_QUERY_FAILED,
        C::SessionNotFound => &backend::SESSION_NOT_FOUND,
        C::InvalidInput => &backend::INVALID_INPUT,
        C::UnknownTool => &backend::UNKNOWN_TOOL,
        C::SessionCloseFailed => &backend::SESSION_CLOSE_FAILED,
        C::PathPolicyViolation => &backend::PATH_POLICY_VIOLATION,
        C::ProjectRootNotAllowed => &backend::PROJECT_ROOT_NOT_ALLOWED,
        C::SessionLimitExceeded => &backend::SESSION_LIMIT_EXCEEDED,
        C::SessionIdConflict => &backend::SESSION_ID_CONFLICT,
        C::LockConflict => &backend::LOCK_CONFLICT,
        C::CapabilityUnavailable => &backend::CAPABILITY_UNAVAILABLE,
        C::UamFidelityUnsupported => &backend::UAM_FIDELITY_UNSUPPORTED,
        C::SavePartialFailure => &backend::SAVE_PARTIAL_FAILURE,
        C::WriteFailed => &backend::WRITE_FAILED,
        C::ProjectOpenFailed => &backend::PROJECT_OPEN_FAILED,
        C::MaterializeValidationFailed => &backend::MATERIALIZE_VALIDATION_FAILED,
        C::NothingToUndo => &backend::NOTHING_TO_UNDO,
        C::NothingToRedo => &backend::NOTHING_TO_REDO,
        C::PublishRefused => &backend::PUBLISH_REFUSED,
        C::FileNameCollision => &backend::FILE_NAME_COLLISION,
        C::InvalidPackageSelector => &transaction::INVALID_PACKAGE_SELECTOR,
        C::InvalidComponentSelector => &transaction::INVALID_COMPONENT_SELECTOR,
        C::InvalidResourceSelector => &transaction::INVALID_RESOURCE_SELECTOR,
        C::InvalidDisplayNodeSelector => &transaction::INVALID_DISPLAY_NODE_SELECTOR,
        C::InvalidResourceFolderSelector => &transaction::INVALID_RESOURCE_FOLDER_SELECTOR,
        C::InvalidBranchSelector => &transaction::INVALID_BRANCH_SELECTOR,
        C::InvalidGearSelector => &transaction::INVALID_GEAR_SELECTOR,
        C::InvalidLookGearSelector => &transaction::INVALID_LOOK_GEAR_SELECTOR,
        C::SelectorAmbiguity => &transaction::SELECTOR_AMBIGUITY,
        C::UnsupportedOperation => &transaction::UNSUPPORTED_OPERATION,
        C::TransactionUnsupported => &transaction::TRANSACTION_UNSUPPORTED,
        C::UnsupportedDisplayNodeKind => &transaction::UNSUPPORTED_DISPLAY_NODE_KIND,
        C::UnsupportedCrossPackageImageRef => &transaction::UNSUPPORTED_CROSS_PACKAGE_IMAGE_REF,
        C::UnsupportedGearKind => &transaction::UNSUPPORTED_GEAR_KIND,
        C::UnsupportedResourceMutation => &transaction::UNSUPPORTED_RESOURCE_MUTATION,
        C::UnsupportedDisplayNodeMutation => &transaction::UNSUPPORTED_DISPLAY_NODE_MUTATION,
        C::UnsupportedTextFieldTarget => &transaction::UNSUPPORTED_TEXT_FIELD_TARGET,
        C::UnsupportedDisplayNodeField => &transaction::UNSUPPORTED_DISPLAY_NODE_FIELD,
        C::UnsupportedOperationBatch => &transaction::UNSUPPORTED_OPERATION_BATCH,
        C::UnsupportedResourceKind => &transaction::UNSUPPORTED_RESOURCE_KIND,
        C::InvalidProjectSettings => &transaction::INVALID_PROJECT_SETTINGS,
        C::InvalidPackageSettings => &transaction::INVALID_PACKAGE_SETTINGS,
        C::InvalidDisplayNodePayload => &transaction::INVALID_DISPLAY_NODE_PAYLOAD,
        C::InvalidResourceName => &transaction::INVALID_RESOURCE_NAME,
        C::InvalidResourcePath => &transaction::INVALID_RESOURCE_PATH,
        C::InvalidResourceFolderPath => &transaction::INVALID_RESOURCE_FOLDER_PATH,
        C::InvalidResourceFolderAtlas => &transaction::INVALID_RESOURCE_FOLDER_ATLAS,
        C::InvalidAttachIndex => &transaction::INVALID_ATTACH_INDEX,
        C::InvalidControllerPayload => &transaction::INVALID_CONTROLLER_PAYLOAD,
        C::InvalidTransitionPayload => &transaction::INVALID_TRANSITION_PAYLOAD,
        C::InvalidLookGearPayload => &transaction::INVALID_LOOK_GEAR_PAYLOAD,
        C::InvalidGearPayload => &transaction::INVALID_GEAR_PAYLOAD,
        C::InvalidResourcePayload => &transaction::INVALID_RESOURCE_PAYLOAD,
        C::InvalidResourceBytes => &transaction::INVALID_RESOURCE_BYTES,
        C::InvalidMovieClipJta => &transaction::INVALID_MOVIE_CLIP_JTA,
        C::InvalidResourceIndex => &transaction::INVALID_RESOURCE_INDEX,
        C::InvalidBranchName => &transaction::INVALID_BRANCH_NAME,
        C::InvalidPackagePayload => &transaction::INVALID_PACKAGE_PAYLOAD,
        C::InvalidPackageIndex => &transaction::INVALID_PACKAGE_INDEX,
        C::InvalidComponentPayload => &transaction::INVALID_COMPONENT_PAYLOAD,
        C::InvalidComponentIndex => &transaction::INVALID_COMPONENT_INDEX,
        C::InvalidComponentMove => &transaction::INVALID_COMPONENT_MOVE,
        C::InvalidUam => &transaction::INVALID_UAM,
        C::ProjectSettingsUnchanged => &transaction::PROJECT_SETTINGS_UNCHANGED,
        C::PackageSettingsUnchanged => &transaction::PACKAGE_SETTINGS_UNCHANGED,
        C::DisplayNodePropsUnchanged => &transaction::DISPLAY_NODE_PROPS_UNCHANGED,
        C::ResourceFolderAtlasUnchanged => &transaction::RESOURCE_FOLDER_ATLAS_UNCHANGED,
        C::DuplicateLookGearController => &transaction::DUPLICATE_LOOK_GEAR_CONTROLLER,
        C::DuplicateTransitionName => &transaction::DUPLICATE_TRANSITION_NAME,
        C::DuplicateLookGearStatePage => &transaction::DUPLICATE_LOOK_GEAR_STATE_PAGE,
        C::DuplicateGearController => &transaction::DUPLICATE_GEAR_CONTROLLER,
        C::DuplicateGearStatePage => &transaction::DUPLICATE_GEAR_STATE_PAGE,
        C::DuplicateBranchName => &transaction::DUPLICATE_BRANCH_NAME,
        C::DuplicateComponentId => &transaction::DUPLICATE_COMPONENT_ID,
        C::ResourceFolderConflict => &transaction::RESOURCE_FOLDER_CONFLICT,
        C::DuplicateResourceId => &transaction::DUPLICATE_RESOURCE_ID,
        C::DuplicatePackageId => &transaction::DUPLICATE_PACKAGE_ID,
        C::DuplicatePackageName => &transaction::DUPLICATE_PACKAGE_NAME,
        C::ResourceFolderNotEmpty => &transaction::RESOURCE_FOLDER_NOT_EMPTY,
        C::BranchNotEmpty => &transaction::BRANCH_NOT_EMPTY,
        C::BranchReferenced => &transaction::BRANCH_REFERENCED,
        C::InvalidResourceReference => &transaction::INVALID_RESOURCE_REFERENCE,
        C::InvalidComponentReference => &transaction::INVALID_COMPONENT_REFERENCE,
        C::InvalidGroupReference => &transaction::INVALID_GROUP_REFERENCE,
        C::PackageReferenced => &transaction::PACKAGE_REFERENCED,
        C::ComponentReferenced => &transaction::COMPONENT_REFERENCED,
        C::ComponentHasPackageDependencies => &transaction::COMPONENT_HAS_PACKAGE_DEPENDENCIES,
        C::UnavailableResourceSourceBytes => &transaction::UNAVAILABLE_RESOURCE_SOURCE_BYTES,
        C::ProjectionFailed => &transaction::PROJECTION_FAILED,
        C::ExecutionFailure => &transaction::EXECUTION_FAILURE,
        C::MissingSource => &validation::MISSING_SOURCE,
        C::SourceCaseMismatch => &validation::SOURCE_CASE_MISMATCH,
        C::UnreadableSource => &validation::UNREADABLE_SOURCE,
        C::CorruptSource => &validation::CORRUPT_SOURCE,
        C::DecodeCapabilityUnavailable => &validation::DECODE_CAPABILITY_UNAVAILABLE,
        C::InvalidProjectXml => &validation::INVALID_PROJECT_XML,
        C::InvalidPackageXml => &validation::INVALID_PACKAGE_XML,
        C::InvalidBranchPackageXml => &validation::INVALID_BRANCH_PACKAGE_XML,
        C::InvalidComponentXml => &validation::INVALID_COMPONENT_XML,
        C::InvalidProjectValue => &validation::INVALID_PROJECT_VALUE,
        C::DesktopIncompatibleGeometry => &validation::DESKTOP_INCOMPATIBLE_GEOMETRY,
        C::InvalidSettingsJson => &validation::INVALID_SETTINGS_JSON,
        C::PathCollision => &validation::PATH_COLLISION,
        C::UnsafePath => &validation::UNSAFE_PATH,
        C::DanglingResourceReference => &validation::DANGLING_RESOURCE_REFERENCE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::GUIDES;
    use crate::error::ErrorCode;
    use crate::methods::METHODS;
    use crate::ops::OPERATION_KINDS;

    /// Every field of every guide, with the code it belongs to.
    fn fields() -> impl Iterator<Item = (DiagnosticCode, &'static str, &'static str)> {
        DiagnosticCode::ALL.iter().flat_map(|&code| {
            let text = text(code);
            [
                (code, "meaning", text.meaning),
                (code, "confirm", text.confirm),
                (code, "fix", text.fix),
            ]
        })
    }

    /// The `backticked` tokens of a text.
    fn backticked(text: &str) -> impl Iterator<Item = &str> {
        text.split('`').skip(1).step_by(2)
    }

    #[test]
    fn every_catalog_code_has_a_complete_guide() {
        assert_eq!(DiagnosticCode::ALL.len(), GUIDES.len());
        for (code, field, value) in fields() {
            let words = value.split_whitespace().count();
            assert!(words >= 5, "{} has an empty or stub {field}", code.as_str());
            assert!(
                !value.contains("TODO") && !value.contains("TBD"),
                "{} {field} is a placeholder",
                code.as_str()
            );
            // A line continuation that swallowed the space leaves words glued together.
            assert!(
                !value.contains("  "),
                "{} {field}: double space",
                code.as_str()
            );
        }
        for guide in GUIDES {
            assert!(for_code(guide.code).is_some(), "{}", guide.code);
        }
        assert!(for_code("invalid_input").is_some());
        assert!(for_code("unknown_tool").is_some());
        assert!(for_code("").is_none());
    }

    /// Phrases that tell someone to get rid of a file.
    fn discards_a_file(sentence: &str) -> bool {
        const VERBS: [&str; 8] = [
            "delete",
            "deleting",
            "remove",
            "removing",
            "replace",
            "replacing",
            "overwrite",
            "recreate",
        ];
        const OBJECTS: [&str; 9] = [
            "the file",
            "that file",
            "this file",
            "its file",
            "the files",
            "those files",
            "it on disk",
            "the folder",
            "the .fairy",
        ];
        VERBS.iter().any(|verb| {
            OBJECTS
                .iter()
                .any(|object| sentence.contains(&format!("{verb} {object}")))
        })
    }

    /// A sentence may speak of discarding a file only when it is about a file that is
    /// missing or corrupt, or when it warns against doing so.
    fn may_discard(sentence: &str) -> bool {
        const ABOUT_BROKEN: [&str; 8] = [
            "missing",
            "corrupt",
            "damaged",
            "empty",
            "does not exist",
            "does not parse",
            "not valid",
            "unreadable",
        ];
        const WARNING: [&str; 3] = ["do not", "never", "don't"];
        ABOUT_BROKEN
            .iter()
            .chain(WARNING.iter())
            .any(|word| sentence.contains(word))
    }

    fn sentences(text: &str) -> impl Iterator<Item = String> {
        text.split(['.', ';', '\n'])
            .map(|sentence| sentence.to_lowercase())
            .filter(|sentence| !sentence.trim().is_empty())
    }

    #[test]
    fn no_guide_advises_discarding_a_valid_file() {
        for (code, field, value) in fields() {
            for sentence in sentences(value) {
                assert!(
                    !discards_a_file(&sentence) || may_discard(&sentence),
                    "{} {field} advises discarding a file: {sentence:?}",
                    code.as_str()
                );
            }
        }
    }

    /// Each guide covers every situation its code is raised in; these pin the ones added
    /// after the guides were first written (cycles, gear fit, kept values, case mismatches,
    /// unchecked SVGs, unmodeled nodes).
    #[test]
    fn guides_cover_what_their_codes_now_mean() {
        let meaning = |code: DiagnosticCode| text(code).meaning;
        for (code, phrases) in [
            (
                DiagnosticCode::InvalidComponentReference,
                &["contain itself", "forever"][..],
            ),
            (DiagnosticCode::InvalidGroupReference, &["ring"]),
            (
                DiagnosticCode::InvalidGearPayload,
                &["fit its node", "runtime fail"],
            ),
            (
                DiagnosticCode::InvalidUam,
                &[
                    "instantiates itself",
                    "group that belongs to itself",
                    "cannot take",
                ],
            ),
            (
                DiagnosticCode::InvalidTransitionPayload,
                &["actionTypeName"],
            ),
            (
                DiagnosticCode::InvalidComponentXml,
                &["<swf>", "stays valid"],
            ),
            (
                DiagnosticCode::InvalidProjectValue,
                &["projectTypeName", "actionTypeName"],
            ),
            (
                DiagnosticCode::MissingSource,
                &[
                    "letter case",
                    "settings/publish.json",
                    "source_case_mismatch",
                ],
            ),
            (DiagnosticCode::DecodeCapabilityUnavailable, &["for safety"]),
            (DiagnosticCode::DuplicateResourceId, &["identical"]),
            (DiagnosticCode::InvalidProjectXml, &["-1"]),
        ] {
            for phrase in phrases {
                assert!(
                    meaning(code).contains(phrase),
                    "{}: {phrase}",
                    code.as_str()
                );
            }
        }
        // An SVG refused for safety is not corrupt; a broken .fairy is no Unity project.
        assert!(meaning(DiagnosticCode::CorruptSource).contains("is not corrupt"));
        assert!(
            !text(DiagnosticCode::InvalidProjectXml)
                .meaning
                .contains("Unity")
        );
    }

    #[test]
    fn the_file_check_catches_what_it_should() {
        let flagged = |text: &str| sentences(text).any(|s| discards_a_file(&s) && !may_discard(&s));
        assert!(flagged("Delete the file and add it again."));
        assert!(flagged("First, replace the file with a new export."));
        assert!(flagged("Then remove the folder."));
        assert!(!flagged("Replace the file, since it is corrupt."));
        assert!(!flagged("Never overwrite the .fairy file."));
        assert!(!flagged(
            "Restore the missing file; remove the file entry if it does not exist."
        ));
    }

    #[test]
    fn guides_name_only_served_tools() {
        for (code, field, value) in fields() {
            for (start, _) in value.match_indices("openfairygui_backend_") {
                let tool: String = value[start..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                assert!(
                    METHODS.iter().any(|method| method.tool == tool),
                    "{} {field} names {tool}, which is not a served tool",
                    code.as_str()
                );
            }
        }
    }

    #[test]
    fn guides_name_only_real_operations() {
        const VERBS: [&str; 9] = [
            "add", "remove", "set", "update", "rename", "move", "attach", "detach", "replace",
        ];
        for (code, field, value) in fields() {
            for token in backticked(value) {
                let looks_like_an_operation =
                    VERBS.iter().any(|verb| {
                        token
                            .strip_prefix(verb)
                            .and_then(|rest| rest.chars().next())
                            .is_some_and(|c| c.is_ascii_uppercase())
                    }) && token.chars().all(|c| c.is_ascii_alphanumeric());
                if looks_like_an_operation {
                    assert!(
                        OPERATION_KINDS.contains(&token),
                        "{} {field} names operation {token}, which does not exist",
                        code.as_str()
                    );
                }
            }
        }
    }

    #[test]
    fn guides_name_only_known_codes_and_reasons() {
        // The `reason` values of failures that guides quote; everything else in snake_case
        // between backticks must be a catalog or contract code.
        const REASONS: &[&str] = &[
            "invalid_query",
            "not_found",
            "ambiguous",
            "unsupported_resource",
            "bytes_unavailable",
            "response_budget_exceeded",
            "non_json_value",
            "project_not_found",
            "not_a_project_file",
            "no_project_file",
            "multiple_project_files",
            "symbolic_link_unsupported",
            "hard_link_unsupported",
            "access_denied",
            "project_read_failed",
            "unknown",
            "projection_failed",
            "in_process_session_exists",
            "advisory_lock_conflict",
            "changed_on_disk",
            "io",
            "save_target",
            "materialize_target",
        ];
        use crate::error::{
            LockConflictKind, OpenFailureReason, PreviewFailureReason, QueryFailureReason,
            ReadFailureReason, SaveFailureReason, TargetPolicy,
        };
        for reason in REASONS {
            let wire = serde_json::Value::String(reason.to_string());
            let real = serde_json::from_value::<OpenFailureReason>(wire.clone()).is_ok()
                || serde_json::from_value::<QueryFailureReason>(wire.clone()).is_ok()
                || serde_json::from_value::<ReadFailureReason>(wire.clone()).is_ok()
                || serde_json::from_value::<PreviewFailureReason>(wire.clone()).is_ok()
                || serde_json::from_value::<LockConflictKind>(wire.clone()).is_ok()
                || serde_json::from_value::<TargetPolicy>(wire.clone()).is_ok()
                || serde_json::from_value::<SaveFailureReason>(wire).is_ok();
            assert!(real, "{reason} is not a failure reason of the contract");
        }
        for (code, field, value) in fields() {
            for token in backticked(value) {
                let snake = token.contains('_')
                    && token.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                if !snake || token.starts_with("openfairygui_") {
                    continue;
                }
                let known = DiagnosticCode::ALL.iter().any(|c| c.as_str() == token)
                    || ErrorCode::ALL.iter().any(|c| c.as_str() == token)
                    || REASONS.contains(&token);
                assert!(
                    known,
                    "{} {field} quotes {token}, which is no code or reason",
                    code.as_str()
                );
            }
        }
    }
}
