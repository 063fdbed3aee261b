// Discovery profiles, job logs, cancel, bulk review and its undo, and the settings edited in place, in a
// real browser against the product started as the README says. Fake hosts to scan listen on
// 127.0.0.221 and 127.0.0.222.
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { ARTIFACTS, hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.220";
const SCANNED = ["127.0.0.221", "127.0.0.222"] as const;
const ADMIN = { email: "discovery@example.com", password: "a long passphrase for discovery" };

describe.skipIf(!hasChromium)("web UI discovery profiles and settings edited in place", () => {
  const data = tempDataDir();
  let s: SignedIn;
  const listeners: Server[] = [];
  let port = 0;

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    // Several screens poll the API from one address.
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
    // One port, open on both fake hosts: the scan finds two hosts with it.
    const first = createServer((c) => c.destroy());
    await new Promise<void>((r) => first.listen(0, SCANNED[0], r));
    port = (first.address() as { port: number }).port;
    const second = createServer((c) => c.destroy());
    await new Promise<void>((r) => second.listen(port, SCANNED[1], r));
    listeners.push(first, second);
  }, 300_000);

  afterAll(async () => {
    if (s) writeFileSync(join(ARTIFACTS, "discovery-settings-product.log"), s.product.output());
    for (const l of listeners) l.close();
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("creates a profile (its 422 on the field first), edits, pauses and runs it; the job's log and results show", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Discovery" }).click();
    await page.getByRole("navigation", { name: "Discovery sections" }).getByRole("link", { name: "Profiles" }).click();
    await seen(page.getByRole("heading", { name: "New profile" }));
    await page.locator("#profile-new-name").fill("lab hosts");
    await page.locator("#profile-new-targets").fill(SCANNED.join(", "));
    await page.getByLabel("icmp").uncheck();
    await page.getByLabel("dns").uncheck();
    await page.locator("#profile-new-ports").fill(String(port));
    await page.locator("#profile-new-cron").fill("every night");
    await page.getByRole("button", { name: "Create profile" }).click();
    const error = await seen(page.locator("#profile-new-cron-error"));
    expect(await error.textContent()).toContain("5-field crontab");
    expect((await s.api("GET", "/discovery/profiles")).total).toBe(0);
    await shot(page, "30-profile-422");

    await page.locator("#profile-new-cron").fill("");
    await page.getByRole("button", { name: "Create profile" }).click();
    const row = page.locator("tr[data-profile]").filter({ hasText: "lab hosts" });
    await seen(row.getByText("by hand"));

    // Edited in place: the same profile gets a schedule, then its schedule is paused and resumed.
    await row.getByRole("button", { name: "Edit" }).click();
    await seen(page.getByRole("heading", { name: "Edit profile lab hosts" }));
    await page.getByLabel("Schedule (optional)").fill("0 3 * * *");
    await page.getByRole("button", { name: "Save profile" }).click();
    await seen(row.getByText("0 3 * * *"));
    const profiles = (await s.api("GET", "/discovery/profiles")) as { total: number; items: Array<{ id: number; schedule_cron: string | null; next_run_at: string | null }> };
    expect(profiles.total).toBe(1);
    expect(profiles.items[0]!.schedule_cron).toBe("0 3 * * *");
    expect(profiles.items[0]!.next_run_at).not.toBeNull();
    await row.getByRole("button", { name: "Pause" }).click();
    await seen(row.getByText("paused", { exact: true }));
    await shot(page, "31-profile-paused");
    await row.getByRole("button", { name: "Resume" }).click();
    await seen(row.getByText("active", { exact: true }));

    await row.getByRole("button", { name: "Run now" }).click();
    const open = await seen(page.getByRole("link", { name: /^Open scan \d+$/ }));
    await open.click();
    for (const ip of SCANNED) await seen(page.locator("tbody tr").filter({ hasText: ip }).getByRole("button", { name: "Merge" }), 60_000);
    const log = page.getByRole("list", { name: /^Log entries of scan \d+$/ });
    await seen(log.getByText(`Scanning ${SCANNED.length} addresses: tcp`), 30_000);
    await seen(log.getByText(/hosts answered/), 30_000);
    await shot(page, "32-discovery-job-log");
  }, 180_000);

  it("merges the selected results together and undoes the merge", async () => {
    const { page } = s;
    for (const ip of SCANNED) await page.getByLabel(`Select ${ip}`).check();
    await page.getByRole("button", { name: "Merge selected (2)" }).click();
    await seen(page.getByText("2 merged, 0 rejected, 0 skipped."));
    const hardware = async () => ((await s.api("GET", "/hardware")) as { total: number }).total;
    expect(await hardware()).toBe(2);
    await shot(page, "33-discovery-bulk-merged");

    // One audit entry covers both: undoing it from either row puts both back to review.
    page.once("dialog", (d) => {
      expect(d.message()).toContain("1 other results reviewed with it");
      void d.accept();
    });
    await page.locator("tbody tr").filter({ hasText: SCANNED[0] }).getByRole("button", { name: "Undo merge" }).click();
    await seen(page.getByText(/^Undone: 2 results back to pending/));
    for (const ip of SCANNED) await seen(page.locator("tbody tr").filter({ hasText: ip }).getByRole("button", { name: "Merge" }));
    expect(await hardware()).toBe(0);

    for (const ip of SCANNED) await page.getByLabel(`Select ${ip}`).check();
    await page.getByRole("button", { name: "Reject selected" }).click();
    await seen(page.getByText("0 merged, 2 rejected, 0 skipped."));
    await seen(page.locator("tbody tr").filter({ hasText: SCANNED[1] }).getByRole("button", { name: "Undo reject" }));
  }, 90_000);

  it("cancels a scan that waits to run", async () => {
    const { page } = s;
    // The fleet-wide pause holds new jobs queued, so the cancel reaches an open job whatever the machine's speed.
    await s.api("POST", "/discovery/pause");
    try {
      await page.getByRole("navigation", { name: "Discovery sections" }).getByRole("link", { name: "Profiles" }).click();
      await page.locator("tr[data-profile]").filter({ hasText: "lab hosts" }).getByRole("button", { name: "Run now" }).click();
      const open = await seen(page.getByRole("link", { name: /^Open scan \d+$/ }));
      const jobId = Number(/\d+$/.exec((await open.textContent())!)![0]);
      await open.click();
      const card = page.locator("li.card").filter({ has: page.getByRole("button", { name: `Cancel scan ${jobId}` }) });
      await seen(card.getByText("queued", { exact: true }));
      page.once("dialog", (d) => void d.accept());
      await card.getByRole("button", { name: `Cancel scan ${jobId}` }).click();
      await seen(page.locator("li.card").filter({ hasText: `Scan ${jobId}` }).getByText("cancelled", { exact: true }));
      expect((await s.api("GET", `/discovery/jobs/${jobId}`)).status).toBe("cancelled");
      await shot(page, "34-discovery-cancelled");
    } finally {
      await s.api("POST", "/discovery/resume");
    }
  }, 90_000);
});
