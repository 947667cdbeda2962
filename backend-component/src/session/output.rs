//! Writing published files into an output directory, all or nothing, touching only what
//! publishing itself wrote.
//!
//! One job: turn "these packages now publish these files" into one [`commit::Plan`] over
//! the output directory (the instance's only preopen, so WASI confines every write to
//! it) and run it with the save's crash-safe commit: after a crash the directory holds
//! each package's old files or its new ones, and the next write finishes or undoes the
//! interrupted one first.
//!
//! Which files are publishing's: those it wrote, listed in a manifest it keeps beside
//! them ([`PACKAGE_MANIFEST`] in the output directory, [`CODE_MANIFEST`] in the code
//! directory), each with the hash of the bytes written. The manifest is written in the
//! same commit as the files, so it never disagrees with them. A file of the manifest
//! that the new output lacks is removed only while it still holds the bytes publishing
//! wrote; one changed since is someone else's now and stays. Nothing else is ever
//! removed: not another tool's file, not a file the team put there with the same
//! extension, not a stale file of an earlier publisher (the FairyGUI editor, or ofgui
//! before it kept a manifest).
//!
//! A new file may replace one already there with other bytes only when that file is
//! publishing's: still the bytes the manifest lists for it, or named as the editor names
//! the package's own output (its descriptor, `<Package>_…`; see [`owns`]), or, in a code
//! folder, marked as generated code on its first line (ours or the FairyGUI editor's,
//! both of which say publishing rewrites it). Any other name
//! clash refuses the whole write with the file named (`publish_refused`, finding
//! `file_not_owned`), and nothing is written.
//!
//! Binding code goes the same way into a code directory, one folder per package.

use std::collections::{BTreeMap, BTreeSet};

use ofgui_contracts::envelope::BackendDiagnostic;
use ofgui_contracts::error::BackendError;

use crate::commit::{self, Change, CommitError, ContentHash, Expect, Hook, Plan};
use crate::fs::{EntryKind, ProjectFsWrite};
use crate::session::Rejected;
use crate::session::save::Attempt;

/// The manifest of published package files, in the output directory. A dot file: Unity
/// imports no asset whose name starts with a dot, and the web engines load only the files
/// a descriptor names.
pub const PACKAGE_MANIFEST: &str = ".ofgui-publish.json";
/// The manifest of generated binding code, in the code directory (which may be the output
/// directory too, hence its own name).
pub const CODE_MANIFEST: &str = ".ofgui-code.json";

/// The first line of a file the FairyGUI editor generated: such a file is replaced by
/// our code of the same name, as the editor would replace it.
const EDITOR_CODE_MARK: &str = "/** This is an automatically generated class by FairyGUI.";

/// One package's new files: names (one path segment each) and bytes.
pub struct PackageFiles {
    pub package_name: String,
    pub files: Vec<(String, Vec<u8>)>,
}

/// What a write did, by file name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputReport {
    pub written: Vec<String>,
    pub unchanged: Vec<String>,
    pub removed: Vec<String>,
    pub recovered: Vec<String>,
}

/// Replaces the packages' files in `fs`'s root (see the module documentation).
/// The files are taken, not copied: the instance holds each file's bytes once.
pub fn write_packages(
    fs: &dyn ProjectFsWrite,
    session_id: &str,
    packages: Vec<PackageFiles>,
    project_packages: &[String],
    hook: Hook<'_>,
) -> Result<OutputReport, Rejected> {
    let groups: Vec<Group> = packages
        .into_iter()
        .map(|package| Group {
            name: package.package_name.clone(),
            dir: String::new(),
            files: package.files,
            replaceable: Box::new(move |name: &str, _: &[u8]| {
                owns(&package.package_name, name, project_packages)
            }),
        })
        .collect();
    replace(fs, session_id, groups, PACKAGE_MANIFEST, hook)
}

