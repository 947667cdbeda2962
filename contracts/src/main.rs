//! Writes `contracts/generated/contract.json` from the Rust types.

fn main() -> std::io::Result<()> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/generated/contract.json");
    std::fs::write(path, ofgui_contracts::schema::snapshot_text())?;
    eprintln!("wrote {path}");
    Ok(())
}
