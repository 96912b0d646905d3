// The panel's real-browser test (docs/testing.md, "The panel in a browser"): a fake Twilio and
// `atoms-edge serve` on loopback, Debian's chromium driven through the steps below, in order
// (each needs the state the ones before it left). Exit 0 when every step passed; 1 naming the
// step that failed, with serve's log. Nothing is left running.
//
//   node run.mjs --edge BUILD/daemon/atoms-edge --fake-twilio BUILD/tests/tools/fake_twilio_server
//                [--screenshots DIR] [--source CHECKOUT]
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Box } from "./lib/box.mjs";
import { launchChromium, openedPages } from "./lib/browser.mjs";
import * as signIn from "./steps/sign_in.mjs";
import * as pagesStep from "./steps/pages.mjs";
import * as security from "./steps/security.mjs";
import * as calloutDay from "./steps/callout_day.mjs";
import * as salesLabor from "./steps/sales_labor.mjs";
import * as proposals from "./steps/proposals.mjs";

const steps = [
  ["the sign-in page, signed out", signIn.signInPage],
  ["an invite link: set a password, signed in", signIn.inviteLink],
  ["the session cookie's flags", security.cookieFlags],
  ["every page from the navigation", pagesStep.everyPage],
  ["the till's data stale: Sales & labor says so and for how long", salesLabor.staleTill],
  ["a lead's text starts a call-out: Today shows its offers live", calloutDay.calloutStarts],
  ["an overtime taker, approved on Approvals: Today shows the cover live", calloutDay.overtimeApproved],
  ["the call-out's decisions on Call-outs", calloutDay.calloutDecisions],
  ["the kill switch to L1 and back: Today's banner follows", calloutDay.killSwitchUpAndDown],
  ["a rush at the till: a staffing proposal on Approvals, approved", proposals.proposalApproved],
  ["cross-origin form posts are refused", security.crossOriginPosts],
  ["sign out", signIn.signOut],
  ["a wrong password shows the error", signIn.wrongPassword],
  ["a code texted through the fake Twilio signs in", signIn.codeSignIn],
  ["a name that is markup shows as text", security.markupNameIsText],
];

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    edge: { type: "string" },
    "fake-twilio": { type: "string" },
    screenshots: { type: "string" },
    source: { type: "string", default: path.resolve(here, "../../..") },
  },
});
if (!values.edge || !values["fake-twilio"]) {
  console.error("usage: node run.mjs --edge ATOMS_EDGE --fake-twilio FAKE_TWILIO_SERVER [--screenshots DIR]");
  process.exit(2);
}

const box = new Box({ edge: values.edge, fakeTwilio: values["fake-twilio"], source: values.source });
const ctx = { box, shots: values.screenshots };
let failed = false;
const begin = Date.now();
try {
  await box.start();
  ctx.browser = await launchChromium(box);
  for (const [name, step] of steps) {
    const start = Date.now();
    try {
      await step(ctx);
    } catch (error) {
      console.log(`FAILED ${name}: ${error.stack || error}`);
      failed = true;
      break;
    }
    const errors = openedPages.flatMap((p) => p.errors);
    if (errors.length) {
      console.log(`FAILED ${name}: script errors in the page:\n  ${errors.join("\n  ")}`);
      failed = true;
      break;
    }
    console.log(`ok ${name} (${Date.now() - start} ms)`);
  }
} catch (error) {
  console.log(`FAILED setting up: ${error.stack || error}`);
  failed = true;
} finally {
  if (ctx.browser) await ctx.browser.close().catch(() => {});
  try {
    await box.stop();
  } catch (error) {
    console.log(`FAILED stopping: ${error.message}`);
    failed = true;
  }
}
if (failed) {
  console.log(`serve's log (last lines):\n${box.serveLog.split("\n").slice(-40).join("\n")}`);
} else {
  console.log(`panel browser test: ${steps.length} steps passed in ${Date.now() - begin} ms` +
    (ctx.shots ? `; screenshots in ${ctx.shots}` : ""));
}
process.exit(failed ? 1 : 0);
