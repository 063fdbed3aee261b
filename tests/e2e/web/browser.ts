// Real-browser tests of the web UI: playwright-core drives the system Chromium (Debian's `chromium`, which
// .ci/run installs; no browser is downloaded). Screenshots go to test-artifacts/web-ui (gitignored).
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { REPO_ROOT } from "../helpers.ts";

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
export const ARTIFACTS = join(REPO_ROOT, "test-artifacts", "web-ui");

export async function launch(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

let failures = 0;

/** Waits (bounded) for the locator to be visible; fails naming it, with a screenshot of the page then. */
export async function seen(locator: Locator, timeout = 15_000): Promise<Locator> {
  try {
    await locator.first().waitFor({ state: "visible", timeout });
  } catch (e) {
    await shot(locator.page(), `failure-${++failures}`).catch(() => undefined);
    throw e;
  }
  return locator.first();
}

/** How far the page scrolls sideways (0: not at all) and, when it does, the elements reaching past its edge. */
export const sideways = (page: Page): Promise<number | string> =>
  page.evaluate(() => {
    const el = document.scrollingElement!;
    const over = el.scrollWidth - el.clientWidth;
    if (over <= 0) return 0;
    const beyond = (e: Element) => e.getBoundingClientRect().right > el.clientWidth + 0.5;
    // The innermost elements past the edge: what widens the page, not its ancestors.
    const past = [...document.querySelectorAll("body *")]
      .filter((e) => beyond(e) && ![...e.children].some(beyond))
      .slice(0, 3)
      .map((e) => `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).replaceAll(" ", ".")}` : ""}`);
    return `${over} px (${past.join(", ")})`;
  });

/** A screen's path, and what shows that its data has arrived. */
export type Screen = [path: string, ready: (p: Page) => Locator];

/**
 * Opens each screen at `base`, waits for its data (and whatever else it loads: no busy region left), and
 * answers those that scroll sideways with how far and what reaches past the edge; a screenshot of each.
 */
export async function screensWiderThanPage(page: Page, base: string, screens: readonly Screen[], shotPrefix: string): Promise<string[]> {
  const wide: string[] = [];
  for (const [path, ready] of screens) {
    await page.goto(`${base}${path}`);
    await seen(ready(page));
    await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"]'), undefined, { timeout: 15_000 });
    const over = await sideways(page);
    if (over !== 0) wide.push(`${path}: ${over}`);
    await shot(page, `${shotPrefix}${path.replaceAll("/", "-")}`);
  }
  return wide;
}
