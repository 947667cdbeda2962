// A scripted agent session through the official TypeScript SDK (npm @modelcontextprotocol/sdk).
//
// Usage: node node_session.mjs --project DIR --server-log FILE -- SERVER [ARGS...]
//
// The same session as py_session.py. `Client.callTool` holds every result carrying
// structuredContent (failures too) to the tool's advertised output schema, with the SDK's
// default Ajv validator, whose warnings (unknown formats, ...) go to the console. The caller
// treats any stderr output as a failure, so nothing here silences them.

import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const PREFIX = 'openfairygui_backend_';

function fail(message) {
  throw new Error(`node_session: ${message}`);
}

function parseArgs(argv) {
  const dash = argv.indexOf('--');
  if (dash < 0 || dash === argv.length - 1) fail('missing the server command after --');
  const options = {};
  const flags = argv.slice(0, dash);
  for (let i = 0; i < flags.length; i += 2) options[flags[i].replace(/^--/, '')] = flags[i + 1];
  if (!options.project || !options['server-log']) fail('--project and --server-log are required');
  return { ...options, server: argv.slice(dash + 1) };
}

// Node exits 0 when nothing is left to wait for, even with main() still pending; that is a failure.
let done = false;
process.on('exit', (code) => {
  if (!done && code === 0) {
    console.error('node_session: the event loop drained before the session finished');
    process.exitCode = 1;
  }
});

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const transport = new StdioClientTransport({
    command: args.server[0],
    args: args.server.slice(1),
    env: { OFGUI_LOG: 'warn' },
    stderr: 'pipe',
  });
  const serverLog = createWriteStream(args['server-log']);
  transport.stderr.pipe(serverLog);
  const client = new Client({ name: 'ofgui-node-session', version: '0.0.0' });
  await client.connect(transport);

  const tools = new Map();
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    for (const tool of page.tools) tools.set(tool.name, tool);
    cursor = page.nextCursor;
    // listTools caches only the validators of the page it got.
    if (cursor) fail('tools/list is paged; the SDK would validate against the last page only');
  } while (cursor);
  for (const [name, tool] of tools) {
    // Backend tools are held to their output schemas; the docs tool answers text only.
    if (!name.startsWith(PREFIX)) continue;
    if (!tool.outputSchema) fail(`${name} advertises no outputSchema`);
    if (!client.getToolOutputValidator(name)) fail(`the SDK compiled no output validator for ${name}`);
  }
  if (!tools.has('openfairygui_docs_read')) fail('openfairygui_docs_read is not in tools/list');

  const calls = [];
  const call = async (short, args, expectOk = true) => {
    const name = PREFIX + short;
    if (!tools.has(name)) fail(`${name} is not in tools/list`);
    // Throws McpError when structuredContent does not match the output schema.
    const result = await client.callTool({ name, arguments: args });
    const envelope = result.structuredContent?.backendResult;
    if (!envelope || typeof envelope !== 'object') fail(`${name} returned no structuredContent.backendResult`);
    if (Boolean(result.isError) === Boolean(envelope.ok)) fail(`${name}: isError=${result.isError} but ok=${envelope.ok}`);
    if (expectOk && !envelope.ok) fail(`${name} failed: ${JSON.stringify(envelope).slice(0, 2000)}`);
    calls.push(short);
    // What ofgui adds beyond upstream's result travels beside the envelope.
    lastAdditions = result._meta?.['ofgui/additions'] ?? {};
    return envelope.data;
  };
  let lastAdditions = {};

  const docs = await client.readResource({ uri: 'openfairygui://docs/index' });
  if (!JSON.parse(docs.contents[0].text)) fail('the docs index is empty');

  const opened = await call('open_session', { projectPath: args.project });
  const sessionId = opened.sessionId;
  await call('get_project_outline', { sessionId });
  const light = await call('get_project_outline', { sessionId, detail: 'packages' });
  if (!light.packages.length) fail('the outline lists no packages');

  const found = await call('search_project', {
    sessionId,
    // The editor names display nodes n0, n1, ... unless renamed; every project has some.
    query: { name: 'n', entities: 'nodes' },
    page: { limit: 5 },
  });
  const node = found.matches.find((m) => m.target.kind === 'displayNode');
  if (!node) fail(`search found no display node: ${JSON.stringify(found)}`);
  await call('query_entity', { sessionId, target: node.target });

  const { revision } = await call('get_session', { sessionId });
  await call('read_session_state', {
    sessionId,
    expectedRevision: revision,
    scope: { packageIds: [node.target.selector.packageId] },
  });
  await call('validate_session', { sessionId });

  const batch = {
    sessionId,
    expectedRevision: revision,
    operations: [
      { kind: 'setDisplayNodeProps', selector: node.target.selector, props: { position: { x: 12, y: 34 } } },
    ],
  };
  await call('preflight_transaction', batch);
  const applied = await call('apply_transaction', batch);
  if (applied.revision !== revision + 1) fail(`apply moved the revision from ${revision} to ${applied.revision}`);
  await call('save_session', { sessionId, expectedRevision: applied.revision });
  const saved = lastAdditions.saved ?? {};
  if (!saved.writtenPaths?.length || saved.writeVerified !== true) {
    fail(`save_session wrote nothing or did not verify: ${JSON.stringify(lastAdditions)}`);
  }
  const events = await call('get_events', { sessionId });
  if (!events.events.length) fail('get_events returned no events after open, apply and save');
  // A failure is part of a session too; the SDK validates its structuredContent as well.
  await call('get_session', { sessionId: 'no-such-session' }, false);
  await call('close_session', { sessionId });

  // Proves the SDK's output-schema path is live: a result breaking the schema must be refused.
  const validator = client.getToolOutputValidator(`${PREFIX}get_capabilities`);
  if (validator({ backendResult: { ok: 'yes' } }).valid) {
    fail('the SDK accepted a result that breaks the output schema; validation is not running');
  }

  const server = client.getServerVersion();
  await client.close();
  // The pipe ends the log when the server exits; wait until it is on disk.
  await finished(serverLog);
  done = true;
  console.log(JSON.stringify({ client: 'typescript sdk', server, tools: tools.size, calls }));
}

main().catch((error) => {
  console.error(error?.stack ?? String(error));
  process.exit(1);
});
