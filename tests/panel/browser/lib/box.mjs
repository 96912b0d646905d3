// A box for the browser test and the panel benchmarks: a fake Twilio (tests/tools/
// fake_twilio_server) and `atoms-edge serve` with the panel on 127.0.0.1 at a free port, on a
// fresh state directory made with the real commands (init, site import, panel invite). Every
// child is ended by stop(), and by the process's exit handler if the caller never gets there.
import { spawn, execFileSync } from "node:child_process";
import { createHash, createHmac, randomBytes, X509Certificate } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const kPassword = "correct horse battery";
export const kOwner = { id: "p-olga", name: "Olga Berg", phone: "+14155550101" };
// A manager of record whose name is markup: the panel must show it as text.
export const kMarkupManager = {
  id: "p-markup",
  name: "<img src=x onerror=alert(1)>",
  phone: "+14155550102",
};
export const kCook = { id: "p-cook", name: "Cora Cook", phone: "+14155550103" };
// The call-out day (steps/callout_day.mjs): Rosa leads the shift and texts that Carl is not in;
// Ben and Mia can cover the line, Mia only with overtime (she works the morning too). Olga, the
// owner, is the manager of record of all three, so she approves Mia's overtime in the panel.
export const kLead = { id: "p-rosa", name: "Rosa Diaz", phone: "+14155550104" };
export const kAbsent = { id: "p-carl", name: "Carl Reed", phone: "+14155550105" };
export const kCover = { id: "p-ben", name: "Ben Ode", phone: "+14155550106" };
export const kOvertime = { id: "p-mia", name: "Mia Chen", phone: "+14155550107" };
export const kBoxNumber = "+15550100000";
const kZone = "America/Los_Angeles";
const kPublicUrl = "https://box.example.net/atoms";
// The register that pushes the site's sales (docs/pos.md, "Local push"; steps/sales_labor.mjs).
export const kRegister = "register-1";
const kRegisterToken = "register-token-5c2b8e407d3e9a1f";

const children = new Set();
process.on("exit", () => {
  for (const child of children) {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
});

// A signal ends the run through process.exit, so the handler above ends the children.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => process.exit(128 + os.constants.signals[signal]));
}

export function fail(what) {
  throw new Error(what);
}

