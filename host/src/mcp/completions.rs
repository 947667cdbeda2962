//! `completion/complete`: the values a resource-template or prompt argument may take,
//! filtered by what the user typed.
//!
//! An argument completes by its name, wherever it appears: `{sessionId}` in a session
//! template and a prompt's `sessionId` argument take the same values. Every template
//! variable and prompt argument must have a source here (a test holds the lists to it).

use ofgui_contracts::api::ProjectOutline;
use ofgui_contracts::catalog::GUIDES;
use ofgui_contracts::methods::{METHODS, MethodId};
use ofgui_contracts::ops::OPERATION_KINDS;
use rmcp::ErrorData;
use rmcp::model::{CompleteRequestParams, CompletionInfo, Reference};
use serde_json::json;

use crate::mcp::{prompts, resources};
use crate::service::Service;

/// The values an argument may take, in the order they are offered.
type Values = fn(&Service) -> Vec<String>;

/// Where each completable argument's values come from. Completing another argument is
/// one line here.
const SOURCES: &[(&str, Values)] = &[
    ("sessionId", open_sessions),
    ("method", method_names),
    ("code", diagnostic_codes),
    ("kind", operation_kinds),
    ("command", cli_commands),
];

/// Arguments whose values are in an open session: they complete from the arguments the
/// client already resolved (`context.arguments`), `sessionId` first, then `packageId`.
const IN_SESSION: &[&str] = &["packageId", "componentResourceId"];

/// The ids a session has for `name`: its package ids, or the component ids of the
/// package named in `resolved`; none when what they depend on is not given or unknown.
async fn session_values(
    service: &Service,
    name: &str,
    resolved: &std::collections::HashMap<String, String>,
) -> Vec<String> {
    let Some(session_id) = resolved.get("sessionId") else {
        return Vec::new();
    };
    let input = match name {
        "packageId" => json!({ "sessionId": session_id, "detail": "packages" }),
        _ => match resolved.get("packageId") {
            Some(package_id) => {
                json!({ "sessionId": session_id, "scope": { "packageIds": [package_id] } })
            }
            None => return Vec::new(),
        },
    };
    let reply = service
        .call(MethodId::GetProjectOutline.method(), input)
        .await;
    // The outline as its contract type: the ids are read from typed fields, never
    // picked out of the JSON by key.
    let outline = reply
        .envelope
        .into_value()
        .ok()
        .filter(|_| !reply.is_error)
        .and_then(|mut envelope| {
            serde_json::from_value::<ProjectOutline>(envelope["data"].take()).ok()
        });
    let Some(outline) = outline else {
        return Vec::new();
    };
    outline
        .packages
        .into_iter()
        .flat_map(|package| match name {
            "packageId" => vec![package.id],
            _ => package
                .resources
                .unwrap_or_default()
                .into_iter()
                .filter(|resource| resource.kind == "component")
                .map(|resource| resource.id)
                .collect(),
        })
        .collect()
}

fn open_sessions(service: &Service) -> Vec<String> {
    service.session_ids()
}

fn method_names(_: &Service) -> Vec<String> {
    METHODS
        .iter()
        .map(|method| method.name.to_string())
        .collect()
}

fn diagnostic_codes(_: &Service) -> Vec<String> {
    GUIDES.iter().map(|guide| guide.code.to_string()).collect()
}

fn cli_commands(_: &Service) -> Vec<String> {
    ofgui_contracts::cli::COMMANDS
        .iter()
        .map(|command| command.name.to_string())
        .collect()
}

fn operation_kinds(_: &Service) -> Vec<String> {
    OPERATION_KINDS
        .iter()
        .map(|kind| kind.to_string())
        .collect()
}

