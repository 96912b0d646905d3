// Today (docs/panel.md, "Today"): what needs a person first (the kill switch and open breakers as
// a banner, the call-outs with each offer as it goes, approvals waiting with today's staffing
// proposals, open safety incidents, the sync backlog), labor against sales so far and projected,
// then who is on the floor (time clock). It updates by itself (live.js).
import { html, when, span, name, station, money, Badge, Loading } from "./ui.js";
import { useLive } from "./live.js";

const floorGroups = [
  ["missing", "Not in yet", "danger"],
  ["late", "Running late", "warn"],
  ["on", "On now", "ok"],
  ["on_break", "On break", "info"],
  ["open", "Open shifts", "warn"],
  ["upcoming", "Coming up", "info"],
  ["done", "Clocked out", "muted"],
];

export const offerWords = {
  open: ["asked", "info"],
  accepted: ["took it", "ok"],
  declined: ["said no", "muted"],
  awaiting_approval: ["waiting for approval", "warn"],
  closed: ["closed", "muted"],
  not_sent: ["not sent", "muted"],
};

function Banner({ today }) {
  const ks = today.killSwitch;
  const lines = [];
  if (ks && ks.level !== "L0") {
    const words = {
      L1: "Texts are paused (L1): only replies and safety alerts go out.",
      L2: "The box is stopped (L2): it proposes nothing and texts only safety alerts.",
      L3: "Full stop (L3): operations lift it after checking the audit log.",
    };
    lines.push(html`<p><strong>${words[ks.level] || ks.level}</strong>${ks.reason ? ` Reason: ${ks.reason}` : ""}</p>`);
  }
  for (const b of today.breakers) {
    lines.push(html`<p>Breaker ${b.id} is ${b.state.replace("_", " ")}${b.reason ? `: ${b.reason}` : ""}.</p>`);
  }
  if (lines.length === 0) return null;
  return html`<div class="banner" role="status">${lines}<p><a href="/policy">Policy</a></p></div>`;
}

function Floor({ floor }) {
  if (floor.length === 0) {
    return html`<p class="note">No shifts in the next 12 hours.</p>`;
  }
  return floorGroups.map(([state, title, kind]) => {
    const rows = floor.filter((s) => s.state === state);
    if (rows.length === 0) return null;
    return html`
      <h3>${title} <${Badge} kind=${kind} text=${rows.length} /></h3>
      <ul class="rows">
        ${rows.map((s) => html`
          <li key=${s.shift}>
            <strong>${s.person ? name(s.person) : "nobody yet"}</strong>
            <span class="note"> ${station(s.station)}, ${span(s.start, s.end)}</span>
            ${s.since && html`<span class="note"> (since ${when(s.since)})</span>`}
          </li>`)}
      </ul>`;
  });
}

export function CalloutCard({ c, link = true }) {
  const covered = c.state === "covered";
  // An extra shift a manager added (an intraday proposal approved): nobody is out.
  const extra = c.origin === "extra_shift";
  return html`
    <article class="card" aria-labelledby=${`callout-${c.id}`}>
      <h3 id=${`callout-${c.id}`}>
        ${extra ? "Extra shift" : `${name(c.absent)}'s shift`}, ${station(c.station)}, ${span(c.shiftStart, c.shiftEnd)}
      </h3>
      <p>
        ${covered
          ? html`<${Badge} kind="ok" text=${`${extra ? "Taken" : "Covered"} by ${name(c.coveredBy)}`} />`
          : html`<${Badge} kind=${c.state === "open" ? "warn" : "muted"} text=${c.state === "open" ? (extra ? "Finding someone" : "Finding cover") : c.state} />`}
        <span class="note"> reported ${when(c.openedAt)}${c.reporter ? ` by ${name(c.reporter)}` : ""}</span>
      </p>
      ${c.offers.length === 0
        ? html`<p class="note">No offers yet.</p>`
        : html`<ul class="rows offers">
            ${c.offers.map((o) => {
              const [words, kind] = offerWords[o.state] || [o.state, "muted"];
              return html`<li key=${o.id}>${name(o.person)} <${Badge} kind=${kind} text=${words} /></li>`;
            })}
          </ul>`}
      ${link && html`<p><a href=${`/call-outs#callout-${c.id}`}>Details and receipts</a></p>`}
    </article>`;
}

// Labor against sales so far and projected (docs/pos.md); the page /sales has the detail.
function SalesFigure({ sales }) {
  if (!sales) return null;
  const pct = (text) => (text === null ? "no sales yet" : `${text} %`);
  const stale = sales.pos.on && !sales.pos.fresh;
  return html`<section aria-labelledby="sales-h">
    <h2 id="sales-h">Sales & labor</h2>
    ${stale && html`<p><${Badge} kind="warn" text="till data not up to date" />${sales.pos.staleSince ? ` since ${when(sales.pos.staleSince)}` : ""}</p>`}
    <ul class="rows">
      <li>Labor so far: <strong>${pct(sales.soFar.laborPercent)}</strong> of ${money(sales.soFar.salesCents)} in sales</li>
      <li>Projected for the day: <strong>${pct(sales.projected.laborPercent)}</strong> of ${money(sales.projected.salesCents)}</li>
    </ul>
    <p><a href="/sales">Sales & labor by hour</a></p>
  </section>`;
}

export function Today() {
  const live = useLive("/v1/today");
  if (!live.body) return html`<${Loading} live=${live} />`;
  const t = live.body;
  const backlog = t.sync.backlog;
  const proposals = t.approvals.proposals || 0;
  const waiting = t.approvals.pending + proposals;
  return html`
    <${Banner} today=${t} />
    <section aria-labelledby="callouts-h">
      <h2 id="callouts-h">Call-outs</h2>
      ${t.callouts.length === 0
        ? html`<p class="note">No open call-outs.</p>`
        : t.callouts.map((c) => html`<${CalloutCard} key=${c.id} c=${c} />`)}
    </section>
    <section aria-labelledby="waiting-h">
      <h2 id="waiting-h">Waiting for a person</h2>
      <ul class="rows">
        <li>
          <a href="/approvals">Approvals</a>:
          ${waiting === 0 ? " none waiting" : ` ${waiting} waiting`}
          ${proposals > 0 && html`<span class="note"> (${proposals === 1 ? "one staffing proposal" : `${proposals} staffing proposals`})</span>`}
          ${t.approvals.nextExpiry && html`<span class="note"> (next expires ${when(t.approvals.nextExpiry)})</span>`}
        </li>
        <li>
          <a href="/safety">Safety</a>:
          ${t.safety.length === 0 ? " no open incidents" : html` <strong>${t.safety.length} open</strong>`}
        </li>
        <li>
          Cloud sync: ${!t.sync.configured ? "not set up on this box"
            : backlog === 0 ? "everything is sent" : `${backlog} entries not yet confirmed by the cloud`}
        </li>
      </ul>
    </section>
    <${SalesFigure} sales=${t.sales} />
    <section aria-labelledby="floor-h">
      <h2 id="floor-h">On the floor</h2>
      <${Floor} floor=${t.floor} />
    </section>
    <p class="note">Updated ${when(t.now)}.</p>`;
}
