//! Writes `contracts/generated/` from the Rust types.

fn main() -> std::io::Result<()> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/generated");
    std::fs::write(
        format!("{dir}/contract.json"),
        ofgui_contracts::schema::snapshot_text(),
    )?;
    std::fs::write(
        format!("{dir}/tools.json"),
        ofgui_contracts::schema::tools_text(false),
    )?;
    std::fs::write(
        format!("{dir}/tools-full.json"),
        ofgui_contracts::schema::tools_text(true),
    )?;
    eprintln!("wrote {dir}/contract.json, tools.json and tools-full.json");
    Ok(())
}
