//! The committed contract must equal what the Rust types generate.
//! Run with `UPDATE_CONTRACTS=1` to rewrite it after changing a type.

use ofgui_contracts::schema::snapshot_text;

#[test]
fn committed_contract_matches_the_types() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/generated/contract.json");
    let generated = snapshot_text();
    if std::env::var_os("UPDATE_CONTRACTS").is_some() {
        std::fs::write(path, &generated).expect("write contract");
        return;
    }
    let committed = std::fs::read_to_string(path).expect("read committed contract");
    assert!(
        committed == generated,
        "contracts/generated/contract.json is out of date; run `UPDATE_CONTRACTS=1 cargo test -p ofgui-contracts`"
    );
}
