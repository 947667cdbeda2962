//! Rules checked once on the final state of a batch: whatever the batch leaves broken,
//! whatever order its operations came in.
//!
//! Validation is the one source of the model's rules. The findings of the changed scope are
//! compared before and after the batch by identity (code, entities, field, subject; see
//! [`validate::Identity`]), never by message or list position, and as a multiset: only
//! findings the batch added refuse it, so an old defect never blocks an edit, and an edit
//! may not add one. A new finding about something a removal or move asked to watch gets
//! that operation's code; any other is blamed on the last operation that changed its
//! component (or, outside components, the project), at the payload path of that
//! operation when its payload holds the place the finding is about.

use std::collections::{BTreeMap, HashMap};

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::diagnostics::ProjectDiagnosticCode;
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::{ComponentModel, UamProject};

use super::issue::{Blame, Issue};
use super::workspace::{FinalCheck, Workspace};
use super::{components, controllers};
use crate::lookup::find_resource;
use crate::lookup::urls::Urls;
use crate::validate::{self, Finding, Identity, Subject};

pub(super) fn check(
    base: &UamProject,
    base_bytes: &BTreeMap<String, Vec<u8>>,
    operations: &[Operation],
    workspace: &Workspace<'_>,
) -> Vec<Issue> {
    let mut issues = direct_checks(workspace);
    let judge = Judge {
        base: Urls::new(base),
        finals: &workspace.finals,
        operations,
        project: workspace.project(),
    };
    issues.extend(introduced_findings(base, workspace, &judge));
    issues.extend(introduced_source_findings(
        base, base_bytes, workspace, &judge,
    ));
    issues
}

/// The final-state rules that are not model findings.
fn direct_checks(workspace: &Workspace<'_>) -> Vec<Issue> {
    let mut issues = Vec::new();
    for check in &workspace.finals {
        match check {
            FinalCheck::ControllerPagesDropped {
                at,
                package_id,
                component_id,
                controller_name,
                page_ids,
            } => {
                if let Some(model) = final_component(workspace.project(), package_id, component_id)
                {
                    issues.extend(controllers::gears_off_dropped_pages(
                        model,
                        at,
                        controller_name,
                        page_ids,
                    ));
                }
            }
            FinalCheck::ComponentIndependent {
                at,
                old_package_id,
                package_id,
                component_id,
            } => issues.extend(explicit_refs_left(
                workspace.project(),
                at,
                old_package_id,
                (package_id, component_id),
            )),
            _ => {}
        }
    }
    issues
}

/// A component of the final state, by its (unique) package and resource ids.
fn final_component<'p>(
    project: &'p UamProject,
    package_id: &str,
    component_id: &str,
) -> Option<&'p ComponentModel> {
    find_resource(project, package_id, component_id)
        .found()?
        .component()
}

/// Whether a finding is located in this resource.
fn is_in(finding: &Finding, package_id: &str, resource_id: &str) -> bool {
    finding.package_id.as_deref() == Some(package_id)
        && finding.resource_id.as_deref() == Some(resource_id)
}

/// A moved component whose nodes still name its old package explicitly.
fn explicit_refs_left(
    project: &UamProject,
    at: &Blame,
    old_package_id: &str,
    (package_id, component_id): (&str, &str),
) -> Option<Issue> {
    let model = final_component(project, package_id, component_id)?;
    let explicit = components::explicit_refs_into(&model.display_list, old_package_id);
    if explicit.is_empty() {
        return None;
    }
    let shown: Vec<String> = explicit
        .iter()
        .map(|(node, field)| format!("{node} ({field})"))
        .collect();
    Some(at.issue(
        Code::ComponentHasPackageDependencies,
        format!(
            "After the batch, moved component {component_id} still has nodes naming its old package {old_package_id} explicitly: {}; they would keep using that package's resources. Detach or re-point them in the same batch, or keep the component where it is.",
            shown.join(", ")
        ),
    ))
}

