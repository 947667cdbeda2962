//! The `publish` method: a session's request, run through the publisher, to the files a
//! host writes and the report the caller reads.
//!
//! The session publishes its committed model, unsaved edits included (the report says
//! so): an agent publishes to see an edit in the game, and the editor too publishes what
//! it holds open. Output that would load wrong in the game (a published resource whose
//! file is missing, a package the call names that does not exist) refuses the whole
//! call with its findings; anything else is a warning beside the files.
//!
//! Packages whose publish settings ask for binding code (`genCode`, with the project's
//! `allowGenCode`) get it too, into their code directory; code that cannot be generated
//! (no code directory, an engine whose language is not written) is a warning on the
//! package, since the game's packages are right without it.
//!
//! Branches follow `settings/Publish.json`: `branchProcessing` 0 publishes every branch
//! beside the main resources (with atlases of their own per `seperatedAtlasForBranch`);
//! a `branch` in the input, or `branchProcessing` 1, merges that branch into the main
//! packages (1 without a branch publishes the main resources and warns
//! `branch_not_named`). A branch no package has is an `invalid_branch_selector` finding.
//! A merged branch goes into its folder in `branchPath` (see [`settings_output_dir`]). A
//! package's own publish path is not followed (one call, one directory): a
//! `package_path_not_used` warning says so unless the caller named the directory.
//!
//! Skeleton files keep their own names, not `<Package>_…` (see `publish::skeleton`), so
//! they are checked across packages: one that two published packages write, or that
//! another package owns by name (`output::owns`, which a publish of that package would
//! remove), is a `file_name_collision` finding; one that a package not published now would
//! also write is a `file_name_shared` warning (publishing that package overwrites it).

use ofgui_contracts::api::{
    PublishLeftOutInfo, PublishProjectData, PublishProjectInput, PublishWarningInfo,
    PublishedCodeInfo, PublishedFileInfo, PublishedPackageInfo,
};
use ofgui_contracts::catalog::RemediationKind;
use ofgui_contracts::envelope::{BackendDiagnostic, Remediation};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::uam::{UamPackage, UamProject};
use serde_json::Value;

use crate::codegen::{self, CodegenSettings, GeneratedCode};
use crate::lookup::{Lookup, find_package, find_package_by_key};
use crate::publish::{
    Branches, LEFT_OUT_CODES, PublishError, PublishOptions, PublishWarning, PublishedPackage,
    is_unity_like, publish_package, skeleton_files,
};
use crate::session::output::owns;
use crate::session::{Rejected, Session};

/// What one `publish` call produced. Only the packages of [`Publication::kept`] still
/// hold their files' bytes (none in a dry run); the report has every file's size.
pub struct Publication {
    /// The report, without `writes` (the host adds what writing did).
    pub data: PublishProjectData,
    pub packages: Vec<PublishedPackage>,
    /// The names of the packages whose files kept their bytes.
    pub kept: Vec<String>,
    /// Where the project's settings publish this call's output (see
    /// [`settings_output_dir`]), as written: relative to the project directory, or absolute.
    pub settings_output_path: Option<String>,
    /// Binding code by code directory, in the order the packages were published.
    pub code: Vec<CodeOutput>,
}

/// The binding code going into one code directory.
pub struct CodeOutput {
    /// As the caller or the settings named it (relative to the project directory, or
    /// absolute).
    pub code_dir: String,
    pub folders: Vec<CodeFolder>,
}

/// One package's code folder: plain file names and their bytes.
pub struct CodeFolder {
    pub folder: String,
    pub files: Vec<(String, Vec<u8>)>,
}

/// How much published output a `publish` keeps in memory for the `publish-package` calls
/// that follow it. Packages past it are published again when asked for, so memory stays
/// bounded by this and one package, whatever the project's size; 64 MiB keeps every
/// package of a project like the unity corpus (8.7 MB of output) from being done twice.
pub const KEPT_OUTPUT_BYTES: usize = 64 << 20;

