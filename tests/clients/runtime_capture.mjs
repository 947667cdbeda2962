#!/usr/bin/env node
// Renders every component of a published FairyGUI output with the official FairyGUI runtime for
// three.js (npm fairygui-three 0.5.1 on three 0.116.1, both pinned in package.json) inside headless
// Chromium, and writes one PNG per component, so tests can compare our own renderer's pictures with
// what a game shows.
//
//   node runtime_capture.mjs --published DIR --out DIR [--background #RRGGBB] \
//        [--only Package/Component]... [--chromium /usr/bin/chromium] [--default-font NAME] \
//        [--strings FILE.xml [--texts]]
//
// - --strings loads a strings file (the editor's multi-language XML) into the runtime's
//   TranslationHelper before any package is read, as UIPackage.setStringsSource does in the
//   runtimes that have it (fairygui-three 0.5.1 has only TranslationHelper.loadFromXML, which
//   takes the runtime's XML object: it is handed the browser's DOMParser reading of the file).
//   With --texts, each component's entry in the index lists `texts`: every text its objects show,
//   nested ones included, as { owner (package id + component id of the component holding
//   the node), node (its id), self (the package id + component id the object is made
//   from, for a component), kind (text, title, selectedTitle, prompt, tips, itemN), text,
//   instances (the owner and node of each component instance above it, outermost first) },
//   and no PNG is written.
//
// - DIR holds what a publish wrote, flat: per package `<Pkg>.fui` (web engines) or `<Pkg>_fui.bytes`
//   (Unity), its atlases `<Pkg>_atlas0.png`… and sounds. Every package in DIR is loaded first (the
//   runtime resolves cross-package references at creation), served over a localhost HTTP server on
//   an ephemeral port; a request for `<Pkg>.fui` gets `<Pkg>_fui.bytes` when only that exists.
// - Each Component item of each package (exported or not; --only Package/Component, by name or
//   resource id, repeatable, narrows this) is created with UIPackage.createObjectFromURL, at its
//   published size, scale 1, its top-left corner at 0,0 (also when its pivot is its anchor), with
//   its controllers on their default pages, in one WebGL
//   canvas cleared to the opaque --background (default #808080; the context has no alpha channel),
//   device pixel ratio 1. The component's rectangle (width × height px) is written as
//   `<out>/<Package>/<Component>.png` (the resource id, `<id>.png`, instead when the name contains
//   `/`, is `.`/`..`, or two components of the package share it; `file` in the index says which).
// - `<out>/index.json`: { chromium, webgl, runtime, background, defaultFont, fonts, packages,
//   components: [{ package, component, id, width, height, file, error?, ms }] }. `fonts` lists the
//   font families the runtime asked the browser for (text with no font uses UIConfig.defaultFont,
//   "Arial" unless --default-font says otherwise), each with `drawnIn`, the installed family whose
//   glyph advances it matched (null if none): Chromium takes fontconfig's metric-compatible aliases
//   (Arial -> Liberation Sans) but for any other family it lacks uses its default standard font
//   (Times New Roman -> Liberation Serif), not fc-match's pick; characters that font lacks (CJK)
//   fall back per character (Noto CJK).
// - Time is frozen: requestAnimationFrame is replaced before the runtime loads, and the harness
//   ticks the runtime's timer loop itself with a constant timestamp (delta 0), so deferred work
//   (Timers.callLater: group layout, scroll panes, lists) runs but tweens and transitions never
//   advance. Textures: atlases are loaded (decoded) before UIPackage.loadPackage resolves; files a
//   loader fetches later (three's ImageLoader/FileLoader) are awaited, up to 3 s, before the frame
//   is drawn. A package whose file fails to load (404, undecodable image) is reported, not awaited.
// - A component that throws (creating, laying out, drawing) gets `error` and no PNG; the run goes
//   on. All captures share one browser launch. A one-line summary goes to stderr.
// - Exit status: 0 when every package loaded (component errors are in the index); 1 when a package
//   failed to load; 2 on bad arguments or when Chromium is missing or WebGL is unavailable. Never
//   skips silently.
//
// RUNTIME PATCH (applied to the copy served to the page, in memory; node_modules is untouched):
// fairygui-three 0.5.1's NGraphics.updateMeshNow rewrites the UVs of a sprite the publisher rotated
// in its atlas in a loop whose index `k` is never advanced (`k += 2` is missing), so only the first
// vertex's UV is rotated (and rewritten over and over) and such sprites draw wrong. The patch adds
// the `k += 2;`. And its NMaterial takes three's basic-material uniforms, whose `diffuse` colour is
// 0xeeeeee and is never reset (NMaterial has no `color`), so the shader multiplies every image,
// graph and text by 238/255; upstream fixed that in 0.9.0 ("fix diffuse默认值导致色差bug") by
// starting it at white, and so does the patch: the editor and the other runtimes draw the authored
// colours. The harness fails if the source no longer has the exact text it patches.
//
// Chromium: Debian's /usr/bin/chromium (apt-get install chromium fonts-liberation fonts-noto-cjk),
// driven by playwright-core (no browser download: works after `npm ci --ignore-scripts`). Playwright
// gives it a fresh empty temporary profile; the flags below keep it off the (closed) network. WebGL
// runs on Chromium's default GL, ANGLE on SwiftShader's Vulkan (software, no GPU needed; it works
// with --disable-gpu too, which is not passed); --use-gl=swiftshader breaks it unless
// --enable-unsafe-swiftshader (which Playwright adds anyway) is passed as well.

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const started = performance.now();
const require = createRequire(import.meta.url);

