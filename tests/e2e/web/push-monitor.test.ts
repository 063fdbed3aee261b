// A heartbeat (push) monitor in a real browser, against the product started as the README says:
// - the form for the push type asks for no host and no agent, shows the expectation's fields (the cron
//   ones only for a cron expectation) and the API's 422 on a schedule that never fires;
// - created, its page shows the push URL once with a copy button and curl lines; a GET to that URL marks
//   it up, a push saying down marks it down;
// - "Rotate push URL" (confirmed) shows a new URL; the old one answers 404, the new one 200; a reload
//   shows no URL at all.
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.242";
const ADMIN = { email: "push-monitor@example.com", password: "a long passphrase for push monitors" };

describe.skipIf(!hasChromium)("a push monitor in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);

  const status = async (id: number) => (await s.api("GET", `/monitors/${id}`)).status;

  it("creates a push monitor, shows its URL once, takes pushes, and rotates the URL", async () => {
    const { page } = s;
    await page.getByRole("link", { name: "New monitor" }).click();
    await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("nightly backup");
    await page.getByLabel("Check type").selectOption("push");
    expect(await page.getByLabel("Host", { exact: true }).count()).toBe(0);
    expect(await page.getByLabel("Run through an agent").count()).toBe(0);
    expect(await page.getByLabel("Schedule (cron)").count()).toBe(0);
    await page.getByLabel("Expect a push", { exact: true }).selectOption("cron");
    await page.getByLabel("Schedule (cron)").fill("0 0 30 2 *");
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.locator("#config-cron-error").getByText("This schedule never fires."));

    await page.getByLabel("Schedule (cron)").fill("0 2 * * *");
    await page.getByLabel("Tolerance (seconds)").fill("1800");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.getByRole("heading", { name: /nightly backup/, level: 1 }));
    const id = Number(/\/monitors\/(\d+)$/.exec(page.url())![1]);
    const saved = await s.api("GET", `/monitors/${id}`);
    expect(saved).toMatchObject({
      check_type: "push",
      host: "",
      push_token_set: true,
      config: { expect: "cron", cron: "0 2 * * *", tolerance_secs: 1800, timezone: "Europe/Berlin" },
    });
    expect(saved).not.toHaveProperty("push_token");

    const shown = await seen(page.getByTestId("push-url"));
    const url = (await shown.textContent())!.trim();
    expect(url).toMatch(new RegExp(`^${s.product.url}/api/v1/push/[A-Za-z0-9_-]{43}$`));
    await seen(page.getByRole("button", { name: "Copy" }));
    const curls = await page.getByTestId("push-curl").allTextContents();
    expect(curls).toEqual([`curl -fsS -m 10 --retry 3 '${url}'`, `curl -fsS -m 10 '${url}?status=down&msg=backup%20failed'`]);
    expect(await page.getByRole("button", { name: "Check now" }).count()).toBe(0);
    await shot(page, "56-push-monitor-url");

    const up = await fetch(url);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ ok: true, recorded: true });
    expect(await status(id)).toBe("up");
    expect((await fetch(`${url}?status=down&msg=backup%20failed`)).status).toBe(200);
    expect(await status(id)).toBe("down");

    await page.getByRole("button", { name: "Rotate push URL" }).click();
    await page.getByRole("button", { name: "Rotate", exact: true }).click();
    const rotated = page.getByTestId("push-url");
    await seen(rotated.filter({ hasNotText: url }));
    const next = (await rotated.textContent())!.trim();
    expect(next).not.toBe(url);
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(next, { method: "POST" })).status).toBe(200);
    expect(await status(id)).toBe("up");

    await page.reload();
    await seen(page.getByRole("heading", { name: /nightly backup/, level: 1 }));
    await seen(page.getByText("The push URL is shown only when it is made"));
    expect(await page.getByTestId("push-url").count()).toBe(0);
  });
});