/// The branch handling `input` and the project's settings ask for, with a finding for a
/// branch no package has.
fn branches(
    project: &UamProject,
    input: &PublishProjectInput,
) -> (Branches, Option<BackendDiagnostic>) {
    let publish_settings = project.settings.get("publish");
    let processing = publish_settings
        .and_then(|p| p.get("branchProcessing"))
        .and_then(Value::as_i64)
        .unwrap_or(0);
    match (&input.branch, processing) {
        (Some(branch), _) => {
            let mut finding = None;
            if !project
                .packages
                .iter()
                .any(|p| p.branch_names.contains(branch))
            {
                let mut unknown = BackendDiagnostic::error(
                    "invalid_branch_selector",
                    format!(
                        "No package has a branch named {branch:?}; take branch names from \
                         getProjectOutline, or leave branch out."
                    ),
                );
                unknown.path = Some("/branch".to_owned());
                finding = Some(unknown);
            }
            (Branches::Merged(Some(branch.clone())), finding)
        }
        (None, 1) => (Branches::Merged(None), None),
        (None, _) => (
            Branches::All {
                separate_atlases: publish_settings
                    .and_then(|p| p.get("seperatedAtlasForBranch"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            },
            None,
        ),
    }
}

/// Publishes the packages `input` names (all by default) from the session's model. The
/// files of the first packages, up to `keep` bytes in all, keep their bytes; the others'
/// are dropped as soon as they are counted (see [`Publication::kept`]).
pub fn publish(
    session: &Session,
    input: &PublishProjectInput,
    keep: usize,
) -> Result<Publication, Rejected> {
    if let Some(expected) = input.expected_revision {
        session.check_revision(expected)?;
    }
    let project = session.project();

    let (chosen, mut findings) = choose_packages(project, input.packages.as_deref());
    let (branches, unknown_branch) = branches(project, input);
    findings.extend(unknown_branch);
    let settings_output_path = settings_output_dir(project, &branches);
    let options = PublishOptions {
        branches,
        ..PublishOptions::default()
    };
    let dry_run = input.dry_run.unwrap_or(false);
    let mut kept_bytes = 0usize;
    let mut kept = Vec::new();
    let mut sizes: Vec<Vec<u64>> = Vec::new();
    let allow_missing = input.allow_missing.unwrap_or(false);
    let mut left_out = Vec::new();
    let mut packages = Vec::new();
    for package in chosen {
        match publish_package(project, session.files(), &package.id, &options) {
            Ok(mut published) => {
                if input.output_dir.is_none()
                    && let Some(own) = own_output_dir(package, &options.branches)
                    && Some(own) != settings_output_path.as_deref()
                {
                    published.warnings.push(PublishWarning {
                        code: "package_path_not_used",
                        resource_id: None,
                        message: format!(
                            "{} has a publish path of its own ({own:?} in its package.xml), \
                             which is not followed: one publish writes one directory, here \
                             {:?}; to publish {} there, publish it alone with outputDir set \
                             to that path",
                            package.name,
                            settings_output_path.as_deref().unwrap_or_default(),
                            package.name
                        ),
                    });
                }
                if options.branches == Branches::Merged(None) && !package.branch_names.is_empty() {
                    published.warnings.push(PublishWarning {
                        code: "branch_not_named",
                        resource_id: None,
                        message: format!(
                            "branchProcessing is 1 (merge the active branch) and no branch was \
                             named, so only the main resources of {} are published; name one \
                             of its branches ({}) to merge it",
                            package.name,
                            package.branch_names.join(", ")
                        ),
                    });
                }
                if allow_missing {
                    // Left out on request: reported once, in `leftOut`, not as warnings too.
                    published.warnings.retain(|warning| {
                        if !warning.leaves_out() {
                            return true;
                        }
                        left_out.push(PublishLeftOutInfo {
                            package_name: package.name.clone(),
                            code: warning.code.to_owned(),
                            resource_id: warning.resource_id.clone(),
                            message: warning.message.clone(),
                        });
                        false
                    });
                }
                for warning in published.warnings.iter().filter(|w| w.blocks()) {
                    let mut finding = BackendDiagnostic::error(warning.code, &warning.message);
                    finding.path = Some(match &warning.resource_id {
                        Some(resource) => format!("{}/{resource}", package.name),
                        None => package.name.clone(),
                    });
                    finding.remediation = left_out_remedy(warning.code);
                    findings.push(finding);
                }
                let file_sizes: Vec<u64> = published
                    .files
                    .iter()
                    .map(|f| f.bytes.len() as u64)
                    .collect();
                let bytes = usize::try_from(file_sizes.iter().sum::<u64>()).unwrap_or(usize::MAX);
                sizes.push(file_sizes);
                if !dry_run && findings.is_empty() && kept_bytes.saturating_add(bytes) <= keep {
                    kept_bytes += bytes;
                    kept.push(published.package_name.clone());
                } else {
                    // Counted: the bytes go now, so memory holds one package beyond `keep`.
                    for file in &mut published.files {
                        file.bytes = Vec::new();
                    }
                }
                packages.push(published);
            }
            Err(error) => {
                let mut finding =
                    BackendDiagnostic::error("publish_refused", package_failure(&error));
                finding.path = Some(package.name.clone());
                findings.push(finding);
            }
        }
    }
    check_kept_names(project, &mut packages, &mut findings);
    if !findings.is_empty() {
        let count = findings.len();
        let unreadable = findings
            .iter()
            .filter(|f| LEFT_OUT_CODES.contains(&f.code.as_str()))
            .count();
        let fix = if unreadable == 0 {
            format!(
                "fix {} and publish again",
                if count == 1 { "it" } else { "them" }
            )
        } else {
            format!(
                "fix {} and publish again ({} a source file that cannot be used as it is: \
                 restore it, or run `git lfs pull` for a Git LFS pointer; \
                 or publish with allowMissing (--allow-missing on the command line) to leave \
                 {} out)",
                if count == 1 { "it" } else { "them" },
                match (count, unreadable) {
                    (1, _) => "it is".to_owned(),
                    (_, 1) => "1 of them is".to_owned(),
                    (n, u) if n == u => "each is".to_owned(),
                    (_, u) => format!("{u} of them are each"),
                },
                if unreadable == 1 {
                    "that resource"
                } else {
                    "those resources"
                },
            )
        };
        return Err(Rejected {
            error: BackendError::PublishRefused {
                message: format!(
                    "Nothing was published: {count} finding{} would make the output load wrong \
                     in the game (each is listed in the diagnostics); {fix}.",
                    if count == 1 { "" } else { "s" },
                ),
                session_id: session.id().to_owned(),
                issue_count: u32::try_from(count).unwrap_or(u32::MAX),
            },
            diagnostics: findings,
        });
    }

    let code = if input.generate_code == Some(false) {
        Vec::new()
    } else {
        binding_code(session, &mut packages, input.code_dir.as_deref())
    };

    let status = session.status();
    let reports = packages
        .iter()
        .zip(&sizes)
        .map(|(package, sizes)| report(package, sizes))
        .collect();
    let data = PublishProjectData {
        session_id: session.id().to_owned(),
        revision: status.revision,
        unsaved_edits: status.dirty,
        dry_run: input.dry_run.unwrap_or(false),
        output_dir: input
            .output_dir
            .clone()
            .or_else(|| settings_output_path.clone())
            .unwrap_or_default(),
        packages: reports,
        writes: None,
        code: code
            .iter()
            .map(|dir| PublishedCodeInfo {
                code_dir: dir.code_dir.clone(),
                files: dir
                    .folders
                    .iter()
                    .flat_map(|folder| {
                        folder.files.iter().map(|(name, bytes)| PublishedFileInfo {
                            name: format!("{}/{name}", folder.folder),
                            bytes: bytes.len() as u64,
                        })
                    })
                    .collect(),
                writes: None,
            })
            .collect(),
        left_out,
    };
    let mut publication = Publication {
        data,
        packages,
        kept,
        settings_output_path,
        code,
    };
    if dry_run {
        // A dry run writes nothing, so the host needs no bytes: none cross the boundary.
        for dir in &mut publication.code {
            for folder in &mut dir.folders {
                for (_, bytes) in &mut folder.files {
                    *bytes = Vec::new();
                }
            }
        }
    }
    Ok(publication)
}

/// One package's files, with their bytes, as [`publish`] with the same `input` lists them:
/// published again from the same model (`input.expected_revision` must be current).
pub fn publish_one(
    session: &Session,
    input: &PublishProjectInput,
    package_name: &str,
) -> Result<PublishedPackage, Rejected> {
    if let Some(expected) = input.expected_revision {
        session.check_revision(expected)?;
    }
    let project = session.project();
    let (chosen, _) = choose_packages(project, input.packages.as_deref());
    let Some(package) = chosen.into_iter().find(|p| p.name == package_name) else {
        return Err(BackendError::invalid_input(
            format!("This publish does not include a package named {package_name:?}."),
            Some("/packages".to_owned()),
        )
        .into());
    };
    let options = PublishOptions {
        branches: branches(project, input).0,
        ..PublishOptions::default()
    };
    publish_package(project, session.files(), &package.id, &options).map_err(|error| {
        BackendError::PublishRefused {
            message: format!("Nothing more was published: {}", package_failure(&error)),
            session_id: session.id().to_owned(),
            issue_count: 1,
        }
        .into()
    })
}

/// Where the project's settings publish: `settings/Publish.json` `path`; for one branch
/// merged into the main packages, the folder named after the branch in `branchPath` (else
/// in `path`), as the editor publishes a branch, so that it does not replace the main
/// output. `None` when the settings name no directory.
fn settings_output_dir(project: &UamProject, branches: &Branches) -> Option<String> {
    let setting = |key: &str| {
        project
            .settings
            .get("publish")
            .and_then(|p| p.get(key))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|p| !p.is_empty())
    };
    match branches {
        Branches::Merged(Some(branch)) => {
            let base = setting("branchPath").or_else(|| setting("path"))?;
            Some(format!("{}/{branch}", base.trim_end_matches(['/', '\\'])))
        }
        _ => setting("path").map(str::to_owned),
    }
}

/// The output directory a package's own publish settings name for this call, which the
/// editor would use instead of the project's: its `branchPath` for a merged branch (else
/// its `path`), its `path` otherwise.
fn own_output_dir<'a>(package: &'a UamPackage, branches: &Branches) -> Option<&'a str> {
    let publish = package.publish.as_ref()?;
    let non_empty = |p: &'a str| Some(p.trim()).filter(|p| !p.is_empty());
    match branches {
        Branches::Merged(Some(_)) => {
            non_empty(&publish.branch_path).or_else(|| non_empty(&publish.path))
        }
        _ => non_empty(&publish.path),
    }
}

