// Inventory relations edited from the console, and references shown by name, in a real browser against the
// product started as the README says: a hardware node's site and rack unit and a network's site set
// through their forms; a network's hardware member, a service's dependency (and the server's refusal of a
// cycle) and a hardware connection added and removed from the detail pages with the search picker; and
// a cluster's members and an external node's networks added and removed the same way; and every reference
// on a page shown as the record's name linking to it, its names fetched in one request.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const ADMIN = { email: "relations@example.com", password: "a long passphrase for relations" };

type Rec = { id: number };

describe.skipIf(!hasChromium)("web UI inventory relations and references in a real browser", () => {
  const s = signedInSuite("127.0.0.211", ADMIN);
  const create = async (path: string, body: Record<string, unknown>) => ((await s.api("POST", path, body)) as Rec).id;
  const pick = async (page: Page, scope: ReturnType<Page["locator"]> | Page, label: string, text: string, option: string) => {
    await scope.getByRole("combobox", { name: label }).fill(text);
    await (await seen(page.getByRole("option", { name: new RegExp(option) }))).click();
  };

  it("sets a hardware node's site and rack unit, and a network's site, through their forms", async () => {
    const { page } = s;
    await create("/sites", { name: "dc-east" });
    const node = await create("/hardware", { name: "rack1-srv01" });
    const net = await create("/networks", { name: "lan", cidr: "10.50.0.0/24" });

    await page.goto(`${s.product.url}/inventory/hardware/${node}/edit`);
    await seen(page.getByRole("heading", { name: "Edit rack1-srv01" }));
    await pick(page, page, "Site", "dc-e", "dc-east");
    await page.getByLabel("Rack unit").fill("12");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByRole("heading", { name: "rack1-srv01" }));
    const fields = page.locator("dl.fields");
    await seen(fields.getByRole("link", { name: "dc-east" }));
    expect(await fields.locator("div").filter({ hasText: "Rack unit" }).locator("dd").textContent()).toBe("12");
    await shot(page, "60-hardware-site-rack");
    const stored = await s.api("GET", `/hardware/${node}`);
    expect(stored).toMatchObject({ rack_unit: 12 });
    expect(stored.site_id).toBeTypeOf("number");

    await page.goto(`${s.product.url}/inventory/networks/${net}/edit`);
    await seen(page.getByRole("heading", { name: "Edit lan" }));
    await pick(page, page, "Site", "dc", "dc-east");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByRole("heading", { name: "lan" }));
    await page.locator("dl.fields").getByRole("link", { name: "dc-east" }).click();
    await seen(page.getByRole("heading", { name: "dc-east" }));
    await seen(page.getByRole("region", { name: "Networks at this site" }).getByRole("link", { name: "lan" }));
    await seen(page.getByRole("region", { name: "Hardware at this site" }).getByRole("link", { name: "rack1-srv01" }));
  });

  it("adds and removes a network's hardware member from the network's page", async () => {
    const { page } = s;
    const member = await create("/hardware", { name: "rack1-srv02" });
    const { items } = (await s.api("GET", "/networks?q=lan")) as { items: Rec[] };
    const net = items[0]!.id;
    await page.goto(`${s.product.url}/inventory/networks/${net}`);
    const region = await seen(page.getByRole("region", { name: "Hardware members" }));
    await seen(region.getByText("None."));
    await pick(page, region, "Add hardware node", "srv02", "rack1-srv02");
    await region.getByRole("button", { name: "Add", exact: true }).click();
    await seen(region.getByRole("link", { name: "rack1-srv02" }));
    expect(await region.locator(".count").textContent()).toBe("(1)");
    await shot(page, "61-network-member-added");
    let members = (await s.api("GET", `/networks/${net}/hardware-members`)) as unknown as { hardware_id: number }[];
    expect(members.map((m) => m.hardware_id)).toEqual([member]);

    await region.getByRole("button", { name: "Remove rack1-srv02 from hardware members" }).click();
    await seen(region.getByText("None."));
    members = (await s.api("GET", `/networks/${net}/hardware-members`)) as unknown as { hardware_id: number }[];
    expect(members).toEqual([]);
  });

  it("adds a service's dependency, shows the server's refusal of a cycle, and removes it", async () => {
    const { page } = s;
    const web = await create("/services", { name: "web" });
    const db = await create("/services", { name: "db" });
    await page.goto(`${s.product.url}/inventory/services/${web}`);
    let region = await seen(page.getByRole("region", { name: "Depends on" }));
    await pick(page, region, "Add service", "db", "^db");
    await region.getByRole("button", { name: "Add", exact: true }).click();
    await seen(region.getByRole("link", { name: "db" }));

    // db depending on web would close a cycle: the 409 is shown in the section, nothing is added.
    await page.goto(`${s.product.url}/inventory/services/${db}`);
    region = await seen(page.getByRole("region", { name: "Depends on" }));
    await pick(page, region, "Add service", "web", "^web");
    await region.getByRole("button", { name: "Add", exact: true }).click();
    const refusal = await seen(region.getByRole("alert"));
    expect(await refusal.textContent()).toContain("would form a cycle");
    await shot(page, "62-dependency-cycle");
    expect(await s.api("GET", `/services/${db}/dependencies`)).toEqual([]);

    await page.goto(`${s.product.url}/inventory/services/${web}`);
    region = await seen(page.getByRole("region", { name: "Depends on" }));
    await region.getByRole("button", { name: "Remove db from depends on" }).click();
    await seen(region.getByText("None."));
    expect(await s.api("GET", `/services/${web}/dependencies`)).toEqual([]);
  });

  it("connects two nodes from a node's page; each end names the other", async () => {
    const { page } = s;
    const sw = await create("/hardware", { name: "switch-01" });
    const { items } = (await s.api("GET", "/hardware?q=rack1-srv01")) as { items: Rec[] };
    const node = items[0]!.id;
    await page.goto(`${s.product.url}/inventory/hardware/${node}`);
    const region = await seen(page.getByRole("region", { name: "Connections" }));
    await pick(page, region, "Add hardware node", "switch", "switch-01");
    await region.getByRole("button", { name: "Add", exact: true }).click();
    // The connection row holds ids only: the other end is named by the names lookup.
    await seen(region.getByRole("link", { name: "switch-01" }));
    await page.goto(`${s.product.url}/inventory/hardware/${sw}`);
    const back = await seen(page.getByRole("region", { name: "Connections" }));
    await seen(back.getByRole("link", { name: "rack1-srv01" }));
    await shot(page, "63-connection-both-ends");
    await back.getByRole("button", { name: "Remove rack1-srv01 from connections" }).click();
    await seen(back.getByText("None."));
    expect(await s.api("GET", `/hardware/${sw}/connections`)).toEqual([]);
  });

  it("adds and removes a cluster's member and an external node's network from their pages", async () => {
    const { page } = s;
    const cluster = await create("/hardware-clusters", { name: "pve-cluster" });
    await create("/hardware", { name: "pve-node-1" });
    await page.goto(`${s.product.url}/inventory/clusters/${cluster}`);
    const members = await seen(page.getByRole("region", { name: "Members" }));
    await seen(members.getByText("None."));
    await pick(page, members, "Add hardware node", "pve-node", "pve-node-1");
    await members.getByRole("button", { name: "Add", exact: true }).click();
    await seen(members.getByRole("link", { name: "pve-node-1" }));
    expect(
      ((await s.api("GET", `/hardware-clusters/${cluster}/members`)) as unknown as { hardware_name: string }[]).map((m) => m.hardware_name),
    ).toEqual(["pve-node-1"]);
    await members.getByRole("button", { name: "Remove pve-node-1 from members" }).click();
    await seen(members.getByText("None."));
    expect(await s.api("GET", `/hardware-clusters/${cluster}/members`)).toEqual([]);

    const cloud = await create("/external-nodes", { name: "cloud-vpn", provider: "aws" });
    await page.goto(`${s.product.url}/inventory/external/${cloud}`);
    const networks = await seen(page.getByRole("region", { name: "Networks" }));
    await pick(page, networks, "Add network", "lan", "^lan");
    await networks.getByRole("button", { name: "Add", exact: true }).click();
    await seen(networks.getByRole("link", { name: "lan" }));
    await shot(page, "65-external-node-network");
    expect(
      ((await s.api("GET", `/external-nodes/${cloud}/networks`)) as unknown as { network_name: string }[]).map((n) => n.network_name),
    ).toEqual(["lan"]);
    await networks.getByRole("button", { name: "Remove lan from networks" }).click();
    await seen(networks.getByText("None."));
    expect(await s.api("GET", `/external-nodes/${cloud}/networks`)).toEqual([]);
  });

  it("shows every reference on a page by name, its names fetched in one request", async () => {
    const { page } = s;
    const { items: nodes } = (await s.api("GET", "/hardware?q=rack1-srv01")) as { items: Rec[] };
    const host = await create("/compute-units", { name: "vm-web", kind: "vm", hardware_id: nodes[0]!.id });
    const env = await create("/environments", { name: "production" });
    const svc = await create("/services", { name: "shop", hardware_id: nodes[0]!.id, compute_id: host, environment_id: env });
    const asked: string[] = [];
    const listen = (r: { url(): string }) => void asked.push(new URL(r.url()).pathname + new URL(r.url()).search);
    page.on("request", listen);
    await page.goto(`${s.product.url}/inventory/services/${svc}`);
    const fields = page.locator("dl.fields");
    await seen(fields.getByRole("link", { name: "rack1-srv01" }));
    await seen(fields.getByRole("link", { name: "vm-web" }));
    expect(await fields.getByText(/^#\d+$/).count()).toBe(0);
    page.off("request", listen);
    await shot(page, "64-service-references");
    expect(asked.filter((u) => u.startsWith("/api/v1/inventory/names")).length).toBe(1);
    // No reference loaded its record one by one.
    expect(asked.filter((u) => /^\/api\/v1\/(hardware|compute-units)\/\d+/.test(u))).toEqual([]);
    await fields.getByRole("link", { name: "vm-web" }).click();
    await seen(page.getByRole("heading", { name: "vm-web" }));
    expect(new URL(page.url()).pathname).toBe(`/inventory/compute/${host}`);
  });
});
