// Schedule (docs/panel.md, "Schedule"; docs/api.md, "Schedule"; decision 0032): the week's draft
// by person, each shift with the labor rules' findings beside it, labor hours and cost per day,
// adding and deleting shifts, filling the open shifts or building the week with the box's roster
// engine (its score and why each person was chosen: decision 0035), and publishing. Every change names the draft version it was made on:
// when another manager changed the week first, the page says who and when and reloads.
import { useEffect, useState } from "./vendor/hooks.module.js";
import { html, station, siteStations, money, Badge, Alert, Loading } from "./ui.js";
import { useLive } from "./live.js";
import { getJson, postJson } from "./api.js";

// The coming Sunday, "YYYY-MM-DD" (the default workweek start; the box says when the site's
// differs).
function comingSunday() {
  const d = new Date();
  d.setDate(d.getDate() + ((7 - d.getDay()) % 7 || 7));
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

const hhmm = (local) => local.slice(11, 16);
const dayOf = (local) => new Date(`${local.slice(0, 10)}T12:00:00`).toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short" });
// "Sat 6 Dec 17:00–23:00 Line": a shift as a manager reads it.
const shiftWords = (s) => `${dayOf(s.start)} ${hhmm(s.start)}–${hhmm(s.end)} ${station(s.station)}`;

// The site's people by id, for names (GET /v1/people, once per page).
function usePeople() {
  const [people, setPeople] = useState(new Map());
  useEffect(() => {
    let live = true;
    getJson("/v1/people").then((r) => {
      if (live && r.status === 200) setPeople(new Map(r.body.people.map((p) => [p.id, p.name])));
    });
    return () => { live = false; };
  }, []);
  return people;
}
const hours = (minutes) => `${(minutes / 60).toFixed(1)} h`;
const effectKind = { denied: "danger", needs_consent: "warn", allowed_with_premium: "info" };

function Finding({ f }) {
  const kind = effectKind[f.effect] || "muted";
  return html`<li>
    <${Badge} kind=${kind} text=${f.denied ? "not allowed" : f.consentNeeded ? "needs their consent" : f.premiumCents > 0 ? `premium ${money(f.premiumCents)}` : "note"} />
    ${" "}${f.detail} <span class="note">(${f.ruleId})</span></li>`;
}

function Labor({ labor }) {
  return html`<table class="labor">
    <thead><tr><th scope="col">Day</th><th scope="col">Hours</th><th scope="col">Cost</th><th scope="col">Open</th></tr></thead>
    <tbody>
      ${labor.days.map((d) => html`<tr key=${d.day}><th scope="row">${d.day}</th><td>${hours(d.minutes)}</td><td>${money(d.costCents)}</td><td>${d.openMinutes > 0 ? hours(d.openMinutes) : ""}</td></tr>`)}
      <tr><th scope="row">Week</th><td>${hours(labor.minutes)}</td><td>${money(labor.costCents)}${labor.premiumCents > 0 ? ` (premiums ${money(labor.premiumCents)})` : ""}</td><td>${labor.openMinutes > 0 ? hours(labor.openMinutes) : ""}</td></tr>
    </tbody></table>`;
}

function ByPerson({ draft, names, onDelete, busy }) {
  const rows = new Map();
  for (const s of draft.shifts) {
    const key = s.assignee || "";
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push(s);
  }
  if (rows.size === 0) return html`<p class="note">No shifts this week yet.</p>`;
  return [...rows.entries()].map(([person, shifts]) => html`
    <article class="card" key=${person || "open"}>
      <h3>${person ? names.get(person) || person : "Open shifts"}</h3>
      <ul class="rows">
        ${shifts.map((s) => html`<li key=${s.id}>
          ${shiftWords(s)}
          ${" "}<button type="button" class="secondary" disabled=${busy} onClick=${() => onDelete(s)}>Delete</button>
          <ul class="rows">${draft.findings.filter((f) => f.shift === s.id).map((f) => html`<${Finding} f=${f} />`)}</ul>
        </li>`)}
      </ul>
    </article>`);
}

const reasonWords = {
  denied: "not allowed",
  needs_consent: "needs their consent",
  unavailable: "not available then",
  works_that_day: "already working that day",
  premium: "would cost a premium",
  over_hours: "past the overtime line",
  placed_elsewhere: "placed elsewhere",
};

function Score({ plan }) {
  const s = plan.score, d = plan.draftScore;
  const row = (label, now, before) => html`<tr><th scope="row">${label}</th><td>${now}</td><td>${before}</td></tr>`;
  return html`<table class="labor plan-score">
    <thead><tr><th scope="col">Score</th><th scope="col">Plan</th><th scope="col">Draft before</th></tr></thead>
    <tbody>
      ${row("Shifts left open", s.shortfallShifts, d.shortfallShifts)}
      ${row("Premiums", money(s.premiumCents), money(d.premiumCents))}
      ${row("Wages", money(s.wageCents), money(d.wageCents))}
      ${row("Hours spread", hours(s.hoursSpreadMinutes), hours(d.hoursSpreadMinutes))}
      ${row("Late/weekend spread", s.undesirableSpread, d.undesirableSpread)}
      ${row("Away from main station", s.preferenceMisses, d.preferenceMisses)}
      ${row("Changes to the draft", s.changes, 0)}
    </tbody></table>`;
}

function Plan({ plan, draft, names }) {
  const who = (id) => names.get(id) || id;
  const shift = (id) => {
    const s = draft.shifts.find((x) => x.id === id);
    return s ? shiftWords(s) : id;
  };
  return html`<div class="plan">
    <p class="plan-summary">${plan.summary}</p>
    <${Score} plan=${plan} />
    <ul class="rows plan-choices">
      ${plan.choices.map((c) => html`<li key=${c.shift}>
        <strong>${c.person ? who(c.person) : "Left open"}</strong> · ${shift(c.shift)}: ${c.why}
        ${c.others.length > 0 && html`<details><summary>Why not the others</summary><ul class="rows">
          ${c.others.map((o) => html`<li key=${o.person}>${who(o.person)}: ${reasonWords[o.reason] || o.reason}
            ${o.detail ? ` (${o.detail}${o.rules.length > 0 ? `; ${o.rules.join(", ")}` : ""})` : ""}</li>`)}
        </ul></details>`}
      </li>`)}
    </ul></div>`;
}

function AddShift({ week, names, busy, onAdd }) {
  const [day, setDay] = useState(week);
  const [start, setStart] = useState("09:00");
  const [end, setEnd] = useState("17:00");
  const [where, setWhere] = useState("");
  const [who, setWho] = useState("");
  function submit(e) {
    e.preventDefault();
    const edit = { kind: "add", station: where, start: `${day}T${start}`, end: `${day}T${end}` };
    if (who) edit.assignee = who;
    onAdd(edit);
  }
  return html`<form class="sign-in" onSubmit=${submit}>
    <label>Day <input type="date" value=${day} required onInput=${(e) => setDay(e.target.value)} /></label>
    <label>From <input type="time" value=${start} required onInput=${(e) => setStart(e.target.value)} /></label>
    <label>To <input type="time" value=${end} required onInput=${(e) => setEnd(e.target.value)} /></label>
    <label>Station <select name="station" value=${where} required onChange=${(e) => setWhere(e.target.value)}>
      <option value="">Choose a station</option>
      ${siteStations().map(([id, n]) => html`<option value=${id}>${n}</option>`)}
    </select></label>
    <label>Person <select name="person" value=${who} onChange=${(e) => setWho(e.target.value)}>
      <option value="">Nobody yet (an open shift)</option>
      ${[...names.entries()].map(([id, n]) => html`<option value=${id}>${n}</option>`)}
    </select></label>
    <button type="submit" disabled=${busy}>Add the shift</button>
  </form>`;
}

export function Schedule({ who }) {
  const [week, setWeek] = useState(comingSunday());
  const live = useLive(`/v1/schedule/weeks/${week}`);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState(null);
  const [reason, setReason] = useState("");
  const draft = live.body;
  const names = usePeople();

  async function send(tail, body) {
    setBusy(true);
    const result = await postJson(`/v1/schedule/weeks/${week}${tail}`, body, who.csrf);
    setBusy(false);
    setAnswer(result);
    live.reload();
  }
  const edit = (e) => send("/edits", { version: draft.version, edit: e, overrideReason: reason || undefined });
  const fill = () => send("/fill", { version: draft.version });
  const build = () => send("/build", { version: draft.version });
  const publish = () => send("/publish", { version: draft.version, overrideReason: reason || undefined });

  const said = answer && answer.body;
  const denials = said ? said.newDenials || said.denials || [] : [];
  return html`
    <label>Week starting <input type="date" value=${week} onInput=${(e) => { setAnswer(null); setWeek(e.target.value); }} /></label>
    ${!draft ? html`<${Loading} live=${live} />` : html`
      <p class="note">Draft version ${draft.version}, last changed by ${draft.updatedBy}.
        ${draft.publishedVersion ? ` Published as ${draft.publishedVersion}.` : " Not published yet."}</p>
      ${said && said.message && html`<p role="status">${said.message}</p>`}
      ${answer && answer.status !== 200 && html`<${Alert} text=${said.error || `the box answered ${answer.status}`} />`}
      ${denials.length > 0 && html`<ul class="rows">${denials.map((f) => html`<${Finding} f=${f} />`)}</ul>`}
      <section aria-labelledby="week-h">
        <h2 id="week-h">The week by person</h2>
        <${ByPerson} draft=${draft} names=${names} busy=${busy} onDelete=${(s) => edit({ kind: "delete", shift: s.id })} />
      </section>
      <section aria-labelledby="labor-h">
        <h2 id="labor-h">Labor</h2>
        <${Labor} labor=${draft.labor} />
      </section>
      <section aria-labelledby="propose-h">
        <h2 id="propose-h">Let the box propose</h2>
        <p class="note">Fill puts people on the open shifts and leaves every assigned shift alone. Build re-plans every shift not started, keeping people where that is as good. Nobody is proposed for a shift the labor rules deny; the result is a new draft version for you to review, nothing is published.</p>
        <button type="button" class="secondary" name="fill" disabled=${busy} onClick=${fill}>Fill open shifts</button>
        ${" "}<button type="button" class="secondary" name="build" disabled=${busy} onClick=${build}>Build the week</button>
        ${said && said.plan && html`<${Plan} plan=${said.plan} draft=${draft} names=${names} />`}
      </section>
      <section aria-labelledby="add-h">
        <h2 id="add-h">Add a shift</h2>
        <${AddShift} week=${week} names=${names} busy=${busy} onAdd=${edit} />
      </section>
      <section aria-labelledby="publish-h">
        <h2 id="publish-h">Publish</h2>
        <p class="note">Posts the week, texts each person whose shifts are new, changed or gone, and signs a receipt.</p>
        <label>Reason, when a rule allows an override (time off, a late posting)
          <input value=${reason} onInput=${(e) => setReason(e.target.value)} /></label>
        <button type="button" class="primary" disabled=${busy} onClick=${publish}>Publish the week</button>
      </section>`}`;
}