// Resolves when `test()` is true of the accumulated text, or rejects after `ms`.
function waitForOutput(child, stream, test, ms, what) {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${what}: nothing within ${ms} ms; it wrote:\n${text}`));
    }, ms);
    const onData = (chunk) => {
      text += chunk;
      const found = test(text);
      if (found) {
        cleanup();
        resolve(found);
      }
    };
    const onExit = (code, signal) => {
      cleanup();
      reject(new Error(`${what}: exited (${code ?? signal}) before it was ready:\n${text}`));
    };
    function cleanup() {
      clearTimeout(timer);
      stream.off("data", onData);
      child.off("exit", onExit);
    }
    stream.setEncoding("utf8");
    stream.on("data", onData);
    child.on("exit", onExit);
  });
}

function startChild(file, args, options = {}) {
  const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

// Ends `child` with SIGTERM, SIGKILL after `ms`; resolves to its exit code (or 128 + signal).
function endChild(child, ms = 20000) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve(child.exitCode ?? 128);
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? 128 + (os.constants.signals[signal] || 0));
    });
    child.kill("SIGTERM");
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// The site's local date and hour now, in its time zone: { date: "YYYY-MM-DD", hour }.
function localNow(zone) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-CA", {
    timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", hourCycle: "h23",
  }).formatToParts(new Date()).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

// The day whose 17:00-23:00 shift is still ahead in the site's zone: today until 16:00 local
// time, else tomorrow (as tests/sms/serve/test_serve_callout.cpp), so the test runs at any hour.
export function shiftDay(zone = kZone) {
  const now = localNow(zone);
  if (now.hour < 16) return now.date;
  const next = new Date(`${now.date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

function siteFile() {
  const person = (p, extra = {}) => ({
    id: p.id,
    name: p.name,
    phone: p.phone,
    roles: ["line"],
    hourlyRateCents: 2500,
    birthDate: "1990-05-05",
    smsConsent: { granted: true, at: "2026-01-06T10:00:00-08:00" },
    // The line handles food: California's rule wants the card (etc/labor/us-ca.json).
    certifications: [{ id: "ca_food_handler_card" }],
    ...extra,
  });
  const day = shiftDay();
  const shift = (id, station, assignee, from, to) => ({
    id, station, start: `${day}T${from}`, end: `${day}T${to}`, assignee,
  });
  return {
    version: 1,
    site: {
      id: "site-browser",
      name: "Bistro Browser",
      timeZone: kZone,
      jurisdictions: ["us", "us-ca"],
      industry: "full_service_restaurant",
    },
    certifications: [{ id: "ca_food_handler_card", name: "California Food Handler Card" }],
    stations: [
      { id: "line", name: "Line", tags: ["food_handling"] },
      { id: "lead", name: "Shift lead", tags: ["shift_lead"] },
    ],
    people: [
      person(kOwner, { roles: [] }),
      person(kMarkupManager, { roles: [] }),
      person(kCook, { managerOfRecord: kMarkupManager.id }),
      person(kLead, { roles: ["lead"], managerOfRecord: kOwner.id }),
      person(kAbsent, { managerOfRecord: kOwner.id }),
      person(kCover, { managerOfRecord: kOwner.id }),
      person(kOvertime, { managerOfRecord: kOwner.id }),
    ],
    shifts: [
      shift("s-carl", "line", kAbsent.id, "17:00", "23:00"),
      shift("s-rosa", "lead", kLead.id, "15:00", "23:00"),
      // 6 h in the morning: another 6 h the same day is daily overtime in California.
      shift("s-mia", "line", kOvertime.id, "06:00", "12:00"),
    ],
  };
}

export class Box {
  // paths: { edge, fakeTwilio, source } (the atoms-edge binary, the fake's binary, the checkout).
  constructor(paths) {
    this.paths = paths;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), "atoms-panel-browser-"));
    this.stateDir = path.join(this.dir, "state");
    this.config = path.join(this.dir, "atoms-edge.conf");
    this.serveLog = "";
  }

  edge(args) {
    return execFileSync(this.paths.edge, args, { encoding: "utf8", stdio: "pipe" });
  }

  async start() {
    this.fake = startChild(this.paths.fakeTwilio, []);
    this.fake.stderr.resume();  // read, so that a full pipe never blocks it
    const line = await waitForOutput(
      this.fake, this.fake.stdout, (t) => /fake-twilio url=(\S+) account_sid=(\S+) auth_token=(\S+)/.exec(t),
      20000, "fake_twilio_server");
    this.twilio = { url: line[1], accountSid: line[2], authToken: line[3] };

    this.edge(["init", "--site-id", "site-browser", "--state-dir", this.stateDir]);
    const site = path.join(this.dir, "site.json");
    fs.writeFileSync(site, JSON.stringify(siteFile(), null, 2));
    this.edge(["site", "import", site, "--state-dir", this.stateDir]);
    const tokenFile = path.join(this.dir, "twilio-auth-token");
    fs.writeFileSync(tokenFile, `${this.twilio.authToken}\n`, { mode: 0o600 });

    const posTokens = path.join(this.dir, "pos-tokens");
    const hashed = createHash("sha256").update(kRegisterToken).digest("hex");
    fs.writeFileSync(posTokens, `${kRegister} ${hashed}\n`, { mode: 0o600 });

    const standards = path.join(this.dir, "labor-standards");
    fs.writeFileSync(standards, "line covers 4 60 1 6 00:00 24:00\n");

    this.port = await freePort();
    this.posPort = await freePort();
    this.origin = `https://127.0.0.1:${this.port}`;
    fs.writeFileSync(this.config, [
      `state.dir = ${this.stateDir}`,
      `labor.rules_dir = ${path.join(this.paths.source, "etc/labor")}`,
      `policy.owners = ${kOwner.id}`,
      `panel.listen = 127.0.0.1:${this.port}`,
      "sms.driver = twilio",
      `sms.twilio.account-sid = ${this.twilio.accountSid}`,
      `sms.twilio.auth-token-file = ${tokenFile}`,
      `sms.twilio.api-base-url = ${this.twilio.url}`,
      `sms.twilio.from = ${kBoxNumber}`,
      `sms.twilio.public-url = ${kPublicUrl}`,
      "sms.twilio.listen-port = 0",
      "sms.retry.initial-delay-ms = 100",
      "sms.retry.max-delay-ms = 1000",
      // The call-out day: offers go out and a clean taker gets the shift without a person (a
      // premium still waits for the manager of record); the shift may be tomorrow's; the test
      // runs at any hour, so the site has no quiet hours.
      "policy.graduation.staffing_scheduling = autonomous",
      "callout.lookahead_hours = 48",
      "callout.wave_size = 3",
      `callout.general_manager = ${kOwner.id}`,
      "sms.quiet-hours.start = 00:00",
      "sms.quiet-hours.end = 00:00",
      // The register pushes sales over plain HTTP on loopback.
      `pos.push.listen = 127.0.0.1:${this.posPort}`,
      `pos.push.tokens_file = ${posTokens}`,
      "pos.push.tls = off",
      // Staffing proposals (steps/proposals.mjs): the line's covers against the forecast, checked
      // when the owner asks (the box's own check every 4 hours does not come during the test).
      `forecast.standards_file = ${standards}`,
      "intraday.check_minutes = 240",
      "",
    ].join("\n"));

    this.certPem = fs.readFileSync(path.join(this.stateDir, "panel.crt"), "utf8");
    this.serve = startChild(this.paths.edge, ["serve", "--config", this.config]);
    this.serve.stderr.setEncoding("utf8");
    this.serve.stderr.on("data", (t) => {
      this.serveLog += t;
    });
    this.serve.stdout.resume();
    // Generous: the sanitizer build starts slowly. A passing run never waits this long.
    await waitForOutput(this.serve, this.serve.stderr, (t) => t.includes('msg="ready"'), 60000,
      "atoms-edge serve");
    const webhook = / webhook=127\.0\.0\.1:(\d+)/.exec(this.serveLog);
    if (!webhook) fail(`serve logged no Twilio webhook port:\n${this.serveLog}`);
    this.webhookPort = Number(webhook[1]);
  }

  // A text from `from` to the box, as Twilio delivers it: a POST to serve's webhook signed with
  // the account's auth token (X-Twilio-Signature over the public URL and the sorted fields).
  // Resolves when serve has stored it (its 200); the conversation handles it after that.
  async textIn(from, body) {
    const sid = `SM${randomBytes(16).toString("hex")}`;
    const fields = {
      AccountSid: this.twilio.accountSid, ApiVersion: "2010-04-01", Body: body, From: from,
      MessageSid: sid, NumMedia: "0", NumSegments: "1", SmsMessageSid: sid, SmsSid: sid,
      SmsStatus: "received", To: kBoxNumber,
    };
    const url = `${kPublicUrl}/sms/inbound`;
    const signed = url + Object.keys(fields).sort().map((k) => k + fields[k]).join("");
    const signature = createHmac("sha1", this.twilio.authToken).update(signed).digest("base64");
    const reply = await fetch(`http://127.0.0.1:${this.webhookPort}/sms/inbound`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
      body: new URLSearchParams(fields).toString(),
    });
    if (reply.status !== 200) fail(`the webhook answered ${reply.status}: ${await reply.text()}`);
  }

  // The register's sales: orders as docs/pos.md's push protocol takes them; fails unless every
  // order was stored (or was a duplicate).
  async pushSales(orders) {
    const reply = await fetch(`http://127.0.0.1:${this.posPort}/v1/pos/orders`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${kRegisterToken}` },
      body: JSON.stringify({ pos: kRegister, orders }),
    });
    if (reply.status !== 200) fail(`the POS push answered ${reply.status}: ${await reply.text()}`);
  }

  // The browser trusts this key only (Chromium's --ignore-certificate-errors-spki-list): the
  // base64 SHA-256 of the certificate's SubjectPublicKeyInfo.
  spkiHash() {
    const spki = new X509Certificate(this.certPem).publicKey.export({ type: "spki", format: "der" });
    return createHash("sha256").update(spki).digest("base64");
  }

  // `atoms-edge panel invite PERSON`: the invite (the indented line it prints).
  invite(person) {
    const out = this.edge(["panel", "invite", person, "--state-dir", this.stateDir,
      "--config", this.config]);
    const token = out.split("\n").filter((l) => l.startsWith("  ")).map((l) => l.trim()).pop();
    if (!token) fail(`panel invite printed no invite:\n${out}`);
    return token;
  }

  // The texts the fake Twilio was asked to send, through its REST API, oldest first.
  async texts() {
    const auth = Buffer.from(`${this.twilio.accountSid}:${this.twilio.authToken}`).toString("base64");
    const url = `${this.twilio.url}/2010-04-01/Accounts/${this.twilio.accountSid}/Messages.json?PageSize=1000`;
    const reply = await fetch(url, { headers: { Authorization: `Basic ${auth}` } });
    if (!reply.ok) fail(`fake Twilio: ${reply.status} ${await reply.text()}`);
    return (await reply.json()).messages.reverse();
  }

  // Waits (deadline `ms`) for a text to `to` whose body matches `pattern`; the match.
  async waitForText(to, pattern, ms = 30000) {
    const deadline = Date.now() + ms;
    for (;;) {
      for (const m of await this.texts()) {
        const found = m.to === to && pattern.exec(m.body);
        if (found) return found;
      }
      if (Date.now() > deadline) {
        const sent = (await this.texts()).filter((m) => m.to === to).map((m) => `  ${m.body}`);
        fail(`no text to ${to} matching ${pattern} within ${ms} ms; it got:\n${sent.join("\n")}`);
      }
      await new Promise((r) => setTimeout(r, 100));  // polling the fake, not waiting for time
    }
  }

  // An HTTPS request to the panel that trusts only the box's certificate; the body is not
  // decompressed. { status, headers, body (Buffer) }.
  request(pathname, { method = "GET", headers = {}, body, agent } = {}) {
    return new Promise((resolve, reject) => {
      const req = https.request({
        host: "127.0.0.1", port: this.port, path: pathname, method, headers, agent,
        ca: this.certPem,
      }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers,
          body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  // Ends serve (a clean exit is required: 0) and the fake; removes the state directory.
  async stop() {
    const served = this.serve ? await endChild(this.serve) : 0;
    if (this.fake) await endChild(this.fake);
    fs.rmSync(this.dir, { recursive: true, force: true });
    if (served !== 0) fail(`atoms-edge serve exited with ${served}:\n${this.serveLog.slice(-4000)}`);
  }
}
