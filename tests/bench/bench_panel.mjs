// bench_panel: the manager's panel as a browser and a load generator see it (docs/benchmarks.md,
// "bench_panel"). Figures, not a timed test: each printed beside its goal (issue 17).
//   1. the panel's JSON endpoints (kEndpoints) with a signed-in session cookie at a fixed offered
//      rate (default 200 requests/s), while call-outs run: a lead's text has opened a call-out,
//      an overtime taker's approval waits, and texts keep coming in (--texts per second) through
//      the fake Twilio: achieved requests/s, p50, p99, max; goal p99 under 25 ms.
//      Latency counts from when a request was due, not when it left, so a stall shows in full.
//      Then wrk (closed loop, a few connections): the most the endpoint serves, for scale.
//   2. page weight: the gzip size of every asset the page loads (signed in), goal under 150 KB.
//   3. time to first render in Chromium at 4x CPU throttling, cold cache, median of N loads: the
//      sign-in form (signed out) and the signed-in view; goal under 1 s.
// Runs a fake Twilio and `atoms-edge serve` on loopback (tests/panel/browser/lib/box.mjs).
//
//   bash tests/bench/bench_panel.sh --edge build/daemon/atoms-edge \
//       --fake-twilio build/tests/tools/fake_twilio_server [--seconds 10] [--rate 200] [--loads 5]
//       [--texts 5]
import { execFileSync } from "node:child_process";
import https from "node:https";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import {
  Box, kAbsent, kCook, kCover, kLead, kOvertime, kOwner, kPassword,
} from "../panel/browser/lib/box.mjs";
import { launchChromium } from "../panel/browser/lib/browser.mjs";

// The endpoints benchmarked, in one place: the session look-up every page makes, and the JSON of
// Today and Approvals (issue 17).
const kEndpoints = ["/api/session", "/api/v1/today", "/api/v1/approvals"];
const kGoalP99Ms = 25;
const kGoalWeightBytes = 150 * 1024;
const kGoalFirstRenderMs = 1000;

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    edge: { type: "string" },
    "fake-twilio": { type: "string" },
    source: { type: "string", default: path.resolve(here, "../..") },
    seconds: { type: "string", default: "10" },
    rate: { type: "string", default: "200" },
    loads: { type: "string", default: "5" },
    texts: { type: "string", default: "5" },
  },
});
if (!values.edge || !values["fake-twilio"]) {
  console.error("usage: bench_panel.sh --edge ATOMS_EDGE --fake-twilio FAKE_TWILIO_SERVER " +
    "[--seconds N] [--rate N] [--loads N]");
  process.exit(2);
}
const seconds = Number(values.seconds);
const rate = Number(values.rate);
const loads = Number(values.loads);
const textsPerSecond = Number(values.texts);

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
const ms = (x) => x.toFixed(1);

async function signIn(box) {
  const reply = await box.request("/api/invite/accept", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: box.origin },
    body: JSON.stringify({ token: box.invite(kOwner.id), password: kPassword }),
  });
  if (reply.status !== 200) throw new Error(`sign-in: ${reply.status} ${reply.body}`);
  return reply.headers["set-cookie"][0].split(";")[0];
}

// Call-outs running: Rosa's text opens one for Carl's shift (three offers go out); Mia, who would
// work overtime, takes it, so an approval waits for Olga. Resolves once both are so.
async function startCallouts(box) {
  await box.textIn(kLead.phone, `${kAbsent.name.split(" ")[0]} isn't here, I'm alone on the line`);
  const [, code] = await box.waitForText(kOvertime.phone, /Reply (\d{4}) to take it/);
  await box.textIn(kOvertime.phone, code);
  await box.waitForText(kOvertime.phone, /overtime/);
}

