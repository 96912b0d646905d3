// Small pieces the pages share: times in the site's words, a person's name, state badges, the
// error line and a section heading. Everything the box sends is rendered as text (never as HTML).
import { h } from "./vendor/preact.module.js";
import { useEffect, useRef } from "./vendor/hooks.module.js";
import htm from "./vendor/htm.module.js";

export const html = htm.bind(h);

// Times are shown in the site's time zone (setSiteTimeZone, from the session), wherever the
// browser is.
let timeFormat = null;
let dayTimeFormat = null;
let dayFormat = null;
let isoDayFormat = null;
export function setSiteTimeZone(timeZone) {
  const zone = timeZone ? { timeZone } : {};
  isoDayFormat = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", ...zone });
  timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit", ...zone });
  dayTimeFormat = new Intl.DateTimeFormat(undefined, {
    weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", ...zone,
  });
  dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "short", ...zone });
}
setSiteTimeZone(undefined);

// "5:30 PM" for today at the site, "Fri, Dec 4, 5:30 PM" otherwise; "" for null.
export function when(text) {
  if (!text) return "";
  const t = new Date(text);
  const sameDay = dayFormat.format(t) === dayFormat.format(new Date());
  return (sameDay ? timeFormat : dayTimeFormat).format(t);
}

// The site's day now, "YYYY-MM-DD".
export function siteToday() {
  const parts = Object.fromEntries(isoDayFormat.formatToParts(new Date()).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

export function span(start, end) {
  return `${when(start)} – ${timeFormat.format(new Date(end))}`;
}

// Stations by their names (setSiteStations, from the session); an unknown id as itself.
let stationNames = new Map();
export function setSiteStations(stations) {
  stationNames = new Map((stations || []).map((s) => [s.id, s.name || s.id]));
}
export function station(id) {
  return stationNames.get(id) || id;
}
// [[id, name], ...] in the site file's order, for a choice of station.
export function siteStations() {
  return [...stationNames.entries()];
}

export function name(person) {
  if (!person) return "nobody";
  return person.name || person.id;
}

// A state in plain words, with a class for its colour.
export function Badge({ kind, text }) {
  return html`<span class=${`badge badge-${kind}`}>${text}</span>`;
}

// An error line: announced (role="alert") and focused for keyboard users.
export function Alert({ text }) {
  const ref = useRef(null);
  useEffect(() => {
    if (text && ref.current) ref.current.focus();
  }, [text]);
  if (!text) return null;
  return html`<p class="alert" role="alert" tabindex="-1" ref=${ref}>${text}</p>`;
}

// Approve and Deny for a decision (decide("approve") or decide("deny")), off while `busy`, with
// the box's refusal below them.
export function ApproveOrDeny({ busy, decide, error }) {
  return html`
    <div class="buttons">
      <button type="button" class="primary" disabled=${busy} onClick=${() => decide("approve")}>Approve</button>
      <button type="button" class="secondary" disabled=${busy} onClick=${() => decide("deny")}>Deny</button>
    </div>
    <${Alert} text=${error} />`;
}

// What a page shows before its data, or instead of it.
export function Loading({ live }) {
  if (live.error) return html`<${Alert} text=${live.error} />`;
  return html`<p class="note">Loading…</p>`;
}

export function money(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}