/// The binding code of the published packages that ask for it, grouped by code
/// directory; what could not be generated, and what the generator says, is added to the
/// packages' warnings.
fn binding_code(
    session: &Session,
    packages: &mut [PublishedPackage],
    code_dir: Option<&str>,
) -> Vec<CodeOutput> {
    let project = session.project();
    let mut settings = CodegenSettings::of(project);
    settings.code_dir_override = code_dir.map(str::to_owned);
    let mut asking = Vec::new();
    for published in packages.iter_mut() {
        let Lookup::Found(package) = find_package(project, &published.package_id) else {
            continue;
        };
        if !settings.generates(package) {
            continue;
        }
        if settings.code_dir(package).is_empty() {
            published.warnings.push(PublishWarning {
                code: "code_not_generated",
                resource_id: None,
                message: format!(
                    "Package {} asks for binding code (genCode) but neither its publish settings nor settings/Publish.json name a codePath, so no code was written; set one, or pass codeDir (--code-out).",
                    package.name
                ),
            });
            continue;
        }
        asking.push(package.id.as_str());
    }
    if asking.is_empty() {
        return Vec::new();
    }
    let generated = match codegen::generate_into(project, &asking, code_dir) {
        Ok(generated) => generated,
        Err(error) => {
            for published in packages
                .iter_mut()
                .filter(|p| asking.contains(&p.package_id.as_str()))
            {
                published.warnings.push(PublishWarning {
                    code: "code_not_generated",
                    resource_id: None,
                    message: format!("No binding code was written: {error}."),
                });
            }
            return Vec::new();
        }
    };
    code_by_directory(generated, packages)
}

