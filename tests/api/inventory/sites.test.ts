import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const site = async (body: Record<string, unknown>) => {
  const res = await a.req("POST", "sites", a.admin, body);
  expect(res.status).toBe(201);
  return res.json();
};

describe("sites: happy", () => {
  it("creates, reads, lists, patches and deletes", async () => {
    const s = await site({ name: "Frankfurt", address: "Hanauer Landstr. 1", latitude: 50.11, longitude: 8.68 });
    expect(s).toMatchObject({ name: "Frankfurt", latitude: 50.11, longitude: 8.68, version: 1 });
    await site({ name: "Berlin" });
    expect((await (await a.req("GET", `sites/${s.id}`, a.viewer)).json()).address).toBe("Hanauer Landstr. 1");
    const page = await (await a.req("GET", "sites?q=furt", a.viewer)).json();
    expect(page.items.map((x: { name: string }) => x.name)).toEqual(["Frankfurt"]);
    const sorted = await (await a.req("GET", "sites", a.editor)).json();
    expect(sorted.items.map((x: { name: string }) => x.name)).toEqual(["Berlin", "Frankfurt"]);
    const patched = await a.req("PATCH", `sites/${s.id}`, a.admin, { notes: "cage 4", latitude: null });
    expect(await patched.json()).toMatchObject({ notes: "cage 4", latitude: null, longitude: 8.68, version: 2 });
    expect((await a.req("DELETE", `sites/${s.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `sites/${s.id}`, a.viewer)).status).toBe(404);
  });

  it("deleting a site detaches its hardware, networks and VLANs", async () => {
    const s = await site({ name: "Closing" });
    const hw = (await a.t.sql`insert into hardware (name, site_id) values ('rack-sw', ${s.id}) returning id`)[0]!.id as number;
    const net = (await a.t.sql`insert into networks (name, site_id) values ('closing-lan', ${s.id}) returning id`)[0]!.id as number;
    const vlan = (await a.t.sql`insert into vlans (vlan_id, name, site_id) values (77, 'v77', ${s.id}) returning id`)[0]!.id as number;
    expect((await a.req("DELETE", `sites/${s.id}`, a.admin)).status).toBe(204);
    expect((await (await a.req("GET", `hardware/${hw}`, a.viewer)).json()).site_id).toBeNull();
    expect((await (await a.req("GET", `networks/${net}`, a.viewer)).json()).site_id).toBeNull();
    expect((await (await a.req("GET", `vlans/${vlan}`, a.viewer)).json()).site_id).toBeNull();
  });
});

describe("sites: errors", () => {
  it("a name twice is 409; coordinates out of range and unknown fields are 422", async () => {
    const s = await site({ name: "Unique" });
    const dup = await a.req("POST", "sites", a.admin, { name: "Unique" });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toBe(`Site ${s.id} already has name "Unique".`);
    const bad = await a.req("POST", "sites", a.admin, { name: "Nowhere", latitude: 91, longitude: -181, elevation: 3 });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).fields).sort()).toEqual(["elevation", "latitude", "longitude"]);
    expect((await a.req("POST", "sites", a.admin, { name: "Nowhere", elevation: 3 })).status).toBe(422);
    expect((await a.t.sql`select count(*)::int as n from sites where name = 'Nowhere'`)[0]!.n).toBe(0);
  });

  it("deleting a site whose VLAN would collide with a site-less VLAN is 409 naming it", async () => {
    const s = await site({ name: "Clash" });
    const mine = (await a.t.sql`insert into vlans (vlan_id, name, site_id) values (88, 'site-88', ${s.id}) returning id`)[0]!.id as number;
    const loose = (await a.t.sql`insert into vlans (vlan_id, name) values (88, 'loose-88') returning id`)[0]!.id as number;
    const res = await a.req("DELETE", `sites/${s.id}`, a.admin);
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.dependents).toEqual([{ type: "vlan", id: mine, name: `site-88: tag 88 also on site-less VLAN record ${loose}` }]);
    expect((await a.req("GET", `sites/${s.id}`, a.viewer)).status).toBe(200);
  });
});

describe("sites: security", () => {
  it("write:sites is admin-only: editors and viewers read but cannot write; anonymous 401", async () => {
    const s = await site({ name: "Secure" });
    expect((await a.req("GET", "sites")).status).toBe(401);
    expect((await a.req("GET", `sites/${s.id}`, a.editor)).status).toBe(200);
    for (const token of [a.viewer, a.editor]) {
      expect((await a.req("POST", "sites", token, { name: "no" })).status).toBe(403);
      expect((await a.req("PATCH", `sites/${s.id}`, token, { notes: "no" })).status).toBe(403);
      expect((await a.req("DELETE", `sites/${s.id}`, token)).status).toBe(403);
    }
  });
});
