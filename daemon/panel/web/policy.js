// Policy (docs/panel.md, "Policy"): the kill switch (changed with a confirmation and a reason),
// the breakers (a half-open one acknowledged once its trial is clean), how far each function may
// act alone, and the packets waiting for a person. Who may do what is the box's: the page offers
// the controls and shows the box's answer.
import { useState } from "./vendor/hooks.module.js";
import { html, when, Badge, Alert, Loading } from "./ui.js";
import { useLive } from "./live.js";
import { postJson } from "./api.js";

const levels = {
  L0: "Normal",
  L1: "Pause texts (L1): only replies in a person's own thread and safety alerts go out",
  L2: "Stop (L2): the box proposes nothing, requests by text wait; safety alerts still go out",
  L3: "Full stop (L3): lifted only by operations after the audit log checks out",
};

function KillSwitch({ who }) {
  const live = useLive("/v1/killswitch");
  const [level, setLevel] = useState("");
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  if (!live.body) return html`<${Loading} live=${live} />`;
  const ks = live.body;
  const target = level || ks.level;
  async function apply() {
    setBusy(true);
    setError("");
    const result = await postJson("/v1/killswitch", { level: target, reason }, who.csrf);
    setBusy(false);
    setConfirming(false);
    if (result.status === 200) {
      setMessage(result.body.message);
      setReason("");
      setLevel("");
      live.reload();
    } else {
      setError(result.body.error || `the box answered ${result.status}`);
    }
  }
  function submit(e) {
    e.preventDefault();
    if (target === ks.level) {
      setError(`The kill switch is at ${ks.level} already.`);
      return;
    }
    if (!reason.trim()) {
      setError("Say why: it goes on record.");
      return;
    }
    setError("");
    setConfirming(true);
  }
  return html`
    <p>
      Now: <${Badge} kind=${ks.level === "L0" ? "ok" : "danger"} text=${ks.level} /> ${levels[ks.level]}
      ${ks.setBy && html`<br /><span class="note">Set by ${ks.setBy} ${when(ks.setAt)}${ks.reason ? `: “${ks.reason}”` : ""}</span>`}
    </p>
    <form class="form" onSubmit=${submit}>
      <label for="ks-level">Change it to</label>
      <select id="ks-level" value=${target} onChange=${(e) => { setLevel(e.currentTarget.value); setConfirming(false); }}>
        ${Object.entries(levels).map(([v, t]) => html`<option value=${v}>${v}: ${t.split(":")[0].split(" (")[0]}</option>`)}
      </select>
      <label for="ks-reason">Why (it goes on record)</label>
      <input id="ks-reason" value=${reason} maxlength="500" onInput=${(e) => setReason(e.currentTarget.value)} />
      ${confirming
        ? html`
          <div class="confirm" role="alertdialog" aria-labelledby="ks-confirm">
            <p id="ks-confirm"><strong>${ks.level} → ${target}.</strong> ${levels[target]}. Are you sure?</p>
            <div class="buttons">
              <button type="button" class="primary" disabled=${busy} onClick=${apply}>Yes, change it</button>
              <button type="button" class="secondary" onClick=${() => setConfirming(false)}>Cancel</button>
            </div>
          </div>`
        : html`<button type="submit" class="primary">Change the kill switch</button>`}
    </form>
    ${message && html`<p role="status">${message}</p>`}
    <${Alert} text=${error} />`;
}

function Breakers({ who }) {
  const live = useLive("/v1/breakers");
  const [error, setError] = useState("");
  if (!live.body) return html`<${Loading} live=${live} />`;
  async function ack(id) {
    const result = await postJson(`/v1/breakers/${id}/ack`, {}, who.csrf);
    setError(result.status === 200 ? "" : result.body.error || `the box answered ${result.status}`);
    live.reload();
  }
  return html`
    <ul class="rows">
      ${live.body.breakers.map((b) => html`
        <li key=${b.id}>
          <strong>${b.id}</strong> <${Badge} kind=${b.state === "closed" ? "ok" : "danger"} text=${b.state.replace("_", " ")} />
          ${b.reason && html`<span class="note"> ${b.reason}</span>`}
          ${b.state !== "closed" && html`<span class="note"> since ${when(b.since)}; trial ${b.probes.clean}/${b.probes.of} clean</span>`}
          ${b.awaitingAck && html` <button type="button" class="secondary" onClick=${() => ack(b.id)}>Acknowledge</button>`}
        </li>`)}
    </ul>
    <${Alert} text=${error} />`;
}

function Trust() {
  const live = useLive("/v1/trust");
  if (!live.body) return html`<${Loading} live=${live} />`;
  return html`
    <ul class="rows">
      ${live.body.functions.map((f) => html`
        <li key=${f.function}>
          <strong>${f.function.replace("_", " ")}</strong>: ${f.effective}
          <span class="note"> (earned ${f.earned}, ceiling ${f.ceiling}, trust ${f.trust}${f.held ? ", held" : ""})</span>
        </li>`)}
    </ul>`;
}

function Packets() {
  const live = useLive("/v1/packets");
  if (!live.body) return html`<${Loading} live=${live} />`;
  const open = live.body.packets.filter((p) => p.state === "open");
  if (open.length === 0) return html`<p class="note">Nothing is waiting for a person.</p>`;
  return html`
    <ul class="rows">
      ${open.map((p) => html`<li key=${p.id}><strong>${p.kind}</strong>: ${p.summary} <span class="note">${when(p.openedAt)}</span></li>`)}
    </ul>`;
}

export function Policy({ who }) {
  return html`
    <section aria-labelledby="ks-h"><h2 id="ks-h">Kill switch</h2><${KillSwitch} who=${who} /></section>
    <section aria-labelledby="br-h"><h2 id="br-h">Breakers</h2><${Breakers} who=${who} /></section>
    <section aria-labelledby="tr-h"><h2 id="tr-h">What the box may do alone</h2><${Trust} /></section>
    <section aria-labelledby="pk-h"><h2 id="pk-h">For a person</h2><${Packets} /></section>`;
}
