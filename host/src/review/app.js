// The review view: a session's state, its history as steps, the pictures of the step
// undo would take back (before and after, changed pixels marked), and undo, redo and save.
// It changes nothing itself: every read and action is one of the server's tool calls,
// with the same revision checks and policies as an agent's. Text from the server is put
// in the page as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);

// The browser door: tool calls through /review/api/call, with the review cookie.
const browserTransport = {
  async call(name, args) {
    const response = await fetch("/review/api/call", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ name, arguments: args }),
    });
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  },
  async sessions() {
    const response = await fetch("/review/api/sessions", { credentials: "same-origin" });
    if (!response.ok) throw new Error(`sessions: HTTP ${response.status}`);
    return response.json();
  },
  async approvals() {
    const response = await fetch("/review/api/approvals", { credentials: "same-origin" });
    if (!response.ok) throw new Error(`approvals: HTTP ${response.status}`);
    return response.json();
  },
  async answer(id, approve) {
    const response = await fetch("/review/api/approvals", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ id, approve }),
    });
    if (!response.ok) throw new Error(`answer: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  },
};

// The MCP App door: JSON-RPC with the client that frames the page (MCP Apps), which
// passes tool calls on to the server. The session is the one the client's call of
// openfairygui_review named.
function appTransport() {
  const host = window.parent;
  const pending = new Map();
  let nextId = 0;
  let named;
  const sessionNamed = new Promise((resolve) => (named = resolve));
  const send = (message) => host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });
  const sessionOf = (value) => {
    const id = value && (value.sessionId || (value.arguments && value.arguments.sessionId));
    if (typeof id === "string") named(id);
  };
  window.addEventListener("message", (event) => {
    if (event.source !== host) return;
    const message = event.data;
    if (!message || message.jsonrpc !== "2.0") return;
    if (message.id !== undefined && !message.method) {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message || "the client refused the call"));
      else waiting.resolve(message.result);
      return;
    }
    switch (message.method) {
      case "ui/notifications/tool-input":
        sessionOf(message.params);
        break;
      case "ui/notifications/tool-result": {
        const envelope = message.params && message.params.structuredContent && message.params.structuredContent.backendResult;
        if (envelope && envelope.ok) sessionOf(envelope.data && envelope.data.history);
        break;
      }
      case "ui/resource-teardown":
      case "ping":
        send({ id: message.id, result: {} });
        break;
      default:
        if (message.id !== undefined) send({ id: message.id, error: { code: -32601, message: `the view does not answer ${message.method}` } });
    }
  });
  const ready = request("ui/initialize", {
    protocolVersion: "2026-01-26",
    appInfo: { name: "ofgui review", version: "1" },
    appCapabilities: {},
  }).then((result) => {
    send({ method: "ui/notifications/initialized" });
    // The client sizes the frame to the page.
    new ResizeObserver(() => {
      send({ method: "ui/notifications/size-changed", params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight } });
    }).observe(document.body);
    return result;
  });
  return {
    async call(name, args) {
      await ready;
      return request("tools/call", { name, arguments: args });
    },
    async sessions() {
      await ready;
      const sessionId = await sessionNamed;
      // The client decides what its user may do; a refused write says so when pressed.
      return { readOnly: false, sessions: [{ sessionId, projectName: "" }] };
    },
    // Writes wait for approval on the browser door or through the client's own
    // elicitation, never through a tool an agent could call too.
    async approvals() {
      return { waiting: [] };
    },
  };
}

const transport = document.documentElement.dataset.door === "app" ? appTransport() : browserTransport;

/** A tool's envelope data and its picture, or an error with the server's words. */
async function tool(name, args) {
  const result = await transport.call(name, args);
  const envelope = result.structuredContent && result.structuredContent.backendResult;
  if (!envelope) throw new Error(`${name}: no result`);
  if (!envelope.ok) {
    const error = envelope.error || {};
    throw new Error(`${error.code || "error"}: ${error.message || name}`);
  }
  const image = (result.content || []).find((block) => block.type === "image");
  return { data: envelope.data, image };
}

function element(tag, text, attributes) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  return node;
}

function say(text, isError) {
  const status = $("status");
  status.textContent = text;
  status.className = isError ? "error" : "";
}

const view = { sessionId: null, readOnly: true, history: null, save: null, names: {}, files: {}, selected: null };

/** The name the review gave an id (`packageId/resourceId/nodeId`), with the id when known. */
function named(kind, key, id) {
  const name = view.names[key];
  return name && name !== id ? `${kind} "${name}" (${id})` : `${kind} ${id}`;
}

/** What a selector names, in words: `node "btnOk" (n3) in component "Main"`. */
function selectorWords(s) {
  if (!s) return "the project";
  const pkg = s.packageId;
  const resource = s.componentResourceId || s.resourceId;
  const inComponent = resource ? ` in ${named("component", `${pkg}/${resource}`, resource)}` : "";
  if (s.displayNodeId) return `${named("node", `${pkg}/${resource}/${s.displayNodeId}`, s.displayNodeId)}${inComponent}`;
  if (s.controllerName || s.controllerId) return `controller ${s.controllerName || s.controllerId}${inComponent}`;
  if (s.transitionName || s.transitionId) return `transition ${s.transitionName || s.transitionId}${inComponent}`;
  if (s.componentResourceId) return named("component", `${pkg}/${resource}`, resource);
  if (s.resourceId) return named("resource", `${pkg}/${resource}`, resource);
  if (pkg) return named("package", pkg, pkg);
  return "the project";
}

/** A value, short: `120,40`, `"Start"`, `true`. */
function short(value) {
  if (value === null || value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value);
  if (typeof value !== "object") return String(value);
  if ("x" in value && "y" in value && Object.keys(value).length === 2) return `${value.x},${value.y}`;
  if ("width" in value && "height" in value && Object.keys(value).length === 2) return `${value.width}×${value.height}`;
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** Words for each property a props update sets. */
function propsWords(props) {
  return Object.entries(props || {}).map(([key, value]) => {
    if (key === "position") return `moved to ${short(value)}`;
    if (key === "size") return `resized to ${short(value)}`;
    if (key === "visible") return value ? "shown" : "hidden";
    return `${key} set to ${short(value)}`;
  });
}

/** One operation in words a person reads. */
function operationWords(op) {
  const what = selectorWords(op.selector);
  switch (op.kind) {
    case "setDisplayNodeProps":
    case "setComponentProps":
      return `${what}: ${propsWords(op.props).join(", ") || "no change"}`;
    case "attachDisplayNode": {
      const node = op.node || {};
      const name = node.name ? ` "${node.name}"` : "";
      return `added a ${node.type || "node"}${name} to ${what} at position ${op.atIndex}`;
    }
    case "detachDisplayNode": return `removed ${what}`;
    case "renameResource": return `renamed ${what} to "${op.newName}"`;
    case "moveResource": return `moved ${what} to folder ${op.toPath}`;
    case "removeResource": return `removed ${what}`;
    case "addResource": return `added a resource to ${what}`;
    case "addComponent": return `added a component to ${what}`;
    case "removeComponent": return `removed ${what}`;
    default: {
      // addController, updateTransition, removeGear, …: the kind's words, its subject,
      // and what it named.
      const verb = op.kind.replace(/([A-Z])/g, " $1").toLowerCase();
      const subject = (op.controller && op.controller.name) || (op.transition && op.transition.name) || op.name || op.newName;
      return `${verb}${subject ? ` "${subject}"` : ""} (${what})`;
    }
  }
}

function stepTitle(entry) {
  if (entry.action === "undo") return `Undid the batch of revision ${entry.batchRevision}`;
  if (entry.action === "redo") return `Redid the batch of revision ${entry.batchRevision}`;
  const kinds = entry.operationKinds || [];
  return `Applied ${kinds.length} operation${kinds.length === 1 ? "" : "s"}`;
}

function showState() {
  const { history } = view;
  const section = $("state");
  section.replaceChildren();
  const list = element("dl");
  const row = (term, value) => {
    list.append(element("dt", term), element("dd", value));
  };
  row("Project", view.projectPath);
  row("Session", history.sessionId);
  row("Revision", history.revision);
  row(
    "Saved",
    history.dirty
      ? `no: ${history.revision - history.lastSavedRevision} revision(s) since revision ${history.lastSavedRevision}`
      : `yes, at revision ${history.lastSavedRevision}`,
  );
  if (view.validation) row("Validation", view.validation);
  const change = view.validationChange;
  if (change) {
    const said = (d) => `${d.code}${d.nodeId ? ` at node ${d.nodeId}` : ""}`;
    const words = [];
    if (change.resolved.length) words.push(`resolved ${change.resolved.length}: ${change.resolved.slice(0, 5).map(said).join("; ")}`);
    if (change.added.length) words.push(`added ${change.added.length}: ${change.added.slice(0, 5).map(said).join("; ")}`);
    row("The edits in validation", words.length ? words.join(" · ") : "no finding added or resolved");
  }
  section.append(list);
  $("actions").hidden = view.readOnly;
  $("undo").disabled = !history.undoCount;
  $("redo").disabled = !history.redoCount;
  $("save").disabled = !history.dirty;
  $("discard").disabled = !history.dirty || !history.undoCount;
}

function showHistory() {
  const steps = $("steps");
  steps.replaceChildren();
  const entries = view.history.entries || [];
  if (!entries.length) steps.append(element("li", "No edits in this session yet.", { class: "note" }));
  if (view.history.dirty) {
    const all = element("li", null, { "data-revision": "unsaved" });
    all.append(element("div", "All unsaved edits together"));
    all.append(element("div", `from revision ${view.history.lastSavedRevision} to ${view.history.revision}`, { class: "meta" }));
    all.setAttribute("aria-current", String(view.selected === "unsaved"));
    all.addEventListener("click", () => select("unsaved"));
    steps.append(all);
  }
  for (const entry of entries) {
    const item = element("li", null, { "data-revision": String(entry.revision) });
    if (entry.revision <= view.history.lastSavedRevision) item.classList.add("saved");
    item.append(element("div", stepTitle(entry)));
    if (entry.operations) {
      const ops = element("ul", null, { class: "ops" });
      for (const op of entry.operations) ops.append(element("li", operationWords(op)));
      item.append(ops);
    } else {
      item.append(element("div", (entry.operationKinds || []).join(", "), { class: "ops" }));
    }
    const changes = (entry.changes || []).map(changeWords);
    if (entry.moreChanges) changes.push(`and ${entry.moreChanges} more`);
    item.append(element("div", `revision ${entry.revision} · ${entry.at} · ${changes.join("; ")}`, { class: "meta" }));
    const files = filesOf(entry);
    if (files.length) item.append(element("div", `files: ${files.join(", ")}`, { class: "meta" }));
    item.setAttribute("aria-current", String(view.selected === entry.revision));
    item.addEventListener("click", () => select(entry.revision));
    steps.append(item);
  }
}

/** The project files of the resources an entry touched, as far as the review names them. */
function filesOf(entry) {
  const files = new Set();
  const add = (s) => {
    const resource = s && (s.componentResourceId || s.resourceId);
    const file = resource && view.files[`${s.packageId}/${resource}`];
    if (file) files.add(file);
  };
  for (const impact of entry.changes || []) add(impact.target && impact.target.selector);
  for (const op of entry.operations || []) add(op.selector);
  return [...files];
}

/** One change in words: "changed position, size of node n3 in component abc". */
function changeWords(impact) {
  const what = selectorWords(impact.target && impact.target.selector);
  if (impact.change === "added") return `added ${what}`;
  if (impact.change === "removed") return `removed ${what}`;
  const fields = (impact.fields || []).join(", ");
  return fields ? `changed ${fields} of ${what}` : `changed ${what}`;
}

/** The components entries touched, by package and component id. */
function components(entries) {
  const seen = new Map();
  const add = (s) => {
    if (s && s.packageId && s.componentResourceId) {
      seen.set(`${s.packageId}/${s.componentResourceId}`, { packageId: s.packageId, componentResourceId: s.componentResourceId });
    }
  };
  for (const entry of entries) {
    for (const impact of entry.changes || []) add(impact.target && impact.target.selector);
    for (const op of entry.operations || []) add(op.selector);
  }
  return [...seen.values()];
}

/** Draws a before/after picture (left before, right after, `comparison` says where the
 * halves are) as three: before, after, and after with the pixels that differ in red. */
function drawPair(png, comparison, caption) {
  return new Promise((resolve, reject) => {
    const picture = new Image();
    picture.onerror = () => reject(new Error("the preview did not decode"));
    picture.onload = () => {
      const width = comparison ? comparison.panelWidth : Math.floor(picture.width / 2);
      const offset = comparison ? comparison.panelWidth + comparison.gap : picture.width - width;
      const height = picture.height;
      const source = element("canvas");
      source.width = picture.width;
      source.height = height;
      const context = source.getContext("2d");
      context.drawImage(picture, 0, 0);
      const before = context.getImageData(0, 0, width, height);
      const after = context.getImageData(offset, 0, width, height);
      const marked = new ImageData(new Uint8ClampedArray(after.data), width, height);
      let changed = 0;
      for (let i = 0; i < marked.data.length; i += 4) {
        const differs = [0, 1, 2, 3].some((k) => after.data[i + k] !== before.data[i + k]);
        if (differs) {
          changed += 1;
          marked.data[i] = 255;
          marked.data[i + 1] = 0;
          marked.data[i + 2] = 0;
          marked.data[i + 3] = 255;
        }
      }
      const figure = element("figure");
      const row = element("div", null, { class: "pictures" });
      for (const [data, label] of [[before, "before"], [after, "after"], [marked, "changed pixels"]]) {
        const canvas = element("canvas", null, { "data-picture": label });
        canvas.width = width;
        canvas.height = height;
        canvas.getContext("2d").putImageData(data, 0, 0);
        const inner = element("figure");
        inner.append(canvas, element("figcaption", label));
        row.append(inner);
      }
      figure.append(row, element("figcaption", `${caption}: ${changed} pixel(s) changed`));
      resolve(figure);
    };
    picture.src = `data:${png.mimeType || "image/png"};base64,${png.data}`;
  });
}

/** Shows a step's pictures (a revision), or every unsaved edit together (`"unsaved"`). */
async function select(which) {
  view.selected = which;
  showHistory();
  const section = $("step");
  const entries = view.history.entries || [];
  if (which === "unsaved") {
    section.replaceChildren(element("h2", `All unsaved edits (revision ${view.history.lastSavedRevision} → ${view.history.revision})`));
    const unsaved = entries.filter((e) => e.revision > view.history.lastSavedRevision);
    await drawAll(section, components(unsaved), { previewHistory: "unsaved" });
    return;
  }
  section.replaceChildren(element("h2", `Revision ${which}`));
  const entry = entries.find((e) => e.revision === which);
  if (!entry) return;
  if (!entry.operations) {
    section.append(element("p", "This step's batch is no longer kept (undo cannot reach it), so it is not drawn.", { class: "note" }));
    return;
  }
  const batch = { previewBatch: entry.batchRevision };
  if (entry.action !== "apply") {
    section.append(element("p", `The pictures show the batch of revision ${entry.batchRevision}, which this step ${entry.action === "undo" ? "took back" : "applied again"}.`, { class: "note" }));
  }
  await drawAll(section, components([entry]), batch);
}

async function drawAll(section, touched, preview) {
  if (!touched.length) section.append(element("p", "No component changed.", { class: "note" }));
  for (const selector of touched) {
    const place = element("div");
    section.append(place);
    await drawComponent(place, selector, preview, {});
  }
}

/** The component's controllers and their pages, from its outline. */
async function controllersOf(selector) {
  const { data } = await tool("openfairygui_backend_get_project_outline", {
    sessionId: view.sessionId,
    scope: { component: selector },
  });
  for (const item of data.packages || []) {
    for (const resource of item.resources || []) {
      if (resource.id === selector.componentResourceId && resource.component) return resource.component.controllers || [];
    }
  }
  return [];
}

/** Draws one component before and after, with a choice of page for each controller. */
async function drawComponent(place, selector, preview, pages) {
  place.replaceChildren();
  const name = selectorWords({ packageId: selector.packageId, componentResourceId: selector.componentResourceId });
  try {
    const controllers = await controllersOf(selector).catch(() => []);
    if (controllers.length) {
      const form = element("div", null, { class: "pages" });
      for (const controller of controllers) {
        const label = element("label", `${controller.name} `);
        const choice = element("select", null, { "data-controller": controller.name });
        choice.append(element("option", "as the game starts it", { value: "" }));
        for (const page of controller.pages || []) {
          const option = element("option", page.name || page.id, { value: page.id });
          if (pages[controller.name] === page.id) option.selected = true;
          choice.append(option);
        }
        choice.addEventListener("change", () => {
          const chosen = { ...pages };
          if (choice.value) chosen[controller.name] = choice.value;
          else delete chosen[controller.name];
          drawComponent(place, selector, preview, chosen).catch((error) => say(error.message, true));
        });
        label.append(choice);
        form.append(label);
      }
      place.append(form);
    }
    const args = { sessionId: view.sessionId, selector, expectedRevision: view.history.revision, scale: 2, ...preview };
    if (Object.keys(pages).length) args.controllerPages = pages;
    const { data, image } = await tool("openfairygui_render_component", args);
    if (!image) throw new Error("no picture");
    const shown = Object.entries(pages).map(([controller, page]) => `${controller}: ${page}`);
    place.append(await drawPair(image, data.comparison, shown.length ? `${name} (${shown.join(", ")})` : name));
  } catch (error) {
    place.append(element("p", `${name}: ${error.message}`, { class: "error" }));
  }
}

/** The files a save would write, each with its diff. */
function showDiff() {
  const section = $("diff");
  section.replaceChildren();
  const save = view.save;
  if (!save) return;
  section.append(element("h2", "What a save would write"));
  if (save.refused) {
    section.append(element("p", `A save would be refused now: ${save.refused}`, { class: "error" }));
    return;
  }
  for (const file of save.files || []) {
    const details = element("details", null, { "data-path": file.path });
    const sizes = [file.bytesBefore, file.bytesAfter].map((n) => (n === undefined ? "—" : `${n} B`)).join(" → ");
    details.append(element("summary", `${file.change} ${file.path} (${sizes})`));
    const pre = element("pre");
    if (file.diff === undefined) {
      pre.append(element("span", "A binary file: no text to compare."));
    } else {
      for (const line of file.diff.split("\n")) {
        const kind = line.startsWith("@@") ? "hunk" : line.startsWith("+") && !line.startsWith("+++") ? "add" : line.startsWith("-") && !line.startsWith("---") ? "del" : "";
        pre.append(element("span", `${line}\n`, kind ? { class: kind } : {}));
      }
      if (file.diffClipped) pre.append(element("span", "… the rest of this diff is not shown."));
    }
    details.append(pre);
    details.open = (save.files || []).length <= 5;
    section.append(details);
  }
  if (save.moreFiles) section.append(element("p", `and ${save.moreFiles} more file(s)`, { class: "note" }));
}

/** Writes an agent asked for that wait for this person (`--confirm-writes`, browser door). */
async function pollApprovals() {
  const section = $("approvals");
  let listed;
  try {
    listed = await transport.approvals();
  } catch {
    return;
  }
  const waiting = (listed.waiting || []).filter((w) => w.sessionId === view.sessionId);
  const shown = section.dataset.ids || "";
  const ids = waiting.map((w) => w.id).join(",");
  if (ids === shown) return;
  section.dataset.ids = ids;
  section.replaceChildren();
  section.hidden = !waiting.length;
  if (!waiting.length) return;
  // What the agent asks to write is the diff below: the review shows the save's plan.
  await load(view.sessionId).catch((error) => say(error.message, true));
  section.hidden = false;
  for (const write of waiting) {
    const box = element("div", null, { "data-approval": String(write.id) });
    box.append(element("h2", "The agent asks to write"));
    box.append(element("pre", write.question));
    box.append(element("p", `${write.secondsLeft} s left to answer; the diff is below.`, { class: "note" }));
    const approve = element("button", "Approve", { type: "button", "data-answer": "approve" });
    const refuse = element("button", "Refuse", { type: "button", "data-answer": "refuse" });
    const answer = async (yes) => {
      approve.disabled = refuse.disabled = true;
      try {
        await transport.answer(write.id, yes);
        say(yes ? "approved: the agent's write goes ahead" : "refused: nothing is written");
      } catch (error) {
        say(error.message, true);
      }
      section.dataset.ids = "";
      setTimeout(() => load(view.sessionId).catch((error) => say(error.message, true)), 500);
    };
    approve.addEventListener("click", () => answer(true));
    refuse.addEventListener("click", () => answer(false));
    box.append(approve, refuse);
    section.append(box);
  }
}

async function load(sessionId) {
  view.sessionId = sessionId;
  say("loading…");
  const [{ data: review }, { data: state }] = await Promise.all([
    tool("openfairygui_review", { sessionId }),
    tool("openfairygui_backend_get_session", { sessionId }),
  ]);
  view.history = review.history;
  view.save = review.save || null;
  view.names = review.names || {};
  view.files = review.files || {};
  view.validationChange = review.validation || null;
  view.projectPath = state.canonicalProjectPath;
  view.validation = null;
  try {
    const { data } = await tool("openfairygui_backend_validate_session", { sessionId });
    const counts = {};
    for (const finding of data.diagnostics || data.findings || []) {
      counts[finding.severity] = (counts[finding.severity] || 0) + 1;
    }
    const words = Object.entries(counts).map(([severity, count]) => `${count} ${severity}`);
    view.validation = words.length ? words.join(", ") : "no findings";
  } catch (error) {
    view.validation = `not validated (${error.message})`;
  }
  showState();
  const history = view.history;
  const newest = (history.entries || [])[0];
  view.selected = null;
  showHistory();
  showDiff();
  $("step").replaceChildren();
  if (newest) await select(newest.revision);
  say(`revision ${history.revision}`);
}

/** Undoes back to the last save, one undo at a time, each at the revision the last one
 * made; redo brings the edits back. Stops where the history ends (or the project is
 * clean). */
async function discard() {
  let history = view.history;
  while (history.dirty && history.undoCount > 0) {
    await tool("openfairygui_undo", { sessionId: view.sessionId, expectedRevision: history.revision });
    ({ data: history } = await tool("openfairygui_get_history", { sessionId: view.sessionId }));
  }
  if (history.dirty) throw new Error("the history does not reach back to the last save; these edits stay");
}

async function act(name) {
  const args = { sessionId: view.sessionId, expectedRevision: view.history.revision };
  const tools = { undo: "openfairygui_undo", redo: "openfairygui_redo", save: "openfairygui_backend_save_session" };
  try {
    say(`${name}…`);
    if (name === "discard") await discard();
    else await tool(tools[name], args);
    await load(view.sessionId);
    say(`${name} done: revision ${view.history.revision}`);
  } catch (error) {
    say(error.message, true);
  }
}

async function start() {
  for (const name of ["undo", "redo", "save", "discard"]) $(name).addEventListener("click", () => act(name));
  try {
    const listed = await transport.sessions();
    view.readOnly = listed.readOnly;
    const pick = $("pick");
    for (const session of listed.sessions) {
      pick.append(element("option", `${session.projectName} · ${session.sessionId}`, { value: session.sessionId }));
    }
    if (!listed.sessions.length) {
      say("No session is open for this token.");
      return;
    }
    const wanted = location.protocol.startsWith("http") ? decodeURIComponent(location.pathname.split("/")[2] || "") : "";
    const first = listed.sessions.some((s) => s.sessionId === wanted) ? wanted : listed.sessions[0].sessionId;
    pick.value = first;
    // In a client's frame the page shows the one session the agent's call named.
    $("pick-label").hidden = transport !== browserTransport;
    pick.addEventListener("change", () => load(pick.value).catch((error) => say(error.message, true)));
    await load(first);
    if (transport === browserTransport) setInterval(pollApprovals, 1500);
  } catch (error) {
    say(error.message, true);
  }
}

start();
