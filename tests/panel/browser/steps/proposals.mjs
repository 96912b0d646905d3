// Staffing proposals on Approvals (daemon/panel/web/proposals.js; docs/forecast.md, "During the
// day"): the register pushes three weeks of sales around this time of day and a rush in the last
// hour (docs/pos.md, "Local push"); the owner presses "Check against the forecast now" and the
// box proposes adding a person at the line with its evidence; Today counts it among the approvals
// waiting; the owner approves it with a note and the card says so.
//
// The box compares the last complete hour of today: in the site's first hour of the day that hour
// is yesterday's, so then the step says it skipped (the API test, tests/api/
// test_forecast_served_api.cpp, runs on a fixed clock and does not).
import { checkAccessibility, click, expect, kSiteZone, newPage, screenshots, type, visibleText }
  from "../lib/browser.mjs";

const kMinute = 60000;
const kDay = 24 * 60 * kMinute;

function siteHour() {
  return Number(new Intl.DateTimeFormat("en-GB", { timeZone: kSiteZone, hour: "2-digit", hourCycle: "h23" })
    .format(new Date()));
}

// Three weeks, each day 2 covers a quarter hour from two hours before this time to one hour after
// (wide enough that a change of daylight saving time keeps the last hour covered); today 40 covers
// half an hour ago: far above the forecast of about 8 for the hour.
async function pushRush(box) {
  const now = Date.now();
  const at = (ms) => new Date(ms).toISOString();
  for (let k = 1; k <= 21; ++k) {
    const orders = [];
    for (let m = -120; m <= 60; m += 15) {
      orders.push({ id: `P-${k}-${m + 120}`, closed_at: at(now - k * kDay + m * kMinute), net_cents: 3000, covers: 2 });
    }
    await box.pushSales(orders);
  }
  await box.pushSales([
    { id: "P-rush-1", closed_at: at(now - 30 * kMinute), net_cents: 40000, covers: 20 },
    { id: "P-rush-2", closed_at: at(now - 35 * kMinute), net_cents: 40000, covers: 20 },
  ]);
}

export async function proposalApproved(ctx) {
  if (siteHour() < 1) {
    console.log("  skipped: in the site's first hour of the day the last hour is yesterday's");
    return;
  }
  const { box } = ctx;
  await pushRush(box);
  const page = await newPage(ctx.owner);
  await page.goto(`${box.origin}/approvals`);
  await visibleText(page, "#page ::-p-text(No staffing proposals today.)");
  await click(page, "#page button::-p-text(Check against the forecast now)");
  const card = "#page article.proposal";
  const heading = await visibleText(page, `${card} h3`);
  expect(heading === "Add a person at Line", `the proposal: "${heading}"`);
  const text = await page.$eval(card, (c) => c.textContent);
  for (const words of ["waiting", "Add one person at Line?", "covers", "against", "above"]) {
    expect(text.includes(words), `the proposal card does not say "${words}": ${text}`);
  }
  const outcome = await visibleText(page, "#proposals-h ~ [role=status]");
  expect(outcome.startsWith("Checked: one new proposal"), `after the check the page says "${outcome}"`);
  await checkAccessibility(page, "Approvals, a staffing proposal");
  await screenshots(page, ctx.shots, "proposal-pending", "#proposals-h");

  const today = await newPage(ctx.owner);
  await today.goto(`${box.origin}/today`);
  const waiting = await visibleText(today, "#waiting-h ~ ul li");
  expect(waiting.includes("one staffing proposal"), `Today's approvals say "${waiting}"`);
  await today.close();

  await page.bringToFront();
  await type(page, `${card} input`, "Ben can come in");
  await click(page, `${card} button.primary::-p-text(Approve)`);
  await page.waitForSelector(`${card} .badge-ok::-p-text(approved)`);
  const decided = await visibleText(page, "#proposals-h ~ [role=status]");
  // The box's own line when it gives one (what the approval set going), else the panel's.
  expect(decided.length > 0, "after Approve the page says nothing");
  const after = await page.$eval(card, (c) => c.textContent);
  expect(after.includes("Ben can come in") && !after.includes("Approve"),
    `the approved proposal: ${after}`);
  await checkAccessibility(page, "Approvals, the proposal approved");
  await screenshots(page, ctx.shots, "proposal-approved", "#proposals-h");
  await page.close();
}
