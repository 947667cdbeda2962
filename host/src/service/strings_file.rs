//! Strings files named by path in a call (`stringsFile`): the component sees only its
//! project, so the host reads the file, inside the allowed roots, and sends its text on in
//! `strings` (a spreadsheet as CSV text, which the component reads).

use std::path::Path;

use ofgui_contracts::error::BackendError;
use serde_json::Value;

use super::Service;
use crate::backend::sandbox;
use crate::service::envelope::Failure;
use crate::strings_file::{self, Format};

/// The largest strings file a call may name (a whole game's translation is a few MB).
pub(super) const MAX_STRINGS_FILE_BYTES: u64 = 32 * 1024 * 1024;

impl Service {
    /// `input` with the file `stringsFile` names read into `strings`.
    pub(super) fn read_strings_file(
        &self,
        session_id: &str,
        mut input: Value,
        path: &str,
    ) -> Result<Value, Failure> {
        let refuse = |message: String| -> Failure {
            BackendError::invalid_input(message, Some("/stringsFile".into())).into()
        };
        let base = self
            .keeper
            .registry
            .get(session_id)
            .and_then(|session| session.directory())
            .map(|project| project.dir);
        let requested = Path::new(path);
        let absolute = match (requested.is_absolute(), &base) {
            (true, _) => requested.to_path_buf(),
            (false, Some(base)) => base.join(requested),
            (false, None) => {
                return Err(refuse(format!(
                    "This session has no project directory, so the relative path {path:?} means nothing; pass an absolute path inside the allowed roots, or the file's text in strings."
                )));
            }
        };
        // Where the path leads is checked before the file is looked at, so a refusal says
        // nothing of what lies outside the roots; then again once links are followed.
        let roots = &self.keeper.config.roots;
        let outside = |real: &Path| {
            (!roots.iter().any(|root| real.starts_with(root))).then(|| {
                refuse(format!(
                    "The strings file {path} is outside the allowed roots ({}); pass a file inside them, or its text in strings.",
                    self.keeper.config.roots_text()
                ))
            })
        };
        if let Some(refused) = outside(&sandbox::realpath_lenient(&absolute)) {
            return Err(refused);
        }
        let real = std::fs::canonicalize(&absolute).map_err(|error| {
            refuse(format!("The strings file {path} cannot be read ({error}); pass a file inside the allowed roots, or its text in strings."))
        })?;
        if let Some(refused) = outside(&real) {
            return Err(refused);
        }
        let format = Format::of(&real).map_err(refuse)?;
        let size = std::fs::metadata(&real).map(|m| m.len()).unwrap_or(0);
        if size > MAX_STRINGS_FILE_BYTES {
            return Err(refuse(format!(
                "The strings file {path} is {size} bytes, more than the {MAX_STRINGS_FILE_BYTES} a call may read."
            )));
        }
        let bytes = std::fs::read(&real).map_err(|error| {
            refuse(format!("The strings file {path} cannot be read ({error})."))
        })?;
        let text = strings_file::text_of(&bytes, format)
            .map_err(|malformed| refuse(format!("{path} is not a strings file: {malformed}.")))?;
        if let Value::Object(object) = &mut input {
            object.remove("stringsFile");
            object.insert("strings".into(), Value::String(text));
        }
        Ok(input)
    }
}
