// What the browser itself enforces: the session cookie's flags, a name that is markup rendered as
// text, and form posts from another origin refused without changing anything.
import http from "node:http";
import { checkAccessibility, expect, newPage, screenshots } from "../lib/browser.mjs";
import { freePort, kMarkupManager, kOwner, kPassword } from "../lib/box.mjs";

// HttpOnly, Secure, SameSite=Strict, the __Host- prefix (host-only, Path=/), as the browser keeps it.
export async function cookieFlags(ctx) {
  const page = ctx.ownerPage;
  const cookies = await page.cookies();
  const session = cookies.find((c) => c.name === "__Host-atoms_session");
  expect(session, `no __Host-atoms_session cookie (cookies: ${cookies.map((c) => c.name)})`);
  expect(session.httpOnly === true, "the session cookie is not HttpOnly");
  expect(session.secure === true, "the session cookie is not Secure");
  expect(session.sameSite === "Strict", `the session cookie is SameSite=${session.sameSite}`);
  expect(session.path === "/", `the session cookie's path is ${session.path}`);
  expect(session.domain === "127.0.0.1", `the session cookie's domain is ${session.domain}`);
  expect(session.session === true, "the session cookie outlives the browser session");
  const script = await page.evaluate(() => document.cookie);
  expect(!script.includes("atoms_session"), "script can read the session cookie");
}

// The manager named `<img src=x onerror=alert(1)>`: the strip shows the name as text, no element
// comes of it, no dialog opens, no script error.
export async function markupNameIsText(ctx) {
  const page = ctx.markupPage;
  await page.reload();
  await page.waitForSelector("#who .who strong", { visible: true });
  const strip = await page.$eval("#who .who strong", (e) => ({
    text: e.textContent, children: e.children.length,
  }));
  expect(strip.text === kMarkupManager.name, `the strip shows "${strip.text}"`);
  expect(strip.children === 0, "the name became markup");
  const images = await page.$$eval("img", (is) => is.map((i) => i.getAttribute("src")));
  expect(images.every((s) => s !== "x"), `an <img src=x> is in the page (${images})`);
  expect(page.dialogs.length === 0, `dialogs opened: ${page.dialogs}`);
  await checkAccessibility(page, "signed in, a name that is markup");
  await screenshots(page, ctx.shots, "markup-name");
}

// Pages on another loopback origin (plain HTTP, another port) that post forms to the panel when
// opened: a sign-out with the victim's cookie, and a sign-in as the owner with the right password
// sent as JSON in a text/plain form (login CSRF). Both refused; the owner stays signed in with the
// same cookie.
export async function crossOriginPosts(ctx) {
  const { box } = ctx;
  const form = (action, enctype, name, value) => `<!doctype html><html lang="en"><title>x</title>
<body><form id="f" method="POST" action="${box.origin}${action}" enctype="${enctype}">
<input type="hidden" name='${name}' value='${value}'></form>
<script>document.getElementById("f").submit();</script></body></html>`;
  const attacks = {
    "/sign-out": form("/api/session/end", "application/x-www-form-urlencoded", "x", "1"),
    "/sign-in": form("/api/session", "text/plain",
      `{"login":"${kOwner.id}","password":"${kPassword}","x":"`, '"}'),
  };
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(attacks[req.url] || "");
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  try {
    const victim = ctx.ownerPage;
    const before = (await victim.cookies()).find((c) => c.name === "__Host-atoms_session");
    expect(before, "the owner is not signed in before the attack");
    for (const [what, target] of [["/sign-out", "/api/session/end"], ["/sign-in", "/api/session"]]) {
      const page = await newPage(ctx.owner);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${box.origin}${target}`),
        page.goto(`http://127.0.0.1:${port}${what}`),
      ]);
      // 403: refused by the Origin check (and, for the sign-out, the missing CSRF token).
      expect(answer.status() === 403, `a cross-origin post to ${target} got ${answer.status()}`);
      await page.close();
      const after = (await victim.cookies()).find((c) => c.name === "__Host-atoms_session");
      expect(after && after.value === before.value,
        `a cross-origin post to ${target} changed the session cookie`);
      const still = await victim.evaluate(async () => {
        const r = await fetch("/api/session");
        return { status: r.status, body: await r.json() };
      });
      expect(still.status === 200 && still.body.person.id === kOwner.id,
        `after a cross-origin post to ${target} the owner's session answers ${still.status}`);
    }
  } finally {
    server.close();
  }
}
