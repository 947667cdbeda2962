// A person's browser on the review view, in Debian's headless Chromium (playwright-core).
//
// Usage: node review_browser.mjs --base http://127.0.0.1:PORT --token TOKEN --other TOKEN
//          --session SESSION_ID --shot OUT.png [--chromium /usr/bin/chromium]
//
// Opens the token link for SESSION_ID, checks the token left the address bar for an
// HttpOnly, SameSite=Strict cookie, waits for the page to show the session, its newest
// step in words with that step's pictures (before, after, changed pixels) and the diff a
// save would write, takes a screenshot, draws the step again at a controller's page and
// every unsaved edit together,
// clicks Undo, then Save, then Redo and Discard (back to the save), and waits for each to
// land. A second browser with the other
// tenant's token must see none of it. Every request the pages make must go to the
// server's own origin. Prints one JSON line of what it saw; exits non-zero at the first
// failure.

import process from "node:process";

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
for (const name of ["base", "token", "other", "session", "shot"]) {
  if (!args[name]) {
    console.error(`review_browser.mjs: --${name} is required`);
    process.exit(2);
  }
}
const origin = new URL(args.base).origin;
const { chromium } = await import("playwright-core");
const browser = await chromium.launch({ executablePath: args.chromium || "/usr/bin/chromium", headless: true, timeout: 60000 });
const seen = { requests: [], foreign: [] };
const fail = async (message) => {
  console.error(`review_browser.mjs: ${message}`);
  await browser.close().catch(() => {});
  process.exit(1);
};

async function open(token, path) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on("request", (request) => {
    const url = request.url();
    seen.requests.push(url.replace(/token=[^&]*/, "token=…"));
    if (!url.startsWith("data:") && new URL(url).origin !== origin) seen.foreign.push(url);
  });
  page.on("pageerror", (error) => seen.pageErrors = [...(seen.pageErrors || []), String(error)]);
  await page.goto(`${args.base}${path}?token=${encodeURIComponent(token)}`);
  return { context, page };
}

const status = (page) => page.locator("#status").textContent();
async function waitStatus(page, pattern, what) {
  try {
    await page.waitForFunction(
      (source) => new RegExp(source).test(document.getElementById("status").textContent),
      pattern.source,
      { timeout: 30000 },
    );
  } catch {
    await fail(`${what}: the status says ${JSON.stringify(await status(page))}`);
  }
}

const { context, page } = await open(args.token, `/review/${args.session}`);
if (page.url() !== `${args.base}/review/${args.session}`) await fail(`the token link did not leave the address bar: ${page.url()}`);
const cookie = (await context.cookies()).find((c) => c.name === "ofgui-review");
if (!cookie) await fail("no review cookie was set");
if (!cookie.httpOnly || cookie.sameSite !== "Strict" || cookie.path !== "/review") await fail(`cookie flags: ${JSON.stringify(cookie)}`);
if (await page.evaluate(() => document.cookie.includes("ofgui-review"))) await fail("a script can read the review cookie");

await waitStatus(page, /^revision \d+$/, "the page never loaded the session");
const before = Number((await status(page)).match(/\d+/)[0]);
const state = await page.locator("#state").textContent();
const steps = await page.locator("#steps li").allTextContents();
await page.waitForSelector('canvas[data-picture="changed pixels"]', { timeout: 30000 }).catch(() => fail("the step's pictures were not drawn"));
const pictures = await page.locator("canvas[data-picture]").count();
const captions = await page.locator("#step figcaption").allTextContents();
const diff = await page.locator("#diff").textContent();
await page.screenshot({ path: args.shot, fullPage: true });
// A controller's page: the step drawn again at it.
const choice = page.locator("select[data-controller]").first();
if (!(await choice.count())) await fail("the step's component offers no controller page");
const controller = await choice.getAttribute("data-controller");
const pageName = await choice.locator("option").nth(2).textContent();
await choice.selectOption({ label: pageName });
const atPage = `(${controller}: `;
await page
  .waitForFunction((text) => [...document.querySelectorAll("#step figcaption")].some((c) => c.textContent.includes(text)), atPage, { timeout: 30000 })
  .catch(() => fail(`the pictures were not drawn again at ${controller} = ${pageName}`));
const pageCaption = (await page.locator("#step figcaption").allTextContents()).find((c) => c.includes(atPage));
// Every unsaved edit together: drawn from the saved project to now.
await page.click('#steps li[data-revision="unsaved"]');
await page
  .waitForFunction(() => document.querySelector("#step h2")?.textContent.startsWith("All unsaved edits") && document.querySelector('#step canvas[data-picture="changed pixels"]'), null, { timeout: 30000 })
  .catch(() => fail("the unsaved edits were not drawn together"));
const unsavedCaptions = await page.locator("#step figcaption").allTextContents();

await page.click("#undo");
await waitStatus(page, /^undo done: revision \d+$/, "undo did not land");
const afterUndo = Number((await status(page)).match(/\d+/)[0]);
await page.click("#save");
await waitStatus(page, /^save done: revision \d+$/, "save did not land");
const savedState = await page.locator("#state").textContent();
// The undone edit comes back with Redo; Discard takes it back to the save again.
await page.click("#redo");
await waitStatus(page, /^redo done: revision \d+$/, "redo did not land");
await page.click("#discard");
await waitStatus(page, /^discard done: revision \d+$/, "discard did not land");
const afterDiscard = Number((await status(page)).match(/\d+/)[0]);
const discardedState = await page.locator("#state").textContent();
await context.close();

// Another tenant's browser: its own (no) sessions, nothing of the first.
const other = await open(args.other, "/review");
await waitStatus(other.page, /No session is open for this token\./, "the other tenant's page");
const otherText = await other.page.locator("body").textContent();
if (otherText.includes(args.session)) await fail("the other tenant's page names the first tenant's session");
await other.context.close();
await browser.close();

if (seen.foreign.length) await fail(`requests left the server's origin: ${seen.foreign.join(", ")}`);
if (seen.pageErrors) await fail(`the page threw: ${seen.pageErrors.join("; ")}`);
console.log(JSON.stringify({ before, afterUndo, state, savedState, afterDiscard, discardedState, steps, pictures, captions, pageCaption, unsavedCaptions, diff, requests: seen.requests.length }));
