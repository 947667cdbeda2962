// The review view as an MCP App, in a minimal host page built on the official host-side
// bridge (`AppBridge` of @modelcontextprotocol/ext-apps), in Debian's headless Chromium.
//
// Usage: node review_app.mjs --url http://127.0.0.1:PORT/mcp --token TOKEN --session ID
//          --shot OUT.png [--chromium /usr/bin/chromium]
//
// As an MCP client (the TypeScript SDK over Streamable HTTP) it finds openfairygui_review's
// view (`_meta.ui.resourceUri`), reads that resource, calls the tool, and hands all three
// to the host page; the page frames the view (sandboxed, scripts only) and passes its tool
// calls through the bridge to this client. It waits for the view to draw the session and
// its step, takes a screenshot, clicks Undo in the view and checks, as the client, that the
// session's revision moved. Prints one JSON line; exits non-zero at the first failure.

import process from "node:process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
for (const name of ["url", "token", "session", "shot"]) {
  if (!args[name]) {
    console.error(`review_app.mjs: --${name} is required`);
    process.exit(2);
  }
}
const here = path.dirname(fileURLToPath(import.meta.url));
const fail = (message) => {
  console.error(`review_app.mjs: ${message}`);
  process.exit(1);
};

const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
const client = new Client({ name: "review-app-host", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(args.url), {
    requestInit: { headers: { Authorization: `Bearer ${args.token}` } },
  }),
);

const { tools } = await client.listTools();
const tool = tools.find((t) => t.name === "openfairygui_review");
if (!tool) fail("openfairygui_review is not listed");
const viewUri = tool._meta && tool._meta.ui && tool._meta.ui.resourceUri;
if (viewUri !== "ui://openfairygui/review" || tool._meta["ui/resourceUri"] !== viewUri) fail(`the tool's view: ${JSON.stringify(tool._meta)}`);
const read = await client.readResource({ uri: viewUri });
const view = read.contents[0];
if (view.mimeType !== "text/html;profile=mcp-app") fail(`the view's type is ${view.mimeType}`);
if (/\b(src|href)=/.test(view.text)) fail("the view loads something from elsewhere");
const toolArgs = { sessionId: args.session };
const toolResult = await client.callTool({ name: tool.name, arguments: toolArgs });
if (toolResult.isError) fail(`openfairygui_review failed: ${JSON.stringify(toolResult).slice(0, 500)}`);

// The host page: the official bridge, bundled for the browser.
const esbuild = await import("esbuild");
const bundle = await esbuild.build({
  stdin: {
    contents: `import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
window.startHost = async (html, toolArgs, toolResult) => {
  const frame = document.createElement("iframe");
  frame.sandbox = "allow-scripts";
  frame.style.cssText = "width: 1200px; height: 700px; border: 1px solid #888";
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: "test-host", version: "1.0.0" }, { serverTools: {}, logging: {} },
    { hostContext: { theme: "light", displayMode: "inline" } });
  bridge.oncalltool = (params) => window.callServer(params.name, params.arguments || {});
  bridge.onsizechange = ({ height }) => { if (height) frame.style.height = Math.min(height + 20, 2000) + "px"; };
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: toolArgs });
    await bridge.sendToolResult(toolResult);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html;
};`,
    resolveDir: here,
  },
  bundle: true,
  format: "iife",
  platform: "browser",
  write: false,
  logLevel: "silent",
});
const hostPage = `<!doctype html><html><head><meta charset="utf-8"><title>test host</title></head>
<body style="margin:0;font-family:sans-serif"><p style="margin:8px">A minimal MCP Apps host (AppBridge)</p>
<script>${bundle.outputFiles[0].text.replaceAll("</script", "<\\/script")}</script></body></html>`;

const { chromium } = await import("playwright-core");
const browser = await chromium.launch({ executablePath: args.chromium || "/usr/bin/chromium", headless: true, timeout: 60000 });
const page = await browser.newPage({ viewport: { width: 1240, height: 900 } });
const outside = [];
page.on("request", (request) => {
  const url = request.url();
  if (!url.startsWith("data:") && !url.startsWith("about:")) outside.push(url);
});
const errors = [];
page.on("pageerror", (error) => errors.push(String(error)));
const viewCalls = [];
await page.exposeFunction("callServer", async (name, toolArguments) => {
  viewCalls.push(name);
  return client.callTool({ name, arguments: toolArguments });
});
await page.setContent(hostPage);
await page.evaluate(([html, a, r]) => window.startHost(html, a, r), [view.text, toolArgs, toolResult]);

const frame = page.frameLocator("iframe");
const statusOf = () => frame.locator("#status").textContent();
async function waitStatus(pattern, what) {
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    const text = await statusOf().catch(() => "");
    if (pattern.test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await browser.close();
  fail(`${what}: the view's status says ${JSON.stringify(await statusOf().catch(() => ""))}; page errors: ${errors.join("; ")}`);
}

const loaded = await waitStatus(/^revision \d+$/, "the view never drew the session");
await frame.locator('canvas[data-picture="changed pixels"]').first().waitFor({ timeout: 30000 }).catch(() => fail("the view drew no pictures"));
const steps = await frame.locator("#steps li").allTextContents();
const captions = await frame.locator("#step figcaption").allTextContents();
await page.screenshot({ path: args.shot, fullPage: true });
await frame.locator("#undo").click();
await waitStatus(/^undo done: revision \d+$/, "undo through the bridge did not land");
const after = await client.callTool({ name: "openfairygui_backend_get_session", arguments: { sessionId: args.session } });
await browser.close();
await client.close();
if (outside.length) fail(`the host page or the view fetched something: ${outside.join(", ")}`);
if (errors.length) fail(`the page threw: ${errors.join("; ")}`);
console.log(JSON.stringify({
  loaded,
  steps,
  captions,
  viewCalls: [...new Set(viewCalls)].sort(),
  revisionAfterUndo: after.structuredContent.backendResult.data.revision,
}));
