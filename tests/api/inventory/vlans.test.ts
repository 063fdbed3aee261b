import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let site = 0;
beforeAll(async () => {
  a = await createActors();
  site = (await a.t.sql`insert into sites (name) values ('hq') returning id`)[0]!.id as number;
});
afterAll(async () => a.t.close());

describe("vlans: happy", () => {
  it("creates, reads, lists, patches and deletes", async () => {
    const created = await a.req("POST", "vlans", a.editor, { vlan_id: 10, name: "mgmt", site_id: site, site_name: "ignored" });
    expect(created.status).toBe(201);
    const vlan = await created.json();
    expect(vlan).toMatchObject({ vlan_id: 10, name: "mgmt", site_id: site, site_name: "hq", version: 1 });
    await a.req("POST", "vlans", a.editor, { vlan_id: 20, name: "guests" });
    expect((await (await a.req("GET", `vlans/${vlan.id}`, a.viewer)).json()).name).toBe("mgmt");

    const bySite = await (await a.req("GET", `vlans?site_id=${site}`, a.viewer)).json();
    expect(bySite.items.map((v: { vlan_id: number }) => v.vlan_id)).toEqual([10]);
    const byTag = await (await a.req("GET", "vlans?sort=vlan_id&direction=desc", a.viewer)).json();
    expect(byTag.items.map((v: { vlan_id: number }) => v.vlan_id)).toEqual([20, 10]);

    const patched = await a.req("PATCH", `vlans/${vlan.id}`, a.editor, { description: "switches" });
    expect(await patched.json()).toMatchObject({ description: "switches", vlan_id: 10, version: 2 });
    expect((await a.req("DELETE", `vlans/${vlan.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `vlans/${vlan.id}`, a.viewer)).status).toBe(404);
  });

  it("the same tag may exist once per site and once without a site", async () => {
    const other = (await a.t.sql`insert into sites (name) values ('branch') returning id`)[0]!.id as number;
    for (const body of [
      { vlan_id: 30, name: "a", site_id: site },
      { vlan_id: 30, name: "b", site_id: other },
      { vlan_id: 30, name: "c" },
    ])
      expect((await a.req("POST", "vlans", a.editor, body)).status).toBe(201);
  });
});

describe("vlans: errors", () => {
  it("a tag twice at one site is 409 naming the record", async () => {
    const first = await (await a.req("POST", "vlans", a.editor, { vlan_id: 40, name: "one", site_id: site })).json();
    const dup = await a.req("POST", "vlans", a.editor, { vlan_id: 40, name: "two", site_id: site });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toBe(`VLAN record ${first.id} (site ${site}) already has vlan_id 40.`);
    const loose = await (await a.req("POST", "vlans", a.editor, { vlan_id: 41, name: "x" })).json();
    await a.req("POST", "vlans", a.editor, { vlan_id: 42, name: "y" });
    const move = await a.req("PATCH", `vlans/${loose.id}`, a.editor, { vlan_id: 42 });
    expect(move.status).toBe(409);
    // A record may keep its own tag.
    expect((await a.req("PATCH", `vlans/${loose.id}`, a.editor, { vlan_id: 41, name: "x2" })).status).toBe(200);
  });

  it("tags outside 1-4094, missing fields, unknown sites and unknown fields are 422", async () => {
    for (const vlan_id of [0, 4095, 1.5]) {
      const res = await a.req("POST", "vlans", a.editor, { vlan_id, name: "bad" });
      expect(res.status, String(vlan_id)).toBe(422);
      expect((await res.json()).fields).toHaveProperty("vlan_id");
    }
    expect(Object.keys((await (await a.req("POST", "vlans", a.editor, {})).json()).fields).sort()).toEqual(["name", "vlan_id"]);
    expect(Object.keys((await (await a.req("POST", "vlans", a.editor, { vlan_id: 5, name: "n", tag: 5 })).json()).fields)).toEqual(["tag"]);
    const site = await a.req("POST", "vlans", a.editor, { vlan_id: 50, name: "s", site_id: 98765 });
    expect((await site.json()).fields.site_id).toBe("Site 98765 was not found.");
    expect((await a.req("GET", "vlans/98765", a.viewer)).status).toBe(404);
  });
});

describe("vlans: security", () => {
  it("anonymous 401, viewer cannot write, editor cannot delete", async () => {
    expect((await a.req("GET", "vlans")).status).toBe(401);
    expect((await a.req("POST", "vlans", a.viewer, { vlan_id: 99, name: "v" })).status).toBe(403);
    const v = await (await a.req("POST", "vlans", a.editor, { vlan_id: 99, name: "v" })).json();
    expect((await a.req("PATCH", `vlans/${v.id}`, a.viewer, { name: "w" })).status).toBe(403);
    expect((await a.req("DELETE", `vlans/${v.id}`, a.editor)).status).toBe(403);
  });
});
