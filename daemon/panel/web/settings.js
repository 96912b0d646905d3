// Settings (docs/panel.md, "Settings"): how the box is connected and who can reach it, read-only:
// the SMS driver and its connection, the cloud sync, the time-clock terminals and API tokens (ids
// only, never a token), and the panel accounts. Changes are made on the box's command line; the
// page says how.
import { html, when, name, Badge, Loading } from "./ui.js";
import { useLive } from "./live.js";

const driverWords = {
  off: "off: the box sends and receives no texts",
  simulated: "simulated (a demo or a test: no texts leave the box)",
  twilio: "Twilio",
  modem: "the box's own modem",
};

function Connection({ breaker }) {
  if (!breaker) return null;
  const ok = breaker.state === "closed";
  return html` <${Badge} kind=${ok ? "ok" : "danger"} text=${ok ? "connection working" : `connection ${breaker.state.replace("_", " ")}`} />`;
}

export function Settings() {
  const live = useLive("/v1/settings");
  if (!live.body) return html`<${Loading} live=${live} />`;
  const s = live.body;
  return html`
    <section aria-labelledby="sms-h">
      <h2 id="sms-h">Texts</h2>
      <p>${driverWords[s.sms.driver] || s.sms.driver}<${Connection} breaker=${s.sms.connection} /></p>
    </section>
    <section aria-labelledby="sync-h">
      <h2 id="sync-h">Cloud sync</h2>
      <p>
        ${s.sync.brokerConfigured
          ? `Set up. ${s.sync.backlog === 0 ? "The cloud has confirmed everything." : `${s.sync.backlog} of ${s.sync.logSize} entries not yet confirmed by the cloud.`}`
          : `Not set up: the box keeps its ${s.sync.logSize} log entries on site only.`}
      </p>
    </section>
    <section aria-labelledby="term-h">
      <h2 id="term-h">Time-clock terminals</h2>
      ${s.terminals.on
        ? html`<ul class="rows">${s.terminals.ids.map((id) => html`<li key=${id}><code>${id}</code></li>`)}</ul>`
        : html`<p class="note">Off (terminal.listen is not set).</p>`}
    </section>
    <section aria-labelledby="tok-h">
      <h2 id="tok-h">API tokens</h2>
      ${s.apiTokens.on
        ? html`<ul class="rows">${s.apiTokens.people.map((p) => html`<li key=${p.id}>${name(p)} <span class="note">(${p.id})</span></li>`)}</ul>`
        : html`<p class="note">The API port is off (api.listen is not set); the panel needs no tokens.</p>`}
      <p class="note">
        Tokens are added and removed on the box, not here: a line <code>PERSON-ID SHA256-OF-TOKEN</code> in the
        file named by api.tokens_file (mode 0600), then a restart. The API guide (docs/api.md, "Tokens") has the
        commands.
      </p>
    </section>
    <section aria-labelledby="acc-h">
      <h2 id="acc-h">Panel accounts</h2>
      ${s.panelAccounts.length === 0
        ? html`<p class="note">No accounts yet.</p>`
        : html`<ul class="rows">
            ${s.panelAccounts.map((a) => html`
              <li key=${a.person.id}>
                <strong>${name(a.person)}</strong> ${a.role ? html`<span class="note">${a.role}</span> ` : ""}
                <${Badge} kind=${a.state === "active" ? "ok" : "muted"} text=${a.state} />
                <span class="note">${a.lastSignInAt ? ` signed in ${when(a.lastSignInAt)}` : " not signed in now"}</span>
              </li>`)}
          </ul>`}
      <p class="note">To give someone an account, on the box: <code>atoms-edge panel invite PERSON-ID</code>, then send them the link it prints.</p>
    </section>`;
}
