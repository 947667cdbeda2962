//! The canonical form of the `.fairy` file, `<projectDescription id type version/>`: the
//! inverse of `reader::project::read_fairy`. The attribute order is the corpora's (both
//! `.fairy` files read `id type version`).
//!
//! `type` is written as the file had it (`projectTypeName`), so a target this server does
//! not number (`Cocos2dx`, `ThreeJS`, …) or does not know at all goes back unchanged; only
//! a model without a type name but with a numbered `projectType` is written by that
//! number's name.

use ofgui_contracts::uam::UamProject;

use super::element::Element;
use super::package::{patch_root, split_bom, unparsable};
use super::patch::Unpatchable;
use crate::rules::PROJECT_TYPES;

const PROJECT_ORDER: &[&str] = &["id", "type", "version"];

/// The canonical `<projectDescription>` of `project`.
pub fn project_element(project: &UamProject) -> Element {
    let mut root = Element::new("projectDescription", PROJECT_ORDER);
    root.set("id", &project.project_id);
    let numbered = PROJECT_TYPES
        .iter()
        .find(|(_, number)| *number == project.project_type && *number >= 0)
        .map(|(name, _)| *name);
    let type_name = if project.project_type_name.is_empty() {
        numbered.unwrap_or_default()
    } else {
        project.project_type_name.as_str()
    };
    // The reader reads no type as `""`; the attribute stays out rather than empty.
    root.set_unless("type", type_name, "");
    root.set("version", &project.version);
    root
}

/// The whole canonical `.fairy` file (what materialize writes).
pub fn fairy_xml(project: &UamProject) -> String {
    // As the editor writes it: one line after the declaration, no final newline.
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n{}",
        project_element(project).markup()
    )
}

/// The patched `.fairy` file of a project whose model went from `old` to `new`; `None`
/// when nothing the file holds changed.
pub fn fairy_document(
    original: &str,
    old: &UamProject,
    new: &UamProject,
) -> Result<Option<String>, Unpatchable> {
    let before = project_element(old);
    let after = project_element(new);
    if before == after {
        return Ok(None);
    }
    let (bom, text) = split_bom(original);
    let file = ".fairy";
    let doc = roxmltree::Document::parse(text).map_err(|e| unparsable(file, &e))?;
    let patched = patch_root(text, &doc, "projectDescription", &before, &after, file)?;
    // The reader reads an empty version as 3.0; a patch never leaves one that reads
    // otherwise than the model.
    let reread = roxmltree::Document::parse(&patched).map_err(|e| unparsable(file, &e))?;
    let root = reread.root_element();
    let version = root
        .attribute("version")
        .filter(|v| !v.is_empty())
        .unwrap_or("3.0");
    if root.attribute("id").unwrap_or_default() != new.project_id
        || root.attribute("type").unwrap_or_default() != after.attribute("type").unwrap_or("")
        || version != new.version
    {
        return Err(Unpatchable {
            at: format!("{file}/projectDescription"),
            reason: "the patched file would read back otherwise than the model".into(),
        });
    }
    Ok(Some(format!("{bom}{patched}")))
}
