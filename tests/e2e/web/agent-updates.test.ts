// Agent updates in the console, in a real browser against the product started as the README says, with
// signed fake builds of 2.0.0 in AGENT_BINARY_DIR and test peers (../agents/update-peer.ts: real links
// on 1.0.0 that answer each `update` frame as the test tells them):
// - the agents table shows each agent's version and "2.0.0 available";
// - the update dialog shows the API's refusal in it and gives the focus back to the button that opened it
//   (closed by its Cancel button or by Escape);
// - two agents selected and "Update selected…": the rollout's card goes wave by wave to completed;
// - a rollout whose first agent fails (agents selected by keyboard) stops, its card shows the stop reason
//   and Resume, which finishes it;
// - an agent's page offers "Update to 2.0.0" and shows the update under way;
// - a viewer sees the versions and the rollouts without any action.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testReleaseKey } from "../../helpers/release-key.ts";
import { type Admin, serverKeyOf, tempDir } from "../agents/support.ts";
import { UpdatePeer } from "../agents/update-peer.ts";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.236";
const ADMIN = { email: "updates@example.com", password: "a long passphrase for updates" };
const VIEWER = { email: "updates-viewer@example.com", password: "viewer passphrase for updates" };

describe.skipIf(!hasChromium)("agent updates in the console", () => {
  const data = tempDataDir();
  const binaries = tempDir("console-binaries-");
  const peers: Record<string, UpdatePeer> = {};
  let s: SignedIn;

  const row = (page: Page, name: string) => page.locator(`tr[data-agent="${peers[name]!.id}"]`);
  const card = (page: Page, id: number) => page.locator(`article[data-rollout="${id}"]`);
  const count = (c: Locator, state: string) => c.locator(`li[data-state="${state}"] strong`);
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
  const rollouts = async () => (await s.api("GET", "/agents/rollouts?sort=id&direction=desc")).items as Array<{ id: number }>;
  const latestRollout = async () => (await rollouts())[0]!.id;

  beforeAll(async () => {
    const releaseKey = testReleaseKey();
    mkdirSync(join(binaries.dir, "2.0.0", "linux", "amd64"), { recursive: true });
    writeFileSync(join(binaries.dir, "2.0.0", "linux", "amd64", "svc-agent"), "agent 2.0.0 for amd64");
    releaseKey.signBuild(binaries.dir, "2.0.0", "linux", "amd64");
    releaseKey.publish(binaries.dir);
    s = await signedIn(HOST, data.dir, ADMIN, { AGENT_BINARY_DIR: binaries.dir });
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
    const admin = { call: (method: string, path: string, body?: unknown) => s.api(method, `/${path}`, body) } as Admin;
    const serverKey = await serverKeyOf(s.product);
    for (const name of ["web-1", "web-2", "db-1", "db-2", "cache-1"]) {
      const peer = new UpdatePeer(name, "1.0.0");
      peers[name] = peer;
      await peer.enroll(s.product, serverKey, admin);
      await peer.link(s.product, serverKey);
    }
  }, 300_000);

  afterAll(async () => {
    for (const peer of Object.values(peers)) peer.close();
    await s?.browser.close();
    await killAll();
    data.remove();
    binaries.remove();
  });

  it("shows each agent's version and the version available to it", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
    await seen(page.getByRole("heading", { name: "All agents" }));
    for (const name of Object.keys(peers)) {
      await seen(row(page, name).locator('td[data-label="Version"]').getByText("1.0.0", { exact: true }));
      await seen(row(page, name).locator(".update-available").getByText("2.0.0 available"));
    }
    await seen(page.getByRole("columnheader", { name: "Available" }));
    await seen(page.getByRole("heading", { name: "Rollouts" }));
    await seen(page.getByText("No rollout is under way."));
    // Add a host: the install command of this server (GET /agents/install-command), for administrators.
    await seen(page.getByRole("heading", { name: "Add a host" }));
    const command = await page.getByTestId("install-command").textContent();
    expect(command).toContain(`${s.product.url}/install-agent.sh`);
    expect(command).toMatch(/sha256sum -c/);
    await shot(page, "70-agents-versions");
  }, 60_000);

  it("shows the API's refusal in the update dialog and gives the focus back to its button", async () => {
    const { page } = s;
    await page.getByRole("button", { name: "Update all…" }).click();
    const dialog = page.getByRole("dialog", { name: "Update all agents" });
    await seen(dialog);
    expect(await dialog.getByLabel("Version").inputValue()).toBe("2.0.0");
    await dialog.getByLabel("Version").fill("9.9.9");
    await dialog.getByRole("button", { name: "Start update" }).click();
    await seen(
      dialog.locator("#rollout-version-error").getByText("No agent build of version 9.9.9 on this instance; signed versions: 2.0.0."),
    );
    await seen(dialog.locator(".notice-error").getByText(/^version: No agent build of version 9\.9\.9/));
    await dialog.getByLabel("First wave (% of the agents)").fill("0");
    await dialog.getByLabel("Version").fill("2.0.0");
    await dialog.getByRole("button", { name: "Start update" }).click();
    await seen(dialog.locator("#rollout-wave-error").getByText("Must be at least 1."));
    expect(await rollouts()).toEqual([]);
    await shot(page, "71-update-dialog-refused");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => focused(page)).toBe("Update all…");
    // By keyboard: Enter opens it again, Escape closes it, and the focus is back on the button.
    await page.keyboard.press("Enter");
    await seen(dialog);
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => focused(page)).toBe("Update all…");
  }, 60_000);

  it("updates two selected agents in a rollout whose progress reaches completed on the screen", async () => {
    const { page } = s;
    await page.getByLabel("Select web-1").check();
    await page.getByLabel("Select web-2").check();
    await page.getByRole("button", { name: "Update selected… (2)" }).click();
    const dialog = page.getByRole("dialog", { name: "Update 2 agents" });
    await seen(dialog.getByRole("list", { name: "Agents to update" }).getByText("web-2"));
    await dialog.getByLabel("First wave (% of the agents)").fill("50");
    await dialog.getByRole("button", { name: "Start update" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const id = await latestRollout();
    await seen(page.getByText(`Rollout ${id} of version 2.0.0 started`));
    await expect.poll(() => focused(page)).toBe("Update all…");
    const c = card(page, id);
    await seen(c.getByRole("heading", { name: new RegExp(`Rollout ${id}: version 2.0.0`) }));
    await seen(c.getByRole("heading").getByText("completed", { exact: true }), 30_000);
    await seen(c.getByText("Wave 2 of 2"));
    expect(await count(c, "succeeded").textContent()).toBe("2");
    expect(await count(c, "failed").textContent()).toBe("0");
    await c.locator("summary").click();
    await seen(c.getByRole("table", { name: `Agents in rollout ${id}` }).getByRole("link", { name: "web-2" }));
    expect(await c.getByRole("button", { name: "Cancel rollout…" }).count()).toBe(0);
    const done = (await s.api("GET", `/agents/rollouts/${id}`)) as { state: string; targets: Array<{ agent_id: number }> };
    expect(done.state).toBe("completed");
    expect(done.targets.map((t) => t.agent_id).sort()).toEqual([peers["web-1"]!.id, peers["web-2"]!.id].sort());
    expect(peers["db-1"]!.updates).toEqual([]);
    await shot(page, "72-rollout-completed");
  }, 90_000);

  it("shows a rollout stopped by a failure with its reason, and Resume finishes it", async () => {
    const { page } = s;
    const [db1, db2] = [peers["db-1"]!, peers["db-2"]!];
    db1.answer = "failed";
    // Selected by keyboard.
    for (const name of ["db-1", "db-2"]) {
      await page.getByLabel(`Select ${name}`).focus();
      await page.keyboard.press("Space");
    }
    await page.getByRole("button", { name: "Update selected… (2)" }).click();
    const dialog = page.getByRole("dialog", { name: "Update 2 agents" });
    await dialog.getByLabel("First wave (% of the agents)").fill("50");
    await dialog.getByLabel("Stop after this many failures").fill("1");
    await dialog.getByRole("button", { name: "Start update" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const id = await latestRollout();
    const c = card(page, id);
    await seen(c.getByRole("heading").getByText("stopped", { exact: true }), 30_000);
    await seen(c.locator(".stop-reason").getByText(`agent ${db1.id} (db-1) failed: test peer told to answer failed`));
    expect(await count(c, "failed").textContent()).toBe("1");
    expect(await count(c, "pending").textContent()).toBe("1");
    expect(db2.updates).toEqual([]);
    await shot(page, "73-rollout-stopped");

    await c.getByRole("button", { name: "Resume" }).click();
    await seen(c.getByRole("heading").getByText("completed", { exact: true }), 30_000);
    expect(await count(c, "succeeded").textContent()).toBe("1");
    expect(await count(c, "failed").textContent()).toBe("1");
    await seen(c.getByText(/1 earlier failure acknowledged on resume/));
    expect(await c.getByRole("button", { name: "Resume" }).count()).toBe(0);
    expect(db2.updates).toHaveLength(1);
  }, 90_000);

  it("updates one agent from its page and shows the update under way", async () => {
    const { page } = s;
    const cache = peers["cache-1"]!;
    cache.answer = "hold";
    await row(page, "cache-1").getByRole("link", { name: "cache-1" }).click();
    await seen(page.getByRole("heading", { name: /cache-1/, level: 1 }));
    await seen(page.locator(".agent-update").getByText("2.0.0 available"));
    await page.getByRole("button", { name: "Update to 2.0.0" }).click();
    await seen(page.getByText(/^Update to 2\.0\.0 queued/));
    await seen(page.locator(".agent-update").getByText(/^Update to 2\.0\.0: (queued, waits for its link|sent|started)$/));
    await cache.updateFrame();
    await page.reload();
    // The agent got the frame and said started: the page shows the API's state of it (a single update's
    // is "sent" until the agent reports its outcome; a rollout target's says "started").
    const state = ((await s.api("GET", `/agents/${cache.id}`)).update as { state: string }).state;
    expect(["sent", "started"]).toContain(state);
    await seen(page.locator(".agent-update").getByText(`Update to 2.0.0: ${state}`, { exact: true }));
    await shot(page, "74-agent-page-update-started");
    cache.finish("succeeded", "2.0.0");
  }, 60_000);

  it("shows a viewer the versions and the rollouts without any action", async () => {
    await s.api("POST", "/admin/users", { ...VIEWER, role: "viewer", must_change_password: false });
    const context = await s.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const p = await context.newPage();
    try {
      await p.goto(`${s.product.url}/agents`);
      await p.getByLabel("Email").fill(VIEWER.email);
      await p.getByLabel("Password").fill(VIEWER.password);
      await p.getByRole("button", { name: "Sign in" }).click();
      await seen(p.getByRole("heading", { name: "All agents" }));
      await seen(row(p, "db-2").getByText("2.0.0 available"));
      await seen(p.getByText("Updating agents needs the admin:agents scope."));
      expect(await p.getByRole("heading", { name: "Add a host" }).count()).toBe(0);
      await seen(p.locator("article.rollout").first());
      expect(await p.getByRole("checkbox").count()).toBe(0);
      for (const name of [/^Update selected/, "Update all…", "Resume", "Cancel rollout…"])
        expect(await p.getByRole("button", { name }).count()).toBe(0);
      await shot(p, "75-agents-viewer");

      await p.goto(`${s.product.url}/agents/${peers["db-2"]!.id}`);
      await seen(p.getByRole("heading", { name: /db-2/, level: 1 }));
      await seen(p.locator(".agent-update").getByText("2.0.0 available"));
      await seen(p.getByText("Updating, revoking and changing grants need the admin:agents scope."));
      expect(await p.getByRole("button", { name: /^Update to/ }).count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