/// One package's binding code: its folder in the code directory and the files in it.
#[derive(Clone)]
pub struct CodeFolder {
    pub folder: String,
    pub files: Vec<(String, Vec<u8>)>,
}

/// Replaces each code folder's files in `fs`'s root (the code directory), creating the
/// folder when missing: the files the generator wrote there before and no longer writes
/// are removed; everything else stays (see the module documentation).
pub fn write_code(
    fs: &dyn ProjectFsWrite,
    session_id: &str,
    folders: Vec<CodeFolder>,
    hook: Hook<'_>,
) -> Result<OutputReport, Rejected> {
    for folder in &folders {
        if !is_plain_file_name(&folder.folder) {
            return Err(BackendError::invalid_input(
                format!(
                    "The code folder {:?} is not one plain folder name.",
                    folder.folder
                ),
                Some("/folders".to_owned()),
            )
            .into());
        }
    }
    let groups: Vec<Group> = folders
        .into_iter()
        .map(|folder| Group {
            name: folder.folder.clone(),
            dir: folder.folder,
            files: folder.files,
            replaceable: Box::new(|_: &str, bytes: &[u8]| is_generated_code(bytes)),
        })
        .collect();
    replace(fs, session_id, groups, CODE_MANIFEST, hook)
}

/// Whether a file's first line says a code generator made it: ours, or the editor's.
fn is_generated_code(bytes: &[u8]) -> bool {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    text.starts_with(crate::codegen::MARK.as_bytes())
        || text.starts_with(EDITOR_CODE_MARK.as_bytes())
}

/// Whether a file already there, by its name and bytes, is publishing's to replace.
type Replaceable<'a> = Box<dyn Fn(&str, &[u8]) -> bool + 'a>;

/// Files to write into one directory (`""`: the root), and which files already there
/// they may replace besides those the manifest lists.
struct Group<'a> {
    /// The package's or code folder's name: the manifest's key, and for messages.
    name: String,
    dir: String,
    files: Vec<(String, Vec<u8>)>,
    /// Whether a file of this name and these bytes, not in the manifest, is publishing's
    /// to replace.
    replaceable: Replaceable<'a>,
}

/// What publishing wrote into a directory: by package (or code folder), each file's path
/// and the SHA-256 of the bytes written, in hex.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct Manifest {
    /// What wrote it, for a person who finds the file.
    #[serde(default)]
    generator: String,
    #[serde(default)]
    groups: BTreeMap<String, BTreeMap<String, String>>,
}

impl Manifest {
    /// The manifest in `fs`'s root; none yet (or one that does not parse: nothing is then
    /// known to be ours) is empty.
    fn read(fs: &dyn ProjectFsWrite, name: &str) -> Result<(Self, Expect), std::io::Error> {
        match fs.read(name) {
            Ok(bytes) => Ok((
                serde_json::from_slice(&bytes).unwrap_or_default(),
                Expect::Content(ContentHash::of(&bytes)),
            )),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                Ok((Self::default(), Expect::Absent))
            }
            Err(error) => Err(error),
        }
    }

    /// Whether `path` holds what publishing wrote there: listed with these bytes' hash.
    fn wrote(&self, path: &str, hash: &ContentHash) -> bool {
        let hex = hash.to_hex();
        self.groups
            .values()
            .any(|files| files.get(path).is_some_and(|h| *h == hex))
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }
}

