// The panel's pages, in the navigation's order: the route, the heading it shows, the name of its
// screenshots, and its own checks. A page that has none yet shows the "not built yet" line.
// When a page is built, give it a file steps/pages/<name>.mjs exporting
// `async function check(page, ctx)` (what a manager sees and does there) and import it here.
import { visibleText, expect, screenshots } from "./lib/browser.mjs";
import * as salesLabor from "./steps/sales_labor.mjs";

async function notBuiltYet(page, { title }) {
  const text = await visibleText(page, "#page .note");
  expect(text === `The ${title} page is not built yet.`, `${title}: the page says "${text}"`);
}

// A built page: its sections' headings are there once its data came.
function showsSections(...headings) {
  return async (page, { title }) => {
    await page.waitForFunction(
      (hs) => hs.every((h) => [...document.querySelectorAll("#page h2")]
        .some((e) => e.textContent.trim() === h)),
      { timeout: 20000 }, headings);
    const alert = await page.$("#page .alert");
    expect(alert === null, `${title}: the page shows an error`);
  };
}

async function approvalsList(page, { title }) {
  await page.waitForSelector("#page .tabs", { timeout: 20000 });
  await page.waitForFunction(() => !document.querySelector("#page").textContent.includes("Loading"),
    { timeout: 20000 });
  const alert = await page.$("#page .alert");
  expect(alert === null, `${title}: the page shows an error`);
}

// The Audit page: its sections, then the whole log checked from the page.
async function checksTheLog(page, ctx) {
  await showsSections("Signed checkpoint", "Entries", "Download")(page, ctx);
  await page.click("#page button.primary");
  await page.waitForSelector("#page [role=status] .badge-ok", { timeout: 20000 });
}

// People: a card per person of the site, with the facts a manager sees (certifications, texts).
async function peopleCards(page, { title }) {
  await page.waitForSelector("#page article.card dl.facts", { timeout: 20000 });
  const text = await visibleText(page, "#page");
  expect(text.includes("Stations") && text.includes("Certifications") && text.includes("Texts"),
    `${title}: a manager does not see stations, certifications and texts`);
  const alert = await page.$("#page .alert");
  expect(alert === null, `${title}: the page shows an error`);
}

// Schedule: the coming week's draft, an open shift added at the line (findings and labor come back
// with it), filled by the box (the plan's score and why that person), then the week published.
async function schedulesAWeek(page, ctx) {
  await showsSections("The week by person", "Labor", "Let the box propose", "Add a shift",
    "Publish")(page, ctx);
  await page.waitForSelector("#page select[name=station] option[value=line]", { timeout: 20000 });
  await page.select("#page select[name=station]", "line");
  await page.click("#page form button[type=submit]");
  await page.waitForFunction(
    () => (document.querySelector("#page [role=status]") || {}).textContent?.startsWith("Saved"),
    { timeout: 20000 });
  // The week is read again after the answer: wait for it rather than read once.
  const shown = await page.waitForFunction(
    () => { const t = document.querySelector("#page").innerText; return t.includes("Open shifts") && t.includes("8.0 h"); },
    { timeout: 20000 }).then(() => true, () => false);
  expect(shown, `${ctx.title}: the open shift and its 8 open hours are not shown: ${(await visibleText(page, "#page")).slice(0, 300)}`);
  await page.click("#page button[name=fill]");
  await page.waitForFunction(
    () => (document.querySelector("#page .plan-summary") || {}).textContent?.startsWith("filled 1 of 1"),
    { timeout: 20000 });
  const plan = await visibleText(page, "#page .plan");
  expect(plan.includes("Shifts left open") && plan.includes("no premium"),
    `${ctx.title}: the plan's score and its reasons are not shown: ${plan.slice(0, 200)}`);
  // The choice reads as a name and a time, not as a person id and a shift id.
  expect(!/\bp-[a-z]/.test(plan) && /\d\d:\d\d–\d\d:\d\d/.test(plan),
    `${ctx.title}: the plan shows ids where a manager reads names and times: ${plan.slice(0, 300)}`);
  await screenshots(page, ctx.shots, "schedule-filled", "#propose-h");
  await page.click("#page button.primary");
  await page.waitForFunction(
    () => (document.querySelector("#page [role=status]") || {}).textContent?.startsWith("Published"),
    { timeout: 20000 });
  const alert = await page.$("#page .alert");
  expect(alert === null, `${ctx.title}: the page shows an error`);
}

export const pages = [
  { path: "/today", title: "Today", name: "today",
    check: showsSections("On the floor", "Call-outs", "Waiting for a person") },
  { path: "/approvals", title: "Approvals", name: "approvals", check: approvalsList },
  { path: "/call-outs", title: "Call-outs", name: "call-outs", check: showsSections("Open", "Recent") },
  { path: "/schedule", title: "Schedule", name: "schedule", check: schedulesAWeek },
  { path: "/sales", title: "Sales & labor", name: "sales", check: salesLabor.check },
  { path: "/people", title: "People", name: "people", check: peopleCards },
  { path: "/safety", title: "Safety", name: "safety",
    check: showsSections("Open", "Handled recently", "Checklists today") },
  { path: "/policy", title: "Policy", name: "policy",
    check: showsSections("Kill switch", "Breakers", "What the box may do alone", "For a person") },
  { path: "/audit", title: "Audit", name: "audit", check: checksTheLog },
  { path: "/settings", title: "Settings", name: "settings",
    check: showsSections("Texts", "Cloud sync", "Time-clock terminals", "API tokens", "Panel accounts") },
];
