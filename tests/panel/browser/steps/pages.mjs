// Signed in, every page of the navigation, reached by its link: its heading, the link marked as
// the current page, its own checks (pages.mjs), axe-core, screenshots.
import {
  checkAccessibility, click, expect, screenshots, visibleText,
} from "../lib/browser.mjs";
import { pages } from "../pages.mjs";

export async function everyPage(ctx) {
  const page = ctx.ownerPage;
  await checkAccessibility(page, "signed in, no page chosen");
  await screenshots(page, ctx.shots, "signed-in");
  for (const p of pages) {
    await Promise.all([page.waitForNavigation(), click(page, `#pages-nav a[href="${p.path}"]`)]);
    // The shell's own markup says "Sign in" until the script has asked who is signed in; the
    // strip, the heading and the page are rendered together after that.
    await page.waitForSelector("#who .who strong", { visible: true });
    const title = await visibleText(page, "#page-title");
    expect(title === p.title, `${p.path}: the heading is "${title}"`);
    const current = await page.$$eval("#pages-nav a[aria-current=page]",
      (as) => as.map((a) => a.getAttribute("href")));
    expect(current.length === 1 && current[0] === p.path, `${p.path}: current link ${current}`);
    await p.check(page, { ...ctx, title: p.title });
    await checkAccessibility(page, p.path);
    await screenshots(page, ctx.shots, p.name);
  }
}
