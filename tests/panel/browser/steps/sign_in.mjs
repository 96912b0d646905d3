// Signing in and out through the page: the sign-in page itself, an invite link, a wrong password,
// sign-out, and the texted code read back from the fake Twilio.
import {
  checkAccessibility, click, expect, newPage, screenshots, type, visibleText,
} from "../lib/browser.mjs";
import { kOwner, kMarkupManager, kPassword } from "../lib/box.mjs";

const kSubmit = "form.sign-in button[type=submit]";

async function choose(page, label) {
  await click(page, `button.choice::-p-text(${label})`);
  await page.waitForSelector(`button.choice[aria-pressed=true]::-p-text(${label})`);
}

async function expectSignedOut(page) {
  await page.waitForSelector("form.sign-in", { visible: true });
  await page.waitForSelector("#pages-nav", { hidden: true });
  expect(await visibleText(page, "#page-title") === "Sign in", "the heading is not 'Sign in'");
  const who = await page.$eval("#who", (e) => e.textContent.trim());
  expect(who === "", `signed out, the strip still says "${who}"`);
  const session = await page.evaluate(async () => (await fetch("/api/session")).status);
  expect(session === 401, `signed out, GET /api/session answers ${session}`);
}

async function expectSignedIn(page, person, role) {
  const name = await visibleText(page, "#who .who strong");
  expect(name === person.name, `signed in, the strip names "${name}", not "${person.name}"`);
  expect(await visibleText(page, "#who .role") === `(${role})`, "the strip shows another role");
  await page.waitForSelector("#pages-nav", { visible: true });
  const links = await page.$$eval("#pages-nav a", (as) => as.length);
  expect(links === 10, `the navigation has ${links} links`);
}

// Signed out: the form alone (no navigation), in each of its three modes, accessible.
export async function signInPage(ctx) {
  ctx.signedOutContext = await ctx.browser.createBrowserContext();
  const page = await newPage(ctx.signedOutContext);
  await page.goto(`${ctx.box.origin}/`);
  await expectSignedOut(page);
  await checkAccessibility(page, "sign-in, password");
  await screenshots(page, ctx.shots, "sign-in");
  await choose(page, "Text me a code");
  await checkAccessibility(page, "sign-in, code");
  await choose(page, "I have an invite");
  await checkAccessibility(page, "sign-in, invite");
  ctx.signedOut = page;
}

// The owner follows the invite link, chooses a password and is signed in.
export async function inviteLink(ctx) {
  const token = ctx.box.invite(kOwner.id);
  ctx.owner = await ctx.browser.createBrowserContext();
  const page = await newPage(ctx.owner);
  await page.goto(`${ctx.box.origin}/sign-in#invite=${token}`);
  const filled = await (await page.waitForSelector("#invite")).evaluate((e) => e.value);
  expect(filled === token, "the invite form is not filled in from the link");
  expect(!page.url().includes("#"), "the invite stays in the address bar");
  await type(page, "#password", kPassword);
  await click(page, kSubmit);
  await expectSignedIn(page, kOwner, "owner");
  ctx.ownerPage = page;
}

// A wrong password: the error is shown and nobody is signed in.
export async function wrongPassword(ctx) {
  const page = ctx.signedOut;
  await page.reload();
  await choose(page, "Password");
  await type(page, "#login", kOwner.id);
  await type(page, "#password", "not the password at all");
  await click(page, kSubmit);
  const alert = await visibleText(page, "form.sign-in .alert[role=alert]");
  expect(alert === "sign-in failed: check your login and password", `the error says "${alert}"`);
  await expectSignedOut(page);
  await checkAccessibility(page, "sign-in, wrong password");
  await screenshots(page, ctx.shots, "sign-in-error");
  // Done with this browser: closing it closes its connections (see signOut).
  await ctx.signedOutContext.close();
}

// Sign out from the strip: back to the form, the session ends on the box, the cookie goes.
export async function signOut(ctx) {
  const page = ctx.ownerPage;
  await click(page, "#who button.sign-out");
  await expectSignedOut(page);
  const cookies = await page.cookies();
  expect(!cookies.some((c) => c.name === "__Host-atoms_session"), "the session cookie is still set");
  await page.reload();
  await expectSignedOut(page);
  // Done with this browser. Its idle keep-alive connections would otherwise hold the panel's
  // server threads (8, one per open connection, kept 15 s: drivers/http/http_service.cpp), and a
  // third browser's page would wait for them: the test keeps at most two browsers open at once.
  await ctx.owner.close();
}

// The manager whose name is markup accepts an invite (typed in), signs out, then signs in with a
// code texted through the fake Twilio. The name shows as text; no script runs.
export async function codeSignIn(ctx) {
  const token = ctx.box.invite(kMarkupManager.id);
  const context = await ctx.browser.createBrowserContext();
  const page = await newPage(context);
  await page.goto(`${ctx.box.origin}/sign-in`);
  await choose(page, "I have an invite");
  await type(page, "#invite", token);
  await type(page, "#password", kPassword);
  await click(page, kSubmit);
  await expectSignedIn(page, kMarkupManager, "manager");
  await click(page, "#who button.sign-out");
  await expectSignedOut(page);

  await choose(page, "Text me a code");
  await type(page, "#login", kMarkupManager.phone);
  await click(page, kSubmit);
  await page.waitForSelector("form.sign-in [role=status]", { visible: true });
  await checkAccessibility(page, "sign-in, code sent");
  await screenshots(page, ctx.shots, "sign-in-code");
  const [, code] = await ctx.box.waitForText(kMarkupManager.phone, /panel is (\d{6})\b/);
  await type(page, "#code", code);
  await click(page, kSubmit);
  await expectSignedIn(page, kMarkupManager, "manager");
  ctx.markupPage = page;
  ctx.markupContext = context;
}
