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
        if (envelope && envelope.ok) sessionOf(envelope.data);
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

const view = { sessionId: null, readOnly: true, state: null, history: null, selected: null };

/** A target in words: the node, component, package or resource it names. */
function targetWords(target) {
  const s = (target && target.selector) || {};
  const component = s.componentResourceId ? ` in component ${s.componentResourceId}` : "";
  switch (target && target.kind) {
    case "displayNode": return `node ${s.displayNodeId}${component}`;
    case "controller": return `controller ${s.controllerName || s.controllerId || ""}${component}`;
    case "transition": return `transition ${s.transitionName || s.transitionId || ""}${component}`;
    case "component": return `component ${s.componentResourceId}`;
    case "resource": return `resource ${s.resourceId}`;
    case "package": return `package ${s.packageId}`;
    case "project": return "the project";
    default: return "something";
  }
}

/** One change in words: "changed position, size of node n3 in component abc". */
function changeWords(impact) {
  const what = targetWords(impact.target);
  if (impact.change === "added") return `added ${what}`;
  if (impact.change === "removed") return `removed ${what}`;
  const fields = (impact.fields || []).join(", ");
  return fields ? `changed ${fields} of ${what}` : `changed ${what}`;
}

function stepTitle(entry) {
  if (entry.action === "undo") return `Undid the batch of revision ${entry.batchRevision}`;
  if (entry.action === "redo") return `Redid the batch of revision ${entry.batchRevision}`;
  const kinds = entry.operationKinds || [];
  return `Applied ${kinds.length} operation${kinds.length === 1 ? "" : "s"}: ${kinds.join(", ")}`;
}

function showState() {
  const { state, history } = view;
  const section = $("state");
  section.replaceChildren();
  const list = element("dl");
  const row = (term, value) => {
    list.append(element("dt", term), element("dd", value));
  };
  row("Project", state.canonicalProjectPath);
  row("Session", state.sessionId);
  row("Revision", state.revision);
  row(
    "Saved",
    history.dirty
      ? `no: ${history.revision - history.lastSavedRevision} edit(s) since revision ${history.lastSavedRevision}`
      : `yes, at revision ${history.lastSavedRevision}`,
  );
  if (view.validation) row("Validation", view.validation);
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
  for (const entry of entries) {
    const item = element("li", null, { "data-revision": String(entry.revision) });
    if (entry.revision <= view.history.lastSavedRevision) item.classList.add("saved");
    item.append(element("div", stepTitle(entry)));
    const changes = (entry.changes || []).map(changeWords);
    if (entry.moreChanges) changes.push(`and ${entry.moreChanges} more`);
    item.append(element("div", `revision ${entry.revision} · ${changes.join("; ")}`, { class: "meta" }));
    item.setAttribute("aria-current", String(view.selected === entry.revision));
    item.addEventListener("click", () => select(entry.revision));
    steps.append(item);
  }
}

/** The components a step touched, by package and component id. */
function components(entry) {
  const seen = new Map();
  for (const impact of entry.changes || []) {
    const s = (impact.target && impact.target.selector) || {};
    if (s.packageId && s.componentResourceId) {
      seen.set(`${s.packageId}/${s.componentResourceId}`, { packageId: s.packageId, componentResourceId: s.componentResourceId });
    }
  }
  return [...seen.values()];
}

/** Draws a side-by-side preview (left now, right as undo leaves it) as two pictures,
 * marking in red the pixels that differ. */
function drawPair(png, caption) {
  return new Promise((resolve, reject) => {
    const picture = new Image();
    picture.onerror = () => reject(new Error("the preview did not decode"));
    picture.onload = () => {
      const width = Math.floor(picture.width / 2);
      const height = picture.height;
      const source = element("canvas");
      source.width = picture.width;
      source.height = height;
      const context = source.getContext("2d");
      context.drawImage(picture, 0, 0);
      const after = context.getImageData(0, 0, width, height);
      const before = context.getImageData(picture.width - width, 0, width, height);
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

async function select(revision) {
  view.selected = revision;
  showHistory();
  const section = $("step");
  section.replaceChildren(element("h2", `Revision ${revision}`));
  const entry = (view.history.entries || []).find((e) => e.revision === revision);
  if (!entry) return;
  // The pictures come from undo's preview: only the step undo would take back now.
  if (entry.action !== "apply" || view.history.nextUndo !== entry.batchRevision || entry.revision !== view.history.revision) {
    section.append(element("p", "Pictures are drawn for the newest applied step (the one undo takes back); undo to a step to see it.", { class: "note" }));
    return;
  }
  const touched = components(entry);
  if (!touched.length) section.append(element("p", "This step changed no component.", { class: "note" }));
  for (const selector of touched) {
    const place = element("div");
    section.append(place);
    await drawComponent(place, selector, {});
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

/** Draws one component's step, with a choice of page for each of its controllers. */
async function drawComponent(place, selector, pages) {
  place.replaceChildren();
  const name = `${selector.packageId}/${selector.componentResourceId}`;
  try {
    const controllers = await controllersOf(selector);
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
          drawComponent(place, selector, chosen).catch((error) => say(error.message, true));
        });
        label.append(choice);
        form.append(label);
      }
      place.append(form);
    }
    const args = {
      sessionId: view.sessionId,
      selector,
      expectedRevision: view.history.revision,
      previewHistory: "undo",
      scale: 2,
    };
    if (Object.keys(pages).length) args.controllerPages = pages;
    const { image } = await tool("openfairygui_render_component", args);
    if (!image) throw new Error("no picture");
    const shown = Object.entries(pages).map(([controller, page]) => `${controller}: ${page}`);
    place.append(await drawPair(image, shown.length ? `${name} (${shown.join(", ")})` : name));
  } catch (error) {
    place.append(element("p", `${name}: ${error.message}`, { class: "error" }));
  }
}

async function load(sessionId) {
  view.sessionId = sessionId;
  say("loading…");
  const [{ data: state }, { data: history }] = await Promise.all([
    tool("openfairygui_backend_get_session", { sessionId }),
    tool("openfairygui_get_history", { sessionId }),
  ]);
  view.state = state;
  view.history = history;
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
  const newest = (history.entries || [])[0];
  view.selected = null;
  showHistory();
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
  } catch (error) {
    say(error.message, true);
  }
}

start();
