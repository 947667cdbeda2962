// A person answers an agent's write on the review view (`serve --http --confirm-writes`),
// in Debian's headless Chromium (playwright-core).
//
// Usage: node review_approve.mjs --base http://127.0.0.1:PORT --token TOKEN
//          --session SESSION_ID --answer approve|refuse [--shot OUT.png] [--chromium PATH]
//
// Opens the token link, waits for the write the agent asked for to show up with its
// question and the diff a save would write, presses Approve or Refuse, and waits for the
// page to say so. Prints one JSON line of what it saw; exits non-zero at the first failure.

import process from "node:process";

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
for (const name of ["base", "token", "session", "answer"]) {
  if (!args[name]) {
    console.error(`review_approve.mjs: --${name} is required`);
    process.exit(2);
  }
}
const { chromium } = await import("playwright-core");
const browser = await chromium.launch({ executablePath: args.chromium || "/usr/bin/chromium", headless: true, timeout: 60000 });
const fail = async (message) => {
  console.error(`review_approve.mjs: ${message}`);
  await browser.close().catch(() => {});
  process.exit(1);
};
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
const errors = [];
page.on("pageerror", (error) => errors.push(String(error)));
await page.goto(`${args.base}/review/${args.session}?token=${encodeURIComponent(args.token)}`);
await page.waitForSelector("[data-approval] button[data-answer]", { timeout: 30000 }).catch(() => fail("no write waited for an answer"));
const question = await page.locator("[data-approval] pre").first().textContent();
await page.waitForSelector("#diff details pre", { timeout: 30000 }).catch(() => fail("the diff was not shown"));
const diff = await page.locator("#diff").textContent();
if (args.shot) await page.screenshot({ path: args.shot, fullPage: true });
await page.click(`[data-approval] button[data-answer="${args.answer}"]`);
const said = args.answer === "approve" ? "approved" : "refused";
await page
  .waitForFunction((word) => document.getElementById("status").textContent.startsWith(word), said, { timeout: 30000 })
  .catch(async () => fail(`the page did not say ${said}: ${await page.locator("#status").textContent()}`));
await browser.close();
if (errors.length) await fail(`the page threw: ${errors.join("; ")}`);
console.log(JSON.stringify({ question, diff }));