/// Which findings of `after` are new: each identity may appear as often as it did in
/// `before`; the occurrences beyond that are the batch's. Among equal identities, one at
/// a path that had it before counts as the old one, so the new one is reported where it is.
fn introduced(before: &[Finding], after: Vec<Finding>) -> Vec<Finding> {
    let mut allowed: HashMap<Identity, Vec<&str>> = HashMap::new();
    for finding in before {
        allowed
            .entry(finding.identity())
            .or_default()
            .push(finding.path.as_str());
    }
    // First the findings still where they were, then the others, in order.
    let mut old = vec![false; after.len()];
    for (k, finding) in after.iter().enumerate() {
        if let Some(paths) = allowed.get_mut(&finding.identity())
            && let Some(at) = paths.iter().position(|path| *path == finding.path)
        {
            paths.swap_remove(at);
            old[k] = true;
        }
    }
    let mut left: HashMap<Identity, usize> = allowed
        .into_iter()
        .map(|(identity, paths)| (identity, paths.len()))
        .collect();
    after
        .into_iter()
        .zip(old)
        .filter(|(finding, old)| {
            if *old {
                return false;
            }
            match left.get_mut(&finding.identity()) {
                Some(count) if *count > 0 => {
                    *count -= 1;
                    false
                }
                _ => true,
            }
        })
        .map(|(finding, _)| finding)
        .collect()
}

/// The model findings the batch introduced, each blamed on the operation that caused it.
fn introduced_findings(
    base: &UamProject,
    workspace: &Workspace<'_>,
    judge: &Judge<'_>,
) -> Vec<Issue> {
    let scope = &workspace.scope;
    if !scope.whole && scope.components.is_empty() {
        return Vec::new();
    }
    let only = (!scope.whole).then_some(&scope.components);
    let before = validate::model_findings(base, only);
    let after = validate::model_findings(workspace.project(), only);
    introduced(&before, after)
        .iter()
        .filter(|finding| !judge.covered_by_direct_check(finding))
        .map(|finding| {
            let editor = finding
                .package_id
                .clone()
                .zip(finding.resource_id.clone())
                .and_then(|key| workspace.editors.get(&key).cloned())
                .or_else(|| workspace.project_editor.clone());
            let fallback = editor.unwrap_or_else(|| workspace.last_op());
            judge.issue(finding, fallback)
        })
        .collect()
}

/// The files whose bytes or names the batch changed, checked as validation checks them:
/// only problems the file did not have before refuse the batch.
fn introduced_source_findings(
    base: &UamProject,
    base_bytes: &BTreeMap<String, Vec<u8>>,
    workspace: &Workspace<'_>,
    judge: &Judge<'_>,
) -> Vec<Issue> {
    // The last operation that touched each file decides its blame.
    let mut changed: BTreeMap<(&str, &str), &Blame> = BTreeMap::new();
    for check in &workspace.finals {
        if let FinalCheck::SourceChanged {
            at,
            package_id,
            resource_id,
        } = check
        {
            changed.insert((package_id, resource_id), at);
        }
    }
    let files = |project: &UamProject, bytes: &dyn Fn(&str) -> Option<Vec<u8>>| {
        let mut files = BTreeMap::new();
        for &(package_id, resource_id) in changed.keys() {
            if let Some(path) = find_resource(project, package_id, resource_id)
                .found()
                .and_then(|resource| resource.source_path())
                && let Some(data) = bytes(path)
            {
                files.insert(path.to_string(), data);
            }
        }
        files
    };
    let before_files = files(base, &|path| base_bytes.get(path).cloned());
    let after_files = files(workspace.project(), &|path| {
        workspace.bytes(path).map(<[u8]>::to_vec)
    });
    let before = validate::source_findings(base, &before_files);
    let after = validate::source_findings(workspace.project(), &after_files);
    introduced(&before, after)
        .iter()
        .filter(|finding| finding.severity == ofgui_contracts::diagnostics::Severity::Error)
        .filter_map(|finding| {
            let key = (
                finding.package_id.as_deref()?,
                finding.resource_id.as_deref()?,
            );
            let at = changed.get(&key)?;
            Some(Issue {
                finding: Some(Box::new(finding.diagnostic.clone())),
                ..at.issue(
                    Code::InvalidResourceBytes,
                    format!(
                        "After the batch, file {} is not usable: {}.",
                        finding.source_path.as_deref().unwrap_or_default(),
                        finding.message
                    ),
                )
                .resource_kind(judge.resource_kind(key).unwrap_or_default())
            })
        })
        .collect()
}

