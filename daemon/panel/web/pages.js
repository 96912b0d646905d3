// The panel's pages, in the navigation's order: each route, its heading and its component (a
// preact component given `who`, the signed-in session).
import { Today } from "./today.js";
import { Approvals } from "./approvals.js";
import { Callouts } from "./callouts.js";
import { Policy } from "./policy.js";
import { Audit } from "./audit.js";
import { People } from "./people.js";
import { Safety } from "./safety.js";
import { Settings } from "./settings.js";
import { Schedule } from "./schedule.js";
import { Sales } from "./sales.js";

export const pages = {
  "/today": { title: "Today", component: Today },
  "/approvals": { title: "Approvals", component: Approvals },
  "/call-outs": { title: "Call-outs", component: Callouts },
  "/schedule": { title: "Schedule", component: Schedule },
  "/sales": { title: "Sales & labor", component: Sales },
  "/people": { title: "People", component: People },
  "/safety": { title: "Safety", component: Safety },
  "/policy": { title: "Policy", component: Policy },
  "/audit": { title: "Audit", component: Audit },
  "/settings": { title: "Settings", component: Settings },
};
