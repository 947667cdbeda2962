// The backend under jco and the preview2 shim, for tests/e2e/cross_host.rs: runs a script of
// calls, given as the MCP tool arguments ofgui-mcp-host got for the same steps, against one
// instance per project (each with its own preopen, in this one process), and prints every
// component result as JSON on stdout, with the figures the benchmark wants: instantiate and
// open times, and the WASI calls the component made while opening.
//
//   node cross_host.mjs <script.json>
//
// script: {"transpiled": dir, "runs"?: n, "projects": [{"label", "dir", "open": {sessionId,
// fairyFile, projectPath, canonicalPathKey}, "steps": [{"method", "arguments"}]}]}
import { readFileSync } from "node:fs";
import { instantiateBackend } from "./embed_node.mjs";

const script = JSON.parse(readFileSync(process.argv[2], "utf8"));

// WASI calls by name, counted only while `counting` (the open). Counting wraps each import
// function and each method of the shim's resource classes once: the shim's methods are
// shared by all instances, and the generated glue calls them on the resource objects.
const calls = new Map();
// The length of each `read` the open made: the benchmark works out from them the reads a
// host with a cap per read (wasmtime: 64 KiB) needs.
const readLengths = [];
let counting = false;
const count = (name) => {
  if (counting) calls.set(name, (calls.get(name) ?? 0) + 1);
};
const wrapped = new WeakSet();
function wrapClass(iface, cls) {
  if (wrapped.has(cls)) return;
  wrapped.add(cls);
  for (const target of [cls, cls.prototype]) {
    // Symbol keys too: the glue drops a resource through its `Symbol.dispose` method.
    for (const key of Reflect.ownKeys(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key);
      if (key === "constructor" || typeof descriptor.value !== "function") continue;
      const original = descriptor.value;
      const name = typeof key === "symbol" ? `[${key.description}]` : key;
      target[key] = function (...args) {
        count(`${iface}#${cls.name}.${name}`);
        const result = original.apply(this, args);
        if (counting && cls.name === "Descriptor" && name === "read") readLengths.push(result[0].length);
        return result;
      };
    }
  }
}
const isClass = (value) => /^class\b/.test(Function.prototype.toString.call(value));
function counted(imports) {
  const out = {};
  for (const [iface, members] of Object.entries(imports)) {
    if (!members) continue;
    out[iface] = {};
    for (const [name, value] of Object.entries(members)) {
      if (typeof value !== "function") {
        out[iface][name] = value;
      } else if (isClass(value)) {
        wrapClass(iface, value);
        out[iface][name] = value;
      } else {
        out[iface][name] = (...args) => {
          count(`${iface}#${name}`);
          return value(...args);
        };
      }
    }
  }
  return out;
}

// Component values as plain JSON: u64s are BigInts in JS, JSON text fields are parsed (the
// comparison is of values, not of spellings), resources are left out.
function plain(value) {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Uint8Array) return Array.from(value);
  if (value && typeof value === "object") {
    const out = {};
    for (const [key, field] of Object.entries(value)) {
      if (key === "project") continue;
      out[key] = ["data", "details", "diagnostics", "additions"].includes(key) && typeof field === "string"
        ? JSON.parse(field)
        : plain(field);
    }
    return out;
  }
  return value;
}

// A call as a result: failures are thrown as ComponentError with the `backend-error` payload.
function outcome(call) {
  try {
    return { ok: plain(call()) };
  } catch (error) {
    if (error && error.payload) return { err: plain(error.payload) };
    throw error;
  }
}

const revision = (value) => (value === undefined || value === null ? undefined : BigInt(value));

// Each MCP tool's arguments as the component call a host makes of them (as ofgui-mcp-host's
// service does: the whole input object for reads, the target alone for queries).
function call(project, method, args) {
  switch (method) {
    case "outline":
      return project.outline(JSON.stringify(args));
    case "search":
      return project.search(JSON.stringify(args));
    case "readState":
      return project.readState(JSON.stringify(args));
    case "queryEntity":
      return project.queryEntity(JSON.stringify(args.target));
    case "preflight":
      return project.preflight(BigInt(args.expectedRevision), JSON.stringify(args.operations));
    case "apply":
      return project.apply(BigInt(args.expectedRevision), JSON.stringify(args.operations));
    case "validate":
      return project.validate();
    case "save":
      return project.save(revision(args.expectedRevision));
    default:
      throw new Error(`unknown method ${method}`);
  }
}

// One instance opening one project: the open's result, the times and the WASI calls.
async function openOnce(spec) {
  calls.clear();
  readLengths.length = 0;
  counting = true;
  const started = performance.now();
  const Project = await instantiateBackend(script.transpiled, spec.dir, counted);
  const instantiated = performance.now();
  let project;
  const open = outcome(() => {
    const opened = Project.open({ ...spec.open, revision: 0n });
    project = opened.project;
    return opened;
  });
  const opened = performance.now();
  counting = false;
  return {
    project,
    open,
    run: { instantiateMs: instantiated - started, openMs: opened - instantiated },
  };
}

const results = [];
for (const spec of script.projects) {
  // `runs` (the benchmark's) repeats the instantiate + open in fresh instances first; the
  // steps then run on the last one.
  const runs = [];
  for (let i = 1; i < (script.runs ?? 1); i++) runs.push((await openOnce(spec)).run);
  const { project, open, run } = await openOnce(spec);
  runs.push(run);
  const steps = project
    ? spec.steps.map(({ method, arguments: args }) => ({
        method,
        ...outcome(() => call(project, method, args)),
      }))
    : [];
  results.push({
    label: spec.label,
    open,
    steps,
    figures: {
      ...runs[0],
      runs,
      hostCalls: [...calls.values()].reduce((sum, n) => sum + n, 0),
      hostCallsByName: Object.fromEntries([...calls].sort((a, b) => b[1] - a[1])),
      readLengths,
    },
  });
}
process.stdout.write(`${JSON.stringify({ projects: results })}\n`);
