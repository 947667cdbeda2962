// Embedding backend.wasm in Node with jco: the host code docs/embedding.md quotes (the
// part between the `embed:` markers; tests/e2e/cross_host.rs checks the quote) and that the
// cross-host test runs, both as a program and through cross_host.mjs, so it cannot rot.
//
//   jco transpile backend.wasm --instantiation async -o <dir>
//   node embed_node.mjs <dir> <project-dir> <file.fairy>
//
// prints the revision and the names of the project's packages.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
// embed:begin
import { filesystem } from "@bytecodealliance/preview2-shim";
import { WASIShim } from "@bytecodealliance/preview2-shim/instantiation";

// The shim (0.26) refuses to open a file with `mutate-directory`, which Rust's standard
// library asks for when the component opens a file to write it; the flag means nothing on a
// file (wasmtime ignores it there), so it is dropped, or no save could write. Once per process: all
// instances share the shim's Descriptor class.
const { Descriptor } = filesystem.types;
const openAt = Descriptor.prototype.openAt;
Descriptor.prototype.openAt = function (pathFlags, path, openFlags, flags) {
  const fileFlags = openFlags.directory ? flags : { ...flags, mutateDirectory: false };
  return openAt.call(this, pathFlags, path, openFlags, fileFlags);
};

// Compiled once per process: a `WebAssembly.Module` serves any number of instances, and
// compiling backend.wasm's code costs more than instantiating it.
const modules = new Map();
const compiled = (path) => {
  if (!modules.has(path)) modules.set(path, readFile(path).then((bytes) => WebAssembly.compile(bytes)));
  return modules.get(path);
};

/** A fresh backend instance whose only filesystem is `projectDir`, preopened as `.`. */
export async function instantiateBackend(transpiledDir, projectDir, adapt = (imports) => imports) {
  const { instantiate } = await import(pathToFileURL(join(transpiledDir, "backend.js")).href);
  // Per instance: this project as `.` (read-write, so saves work), no environment, no
  // arguments, no network. The shim cannot make a preopen read-only, cap memory or stop a
  // call: a host that needs those must provide them itself (wit/README.md).
  const shim = new WASIShim({
    sandbox: { preopens: { ".": projectDir }, env: {}, args: [], enableNetwork: false },
  });
  const compile = (name) => compiled(join(transpiledDir, name));
  const { session } = await instantiate(compile, adapt(shim.getImportObject()));
  return session.Project;
}

async function main([transpiledDir, projectDir, fairyFile]) {
  const Project = await instantiateBackend(transpiledDir, projectDir);
  // The names are labels the component echoes in results; it reads only through `.`.
  const { project, status } = Project.open({
    sessionId: "s1",
    fairyFile,
    projectPath: projectDir,
    canonicalPathKey: projectDir,
    revision: 0n,
  });
  // Inputs and `data` are JSON text (schemas in contracts/generated/); a failure throws a
  // ComponentError whose `payload` is the WIT `backend-error`.
  const reply = project.outline(JSON.stringify({ sessionId: "s1" }));
  const outline = JSON.parse(reply.data);
  console.log(`revision ${status.revision}: ${outline.packages.map((p) => p.name).join(", ")}`);
}
// embed:end

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
