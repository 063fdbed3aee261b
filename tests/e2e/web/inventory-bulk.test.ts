// The other inventory groups and the bulk actions in a real browser against the product started as the
// README says: a storage item and a VLAN created through their forms (the API's 422 on the VLAN tag first),
// listed and shown; the list, detail and edit form of every other new group; three selected hardware rows tagged at once; a bulk delete that stays disabled until
// the confirmation word is typed, is refused by the server (a node with a compute unit) with nothing
// deleted, then done; an editor who may tag but not delete, and a viewer who sees no bulk actions at all.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { ARTIFACTS, hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.210";
const ADMIN = { email: "bulk@example.com", password: "a long passphrase for bulk" };

type Hardware = { id: number; name: string; tags: string[] };

describe.skipIf(!hasChromium)("web UI inventory groups and bulk actions in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  const hardwareNamed = async (prefix: string) =>
    ((await s.api("GET", `/hardware?q=${prefix}&sort=name&limit=100`)) as { items: Hardware[] }).items;

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    // An editor and a viewer sign in below: more sign-ins from one address than the normal profile allows.
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
  }, 300_000);

  afterAll(async () => {
    if (s) writeFileSync(join(ARTIFACTS, "inventory-bulk-product.log"), s.product.output());
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("creates a storage item through its form, lists it and shows it", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Storage" }).click();
    await seen(page.getByRole("heading", { name: "Storage" }));
    // The header's button (an empty list links to the form too).
    await page.locator(".page-head").getByRole("link", { name: "New storage item" }).click();
    await page.getByLabel("Name").fill("tank-01");
    await page.getByLabel("Kind").selectOption("pool");
    await page.getByLabel("Capacity (GB)").fill("8000");
    await page.getByLabel("Used (GB)").fill("2000");
    await page.getByLabel("Path").fill("/tank");
    await page.getByLabel("Tags").fill("zfs, primary");
    await page.getByRole("button", { name: "Create storage item" }).click();
    await seen(page.getByRole("heading", { name: "tank-01" }));
    await seen(page.locator("dl.fields").getByText("/tank"));
    await shot(page, "40-storage-detail");
    const [stored] = ((await s.api("GET", "/storage?q=tank-01")) as { items: Array<Record<string, unknown>> }).items;
    expect(stored).toMatchObject({ kind: "pool", capacity_gb: 8000, used_gb: 2000, used_pct: 25, tags: ["zfs", "primary"] });

    await page.locator(".crumbs").getByRole("link", { name: "Storage" }).click();
    const row = page.locator("tbody tr").filter({ hasText: "tank-01" });
    await seen(row);
    expect(await row.textContent()).toContain("25");
    await shot(page, "41-storage-list");
  });

  it("creates a VLAN at a site, showing the API's 422 on the tag first", async () => {
    const { page } = s;
    await s.api("POST", "/sites", { name: "main-office", address: "1 Main Street" });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "VLANs" }).click();
    await page.locator(".page-head").getByRole("link", { name: "New VLAN" }).click();
    await page.getByLabel("Name").fill("iot");
    await page.getByLabel("Tag (802.1Q)").fill("5000");
    // The site picker searches the sites as one types (components/ref-picker.tsx).
    await page.getByRole("combobox", { name: "Site" }).fill("main");
    await (await seen(page.getByRole("option", { name: /main-office/ }))).click();
    await page.getByRole("button", { name: "Create VLAN" }).click();
    const error = await seen(page.locator("#field-vlan_id-error"));
    expect(await error.textContent()).toBe("A VLAN tag is 1 to 4094.");
    await shot(page, "42-vlan-422");
    await page.getByLabel("Tag (802.1Q)").fill("30");
    await page.getByRole("button", { name: "Create VLAN" }).click();
    await seen(page.getByRole("heading", { name: "iot" }));
    await seen(page.locator("dl.fields").getByText("main-office"));
    await shot(page, "43-vlan-detail");

    // The site's page lists the VLAN among its relations, a link back to it.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sites" }).click();
    await page.getByRole("link", { name: "main-office" }).click();
    await seen(page.getByRole("region", { name: "VLANs at this site" }).getByRole("link", { name: "iot" }));
    await shot(page, "44-site-detail");
  });

  it("every other group opens its list, detail (with its relations) and edit form", async () => {
    const { page } = s;
    const env = (await s.api("POST", "/environments", { name: "production", color: "#112233" })) as { id: number };
    const net = (await s.api("POST", "/networks", { name: "lan", cidr: "10.40.0.0/24" })) as { id: number };
    // group, API path, the record, what names it (its link and heading), a relation its page shows
    const records: Array<[string, string, Record<string, unknown>, string, string]> = [
      ["clusters", "/hardware-clusters", { name: "pve-cluster", type: "proxmox", environment_id: env.id }, "pve-cluster", "Members"],
      [
        "external",
        "/external-nodes",
        { name: "cloud-dns", provider: "cloudflare", url: "https://dns.example.com" },
        "cloud-dns",
        "Services that depend on it",
      ],
      ["misc", "/misc", { name: "domain-lease", kind: "domain" }, "domain-lease", ""],
      ["ipam", "/ipam", { address: "10.40.0.7", network_id: net.id, status: "reserved", hostname: "printer" }, "10.40.0.7", ""],
      ["environments", "/environments", { name: "staging" }, "staging", "Clusters in it"],
      ["categories", "/categories", { name: "media", icon: "film" }, "media", "Services in it"],
    ];
    for (const [group, path, body, title, relation] of records) {
      const { id } = (await s.api("POST", path, body)) as { id: number };
      await page.goto(`${s.product.url}/inventory/${group}`);
      await seen(page.getByRole("link", { name: title }));
      await page.getByRole("link", { name: title }).click();
      await seen(page.getByRole("heading", { name: title }));
      if (relation) await seen(page.getByRole("region", { name: relation }).locator(".count"));
      expect(await page.getByRole("alert").count(), group).toBe(0);
      await page.getByRole("link", { name: "Edit" }).click();
      await seen(page.getByRole("heading", { name: `Edit ${title}` }));
      await expect
        .poll(() => page.getByLabel(group === "ipam" ? "Address" : "Name", { exact: true }).inputValue(), { timeout: 15_000 })
        .toBe(title);
      expect(new URL(page.url()).pathname).toBe(`/inventory/${group}/${id}/edit`);
    }
    // The network's page lists the recorded address by the address.
    await page.goto(`${s.product.url}/inventory/networks/${net.id}`);
    await seen(page.getByRole("region", { name: "Recorded addresses" }).getByRole("link", { name: "10.40.0.7" }));
    // The cluster's environment is a link to it, by its name, from the cluster's page.
    await page.goto(`${s.product.url}/inventory/clusters`);
    await page.getByRole("link", { name: "pve-cluster" }).click();
    await page.locator("dl.fields").getByRole("link", { name: "production" }).click();
    await seen(page.getByRole("heading", { name: "production" }));
    await seen(page.getByRole("region", { name: "Clusters in it" }).getByRole("link", { name: "pve-cluster" }));
    await shot(page, "45-environment-detail");
  });

  it("tags three selected rows at once, selected by mouse and by keyboard", async () => {
    const { page } = s;
    for (const name of ["bulk-a", "bulk-b", "bulk-c", "bulk-d"]) await s.api("POST", "/hardware", { name });
    await page.goto(`${s.product.url}/inventory/hardware?q=bulk-`);
    await seen(page.getByRole("link", { name: "bulk-d" }));
    await page.getByLabel("Select bulk-a").check();
    await page.getByLabel("Select bulk-b").check();
    await page.getByLabel("Select bulk-c").focus();
    await page.keyboard.press("Space");
    const bar = await seen(page.getByRole("region", { name: "Bulk actions" }));
    expect(await bar.textContent()).toContain("3 hardware nodes selected");
    await bar.getByRole("button", { name: "Tag…" }).click();
    const dialog = await seen(page.getByRole("dialog", { name: "Tag 3 hardware nodes" }));
    await dialog.getByLabel("Tag", { exact: true }).fill("rack-7");
    await shot(page, "46-bulk-tag-dialog");
    await dialog.getByRole("button", { name: "Add tag to 3 hardware nodes" }).click();
    await seen(page.getByText('Tag "rack-7" added to 3 hardware nodes.'));
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(await page.getByRole("region", { name: "Bulk actions" }).count()).toBe(0);
    await shot(page, "47-bulk-tagged");
    const tags = Object.fromEntries((await hardwareNamed("bulk-")).map((h) => [h.name, h.tags]));
    expect(tags).toEqual({ "bulk-a": ["rack-7"], "bulk-b": ["rack-7"], "bulk-c": ["rack-7"], "bulk-d": [] });
  });

  const openDelete = async (page: Page, count: string) => {
    await page.getByRole("region", { name: "Bulk actions" }).getByRole("button", { name: "Delete…" }).click();
    return seen(page.getByRole("dialog", { name: `Delete ${count}?` }));
  };

  it("refuses a bulk delete until the word is typed, shows the server's refusal, then deletes", async () => {
    const { page } = s;
    const [nodeD] = await hardwareNamed("bulk-d");
    await s.api("POST", "/compute-units", { name: "vm-on-d", kind: "vm", hardware_id: nodeD!.id });
    await page.reload();
    await seen(page.getByRole("link", { name: "bulk-d" }));
    await page.getByLabel("Select all on this page").check();
    let dialog = await openDelete(page, "4 hardware nodes");
    const button = dialog.getByRole("button", { name: "Delete 4 hardware nodes" });
    expect(await button.isDisabled()).toBe(true);
    await dialog.getByLabel('Type "delete" to confirm').fill("remove");
    expect(await button.isDisabled()).toBe(true);
    // Enter in the field submits the form: without the word nothing is sent.
    await dialog.getByLabel('Type "delete" to confirm').press("Enter");
    await shot(page, "48-bulk-delete-unconfirmed");
    expect((await hardwareNamed("bulk-")).length).toBe(4);

    // With the word, the server refuses the whole selection: bulk-d still hosts a compute unit.
    await dialog.getByLabel('Type "delete" to confirm').fill("delete");
    await button.click();
    const refusal = await seen(dialog.getByRole("alert"));
    const said = (await refusal.textContent())!;
    expect(said).toContain("Nothing was changed");
    expect(said).toContain("bulk-d: Hardware node");
    expect(said).toContain("vm-on-d");
    await shot(page, "49-bulk-delete-refused");
    expect((await hardwareNamed("bulk-")).length).toBe(4);
    await page.keyboard.press("Escape");
    expect(await page.getByRole("dialog").count()).toBe(0);

    await page.getByLabel("Select bulk-d").uncheck();
    dialog = await openDelete(page, "3 hardware nodes");
    await dialog.getByLabel('Type "delete" to confirm').fill("delete");
    await dialog.getByRole("button", { name: "Delete 3 hardware nodes" }).click();
    await seen(page.getByText("Deleted 3 hardware nodes."));
    await seen(page.getByText("1–1 of 1"));
    expect(await page.getByRole("link", { name: "bulk-a" }).count()).toBe(0);
    await shot(page, "50-bulk-deleted");
    expect((await hardwareNamed("bulk-")).map((h) => h.name)).toEqual(["bulk-d"]);
  });

  it("deleting every row of the last page steps back to the page before", async () => {
    const { page } = s;
    for (let i = 0; i < 27; i++) await s.api("POST", "/misc", { name: `paged-${String(i).padStart(2, "0")}` });
    await page.goto(`${s.product.url}/inventory/misc?q=paged-&offset=25`);
    await seen(page.getByText("26–27 of 27"));
    await page.getByLabel("Select all on this page").check();
    const dialog = await openDelete(page, "2 misc items");
    await dialog.getByLabel('Type "delete" to confirm').fill("delete");
    await dialog.getByRole("button", { name: "Delete 2 misc items" }).click();
    await seen(page.getByText("Deleted 2 misc items."));
    await seen(page.getByText("1–25 of 25"));
    expect(new URL(page.url()).searchParams.get("offset")).toBe("0");
  });

  it("an editor may tag but not delete; a viewer sees no bulk actions", async () => {
    const password = "a passphrase for this role";
    for (const role of ["editor", "viewer"]) {
      await s.api("POST", "/admin/users", { email: `${role}@example.com`, role, password, must_change_password: false });
      // The editor on a phone: rows are labelled cards, the selection box one of their lines.
      const context = await s.browser.newContext({
        viewport: role === "editor" ? { width: 390, height: 844 } : { width: 1000, height: 800 },
      });
      const p = await context.newPage();
      await p.goto(`${s.product.url}/inventory/hardware`);
      await p.getByLabel("Email").fill(`${role}@example.com`);
      await p.getByLabel("Password").fill(password);
      await p.getByRole("button", { name: "Sign in" }).click();
      await seen(p.getByRole("link", { name: "bulk-d" }));
      if (role === "editor") {
        await p.getByLabel("Select bulk-d").check();
        const bar = await seen(p.getByRole("region", { name: "Bulk actions" }));
        await s.api("POST", "/hardware", { name: "bulk-e" });
        await p.reload();
        await p.getByLabel("Select bulk-d").check();
        await bar.getByRole("button", { name: "Select all 2 on this page" }).click();
        await seen(bar.getByText("2 hardware nodes selected"));
        expect(await p.getByLabel("Select bulk-e").isChecked()).toBe(true);
        expect(await bar.getByRole("button", { name: "Tag…" }).count()).toBe(1);
        expect(await bar.getByRole("button", { name: "Delete…" }).count()).toBe(0);
        await shot(p, "51-bulk-editor");
      } else {
        expect(await p.getByRole("checkbox").count()).toBe(0);
        expect(await p.getByRole("region", { name: "Bulk actions" }).count()).toBe(0);
        await shot(p, "52-bulk-viewer");
      }
      await context.close();
    }
  });
});
