// The panel's pages, in the navigation's order: the route, the heading it shows, the name of its
// screenshots, and its own checks. A page that has none yet shows the "not built yet" line.
// When a page is built, give it a file steps/pages/<name>.mjs exporting
// `async function check(page, ctx)` (what a manager sees and does there) and import it here.
import { visibleText, expect } from "./lib/browser.mjs";

async function notBuiltYet(page, { title }) {
  const text = await visibleText(page, "#page .note");
  expect(text === `The ${title} page is not built yet.`, `${title}: the page says "${text}"`);
}

export const pages = [
  { path: "/today", title: "Today", name: "today", check: notBuiltYet },
  { path: "/approvals", title: "Approvals", name: "approvals", check: notBuiltYet },
  { path: "/call-outs", title: "Call-outs", name: "call-outs", check: notBuiltYet },
  { path: "/schedule", title: "Schedule", name: "schedule", check: notBuiltYet },
  { path: "/people", title: "People", name: "people", check: notBuiltYet },
  { path: "/safety", title: "Safety", name: "safety", check: notBuiltYet },
  { path: "/policy", title: "Policy", name: "policy", check: notBuiltYet },
  { path: "/audit", title: "Audit", name: "audit", check: notBuiltYet },
  { path: "/settings", title: "Settings", name: "settings", check: notBuiltYet },
];
