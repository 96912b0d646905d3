// Safety (docs/panel.md, "Safety"): incidents reported by text, the open ones first, each with
// who reported it, the kind of danger, when, the reminder rounds and who was alerted. An owner,
// a manager or a shift lead acknowledges one here, as "ACK <id>" by text would: the person who
// reported it and the people alerted are told who is on it. Then today's checklists with their due
// times and whether they are done.
import { useState } from "./vendor/hooks.module.js";
import { html, when, name, station, Badge, Alert, Loading } from "./ui.js";
import { useLive } from "./live.js";
import { postJson } from "./api.js";

const categoryWords = {
  injury: "Someone is hurt",
  fire: "Fire or smoke",
  gas: "Gas smell",
  violence: "Someone is unsafe",
  equipment: "Dangerous equipment",
  food_safety: "Food safety (temperature)",
  keyword: "Safety report",
};

function personText(p) {
  if (!p) return "unknown";
  return p.name ? name(p) : p.phone;
}

function Incident({ i, who, onDone }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const open = i.state === "open";
  async function ack() {
    setBusy(true);
    const result = await postJson(`/v1/safety/incidents/${i.id}/ack`, {}, who.csrf);
    setBusy(false);
    if (result.status === 200) {
      setError("");
      onDone(result.body.message);
    } else {
      setError(result.body.error || `the box answered ${result.status}`);
    }
  }
  return html`
    <article class="card" aria-labelledby=${`incident-${i.id}`}>
      <h3 id=${`incident-${i.id}`}>
        ${categoryWords[i.category] || i.category} <span class="note">(alert ${i.id})</span>
      </h3>
      <p>
        ${open
          ? html`<${Badge} kind="danger" text="open: nobody has said they are on it" />`
          : html`<${Badge} kind="ok" text=${`handled by ${personText(i.acknowledgedBy)}`} />`}
      </p>
      <dl class="facts">
        <dt>Reported</dt><dd>${when(i.openedAt)} by ${personText(i.reporter)}</dd>
        <dt>Alerted</dt><dd>${i.alerted.length === 0 ? "nobody" : i.alerted.map(personText).join(", ")}</dd>
        <dt>Rounds</dt><dd>${i.rounds}${open && i.nextReminderAt ? `, next reminder ${when(i.nextReminderAt)}` : ""}</dd>
        ${!open && i.acknowledgedAt && html`<dt>On it since</dt><dd>${when(i.acknowledgedAt)}</dd>`}
      </dl>
      ${open && html`
        <button type="button" class="primary" disabled=${busy} onClick=${ack}>I am on it (ACK ${i.id})</button>`}
      <${Alert} text=${error} />
    </article>`;
}

const checklistWords = {
  done: ["done", "ok"],
  overdue: ["late", "danger"],
  due: ["due now", "warn"],
  upcoming: ["later today", "info"],
};

function reading(done) {
  if (done.readingTenthsF === null) return "";
  const text = `${(done.readingTenthsF / 10).toFixed(1).replace(/\.0$/, "")}°F`;
  return done.inRange === false ? `, ${text}: outside the safe range` : `, ${text}`;
}

function Checklists({ lists }) {
  if (lists === null) {
    return html`<p class="note">This site has no checklists with due times (sms.checklists.file).</p>`;
  }
  if (lists.length === 0) return html`<p class="note">No checklists due today.</p>`;
  return html`
    <ul class="rows">
      ${lists.map((c) => {
        const [words, kind] = checklistWords[c.state] || [c.state, "muted"];
        const owner = c.owner.person ? name(c.owner.person) : `whoever is on ${station(c.owner.station)}`;
        return html`
          <li key=${c.id}>
            <strong>${c.name}</strong> <${Badge} kind=${kind} text=${words} />
            <br /><span class="note">
              due ${when(c.dueAt)}, ${owner}${c.done ? `; done ${when(c.done.at)} by ${name(c.done.by)}${reading(c.done)}` : ""}
            </span>
          </li>`;
      })}
    </ul>`;
}

export function Safety({ who }) {
  const live = useLive("/v1/safety");
  const [message, setMessage] = useState("");
  if (!live.body) return html`<${Loading} live=${live} />`;
  const open = live.body.incidents.filter((i) => i.state === "open");
  const recent = live.body.incidents.filter((i) => i.state !== "open");
  function done(text) {
    setMessage(text);
    live.reload();
  }
  return html`
    ${message && html`<p role="status">${message}</p>`}
    <section aria-labelledby="open-h">
      <h2 id="open-h">Open</h2>
      ${open.length === 0
        ? html`<p class="note">No open safety alerts.</p>`
        : open.map((i) => html`<${Incident} key=${i.id} i=${i} who=${who} onDone=${done} />`)}
    </section>
    <section aria-labelledby="recent-h">
      <h2 id="recent-h">Handled recently</h2>
      ${recent.length === 0
        ? html`<p class="note">None.</p>`
        : recent.map((i) => html`<${Incident} key=${i.id} i=${i} who=${who} onDone=${done} />`)}
    </section>
    <section aria-labelledby="check-h">
      <h2 id="check-h">Checklists today</h2>
      <${Checklists} lists=${live.body.checklists} />
    </section>`;
}
