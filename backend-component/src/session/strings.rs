//! A session's translatable texts (`exportStrings`) and the session in another language,
//! both read from each component's XML as a save would write it now (the files as read,
//! with the unsaved edits' new bytes over them), so the keys are the node ids the files
//! hold.

use std::collections::BTreeMap;
use std::sync::Arc;

use ofgui_contracts::api::{
    ExportStringsInput, StringEntry, StringsCheck, StringsExport, TranslationInput,
};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::uam::{ComponentModel, UamPackage, UamProject, UamResource};

use crate::commit::Change;
use crate::reader::reread_component;
use crate::render::shelf::Coverage;
use crate::strings::{self, ComponentStrings, Translations};

use super::{Rejected, Session};

/// Entries an answer holds unless the input asks for fewer or more.
const DEFAULT_PAGE: usize = 200;

impl Session {
    /// Calls `each` with every component's package, resource and XML as a save would
    /// write it now; packages and their components by name.
    fn each_component_file(
        &self,
        mut each: impl FnMut(&UamPackage, &Arc<UamResource>, &str, &[u8]),
    ) -> Result<(), Rejected> {
        let disk = self.disk.as_ref().ok_or_else(|| BackendError::CapabilityUnavailable {
            message: "This session was opened from a document and has no component files to read texts from; write it into a directory with materializeSession first.".into(),
            capability: "fileSystem".into(),
        })?;
        // The unsaved edits' bytes, as the next save would write them.
        let mut written: BTreeMap<&str, Option<&[u8]>> = BTreeMap::new();
        let plan = match self.history.dirty() {
            true => Some(
                self.plan(disk)
                    .map_err(|unwritable| Rejected::from(self.unfaithful(unwritable)))?,
            ),
            false => None,
        };
        for change in plan.iter().flat_map(|plan| &plan.changes) {
            match change {
                Change::Write { path, bytes, .. } => written.insert(path, Some(bytes)),
                Change::Remove { path, .. } => written.insert(path, None),
            };
        }
        let mut packages: Vec<_> = self.project.packages.iter().collect();
        packages.sort_by(|a, b| a.name.cmp(&b.name));
        for package in packages {
            let mut listed: Vec<_> = package
                .resources
                .iter()
                .filter_map(|resource| match resource.as_ref() {
                    UamResource::Component(component) => Some((resource, component)),
                    _ => None,
                })
                .collect();
            listed.sort_by(|(a, ac), (b, bc)| (a.name(), &ac.branch).cmp(&(b.name(), &bc.branch)));
            for (resource, _) in listed {
                let Some(path) = resource.source_path() else {
                    continue;
                };
                let bytes = match written.get(path) {
                    Some(bytes) => *bytes,
                    None => disk.documents.get(path).map(Vec::as_slice),
                };
                if let Some(bytes) = bytes {
                    each(package, resource, path, bytes);
                }
            }
        }
        Ok(())
    }

    /// Every component's texts, packages and their components by name, and the
    /// components whose XML could not be read.
    pub fn strings(&self) -> Result<(Vec<ComponentStrings>, Vec<String>), Rejected> {
        let (mut components, mut unreadable) = (Vec::new(), Vec::new());
        self.each_component_file(|package, resource, path, bytes| {
            let read = std::str::from_utf8(bytes)
                .map_err(|error| error.to_string())
                .and_then(|xml| strings::component_entries(&package.id, resource.id(), xml));
            match read {
                Ok(entries) => components.push(ComponentStrings {
                    package: package.name.clone(),
                    component: resource.name().to_owned(),
                    entries,
                }),
                Err(_) => unreadable.push(path.to_owned()),
            }
        })?;
        Ok((components, unreadable))
    }

    /// The project now, with every component's texts in `translations`' language: each
    /// component's XML translated and read again, as the runtime translates the package
    /// data before it builds a component.
    pub fn translated(&self, translations: &Translations) -> Result<UamProject, Rejected> {
        let mut replaced: Vec<(String, String, ComponentModel)> = Vec::new();
        self.each_component_file(|package, resource, _, bytes| {
            let Ok(xml) = std::str::from_utf8(bytes) else {
                return;
            };
            let model = strings::translate(xml, &package.id, resource.id(), translations)
                .and_then(|xml| reread_component(xml.as_bytes(), &package.id, &self.project).ok());
            if let Some(model) = model {
                replaced.push((package.id.clone(), resource.id().to_owned(), model));
            }
        })?;
        let mut project = self.project.clone();
        for (package_id, resource_id, model) in replaced {
            let Some(package) = project.packages.iter_mut().find(|p| p.id == package_id) else {
                continue;
            };
            let package = Arc::make_mut(package);
            let resource = package
                .resources
                .iter_mut()
                .find(|resource| resource.id() == resource_id);
            if let Some(resource) = resource
                && let UamResource::Component(component) = Arc::make_mut(resource)
            {
                component.component = model;
            }
        }
        Ok(project)
    }

    /// One page of the export, and the whole file when asked.
    pub fn export_strings(&self, input: &ExportStringsInput) -> Result<StringsExport, Rejected> {
        let (components, unreadable) = self.strings()?;
        let start = strings::page_start(&input.cursor)?;
        let limit = input.limit.map_or(DEFAULT_PAGE, |limit| limit as usize);
        let all = components.iter().flat_map(|component| {
            component.entries.iter().map(move |entry| StringEntry {
                key: entry.key.clone(),
                package: component.package.clone(),
                component: component.component.clone(),
                node_name: entry.node_name.clone(),
                text: entry.text.clone(),
            })
        });
        let count = components.iter().map(|c| c.entries.len()).sum::<usize>();
        let entries: Vec<StringEntry> = all.skip(start).take(limit).collect();
        let end = start + entries.len();
        Ok(StringsExport {
            session_id: self.id.clone(),
            revision: self.revision,
            count: count as u32,
            entries,
            next_cursor: (end < count).then(|| end.to_string()),
            document: input
                .whole_file
                .unwrap_or(false)
                .then(|| strings::to_xml(&components)),
            unreadable,
        })
    }
}

impl Session {
    /// One page of what is wrong with a translation, held against the texts now.
    pub fn check_strings(&self, input: &TranslationInput) -> Result<StringsCheck, Rejected> {
        // The rows, not the translations: they keep a sheet's source.
        let text = strings::needed(&input.strings, &input.strings_file, "check")?;
        let rows = strings::rows(text)?;
        let (components, _) = self.strings()?;
        let entries: Vec<strings::Entry> = components
            .into_iter()
            .flat_map(|component| component.entries)
            .collect();
        let fonts = self.project.packages.iter().flat_map(|package| {
            package
                .resources
                .iter()
                .filter_map(|resource| match resource.as_ref() {
                    UamResource::Font(font) => font
                        .base
                        .source_path
                        .as_deref()
                        .and_then(|path| self.bytes.get(path))
                        .map(Vec::as_slice),
                    _ => None,
                })
        });
        let coverage = Coverage::new(fonts);
        let findings = strings::check(&entries, &rows, &|c| coverage.has(c));
        let start = strings::page_start(&input.cursor)?;
        let limit = input.limit.map_or(DEFAULT_PAGE, |limit| limit as usize);
        let count = findings.len();
        let page: Vec<_> = findings.into_iter().skip(start).take(limit).collect();
        let end = start + page.len();
        Ok(StringsCheck {
            session_id: self.id.clone(),
            revision: self.revision,
            rows: rows.len() as u32,
            checked: entries.len() as u32,
            count: count as u32,
            findings: page,
            next_cursor: (end < count).then(|| end.to_string()),
        })
    }
}
