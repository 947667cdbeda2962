//! The committed contract files must equal what the Rust types generate.
//! Run with `UPDATE_CONTRACTS=1` to rewrite them after changing a type.

use ofgui_contracts::schema::{snapshot_text, tools_text};

fn check(file: &str, generated: String) {
    let path = format!("{}/generated/{file}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_CONTRACTS").is_some() {
        std::fs::write(&path, &generated).expect("write contract");
        return;
    }
    let committed = std::fs::read_to_string(&path).expect("read committed contract");
    assert!(
        committed == generated,
        "contracts/generated/{file} is out of date; run `UPDATE_CONTRACTS=1 cargo test -p ofgui-contracts`"
    );
}

#[test]
fn committed_contract_matches_the_types() {
    check("contract.json", snapshot_text());
}

#[test]
fn committed_tool_list_matches_the_types() {
    check("tools.json", tools_text(false));
}

#[test]
fn committed_full_tool_list_matches_the_types() {
    check("tools-full.json", tools_text(true));
}
