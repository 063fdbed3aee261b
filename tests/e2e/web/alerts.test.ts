// The alerts screen in a real browser (docs/adr/0447-acknowledgement.md), against the product started as the
// README says, alerts raised by push monitors told that their job failed:
// - the Open tab lists the incident with its severity and monitor; Acknowledge moves it to the Acknowledged
//   tab, naming who; the API agrees;
// - the alert's page shows its timeline, and Un-acknowledge there opens it again;
// - a new failure elsewhere appears in the open list without a reload (the monitors stream).
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.226";
const ADMIN = { email: "alerts@example.com", password: "a long passphrase for alerts" };

describe.skipIf(!hasChromium)("alerts in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);

  /** A push monitor whose job reports that it failed: its down alert opens an incident. */
  async function failingJob(name: string): Promise<{ monitorId: number; alertId: number }> {
    const created = await s.api("POST", "/monitors", { name, check_type: "push" });
    const down = await fetch(`${created.push_url as string}?status=down&msg=job%20failed`);
    expect(down.status).toBe(200);
    const open = (await s.api("GET", `/alerts?state=open&monitor_id=${created.id as number}`)) as { items: { id: number }[] };
    expect(open.items).toHaveLength(1);
    return { monitorId: created.id as number, alertId: open.items[0]!.id };
  }

  it("acknowledges an open alert, shows it acknowledged, and un-acknowledges it on its page", async () => {
    const { page } = s;
    const { alertId } = await failingJob("nightly backup");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts", exact: true }).click();
    await seen(page.getByRole("heading", { name: "Alerts", level: 1 }));
    await seen(page.getByText("Live", { exact: true }));
    const row = await seen(page.locator(`tr[data-alert="${alertId}"]`));
    await seen(row.getByText("critical"));
    await seen(row.getByRole("link", { name: "nightly backup", exact: true }));
    await shot(page, "59-alerts-open");

    await row.getByRole("button", { name: /^Acknowledge / }).click();
    await row.waitFor({ state: "detached" });
    expect(await s.api("GET", `/alerts/${alertId}`)).toMatchObject({ state: "acknowledged", acknowledged_by: ADMIN.email });
    await page.getByRole("button", { name: "Acknowledged", exact: true }).click();
    const acked = await seen(page.locator(`tr[data-alert="${alertId}"]`));
    await seen(acked.getByText(ADMIN.email));

    await acked.getByRole("link").first().click();
    await seen(page.getByRole("heading", { level: 1, name: /acknowledged/ }));
    await seen(page.getByRole("table", { name: "The alerts of this incident, oldest first" }).getByText("monitor.down"));
    await shot(page, "60-alert-page");
    await page.getByRole("button", { name: /^Un-acknowledge / }).click();
    await seen(page.getByRole("heading", { level: 1, name: /open/ }));
    expect(await s.api("GET", `/alerts/${alertId}`)).toMatchObject({ state: "open", acknowledged_by: null });
  });

  it("shows a new failure in the open list without a reload", async () => {
    const { page } = s;
    await page.getByRole("link", { name: "Alerts", exact: true }).first().click();
    await seen(page.getByRole("heading", { name: "Alerts", level: 1 }));
    await seen(page.getByText("Live", { exact: true }));
    const { alertId } = await failingJob("hourly export");
    await seen(page.locator(`tr[data-alert="${alertId}"]`));
  });
});
