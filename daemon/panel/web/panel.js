// The panel's entry module. The HTML works without it; it marks the page in use in the
// navigation and shows which page is not built yet. Pages come later, as preact components
// written with htm (docs/decisions/0020-panel-front-end.md).
import { h, render } from "./vendor/preact.module.js";
import htm from "./vendor/htm.module.js";

const html = htm.bind(h);

const pages = {
  "/today": "Today",
  "/approvals": "Approvals",
  "/call-outs": "Call-outs",
  "/schedule": "Schedule",
  "/people": "People",
  "/safety": "Safety",
  "/policy": "Policy",
  "/audit": "Audit",
  "/settings": "Settings",
};

function NotBuilt({ title }) {
  return html`<p class="note">The ${title} page is not built yet.</p>`;
}

function start() {
  const path = window.location.pathname;
  for (const link of document.querySelectorAll(".pages a")) {
    if (link.getAttribute("href") === path) link.setAttribute("aria-current", "page");
  }
  const title = pages[path];
  if (!title) return;
  document.getElementById("page-title").textContent = title;
  document.title = `${title} · atoms-edge panel`;
  render(html`<${NotBuilt} title=${title} />`, document.getElementById("page"));
}

start();
