// Call-outs (docs/panel.md, "Call-outs"): the open ones and the recent ones, each with its offers
// as they go; opened, its signed receipts: who was offered, who was not and why, wave by wave
// (for the owners and managers of record; GET /v1/callouts/{id}).
import { useEffect, useState } from "./vendor/hooks.module.js";
import { html, when, name, Loading } from "./ui.js";
import { useLive } from "./live.js";
import { CalloutCard } from "./today.js";

const outcomes = {
  offered: "Offers sent",
  nobody_to_offer: "Nobody could be offered it",
  assigned: "Shift given",
  queued_for_approval: "Waiting for a manager",
  denied: "Not given: a labor rule",
  not_given_at_act: "Not given: the schedule changed",
  escalated: "A manager was told",
  recorded_not_sent: "Shadow: recorded, nothing sent",
};

function Receipt({ r }) {
  return html`
    <li>
      <strong>${outcomes[r.outcome] || r.outcome}</strong> <span class="note">${when(r.ts)}, receipt ${r.seq}</span>
      <p>${r.rationale}</p>
      ${Array.isArray(r.offered) && r.offered.length > 0 && html`
        <p>Offered, in order: ${r.offered.map((o) => name(o.person)).join(", ")}</p>`}
      ${Array.isArray(r.notOffered) && r.notOffered.length > 0 && html`
        <details>
          <summary>Not offered (${r.notOffered.length})</summary>
          <ul class="rows">
            ${r.notOffered.map((n, i) => html`<li key=${i}>${name(n.person)}: ${n.reason}${n.rules && n.rules.length ? html` <span class="note">(${n.rules.join(", ")})</span>` : ""}</li>`)}
          </ul>
        </details>`}
    </li>`;
}

function Receipts({ id }) {
  const live = useLive(`/v1/callouts/${id}`);
  if (!live.body) return html`<${Loading} live=${live} />`;
  const receipts = live.body.receipts;
  if (receipts === null) {
    return html`<p class="note">The receipts are for the owners and managers of record.</p>`;
  }
  if (receipts.length === 0) return html`<p class="note">No decisions recorded yet.</p>`;
  return html`<ol class="rows receipts">${receipts.map((r) => html`<${Receipt} key=${r.seq} r=${r} />`)}</ol>`;
}

function Callout({ c, open }) {
  const [shown, setShown] = useState(open);
  return html`
    <div id=${`callout-${c.id}`}>
      <${CalloutCard} c=${c} link=${false} />
      <button type="button" class="choice" aria-expanded=${shown} onClick=${() => setShown(!shown)}>
        ${shown ? "Hide the decisions" : "Show the decisions"}
      </button>
      ${shown && html`<${Receipts} id=${c.id} />`}
    </div>`;
}

export function Callouts() {
  const live = useLive("/v1/callouts");
  const [target] = useState(() => window.location.hash.replace("#callout-", ""));
  useEffect(() => {
    if (live.body && target) {
      const el = document.getElementById(`callout-${target}`);
      if (el) el.scrollIntoView();
    }
  }, [live.body, target]);
  if (!live.body) return html`<${Loading} live=${live} />`;
  const { open, recent } = live.body;
  return html`
    <section aria-labelledby="open-h">
      <h2 id="open-h">Open</h2>
      ${open.length === 0
        ? html`<p class="note">No open call-outs.</p>`
        : open.map((c) => html`<${Callout} key=${c.id} c=${c} open=${String(c.id) === target} />`)}
    </section>
    <section aria-labelledby="recent-h">
      <h2 id="recent-h">Recent</h2>
      ${recent.length === 0
        ? html`<p class="note">None yet.</p>`
        : recent.map((c) => html`<${Callout} key=${c.id} c=${c} open=${String(c.id) === target} />`)}
    </section>`;
}
