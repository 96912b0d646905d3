// Sales & labor (daemon/panel/web/sales.js): the register pushes today's and last week's sales
// (docs/pos.md, "Local push"); the page shows labor against sales today by hour, as a chart with
// its table, then the week by day; and when the till's data is stale it says so, and for how
// long, above the figures.
import { click, expect, newPage, screenshots, visibleText } from "../lib/browser.mjs";

const kMinute = 60000;

function figure(page, term) {
  return page.$$eval("#page dl.figures div", (divs, t) => {
    const div = divs.find((d) => d.querySelector("dt").textContent.trim() === t);
    return div ? div.querySelector("dd").textContent.trim() : null;
  }, term);
}

async function chartAndTable(page, caption) {
  await page.waitForSelector("#page figure.chart svg rect.sales-projected");
  await page.waitForSelector(`#page table.sales-table caption::-p-text(${caption})`);
  const rows = await page.$$eval("#page table.sales-table tbody tr", (trs) => trs.length);
  expect(rows > 0, `${caption}: the table has no rows`);
}

export async function check(page, ctx) {
  const now = Date.now();
  const at = (ms) => new Date(ms).toISOString();
  await ctx.box.pushSales([
    { id: "T-today-1", closed_at: at(now - 2 * kMinute), net_cents: 12345, covers: 2 },
    { id: "T-week-1", closed_at: at(now - 7 * 24 * 60 * kMinute + 30 * kMinute), net_cents: 40000 },
    { id: "T-week-2", closed_at: at(now - 7 * 24 * 60 * kMinute + 90 * kMinute), net_cents: 20000 },
  ]);
  await page.reload();
  await page.waitForSelector("#page dl.figures");
  const soFar = await figure(page, "Sales so far");
  expect(soFar === "$123.45", `${ctx.title}: sales so far is "${soFar}"`);
  const percent = await figure(page, "Labor % so far");
  expect(/^\d+\.\d\d %$/.test(percent), `${ctx.title}: labor % so far is "${percent}"`);
  await chartAndTable(page, "Sales and labor by hour");
  const note = await visibleText(page, "#page section p.note");
  // The forecast once the till has a week of sales, the weekday average before (decision 0038).
  expect(note.includes("the same weekday's average over the last four weeks") ||
    note.includes("the demand forecast (the site's own sales history"),
    `${ctx.title}: the projection does not say its source: "${note}"`);
  expect(await page.$("#page .banner") === null, `${ctx.title}: a fresh till shows a banner`);
  await screenshots(page, ctx.shots, "sales-day");

  await click(page, "#page button.choice::-p-text(A week by day)");
  await chartAndTable(page, "Sales and labor by day");
  const week = await figure(page, "Sales so far");
  expect(week === "$123.45", `${ctx.title}: the week's sales so far is "${week}"`);
  await screenshots(page, ctx.shots, "sales-week");
  await click(page, "#page button.choice::-p-text(A day by hour)");
  await page.waitForSelector("#page table.sales-table caption::-p-text(Sales and labor by hour)");
}

// The till's data stale for 2 h 10 min: the POS health in the answer is made stale in the page
// (PosHealth's own rules are tested in tests/pos/test_pos_health.cpp); the page says so and for
// how long, above the figures. A page of its own, so the owner's page keeps the real answers.
export async function staleTill(ctx) {
  const page = await newPage(ctx.owner);
  const staleSince = new Date(Date.now() - 130 * kMinute).toISOString();
  await page.evaluateOnNewDocument((since) => {
    const real = window.fetch;
    window.fetch = async (...args) => {
      const reply = await real(...args);
      if (!String(args[0]).startsWith("/api/v1/sales/labor")) return reply;
      const body = await reply.json();
      body.pos = { on: true, fresh: false, staleSince: since,
        reason: "POS square is failing: the connection was refused", sources: [] };
      return new Response(JSON.stringify(body), { status: reply.status, headers: reply.headers });
    };
  }, staleSince);
  await page.goto(`${ctx.box.origin}/sales`);
  const banner = await visibleText(page, "#page .banner");
  expect(banner.includes("not up to date for 2 h 10 min"), `the stale banner says "${banner}"`);
  expect(banner.includes("the connection was refused"), `the banner gives no reason: "${banner}"`);
  await page.waitForSelector("#page dl.figures");
  await screenshots(page, ctx.shots, "sales-stale");
  await page.close();
}