/// Answers one completion request: the values of the argument that start with what was
/// typed (ignoring case), at most [`CompletionInfo::MAX_VALUES`], with the number of all
/// matches in `total`.
pub async fn complete(
    service: &Service,
    request: &CompleteRequestParams,
) -> Result<CompletionInfo, ErrorData> {
    let name = request.argument.name.as_str();
    let arguments = match &request.r#ref {
        Reference::Resource(reference) => template_variables(&reference.uri).ok_or_else(|| {
            invalid(format!(
                "No resource template {}; list the resource templates for the available ones.",
                reference.uri
            ))
        })?,
        Reference::Prompt(reference) => prompt_arguments(&reference.name).ok_or_else(|| {
            invalid(format!(
                "No prompt named {}; list the prompts for the available names.",
                reference.name
            ))
        })?,
        _ => {
            return Err(invalid(
                "Only prompt and resource template arguments complete.".into(),
            ));
        }
    };
    if !arguments.iter().any(|argument| argument == name) {
        return Err(invalid(format!(
            "It takes no argument {name}; its arguments are: {}.",
            if arguments.is_empty() {
                "none".to_string()
            } else {
                arguments.join(", ")
            }
        )));
    }
    let values = match SOURCES.iter().find(|(argument, _)| *argument == name) {
        Some((_, values)) => values(service),
        None => {
            let resolved = request
                .context
                .as_ref()
                .and_then(|context| context.arguments.clone())
                .unwrap_or_default();
            session_values(service, name, &resolved).await
        }
    };
    Ok(matching(values, &request.argument.value))
}

/// The values that start with `typed`, ignoring case.
fn matching(values: Vec<String>, typed: &str) -> CompletionInfo {
    let typed = typed.to_lowercase();
    let mut matches: Vec<String> = values
        .into_iter()
        .filter(|value| value.to_lowercase().starts_with(&typed))
        .collect();
    let total = matches.len();
    matches.truncate(CompletionInfo::MAX_VALUES);
    let has_more = total > CompletionInfo::MAX_VALUES;
    let total = Some(u32::try_from(total).unwrap_or(u32::MAX));
    CompletionInfo::with_pagination(matches, total, has_more).unwrap_or_default()
}

/// The `{variable}` names of one of the server's resource templates, or `None` when it
/// has no such template.
fn template_variables(uri_template: &str) -> Option<Vec<String>> {
    resources::templates()
        .iter()
        .any(|template| template.uri_template == uri_template)
        .then(|| {
            uri_template
                .split('{')
                .skip(1)
                .filter_map(|rest| rest.split_once('}'))
                .map(|(name, _)| name.to_string())
                .collect()
        })
}

/// The argument names of one of the server's prompts, or `None` when it has no such
/// prompt.
fn prompt_arguments(name: &str) -> Option<Vec<String>> {
    let prompt = prompts::list()
        .into_iter()
        .find(|prompt| prompt.name == name)?;
    let arguments = prompt.arguments.unwrap_or_default();
    Some(
        arguments
            .into_iter()
            .map(|argument| argument.name)
            .collect(),
    )
}

fn invalid(message: String) -> ErrorData {
    ErrorData::invalid_params(message, Some(json!({ "completable": completable() })))
}

/// Every argument that completes.
fn completable() -> Vec<&'static str> {
    SOURCES
        .iter()
        .map(|(name, _)| *name)
        .chain(IN_SESSION.iter().copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_variable_and_prompt_argument_has_values() {
        let template_variables = resources::templates()
            .iter()
            .flat_map(|template| template_variables(&template.uri_template).unwrap_or_default())
            .collect::<Vec<_>>();
        assert!(template_variables.contains(&"sessionId".to_string()));
        let prompt_arguments = prompts::list()
            .iter()
            .flat_map(|prompt| prompt_arguments(&prompt.name).unwrap_or_default())
            .collect::<Vec<_>>();
        for argument in template_variables.iter().chain(&prompt_arguments) {
            assert!(
                completable().contains(&argument.as_str()),
                "{argument} has no completion source"
            );
        }
    }

    #[test]
    fn matches_are_prefixes_ignoring_case_counted_and_capped() {
        let values = |names: &[&str]| names.iter().map(|name| name.to_string()).collect();
        let found = matching(
            values(&["saveSession", "searchProject", "getSession"]),
            "SA",
        );
        assert_eq!(found.values, vec!["saveSession"]);
        assert_eq!((found.total, found.has_more), (Some(1), Some(false)));
        let many: Vec<String> = (0..150).map(|i| format!("c{i:03}")).collect();
        let found = matching(many, "C");
        assert_eq!(found.values.len(), CompletionInfo::MAX_VALUES);
        assert_eq!((found.total, found.has_more), (Some(150), Some(true)));
        assert!(matching(values(&["a"]), "b").values.is_empty());
    }

    #[test]
    fn template_variables_come_from_the_listed_templates_only() {
        assert_eq!(
            template_variables("openfairygui://backend/session/{sessionId}/outline"),
            Some(vec!["sessionId".to_string()])
        );
        assert_eq!(template_variables("openfairygui://nothing/{x}"), None);
    }
}