fn code_by_directory(
    generated: GeneratedCode,
    packages: &mut [PublishedPackage],
) -> Vec<CodeOutput> {
    for warning in generated.warnings {
        // A project-wide warning (no package) goes to the first package with code.
        let owner = packages
            .iter_mut()
            .find(|p| warning.package_id.is_empty() || p.package_id == warning.package_id);
        if let Some(owner) = owner {
            owner.warnings.push(PublishWarning {
                code: warning.kind.code(),
                resource_id: warning.resource_id,
                message: warning.message,
            });
        }
    }
    let mut out: Vec<CodeOutput> = Vec::new();
    for file in generated.files {
        let (folder, name) = file
            .path
            .split_once('/')
            .map_or((String::new(), file.path.clone()), |(f, n)| {
                (f.to_owned(), n.to_owned())
            });
        let index = match out.iter().position(|d| d.code_dir == file.code_dir) {
            Some(index) => index,
            None => {
                out.push(CodeOutput {
                    code_dir: file.code_dir.clone(),
                    folders: Vec::new(),
                });
                out.len() - 1
            }
        };
        let dir = &mut out[index];
        let bytes = file.text.into_bytes();
        match dir.folders.iter_mut().find(|f| f.folder == folder) {
            Some(existing) => existing.files.push((name, bytes)),
            None => dir.folders.push(CodeFolder {
                folder,
                files: vec![(name, bytes)],
            }),
        }
    }
    out
}

