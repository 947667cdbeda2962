//! Lets people name packages, resources and display nodes as they see them in the editor:
//! a name is turned into the exact id by looking it up in the backend's own outline.
//!
//! An exact id always wins; otherwise a unique name (for resources also the name without
//! its extension: `Main` for `Main.xml`). What matches nothing is passed on as given, so
//! the backend itself answers that the project has no such entity.

use ofgui_contracts::api::{OutlineNode, OutlinePackage, OutlineResource, ProjectOutline};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::methods::MethodId;
use serde_json::json;

use super::Project;

/// A name that fits several entities: their ids.
pub(super) struct Ambiguous {
    pub given: String,
    pub ids: Vec<String>,
}

impl Ambiguous {
    pub(super) fn message(&self, what: &str) -> String {
        format!(
            "{what} name {:?} fits {} entities ({}); name one by its id.",
            self.given,
            self.ids.len(),
            self.ids.join(", ")
        )
    }
}

/// Something an outline lists by id and name.
trait Named {
    fn id(&self) -> &str;
    fn name(&self) -> &str;
}

impl Named for OutlinePackage {
    fn id(&self) -> &str {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
}

impl Named for OutlineResource {
    fn id(&self) -> &str {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
}

impl Named for OutlineNode {
    fn id(&self) -> &str {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
}

/// The item whose id is `given`, else the one whose name is (or, where `stem`, whose
/// name without its extension is); `None` when nothing fits.
fn find<'a, T: Named>(
    items: impl Iterator<Item = &'a T> + Clone,
    given: &str,
    stem: bool,
) -> Result<Option<&'a T>, Ambiguous> {
    if let Some(item) = items.clone().find(|item| item.id() == given) {
        return Ok(Some(item));
    }
    let by_name: Vec<&T> = items.clone().filter(|item| item.name() == given).collect();
    let candidates = match by_name.is_empty() && stem {
        true => items
            .filter(|item| {
                item.name()
                    .rsplit_once('.')
                    .is_some_and(|(stem, _)| stem == given)
            })
            .collect(),
        false => by_name,
    };
    match candidates.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(*one)),
        several => Err(Ambiguous {
            given: given.to_string(),
            ids: several.iter().map(|item| item.id().to_string()).collect(),
        }),
    }
}

/// The id of the package `given` names, or `given` itself when none fits.
pub(super) fn package_id(outline: &ProjectOutline, given: &str) -> Result<String, Ambiguous> {
    Ok(find(outline.packages.iter(), given, false)?
        .map_or(given, |package| &package.id)
        .to_string())
}

/// A package and maybe one of its resources, by exact ids (or as given, where the
/// project has nothing of that name).
pub(super) struct Located {
    pub package_id: String,
    pub resource_id: Option<String>,
    /// The package's outline, when the project has the package and a resource was named.
    outline: Option<ProjectOutline>,
}

impl Located {
    /// Looks up `<package>[/<resource>]` (only components where `components_only`);
    /// `ambiguous` turns a name that fits several into the caller's failure.
    pub(super) async fn look_up(
        project: &Project,
        package: &str,
        resource: Option<&str>,
        components_only: bool,
        ambiguous: impl Fn(Ambiguous, &str) -> BackendError,
    ) -> Result<Located, BackendError> {
        let packages = packages(project).await?;
        let package_id = package_id(&packages, package).map_err(|a| ambiguous(a, "package"))?;
        let Some(resource) = resource else {
            return Ok(Located {
                package_id,
                resource_id: None,
                outline: None,
            });
        };
        // Only a package the project has can be read for names; otherwise the backend
        // answers for the ids as given.
        let outline: Option<ProjectOutline> =
            match packages.packages.iter().any(|p| p.id == package_id) {
                true => Some(
                    project
                        .call(
                            MethodId::GetProjectOutline,
                            json!({
                                "sessionId": project.session_id(),
                                "scope": { "packageIds": [package_id] }
                            }),
                        )
                        .await?,
                ),
                false => None,
            };
        let resources = outline
            .as_ref()
            .and_then(|outline| outline.packages.first())
            .and_then(|package| package.resources.as_deref())
            .unwrap_or_default()
            .iter()
            .filter(|resource| !components_only || resource.component.is_some());
        let resource_id = find(resources, resource, true)
            .map_err(|a| ambiguous(a, "resource"))?
            .map_or(resource, |resource| &resource.id)
            .to_string();
        Ok(Located {
            package_id,
            resource_id: Some(resource_id),
            outline,
        })
    }

    /// The id of the display node `given` names in the located component, or `given`.
    pub(super) fn node_id(&self, given: &str) -> Result<String, Ambiguous> {
        let nodes = self
            .outline
            .as_ref()
            .and_then(|outline| outline.packages.first())
            .and_then(|package| package.resources.as_deref())
            .unwrap_or_default()
            .iter()
            .find(|resource| Some(&resource.id) == self.resource_id.as_ref())
            .and_then(|resource| resource.component.as_ref())
            .map(|component| component.display_list.as_slice())
            .unwrap_or_default()
            .iter();
        Ok(find(nodes, given, false)?
            .map_or(given, |node| &node.id)
            .to_string())
    }
}

/// The outline of the packages alone (ids, names, resource counts), to resolve a name.
pub(super) async fn packages(project: &Project) -> Result<ProjectOutline, BackendError> {
    project
        .call(
            MethodId::GetProjectOutline,
            json!({ "sessionId": project.session_id(), "detail": "packages" }),
        )
        .await
}
