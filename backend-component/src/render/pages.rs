//! The page each controller of a drawn component shows, by the FairyGUI runtime's rules
//! for a freshly created object: every controller starts at its home page (the first page
//! unless `homePageType` names another); a plain button's `button` controller starts at
//! `up`. An instance then selects pages by its `controller` pairs, a check or radio
//! button shows `down` when selected, and a grayed button with a `disabled` page, or a
//! component with a `grayed` controller, shows its grey state by page instead of a filter.
//!
//! The editor's `selected` page is where the designer last clicked, not what a game
//! shows, so it is not used.

use std::collections::{BTreeMap, HashMap};

use ofgui_contracts::uam::{ComponentModel, Controller};

/// The button modes of `<Button mode>`: 0 is a plain (common) button.
const COMMON_BUTTON: i32 = 0;
const BUTTON_CONTROLLER: &str = "button";
const GRAYED_CONTROLLER: &str = "grayed";

/// What an instance sets on the component it shows, before it is drawn.
#[derive(Default, Clone, Copy)]
pub struct Start<'s> {
    /// `name,pageId,name,pageId…` from the instance's `controller` attribute.
    pub controllers: &'s str,
    /// A check or radio button's selection: its `checked`, or whether its related
    /// controller in the parent shows the related page.
    pub selected: bool,
    pub grayed: bool,
}

/// Controller name → the id of the page it shows.
pub struct Pages {
    by_controller: HashMap<String, String>,
}

impl Pages {
    /// The pages a component shows when created on its own.
    pub fn start(model: &ComponentModel) -> Pages {
        let by_controller = model
            .controllers
            .iter()
            .filter_map(|c| Some((c.name.clone(), home_page(c)?.to_owned())))
            .collect();
        let mut pages = Pages { by_controller };
        if is_button(model) && model.properties.button_mode == COMMON_BUTTON {
            pages.set_by_name(model, BUTTON_CONTROLLER, "up");
        }
        pages
    }

    /// The pages a component shows as an instance that sets `start` on it.
    pub fn instance(model: &ComponentModel, start: &Start) -> Pages {
        let mut pages = Pages::start(model);
        let parts: Vec<&str> = start.controllers.split(',').collect();
        for pair in parts.chunks(2) {
            if let [name, page] = pair {
                pages.set_by_id(model, name, page);
            }
        }
        let button = is_button(model);
        let selected = start.selected && model.properties.button_mode != COMMON_BUTTON;
        if selected {
            pages.set_by_name(model, BUTTON_CONTROLLER, "down");
        }
        if start.grayed {
            if button && has_page_named(model, BUTTON_CONTROLLER, "disabled") {
                let state = if selected {
                    "selectedDisabled"
                } else {
                    "disabled"
                };
                pages.set_by_name(model, BUTTON_CONTROLLER, state);
            } else if let Some(grayed) = controller(model, GRAYED_CONTROLLER)
                && let Some(second) = grayed.pages.get(1)
            {
                pages
                    .by_controller
                    .insert(grayed.name.clone(), second.id.clone());
            }
        }
        pages
    }

    /// These pages with `requested` (controller name → page id) over them.
    pub fn over(mut self, model: &ComponentModel, requested: &BTreeMap<String, String>) -> Pages {
        for (name, page) in requested {
            self.set_by_id(model, name, page);
        }
        self
    }

    pub fn page(&self, controller: &str) -> Option<&str> {
        self.by_controller.get(controller).map(String::as_str)
    }

    fn set_by_id(&mut self, model: &ComponentModel, name: &str, page_id: &str) {
        if let Some(c) = controller(model, name)
            && c.pages.iter().any(|p| p.id == page_id)
        {
            self.by_controller
                .insert(c.name.clone(), page_id.to_owned());
        }
    }

    /// Selects a page by name; a name the controller lacks selects its first page, as the
    /// runtime's `selectedPage` does.
    fn set_by_name(&mut self, model: &ComponentModel, name: &str, page_name: &str) {
        let Some(c) = controller(model, name) else {
            return;
        };
        let page = c
            .pages
            .iter()
            .find(|p| p.name == page_name)
            .or_else(|| c.pages.first());
        if let Some(page) = page {
            self.by_controller.insert(c.name.clone(), page.id.clone());
        }
    }
}

/// Whether a grayed instance of `model` shows grey by a page (so no grey filter applies).
pub fn grays_by_page(model: &ComponentModel) -> bool {
    (is_button(model) && has_page_named(model, BUTTON_CONTROLLER, "disabled"))
        || controller(model, GRAYED_CONTROLLER).is_some()
}

/// A controller's home page id: the `specific` page when it has one, else the first (a
/// preview has no branch and no variables, which the other kinds name).
fn home_page(controller: &Controller) -> Option<&str> {
    let specific = (controller.home_page_type == "specific")
        .then(|| {
            controller
                .pages
                .iter()
                .find(|p| p.id == controller.home_page)
        })
        .flatten();
    specific
        .or_else(|| controller.pages.first())
        .map(|p| p.id.as_str())
}

fn is_button(model: &ComponentModel) -> bool {
    model.properties.extension_type == "Button"
}

fn controller<'m>(model: &'m ComponentModel, name: &str) -> Option<&'m Controller> {
    model.controllers.iter().find(|c| c.name == name)
}

fn has_page_named(model: &ComponentModel, controller_name: &str, page_name: &str) -> bool {
    controller(model, controller_name).is_some_and(|c| c.pages.iter().any(|p| p.name == page_name))
}
