import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { auditActions } from "./support.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("kb hostname: happy", () => {
  it("creates, lists, replaces, exports, bulk-imports and deletes", async () => {
    const res = await a.req("POST", "kb/hostname", a.admin, { pattern: "pve-*", vendor: "Proxmox", device_type: "hypervisor" });
    expect(res.status).toBe(201);
    const entry = await res.json();
    expect(entry).toMatchObject({ pattern: "pve-*", vendor: "Proxmox", device_type: "hypervisor", notes: null });

    const put = await (
      await a.req("PUT", `kb/hostname/${entry.id}`, a.admin, { pattern: "pve*", notes: "cluster nodes", id: 1, created_at: "x" })
    ).json();
    expect(put).toMatchObject({ id: entry.id, pattern: "pve*", vendor: null, device_type: null, notes: "cluster nodes" });

    const exported = await (await a.req("GET", "kb/hostname/export", a.viewer)).json();
    expect(exported).toMatchObject({
      format: "kb-hostname/v1",
      entries: [{ pattern: "pve*", vendor: null, device_type: null, notes: "cluster nodes" }],
    });

    exported.entries[0].vendor = "Proxmox VE";
    exported.entries.push({ pattern: "unifi-*", vendor: "Ubiquiti", device_type: "ap" });
    const bulk = await a.req("POST", "kb/hostname", a.admin, { entries: exported.entries });
    expect(bulk.status).toBe(200);
    expect(await bulk.json()).toEqual({ created: 1, updated: 1 });

    const page = await (await a.req("GET", "kb/hostname?q=ubiq", a.viewer)).json();
    expect(page).toMatchObject({ total: 1, sort: "pattern" });
    expect(page.items[0]).toMatchObject({ pattern: "unifi-*", device_type: "ap" });
    expect(
      (await (await a.req("GET", "kb/hostname?sort=pattern", a.viewer)).json()).items.map((e: { vendor: string }) => e.vendor),
    ).toEqual(["Proxmox VE", "Ubiquiti"]);

    expect((await a.req("DELETE", `kb/hostname/${entry.id}`, a.admin)).status).toBe(204);
    expect(await auditActions(a, "kb_hostname")).toEqual([
      "kb_hostname.create",
      "kb_hostname.update",
      "kb.hostname.import",
      "kb_hostname.delete",
    ]);
  });
});

describe("kb oui: happy", () => {
  it("normalises prefixes, creates, replaces by any spelling, exports, bulk-imports and deletes", async () => {
    const res = await a.req("POST", "kb/oui", a.admin, { prefix: "b8-27-eb", vendor: "Raspberry Pi Foundation" });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ prefix: "B8:27:EB", vendor: "Raspberry Pi Foundation", notes: null });

    const put = await a.req("PUT", "kb/oui/b827eb", a.admin, { vendor: "Raspberry Pi", notes: "older boards", prefix: "ignored" });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ prefix: "B8:27:EB", vendor: "Raspberry Pi", notes: "older boards" });

    const bulk = await a.req("POST", "kb/oui", a.admin, {
      entries: [
        { prefix: "B8:27:EB", vendor: "Raspberry Pi Ltd" },
        { prefix: "dc.a6.32", vendor: "Raspberry Pi Trading" },
        { prefix: "00 0c 29", vendor: "VMware" },
      ],
    });
    expect(bulk.status).toBe(200);
    expect(await bulk.json()).toEqual({ created: 2, updated: 1 });

    const exported = await (await a.req("GET", "kb/oui/export", a.viewer)).json();
    expect(exported.entries).toEqual([
      { prefix: "00:0C:29", vendor: "VMware", notes: null },
      { prefix: "B8:27:EB", vendor: "Raspberry Pi Ltd", notes: null },
      { prefix: "DC:A6:32", vendor: "Raspberry Pi Trading", notes: null },
    ]);
    const page = await (await a.req("GET", "kb/oui?q=raspberry&direction=desc", a.viewer)).json();
    expect(page.items.map((e: { prefix: string }) => e.prefix)).toEqual(["DC:A6:32", "B8:27:EB"]);

    expect((await a.req("DELETE", "kb/oui/000c29", a.admin)).status).toBe(204);
    expect(await auditActions(a, "kb_oui")).toEqual(["kb.oui.create", "kb.oui.update", "kb.oui.import", "kb.oui.delete"]);
  });
});

