//! Scopes and pages of the project reads (outline, session state, search): which
//! packages a read covers, narrowed to one component when asked, and where a page starts.
//!
//! A cursor names the revision it was made at and the position after the last item it
//! answered; a cursor of another revision is `stale_read`, so pages never mix two states
//! of the project.

use std::ops::Range;
use std::sync::Arc;

use ofgui_contracts::api::{PageRequest, ProjectScope};
use ofgui_contracts::error::{BackendError, ReadFailureReason};
use ofgui_contracts::strict;
use ofgui_contracts::uam::{UamPackage, UamProject, UamResource};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::lookup::{Lookup, exactly_one};
use crate::rules::with_article;

/// One package in scope: all of its resources, or just the scoped component.
pub struct Scoped<'a> {
    pub package: &'a Arc<UamPackage>,
    pub only: Option<&'a Arc<UamResource>>,
}

impl<'a> Scoped<'a> {
    /// The resources in scope, in package order.
    pub fn resources(&self) -> impl Iterator<Item = &'a Arc<UamResource>> + use<'a> {
        let all: &'a [Arc<UamResource>] = match self.only {
            Some(_) => &[],
            None => &self.package.resources,
        };
        self.only.into_iter().chain(all.iter())
    }

    /// The package as the scope shows it: shared when whole, else holding just the one
    /// resource.
    pub fn narrowed(&self) -> Arc<UamPackage> {
        match self.only {
            None => Arc::clone(self.package),
            Some(resource) => Arc::new(UamPackage {
                resources: vec![Arc::clone(resource)],
                ..UamPackage::clone(self.package)
            }),
        }
    }
}

/// The packages of `project` a scope covers, in project order; errors name the session
/// `session_id`.
pub fn select<'a>(
    session_id: &str,
    project: &'a UamProject,
    scope: Option<&ProjectScope>,
) -> Result<Vec<Scoped<'a>>, BackendError> {
    let not_found = |message: String| {
        BackendError::read_failed(session_id, ReadFailureReason::NotFound, message)
    };
    let Some(scope) = scope else {
        return Ok(whole(&project.packages));
    };
    match (&scope.package_ids, &scope.component) {
        (Some(_), Some(_)) => Err(BackendError::invalid_input(
            "scope takes packageIds or component, not both.",
            Some("/scope".into()),
        )),
        (None, None) => Ok(whole(&project.packages)),
        (Some(ids), None) => {
            if let Some((index, id)) = ids
                .iter()
                .enumerate()
                .find(|(_, id)| !project.packages.iter().any(|p| &p.id == *id))
            {
                return Err(not_found(format!(
                    "scope.packageIds[{index}]: no package has id {id:?}. Take package ids from getProjectOutline (detail: packages lists them all)."
                )));
            }
            Ok(whole(&project.packages)
                .into_iter()
                .filter(|scoped| ids.contains(&scoped.package.id))
                .collect())
        }
        (None, Some(component)) => {
            let (package_id, resource_id) =
                (&component.package_id, &component.component_resource_id);
            let package = found(
                session_id,
                exactly_one(
                    project.packages.iter().filter(|p| &p.id == package_id),
                    || format!("package with id {package_id}"),
                ),
            )?;
            let resource = found(
                session_id,
                exactly_one(
                    package.resources.iter().filter(|r| r.id() == resource_id),
                    || format!("resource with id {resource_id} in package {package_id}"),
                ),
            )?;
            if resource.component().is_none() {
                return Err(BackendError::read_failed(
                    session_id,
                    ReadFailureReason::UnsupportedResource,
                    format!(
                        "scope.component: resource {resource_id} is {} resource, not a component; scope by its package with packageIds instead.",
                        with_article(resource.kind())
                    ),
                ));
            }
            Ok(vec![Scoped {
                package,
                only: Some(resource),
            }])
        }
    }
}

/// The one item a scope's component names, or why there is none.
fn found<T>(session_id: &str, lookup: Lookup<T>) -> Result<T, BackendError> {
    match lookup {
        Lookup::Found(found) => Ok(found),
        Lookup::NotFound(message) => Err(BackendError::read_failed(
            session_id,
            ReadFailureReason::NotFound,
            format!("scope.component: {message} Take ids from getProjectOutline."),
        )),
        Lookup::Ambiguous(message) => Err(BackendError::read_failed(
            session_id,
            ReadFailureReason::Ambiguous,
            format!("scope.component: {message}"),
        )),
    }
}

fn whole(packages: &[Arc<UamPackage>]) -> Vec<Scoped<'_>> {
    packages
        .iter()
        .map(|package| Scoped {
            package,
            only: None,
        })
        .collect()
}

