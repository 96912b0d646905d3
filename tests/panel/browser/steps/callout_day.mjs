// A call-out day as the owner runs it from the panel (issue 17, "Tests"): Today stays open in one
// tab, never reloaded, while texts come and go through the fake Twilio; the other pages are used
// in a second tab. Rosa texts that Carl is not in; Today shows the call-out and its offers; Mia,
// who would work overtime, takes it; her approval waits on the Approvals page for Olga, her
// manager of record, who approves it there; Today shows "Covered by Mia Chen". The Call-outs page
// shows the decisions; the kill switch goes to L1 and back with Today's banner following.
import {
  checkAccessibility, click, expect, kDeadline, newPage, screenshots, visibleText,
} from "../lib/browser.mjs";
import { fail, kAbsent, kCover, kLead, kOvertime } from "../lib/box.mjs";

const kCard = "#page article.card";

// Waits until the Today tab's card for Carl's shift has every one of `words` and, when given,
// `offers` offers.
async function waitForCard(page, { words, offers }, what) {
  try {
    await page.waitForFunction((absent, ws, n) => {
      const card = [...document.querySelectorAll("#page article.card")]
        .find((c) => c.querySelector("h3").textContent.includes(`${absent}'s shift`));
      return card && ws.every((w) => card.textContent.includes(w)) &&
        (n === null || card.querySelectorAll("ul.offers li").length === n);
    }, { timeout: kDeadline }, kAbsent.name, words, offers ?? null);
  } catch {
    const cards = await page.$$eval(kCard, (cs) => cs.map((c) => c.textContent.trim()));
    throw new Error(`Today: ${what} within ${kDeadline} ms; the cards say: ${JSON.stringify(cards)}`);
  }
}

// The page was not loaded again since markNotReloaded(): what it shows came from live updates.
async function markNotReloaded(page) {
  await page.evaluate(() => {
    window.atomsNotReloaded = true;
  });
}

async function expectNotReloaded(page) {
  expect(await page.evaluate(() => window.atomsNotReloaded === true), "the Today page was reloaded");
}

// The offers' states on the card, by name: { "Ben Ode": "asked", ... }.
async function offerStates(page) {
  return page.$$eval(`${kCard} ul.offers li`, (lis) => Object.fromEntries(lis.map((li) => [
    li.firstChild.textContent.trim(), li.querySelector(".badge").textContent.trim(),
  ])));
}

async function goTo(page, pathname, title) {
  await Promise.all([page.waitForNavigation(), click(page, `#pages-nav a[href="${pathname}"]`)]);
  await page.waitForSelector("#who .who strong", { visible: true });
  const heading = await visibleText(page, "#page-title");
  expect(heading === title, `${pathname}: the heading is "${heading}"`);
}

// Today open; the lead's text opens a call-out; the card and its three offers appear live.
export async function calloutStarts(ctx) {
  const { box } = ctx;
  const today = ctx.ownerPage;
  await goTo(today, "/today", "Today");
  await visibleText(today, "#callouts-h");
  await today.waitForSelector("#page ::-p-text(No open call-outs.)");
  await markNotReloaded(today);
  await box.textIn(kLead.phone, `${kAbsent.name.split(" ")[0]} isn't here, I'm alone on the line`);
  await box.waitForText(kLead.phone, /Finding cover for Carl/);
  await waitForCard(today, { words: ["Finding cover"], offers: 3 }, "no call-out with three offers");
  const offers = await offerStates(today);
  expect(Object.values(offers).every((s) => s === "asked"), `the offers: ${JSON.stringify(offers)}`);
  expect(kCover.name in offers && kOvertime.name in offers, `offered: ${Object.keys(offers)}`);
  const reporter = await today.$eval(kCard, (c) => c.textContent);
  expect(reporter.includes(`by ${kLead.name}`), "the card does not say who reported it");
  await expectNotReloaded(today);
  await checkAccessibility(today, "Today, a call-out finding cover");
  await screenshots(today, ctx.shots, "today-callout");
}

