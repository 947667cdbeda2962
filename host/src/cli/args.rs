//! Command-line arguments, turned into a validated configuration before any work starts.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::{Parser, Subcommand};

use crate::backend::runtime::{InstanceLimits, default_cache_dir};
use crate::backend::sandbox::{FontDirs, canonical_roots};
use crate::backend::state::StateDir;
use crate::mcp::TextContent;
use crate::service::ServiceConfig;

/// Serves FairyGUI projects to AI agents over MCP (stdio), each project in its own
/// sandboxed WebAssembly session.
///
/// The validate, outline, query, apply, render, publish and docs commands do the same work for people and
/// CI jobs: each opens one project in the same sandbox, prints text (or, with --json, one
/// JSON document) and ends with a documented exit status (see each command's --help).
#[derive(Debug, Parser)]
#[command(
    name = "ofgui-mcp-host",
    version,
    about,
    after_help = ofgui_contracts::cli::ExitStatus::help()
)]
pub struct Args {
    /// A directory agents may open projects in (repeatable). Defaults to the roots in
    /// OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS, else the current directory.
    #[arg(long = "project-dir", value_name = "DIR", global = true)]
    pub project_dirs: Vec<PathBuf>,

    /// Most sessions open at once.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub max_sessions: u32,

    /// Close clean sessions idle for this many seconds (0 never closes them).
    #[arg(long, default_value_t = 1800)]
    pub idle_timeout_secs: u64,

    /// Where the backend is cached once compiled for this machine, at the first start
    /// (default: the user cache directory).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,

    /// Never use the compile cache: compile the backend for this machine at every start.
    #[arg(long)]
    pub no_cache: bool,

    /// Keep projects' advisory locks and edit journals in DIR (made if missing) instead of
    /// beside each project: for projects whose parent directory cannot be written. Every
    /// server that edits the same projects must be given the same DIR.
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,

    /// This server's name among the servers sharing --state-dir (letters, digits, - and _):
    /// the sessions it opens get ids starting `NAME.`, which a load balancer routes on
    /// (see deploy/haproxy.cfg). Give each node its own name, the same after a restart.
    #[arg(long, value_name = "NAME", requires = "state_dir")]
    pub node_id: Option<String>,

    /// Longest one backend call may run, in seconds. A call past it is stopped within one
    /// 50 ms tick, and its session restored from the project on disk and the transactions
    /// applied since its last save.
    #[arg(long, value_name = "SECS", global = true,
          default_value_t = InstanceLimits::DEFAULT.call_deadline.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub call_deadline_secs: u64,

