// The panel's entry module. On load it asks the box who is signed in (GET /api/session) and shows
// either the sign-in form or, signed in, the page of the address (pages.js) with who is signed in
// and a sign-out button; it marks the page in use in the navigation. Pages are preact components
// written with htm (docs/decisions/0020-panel-front-end.md). "/" and "/sign-in" open Today once
// signed in.
import { render } from "./vendor/preact.module.js";
import { currentSession } from "./api.js";
import { SignIn, SignedIn } from "./sign_in.js";
import { html, setSiteStations, setSiteTimeZone } from "./ui.js";
import { pages } from "./pages.js";

// "#invite=TOKEN" (a fragment: never sent to the box or kept in its logs) opens the invite form.
function inviteInAddress() {
  const match = /^#invite=([A-Za-z0-9_\-.]+)$/.exec(window.location.hash);
  if (!match) return "";
  history.replaceState(null, "", window.location.pathname);
  return match[1];
}

function setTitle(title) {
  document.getElementById("page-title").textContent = title;
  document.title = `${title} · atoms-edge panel`;
}

function show(who, focus) {
  const page = document.getElementById("page");
  const strip = document.getElementById("who");
  // The pages are of no use before signing in; on a phone they would push the form down.
  document.getElementById("pages-nav").hidden = !who;
  if (!who) {
    setTitle("Sign in");
    render(null, strip);
    render(html`<${SignIn} onSignedIn=${(w) => show(w, true)}
      initialInvite=${inviteInAddress()} />`, page);
  } else {
    let path = window.location.pathname;
    if (!pages[path]) {
      path = "/today";
      history.replaceState(null, "", path + window.location.hash);
      markCurrent(path);
    }
    setSiteTimeZone(who.site && who.site.timeZone);
    setSiteStations(who.site && who.site.stations);
    const { title, component: Page } = pages[path];
    setTitle(title);
    render(html`<${SignedIn} who=${who} onSignedOut=${() => show(null, true)} />`, strip);
    render(html`<${Page} who=${who} />`, page);
  }
  // After a change of view, start from its heading (screen readers announce it).
  if (focus) document.getElementById("page-title").focus();
}

function markCurrent(path) {
  for (const link of document.querySelectorAll(".pages a")) {
    if (link.getAttribute("href") === path) {
      link.setAttribute("aria-current", "page");
    } else {
      link.removeAttribute("aria-current");
    }
  }
}

async function start() {
  markCurrent(window.location.pathname);
  const session = await currentSession();
  // The static "Loading…" goes: preact renders beside what it did not render itself.
  document.getElementById("page").replaceChildren();
  if (session.status === 200) {
    show(session.body, false);
  } else if (session.status === 401) {
    show(null, false);
  } else {
    setTitle("Sign in");
    const page = document.getElementById("page");
    render(html`<p class="alert" role="alert">${session.body.error || "the box did not answer"}</p>`,
      page);
  }
}

start();