// Mia takes the offer by text: her taking needs overtime, so it waits for Olga. In a second tab
// the Approvals page lists it with its evidence; Olga approves; Today (first tab) shows the cover.
export async function overtimeApproved(ctx) {
  const { box } = ctx;
  const today = ctx.ownerPage;
  const [, code] = await box.waitForText(kOvertime.phone, /Reply (\d{4}) to take it/);
  await box.textIn(kOvertime.phone, `${code} yes I can`);
  await box.waitForText(kOvertime.phone, /overtime/);
  await waitForCard(today, { words: ["waiting for approval"] }, "Mia's offer is not waiting for approval");

  const tab = await newPage(ctx.owner);
  ctx.secondTab = tab;
  await tab.goto(`${box.origin}/today`);
  await goTo(tab, "/approvals", "Approvals");
  const heading = await visibleText(tab, "#page article.card h3");
  // Who, where and when, in the panel's own time format (not the text message's 24-hour summary).
  expect(heading.startsWith(`Overtime: ${kOvertime.name}, Line, `) && !heading.includes("17:00"),
    `the approval: "${heading}"`);
  const card = await tab.$eval("#page article.card", (c) => c.textContent);
  expect(card.includes("pending"), `the approval card says: ${card}`);
  await click(tab, "#page article.card details summary");
  await tab.waitForSelector("#page article.card details[open] ul.rows li", { visible: true });
  await checkAccessibility(tab, "Approvals, one waiting");
  await screenshots(tab, ctx.shots, "approvals-pending", "#page article.card");

  await click(tab, "#page article.card button.primary::-p-text(Approve)");
  const outcome = await visibleText(tab, "#page [role=status]");
  expect(/approved|Mia/i.test(outcome), `after Approve the page says "${outcome}"`);
  await tab.waitForSelector("#page ::-p-text(Nothing is waiting for approval.)");
  await checkAccessibility(tab, "Approvals, approved");
  await screenshots(tab, ctx.shots, "approvals-approved");

  // Back to the first tab (in front: chromium paints only that one), never reloaded.
  await today.bringToFront();

  await waitForCard(today, { words: [`Covered by ${kOvertime.name}`] }, "no cover shown");
  const offers = await offerStates(today);
  expect(offers[kOvertime.name] === "took it", `Mia's offer: ${offers[kOvertime.name]}`);
  await expectNotReloaded(today);
  await box.waitForText(kOvertime.phone, /Approved: you're on/);
  await box.waitForText(kLead.phone, /Covered: Mia/);
  await box.waitForText(kCover.phone, /covered now/);
  await checkAccessibility(today, "Today, the call-out covered");
  await screenshots(today, ctx.shots, "today-covered");
}

// From Today's card to the Call-outs page: the call-out with its decisions opened, the offers
// wave and the shift given after the approval.
export async function calloutDecisions(ctx) {
  const tab = ctx.secondTab;
  await tab.bringToFront();
  await goTo(tab, "/today", "Today");
  await Promise.all([tab.waitForNavigation(),
    click(tab, "#page article.card a::-p-text(Details and receipts)")]);
  await tab.waitForSelector("#page button[aria-expanded=true]::-p-text(Hide the decisions)");
  const outcomes = () => tab.$$eval("#page ol.receipts > li > strong",
    (es) => es.map((e) => e.textContent.trim()));
  try {
    await tab.waitForFunction(() => {
      const words = [...document.querySelectorAll("#page ol.receipts > li > strong")]
        .map((e) => e.textContent.trim());
      return words.includes("Offers sent") && words.includes("Shift given");
    }, { timeout: kDeadline });
  } catch {
    fail(`Call-outs: the decisions shown are ${JSON.stringify(await outcomes())}; the page says: ` +
      `${await tab.$eval("#page", (e) => e.textContent)}`);
  }
  const offered = await tab.$eval("#page ol.receipts", (e) => e.textContent);
  expect(offered.includes("Offered, in order:") && offered.includes(kOvertime.name),
    `the wave's receipt: ${offered}`);
  await checkAccessibility(tab, "Call-outs, decisions open");
  await screenshots(tab, ctx.shots, "call-outs-decisions", "#page article.card");
}

async function changeKillSwitch(tab, level, reason, shots) {
  await tab.select("#ks-level", level);
  const input = await tab.waitForSelector("#ks-reason", { visible: true });
  await input.type(reason);
  await click(tab, "#page form button[type=submit]::-p-text(Change the kill switch)");
  await tab.waitForSelector("#page [role=alertdialog]", { visible: true });
  const question = await visibleText(tab, "#ks-confirm");
  expect(question.includes(`→ ${level}`) && question.endsWith("Are you sure?"),
    `the confirmation says "${question}"`);
  if (shots !== undefined) {
    await checkAccessibility(tab, `Policy, confirming ${level}`);
    await screenshots(tab, shots, "policy-confirm");
  }
  await click(tab, "#page [role=alertdialog] button.primary::-p-text(Yes, change it)");
  await tab.waitForSelector("#page [role=alertdialog]", { hidden: true });
  await tab.waitForFunction((l) => [...document.querySelectorAll("#page .badge")]
    .some((b) => b.textContent.trim() === l), { timeout: kDeadline }, level);
}

// The kill switch to L1 with a reason, confirmed: Today's banner says texts are paused; back to
// L0: the banner goes. Today is never reloaded.
export async function killSwitchUpAndDown(ctx) {
  const tab = ctx.secondTab;
  const today = ctx.ownerPage;
  await tab.bringToFront();
  await goTo(tab, "/policy", "Policy");
  await visibleText(tab, "#ks-h");
  await changeKillSwitch(tab, "L1", "Checking the offers by hand", ctx.shots);
  await today.bringToFront();
  await today.waitForSelector("#page .banner ::-p-text(Texts are paused (L1))", { visible: true });
  const banner = await visibleText(today, "#page .banner");
  expect(banner.includes("Checking the offers by hand"), `the banner says "${banner}"`);
  await expectNotReloaded(today);
  await checkAccessibility(today, "Today, kill switch at L1");
  await screenshots(today, ctx.shots, "today-l1");
  await tab.bringToFront();
  await changeKillSwitch(tab, "L0", "Offers checked");
  await today.bringToFront();
  await today.waitForSelector("#page .banner", { hidden: true });
  await expectNotReloaded(today);
  await tab.close();
  ctx.secondTab = null;
}