function die(code, message) {
  process.stderr.write(`runtime_capture: ${message}\n`);
  process.exit(code);
}

// ---------------------------------------------------------------------------------------------
// Arguments

const usage =
  "usage: node runtime_capture.mjs --published DIR --out DIR [--background #RRGGBB] " +
  "[--only Package/Component]... [--chromium PATH] [--default-font NAME] [--strings FILE.xml [--texts]]";
const opts = { published: null, out: null, background: "#808080", only: [], chromium: "/usr/bin/chromium", defaultFont: null, strings: null, texts: false };
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) die(2, `unexpected argument ${JSON.stringify(a)}\n${usage}`);
    if (m[1] === "help") {
      process.stdout.write(usage + "\n");
      process.exit(0);
    }
    if (m[1] === "texts") {
      opts.texts = true;
      continue;
    }
    const value = m[2] !== undefined ? m[2] : argv[++i];
    if (value === undefined) die(2, `--${m[1]} needs a value\n${usage}`);
    switch (m[1]) {
      case "published": opts.published = value; break;
      case "out": opts.out = value; break;
      case "background": opts.background = value; break;
      case "only": opts.only.push(value); break;
      case "chromium": opts.chromium = value; break;
      case "default-font": opts.defaultFont = value; break;
      case "strings": opts.strings = value; break;
      default: die(2, `unknown option --${m[1]}\n${usage}`);
    }
  }
  if (!opts.published || !opts.out) die(2, usage);
  if (!/^#[0-9a-fA-F]{6}$/.test(opts.background)) die(2, `--background must be #RRGGBB, not ${JSON.stringify(opts.background)}`);
  for (const o of opts.only) if (!/^[^/]+\/.+$/.test(o)) die(2, `--only takes Package/Component, not ${JSON.stringify(o)}`);
}
const publishedDir = path.resolve(opts.published);
const outDir = path.resolve(opts.out);
if (!fs.statSync(publishedDir, { throwIfNoEntry: false })?.isDirectory()) die(2, `--published ${publishedDir} is not a directory`);
try {
  fs.accessSync(opts.chromium, fs.constants.X_OK);
} catch {
  die(2, `Chromium not found or not executable at ${opts.chromium}; install it (apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-cjk) or pass --chromium PATH`);
}

// ---------------------------------------------------------------------------------------------
// The published packages: `<Pkg>.fui` or `<Pkg>_fui.bytes`, checked by their "FGUI" magic.