/// Checks the files published under their own names against the other packages' (see
/// the module documentation).
fn check_kept_names(
    project: &UamProject,
    packages: &mut [PublishedPackage],
    findings: &mut Vec<BackendDiagnostic>,
) {
    let names: Vec<String> = project.packages.iter().map(|p| p.name.clone()).collect();
    let unity_like = is_unity_like(project);
    let mut writers: Vec<(String, String)> = Vec::new();
    let mut shared: Vec<(usize, PublishWarning)> = Vec::new();
    for (index, package) in packages.iter().enumerate() {
        for file in &package.files {
            let Some(skeleton) = &file.skeleton_of else {
                continue;
            };
            let at = format!("{}/{skeleton}", package.package_name);
            let collision = |message: String| {
                let mut finding = BackendDiagnostic::error("file_name_collision", message);
                finding.path = Some(at.clone());
                finding
            };
            if let Some((other, _)) = writers.iter().find(|(_, name)| *name == file.name) {
                findings.push(collision(format!(
                    "Packages {other} and {} both publish a file named {}; a skeleton's files \
                     keep their own names, so rename one or keep the skeleton in one package.",
                    package.package_name, file.name
                )));
                continue;
            }
            writers.push((package.package_name.clone(), file.name.clone()));
            if let Some(owner) = names
                .iter()
                .find(|other| **other != package.package_name && owns(other, &file.name, &names))
            {
                findings.push(collision(format!(
                    "Skeleton file {} of package {} is named like a file of package {owner}, \
                     whose next publish would remove it; rename the file.",
                    file.name, package.package_name
                )));
                continue;
            }
            let published_now = |id: &str| packages.iter().any(|p| p.package_id == id);
            if let Some(other) = project.packages.iter().find(|other| {
                !published_now(&other.id)
                    && skeleton_files(other, unity_like)
                        .iter()
                        .any(|f| f.name == file.name)
            }) {
                shared.push((
                    index,
                    PublishWarning {
                        code: "file_name_shared",
                        resource_id: Some(skeleton.clone()),
                        message: format!(
                            "package {} has a skeleton file named {} too; publishing it into \
                             the same directory overwrites this one",
                            other.name, file.name
                        ),
                    },
                ));
            }
        }
    }
    for (index, warning) in shared {
        if let Some(package) = packages.get_mut(index) {
            package.warnings.push(warning);
        }
    }
}

