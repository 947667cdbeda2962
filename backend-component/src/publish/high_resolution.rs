//! High-resolution variants. With `@2x`, `@3x` or `@4x` included by the publish settings, an
//! image whose package also holds an image of the same folder and branch named with the
//! suffix (`a@2x.png` beside `a.png`) is published with it, as the FairyGUI guide describes:
//! the variant as an item of its own (its own size and sprite, never scaled), and the base
//! image's record listing the variants' ids by scale, `@2x` first. The runtimes pick the
//! entry of their content scale level (clamped to the list), so a missing scale is an empty
//! entry and trailing ones are left off.

use std::collections::{BTreeMap, HashMap};

use ofgui_contracts::uam::{UamPackage, UamProject, UamResource};
use serde_json::Value;

/// The scales a project's publish settings include, as `(list position, file suffix)`:
/// `include2x`/`include3x`/`include4x` where present, else the bits of
/// `includeHighResolution` (1, 2, 4).
fn included_scales(project: &UamProject) -> Vec<(usize, &'static str)> {
    let Some(settings) = project.settings.get("publish") else {
        return Vec::new();
    };
    let bits = settings
        .get("includeHighResolution")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    [
        ("include2x", 1, "@2x"),
        ("include3x", 2, "@3x"),
        ("include4x", 4, "@4x"),
    ]
    .into_iter()
    .enumerate()
    .filter(
        |(_, (key, bit, _))| match settings.get(*key).and_then(Value::as_bool) {
            Some(included) => included,
            None => bits & bit != 0,
        },
    )
    .map(|(position, (_, _, suffix))| (position, suffix))
    .collect()
}

/// Base image id → its variants' ids by scale (`""` for a scale it has none of), for the
/// package's images that have a variant the settings include. An excluded image is neither.
pub(crate) fn variants(
    project: &UamProject,
    package: &UamPackage,
) -> BTreeMap<String, Vec<String>> {
    let scales = included_scales(project);
    let mut found = BTreeMap::new();
    if scales.is_empty() {
        return found;
    }
    let excluded: Vec<&str> = package
        .publish
        .as_ref()
        .map(|p| p.excluded_resource_ids.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let images: Vec<&UamResource> = package
        .resources
        .iter()
        .map(|r| r.as_ref())
        .filter(|r| matches!(r, UamResource::Image(_)) && !excluded.contains(&r.id()))
        .collect();
    // (folder, branch, file stem, lower-case extension) → id, for looking variants up.
    let by_name: HashMap<(&str, &str, &str, String), &str> = images
        .iter()
        .map(|r| {
            let (stem, extension) = split_extension(r.name());
            (
                (r.path(), r.branch(), stem, extension.to_ascii_lowercase()),
                r.id(),
            )
        })
        .collect();
    for base in &images {
        let (stem, extension) = split_extension(base.name());
        let extension = extension.to_ascii_lowercase();
        let mut ids = vec![String::new(); 3];
        for &(position, suffix) in &scales {
            let wanted = format!("{stem}{suffix}");
            let key = (
                base.path(),
                base.branch(),
                wanted.as_str(),
                extension.clone(),
            );
            if let (Some(variant), Some(slot)) = (by_name.get(&key), ids.get_mut(position)) {
                *slot = (*variant).to_owned();
            }
        }
        while ids.last().is_some_and(String::is_empty) {
            ids.pop();
        }
        if !ids.is_empty() {
            found.insert(base.id().to_owned(), ids);
        }
    }
    found
}

fn split_extension(name: &str) -> (&str, &str) {
    name.rsplit_once('.').unwrap_or((name, ""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::read_project;
    use crate::testing::MemFs;

    /// A Unity project whose package holds images of these names (no files: only the
    /// model is read), with this `settings/Publish.json`.
    fn project(settings: &str, names: &[(&str, &str)]) -> UamProject {
        let resources: String = names
            .iter()
            .map(|(id, name)| format!(r#"<image id="{id}" name="{name}" path="/"/>"#))
            .collect();
        let fs = MemFs::default()
            .with(
                "T.fairy",
                r#"<projectDescription id="t0" type="Unity" version="3.0"/>"#,
            )
            .with("settings/Publish.json", settings)
            .with(
                "assets/P/package.xml",
                format!(
                    r#"<packageDescription id="p0"><resources>{resources}</resources></packageDescription>"#
                ),
            );
        read_project(&fs, "T.fairy")
            .expect("the fixture reads")
            .project
    }

    #[test]
    fn variants_are_listed_by_scale_with_gaps_and_no_trailing_empties() {
        let names = [
            ("a", "icon.png"),
            ("b", "icon@2x.png"),
            ("c", "icon@4x.png"),
            ("d", "bg.png"),
            ("e", "bg@2x.png"),
        ];
        let all = project(r#"{"includeHighResolution": 7}"#, &names);
        let found = variants(&all, &all.packages[0]);
        assert_eq!(
            found.get("a"),
            Some(&vec!["b".into(), String::new(), "c".into()])
        );
        assert_eq!(found.get("d"), Some(&vec!["e".to_owned()]));
        assert_eq!(
            found.len(),
            2,
            "variants are not bases of their own: {found:?}"
        );

        let only_4x = project(r#"{"include2x": false, "include4x": true}"#, &names);
        let found = variants(&only_4x, &only_4x.packages[0]);
        assert_eq!(
            found.get("a"),
            Some(&vec![String::new(), String::new(), "c".into()])
        );
        assert_eq!(found.get("d"), None);

        let none = project(r#"{"includeHighResolution": 0}"#, &names);
        assert!(variants(&none, &none.packages[0]).is_empty());
    }
}
