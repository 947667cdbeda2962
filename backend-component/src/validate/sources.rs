//! Source checks: the primary bytes of every asset resource that was read, checked by
//! [`crate::formats`] and turned into findings located at the resource.

use std::collections::BTreeMap;

use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode, Severity};
use ofgui_contracts::uam::UamProject;

use super::{Sink, resource_path};
use crate::formats::{self, FileProblem};

/// Checks every asset resource's primary bytes and reports into `sink`.
pub(super) fn check(project: &UamProject, bytes: &BTreeMap<String, Vec<u8>>, sink: &mut Sink) {
    for (package_index, package) in project.packages.iter().enumerate() {
        for (resource_index, resource) in package.resources.iter().enumerate() {
            if resource.asset_base().is_none() {
                continue;
            }
            let Some(source_path) = resource.source_path() else {
                continue;
            };
            // No bytes: the reader has already reported the file missing or unreadable.
            let Some(data) = bytes.get(source_path) else {
                continue;
            };
            let file_name = source_path.rsplit('/').next().unwrap_or(source_path);
            let verdict = formats::inspect(resource.kind(), file_name, data);
            let (severity, code, message) = match verdict {
                Ok(()) => continue,
                // A pointer is kept under corrupt_source, the code it had as a bad PNG, now
                // named for what it is and how to fetch the content.
                Err(FileProblem::Corrupt(message) | FileProblem::LfsPointer(message)) => (
                    Severity::Error,
                    ProjectDiagnosticCode::CorruptSource,
                    message,
                ),
                // Refused content (an SVG's DTD, scripts) is not a broken file: it is
                // reported unchecked, like a format this server cannot decode.
                Err(FileProblem::Refused(message)) => {
                    sink.incomplete();
                    (
                        Severity::Warning,
                        ProjectDiagnosticCode::DecodeCapabilityUnavailable,
                        format!("{message}; the file is not checked"),
                    )
                }
                Err(FileProblem::Unchecked(message)) => {
                    sink.incomplete();
                    (
                        Severity::Warning,
                        ProjectDiagnosticCode::DecodeCapabilityUnavailable,
                        message,
                    )
                }
            };
            sink.push(
                ProjectDiagnostic::new(
                    severity,
                    code,
                    resource_path(package_index, resource_index),
                    message,
                )
                .in_package(package.id.as_str())
                .in_resource(resource.id())
                .in_file(source_path),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::fs::StdFs;
    use crate::reader::{ProjectSource, read_project};

    use crate::testing::{experiments_root, unity_root};

    fn read_unity() -> ProjectSource {
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy")
            .expect("unity reads")
    }

    fn read_experiments() -> ProjectSource {
        read_project(
            &StdFs::new(experiments_root()),
            "FairyGUI-Experiments.fairy",
        )
        .expect("experiments read")
    }

    fn run_check(source: &ProjectSource) -> Sink {
        let mut sink = Sink::new();
        check(&source.project, &source.bytes, &mut sink);
        sink
    }

    #[test]
    fn check_reports_into_the_sink_with_locations() {
        let mut source = read_unity();
        let images: Vec<(usize, usize, String)> = source
            .project
            .packages
            .iter()
            .enumerate()
            .flat_map(|(p, package)| {
                package
                    .resources
                    .iter()
                    .enumerate()
                    .filter_map(move |(r, resource)| {
                        let path = resource.source_path()?;
                        if resource.kind() != "image" || !path.ends_with(".png") {
                            return None;
                        }
                        Some((p, r, path.to_string()))
                    })
            })
            .collect();
        let [(p0, r0, broken), (_, _, missing), (p2, r2, renamed), ..] = images.as_slice() else {
            panic!("too few images");
        };
        source.bytes.insert(broken.clone(), b"garbage".to_vec());
        source.bytes.remove(missing);
        let gif = format!("{renamed}.gif");
        let bytes = source.bytes.remove(renamed).expect("bytes");
        source.bytes.insert(gif.clone(), bytes);
        if let Some(base) = std::sync::Arc::make_mut(
            &mut std::sync::Arc::make_mut(&mut source.project.packages[*p2]).resources[*r2],
        )
        .asset_base_mut()
        {
            base.source_path = Some(gif.clone());
        }

        let sink = run_check(&source);
        assert!(!sink.complete);
        let diagnostics = sink.into_diagnostics();
        assert_eq!(diagnostics.len(), 2, "{diagnostics:#?}");
        let package = &source.project.packages[*p0];
        let expected = ProjectDiagnostic::error(
            ProjectDiagnosticCode::CorruptSource,
            resource_path(*p0, *r0),
            "The file does not start with the PNG signature",
        )
        .in_package(package.id.as_str())
        .in_resource(package.resources[*r0].id())
        .in_file(broken.as_str());
        assert!(diagnostics.contains(&expected), "{diagnostics:#?}");
        let warning = diagnostics
            .iter()
            .find(|d| d.code == ProjectDiagnosticCode::DecodeCapabilityUnavailable)
            .expect("gif warning");
        assert_eq!(warning.severity, Severity::Warning);
        assert_eq!(warning.path, resource_path(*p2, *r2));
        assert_eq!(warning.source_path.as_deref(), Some(gif.as_str()));
        assert_eq!(
            warning.resource_id.as_deref(),
            Some(source.project.packages[*p2].resources[*r2].id())
        );
    }

    /// Kind for a file found on disk, by extension.
    fn kind_of(path: &std::path::Path) -> &'static str {
        let extension = path.extension().unwrap_or_default().to_ascii_lowercase();
        match extension.to_string_lossy().as_ref() {
            "png" | "jpg" | "jpeg" | "svg" => "image",
            "jta" => "movieClip",
            _ => "misc",
        }
    }

    fn asset_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                asset_files(&path, out);
            } else if !path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
            {
                out.push(path);
            }
        }
    }

    #[test]
    fn real_corpus_files_pass() {
        // Every declared asset, through `check`, with its real kind.
        for source in [read_unity(), read_experiments()] {
            let sink = run_check(&source);
            assert!(sink.complete);
            assert!(sink.findings.is_empty(), "{:#?}", sink.findings);
            assert!(source.bytes.len() > 10);
        }
        // Every asset file on disk, declared or not, by extension.
        let mut files = Vec::new();
        for root in [unity_root(), experiments_root()] {
            for entry in std::fs::read_dir(&root).expect("project root") {
                let path = entry.expect("dir entry").path();
                let name = path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string();
                if path.is_dir() && name.starts_with("assets") {
                    asset_files(&path, &mut files);
                }
            }
        }
        assert!(files.len() > 400, "{} files", files.len());
        let mut checked = 0;
        for path in &files {
            let bytes = std::fs::read(path).expect("asset bytes");
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            match formats::inspect(kind_of(path), &name, &bytes) {
                Ok(()) => checked += 1,
                // Legacy SWF and similar files are not images; nothing else may fail.
                Err(problem) => panic!("{}: {problem:?}", path.display()),
            }
        }
        assert_eq!(checked, files.len());
    }

    #[test]
    fn time_over_the_unity_corpus() {
        let source = read_unity();
        let assets: Vec<(&'static str, String, &Vec<u8>)> = source
            .project
            .packages
            .iter()
            .flat_map(|p| &p.resources)
            .filter_map(|r| {
                let path = r.source_path()?;
                let bytes = source.bytes.get(path)?;
                Some((
                    r.kind(),
                    path.rsplit('/').next().unwrap_or(path).to_string(),
                    bytes,
                ))
            })
            .collect();
        let total: usize = assets.iter().map(|(_, _, b)| b.len()).sum();
        let runs = 20;
        let mut best = Duration::MAX;
        for _ in 0..runs {
            let start = Instant::now();
            for (kind, name, bytes) in &assets {
                assert_eq!(formats::inspect(kind, name, bytes), Ok(()), "{name}");
            }
            best = best.min(start.elapsed());
        }
        println!(
            "formats::check over {} unity assets ({:.1} MB): best of {runs} runs {:?}",
            assets.len(),
            total as f64 / 1e6,
            best
        );
    }
}
