// Holds the server's answers to upstream's own output contract: the JSON Schemas that the
// published npm package @openfairygui/backend@0.6.1 generated for its 17 methods (its
// CONTRACT_SNAPSHOT, read through `@openfairygui/backend/docs`), which agents written for
// upstream validate results against.
//
// Usage: node upstream_contract.mjs [--format text|json] [--identity SUFFIX,...] --project DIR --server-log FILE -- SERVER [ARGS...]
//
// --identity lists the instance paths (by their ending, e.g. `/runtimeOwner`) where our
// value may differ from a `const` of upstream's: upstream's identity constants. A result is
// judged with upstream's constant put in place of ours there, and nothing else changed.
//
// Runs a scripted session through the official TypeScript SDK over stdio and validates each
// result's structuredContent against upstream's output schema for its method with Ajv (JSON
// Schema 2020-12, all errors), reporting per call whether it conforms or the exact failing
// instance paths and schema keywords, judged against the branch of the `backendResult` union
// that the result claims (success or the failure for its error code). Every input sent is
// first checked against upstream's input schema, so the session is one an upstream agent
// could send. Exits 0 when the session ran as scripted, whatever the conformance (the caller
// judges that); 1 when it could not run (install, spawn, a call answered unexpectedly).

import { readFileSync, createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { getInstalledContractSnapshot } from '@openfairygui/backend/docs';
import Ajv2020Module from 'ajv/dist/2020.js';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const UPSTREAM_VERSION = '0.6.1';
const PREFIX = 'openfairygui_backend_';
const DEFS_ID = 'urn:openfairygui-backend:0.6.1';
// Each rewritten definition's schema object, to its name in upstream's $defs.
const owners = new Map();

function fail(message) {
  throw new Error(`upstream_contract: ${message}`);
}

function parseArgs(argv) {
  const dash = argv.indexOf('--');
  if (dash < 0 || dash === argv.length - 1) fail('missing the server command after --');
  const options = { format: 'text' };
  const flags = argv.slice(0, dash);
  for (let i = 0; i < flags.length; i += 2) options[flags[i].replace(/^--/, '')] = flags[i + 1];
  if (!options.project || !options['server-log']) fail('--project and --server-log are required');
  if (!['text', 'json'].includes(options.format)) fail(`--format ${options.format}: text or json`);
  const identity = options.identity ? options.identity.split(',').filter(Boolean) : [];
  return { ...options, identity, server: argv.slice(dash + 1) };
}

const snakeCase = (method) => method.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Upstream's contract: the installed package's version, its snapshot and Ajv validators. */
function loadUpstream() {
  // The package exports no ./package.json; it sits beside dist/, where the docs entry is.
  const entry = import.meta.resolve('@openfairygui/backend/docs');
  const manifest = JSON.parse(readFileSync(new URL('../package.json', entry), 'utf8'));
  if (manifest.name !== '@openfairygui/backend') fail(`${entry} is not in @openfairygui/backend`);
  if (manifest.version !== UPSTREAM_VERSION) {
    fail(`@openfairygui/backend is ${manifest.version}, not ${UPSTREAM_VERSION}; run tests/clients/install.sh`);
  }
  const snapshot = getInstalledContractSnapshot();
  const methods = Object.keys(snapshot.tools);
  if (methods.length !== 17) fail(`upstream's snapshot has ${methods.length} methods, not 17`);

  const def = (ref) => {
    const name = ref.split('/').pop();
    const schema = snapshot.$defs[name];
    if (!schema) fail(`upstream's snapshot has no $defs/${name}`);
    return schema;
  };
  const resolve = (schema) => (schema?.$ref ? resolve(def(schema.$ref)) : schema);
  // The alternatives of a union, with the unions they name flattened, as written.
  const alternatives = (schema) =>
    (schema.anyOf ?? [schema]).flatMap((alt) => (resolve(alt)?.anyOf ? alternatives(resolve(alt)) : [alt]));

  // Upstream's unions are tagged (`kind`, `ok`, `code`, ...), but a failed `anyOf` makes Ajv
  // report every alternative's errors. Each tagged union is checked as the same union
  // chosen by its tag: if the value's tag is one an alternative has, the alternatives with
  // that tag; otherwise the whole union as written. What passes and fails is unchanged; only
  // the errors of alternatives the value does not claim are left out.
  const discriminated = (union) => {
    const alts = alternatives(union);
    const objects = alts.map(resolve);
    if (alts.length < 2 || objects.some((o) => o?.type !== 'object' || !o.properties)) return union;
    // The values an alternative allows for a property: its const, or its enum.
    const tagValues = (o, key) => {
      const property = resolve(o.properties[key]);
      if (!property || !o.required?.includes(key)) return undefined;
      if ('const' in property) return [property.const];
      return Array.isArray(property.enum) ? property.enum : undefined;
    };
    const tag = Object.keys(objects[0].properties).find((key) => objects.every((o) => tagValues(o, key)));
    if (!tag) return union;
    const groups = new Map();
    alts.forEach((alt, i) => {
      for (const value of tagValues(objects[i], tag).map((v) => JSON.stringify(v))) {
        groups.set(value, [...(groups.get(value) ?? []), alt]);
      }
    });
    let chain = union;
    for (const [value, group] of [...groups].reverse()) {
      chain = {
        if: { type: 'object', properties: { [tag]: { const: JSON.parse(value) } }, required: [tag] },
        then: group.length === 1 ? group[0] : { anyOf: group },
        else: chain,
      };
    }
    return chain;
  };
  const rewrite = (schema) => {
    if (Array.isArray(schema)) return schema.map(rewrite);
    if (!schema || typeof schema !== 'object') return schema;
    const out = {};
    for (const [key, value] of Object.entries(schema)) {
      out[key] = key === 'properties' || key === '$defs'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]))
        : rewrite(value);
    }
    if (out.anyOf) {
      const { anyOf, ...rest } = out;
      const chosen = discriminated({ anyOf });
      return chosen.anyOf ? out : { ...rest, ...chosen };
    }
    return out;
  };
  // The definitions once, under their own id; each method's schemas point into them. The
  // verdict comes from upstream's schemas as published; the errors that explain a failure
  // from the rewritten ones, and name the definition they come from (Ajv gives schema paths
  // relative to a $ref's target).
  const ajv = (defs) => {
    const instance = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, verbose: true });
    instance.addSchema({ $id: DEFS_ID, $defs: defs });
    return instance;
  };
  const published = ajv(snapshot.$defs);
  const rewrittenDefs = rewrite(snapshot.$defs);
  const explained = ajv(rewrittenDefs);
  for (const [name, schema] of Object.entries(rewrittenDefs)) owners.set(schema, name);
  const rebase = (schema) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', `"${DEFS_ID}#/$defs/`));

  const tools = new Map();
  for (const method of methods) {
    const tool = snapshot.tools[method];
    if (tool.name !== PREFIX + snakeCase(method)) fail(`upstream names ${method}'s tool ${tool.name}`);
    const branches = alternatives(tool.output.properties.backendResult).map((alt) => {
      const resolved = alt.$ref ? def(alt.$ref) : alt;
      const errorSchema = resolved.properties?.error;
      const error = errorSchema?.$ref ? def(errorSchema.$ref) : errorSchema;
      return {
        name: alt.$ref?.split('/').pop() ?? '(inline)',
        ok: resolved.properties?.ok?.const,
        // A branch for one error code (MCP's unhandled or response-budget failure) or any.
        code: error?.properties?.code?.const,
        // The whole output schema, with backendResult narrowed to this branch.
        validate: explained.compile(
          rebase(rewrite({ ...tool.output, properties: { ...tool.output.properties, backendResult: alt } })),
        ),
      };
    });
    tools.set(tool.name, {
      method,
      input: published.compile(rebase(tool.input)),
      output: published.compile(rebase(tool.output)),
      explainedOutput: explained.compile(rebase(rewrite(tool.output))),
      branches,
    });
  }
  return { version: manifest.version, versions: snapshot.versions, digest: snapshot.digest, tools };
}

