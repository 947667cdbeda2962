//! Watching open projects for changes made outside the server (the FairyGUI editor
//! beside the agent, a checkout): when a file of a session's project changes on disk
//! into something the session did not know, the session's resources are updated
//! (`notifications/resources/updated`) and a `disk.changed` event names the files, so an
//! agent learns of it before it tries to save, and can refresh.
//!
//! One watcher serves every session of a service; a burst of changes (an editor's save
//! writes several files) is taken together.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use notify::{RecursiveMode, Watcher as _};
use serde_json::json;

use super::Service;
use crate::service::events::Happened;

/// How long a burst of changes is gathered before it is looked at.
const GATHER: Duration = Duration::from_millis(100);

/// The service's file watcher, once started.
#[derive(Default)]
pub struct Watch {
    watcher: Mutex<Option<notify::RecommendedWatcher>>,
}

impl Watch {
    fn with<T>(&self, body: impl FnOnce(&mut notify::RecommendedWatcher) -> T) -> Option<T> {
        let mut watcher = self
            .watcher
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        watcher.as_mut().map(body)
    }

    /// Starts watching a session's project directory.
    pub fn add(&self, dir: &Path) {
        if let Some(Err(error)) = self.with(|watcher| watcher.watch(dir, RecursiveMode::Recursive))
        {
            tracing::warn!(dir = %dir.display(), "outside changes to the project will not be noticed: {error}");
        }
    }

    /// Stops watching a session's project directory.
    pub fn remove(&self, dir: &Path) {
        self.with(|watcher| watcher.unwatch(dir));
    }
}

impl Service {
    /// Starts the watcher: from now on, each project opened from a directory is watched
    /// while its session is open.
    pub fn start_watching(self: &Arc<Self>) {
        let (send, mut receive) = tokio::sync::mpsc::unbounded_channel::<PathBuf>();
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            if let Ok(event) = event {
                for path in event.paths {
                    let _ = send.send(path);
                }
            }
        });
        match watcher {
            Ok(watcher) => {
                *self
                    .keeper
                    .watch
                    .watcher
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(watcher);
            }
            Err(error) => {
                tracing::warn!("outside changes to projects will not be noticed: {error}");
                return;
            }
        }
        let service = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(first) = receive.recv().await {
                tokio::time::sleep(GATHER).await;
                let mut paths = BTreeSet::from([first]);
                while let Ok(path) = receive.try_recv() {
                    paths.insert(path);
                }
                let Some(service) = service.upgrade() else {
                    return;
                };
                service.disk_changed(&paths).await;
            }
        });
    }

    /// Reports, for each session whose project holds some of `paths`, the files that now
    /// differ from what it knew.
    async fn disk_changed(&self, paths: &BTreeSet<PathBuf>) {
        for id in self.keeper.registry.ids() {
            let Some(session) = self.keeper.registry.peek(&id) else {
                continue;
            };
            let Some(project) = session.directory() else {
                continue;
            };
            let inside: Vec<String> = paths
                .iter()
                .filter_map(|path| path.strip_prefix(&project.dir).ok())
                .map(|path| path.to_string_lossy().replace('\\', "/"))
                .filter(|path| !path.is_empty())
                .collect();
            if inside.is_empty() {
                continue;
            }
            // After the call in flight: a save's own writes are known once it answers.
            let changed = {
                let _instance = session.instance.lock().await;
                session.disk_changes(&inside)
            };
            if changed.is_empty() {
                continue;
            }
            tracing::info!(session = %id, files = changed.len(), "project files changed on disk");
            self.keeper.events.emit(
                &id,
                &session.key(),
                Happened::new("disk.changed", None).payload(json!({ "paths": changed })),
            );
            self.keeper.events.disk_changed(&id);
        }
    }
}
