// Staffing proposals on Approvals (docs/panel.md, "Approvals"; docs/forecast.md, "During the
// day"): today's intraday proposals at the site (GET /v1/forecast/proposals?day=, the site's own
// day), waiting ones first, each with its evidence (what was counted, against the forecast, by how
// much, over which window; for a cut the new end and the premium) and Approve / Deny with an
// optional note (POST /v1/forecast/proposals/{id}/decision). "Check against the forecast now" runs
// the check once (POST /v1/forecast/proposals/check). For the owners and managers of record: the
// box answers 403 to anyone else, and then the section is not shown.
import { useState } from "./vendor/hooks.module.js";
import { html, when, station, money, siteToday, Badge, Alert, Loading, ApproveOrDeny } from "./ui.js";
import { useLive } from "./live.js";
import { postJson } from "./api.js";

const states = {
  pending: ["waiting", "warn"],
  approved: ["approved", "ok"],
  denied: ["denied", "muted"],
  expired: ["expired", "muted"],
};

// "38 covers", "$412.00" (net sales are in cents).
function amount(value, measure) {
  return measure === "net sales" ? money(value) : `${value} ${measure}`;
}

function Evidence({ p }) {
  const off = p.percentOff >= 0 ? `${p.percentOff}% above` : `${-p.percentOff}% below`;
  return html`
    <dl class="facts">
      <dt>Window</dt><dd>${p.windowStart}–${p.windowEnd}</dd>
      <dt>Came in</dt><dd>${amount(p.actual, p.measure)} against ${amount(p.forecast, p.measure)} forecast (${off})</dd>
      ${p.kind === "cut" && p.cutTo && html`<dt>New end</dt><dd>${when(p.cutTo)}</dd>`}
      ${p.kind === "cut" && html`<dt>Premium</dt><dd>${p.premiumCents > 0 ? money(p.premiumCents) : "none"}</dd>`}
    </dl>`;
}

function Decide({ p, who, onDone }) {
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  if (p.state !== "pending") return null;
  async function decide(decision) {
    setBusy(true);
    setError("");
    const body = { decision };
    if (note.trim()) body.reason = note.trim();
    const result = await postJson(`/v1/forecast/proposals/${p.id}/decision`, body, who.csrf);
    setBusy(false);
    if (result.status === 200) {
      const done = decision === "approve" ? "Approved" : "Denied";
      const what = heading(p);
      onDone(result.body.message || `${done}: ${what[0].toLowerCase()}${what.slice(1)}.`);
    } else {
      setError(result.body.error || `the box answered ${result.status}`);
    }
  }
  const id = `proposal-${p.id}-note`;
  return html`
    <div class="decide">
      <label for=${id}>Note (optional, kept with the decision)</label>
      <input id=${id} value=${note} maxlength="500" onInput=${(e) => setNote(e.currentTarget.value)} />
      <${ApproveOrDeny} busy=${busy} decide=${decide} error=${error} />
    </div>`;
}

// "Add a person at Line", "Finish early at Bar".
function heading(p) {
  return `${p.kind === "add" ? "Add a person" : "Finish early"} at ${station(p.station)}`;
}

function ProposalCard({ p, who, onDone }) {
  const [words, kind] = states[p.state] || [p.state, "muted"];
  return html`
    <article class="card proposal" aria-labelledby=${`proposal-${p.id}-h`}>
      <h3 id=${`proposal-${p.id}-h`}>${heading(p)}</h3>
      <p>
        <${Badge} kind=${kind} text=${words} />
        <span class="note"> asked ${when(p.requestedAt)}${p.expiresAt && p.state === "pending" ? `, expires ${when(p.expiresAt)}` : ""}</span>
      </p>
      <p>${p.summary}</p>
      <${Evidence} p=${p} />
      ${p.decidedBy && html`<p class="note">Decided by ${p.decidedBy === who.person.id ? "you" : p.decidedBy}${p.remark ? `: “${p.remark}”` : ""}</p>`}
      ${p.outcome && html`<p class="note">${typeof p.outcome === "string" ? p.outcome : p.outcome.message || ""}</p>`}
      <${Decide} p=${p} who=${who} onDone=${onDone} />
    </article>`;
}

function CheckNow({ who, onDone }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function check() {
    setBusy(true);
    setError("");
    const result = await postJson("/v1/forecast/proposals/check", {}, who.csrf);
    setBusy(false);
    if (result.status !== 200) {
      setError(result.body.error || `the box answered ${result.status}`);
    } else if (result.body.reason) {
      onDone(`Nothing was checked: ${result.body.reason}.`);
    } else {
      const n = result.body.filed.length;
      onDone(n === 0 ? "Checked: today's sales are close to the forecast, or a proposal is already waiting."
        : `Checked: ${n === 1 ? "one new proposal" : `${n} new proposals`} below.`);
    }
  }
  return html`
    <div class="buttons">
      <button type="button" class="secondary" disabled=${busy} onClick=${check}>Check against the forecast now</button>
    </div>
    <${Alert} text=${error} />`;
}

// Waiting first, then the newest.
function ordered(list) {
  const waiting = (p) => (p.state === "pending" ? 0 : 1);
  return [...list].sort((a, b) => waiting(a) - waiting(b) || b.id - a.id);
}

export function Proposals({ who }) {
  const day = siteToday();
  const [outcome, setOutcome] = useState("");
  const live = useLive(`/v1/forecast/proposals?day=${day}`);
  if (live.status === 403) return null;  // not an owner or a manager of record
  const done = (message) => {
    setOutcome(message);
    live.reload();
  };
  const list = live.body && live.body.proposals;
  return html`
    <section aria-labelledby="proposals-h">
      <h2 id="proposals-h">Staffing proposals</h2>
      <p class="note">When today's sales run well above or below the forecast at a station, the box suggests a change here. Nothing changes until you approve.</p>
      <p role="status" class="outcome">${outcome}</p>
      ${!list
        ? html`<${Loading} live=${live} />`
        : list.length === 0
          ? html`<p class="note">No staffing proposals today.</p>`
          : ordered(list).map((p) => html`<${ProposalCard} key=${p.id} p=${p} who=${who} onDone=${done} />`)}
      <${CheckNow} who=${who} onDone=${done} />
    </section>`;
}