/// What turns a finding into an issue of the batch.
struct Judge<'a> {
    /// The project before the batch, to tell what a reference pointed at then.
    base: Urls<'a>,
    finals: &'a [FinalCheck],
    operations: &'a [Operation],
    project: &'a UamProject,
}

impl Judge<'_> {
    fn resource_kind(&self, (package_id, resource_id): (&str, &str)) -> Option<&'static str> {
        find_resource(self.project, package_id, resource_id)
            .found()
            .map(|resource| resource.kind())
    }

    /// Whether the finding's reference pointed into this package (and at this resource,
    /// when given) before the batch.
    fn pointed_at(&self, finding: &Finding, package_id: &str, resource_id: Option<&str>) -> bool {
        let (package, resource) = match &finding.subject {
            Subject::Resource(package, resource) => (package.as_str(), resource.as_str()),
            Subject::Url(url) => match self.base.locate(url) {
                Some((package, resource)) => (package, resource.id()),
                None => return false,
            },
            _ => return false,
        };
        package == package_id && resource_id.is_none_or(|id| id == resource)
    }

    /// Whether a direct check already reports this finding (a gear on a page its
    /// controller's update dropped), so it is not reported twice.
    fn covered_by_direct_check(&self, finding: &Finding) -> bool {
        let Subject::Page(controller, page) = &finding.subject else {
            return false;
        };
        self.finals.iter().any(|check| match check {
            FinalCheck::ControllerPagesDropped {
                package_id,
                component_id,
                controller_name,
                page_ids,
                ..
            } => {
                is_in(finding, package_id, component_id)
                    && finding.node_id.is_some()
                    && controller == controller_name
                    && page_ids.contains(page)
            }
            _ => false,
        })
    }

    /// The issue of an introduced finding: the code and operation of the removal or move
    /// that caused it, else the finding's own code blamed on `fallback`.
    fn issue(&self, finding: &Finding, fallback: Blame) -> Issue {
        let code = code_of(finding);
        for check in self.finals {
            let (at, code) = match check {
                FinalCheck::PackageUnreferenced { at, package_id }
                    if self.pointed_at(finding, package_id, None) =>
                {
                    (at, Code::PackageReferenced)
                }
                FinalCheck::ComponentUnreferenced {
                    at,
                    package_id,
                    component_id,
                } if self.pointed_at(finding, package_id, Some(component_id)) => {
                    (at, Code::ComponentReferenced)
                }
                FinalCheck::ResourceUnreferenced {
                    at,
                    package_id,
                    resource_id,
                } if self.pointed_at(finding, package_id, Some(resource_id)) => {
                    (at, Code::InvalidResourceReference)
                }
                FinalCheck::ComponentIndependent {
                    at,
                    package_id,
                    component_id,
                    ..
                } if is_in(finding, package_id, component_id)
                    && finding.code == ProjectDiagnosticCode::DanglingResourceReference =>
                {
                    (at, Code::ComponentHasPackageDependencies)
                }
                FinalCheck::ComponentAttached {
                    at,
                    package_id,
                    component_id,
                    node_id,
                } if is_in(finding, package_id, component_id)
                    && finding.node_id.as_deref() == Some(node_id.as_str())
                    && finding.code == ProjectDiagnosticCode::DanglingResourceReference =>
                {
                    (at, Code::InvalidComponentReference)
                }
                FinalCheck::ControllerRemoved {
                    at,
                    package_id,
                    component_id,
                    controller_name,
                } if is_in(finding, package_id, component_id)
                    && names_controller(finding, controller_name) =>
                {
                    (at, Code::InvalidControllerPayload)
                }
                FinalCheck::NodeRemoved {
                    at,
                    package_id,
                    component_id,
                    node_id,
                } if is_in(finding, package_id, component_id)
                    && finding.subject == Subject::Node(node_id.clone()) =>
                {
                    (at, code)
                }
                _ => continue,
            };
            return self.describe(located(at, code, finding), finding);
        }
        let at = self.payload_blame(finding, fallback);
        self.describe(located(&at, code, finding), finding)
    }

    /// `at`, pointed at the place in its operation's payload the finding is about, when the
    /// operation carries that place (an attached node, a controller, transition or gear
    /// snapshot, a field of setDisplayNodeProps).
    fn payload_blame(&self, finding: &Finding, at: Blame) -> Blame {
        let Some(op) = self.operations.get(at.op_index) else {
            return at;
        };
        let (Some(package_id), Some(component_id)) = (&finding.package_id, &finding.resource_id)
        else {
            return at;
        };
        let Some(rest) = finding.path.split_once(".component.").map(|(_, rest)| rest) else {
            return at;
        };
        let Some(model) = final_component(self.project, package_id, component_id) else {
            return at;
        };
        let same = |p: &str, c: &str| p == package_id && c == component_id;
        let mapped = match op {
            Operation::AttachDisplayNode(o)
                if same(&o.selector.package_id, &o.selector.component_resource_id)
                    && finding.node_id.as_deref() == Some(o.node.id()) =>
            {
                under(rest, "displayList").map(|(_, tail)| format!("node.{tail}"))
            }
            Operation::SetDisplayNodeProps(o)
                if same(&o.selector.package_id, &o.selector.component_resource_id)
                    && finding.node_id.as_deref() == Some(o.selector.display_node_id.as_str()) =>
            {
                let sent = serde_json::to_value(&o.props).unwrap_or_default();
                under(rest, "displayList").and_then(|(_, tail)| props_path(&sent, tail))
            }
            Operation::AddController(o) | Operation::UpdateController(o)
                if same(&o.selector.package_id, &o.selector.component_resource_id) =>
            {
                under(rest, "controllers")
                    .filter(|(c, _)| {
                        model
                            .controllers
                            .get(*c)
                            .is_some_and(|found| found.name == o.selector.controller_name)
                    })
                    .map(|(_, tail)| format!("controller.{tail}"))
            }
            Operation::AddTransition(o) | Operation::UpdateTransition(o)
                if same(&o.selector.package_id, &o.selector.component_resource_id) =>
            {
                under(rest, "transitions")
                    .filter(|(t, _)| {
                        model
                            .transitions
                            .get(*t)
                            .is_some_and(|found| found.name == o.selector.transition_name)
                    })
                    .map(|(_, tail)| format!("transition.{tail}"))
            }
            Operation::AddGear(o)
            | Operation::UpdateGear(o)
            | Operation::AddLookGear(o)
            | Operation::UpdateLookGear(o)
                if same(&o.selector.package_id, &o.selector.component_resource_id)
                    && finding.node_id.as_deref() == Some(o.selector.display_node_id.as_str()) =>
            {
                under(rest, "displayList").and_then(|(n, tail)| {
                    let gears = &model.display_list.get(n)?.base().gears;
                    let (g, tail) = under(tail, "gears")?;
                    let gear = gears.get(g)?;
                    (gear.kind() == o.selector.kind
                        && gear.controller_name() == o.selector.controller_name)
                        .then(|| format!("gear.{tail}"))
                })
            }
            _ => None,
        };
        match mapped {
            Some(field) => Blame {
                path: format!("operations[{}].{field}", at.op_index),
                ..at
            },
            None => at,
        }
    }
}

