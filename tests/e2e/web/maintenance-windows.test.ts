// The maintenance windows screens in a real browser (docs/monitors.md, Maintenance windows), against the
// product started as the README says:
// - "Maintenance" in the navigation opens the list; a new window's unsound fields are the API's 422s on
//   each field (a bad cron pattern and no duration, nothing covered, an end before the start), and nothing
//   is created;
// - a one-off window open now covering a monitor picked by name is listed as active until its end; one
//   created through the API for tomorrow as upcoming;
// - an edit made stale by another change is a 412 with "Load their version", then saved;
// - Delete… (confirmed) removes it.
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.141";
const ADMIN = { email: "maintenance@example.com", password: "a long passphrase for maintenance" };
const HOUR = 3_600_000;

/** An instant as a datetime-local input takes it, in the browser's (and this process's) time zone. */
function local(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

describe.skipIf(!hasChromium)("maintenance windows in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);

  it("creates a window after the API's 422s, lists it active and another upcoming, edits it past a 412 and deletes it", async () => {
    const { page } = s;
    const monitor = (await s.api("POST", "/monitors", {
      name: "web-01 tcp",
      check_type: "tcp",
      host: "127.0.0.1",
      config: { port: 9 },
      enabled: false,
    })) as { id: number };

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Maintenance" }).click();
    await seen(page.getByRole("heading", { name: "Maintenance windows", level: 1 }));
    await seen(page.getByText("No maintenance windows yet."));
    await page.getByRole("link", { name: "New maintenance window" }).click();
    await seen(page.getByRole("heading", { name: "New maintenance window", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("Patch night");

    // Recurring with a pattern croner refuses and no duration, covering nothing: three fields refused.
    await page.getByLabel("Recurring (a cron schedule)").check();
    await page.getByLabel("Cron pattern").fill("every sunday");
    await page.getByRole("button", { name: "Create window" }).click();
    await seen(page.locator("#window-cron-error").getByText("Not a cron pattern"));
    await seen(page.locator("#window-duration-error").getByText("A recurring window needs duration_minutes."));
    await seen(page.locator("#window-monitors-error").getByText("Say what the window covers"));

    // Once, ending before it starts: refused at the end.
    await page.getByLabel("Once", { exact: true }).check();
    const now = Date.now();
    await page.getByLabel("Starts").fill(local(now - HOUR));
    await page.getByLabel("Ends").fill(local(now - 2 * HOUR));
    await page.getByLabel("Tag").fill("web");
    await page.getByRole("button", { name: "Create window" }).click();
    await seen(page.locator("#window-ends-error").getByText("Must be after starts_at."));
    expect((await s.api("GET", "/monitors/maintenance-windows")).total).toBe(0);

    // Open now for two hours, covering the monitor picked by name (the tag emptied).
    const ends = now + 2 * HOUR;
    await page.getByLabel("Ends").fill(local(ends));
    await page.getByLabel("Tag").fill("");
    await page.getByLabel("Add a monitor").fill("web-01");
    await page.getByRole("option", { name: /web-01 tcp/ }).click();
    await seen(page.getByRole("list", { name: "Monitors covered" }).getByRole("link", { name: "web-01 tcp" }));
    await page.getByRole("button", { name: "Create window" }).click();
    await seen(page.getByRole("heading", { name: "Maintenance windows", level: 1 }));
    const [created] = (await s.api("GET", "/monitors/maintenance-windows")).items as { id: number; [k: string]: unknown }[];
    expect(created).toMatchObject({ name: "Patch night", kind: "one_off", monitor_ids: [monitor.id], tag: null, active: true });
    const row = await seen(page.locator(`tr[data-window="${created!.id}"]`));
    await seen(row.locator(".status-good", { hasText: "active" }));
    await seen(row.getByText(/^until /));
    await seen(row.getByText("1 monitor"));

    const tomorrow = Date.now() + 24 * HOUR;
    const later = await s.api("POST", "/monitors/maintenance-windows", {
      name: "Firmware",
      starts_at: new Date(tomorrow).toISOString(),
      ends_at: new Date(tomorrow + HOUR).toISOString(),
      tag: "switch",
    });
    await page.reload();
    const upcoming = await seen(page.locator(`tr[data-window="${later.id as number}"]`));
    await seen(upcoming.locator(".status-warn", { hasText: "upcoming" }));
    await seen(upcoming.getByText(/^starts /));
    await seen(upcoming.getByText("tag switch"));
    await shot(page, "maintenance-windows-list");

    // Someone else changes the window while the form is open: saving is a 412 until their version is loaded.
    await row.getByRole("link", { name: "Patch night" }).click();
    await seen(page.getByRole("heading", { name: "Edit Patch night", level: 1 }));
    await seen(page.locator(".window-state .status-good", { hasText: "active" }));
    await s.api("PATCH", `/monitors/maintenance-windows/${created!.id}`, { description: "kernel updates" });
    await page.getByLabel("Name", { exact: true }).fill("Patch night (web)");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("button", { name: "Load their version" }).click();
    await page.getByRole("button", { name: "Load their version" }).waitFor({ state: "detached" });
    expect(await page.getByLabel("Description").inputValue()).toBe("kernel updates");
    await page.getByLabel("Name", { exact: true }).fill("Patch night (web)");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByRole("heading", { name: "Maintenance windows", level: 1 }));
    await seen(page.getByRole("link", { name: "Patch night (web)" }));
    expect(await s.api("GET", `/monitors/maintenance-windows/${created!.id}`)).toMatchObject({
      name: "Patch night (web)",
      description: "kernel updates",
      monitor_ids: [monitor.id],
    });

    await page.getByRole("link", { name: "Patch night (web)" }).click();
    await page.getByRole("button", { name: "Delete…" }).click();
    await seen(page.getByRole("dialog", { name: "Delete Patch night (web)?" }));
    await page.getByRole("button", { name: "Delete window" }).click();
    await seen(page.getByRole("heading", { name: "Maintenance windows", level: 1 }));
    await page.getByRole("link", { name: "Patch night (web)" }).waitFor({ state: "detached" });
    expect((await s.api("GET", "/monitors/maintenance-windows")).items).toEqual([expect.objectContaining({ name: "Firmware" })]);
  });
});
