// Approvals (docs/panel.md, "Approvals"): each PROPOSE_CONFIRM item waiting, with its evidence
// and receipt, decided here through the call-out desk's one decision path (POST
// /v1/approvals/{id}/decision): only the approver named on it can, never the person it is about.
// Below them, today's staffing proposals from the forecast (proposals.js).
import { useState } from "./vendor/hooks.module.js";
import { html, when, span, name, station, money, Badge, Loading, ApproveOrDeny } from "./ui.js";
import { useLive } from "./live.js";
import { postJson } from "./api.js";
import { Proposals } from "./proposals.js";

const kinds = {
  "overtime.approve": "Overtime",
  "shift.assign": "Give a shift",
  "callout.offer": "Send call-out offers",
};

const reasons = [
  ["", "No reason: just not this time"],
  ["BAD_TIMING", "The timing was wrong"],
  ["TONE", "The wording was wrong"],
  ["WRONG_FACTS", "It had the facts wrong"],
  ["WRONG_JUDGMENT", "It was the wrong call"],
];

function Evidence({ a }) {
  const e = a.evidence;
  if (!e) return html`<p class="note">No receipt is kept for this one.</p>`;
  // The rules that make it a question first and in full; those that pass or do not apply (a
  // score of them) as a count, so the decision stays in view on a phone.
  const telling = e.ruleEvaluations.filter((r) => r.result !== "pass" && r.result !== "n/a");
  const quiet = e.ruleEvaluations.length - telling.length;
  return html`
    <details>
      <summary>Why the box asks (receipt ${a.receiptSeq})</summary>
      <p>${e.rationale}</p>
      ${e.premiumCents > 0 && html`<p>Premium: ${money(e.premiumCents)} (${e.premiumMinutes} min)</p>`}
      <ul class="rows">
        ${telling.map((r, i) => html`
          <li key=${i}><code>${r.ruleId}</code>: ${r.result}${r.detail ? html`<br /><span class="note">${r.detail}</span>` : ""}</li>`)}
      </ul>
      ${quiet > 0 && html`<p class="note">${quiet} other labor rules pass or do not apply.</p>`}
    </details>`;
}

function Decide({ a, who, onDone }) {
  const [remark, setRemark] = useState("");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  if (a.state !== "pending") return null;
  if (!a.approver || a.approver.id !== who.person.id) {
    return html`<p class="note">${name(a.approver)} decides this one.</p>`;
  }
  async function decide(decision) {
    setBusy(true);
    setError("");
    const body = { decision };
    if (remark.trim()) body.remark = remark.trim();
    if (decision === "deny" && reason) body.reason = reason;
    const result = await postJson(`/v1/approvals/${a.id}/decision`, body, who.csrf);
    setBusy(false);
    if (result.status === 200) {
      // The card leaves the waiting list with this answer: the page keeps the outcome.
      onDone(`${result.body.message} (${a.summary})`);
    } else {
      setError(result.body.error || `the box answered ${result.status}`);
    }
  }
  const id = `approval-${a.id}`;
  return html`
    <div class="decide">
      <label for=${`${id}-remark`}>Note (optional, kept with the decision)</label>
      <input id=${`${id}-remark`} value=${remark} maxlength="500"
        onInput=${(e) => setRemark(e.currentTarget.value)} />
      <label for=${`${id}-reason`}>If you deny it</label>
      <select id=${`${id}-reason`} value=${reason} onChange=${(e) => setReason(e.currentTarget.value)}>
        ${reasons.map(([v, t]) => html`<option value=${v}>${t}</option>`)}
      </select>
      <${ApproveOrDeny} busy=${busy} decide=${decide} error=${error} />
    </div>`;
}

// "Mia Chen, Line, 5:00 PM – 11:00 PM" when the item is about a shift (in the panel's own time
// format; the summary is the text message's, with 24-hour times), else the summary as it is.
function heading(a) {
  if (!a.shift) return `${a.summary} (about ${name(a.subject)})`;
  const where = a.shift.stationName || station(a.shift.station);
  return `${name(a.subject)}, ${where}, ${span(a.shift.start.utc, a.shift.end.utc)}`;
}

function ApprovalCard({ a, who, onDone }) {
  return html`
    <article class="card" aria-labelledby=${`approval-${a.id}-h`}>
      <h3 id=${`approval-${a.id}-h`}>${kinds[a.kind] || a.kind}: ${heading(a)}</h3>
      <p>
        <${Badge} kind=${a.state === "pending" ? "warn" : "muted"} text=${a.state} />
        <span class="note"> asked ${when(a.requestedAt)}${a.state === "pending" ? `, expires ${when(a.expiresAt)}` : ""}</span>
      </p>
      ${a.decidedBy && html`<p class="note">Decided by ${a.decidedBy} ${when(a.decidedAt)}${a.remark ? `: “${a.remark}”` : ""}</p>`}
      <${Evidence} a=${a} />
      <${Decide} a=${a} who=${who} onDone=${onDone} />
      ${a.state === "pending" && a.smsReply && html`<p class="note">By text: ${a.smsReply.approve} or ${a.smsReply.deny}</p>`}
    </article>`;
}

export function Approvals({ who }) {
  const [all, setAll] = useState(false);
  const [outcome, setOutcome] = useState("");
  const live = useLive(all ? "/v1/approvals?state=all" : "/v1/approvals");
  const decided = (message) => {
    setOutcome(message);
    live.reload();
  };
  return html`
    <div class="tabs" role="group" aria-label="Which approvals">
      <button type="button" class="choice" aria-pressed=${!all} onClick=${() => setAll(false)}>Waiting</button>
      <button type="button" class="choice" aria-pressed=${all} onClick=${() => setAll(true)}>Last 7 days</button>
    </div>
    <p role="status" class="outcome">${outcome}</p>
    ${!live.body
      ? html`<${Loading} live=${live} />`
      : live.body.approvals.length === 0
        ? html`<p class="note">${all ? "No approvals in the last 7 days." : "Nothing is waiting for approval."}</p>`
        : live.body.approvals.map((a) => html`<${ApprovalCard} key=${a.id} a=${a} who=${who} onDone=${decided} />`)}
    <${Proposals} who=${who} />`;
}