/** The value at a JSON Pointer, and setting it (the parent exists: Ajv reported it). */
const pointerSegments = (pointer) =>
  pointer.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
function pointerGet(root, pointer) {
  return pointerSegments(pointer).reduce((value, key) => value?.[key], root);
}
function pointerSet(root, pointer, value) {
  const keys = pointerSegments(pointer);
  const last = keys.pop();
  keys.reduce((parent, key) => parent[key], root)[last] = value;
}

/** The branch of backendResult a result claims: by `ok`, then by error code. */
function claimedBranch(tool, envelope) {
  const byOk = tool.branches.filter((b) => b.ok === envelope?.ok);
  const code = envelope?.error?.code;
  return (
    byOk.find((b) => b.code !== undefined && b.code === code) ??
    byOk.find((b) => b.code === undefined) ??
    byOk[0] ??
    tool.branches[0]
  );
}

// Where an error's keyword is in upstream's snapshot: `$defs/<name>/<path>` when Ajv reports
// it relative to a definition, else the path in the method's output schema.
function location(e) {
  const path = e.schemaPath.replace(`${DEFS_ID}#`, '#');
  if (!path.startsWith('#/') || path.startsWith('#/$defs/')) return path;
  // Ajv's paths below a $ref start at the definition; find which one holds the keyword.
  for (const [schema, name] of owners) {
    if (containsNode(schema, e.parentSchema)) {
      return `#/$defs/${name}${path.slice(1)}`;
    }
  }
  return path;
}
const containsNode = (root, node, seen = new Set()) => {
  if (root === node) return true;
  if (!root || typeof root !== 'object' || seen.has(root)) return false;
  seen.add(root);
  return Object.values(root).some((v) => containsNode(v, node, seen));
};