describe("kb: errors", () => {
  it("409 on a taken pattern or prefix, 404 on unknown entries", async () => {
    await a.req("POST", "kb/hostname", a.admin, { pattern: "nas-*" });
    const taken = await a.req("POST", "kb/hostname", a.admin, { pattern: "nas-*" });
    expect(taken.status).toBe(409);
    expect((await taken.json()).detail).toMatch(/The pattern "nas-\*" is already entry \d+\./);
    const other = await (await a.req("POST", "kb/hostname", a.admin, { pattern: "sw-*" })).json();
    expect((await a.req("PUT", `kb/hostname/${other.id}`, a.admin, { pattern: "nas-*" })).status).toBe(409);
    await a.req("POST", "kb/oui", a.admin, { prefix: "00:11:32", vendor: "Synology" });
    expect((await a.req("POST", "kb/oui", a.admin, { prefix: "001132", vendor: "Synology" })).status).toBe(409);
    expect(await (await a.req("PUT", "kb/hostname/9999", a.admin, { pattern: "x" })).json()).toEqual({
      error_code: "RESOURCE_NOT_FOUND",
      detail: "Hostname pattern 9999 was not found.",
    });
    expect(await (await a.req("DELETE", "kb/oui/aa:bb:cc", a.admin)).json()).toEqual({
      error_code: "RESOURCE_NOT_FOUND",
      detail: "OUI prefix AA:BB:CC was not found.",
    });
  });

  it("422 names bad fields, in single and bulk bodies, and a bulk with a bad entry stores nothing", async () => {
    const bad = await a.req("POST", "kb/oui", a.admin, { prefix: "zz:zz:zz", vendor: "" });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).fields).sort()).toEqual(["prefix", "vendor"]);
    expect((await a.req("PUT", "kb/oui/not-a-prefix", a.admin, { vendor: "x" })).status).toBe(422);
    const bulk = await a.req("POST", "kb/oui", a.admin, {
      entries: [
        { prefix: "02:00:00", vendor: "ok" },
        { prefix: "12345", vendor: "bad" },
      ],
    });
    expect(bulk.status).toBe(422);
    expect((await bulk.json()).fields).toHaveProperty(["entries.1.prefix"]);
    const repeated = await a.req("POST", "kb/oui", a.admin, {
      entries: [
        { prefix: "02:00:00", vendor: "a" },
        { prefix: "020000", vendor: "b" },
      ],
    });
    expect(repeated.status).toBe(422);
    expect((await repeated.json()).fields).toHaveProperty(["entries.1.prefix"]);
    expect((await a.t.sql`select count(*)::int as n from kb_oui where prefix = '02:00:00'`)[0]!.n).toBe(0);
    expect((await a.req("POST", "kb/hostname", a.admin, { entries: [] })).status).toBe(422);
    expect((await a.req("POST", "kb/hostname", a.admin, { entries: [{ pattern: "a" }], extra: 1 })).status).toBe(422);
    expect((await a.req("POST", "kb/hostname", a.admin, { pattern: "a", colour: 1 })).status).toBe(422);
  });
});

describe("kb: security", () => {
  it("anonymous 401; viewers and editors read but cannot write (write:kb is an administrator's)", async () => {
    expect((await a.req("GET", "kb/oui")).status).toBe(401);
    expect((await a.req("GET", "kb/oui", a.editor)).status).toBe(200);
    expect((await a.req("POST", "kb/oui", a.viewer, { prefix: "aabbcc", vendor: "x" })).status).toBe(403);
    expect((await a.req("POST", "kb/hostname", a.editor, { entries: [{ pattern: "x" }] })).status).toBe(403);
    expect((await a.req("DELETE", "kb/oui/aabbcc", a.editor)).status).toBe(403);
    // Patterns are stored as text, never run: a hostile one is only data.
    const hostile = await a.req("POST", "kb/hostname", a.admin, { pattern: "'; drop table kb_oui; --", notes: "<script>" });
    expect(hostile.status).toBe(201);
    expect((await a.req("GET", "kb/oui", a.viewer)).status).toBe(200);
  });
});
