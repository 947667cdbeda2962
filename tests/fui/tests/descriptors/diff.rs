//! `diff` between decoded packages points at the field that changed.

use ofgui_fui::diff;
use serde_json::Value;

use crate::decoded;

#[test]
fn identical_packages_have_no_differences() {
    let basics = decoded("Basics");
    assert_eq!(diff(&basics, &decoded("Basics"), 10), Vec::<String>::new());
}

#[test]
fn a_changed_child_field_is_reported_by_pointer() {
    let expected = decoded("Bag");
    let mut actual = expected.clone();
    let (item, child) = first_child_with_x(&expected);
    actual["items"][item]["component"]["children"][child]["x"] = Value::from(12345);
    actual["header"]["name"] = Value::from("Bags");
    let original_x = &expected["items"][item]["component"]["children"][child]["x"];
    assert_eq!(
        diff(&expected, &actual, 10),
        [
            r#"/header/name: expected "Bag", got "Bags""#.to_owned(),
            format!("/items/{item}/component/children/{child}/x: expected {original_x}, got 12345"),
        ]
    );
    assert_eq!(diff(&expected, &actual, 1).len(), 1);
}

#[test]
fn different_packages_differ_within_the_limit() {
    let differences = diff(&decoded("Bag"), &decoded("Basics"), 25);
    assert_eq!(differences.len(), 25);
    assert!(
        differences
            .iter()
            .any(|line| line.starts_with("/header/name: ")),
        "{differences:#?}"
    );
}

/// The first component item with a child, as (item index, child index).
fn first_child_with_x(package: &Value) -> (usize, usize) {
    let items = package["items"].as_array().unwrap();
    let item = items
        .iter()
        .position(|item| item["component"]["children"][0]["x"].is_number())
        .unwrap();
    (item, 0)
}