const files = new Set(fs.readdirSync(publishedDir).filter((f) => fs.statSync(path.join(publishedDir, f)).isFile()));
const packageFiles = new Map(); // resource key (file base name) -> file actually served for `<key>.fui`
for (const f of [...files].sort()) { // "A.fui" sorts before "A_fui.bytes", and wins
  const m = /^(.+)\.fui$/.exec(f) || /^(.+)_fui\.bytes$/.exec(f);
  if (!m) continue;
  const fd = fs.openSync(path.join(publishedDir, f), "r");
  const magic = Buffer.alloc(4);
  fs.readSync(fd, magic, 0, 4, 0);
  fs.closeSync(fd);
  if (magic.toString("latin1") !== "FGUI") {
    process.stderr.write(`runtime_capture: ${f} does not start with FGUI; not a package, ignored\n`);
    continue;
  }
  if (packageFiles.has(m[1])) {
    process.stderr.write(`runtime_capture: both ${packageFiles.get(m[1])} and ${f} exist; using ${packageFiles.get(m[1])}\n`);
    continue;
  }
  packageFiles.set(m[1], f);
}
if (packageFiles.size === 0) die(2, `no FairyGUI package (<Pkg>.fui or <Pkg>_fui.bytes) in ${publishedDir}`);

// ---------------------------------------------------------------------------------------------
// The runtime, patched (see the header).

const threePath = require.resolve("three/build/three.js");
const fguiPath = path.join(path.dirname(require.resolve("fairygui-three/package.json")), "dist", "fairygui.js");
const versions = {
  three: JSON.parse(fs.readFileSync(require.resolve("three/package.json"), "utf8")).version,
  "fairygui-three": JSON.parse(fs.readFileSync(require.resolve("fairygui-three/package.json"), "utf8")).version,
  "playwright-core": JSON.parse(fs.readFileSync(require.resolve("playwright-core/package.json"), "utf8")).version,
};
const threeSource = fs.readFileSync(threePath);
const fguiSource = (() => {
  const src = fs.readFileSync(fguiPath, "utf8");
  // NGraphics.updateMeshNow, the rotated-sprite UV loop: advance `k` past each vertex's (u, v).
  const bug = /(\n([ \t]*)vb\.uvs\[k\] = xMin \+ yMax - v2;\n)([ \t]*\}\n)/g;
  const hits = src.match(bug) || [];
  if (hits.length !== 1)
    die(2, `cannot patch ${fguiPath}: the rotated-sprite UV loop (\`vb.uvs[k] = xMin + yMax - v2;\`) occurs ${hits.length} times, expected once; check the fairygui-three version (pinned 0.5.1)`);
  const advanced = src.replace(bug, "$1$2k += 2; // runtime_capture.mjs patch: the runtime forgot to advance k\n$3");
  // NMaterial: start three's `diffuse` uniform at white, as upstream's fix (0.9.0) does.
  const uniforms = "            this.uniforms = customUniforms;\n";
  const found = advanced.split(uniforms).length - 1;
  if (found !== 1)
    die(2, `cannot patch ${fguiPath}: NMaterial's \`this.uniforms = customUniforms;\` occurs ${found} times, expected once; check the fairygui-three version (pinned 0.5.1)`);
  return advanced.replace(uniforms, uniforms + "            customUniforms.diffuse.value.setHex(0xffffff); // runtime_capture.mjs patch\n");
})();
const patches = [
  "NGraphics.updateMeshNow: `k += 2` added to the rotated-sprite UV loop (fairygui-three 0.5.1 never advances k)",
  "NMaterial: the `diffuse` uniform starts at 0xffffff (fairygui-three 0.5.1 keeps three's 0xeeeeee, which dims every mesh to 238/255; fixed upstream in 0.9.0)",
];

// ---------------------------------------------------------------------------------------------
// The page.

