//! Each tool's output schema is its method's own: it takes the method's results and the
//! failures the method may answer with, and rejects another method's result and any code
//! the method does not name (an invented one included), as upstream's schemas do.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use ofgui_contracts::capabilities::Capabilities;
use ofgui_contracts::envelope::{CAPABILITY_SCHEMA_VERSION, CONTRACT_VERSION};
use ofgui_contracts::error::examples;
use ofgui_contracts::methods::METHODS;
use serde_json::{Value, json};

fn meta() -> Value {
    json!({
        "requestId": "r", "durationMs": 1.0, "warnings": [], "diagnostics": [], "stage": "read",
        "contractVersion": CONTRACT_VERSION, "capabilitySchemaVersion": CAPABILITY_SCHEMA_VERSION,
    })
}

fn failure(error: Value) -> Value {
    json!({ "backendResult": { "ok": false, "meta": meta(), "error": error } })
}

/// Each method's full output schema, as `--full-schemas` advertises it.
fn validators() -> Vec<(&'static str, jsonschema::Validator)> {
    let tools: Vec<Value> = serde_json::from_str(ofgui_contracts::TOOLS_FULL_JSON).unwrap();
    METHODS
        .iter()
        .map(|method| {
            let tool = tools.iter().find(|t| t["name"] == method.tool).unwrap();
            let validator = jsonschema::validator_for(&tool["outputSchema"]).unwrap();
            (method.name, validator)
        })
        .collect()
}

#[test]
fn a_method_takes_its_own_failures_and_no_other_code() {
    let examples: Vec<Value> = examples()
        .into_iter()
        .map(|error| serde_json::to_value(error).unwrap())
        .collect();
    for (method, validator) in validators() {
        let own = METHODS
            .iter()
            .find(|m| m.name == method)
            .unwrap()
            .error_codes();
        for example in &examples {
            let code = example["code"].as_str().unwrap();
            assert_eq!(
                validator.is_valid(&failure(example.clone())),
                own.contains(&code),
                "{method}'s output schema and {code}"
            );
        }
        let invented = json!({ "code": "made_up", "message": "No such code." });
        assert!(!validator.is_valid(&failure(invented)), "{method}");
    }
}

#[test]
fn a_method_rejects_another_methods_result() {
    let capabilities = serde_json::to_value(Capabilities::new()).unwrap();
    let result = json!({ "backendResult": { "ok": true, "meta": meta(), "data": capabilities } });
    for (method, validator) in validators() {
        assert_eq!(
            validator.is_valid(&result),
            method == "getCapabilities",
            "{method} and a getCapabilities result"
        );
    }
}