/// The packages named (by id, else by name), in the project's order, and a finding for
/// each name that fits none or several.
fn choose_packages<'a>(
    project: &'a UamProject,
    named: Option<&[String]>,
) -> (Vec<&'a UamPackage>, Vec<BackendDiagnostic>) {
    let packages = &project.packages;
    let Some(named) = named else {
        return (packages.iter().map(|p| p.as_ref()).collect(), Vec::new());
    };
    let mut chosen: Vec<&UamPackage> = Vec::new();
    let mut findings = Vec::new();
    for (index, key) in named.iter().enumerate() {
        let why = match find_package_by_key(project, key) {
            Lookup::Found(package) => {
                if !chosen.iter().any(|p| p.id == package.id) {
                    chosen.push(package);
                }
                continue;
            }
            Lookup::NotFound(_) => {
                format!("No package has the id or name {key:?}; take names from getProjectOutline.")
            }
            Lookup::Ambiguous(_) => {
                format!("Several packages are named {key:?}; name the one you mean by id.")
            }
        };
        let mut finding = BackendDiagnostic::error("invalid_package_selector", why);
        finding.path = Some(format!("/packages/{index}"));
        findings.push(finding);
    }
    chosen.sort_by_key(|chosen| {
        packages
            .iter()
            .position(|p| p.id == chosen.id)
            .unwrap_or(usize::MAX)
    });
    (chosen, findings)
}

/// What to do about a source publishing cannot use, in publishing's terms: the codes are
/// validation's, whose guides speak of a report, not of a publish they refuse.
fn left_out_remedy(code: &str) -> Option<Remediation> {
    let message = match code {
        "missing_source" => {
            "Restore the file at the path the package declares (or remove the resource in the FairyGUI editor), then publish again; or publish with allowMissing (--allow-missing on the command line) to leave the resource out, and the game without it."
        }
        "corrupt_source" => {
            "For a Git LFS pointer, run `git lfs pull` in the project's repository; otherwise replace the broken file with a working export. Then publish again; or publish with allowMissing (--allow-missing on the command line) to leave the resource out, and the game without it."
        }
        _ => return None,
    };
    Some(Remediation {
        kind: RemediationKind::HostAction,
        message: message.to_owned(),
        read: None,
    })
}

fn package_failure(error: &PublishError) -> String {
    let mut text = error.to_string();
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + &text[1..];
    }
    text.push('.');
    text
}

/// The report of one package; `sizes` are its files' sizes, counted before their bytes
/// may have been dropped.
fn report(package: &PublishedPackage, sizes: &[u64]) -> PublishedPackageInfo {
    PublishedPackageInfo {
        package_id: package.package_id.clone(),
        package_name: package.package_name.clone(),
        files: package
            .files
            .iter()
            .zip(sizes)
            .map(|(file, size)| PublishedFileInfo {
                name: file.name.clone(),
                bytes: *size,
            })
            .collect(),
        warnings: package
            .warnings
            .iter()
            .map(|warning| PublishWarningInfo {
                code: warning.code.to_owned(),
                resource_id: warning.resource_id.clone(),
                message: warning.message.clone(),
            })
            .collect(),
    }
}