/// Most items one page may hold (the input schema's bound).
const MAX_LIMIT: u32 = 1000;

/// Where a page starts and how many items it may hold.
pub struct Page {
    revision: u64,
    start: usize,
    limit: Option<usize>,
}

impl Page {
    /// Reads a page request of session `session_id`, now at `revision`; `default_limit`
    /// applies when it names no limit.
    pub fn read(
        session_id: &str,
        revision: u64,
        request: Option<&PageRequest>,
        default_limit: Option<usize>,
    ) -> Result<Page, BackendError> {
        let limit = match request.and_then(|page| page.limit) {
            Some(limit) if !(1..=MAX_LIMIT).contains(&limit) => {
                return Err(BackendError::invalid_input(
                    format!("page.limit must be 1 to {MAX_LIMIT}; got {limit}."),
                    Some("/page/limit".into()),
                ));
            }
            Some(limit) => Some(limit as usize),
            None => default_limit,
        };
        let Some(cursor) = request.and_then(|page| page.cursor.as_deref()) else {
            return Ok(Page {
                revision,
                start: 0,
                limit,
            });
        };
        let (made_at, start) = parse_cursor(cursor).ok_or_else(|| {
            BackendError::invalid_input(
                format!(
                    "page.cursor {cursor:?} is not a cursor this server made: pass the nextCursor of the previous answer, or omit it for the first page."
                ),
                Some("/page/cursor".into()),
            )
        })?;
        if made_at != revision {
            return Err(BackendError::StaleRead {
                message: format!(
                    "page.cursor was made at revision {made_at}, but the session is now at revision {revision}: the project changed between pages. Read again from the first page (omit page.cursor)."
                ),
                session_id: session_id.to_string(),
                expected_revision: made_at,
                actual_revision: revision,
            });
        }
        Ok(Page {
            revision,
            start,
            limit,
        })
    }

    /// The items of this page out of `total`, and the cursor of the next page if any.
    pub fn window(&self, total: usize) -> (Range<usize>, Option<String>) {
        let start = self.start.min(total);
        let end = match self.limit {
            Some(limit) => start.saturating_add(limit).min(total),
            None => total,
        };
        (start..end, self.cursor_at(end, total))
    }

    /// The page's items built by `build`, when it names no limit: as many as fit in
    /// `budget` bytes of answer (`size` of each), and always at least one, so every
    /// answer moves on; with a limit, [`Page::window`]'s. Gives the items, the range they
    /// cover and the cursor of the next page if any.
    pub fn fill<T>(
        &self,
        total: usize,
        budget: usize,
        mut build: impl FnMut(usize) -> T,
        size: impl Fn(&T) -> usize,
    ) -> (Vec<T>, Range<usize>, Option<String>) {
        if self.limit.is_some() {
            let (window, next) = self.window(total);
            return (window.clone().map(build).collect(), window, next);
        }
        let start = self.start.min(total);
        let mut items = Vec::new();
        let mut used = 0usize;
        for index in start..total {
            let item = build(index);
            used = used.saturating_add(size(&item));
            if !items.is_empty() && used > budget {
                break;
            }
            items.push(item);
        }
        let end = start + items.len();
        (items, start..end, self.cursor_at(end, total))
    }

    /// The cursor of a page starting at `end`, unless nothing is left.
    fn cursor_at(&self, end: usize, total: usize) -> Option<String> {
        (end < total).then(|| format!("r{}p{end}", self.revision))
    }
}

/// Which items of `total` a page holds, for a message: `package 3 of 30`, `packages 1-12
/// of 30`.
pub fn page_span(window: &Range<usize>, total: usize, one: &str, many: &str) -> String {
    match window.len() {
        1 => format!("{one} {} of {total}", window.start + 1),
        _ => format!("{many} {}-{} of {total}", window.start + 1, window.end),
    }
}

fn parse_cursor(cursor: &str) -> Option<(u64, usize)> {
    let (revision, start) = cursor.strip_prefix('r')?.split_once('p')?;
    Some((revision.parse().ok()?, start.parse().ok()?))
}

/// Decodes a method's input object strictly; a malformed one is `invalid_input` at the
/// failing field. (The host has already held it to the published schema.)
pub fn decode_input<T: DeserializeOwned + Serialize>(text: &str) -> Result<T, BackendError> {
    strict::from_str::<T>(text, "").map_err(|error| {
        BackendError::invalid_input(
            format!("The input is malformed: {}.", error.message),
            Some(error.path),
        )
    })
}
