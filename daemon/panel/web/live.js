// Live data for the pages: useLive(path) fetches a resource of the box's API and fetches it again
// whenever the box says something changed (server-sent events at /api/events, one stream shared
// by the page), or every kFallbackMs when no stream can be had. It answers
// { body, status, error, loading, reload }.
import { useCallback, useEffect, useRef, useState } from "./vendor/hooks.module.js";
import { getJson } from "./api.js";

const kFallbackMs = 15000;
const listeners = new Set();
let source = null;
let fallback = null;

function notify() {
  for (const listener of listeners) listener();
}

function startFallback() {
  if (!fallback) fallback = setInterval(notify, kFallbackMs);
}

function ensureStream() {
  if (source || typeof EventSource === "undefined") {
    if (!source) startFallback();
    return;
  }
  source = new EventSource("/api/events");
  source.addEventListener("change", notify);
  source.addEventListener("signed-out", () => window.location.assign("/"));
  // The browser reconnects by itself; meanwhile the pages poll.
  source.onerror = () => startFallback();
  source.onopen = () => {
    if (fallback) clearInterval(fallback);
    fallback = null;
    notify();  // whatever happened while the stream was down
  };
}

// A page left for another keeps no stream open: a browser that keeps left pages (the back-forward
// cache) would otherwise hold one of its few connections to the box per page visited, until a
// new page cannot load. Coming back to such a page opens the stream again and refetches.
if (typeof window !== "undefined") {
  window.addEventListener("pagehide", () => stopLive());
  window.addEventListener("pageshow", (e) => {
    if (e.persisted && listeners.size > 0) {
      ensureStream();
      notify();
    }
  });
}

// Ends the stream (signing out, leaving the page).
export function stopLive() {
  if (source) source.close();
  source = null;
  if (fallback) clearInterval(fallback);
  fallback = null;
}

// Calls `listener` whenever the box says something changed; for pages that fetch on their own.
export function useChanges(listener) {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const l = () => latest.current();
    listeners.add(l);
    ensureStream();
    return () => listeners.delete(l);
  }, []);
}

export function useLive(path) {
  const [state, setState] = useState({ loading: true, body: null, status: 0, error: "" });
  const inFlight = useRef(false);
  const again = useRef(false);
  const mounted = useRef(true);
  const load = useCallback(async () => {
    if (inFlight.current) {
      again.current = true;  // one more fetch when this one ends, not one per change
      return;
    }
    inFlight.current = true;
    do {
      again.current = false;
      const result = await getJson(path);
      if (!mounted.current) return;  // the page is gone (signed out, another page)
      if (result.status === 401) {
        window.location.assign("/");
        return;
      }
      setState({
        loading: false,
        status: result.status,
        body: result.status === 200 ? result.body : null,
        error: result.status === 200 ? "" : result.body.error || `the box answered ${result.status}`,
      });
    } while (again.current);
    inFlight.current = false;
  }, [path]);
  useEffect(() => {
    mounted.current = true;
    load();
    return () => {
      mounted.current = false;
    };
  }, [load]);
  useChanges(load);
  return { ...state, reload: load };
}