/// Where in a setDisplayNodeProps `props` the node field `tail` was sent: at the top
/// level, or inside the per-kind snapshot that carries it.
fn props_path(props: &serde_json::Value, tail: &str) -> Option<String> {
    let field = tail.split(['.', '[']).next()?;
    let sent = |value: &serde_json::Value| value.get(field).is_some_and(|v| !v.is_null());
    if sent(props) {
        return Some(format!("props.{tail}"));
    }
    let snapshots = props.as_object()?;
    snapshots
        .iter()
        .find(|(key, value)| key.ends_with("Properties") && sent(value))
        .map(|(key, _)| format!("props.{key}.{tail}"))
}

/// Whether a finding is about a node or gear naming this controller.
fn names_controller(finding: &Finding, controller: &str) -> bool {
    let field = validate::field_of(&finding.path);
    finding.subject == Subject::Name(controller.to_string()) && names_a_controller(&field)
}

/// Whether a field holds a controller's name: a gear's `controllerName`, a node's
/// `pageController` / `selectionController` or a button instance's `controller`.
fn names_a_controller(field: &str) -> bool {
    field.ends_with("controllerName")
        || field.ends_with("Controller")
        || field.ends_with(".controller")
}

/// `list[i].tail` → `(i, tail)`.
fn under<'p>(path: &'p str, list: &str) -> Option<(usize, &'p str)> {
    let rest = path.strip_prefix(list)?.strip_prefix('[')?;
    let (index, tail) = rest.split_once("].")?;
    Some((index.parse().ok()?, tail))
}

