// The incident editor of a status page in a real browser (docs/status-pages.md, Incidents), against the
// product started as the README says, with a published page listing a monitor:
// - a new incident's 422 is shown at its field (an empty title), nothing is created;
// - a draft is created with an affected item chosen among the page's items; it is not on the public page;
// - Publish on a version changed elsewhere is a 412 saying so, with "Load their version";
// - published, it shows on /status/<slug>; an "identified" update's Markdown shows as bold in the timeline;
// - resolved, it is on /status/<slug>/history; its title and impact are edited (a 422 at Title first);
// - a viewer sees the incidents and an incident read-only.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.253";
const ADMIN = { email: "incidents@example.com", password: "a long passphrase for incidents" };
const VIEWER = { email: "incidents-viewer@example.com", password: "viewer passphrase for incidents" };
const TITLE = "Photos are slow";

describe.skipIf(!hasChromium)("status page incidents in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  let pageId = 0;

  /** The public answer at `path` once `want` says so: the page cache follows a change by NOTIFY, so it is polled (bounded). */
  async function publicly(path: string, want: (html: string) => boolean): Promise<string> {
    const until = Date.now() + 20_000;
    for (;;) {
      const res = await s.product.fetch(path);
      const html = await res.text();
      if (res.status === 200 && want(html)) return html;
      if (Date.now() > until) throw new Error(`${path} never showed what was expected (last ${res.status})`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async function openIncidents(page: Page) {
    await page.goto(`${s.product.url}/status-pages/${pageId}`);
    await seen(page.getByRole("heading", { name: "Home services", level: 1 }));
    await page.getByRole("navigation", { name: "Status page screens" }).getByRole("link", { name: "Incidents" }).click();
    await seen(page.getByRole("heading", { name: "Incidents of Home services", level: 1 }));
  }

  it("creates a draft, publishes it, adds updates and resolves it", async () => {
    const nasId = (await s.api("POST", "/monitors", { name: "nas-internal-01", check_type: "http", host: "nas01.lan" })).id as number;
    pageId = (
      await s.api("POST", "/status-pages", {
        slug: "home",
        title: "Home services",
        published: true,
        sections: [{ name: "Storage", items: [{ kind: "monitor", monitor_id: nasId, public_name: "NAS" }] }],
      })
    ).id as number;
    const { page } = s;
    await openIncidents(page);
    await seen(page.getByText("No incidents."));

    await page.getByRole("button", { name: "New incident" }).click();
    await page.getByLabel("Impact").selectOption("major");
    await page.getByRole("checkbox", { name: "NAS" }).check();
    await page.getByLabel("First update").fill("We are looking into it.");
    await page.getByRole("button", { name: "Create incident" }).click();
    // The title left empty: the API's 422 is shown at it.
    await seen(page.locator("#incident-title-error"));
    expect(await page.getByLabel("Title").getAttribute("aria-invalid")).toBe("true");
    expect((await s.api("GET", `/status-pages/${pageId}/incidents`)).total).toBe(0);
    await shot(page, "90-incident-422");

    await page.getByLabel("Title").fill(TITLE);
    await page.getByRole("button", { name: "Create incident" }).click();
    await seen(page.getByRole("heading", { name: TITLE, level: 1 }));
    await seen(page.getByText("draft: not public"));
    const list = (await s.api("GET", `/status-pages/${pageId}/incidents`)).items as { id: number; published: boolean; impact: string }[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ published: false, impact: "major" });
    const incident = await s.api("GET", `/status-pages/${pageId}/incidents/${list[0]!.id}`);
    expect(incident.affected).toMatchObject([{ kind: "monitor", monitor_id: nasId, public_name: "NAS" }]);
    // A draft is never public.
    expect(await (await s.product.fetch("/status/home")).text()).not.toContain(TITLE);

    // Changed elsewhere since it was loaded: Publish is a 412 saying so, until their version is loaded.
    await s.api("PATCH", `/status-pages/${pageId}/incidents/${list[0]!.id}`, { impact: "critical" });
    await page.getByRole("button", { name: "Publish" }).click();
    await seen(page.getByText("This incident was changed meanwhile"));
    expect((await s.api("GET", `/status-pages/${pageId}/incidents/${list[0]!.id}`)).published).toBe(false);
    await shot(page, "93-incident-412");
    await page.getByRole("button", { name: "Load their version" }).click();
    await seen(page.getByText("impact critical"));
    await page.getByRole("button", { name: "Publish" }).click();
    await seen(page.getByText("Published."));
    await publicly("/status/home", (html) => html.includes(TITLE));

    await page.getByLabel("Status", { exact: true }).selectOption("identified");
    await page.getByLabel("Update", { exact: true }).fill("A **full disk** on the storage cluster.");
    await page.getByRole("button", { name: "Add update" }).click();
    await seen(page.locator(".incident-timeline strong", { hasText: "full disk" }));
    await seen(page.locator(".incident-timeline").getByText("identified"));
    await shot(page, "91-incident-timeline");

    await page.getByLabel("Status", { exact: true }).selectOption("resolved");
    await page.getByLabel("Update", { exact: true }).fill("Fixed: the disk was replaced.");
    await page.getByRole("button", { name: "Add update" }).click();
    await seen(page.getByText("Fixed: the disk was replaced."));
    expect((await s.api("GET", `/status-pages/${pageId}/incidents/${list[0]!.id}`)).resolved_at).not.toBeNull();
    await publicly("/status/home/history", (html) => html.includes(TITLE) && html.includes("full disk"));

    // Edited: an empty title is the API's 422 at Title, nothing changed; then the impact is saved.
    await page.getByLabel("Title").fill("");
    await page.getByLabel("Impact").selectOption("minor");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.locator("#incident-title-error"));
    expect((await s.api("GET", `/status-pages/${pageId}/incidents/${list[0]!.id}`)).impact).toBe("critical");
    await page.getByLabel("Title").fill(TITLE);
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("Saved."));
    expect((await s.api("GET", `/status-pages/${pageId}/incidents/${list[0]!.id}`)).impact).toBe("minor");

    // The list, filtered: resolved, not open.
    await openIncidents(page);
    await page.getByLabel("Show").selectOption("open");
    await seen(page.getByText("No incidents in this state."));
    await page.getByLabel("Show").selectOption("resolved");
    await seen(page.getByRole("link", { name: TITLE }));
  }, 180_000);

  it("shows a viewer the incidents read-only", async () => {
    await s.api("POST", "/admin/users", { ...VIEWER, role: "viewer", must_change_password: false });
    const context = await s.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const p = await context.newPage();
    try {
      await p.goto(`${s.product.url}/status-pages/${pageId}/incidents`);
      await p.getByLabel("Email").fill(VIEWER.email);
      await p.getByLabel("Password").fill(VIEWER.password);
      await p.getByRole("button", { name: "Sign in" }).click();
      await seen(p.getByRole("heading", { name: "Incidents of Home services", level: 1 }));
      await seen(p.getByText("Your role can read incidents but not change them"));
      expect(await p.getByRole("button", { name: "New incident" }).count()).toBe(0);
      await p.getByRole("link", { name: TITLE }).click();
      await seen(p.getByRole("heading", { name: TITLE, level: 1 }));
      await seen(p.locator(".incident-timeline strong", { hasText: "full disk" }));
      expect(await p.getByLabel("Title").isDisabled()).toBe(true);
      for (const name of ["Publish", "Delete…", "Add update", "Save changes"])
        expect(await p.getByRole("button", { name }).count()).toBe(0);
      await shot(p, "92-incident-viewer");
    } finally {
      await context.close();
    }
  }, 60_000);

  it("deletes an incident once confirmed", async () => {
    const { page } = s;
    await openIncidents(page);
    await page.getByRole("link", { name: TITLE }).click();
    await seen(page.getByRole("heading", { name: TITLE, level: 1 }));
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Delete incident" }).click();
    await seen(page.getByRole("heading", { name: "Incidents of Home services", level: 1 }));
    await seen(page.getByText("No incidents."));
    expect((await s.api("GET", `/status-pages/${pageId}/incidents`)).total).toBe(0);
  }, 60_000);
});