// Texts coming in at `perSecond` while the endpoints are measured, each handled by the
// conversation layer and most answered by a text out: the lead reporting Carl again ("already
// finding cover"), Cora running late (her manager is told), Ben asking for a number (refused).
// Returns stop(), which resolves to { sent, failed }.
function keepTexting(box, perSecond) {
  const texts = [
    [kLead.phone, `${kAbsent.name.split(" ")[0]} didn't show`],
    [kCook.phone, "running 10 min late"],
    [kCover.phone, "what's Rosa's number?"],
  ];
  let sent = 0;
  let failed = 0;
  let i = 0;
  const pending = new Set();
  const timer = perSecond > 0 ? setInterval(() => {
    const [from, body] = texts[i++ % texts.length];
    const p = box.textIn(from, body).then(() => sent++, () => failed++);
    pending.add(p);
    p.finally(() => pending.delete(p));
  }, 1000 / perSecond) : null;
  return async () => {
    if (timer) clearInterval(timer);
    await Promise.all(pending);
    return { sent, failed };
  };
}

// Requests at `rate` per second for `seconds`, over a few keep-alive connections (fewer than the
// panel's 8 server threads: each open connection holds one).
async function fixedRate(box, pathname, cookie) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 4 });
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies = [];
  let errors = 0;
  const start = performance.now();
  const done = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));  // the schedule, not a test wait
    done.push(box.request(pathname, { headers: { Cookie: cookie }, agent }).then((r) => {
      if (r.status === 200) latencies.push(performance.now() - due);
      else errors++;
    }, () => errors++));
  }
  await Promise.all(done);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  console.log(`GET ${pathname} at ${rate}/s offered for ${seconds} s: ${(latencies.length / elapsed).toFixed(0)} ` +
    `answered/s, p50 ${ms(percentile(latencies, 50))} ms, p99 ${ms(p99)} ms, ` +
    `max ${ms(latencies[latencies.length - 1] ?? NaN)} ms, errors ${errors} ` +
    `(goal p99 < ${kGoalP99Ms} ms: ${p99 < kGoalP99Ms ? "met" : "NOT met"})`);
}

function wrk(box, pathname, cookie) {
  let out;
  try {
    out = execFileSync("wrk", ["-t1", "-c4", `-d${Math.max(1, Math.round(seconds / 2))}s`, "--latency",
      "-H", `Cookie: ${cookie}`, `${box.origin}${pathname}`], { encoding: "utf8" });
  } catch (error) {
    console.log(`wrk: not run (${error.code === "ENOENT" ? "not installed: scripts/deps.sh" : error.message})`);
    return;
  }
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /\s50%\s+(\S+)/.exec(out);
  const p99 = /\s99%\s+(\S+)/.exec(out);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  console.log(`wrk GET ${pathname}, closed loop, 4 connections: ${rps ? rps[1] : "?"} requests/s, ` +
    `p50 ${p50 ? p50[1] : "?"}, p99 ${p99 ? p99[1] : "?"}${non2xx ? `, non-2xx ${non2xx[1]}` : ""}`);
}

// Every asset the signed-in page loads (not /api/), as the box sends it to a gzip-accepting browser.
async function pageWeight(box, browser, cookie) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setCookie({ name: cookie.split("=")[0], value: cookie.slice(cookie.indexOf("=") + 1),
    url: box.origin, secure: true, httpOnly: true, sameSite: "Strict" });
  const paths = new Set();
  page.on("response", (r) => {
    const u = new URL(r.url());
    if (u.origin === box.origin && !u.pathname.startsWith("/api/")) paths.add(u.pathname);
  });
  // Not "networkidle0": the page's live stream (/api/events) stays open. Today's sections are
  // rendered from its JSON once every module has loaded.
  await page.goto(`${box.origin}/today`, { waitUntil: "load" });
  await page.waitForSelector("#who .who strong");
  await page.waitForSelector("#callouts-h");
  await context.close();
  let gzip = 0;
  let raw = 0;
  const rows = [];
  for (const p of [...paths].sort()) {
    const r = await box.request(p, { headers: { "Accept-Encoding": "gzip" } });
    const sent = r.body.length;
    const plain = r.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(r.body).length : sent;
    gzip += sent;
    raw += plain;
    rows.push(`  ${p}: ${sent} bytes sent (${plain} bytes plain)`);
  }
  console.log(`page weight: ${paths.size} assets, ${(gzip / 1024).toFixed(1)} KB as sent (gzip), ` +
    `${(raw / 1024).toFixed(1)} KB plain (goal < ${kGoalWeightBytes / 1024} KB: ` +
    `${gzip < kGoalWeightBytes ? "met" : "NOT met"})`);
  console.log(rows.join("\n"));
}

