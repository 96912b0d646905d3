// People (docs/panel.md, "People"): each person of the site with their stations and today's
// shifts; for owners and managers of record also certifications (expired or expiring within 30
// days flagged), minors, manager of record, panel role, texts (consent, opt-out: the person's own,
// shown and never changed here) and paused shift offers, which the person's manager of record or
// an owner may turn back on. A lead sees names, stations and today's shifts only.
import { useState } from "./vendor/hooks.module.js";
import { html, when, span, name, station, Badge, Alert, Loading } from "./ui.js";
import { useLive } from "./live.js";
import { postJson } from "./api.js";

const certWords = {
  ok: ["valid", "ok"],
  expiring: ["expires soon", "warn"],
  expired: ["expired", "danger"],
};

const roleWords = { owner: "owner", manager: "manager", lead: "shift lead" };

function Certifications({ certs }) {
  if (certs.length === 0) return html`<span class="note">none on file</span>`;
  return certs.map((c, i) => {
    const [words, kind] = certWords[c.state] || [c.state, "muted"];
    return html`${i > 0 ? ", " : ""}${c.name}${c.expires ? ` (until ${c.expires})` : ""} <${Badge} kind=${kind} text=${words} />`;
  });
}

function TodayShifts({ shifts }) {
  if (shifts.length === 0) return html`<span class="note">no shift in the next 12 hours</span>`;
  return shifts.map((s, i) => html`${i > 0 ? "; " : ""}${station(s.station)}, ${span(s.start, s.end)}`);
}

function Texts({ p, who, onResumed }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function resume() {
    setBusy(true);
    const result = await postJson(`/v1/people/${encodeURIComponent(p.id)}/offers/resume`, {}, who.csrf);
    setBusy(false);
    if (result.status === 200) {
      setError("");
      onResumed(result.body.message);
    } else {
      setError(result.body.error || `the box answered ${result.status}`);
    }
  }
  return html`
    <dt>Texts</dt>
    <dd>
      ${p.sms.optedOut
        ? html`<${Badge} kind="muted" text="opted out" /> <span class="note">Their choice: only they can turn texts back on (START).</span>`
        : p.sms.consent ? "agreed to texts" : html`<span class="note">no consent to texts on file</span>`}
      ${p.offersPaused && html`
        <p>
          <${Badge} kind="warn" text="shift offers paused" /> <span class="note">since ${when(p.offersPaused.since)}</span>
          ${p.mayResume && html` <button type="button" class="secondary" disabled=${busy} onClick=${resume}>Turn shift offers back on for ${p.name}</button>`}
        </p>`}
      <${Alert} text=${error} />
    </dd>`;
}

function Person({ p, who, managerView, onResumed }) {
  return html`
    <article class="card" aria-labelledby=${`person-${p.id}`}>
      <h3 id=${`person-${p.id}`}>
        ${p.name}
        ${managerView && p.minor && html` <${Badge} kind="info" text="minor" />`}
        ${managerView && p.panelRole && html` <${Badge} kind="muted" text=${roleWords[p.panelRole]} />`}
      </h3>
      <dl class="facts">
        <dt>Stations</dt><dd>${p.stations.length === 0 ? "none" : p.stations.map((s) => s.name).join(", ")}</dd>
        <dt>Today</dt><dd><${TodayShifts} shifts=${p.today} /></dd>
        ${managerView && html`
          <dt>Certifications</dt><dd><${Certifications} certs=${p.certifications} /></dd>
          <dt>Manager</dt><dd>${p.managerOfRecord ? name(p.managerOfRecord) : html`<span class="note">none named</span>`}</dd>
          <dt>Phone</dt><dd>${p.phone}</dd>
          <dt>Panel</dt><dd>${p.panelAccount ? `account ${p.panelAccount}` : html`<span class="note">no account</span>`}</dd>
          <${Texts} p=${p} who=${who} onResumed=${onResumed} />`}
      </dl>
    </article>`;
}

export function People({ who }) {
  const live = useLive("/v1/people");
  const [message, setMessage] = useState("");
  if (!live.body) return html`<${Loading} live=${live} />`;
  const managerView = live.body.view === "manager";
  const people = live.body.people;
  const flagged = managerView
    ? people.filter((p) => p.certifications.some((c) => c.state !== "ok")).length
    : 0;
  function resumed(text) {
    setMessage(text);
    live.reload();
  }
  return html`
    ${managerView
      ? html`<p class="note">${people.length} people. ${flagged > 0 ? `${flagged} with a certification to renew.` : "All certifications are valid."}</p>`
      : html`<p class="note">Names, stations and today's shifts. Managers see the rest.</p>`}
    ${message && html`<p role="status">${message}</p>`}
    ${people.map((p) => html`<${Person} key=${p.id} p=${p} who=${who} managerView=${managerView} onResumed=${resumed} />`)}`;
}
