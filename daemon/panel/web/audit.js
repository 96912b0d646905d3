// Audit (docs/panel.md, "Audit"): the signed checkpoint and the key that verifies it, a check of
// the whole chain run by the box (as `atoms-edge verify`), the entries newest first, and the
// segments of a range to download (as `atoms-edge export-segments` writes them).
import { useState } from "./vendor/hooks.module.js";
import { html, when, Badge, Alert, Loading } from "./ui.js";
import { useLive } from "./live.js";
import { getJson, postJson } from "./api.js";

function Check({ who }) {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState(null);
  const [error, setError] = useState("");
  async function run() {
    setBusy(true);
    setError("");
    const result = await postJson("/v1/audit/verify", {}, who.csrf);
    setBusy(false);
    if (result.status === 200) {
      setReport(result.body);
    } else {
      setError(result.body.error || `the box answered ${result.status}`);
    }
  }
  return html`
    <button type="button" class="primary" disabled=${busy} onClick=${run}>
      ${busy ? "Checking…" : "Check the whole log"}
    </button>
    ${report && (report.ok
      ? html`<p role="status"><${Badge} kind="ok" text="Verified" />${` ${report.entries} entries, ${report.checkpoints} checkpoints and ${report.receipts} receipts check out. Root: `}<code>${report.root}</code></p>`
      : html`<p role="alert" class="alert">The check failed${report.firstBadSeq !== null ? ` at entry ${report.firstBadSeq}` : ""}: ${report.problem}. Call your support contact: nothing is changed by this check.</p>`)}
    <${Alert} text=${error} />`;
}

function Download({ signedSize }) {
  const [from, setFrom] = useState("0");
  const [to, setTo] = useState(String(signedSize));
  const [error, setError] = useState("");
  async function save(e) {
    e.preventDefault();
    setError("");
    const result = await getJson(`/v1/audit/segments?from=${Number(from)}&to=${Number(to)}`);
    if (result.status !== 200) {
      setError(result.body.error || `the box answered ${result.status}`);
      return;
    }
    const text = result.body.segments.map((s) => JSON.stringify(s)).join("\n") + "\n";
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    link.download = `audit-${from}-${to}.jsonl`;
    link.click();
    URL.revokeObjectURL(link.href);
  }
  return html`
    <form class="form" onSubmit=${save}>
      <label for="seg-from">From entry</label>
      <input id="seg-from" inputmode="numeric" value=${from} onInput=${(e) => setFrom(e.currentTarget.value)} />
      <label for="seg-to">Up to (not including) entry</label>
      <input id="seg-to" inputmode="numeric" value=${to} onInput=${(e) => setTo(e.currentTarget.value)} />
      <button type="submit" class="secondary">Download the segments</button>
    </form>
    <${Alert} text=${error} />`;
}

function Entries() {
  const [before, setBefore] = useState(null);
  const live = useLive(before === null ? "/v1/audit/entries" : `/v1/audit/entries?before=${before}`);
  if (!live.body) return html`<${Loading} live=${live} />`;
  return html`
    <ul class="rows entries">
      ${live.body.entries.map((e) => html`
        <li key=${e.seq}>
          <strong>#${e.seq}</strong> <code>${e.kind}</code> <span class="note">${when(e.ts)}, ${e.actor}</span>
          <details><summary>What was recorded</summary><pre>${JSON.stringify(e.body, null, 2)}</pre></details>
        </li>`)}
    </ul>
    <div class="buttons">
      ${before !== null && html`<button type="button" class="secondary" onClick=${() => setBefore(null)}>Newest</button>`}
      ${live.body.next !== null && html`<button type="button" class="secondary" onClick=${() => setBefore(live.body.next)}>Older</button>`}
    </div>`;
}

export function Audit({ who }) {
  const live = useLive("/v1/audit");
  if (!live.body) return html`<${Loading} live=${live} />`;
  const a = live.body;
  return html`
    <section aria-labelledby="cp-h">
      <h2 id="cp-h">Signed checkpoint</h2>
      <p>${a.size} entries; the newest signed checkpoint covers ${a.signedSize}.</p>
      <details><summary>The checkpoint and its key</summary>
        <pre>${a.checkpoint || "nothing signed yet"}</pre>
        <p>Verifier key: <code>${a.verifierKey}</code></p>
      </details>
      <${Check} who=${who} />
    </section>
    <section aria-labelledby="entries-h">
      <h2 id="entries-h">Entries</h2>
      <${Entries} />
    </section>
    <section aria-labelledby="seg-h">
      <h2 id="seg-h">Download</h2>
      <${Download} signedSize=${a.signedSize} />
    </section>`;
}
