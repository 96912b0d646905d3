// Debian's chromium, headless, through puppeteer-core, trusting only the box's certificate key.
// Helpers the steps share: a page at a viewport, screenshots, axe-core, waiting on conditions.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import puppeteer from "puppeteer-core";

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export const kPhone = { width: 390, height: 844, name: "phone" };
export const kDesktop = { width: 1440, height: 900, name: "desktop" };
// Every wait is on a condition with this deadline; a passing run never waits for it.
export const kDeadline = 20000;
// The test site's time zone (lib/box.mjs).
export const kSiteZone = "America/Los_Angeles";

export async function launchChromium(box, executable = process.env.CHROMIUM || "/usr/bin/chromium") {
  const args = [
    `--ignore-certificate-errors-spki-list=${box.spkiHash()}`,
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--metrics-recording-only",
    "--password-store=basic",
  ];
  // Chromium refuses to run as root with its sandbox on.
  if (process.getuid && process.getuid() === 0) args.push("--no-sandbox");
  return puppeteer.launch({
    executablePath: executable,
    headless: true,
    args,
    defaultViewport: { width: kDesktop.width, height: kDesktop.height },
    protocolTimeout: 60000,
  });
}

// Every page newPage() opened, closed ones included: run.mjs checks their script errors after each
// step.
export const openedPages = [];

// A page that records every dialog (alert, confirm...) and every uncaught error of its scripts.
export async function newPage(context, viewport = kDesktop) {
  const page = await context.newPage();
  openedPages.push(page);
  await page.setViewport({ width: viewport.width, height: viewport.height });
  // A manager's phone at the site: the pages show times in the browser's zone.
  await page.emulateTimezone(kSiteZone);
  page.setDefaultTimeout(kDeadline);
  page.dialogs = [];
  page.errors = [];
  page.on("dialog", async (dialog) => {
    page.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  page.on("pageerror", (error) => page.errors.push(String(error)));
  return page;
}

// axe-core on the page as it is now: throws listing every serious or critical violation.
// Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
// govern, so the policy stays on for the test.
export async function checkAccessibility(page, where) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
    }));
  });
  const bad = result.filter((v) => v.impact === "serious" || v.impact === "critical");
  if (bad.length) {
    const lines = bad.map((v) => `  ${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.join("\n    ")}`);
    throw new Error(`accessibility (${where}): ${bad.length} serious or critical violation(s):\n${lines.join("\n")}`);
  }
  return result.length;  // minor and moderate ones, for the log
}

// Screenshots of the page at phone and desktop widths: DIR/NAME-phone.png, DIR/NAME-desktop.png,
// with the element `scrollTo` (a selector) at the top when given. The page is left at the desktop
// width.
export async function screenshots(page, dir, name, scrollTo) {
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.bringToFront();  // headless chromium paints the tab in front only
  for (const v of [kPhone, kDesktop]) {
    await page.setViewport({ width: v.width, height: v.height });
    if (scrollTo) {
      await page.$eval(scrollTo, (e) => e.scrollIntoView({ block: "start", behavior: "instant" }));
    }
    await page.screenshot({ path: path.join(dir, `${name}-${v.name}.png`) });
  }
}

// The text of the first element matching `selector` once it is visible.
export async function visibleText(page, selector) {
  const element = await page.waitForSelector(selector, { visible: true });
  return element.evaluate((e) => e.textContent.trim());
}

// Click and type on an element once it is visible: page.click and page.type alone fail at once when
// the script has not rendered it yet.
export async function click(page, selector) {
  const element = await page.waitForSelector(selector, { visible: true });
  await element.click();
}

export async function type(page, selector, text) {
  const element = await page.waitForSelector(selector, { visible: true });
  await element.type(text);
}

export function expect(condition, what) {
  if (!condition) throw new Error(what);
}
