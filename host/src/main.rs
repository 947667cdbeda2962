//! `ofgui-mcp-host`: MCP over stdio or HTTP, and the command line commands beside it.

fn main() -> std::process::ExitCode {
    ofgui_host::app::main()
}