/// The transaction code of a finding about the model.
fn code_of(finding: &Finding) -> Code {
    if finding.code == ProjectDiagnosticCode::DanglingResourceReference {
        return Code::InvalidResourceReference;
    }
    if matches!(finding.subject, Subject::Instance(..)) {
        return Code::InvalidComponentReference;
    }
    let field = validate::field_of(&finding.path);
    if field.ends_with(".group") {
        Code::InvalidGroupReference
    } else if !field.contains(".gears") && names_a_controller(&field) {
        Code::InvalidControllerPayload
    } else if field.contains(".gears") {
        Code::InvalidGearPayload
    } else if field.ends_with(".controllers.actions.targetNodeId") {
        Code::InvalidDisplayNodeSelector
    } else if field.contains(".controllers") {
        Code::InvalidControllerPayload
    } else if field.contains(".transitions") {
        Code::InvalidTransitionPayload
    } else {
        Code::InvalidResourcePayload
    }
}

fn located(at: &Blame, code: Code, finding: &Finding) -> Issue {
    Issue {
        finding: Some(Box::new(finding.diagnostic.clone())),
        ..at.issue(code, format!("After the batch: {}", finding.message))
    }
}

impl Judge<'_> {
    /// The kinds and field of the node (and gear) a finding is about, as the issues of
    /// payload checks carry them.
    fn describe(&self, mut issue: Issue, finding: &Finding) -> Issue {
        let (Some(package_id), Some(component_id), Some(node_id)) =
            (&finding.package_id, &finding.resource_id, &finding.node_id)
        else {
            return issue;
        };
        let Some(model) = final_component(self.project, package_id, component_id) else {
            return issue;
        };
        let Some((_, tail)) = finding
            .path
            .split_once(".component.")
            .and_then(|(_, rest)| under(rest, "displayList"))
        else {
            return issue;
        };
        if let Some(node) = model.display_list.iter().find(|n| n.id() == node_id) {
            issue = issue.node_kind(node.kind());
            if let Some((g, _)) = under(tail, "gears")
                && let Some(gear) = node.base().gears.get(g)
            {
                issue = issue.gear_kind(gear.kind());
            }
        }
        match tail.split(['.', '[']).next() {
            Some(field) if !field.is_empty() => issue.field(field),
            _ => issue,
        }
    }
}
