// Sales & labor (docs/panel.md, "Sales & labor"; docs/pos.md, "Labor against sales"): labor
// against sales for a day by hour, or for a week by day: a chart of actual and projected sales
// and labor cost drawn as inline SVG, and the same figures in a plain table under it. When the
// till's data is stale the page says so, and for how long, before any figure.
import { useState } from "./vendor/hooks.module.js";
import { html, when, money, Loading } from "./ui.js";
import { useLive } from "./live.js";

const sourceWords = {
  weekday_average_4w: "the same weekday's average over the last four weeks",
  forecast: "the demand forecast (the site's own sales history and the days you marked)",
};

function isoDay(d) {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

const percent = (text) => (text === null || text === undefined ? "no sales yet" : `${text} %`);

function duration(ms) {
  const minutes = Math.max(0, Math.round(ms / 60000));
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

// The intervals of a day grouped by local hour (a repeated hour on a DST night stays two rows).
function byHour(intervals) {
  const rows = [];
  for (const i of intervals) {
    const hour = i.local.slice(0, 2);
    let row = rows[rows.length - 1];
    if (!row || row.hour !== hour || row.count === 4) {
      row = { hour, label: `${hour}:00`, count: 0, sales: 0, projectedSales: 0, labor: 0, projectedLabor: 0, heads: 0 };
      rows.push(row);
    }
    row.count += 1;
    row.sales += i.salesCents;
    row.projectedSales += i.projected.salesCents;
    row.labor += i.actual.costCents;
    row.projectedLabor += i.projected.laborCents;
    row.heads = Math.max(row.heads, i.scheduled.heads);
  }
  return rows;
}

function byDay(days) {
  const names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  return days.map((d) => ({
    label: `${names[new Date(`${d.day}T12:00:00Z`).getUTCDay()]} ${d.day.slice(8)}`,
    day: d.day,
    sales: d.soFar.salesCents,
    projectedSales: d.projected.salesCents,
    labor: d.soFar.laborCents,
    projectedLabor: d.projected.laborCents,
    percent: d.projected.laborPercent,
    heads: d.scheduled.heads,
  }));
}

// Grouped bars: per row, sales then labor; the projected figure as a light bar, the actual one
// solid in front of it.
function Chart({ rows, title }) {
  const width = 640;
  const height = 240;
  const top = 16;
  const bottom = 28;
  const left = 8;
  const plot = height - top - bottom;
  const max = Math.max(1, ...rows.flatMap((r) => [r.projectedSales, r.sales, r.projectedLabor, r.labor]));
  const slot = (width - left) / Math.max(1, rows.length);
  const bar = Math.max(2, slot * 0.38);
  const y = (cents) => top + plot - (Math.max(0, cents) / max) * plot;
  const h = (cents) => (Math.max(0, cents) / max) * plot;
  const every = rows.length > 12 ? 3 : 1;
  return html`<figure class="chart">
    <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-title" preserveAspectRatio="none">
      <title id="chart-title">${title}</title>
      <line class="axis" x1=${left} x2=${width} y1=${top + plot} y2=${top + plot} />
      ${rows.map((r, n) => {
        const x = left + n * slot + slot * 0.1;
        return html`<g key=${n}>
          <rect class="sales-projected" x=${x} y=${y(r.projectedSales)} width=${bar} height=${h(r.projectedSales)} />
          <rect class="sales-actual" x=${x} y=${y(r.sales)} width=${bar} height=${h(r.sales)} />
          <rect class="labor-projected" x=${x + bar} y=${y(r.projectedLabor)} width=${bar} height=${h(r.projectedLabor)} />
          <rect class="labor-actual" x=${x + bar} y=${y(r.labor)} width=${bar} height=${h(r.labor)} />
          ${n % every === 0 && html`<text class="tick" x=${x} y=${height - 8}>${r.label}</text>`}
        </g>`;
      })}
    </svg>
    <figcaption>
      <span class="key key-sales-actual"></span> sales so far
      <span class="key key-sales-projected"></span> sales projected
      <span class="key key-labor-actual"></span> labor so far
      <span class="key key-labor-projected"></span> labor projected
    </figcaption>
  </figure>`;
}

function Table({ rows, first, caption }) {
  const shown = rows.filter((r) => r.projectedSales !== 0 || r.projectedLabor !== 0 || r.sales !== 0);
  if (shown.length === 0) return html`<p class="note">No sales and no labor ${first === "Hour" ? "on this day" : "this week"} yet.</p>`;
  return html`<div class="table-scroll"><table class="sales-table">
    <caption>${caption}</caption>
    <thead><tr>
      <th scope="col">${first}</th><th scope="col">Sales so far</th><th scope="col">Sales projected</th>
      <th scope="col">Labor so far</th><th scope="col">Labor projected</th><th scope="col">People scheduled</th>
    </tr></thead>
    <tbody>${shown.map((r) => html`<tr key=${r.label}>
      <th scope="row">${r.label}</th><td>${money(r.sales)}</td><td>${money(r.projectedSales)}</td>
      <td>${money(r.labor)}</td><td>${money(r.projectedLabor)}</td><td>${r.heads}</td>
    </tr>`)}</tbody>
  </table></div>`;
}

function PosState({ pos, now }) {
  if (!pos || !pos.on) {
    return html`<p class="note">No till (POS) is connected to this box, so sales show as none. Settings says how to connect one.</p>`;
  }
  if (pos.fresh) return null;
  const since = pos.staleSince ? ` for ${duration(new Date(now) - new Date(pos.staleSince))} (since ${when(pos.staleSince)})` : "";
  return html`<div class="banner" role="status">
    <p><strong>Sales from the till are not up to date${since}.</strong> The figures below may be behind; labor is still current.</p>
    ${pos.reason && html`<p>${pos.reason}</p>`}
    <p><a href="/settings">Settings</a> shows the connection; the person who set up the till can help.</p>
  </div>`;
}

function Headline({ totals, span }) {
  const { soFar, projected } = totals;
  return html`<dl class="figures">
    <div><dt>Labor ${span} so far</dt><dd>${percent(soFar.laborPercent)}</dd></div>
    <div><dt>Labor ${span}, projected</dt><dd>${percent(projected.laborPercent)}</dd></div>
    <div><dt>Sales so far</dt><dd>${money(soFar.salesCents)}</dd></div>
    <div><dt>Sales projected</dt><dd>${money(projected.salesCents)}</dd></div>
    <div><dt>Labor cost so far</dt><dd>${money(soFar.laborCents)}</dd></div>
    <div><dt>Sales per labor hour so far</dt><dd>${soFar.salesPerLaborHourCents === null ? "no labor yet" : money(soFar.salesPerLaborHourCents)}</dd></div>
  </dl>`;
}

export function Sales() {
  const [view, setView] = useState("day");
  const [day, setDay] = useState(isoDay(new Date()));
  const live = useLive(`/v1/sales/labor?${view}=${day}`);
  const b = live.body;
  const figures = b && (view === "day" ? b.day : b.week);
  return html`
    <div class="sign-in-choice" role="group" aria-label="Show">
      <button type="button" class="choice" aria-pressed=${view === "day"} onClick=${() => setView("day")}>A day by hour</button>
      <button type="button" class="choice" aria-pressed=${view === "week"} onClick=${() => setView("week")}>A week by day</button>
    </div>
    <label>${view === "day" ? "Day" : "A day of the week"} <input type="date" value=${day} required onInput=${(e) => e.target.value && setDay(e.target.value)} /></label>
    ${!figures ? html`<${Loading} live=${live} />` : html`
      <${PosState} pos=${b.pos} now=${b.now} />
      <section aria-labelledby="headline-h">
        <h2 id="headline-h">${view === "day" ? `Labor against sales, ${figures.day}` : `Labor against sales, week of ${figures.week}`}</h2>
        <${Headline} totals=${figures} span=${view === "day" ? "%" : "% for the week"} />
        <p class="note">Labor % is labor cost divided by net sales. Projected: what has happened so far, then the published schedule and the sales expected from ${sourceWords[b.projectionSource] || b.projectionSource}.</p>
      </section>
      <section aria-labelledby="chart-h">
        <h2 id="chart-h">${view === "day" ? "By hour" : "By day"}</h2>
        ${view === "day"
          ? html`<${Chart} rows=${byHour(figures.intervals)} title=${`Sales and labor by hour on ${figures.day}, so far and projected`} />
                 <${Table} rows=${byHour(figures.intervals)} first="Hour" caption="Sales and labor by hour" />`
          : html`<${Chart} rows=${byDay(figures.days)} title=${`Sales and labor by day, week of ${figures.week}, so far and projected`} />
                 <${Table} rows=${byDay(figures.days)} first="Day" caption="Sales and labor by day" />`}
      </section>
      <p class="note">Updated ${when(b.now)}.</p>`}`;
}