    /// Most memory one session's backend may use, in MiB. A call that asks for more is
    /// stopped and its session restored, as for the deadline.
    #[arg(long, value_name = "MIB", global = true,
          default_value_t = (InstanceLimits::DEFAULT.memory_bytes >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(64..=65536))]
    pub memory_limit_mib: u64,

    /// What a tool result's text content holds beside structuredContent: `summary` (the
    /// envelope as JSON when it is at most 16 KiB, else its meta in brief, so a large
    /// result is not sent twice) or `full` (the envelope as JSON however large, for
    /// clients that show the model only the text content).
    #[arg(long, value_enum, default_value_t = TextContent::Summary)]
    pub text_content: TextContent,

    /// Advertise every tool's full input and output schemas inline (about 730 KB), for
    /// clients that decode against them. By default the tool list is lean (about 62 KB):
    /// the operations of a batch are a union of kinds whose fields are one resource away
    /// (openfairygui://contracts/operations/{kind}); inputs are checked strictly either way.
    #[arg(long)]
    pub full_schemas: bool,

    /// Ask a person to confirm every save_session, materialize_session and publish,
    /// showing what the write would change: through MCP elicitation, and with --http on
    /// the review page (/review) too; a write no one can be asked about is refused, never
    /// made silently.
    #[arg(long, global = true)]
    pub confirm_writes: bool,

    /// How long a write waits for the person's answer under --confirm-writes (seconds);
    /// past it the agent's call is refused as `confirmation_timed_out`.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub confirm_within: u64,

    /// A directory of fonts previews may draw text in (repeatable), granted to every
    /// session read only: a text naming a family the project does not carry is drawn in
    /// the face of that family found there, and characters its face lacks (CJK) in a face
    /// there that has them. Defaults to the machine's font folders.
    #[arg(long = "font-dir", value_name = "DIR", global = true)]
    pub font_dirs: Vec<PathBuf>,

    /// Grant no font directories: previews draw text in the project's fonts and the
    /// bundled DejaVu Sans subset only.
    #[arg(long, global = true, conflicts_with = "font_dirs")]
    pub no_font_dirs: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve MCP over stdio (the default), or with --http over Streamable HTTP.
    Serve {
        /// Serve Streamable HTTP at `http://ADDR/mcp` instead of stdio (with `/healthz`,
        /// `/readyz` and `/metrics`). A loopback address needs no token; any other address needs
        /// --auth-token-file or OFGUI_AUTH_TOKEN.
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
        /// Bearer tokens, one per line: `TOKEN [roots=DIR[:DIR…]] [read-only]`. Each token
        /// is a tenant with its own sessions; `roots=` narrows where it may open projects
        /// (default: the --project-dir roots) and `read-only` refuses apply, save and
        /// materialize. OFGUI_AUTH_TOKEN adds one token with full access.
        #[arg(long, value_name = "FILE", requires = "http")]
        auth_token_file: Option<PathBuf>,
        /// A `Host` header value to accept besides localhost, e.g. the load balancer's
        /// name (repeatable; DNS rebinding protection refuses the rest).
        #[arg(long = "allowed-host", value_name = "HOST", requires = "http")]
        allowed_hosts: Vec<String>,
        /// A browser `Origin` to accept (`https://app.example.com`, repeatable); a request
        /// carrying any other Origin is refused.
        #[arg(long = "allowed-origin", value_name = "ORIGIN", requires = "http")]
        allowed_origins: Vec<String>,
        /// Answer `/metrics` without a token on a non-loopback address too (for a scraper
        /// on a private network); a loopback server answers it without one anyway.
        #[arg(long, requires = "http")]
        metrics_without_token: bool,
        /// Where the other nodes sharing --state-dir reach this one (`HOST:PORT`), to send
        /// it the requests of sessions it serves that reached them; default: the --http
        /// address, unless that is a wildcard (0.0.0.0, [::]).
        #[arg(long, value_name = "HOST:PORT", requires = "http")]
        node_address: Option<String>,
        #[command(flatten)]
        limits: HttpLimits,
    },
    /// Make sure the first session opens without compiling: compile the backend for this
    /// machine into the cache now, unless it is there already.
    Precompile,
    /// Show a person a project in the review view, without an agent: open it in a
    /// session and serve the view on a loopback port, printing a link that works once
    /// (its token is made for this run). Until Ctrl-C.
    Review {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// Where to serve: a loopback address (default: a free port).
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
        listen: std::net::SocketAddr,
    },
    /// Validate a project and print the report.
    #[command(after_help = exit_help("validate"))]
    Validate {
        /// The project directory or its .fairy file.
        project: PathBuf,
        #[command(flatten)]
        output: Output,
    },
    /// Print a project's packages, resources and components (with their node,
    /// controller and transition counts).
    #[command(after_help = exit_help("outline"))]
    Outline {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// Only this package, by id or name (repeatable).
        #[arg(long = "package", value_name = "ID|NAME", conflicts_with_all = ["component"])]
        packages: Vec<String>,
        /// Only this component, with every display node, controller page and transition:
        /// `<package>/<component>`, each by id or name.
        #[arg(long, value_name = "PACKAGE/COMPONENT")]
        component: Option<String>,
        /// Only the packages, with their resource counts.
        #[arg(long, conflicts_with_all = ["component"])]
        packages_only: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Print one entity's properties.
    #[command(after_help = format!("{TARGET_HELP}\n\n{}", exit_help("query")))]
    Query {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// What to read (see below).
        target: String,
        #[command(flatten)]
        output: Output,
    },
    /// Preview a batch of operations: what it would change, entities and files. With
    /// --save, apply it and save the project.
    #[command(after_help = format!("{BATCH_HELP}\n\n{}", exit_help("apply")))]
    Apply {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// The batch: a JSON file holding the operations array, or an object with
        /// `operations` (`-` reads standard input).
        batch: PathBuf,
        /// Apply the batch at revision 0 and save: write the changed files.
        #[arg(long)]
        save: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Draw a component as a PNG: at its size × --scale, its controllers at the pages
    /// the game starts them at or the --page given, unsaved edits aside (it renders the
    /// project as it is on disk). Prints what was drawn only approximately.
    #[command(after_help = exit_help("render"))]
    Render {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// The component, `<package>/<component>`, each by id or name.
        component: String,
        /// Where to write the PNG.
        #[arg(short = 'o', long = "out", value_name = "FILE")]
        out: PathBuf,
        /// A controller's page, `<controller>=<page id or name>` (repeatable).
        #[arg(long = "page", value_name = "CONTROLLER=PAGE")]
        pages: Vec<String>,
        /// Pixels per unit, 0.05 to 4.
        #[arg(long, default_value_t = 1.0)]
        scale: f64,
        /// `#RRGGBB` behind the component; transparent by default.
        #[arg(long, value_name = "#RRGGBB")]
        background: Option<String>,
        /// Draw it in a translation's language (a strings file: .xml, .csv or .xlsx).
        #[arg(long, value_name = "FILE")]
        strings: Option<PathBuf>,
        /// With --strings: its own language and the translation's side by side, the texts
        /// the translation no longer fits outlined in red.
        #[arg(long, requires = "strings")]
        compare_strings: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Publish a project for the game as the FairyGUI editor would: per package its
    /// descriptor, atlas pages and sounds (and binding code where the package asks for
    /// it, into --code-out or its codePath), into --out or the project's publish path
    /// (settings/Publish.json `path`, which must then lie inside the project or a
    /// --project-dir). Each package's files are replaced all at once; nothing else in
    /// the directory is touched.
    #[command(after_help = exit_help("publish"))]
    Publish {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// The output directory (created if missing); by default the project's publish
        /// path.
        #[arg(long = "out", value_name = "DIR")]
        out: Option<PathBuf>,
        /// The directory binding code goes to (created if missing), for packages whose
        /// publish settings ask for code; by default their codePath.
        #[arg(long = "code-out", value_name = "DIR")]
        code_out: Option<PathBuf>,
        /// Only these packages, by name or id, comma-separated.
        #[arg(long, value_name = "A,B", value_delimiter = ',')]
        packages: Vec<String>,
        /// List the files and warnings without writing anything.
        #[arg(long)]
        dry_run: bool,
        /// Merge this branch into the main packages (its resources replace the ones they
        /// vary), written by default into its folder in the publish settings' branchPath;
        /// by default settings/Publish.json `branchProcessing` decides.
        #[arg(long, value_name = "NAME")]
        branch: Option<String>,
        /// Publish into the directories the project's settings name (settings/Publish.json
        /// `path`, the packages' `codePath`) even where they lie outside the project, as the
        /// editor does: exactly those directories are granted, for this command only.
        /// --out and --code-out still win.
        #[arg(long)]
        use_project_paths: bool,
        /// Write no binding code, even for packages whose settings ask for it.
        #[arg(long)]
        no_code: bool,
        /// Publish even though some source files cannot be read (missing, Git LFS
        /// pointers, images that do not decode): those resources are left out, listed,
        /// and the command exits 3.
        #[arg(long)]
        allow_missing: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Print the installed documentation: the list of documents, or one document by id
    /// (`workflow`, `operations/<kind>`, `methods/<method>`, `diagnostics/<code>`,
    /// `cli/<command>`, `index`), with the text its MCP resource serves.
    #[command(after_help = exit_help("docs"))]
    Docs {
        /// The document's id; omitted, the list of documents.
        id: Option<String>,
        #[command(flatten)]
        output: Output,
    },
    /// Translatable strings: export a project's as the FairyGUI editor does (the strings XML
    /// the game loads with UIPackage.SetStringsSource) or as a sheet for translators, check
    /// a translation against the project, sweep it for texts that no longer fit, and
    /// convert a strings file between XML, CSV and XLSX.
    #[command(after_help = exit_help("strings"))]
    Strings {
        #[command(subcommand)]
        action: StringsAction,
    },
}

/// A strings file's form.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum StringsFormat {
    Xml,
    Csv,
    Xlsx,
}

/// What `strings` does.
#[derive(Debug, clap::Subcommand)]
pub enum StringsAction {
    /// Export the project's strings as they are on disk: to standard output as the
    /// editor's XML, or into -o FILE (.xml, or .csv or .xlsx with the columns key,
    /// component, node, source, an empty translation and a note). An existing FILE is
    /// merged into (--merge) or replaced (--overwrite), never silently.
    Export {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// Where to write; its extension says the form unless --format does.
        #[arg(short = 'o', long = "out", value_name = "FILE")]
        out: Option<PathBuf>,
        #[arg(long, value_enum)]
        format: Option<StringsFormat>,
        /// When -o FILE exists: bring the project's strings into it. Its translations
        /// stay, new keys come in empty, rows whose source changed and keys the project no
        /// longer has are kept and marked (the sheet's note column, an XML comment).
        #[arg(long, requires = "out", conflicts_with = "overwrite")]
        merge: bool,
        /// When -o FILE exists: replace it.
        #[arg(long, requires = "out")]
        overwrite: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Hold a translation (.xml, .csv or .xlsx) against the project's strings: keys missing
    /// or untranslated, keys the project no longer has, rows whose source changed since,
    /// markup and placeholders that differ from the source, keys given twice. Exit status 1
    /// when it finds any.
    Check {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// The translation.
        file: PathBuf,
        #[command(flatten)]
        output: Output,
    },
    /// Draw every component in its own language and in the translation's (.xml, .csv or
    /// .xlsx), and list each text the translation no longer fits: wider than its box, cut
    /// off, lines lost below it, shrunk below a readable size, or characters its font
    /// lacks. Exit status 1 when it finds any.
    Sweep {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// The translation.
        file: PathBuf,
        /// Write a picture per component with troubles into DIR: its own language and the
        /// translation's side by side, the troubled texts outlined in red.
        #[arg(long, value_name = "DIR")]
        pictures: Option<PathBuf>,
        #[command(flatten)]
        output: Output,
    },
    /// Convert a strings file into another form, by the files' extensions (.xml, .csv,
    /// .xlsx). A file that is not one is refused with its line, and nothing is written.
    Convert {
        /// The strings file to read.
        input: PathBuf,
        /// The file to write.
        #[arg(short = 'o', long = "out", value_name = "FILE")]
        out: PathBuf,
        #[command(flatten)]
        output: Output,
    },
}

/// How a command prints its result.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct Output {
    /// Print one JSON document instead of text: `{ok, command, data}` or `{ok, command,
    /// error}`; its schema is `ofgui-mcp-host docs cli/<command>`
    /// (openfairygui://docs/cli/<command>).
    #[arg(long)]
    pub json: bool,
}

const TARGET_HELP: &str = "\
Targets (each <package>, <component> and <node> by id or name; controllers and
transitions by name):
  project
  package:<package>
  resource:<package>/<resource>
  component:<package>/<component>
  node:<package>/<component>/<node>
  controller:<package>/<component>/<controller>
  transition:<package>/<component>/<transition>
  {\"kind\": …, \"selector\": {…}}   the MCP query target, as JSON";

const BATCH_HELP: &str = "\
A batch is what openfairygui_backend_apply_transaction takes as `operations`: for
each operation, its `kind` and fields (`ofgui-mcp-host docs operations/<kind>`). It runs
all or nothing on the project as it is on disk (revision 0).";

/// The exit statuses of a command, for its `--help`.
fn exit_help(command: &str) -> String {
    ofgui_contracts::cli::by_name(command)
        .map(|command| command.exit_help())
        .unwrap_or_default()
}

impl Command {
    /// The command line command this is, if it is one (not `serve` or `precompile`).
    pub fn cli(&self) -> Option<&'static ofgui_contracts::cli::CliCommand> {
        let name = match self {
            Command::Serve { .. } | Command::Precompile | Command::Review { .. } => return None,
            Command::Validate { .. } => "validate",
            Command::Outline { .. } => "outline",
            Command::Query { .. } => "query",
            Command::Apply { .. } => "apply",
            Command::Render { .. } => "render",
            Command::Publish { .. } => "publish",
            Command::Docs { .. } => "docs",
            Command::Strings { .. } => "strings",
        };
        ofgui_contracts::cli::by_name(name)
    }
}

impl Args {
    /// The configuration of a command line command's service: the one project's
    /// directory as the only allowed root, one session, no idle expiry.
    pub fn project_config(&self, roots: Vec<PathBuf>) -> ServiceConfig {
        ServiceConfig {
            roots,
            max_sessions: 1,
            idle_timeout: Duration::ZERO,
            cache_dir: self.cache_dir(),
            limits: self.limits(),
            read_only: false,
            fonts: self.fonts(),
            project_publish_paths: false,
            command_line: true,
            state_dir: None,
            tenant: None,
        }
    }

    /// The --font-dir directories, or the machine's font folders, or none.
    fn fonts(&self) -> FontDirs {
        if self.no_font_dirs {
            FontDirs::default()
        } else if self.font_dirs.is_empty() {
            FontDirs::machine()
        } else {
            FontDirs::new(&self.font_dirs)
        }
    }

    fn limits(&self) -> InstanceLimits {
        InstanceLimits {
            memory_bytes: usize::try_from(self.memory_limit_mib << 20).unwrap_or(usize::MAX),
            call_deadline: Duration::from_secs(self.call_deadline_secs),
        }
    }

    fn state_dir(&self) -> Result<Option<StateDir>> {
        let Some(dir) = &self.state_dir else {
            return Ok(None);
        };
        let state = match StateDir::new(dir) {
            Ok(state) => state,
            Err(error) => bail!("--state-dir {}: {error}", dir.display()),
        };
        match &self.node_id {
            Some(node) => Ok(Some(state.for_node(node).map_err(anyhow::Error::msg)?)),
            None => Ok(Some(state)),
        }
    }

    fn cache_dir(&self) -> Option<PathBuf> {
        if self.no_cache {
            None
        } else {
            self.cache_dir.clone().or_else(default_cache_dir)
        }
    }

    /// Validates the arguments into the service configuration.
    pub fn config(&self) -> Result<ServiceConfig> {
        let mut roots = self.project_dirs.clone();
        if roots.is_empty() {
            if let Some(list) = std::env::var_os("OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS") {
                roots = std::env::split_paths(&list)
                    .filter(|path| !path.as_os_str().is_empty())
                    .collect();
                if roots.is_empty() {
                    bail!("OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS is set but lists no project roots");
                }
            } else {
                roots.push(std::env::current_dir()?);
            }
        }
        if let Some(missing) = self.font_dirs.iter().find(|dir| !dir.is_dir()) {
            bail!("--font-dir {} is not a directory", missing.display());
        }
        Ok(ServiceConfig {
            roots: canonical_roots(&roots)?,
            max_sessions: self.max_sessions,
            idle_timeout: Duration::from_secs(self.idle_timeout_secs),
            cache_dir: self.cache_dir(),
            limits: self.limits(),
            read_only: false,
            fonts: self.fonts(),
            project_publish_paths: false,
            command_line: false,
            state_dir: self.state_dir()?,
            tenant: None,
        })
    }
}

/// What `serve --http` tolerates from its clients.
#[derive(Debug, Clone, clap::Args)]
pub struct HttpLimits {
    /// Seconds a client may take to send a request's headers; the connection is closed
    /// after that (also when a kept-alive connection sends nothing more).
    #[arg(long, value_name = "S", default_value_t = HttpLimits::HEADER_TIMEOUT_SECS, requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_secs: u64,
    /// Seconds a client may take to send a request's body (408 after that).
    #[arg(long, value_name = "S", default_value_t = HttpLimits::BODY_TIMEOUT_SECS, requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    pub body_timeout_secs: u64,
    /// The largest request body in MiB (413 above it); the default is stdio's message
    /// limit, so whatever a stdio client may send an HTTP client may too.
    #[arg(long, value_name = "MIB", default_value_t = HttpLimits::MAX_BODY_MIB, requires = "http", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub max_body_mib: u64,
    /// Connections open at once, from every client together; more are closed at once.
    #[arg(long, value_name = "N", default_value_t = HttpLimits::MAX_CONNECTIONS, requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: u64,
    /// Connections open at once from one IP address (behind a proxy, the proxy's).
    #[arg(long, value_name = "N", default_value_t = HttpLimits::MAX_CONNECTIONS_PER_IP, requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections_per_ip: u64,
    /// MCP sessions one token may hold open at once (429 past them); each ends with a
    /// DELETE or after 5 minutes idle.
    #[arg(long, value_name = "N", default_value_t = HttpLimits::MAX_MCP_SESSIONS, requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_mcp_sessions: u64,
    /// Seconds a drain after SIGTERM or SIGINT may take: calls in flight finish within
    /// them, and connections still open after them are dropped.
    #[arg(long, value_name = "S", default_value_t = HttpLimits::DRAIN_SECS, requires = "http")]
    pub drain_secs: u64,
}

impl HttpLimits {
    /// A server at `addr` for `grants` under these limits; no other host, origin or node,
    /// which a caller sets after.
    pub fn options(
        &self,
        addr: std::net::SocketAddr,
        grants: Vec<crate::transport::http::Grant>,
        text_content: crate::mcp::TextContent,
        schemas: crate::mcp::Schemas,
    ) -> crate::transport::http::HttpOptions {
        crate::transport::http::HttpOptions {
            addr,
            grants,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            metrics_without_token: false,
            node_address: None,
            text_content,
            schemas,
            connections: crate::transport::connections::ConnectionLimits {
                header_timeout: std::time::Duration::from_secs(self.header_timeout_secs),
                max_connections: self.max_connections as usize,
                max_per_address: self.max_connections_per_ip as usize,
                drain: std::time::Duration::from_secs(self.drain_secs),
            },
            body_timeout: std::time::Duration::from_secs(self.body_timeout_secs),
            max_body_bytes: (self.max_body_mib as usize) << 20,
            max_mcp_sessions: self.max_mcp_sessions as usize,
            review_once: None,
            confirm_writes: None,
        }
    }

    pub const HEADER_TIMEOUT_SECS: u64 = 10;
    pub const BODY_TIMEOUT_SECS: u64 = 30;
    pub const MAX_BODY_MIB: u64 = 64;
    pub const MAX_CONNECTIONS: u64 = 256;
    pub const MAX_CONNECTIONS_PER_IP: u64 = 64;
    pub const DRAIN_SECS: u64 = 30;
    pub const MAX_MCP_SESSIONS: u64 = 64;
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            header_timeout_secs: Self::HEADER_TIMEOUT_SECS,
            body_timeout_secs: Self::BODY_TIMEOUT_SECS,
            max_body_mib: Self::MAX_BODY_MIB,
            max_connections: Self::MAX_CONNECTIONS,
            max_connections_per_ip: Self::MAX_CONNECTIONS_PER_IP,
            drain_secs: Self::DRAIN_SECS,
            max_mcp_sessions: Self::MAX_MCP_SESSIONS,
        }
    }
}