const pageHtml = `<!doctype html>
<html><head><meta charset="utf-8"><title>runtime_capture</title>
<style>html,body{margin:0;padding:0;overflow:hidden;background:#000}canvas{position:absolute;left:0;top:0;display:block}</style>
</head><body>
<script>
// Frozen time: the runtime's Timers loop runs on requestAnimationFrame; the harness ticks it, always
// with timestamp 0, so that its delta (timestamp - last, last starting at 0) is always 0.
(function () {
  var queue = [];
  window.requestAnimationFrame = function (cb) { queue.push(cb); return queue.length; };
  window.cancelAnimationFrame = function () {};
  window.__tickErrors = [];
  window.__tick = function () {
    var cbs = queue.splice(0);
    for (var i = 0; i < cbs.length; i++) {
      try { cbs[i](0); } catch (e) { window.__tickErrors.push(String(e && e.stack || e)); }
    }
  };
})();
</script>
<script src="/lib/three.js"></script>
<script>window.three = THREE;</script>
<script src="/lib/fairygui.js"></script>
<script src="/lib/harness.js"></script>
</body></html>`;

// Runs in the page. Kept as a function so that it is syntax-checked with this file.
function pageHarness() {
  const H = {};
  window.harness = H;
  let renderer, scene, canvas, crop, cropCtx;
  // Every file the runtime fetches goes through three's FileLoader (descriptors, sounds) or
  // ImageLoader (atlases, loader textures): count what is in flight and note what failed (the
  // runtime's own promises never settle when a file fails).
  let pending = 0;
  const failed = [];
  for (const Loader of [THREE.FileLoader, THREE.ImageLoader]) {
    const origLoad = Loader.prototype.load;
    Loader.prototype.load = function (url, onLoad, onProgress, onError) {
      pending++;
      let done = false;
      const finish = () => { if (!done) { done = true; pending--; } };
      return origLoad.call(this, url, (t) => { finish(); if (onLoad) onLoad(t); }, onProgress, (e) => {
        finish();
        failed.push(String(url));
        if (onError) onError(e);
      });
    };
  }

  H.init = ({ width, height, background, defaultFont }) => {
    canvas = document.createElement("canvas");
    canvas.style.width = width + "px";
    canvas.style.height = height + "px";
    document.body.appendChild(canvas);
    const probe = document.createElement("canvas").getContext("webgl");
    if (!probe) return { error: "WebGL is unavailable: canvas.getContext('webgl') returned null" };
    try {
      renderer = new THREE.WebGLRenderer({ canvas, antialias: false, alpha: false, preserveDrawingBuffer: true });
    } catch (e) {
      return { error: "WebGL is unavailable: " + e };
    }
    // As the runtime's own demo (fairygui-three/test/src/index.ts) sets it up.
    renderer.sortObjects = false;
    renderer.localClippingEnabled = true;
    renderer.setPixelRatio(1);
    renderer.setClearColor(new THREE.Color(background), 1);
    scene = new THREE.Scene();
    if (defaultFont) fgui.UIConfig.defaultFont = defaultFont;
    fgui.Stage.init(renderer);
    fgui.Stage.scene = scene;
    crop = document.createElement("canvas");
    cropCtx = crop.getContext("2d", { willReadFrequently: true });
    const gl = renderer.getContext();
    const dbg = gl.getExtension("WEBGL_debug_renderer_info");
    return {
      webgl: {
        version: gl.getParameter(gl.VERSION),
        vendor: dbg ? gl.getParameter(dbg.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR),
        renderer: dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER),
      },
      defaultFont: fgui.UIConfig.defaultFont,
    };
  };

  H.resize = (width, height) => {
    canvas.style.width = width + "px";
    canvas.style.height = height + "px";
    window.dispatchEvent(new Event("resize")); // Stage's onWindowResize: renderer size, camera
    return { width: fgui.Stage.width, height: fgui.Stage.height, buffer: [canvas.width, canvas.height] };
  };

  // Loads every package. UIPackage.loadPackage never settles when one of its files fails: a failed
  // file of the package (`<key>.fui`, `<key>_…`) ends the wait, else a timeout does.
  H.loadAll = async (keys, timeoutMs) => {
    const results = await Promise.all(keys.map((key) => {
      const t0 = performance.now();
      const own = (u) => u === "/pub/" + key + ".fui" || u.startsWith("/pub/" + key + "_");
      let timer;
      return Promise.race([
        fgui.UIPackage.loadPackage("/pub/" + key).then((pkg) => ({ key, pkg })),
        new Promise((resolve) => {
          const poll = () => {
            const bad = failed.filter(own);
            if (bad.length) resolve({ key, error: "failed to load " + bad.map(decodeURIComponent).join(", ") });
            else if (performance.now() - t0 > timeoutMs) resolve({ key, error: "loadPackage did not finish in " + timeoutMs + " ms" });
            else timer = setTimeout(poll, 20);
          };
          poll();
        }),
      ]).catch((e) => ({ key, error: String(e && e.stack || e) })).then((r) => { clearTimeout(timer); r.ms = Math.round(performance.now() - t0); return r; });
    }));
    const Component = fgui.PackageItemType.Component;
    return results.map(({ key, pkg, error, ms }) => {
      if (error) return { key, error, ms };
      const components = pkg._items
        .filter((pi) => pi.type === Component)
        .map((pi) => ({ id: pi.id, name: pi.name, width: pi.width, height: pi.height, url: "ui://" + pkg.id + pi.id }));
      const rotatedSprites = Object.values(pkg._sprites).filter((sp) => sp.rotated).length;
      return { key, id: pkg.id, name: pkg.name, components, rotatedSprites, ms };
    });
  };

  // What a game's frames do before the picture is steady: each round is one frame but the drawing.
  // Stage.update reads world matrices without validating them (clip rectangles become clip planes
  // from matrixWorld), and only renderer.render updates those; a first frame clips with stale
  // matrices (a list clipped to [x, width] instead of [x, x + width]), hence updateMatrixWorld.
  const settle = () => {
    for (let i = 0; i < 3; i++) {
      window.__tick(); // Timers.callLater work (bounds, layouts, lists)
      scene.updateMatrixWorld();
      fgui.Stage.update(); // text meshes, clip planes, font atlas rebuilds
    }
  };

  // The strings file, read by the browser, in the shape TranslationHelper.loadFromXML reads.
  H.strings = (xml) => {
    const document = new DOMParser().parseFromString(xml, "application/xml");
    const broken = document.getElementsByTagName("parsererror")[0];
    if (broken) return { error: broken.textContent };
    const root = document.documentElement;
    fgui.TranslationHelper.loadFromXML({
      elements: (name) => [...root.children].filter((e) => e.tagName === name).map((e) => ({
        getAttrString: (attribute) => e.getAttribute(attribute) || "",
        text: e.textContent,
      })),
    });
    return { entries: root.children.length };
  };

  // Every text an object tree shows, with where it sits.
  const textsOf = (top) => {
    const texts = [];
    const walk = (component, instances) => {
      const item = component.packageItem;
      const owner = item ? item.owner.id + item.id : "";
      for (const child of component._children || []) {
        // A button's or label's title is the text of its own title node, unless the
        // instance sets it: `self` is the component the object is made from.
        const made = child.packageItem;
        const self = made ? made.owner.id + made.id : "";
        const seen = (kind, text) => {
          if (typeof text === "string" && text) texts.push({ owner, node: child.id, self, kind, text, instances });
        };
        if (child instanceof fgui.GTextField) seen("text", child.text);
        if (child instanceof fgui.GTextInput) seen("prompt", child.promptText);
        seen("tips", child.tooltips);
        if (child instanceof fgui.GButton) {
          seen("title", child.title);
          seen("selectedTitle", child.selectedTitle);
        } else if (child instanceof fgui.GLabel) {
          seen("title", child.title);
        }
        if (child instanceof fgui.GComboBox) (child.items || []).forEach((text, j) => seen("item" + j, text));
        if (child instanceof fgui.GComponent) walk(child, [...instances, { owner, node: child.id }]);
      }
    };
    walk(top, []);
    return texts;
  };

  H.capture = async (url, width, height, textsOnly) => {
    const t0 = performance.now();
    window.__tickErrors.length = 0;
    let obj = null;
    const result = {};
    try {
      obj = fgui.UIPackage.createObjectFromURL(url);
      if (!obj) throw new Error("createObjectFromURL returned null");
      obj.setScale(1, 1);
      if (obj.width !== width || obj.height !== height) obj.setSize(width, height);
      // A component whose own pivot is its anchor (`anchor="true"`) is placed by that point:
      // put its top-left corner at 0,0, where the picture is.
      if (obj.pivotAsAnchor) obj.setPosition(obj.pivotX * width, obj.pivotY * height);
      else obj.setPosition(0, 0);
      fgui.GRoot.inst.addChild(obj);
      settle();
      if (pending > 0) {
        const deadline = performance.now() + 3000;
        while (pending > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        if (pending > 0) result.warning = pending + " texture(s) still loading after 3 s";
        settle();
      }
      if (textsOnly) {
        result.texts = textsOf(obj);
        throw null;
      }
      // Clear and shade only the component's rectangle (GL's origin is bottom-left).
      renderer.setScissor(0, canvas.height - height, width, height);
      renderer.setScissorTest(true);
      renderer.render(scene, fgui.Stage.camera);
      if (window.__tickErrors.length) throw new Error("during layout: " + window.__tickErrors.join("\n"));
      // Read back only the component's rectangle (bottom-up rows in GL) into a CPU 2-D canvas:
      // much faster than drawImage of the whole WebGL canvas.
      const gl = renderer.getContext();
      const rgba = new Uint8Array(width * height * 4);
      gl.readPixels(0, canvas.height - height, width, height, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
      const image = new ImageData(width, height);
      const row = width * 4;
      for (let y = 0; y < height; y++) image.data.set(rgba.subarray((height - 1 - y) * row, (height - y) * row), y * row);
      crop.width = width;
      crop.height = height;
      cropCtx.putImageData(image, 0, 0);
      result.png = crop.toDataURL("image/png");
    } catch (e) {
      if (e !== null) result.error = String(e && e.stack || e);
    }
    if (obj) {
      try {
        fgui.GRoot.inst.removeChild(obj, true);
        window.__tick();
      } catch (e) {
        if (!result.error) result.disposeError = String(e);
      }
    }
    result.ms = performance.now() - t0;
    return result;
  };

  // The families the runtime's dynamic fonts asked for, and which installed family the browser drew
  // each in: the one whose glyph advances match (the runtime writes `<size>px <family>` unquoted).
  H.fonts = (installed) => {
    const ctx = document.createElement("canvas").getContext("2d");
    const probes = ["The quick brown fox jumps over 0123456789", "WWW iii mmm ,.;: AZaz"];
    const widths = (font) => probes.map((t) => { ctx.font = "40px sans-serif"; ctx.font = font; return ctx.measureText(t).width; }).join(",");
    const known = installed.map((f) => [f, widths('40px "' + f + '"')]);
    return Object.keys(fgui.FontManager.fonts).filter((k) => fgui.FontManager.fonts[k]).map((family) => {
      const w = widths("40px " + family);
      const hit = known.find(([, kw]) => kw === w);
      return { family, drawnIn: hit ? hit[0] : null };
    });
  };
}

// ---------------------------------------------------------------------------------------------
// The server.

const missing = [];
const types = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".wav": "audio/wav", ".mp3": "audio/mpeg", ".ogg": "audio/ogg", ".json": "application/json", ".txt": "text/plain" };
const server = http.createServer((req, res) => {
  const send = (status, type, body) => {
    res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
    res.end(body);
  };
  const p = decodeURIComponent(new URL(req.url, "http://x").pathname);
  if (p === "/" || p === "/index.html") return send(200, "text/html; charset=utf-8", pageHtml);
  if (p === "/lib/three.js") return send(200, "text/javascript", threeSource);
  if (p === "/lib/fairygui.js") return send(200, "text/javascript", fguiSource);
  if (p === "/lib/harness.js") return send(200, "text/javascript", `(${pageHarness.toString()})();`);
  if (p === "/favicon.ico") return send(204, "text/plain", "");
  if (p.startsWith("/pub/")) {
    let name = p.slice(5);
    if (name.includes("/") || name === "." || name === "..") return send(404, "text/plain", "not found");
    const key = /^(.+)\.fui$/.exec(name);
    if (key && packageFiles.has(key[1])) name = packageFiles.get(key[1]);
    if (files.has(name)) return send(200, types[path.extname(name).toLowerCase()] || "application/octet-stream", fs.readFileSync(path.join(publishedDir, name)));
  }
  missing.push(p);
  send(404, "text/plain", "not found");
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}`;

// ---------------------------------------------------------------------------------------------
// The browser.

const { chromium } = await import("playwright-core");
let browser;
const cleanup = async () => {
  if (browser) await browser.close().catch(() => {});
  server.close();
};
const fail = async (code, message) => {
  await cleanup();
  die(code, message);
};

const t0 = performance.now();
try {
  browser = await chromium.launch({
    executablePath: opts.chromium,
    headless: true,
    timeout: 60000,
    args: [
      "--no-sandbox",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--disable-default-apps",
      "--disable-extensions",
      "--enable-unsafe-swiftshader",
      "--autoplay-policy=no-user-gesture-required",
      "--font-render-hinting=none",
    ],
  });
} catch (e) {
  await fail(2, `cannot start Chromium (${opts.chromium}): ${e.message}`);
}
const chromiumVersion = browser.version();
const page = await browser.newPage({ viewport: { width: 1024, height: 768 }, deviceScaleFactor: 1 });
const consoleErrors = [];
page.on("console", (m) => {
  if (m.type() === "error") consoleErrors.push(m.text());
});
page.on("pageerror", (e) => consoleErrors.push(String(e)));
await page.goto(`${base}/index.html`, { waitUntil: "load" });
const browserMs = performance.now() - t0;

const init = await page.evaluate((o) => window.harness.init(o), { width: 1024, height: 768, background: opts.background, defaultFont: opts.defaultFont });
if (init.error) await fail(2, `${init.error} (Chromium ${chromiumVersion}; page errors: ${consoleErrors.join(" | ") || "none"})`);

const t1 = performance.now();
if (opts.texts && !opts.strings) die(2, `--texts needs --strings\n${usage}`);
if (opts.strings) {
  const read = await page.evaluate((xml) => window.harness.strings(xml), fs.readFileSync(opts.strings, "utf8"));
  if (read.error) await fail(2, `the strings file does not parse: ${read.error}`);
}
const loaded = await page.evaluate(({ keys, timeout }) => window.harness.loadAll(keys, timeout), { keys: [...packageFiles.keys()], timeout: 20000 });
const loadMs = performance.now() - t1;

// What to capture.
const targets = [];
const packagesOut = [];
const onlyUsed = new Set();
for (const p of loaded) {
  packagesOut.push(p.error ? { key: p.key, file: packageFiles.get(p.key), error: p.error, ms: p.ms } : { key: p.key, name: p.name, id: p.id, file: packageFiles.get(p.key), components: p.components.length, rotatedSprites: p.rotatedSprites, ms: p.ms });
  if (p.error) continue;
  const counts = {};
  for (const c of p.components) counts[c.name] = (counts[c.name] || 0) + 1;
  for (const c of p.components) {
    if (opts.only.length) {
      const hits = opts.only.filter((o) => o === `${p.name}/${c.name}` || o === `${p.name}/${c.id}`);
      if (!hits.length) continue;
      for (const h of hits) onlyUsed.add(h);
    }
    const byName = c.name && !c.name.includes("/") && c.name !== "." && c.name !== ".." && counts[c.name] === 1;
    targets.push({ pkg: p.name, ...c, file: `${p.name}/${byName ? c.name : c.id}.png` });
  }
}
const unmatched = opts.only.filter((o) => !onlyUsed.has(o));
if (unmatched.length) await fail(2, `--only matched no component: ${unmatched.join(", ")} (loaded packages: ${loaded.filter((p) => !p.error).map((p) => p.name).join(", ")})`);

const maxW = Math.max(1, ...targets.map((t) => t.width));
const maxH = Math.max(1, ...targets.map((t) => t.height));
await page.setViewportSize({ width: maxW, height: maxH });
await page.evaluate(([w, h]) => window.harness.resize(w, h), [maxW, maxH]);

const t2 = performance.now();
const components = [];
fs.mkdirSync(outDir, { recursive: true });
for (const t of targets) {
  const entry = { package: t.pkg, component: t.name, id: t.id, width: t.width, height: t.height, file: t.file };
  if (t.width <= 0 || t.height <= 0) {
    entry.error = `empty size ${t.width}x${t.height}`;
    entry.ms = 0;
    components.push(entry);
    continue;
  }
  const r = await page.evaluate(([url, w, h, textsOnly]) => window.harness.capture(url, w, h, textsOnly), [t.url, t.width, t.height, !!opts.texts]);
  entry.ms = Math.round(r.ms * 10) / 10;
  if (r.texts) {
    entry.texts = r.texts;
    delete entry.file;
  } else if (r.error) {
    entry.error = r.error;
    delete entry.file;
  } else {
    fs.mkdirSync(path.join(outDir, t.pkg), { recursive: true });
    fs.writeFileSync(path.join(outDir, t.file), Buffer.from(r.png.slice(r.png.indexOf(",") + 1), "base64"));
  }
  if (r.warning) entry.warning = r.warning;
  if (r.disposeError) entry.disposeError = r.disposeError;
  components.push(entry);
}
const captureMs = performance.now() - t2;

let installed = [];
try {
  installed = [...new Set(execFileSync("fc-list", [":", "family"], { encoding: "utf8", timeout: 10000 }).split("\n").map((l) => l.split(",")[0].trim()).filter(Boolean))].sort();
} catch {}
// The usual fallbacks first, so that a family that draws like one of them is named by it.
const preferred = ["Liberation Serif", "Liberation Sans", "Liberation Mono", "DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"];
installed = [...preferred.filter((f) => installed.includes(f)), ...installed.filter((f) => !preferred.includes(f))];
const fonts = await page.evaluate((installed) => window.harness.fonts(installed), installed);
await cleanup();

const failedPackages = packagesOut.filter((p) => p.error);
const errors = components.filter((c) => c.error).length;
const index = {
  chromium: chromiumVersion,
  webgl: init.webgl,
  runtime: { ...versions, patches },
  published: publishedDir,
  background: opts.background,
  defaultFont: init.defaultFont,
  fonts,
  packages: packagesOut,
  missingFiles: [...new Set(missing)],
  consoleErrors,
  timing: { browserStartMs: Math.round(browserMs), loadPackagesMs: Math.round(loadMs), captureMs: Math.round(captureMs), totalMs: Math.round(performance.now() - started) },
  components,
};
fs.writeFileSync(path.join(outDir, "index.json"), JSON.stringify(index, null, 2) + "\n");

const s = (ms) => (ms / 1000).toFixed(1) + " s";
process.stderr.write(
  `runtime_capture: ${loaded.length - failedPackages.length}/${loaded.length} packages loaded, ` +
    `${components.length - errors} components captured, ${errors} errors; ` +
    `browser ${s(browserMs)}, load ${s(loadMs)}, capture ${s(captureMs)} (${(captureMs / Math.max(1, components.length)).toFixed(1)} ms/component), ` +
    `total ${s(performance.now() - started)}; Chromium ${chromiumVersion}; ${path.join(outDir, "index.json")}\n`,
);
if (failedPackages.length) die(1, `packages failed to load: ${failedPackages.map((p) => `${p.key} (${p.error})`).join("; ")}${missing.length ? `; missing files: ${[...new Set(missing)].join(", ")}` : ""}`);