const brief = (value) => {
  const text = JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/** Ajv's errors grouped by what failed (keyword, parameters, schema location). */
function grouped(errors) {
  const groups = new Map();
  for (const e of errors) {
    // An `if` error only says its `then` or `else` failed; those errors are listed too.
    if (e.keyword === 'if') continue;
    const where = location(e);
    const params = e.params;
    const key = JSON.stringify([e.keyword, params, where]);
    let group = groups.get(key);
    if (!group) {
      group = { keyword: e.keyword, params, schemaPath: where, message: e.message, sent: [], instancePaths: [] };
      groups.set(key, group);
    }
    // The same failure reached through two alternatives of a union is one failure.
    if (group.instancePaths.at(-1) === (e.instancePath || '/')) continue;
    group.instancePaths.push(e.instancePath || '/');
    if (['const', 'enum', 'type', 'maxItems', 'minimum', 'maxLength'].includes(e.keyword) && group.sent.length < 3) {
      group.sent.push(brief(e.data));
    }
  }
  return [...groups.values()];
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const upstream = loadUpstream();

  const transport = new StdioClientTransport({
    command: args.server[0],
    args: args.server.slice(1),
    env: { OFGUI_LOG: 'warn' },
    stderr: 'pipe',
  });
  const serverLog = createWriteStream(args['server-log']);
  transport.stderr.pipe(serverLog);
  const client = new Client({ name: 'ofgui-upstream-contract', version: '0.0.0' });
  await client.connect(transport);

  const listed = new Set();
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    for (const tool of page.tools) listed.add(tool.name);
    cursor = page.nextCursor;
  } while (cursor);

  const results = [];
  // One call: the input checked against upstream's input schema, the tool called without the
  // SDK's own check against our advertised output schema (other tests hold us to that), the
  // result checked against upstream's output schema.
  const call = async (step, method, input, expect = 'ok') => {
    const name = PREFIX + snakeCase(method);
    const tool = upstream.tools.get(name);
    if (!tool) fail(`${method} is not one of upstream's methods`);
    if (!listed.has(name)) fail(`${name} is not in tools/list`);
    if (!tool.input(input)) {
      fail(`${step}: the input is not one upstream accepts: ${JSON.stringify(grouped(tool.input.errors))}`);
    }
    const result = await client.request(
      { method: 'tools/call', params: { name, arguments: input } },
      CallToolResultSchema,
    );
    const structured = result.structuredContent;
    const envelope = structured?.backendResult;
    if (!envelope || typeof envelope !== 'object') fail(`${step}: ${name} returned no structuredContent.backendResult`);
    const outcome = envelope.ok ? 'ok' : envelope.error?.code;
    if (outcome !== expect) {
      fail(`${step}: expected ${expect}, got ${outcome}: ${JSON.stringify(envelope).slice(0, 2000)}`);
    }
    const branch = claimedBranch(tool, envelope);
    const conformsAsSent = tool.output(structured);
    if (tool.explainedOutput(structured) !== conformsAsSent) {
      fail(`${step}: the rewritten schema disagrees with upstream's (a bug in this script)`);
    }
    // Upstream's identity constants put in place of ours, one failed `const` at a time, and
    // nothing else: every other key, type, enum and required field must conform as sent.
    const judged = structuredClone(structured);
    const substituted = [];
    for (let round = 0; round < 16 && !tool.output(judged); round++) {
      branch.validate(judged);
      const identity = (branch.validate.errors ?? []).filter(
        (e) => e.keyword === 'const' && args.identity.some((suffix) => e.instancePath.endsWith(suffix)),
      );
      if (!identity.length) break;
      for (const e of identity) {
        const sent = pointerGet(judged, e.instancePath);
        if (sent === e.params.allowedValue) continue;
        pointerSet(judged, e.instancePath, e.params.allowedValue);
        substituted.push({ path: e.instancePath, sent, upstream: e.params.allowedValue });
      }
    }
    const conforms = tool.output(judged);
    let errors = [];
    if (!conforms) {
      branch.validate(judged);
      errors = grouped(branch.validate.errors ?? tool.explainedOutput.errors ?? []);
    }
    results.push({ step, method, tool: name, outcome, branch: branch.name, conforms, conformsAsSent, substituted, errors });
    return envelope.data;
  };

  await call('capabilities', 'getCapabilities', {});
  const { sessionId } = await call('open', 'openSession', { projectPath: args.project });
  const session = await call('session', 'getSession', { sessionId });
  const outline = await call('outline', 'getProjectOutline', { sessionId });
  await call('state', 'readSessionState', { sessionId, expectedRevision: session.revision });
  await call('validate', 'validateSession', { sessionId });

  let node;
  for (const pkg of outline.packages) {
    for (const resource of pkg.resources ?? []) {
      const first = resource.component?.displayList?.[0];
      if (first && !node) {
        node = { packageId: pkg.id, componentResourceId: resource.id, displayNodeId: first.id };
      }
    }
  }
  if (!node) fail('the outline lists no display node');
  const queried = await call('query', 'queryEntity', { sessionId, target: { kind: 'displayNode', selector: node } });

  // A move that changes the node whatever its position (an unchanged one is refused).
  const position = queried.entity?.properties?.position ?? { x: 0, y: 0 };
  const { revision } = session;
  const operations = [
    { kind: 'setDisplayNodeProps', selector: node, props: { position: { x: position.x + 1, y: position.y } } },
  ];
  await call('preflight', 'preflightTransaction', { sessionId, expectedRevision: revision, operations });
  await call('apply stale', 'applyTransaction', { sessionId, expectedRevision: revision + 7, operations }, 'stale_write');
  const applied = await call('apply', 'applyTransaction', { sessionId, expectedRevision: revision, operations });
  await call('save', 'saveSession', { sessionId, expectedRevision: applied.revision });
  await call('events', 'getEvents', { sessionId });
  await call('cache', 'getCacheSnapshot', { sessionId });
  await call('refresh', 'refreshCache', { sessionId, reason: 'manual' });
  await call('close', 'closeSession', { sessionId });
  await call('unknown session', 'getSession', { sessionId: 'no-such-session' }, 'session_not_found');

  await client.close();
  await finished(serverLog);

  const summary = {
    upstream: { package: `@openfairygui/backend@${upstream.version}`, ...upstream.versions, digest: upstream.digest },
    conforming: results.filter((r) => r.conforms).length,
    conformingAsSent: results.filter((r) => r.conformsAsSent).length,
    total: results.length,
    results,
  };
  if (args.format === 'json') {
    console.log(JSON.stringify(summary));
  } else {
    console.log(`${summary.upstream.package} (contract ${upstream.versions.BACKEND_CONTRACT_VERSION}, capability schema ${upstream.versions.BACKEND_CAPABILITY_SCHEMA_VERSION})`);
    for (const r of results) {
      console.log(`${r.conforms ? 'conforms' : 'FAILS   '} ${r.step} (${r.method}, ${r.outcome}, ${r.branch})`);
      for (const x of r.substituted) {
        console.log(`    ${x.path}: ${JSON.stringify(x.sent)} read as upstream's ${JSON.stringify(x.upstream)}`);
      }
      for (const e of r.errors) {
        const paths = e.instancePaths;
        const more = paths.length > 3 ? ` and ${paths.length - 3} more` : '';
        const sent = e.sent.length ? ` (sent ${e.sent.join(', ')})` : '';
        console.log(`    ${paths.slice(0, 3).join(', ')}${more}: ${e.keyword} ${JSON.stringify(e.params)}${sent} at ${e.schemaPath}`);
      }
    }
    console.log(`${summary.conforming} of ${summary.total} results conform with upstream's identity constants substituted; ` +
      `${summary.conformingAsSent} as sent`);
  }
}

main().catch((error) => {
  console.error(error?.stack ?? String(error));
  process.exit(1);
});