// From the start of navigation to `selector` being in the page (an observer installed before the
// page's own scripts notes the moment), in a fresh context (cold cache) at 4x CPU throttling; the
// first contentful paint beside it. Taken inside the page: waiting from outside (the DevTools
// protocol) would add its own round trips, slowed by the throttling too.
async function firstRender(box, browser, what, pathname, selector, cookie) {
  const times = [];
  const paints = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setCacheEnabled(false);
    if (cookie) {
      await page.setCookie({ name: cookie.split("=")[0], value: cookie.slice(cookie.indexOf("=") + 1),
        url: box.origin, secure: true, httpOnly: true, sameSite: "Strict" });
    }
    await page.evaluateOnNewDocument((sel) => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector(sel)) return;
        window.atomsRenderedAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    }, selector);
    const cdp = await page.createCDPSession();
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.goto(`${box.origin}${pathname}`, { waitUntil: "domcontentloaded" });
    await page.waitForFunction(() => window.atomsRenderedAt !== undefined, { timeout: 20000 });
    const t = await page.evaluate(() => {
      const fcp = performance.getEntriesByName("first-contentful-paint")[0];
      return { rendered: window.atomsRenderedAt, fcp: fcp ? fcp.startTime : NaN };
    });
    times.push(t.rendered);
    paints.push(t.fcp);
    await context.close();
  }
  times.sort((a, b) => a - b);
  paints.sort((a, b) => a - b);
  const median = percentile(times, 50);
  console.log(`first render, ${what} (${pathname}), 4x CPU throttling, median of ${loads}: ` +
    `${ms(median)} ms (min ${ms(times[0])}, max ${ms(times[times.length - 1])}); first contentful ` +
    `paint ${ms(percentile(paints, 50))} ms (goal < ${kGoalFirstRenderMs} ms: ` +
    `${median < kGoalFirstRenderMs ? "met" : "NOT met"})`);
}

const box = new Box({ edge: values.edge, fakeTwilio: values["fake-twilio"], source: values.source });
let browser;
let failed = false;
try {
  await box.start();
  const cookie = await signIn(box);
  console.log(`panel benchmark (${values.edge}; ${seconds} s per endpoint, ${loads} page loads)`);
  await startCallouts(box);
  const stopTexting = keepTexting(box, textsPerSecond);
  const textsFrom = Date.now();
  for (const endpoint of kEndpoints) {
    await fixedRate(box, endpoint, cookie);
    wrk(box, endpoint, cookie);
  }
  const texted = await stopTexting();
  console.log(`while measured: a call-out open with an approval waiting; ${texted.sent} texts in ` +
    `over ${((Date.now() - textsFrom) / 1000).toFixed(0)} s (${textsPerSecond}/s offered), ` +
    `${texted.failed} refused`);
  browser = await launchChromium(box);
  await pageWeight(box, browser, cookie);
  await firstRender(box, browser, "signed out", "/", "form.sign-in");
  await firstRender(box, browser, "signed in", "/today", "#who .who strong", cookie);
} catch (error) {
  console.error(`bench_panel: ${error.stack || error}`);
  failed = true;
} finally {
  if (browser) await browser.close().catch(() => {});
  try {
    await box.stop();
  } catch (error) {
    console.error(`bench_panel: ${error.message}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