/// What a failure leaves as it was, in words: "The files of package Bag are", "The files
/// of the code folders Bag, Basics are".
fn subject(groups: &[Group<'_>]) -> String {
    let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
    let kind = match groups.first() {
        Some(group) if !group.dir.is_empty() => "code folder",
        _ => "package",
    };
    let plural = if names.len() == 1 { "" } else { "s" };
    format!("The files of the {kind}{plural} {} are", names.join(", "))
}

/// Writes the groups' files and removes the stale ones publishing wrote, in one commit
/// with the updated manifest.
fn replace(
    fs: &dyn ProjectFsWrite,
    session_id: &str,
    mut groups: Vec<Group<'_>>,
    manifest_name: &str,
    hook: Hook<'_>,
) -> Result<OutputReport, Rejected> {
    let subject = subject(&groups);
    let failed = |error: CommitError| output_failed(session_id, &subject, error);
    // An interrupted earlier write is finished or undone before the directory is read,
    // so the plan is made against what the directory holds after it.
    let recovered = commit::recover_with(fs, hook).map_err(failed)?;
    let (mut manifest, manifest_now) =
        Manifest::read(fs, manifest_name).map_err(|e| failed(io_failure(manifest_name, &e)))?;
    manifest.generator =
        "ofgui publish: the files it wrote, to replace or remove only those".to_owned();
    let mut plan = Plan::default();
    let mut new_paths = BTreeSet::new();
    let mut not_owned = Vec::new();
    let path_of = |dir: &str, name: &str| {
        if dir.is_empty() {
            name.to_owned()
        } else {
            format!("{dir}/{name}")
        }
    };
    let mut written: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for group in &mut groups {
        let entry = written.entry(group.name.clone()).or_default();
        for (name, bytes) in std::mem::take(&mut group.files) {
            if !is_plain_file_name(&name) || name == manifest_name {
                return Err(BackendError::invalid_input(
                    format!("The output file name {name:?} is not one plain file name."),
                    Some("/packages".to_owned()),
                )
                .into());
            }
            let path = path_of(&group.dir, &name);
            if !new_paths.insert(path.clone()) {
                return Err(BackendError::invalid_input(
                    format!("Two packages publish a file named {path:?}."),
                    Some("/packages".to_owned()),
                )
                .into());
            }
            let hash = ContentHash::of(&bytes);
            let expect = match fs.read(&path) {
                // Already these bytes (a publish of what did not change): no second hash.
                Ok(old) if old == bytes => Expect::Content(hash),
                Ok(old) => {
                    let old_hash = ContentHash::of(&old);
                    let ours = manifest.wrote(&path, &old_hash) || (group.replaceable)(&name, &old);
                    if !ours {
                        not_owned.push((group.name.clone(), path.clone()));
                    }
                    Expect::Content(old_hash)
                }
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => Expect::Absent,
                Err(error) => return Err(failed(io_failure(&path, &error)).into()),
            };
            entry.insert(path.clone(), hash.to_hex());
            plan.changes.push(Change::Write {
                expect,
                path,
                bytes,
            });
        }
    }
    if !not_owned.is_empty() {
        return Err(not_owned_refusal(
            session_id,
            &subject,
            manifest_name,
            &not_owned,
        ));
    }

    // Files an earlier publish of these groups wrote and this one does not: removed while
    // they hold what was written.
    for group in &groups {
        let Some(before) = manifest.groups.get(&group.name) else {
            continue;
        };
        for (path, hash) in before {
            if new_paths.contains(path) || commit::is_save_artifact(path) {
                continue;
            }
            let Ok(meta) = fs.metadata(path) else {
                continue;
            };
            // Only a plain file is ours to remove; a link or anything else stays.
            if meta.kind != EntryKind::File {
                continue;
            }
            let bytes = fs.read(path).map_err(|e| failed(io_failure(path, &e)))?;
            let now = ContentHash::of(&bytes);
            if now.to_hex() != *hash {
                continue;
            }
            plan.changes.push(Change::Remove {
                path: path.clone(),
                expect: now,
            });
        }
    }
    for (group, files) in written {
        manifest.groups.insert(group, files);
    }
    plan.changes.push(Change::Write {
        path: manifest_name.to_owned(),
        bytes: manifest.to_bytes(),
        expect: manifest_now,
    });
    plan.changes.sort_by(|a, b| a.path().cmp(b.path()));

    // Nothing is left to recover now: the commit's own recovery finds a clean directory.
    let committed = commit::commit(fs, &plan, hook).map_err(failed)?;
    let mine = |paths: Vec<String>| -> Vec<String> {
        paths.into_iter().filter(|p| p != manifest_name).collect()
    };
    Ok(OutputReport {
        written: mine(committed.written),
        unchanged: mine(committed.unchanged),
        removed: mine(committed.removed),
        recovered: match recovered {
            commit::Recovery::Clean => Vec::new(),
            commit::Recovery::RolledBack { discarded } => discarded,
            commit::Recovery::RolledForward { completed, .. } => completed,
        },
    })
}

/// The refusal of a write whose files would replace files publishing did not write.
/// `subject` says what it left as it was: packages of the same publish written before it
/// keep their new files, so "nothing" would not be true.
fn not_owned_refusal(
    session_id: &str,
    subject: &str,
    manifest_name: &str,
    not_owned: &[(String, String)],
) -> Rejected {
    let count = not_owned.len();
    let names: Vec<&str> = not_owned.iter().map(|(_, path)| path.as_str()).collect();
    let error = BackendError::PublishRefused {
        message: format!(
            "Publishing stopped: {} already {} here with bytes publishing did not write, and \
             it never replaces a file it does not own. {subject} as they were (packages this \
             publish wrote before them keep their new files). Move or rename {}, or publish \
             into another directory.",
            names.join(", "),
            if count == 1 { "exists" } else { "exist" },
            if count == 1 { "it" } else { "them" },
        ),
        session_id: session_id.to_owned(),
        issue_count: u32::try_from(count).unwrap_or(u32::MAX),
    };
    let diagnostics = not_owned
        .iter()
        .map(|(group, path)| {
            let mut finding = BackendDiagnostic::error(
                "file_not_owned",
                format!(
                    "{path} exists with other bytes and is not a file publishing wrote (it is \
                     not in {manifest_name}); {group} would replace it. Move or rename it, or \
                     publish into another directory."
                ),
            );
            finding.path = Some(path.clone());
            finding
        })
        .collect();
    Rejected { error, diagnostics }
}

/// Whether `name` is, by the editor's naming, one of `package`'s published files: its
/// descriptor under any engine's name (`<Package>.fui`, `.bin`, `.bytes`), or
/// `<Package>_…` unless a longer package name of the project claims it (`Bag_` is not
/// `Bag_Extra_`'s); never a `.meta` file.
pub fn owns(package: &str, name: &str, project_packages: &[String]) -> bool {
    let prefix = format!("{package}_");
    // Only the engines' descriptor extensions: `Hero.png` is not package `Hero`'s.
    let descriptor_like = name
        .strip_prefix(package)
        .is_some_and(|rest| matches!(rest, ".fui" | ".bin" | ".bytes"));
    if descriptor_like {
        return true;
    }
    if !name.starts_with(&prefix) || name.ends_with(".meta") {
        return false;
    }
    !project_packages
        .iter()
        .any(|other| other.len() > package.len() && name.starts_with(&format!("{other}_")))
}

fn io_failure(path: &str, error: &std::io::Error) -> CommitError {
    CommitError::WriteFailed {
        path: path.to_owned(),
        message: error.to_string(),
        leftovers: Vec::new(),
    }
}

/// The save's failure report, in the words of publishing.
fn output_failed(session_id: &str, subject: &str, error: CommitError) -> BackendError {
    let message = match &error {
        CommitError::WriteFailed { path, message, .. } => format!(
            "Publishing failed writing {path}: {message}. {subject} as they were before \
             (packages a publish wrote before them keep their new files); free space or make \
             the directory writable, then publish again."
        ),
        CommitError::Conflict { conflicts } => format!(
            "Publishing stopped: {} changed while it was written. {subject} as they were \
             before; publish again.",
            conflicts
                .iter()
                .map(|c| c.path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => format!(
            "Publishing did not finish: {other} The next publish into this directory \
             completes or undoes it first."
        ),
    };
    let attempt = Attempt {
        session_id,
        canonical_path_key: "",
        revision: 0,
        last_saved_revision: 0,
        materialize: true,
    };
    let mut failure = attempt.failed(error);
    if let BackendError::WriteFailed { message: text, .. } = &mut failure {
        *text = message;
    }
    failure
}

/// One path segment: no separators, no `.`/`..`, no control characters.
fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_package_owns_its_prefix_but_not_a_longer_packages() {
        let all = names(&["Bag", "Bag_Extra", "Basics"]);
        assert!(owns("Bag", "Bag_fui.bytes", &all));
        assert!(owns("Bag", "Bag_atlas0_1.png", &all));
        assert!(owns("Bag", "Bag.fui", &all));
        assert!(owns("Bag", "Bag.bin", &all));
        assert!(!owns("Bag", "Bag.png", &all));
        assert!(!owns("Bag", "Bag.skel.bytes", &all));
        assert!(!owns("Bag", "Bag.fui.meta", &all));
        assert!(!owns("Bag", "Bag_fui.bytes.meta", &all));
        assert!(!owns("Bag", "Bag_Extra_fui.bytes", &all));
        assert!(!owns("Bag", "Basics_fui.bytes", &all));
        assert!(!owns("Bag", "Bagpipe_fui.bytes", &all));
        assert!(owns("Bag_Extra", "Bag_Extra_atlas0.png", &all));
    }

    fn no_fault() -> impl FnMut(commit::Step<'_>) -> std::ops::ControlFlow<()> {
        |_: commit::Step<'_>| std::ops::ControlFlow::Continue(())
    }

    fn files(list: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
        list.iter()
            .map(|(name, text)| ((*name).to_owned(), text.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn code_folders_lose_only_what_publishing_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("Bag/Old")).unwrap();
        let ours = format!("{}\nclass Main {{}}", crate::codegen::MARK);
        for (path, text) in [
            ("Bag/gender.lua", "team's own"),
            ("Bag/Handwritten.cs", "team's own, same extension"),
            ("Bag/UI_Main.cs", ours.as_str()),
            (
                "Bag/UI_Editor.cs",
                "/** This is an automatically generated class by FairyGUI. Please do not modify it. **/",
            ),
            ("Bag/Old/Keep.cs", "sub"),
            ("Mine.cs", "user"),
        ] {
            std::fs::write(root.join(path), text).unwrap();
        }
        let fs = crate::fs::StdFs::new(root);
        let first = |extra: &[(&str, &str)]| {
            let mut bag = files(&[
                ("UI_Main.cs", "main"),
                ("UI_Editor.cs", "ed"),
                ("BagBinder.cs", "binder"),
            ]);
            bag.extend(files(extra));
            vec![CodeFolder {
                folder: "Bag".to_owned(),
                files: bag,
            }]
        };
        let report =
            write_code(&fs, "s", first(&[("UI_Gone.cs", "gone")]), &mut no_fault()).unwrap();
        assert_eq!(
            report.written,
            names(&[
                "Bag/BagBinder.cs",
                "Bag/UI_Editor.cs",
                "Bag/UI_Gone.cs",
                "Bag/UI_Main.cs"
            ])
        );
        assert!(report.removed.is_empty());
        assert!(root.join(CODE_MANIFEST).exists());

        // The next publish no longer writes UI_Gone.cs: only that file goes.
        let again = write_code(&fs, "s", first(&[]), &mut no_fault()).unwrap();
        assert_eq!(again.removed, names(&["Bag/UI_Gone.cs"]));
        assert_eq!(again.unchanged.len(), 3);
        for kept in [
            "Bag/gender.lua",
            "Bag/Handwritten.cs",
            "Bag/Old/Keep.cs",
            "Mine.cs",
        ] {
            assert!(root.join(kept).exists(), "{kept} was removed");
        }
        let third = write_code(&fs, "s", first(&[]), &mut no_fault()).unwrap();
        assert!(third.written.is_empty() && third.removed.is_empty());
    }

    #[test]
    fn a_foreign_file_under_a_generated_name_refuses_the_write() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("Bag")).unwrap();
        std::fs::write(root.join("Bag/BagBinder.cs"), "team's own binder").unwrap();
        let fs = crate::fs::StdFs::new(root);
        let folders = vec![CodeFolder {
            folder: "Bag".to_owned(),
            files: files(&[("BagBinder.cs", "ours"), ("UI_A.cs", "a")]),
        }];
        let refused = write_code(&fs, "s", folders, &mut no_fault()).unwrap_err();
        assert_eq!(
            refused.error.code(),
            ofgui_contracts::error::ErrorCode::PublishRefused
        );
        assert_eq!(refused.diagnostics.len(), 1);
        assert_eq!(refused.diagnostics[0].code, "file_not_owned");
        assert_eq!(
            refused.diagnostics[0].path.as_deref(),
            Some("Bag/BagBinder.cs")
        );
        assert_eq!(
            std::fs::read(root.join("Bag/BagBinder.cs")).unwrap(),
            b"team's own binder"
        );
        assert!(!root.join("Bag/UI_A.cs").exists(), "nothing is written");
    }

    #[test]
    fn package_output_keeps_foreign_files_and_files_changed_since() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, text) in [
            ("notes.bytes", "team"),
            ("Bag_custom.png", "team"),
            ("Bag_fui.bytes", "editor's"),
        ] {
            std::fs::write(root.join(path), text).unwrap();
        }
        let fs = crate::fs::StdFs::new(root);
        let all = names(&["Bag"]);
        let bag = |list: &[(&str, &str)]| {
            vec![PackageFiles {
                package_name: "Bag".to_owned(),
                files: files(list),
            }]
        };
        let first = write_packages(
            &fs,
            "s",
            bag(&[
                ("Bag_fui.bytes", "d"),
                ("Bag_atlas0.png", "0"),
                ("Bag_atlas1.png", "1"),
                ("Bag_atlas2.png", "2"),
            ]),
            &all,
            &mut no_fault(),
        )
        .unwrap();
        assert_eq!(
            first.written.len(),
            4,
            "the editor's own descriptor is replaced"
        );
        std::fs::write(root.join("Bag_atlas2.png"), "changed by someone").unwrap();
        let second = write_packages(
            &fs,
            "s",
            bag(&[("Bag_fui.bytes", "d")]),
            &all,
            &mut no_fault(),
        )
        .unwrap();
        assert_eq!(second.removed, names(&["Bag_atlas0.png", "Bag_atlas1.png"]));
        for kept in ["notes.bytes", "Bag_custom.png", "Bag_atlas2.png"] {
            assert!(root.join(kept).exists(), "{kept} was removed");
        }
        let manifest = std::fs::read_to_string(root.join(PACKAGE_MANIFEST)).unwrap();
        assert!(
            manifest.contains("Bag_fui.bytes") && !manifest.contains("Bag_atlas0.png"),
            "{manifest}"
        );
    }

    #[test]
    fn a_code_folder_is_one_segment() {
        let dir = tempfile::tempdir().unwrap();
        let fs = crate::fs::StdFs::new(dir.path());
        let folders = vec![CodeFolder {
            folder: "../x".to_owned(),
            files: vec![("a.cs".to_owned(), Vec::new())],
        }];
        assert!(write_code(&fs, "s", folders, &mut no_fault()).is_err());
    }

    #[test]
    fn names_are_one_segment() {
        assert!(is_plain_file_name("Bag_fui.bytes"));
        for bad in ["", ".", "..", "a/b", "a\\b", "a\nb"] {
            assert!(!is_plain_file_name(bad), "{bad:?}");
        }
    }
}
