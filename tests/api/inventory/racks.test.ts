// Racks (issue 33 item 1, docs/racks.md): CRUD with ETags, list filters and utilisation, reservations,
// the elevation in both numberings, and the refusals of a rack's own writes (each changes nothing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let hq = 0;
let branch = 0;
beforeAll(async () => {
  a = await createActors();
  hq = (await a.t.sql`insert into sites (name) values ('hq') returning id`)[0]!.id as number;
  branch = (await a.t.sql`insert into sites (name) values ('branch') returning id`)[0]!.id as number;
});
afterAll(async () => a.t.close());

const body = async (res: Response) => res.json();
const rackRow = async (id: number) => (await a.t.sql`select * from racks where id = ${id}`)[0];
async function rack(fields: Record<string, unknown>) {
  const res = await a.req("POST", "racks", a.admin, { site_id: hq, ...fields });
  expect(res.status).toBe(201);
  return body(res);
}
async function node(fields: Record<string, unknown>) {
  const res = await a.req("POST", "hardware", a.editor, fields);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return body(res);
}

describe("racks: CRUD", () => {
  it("creates with NetBox's defaults, reads with an ETag, lists, patches with If-Match, deletes", async () => {
    const res = await a.req("POST", "racks", a.admin, {
      site_id: hq,
      name: "r1",
      facility_id: "DC1-A01",
      tags: ["cage-1"],
      utilisation: { ignored: true },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toBe('W/"1"');
    const r = await body(res);
    expect(r).toMatchObject({
      name: "r1",
      site_id: hq,
      site_name: "hq",
      u_height: 42,
      numbering: "bottom_up",
      width: 19,
      facility_id: "DC1-A01",
      tags: ["cage-1"],
      utilisation: { used_u: 0, reserved_u: 0, free_u: 42, percent: 0 },
      version: 1,
    });
    const got = await a.req("GET", `racks/${r.id}`, a.viewer);
    expect(got.headers.get("etag")).toBe('W/"1"');

    const stale = await a.req("PATCH", `racks/${r.id}`, a.admin, { description: "x" }, { "if-match": 'W/"7"' });
    expect(stale.status).toBe(412);
    expect((await rackRow(r.id))!.version).toBe(1);
    const patched = await a.req(
      "PATCH",
      `racks/${r.id}`,
      a.admin,
      { description: "row A", numbering: "top_down" },
      { "if-match": 'W/"1"' },
    );
    expect(patched.status).toBe(200);
    expect(await body(patched)).toMatchObject({ description: "row A", numbering: "top_down", version: 2 });

    expect((await a.req("DELETE", `racks/${r.id}`, a.editor)).status).toBe(403);
    expect((await a.req("DELETE", `racks/${r.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `racks/${r.id}`, a.viewer)).status).toBe(404);
  });

  it("lists by site, tag and q, sorted by name or height", async () => {
    await rack({ name: "list-b", u_height: 10, tags: ["cold"] });
    await rack({ name: "list-a", u_height: 48 });
    await rack({ name: "list-c", site_id: branch, tags: ["cold"] });
    const names = async (query: string) =>
      ((await body(await a.req("GET", `racks?${query}`, a.viewer))).items as { name: string }[]).map((r) => r.name);
    expect(await names("q=list-&sort=name")).toEqual(["list-a", "list-b", "list-c"]);
    expect(await names(`q=list-&site_id=${branch}`)).toEqual(["list-c"]);
    expect(await names("tag=cold&sort=name&direction=desc")).toEqual(["list-c", "list-b"]);
    expect(await names(`q=list-&site_id=${hq}&sort=u_height`)).toEqual(["list-b", "list-a"]);
    const csv = await a.req("GET", `racks/export.csv?q=list-&sort=name&columns=name,u_height,site_name`, a.viewer);
    expect(csv.status).toBe(200);
    expect((await csv.text()).trim().split(/\r?\n/)).toEqual([
      "name,u_height,site_name",
      "list-a,48,hq",
      "list-b,10,hq",
      "list-c,42,branch",
    ]);
  });

  it("refuses bad bodies (422), a name twice at one site (409), an unknown site (422), viewers (403)", async () => {
    const before = (await a.t.sql`select count(*)::int as n from racks`)[0]!.n;
    for (const bad of [
      { name: "x", u_height: 0 },
      { name: "x", u_height: 101 },
      { name: "x", numbering: "sideways" },
      { name: "x", width: 20 },
      { name: "" },
      { name: "x", colour: "red" },
    ])
      expect((await a.req("POST", "racks", a.admin, { site_id: hq, ...bad })).status, JSON.stringify(bad)).toBe(422);
    expect((await a.req("POST", "racks", a.admin, { name: "x" })).status).toBe(422);
    const unknownSite = await a.req("POST", "racks", a.admin, { site_id: 999_999, name: "x" });
    expect(unknownSite.status).toBe(422);
    expect((await body(unknownSite)).fields).toEqual({ site_id: "Site 999999 was not found." });
    const first = await rack({ name: "dup" });
    const dup = await a.req("POST", "racks", a.admin, { site_id: hq, name: "dup" });
    expect(dup.status).toBe(409);
    expect((await body(dup)).detail).toBe(`Rack ${first.id} of site ${hq} already has name "dup".`);
    expect((await a.req("POST", "racks", a.admin, { site_id: branch, name: "dup" })).status).toBe(201);
    // Racks have their own scope like sites (write:racks): editors place hardware but do not change racks.
    expect((await a.req("POST", "racks", a.viewer, { site_id: hq, name: "v" })).status).toBe(403);
    expect((await a.req("POST", "racks", a.editor, { site_id: hq, name: "v" })).status).toBe(403);
    expect((await a.req("POST", `racks/${first.id}/reservations`, a.editor, { first_unit: 1, reason: "v" })).status).toBe(403);
    expect((await a.t.sql`select count(*)::int as n from racks`)[0]!.n).toBe(before + 2);
  });
});

describe("racks: reservations", () => {
  it("reserves units with a reason and who, lists, patches and releases them", async () => {
    const r = await rack({ name: "res", u_height: 12 });
    const res = await a.req("POST", `racks/${r.id}/reservations`, a.admin, { first_unit: 3, u_count: 2, reason: "new firewall" });
    expect(res.status).toBe(201);
    const rv = await body(res);
    expect(rv).toMatchObject({
      rack_id: r.id,
      first_unit: 3,
      u_count: 2,
      last_unit: 4,
      reason: "new firewall",
      created_by: "admin@example.com",
      version: 1,
    });
    expect((await body(await a.req("GET", `racks/${r.id}/reservations`, a.viewer))).items).toHaveLength(1);
    expect((await body(await a.req("GET", `racks/${r.id}`, a.viewer))).utilisation).toEqual({
      used_u: 0,
      reserved_u: 2,
      free_u: 10,
      percent: 0,
    });
    const patched = await a.req("PATCH", `racks/${r.id}/reservations/${rv.id}`, a.admin, { u_count: 3 }, { "if-match": 'W/"1"' });
    expect(await body(patched)).toMatchObject({ last_unit: 5, version: 2 });

    const other = await rack({ name: "res-other" });
    expect((await a.req("GET", `racks/${other.id}/reservations/${rv.id}`, a.viewer)).status).toBe(404);
    expect((await a.req("DELETE", `racks/${other.id}/reservations/${rv.id}`, a.admin)).status).toBe(404);
    expect((await a.req("DELETE", `racks/${r.id}/reservations/${rv.id}`, a.editor)).status).toBe(403);
    expect((await a.req("DELETE", `racks/${r.id}/reservations/${rv.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `racks/999999/reservations`, a.viewer)).status).toBe(404);
  });

  it("refuses a reservation without a reason (422), past the top or over a node or another reservation (409), changing nothing", async () => {
    const r = await rack({ name: "res-409", u_height: 10 });
    const n = await node({ name: "res-node", site_id: hq, rack_id: r.id, rack_unit: 5, u_height: 2, rack_face: "rear" });
    const held = await body(await a.req("POST", `racks/${r.id}/reservations`, a.admin, { first_unit: 1, u_count: 2, reason: "cabling" }));
    const count = async () => (await a.t.sql`select count(*)::int as n from rack_reservations where rack_id = ${r.id}`)[0]!.n;
    expect((await a.req("POST", `racks/${r.id}/reservations`, a.admin, { first_unit: 7 })).status).toBe(422);
    expect((await a.req("POST", `racks/${r.id}/reservations`, a.admin, { first_unit: 7, reason: " " })).status).toBe(422);
    const past = await a.req("POST", `racks/${r.id}/reservations`, a.admin, { first_unit: 9, u_count: 3, reason: "x" });
    expect(past.status).toBe(409);
    expect((await body(past)).detail).toBe(`units 9-11 run past rack 'res-409' (id ${r.id}), which has 10 U.`);
    const overNode = await a.req("POST", `racks/${r.id}/reservations`, a.admin, { first_unit: 6, reason: "x" });
    expect(overNode.status).toBe(409);
    expect((await body(overNode)).detail).toBe(
      `In rack 'res-409' (id ${r.id}), unit 6 on both faces cannot be used: units 5-6 are taken by hardware 'res-node' (id ${n.id}), mounted on the rear.`,
    );
    const overRes = await a.req("POST", `racks/${r.id}/reservations`, a.admin, { first_unit: 2, u_count: 2, reason: "x" });
    expect(overRes.status).toBe(409);
    expect((await body(overRes)).detail).toContain(`reserved (reservation ${held.id}: cabling)`);
    expect(await count()).toBe(1);
  });
});

describe("racks: elevation", () => {
  it("draws bottom-up racks with unit 1 last and top-down racks with unit 1 first, both faces", async () => {
    const r = await rack({ name: "elev", u_height: 6 });
    const full = await node({ name: "srv-full", rack_id: r.id, rack_unit: 1, u_height: 2, rack_face: "both" });
    const front = await node({ name: "sw-front", rack_id: r.id, rack_unit: 4, u_height: 1 });
    const rear = await node({ name: "pdu-rear", rack_id: r.id, rack_unit: 4, u_height: 1, rack_face: "rear" });
    await node({ name: "loose", rack_id: r.id });
    const rv = await body(await a.req("POST", `racks/${r.id}/reservations`, a.admin, { first_unit: 6, reason: "spare" }));
    expect(full.site_id).toBe(hq);
    expect(front.rack_face).toBe("front");

    const e = await body(await a.req("GET", `racks/${r.id}/elevation`, a.viewer));
    expect(e.units.map((u: { unit: number }) => u.unit)).toEqual([6, 5, 4, 3, 2, 1]);
    const at = (unit: number) => e.units.find((u: { unit: number }) => u.unit === unit);
    expect(at(1).front).toEqual({ type: "hardware", id: full.id, name: "srv-full", first_unit: 1, u_height: 2, face: "both" });
    expect(at(2).rear).toMatchObject({ id: full.id });
    expect(at(3)).toEqual({ unit: 3, front: null, rear: null });
    expect(at(4).front).toMatchObject({ id: front.id, face: "front" });
    expect(at(4).rear).toMatchObject({ id: rear.id, face: "rear" });
    expect(at(6).front).toEqual({ type: "reservation", id: rv.id, first_unit: 6, u_count: 1, reason: "spare" });
    expect(e.unplaced).toEqual([{ id: expect.any(Number), name: "loose" }]);
    expect(e.utilisation).toEqual({ used_u: 3, reserved_u: 1, free_u: 2, percent: 50 });

    await a.req("PATCH", `racks/${r.id}`, a.admin, { numbering: "top_down" });
    const td = await body(await a.req("GET", `racks/${r.id}/elevation`, a.viewer));
    expect(td.numbering).toBe("top_down");
    expect(td.units.map((u: { unit: number }) => u.unit)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(td.units[0].front).toMatchObject({ id: full.id });
    expect((await a.req("GET", "racks/999999/elevation", a.viewer)).status).toBe(404);
  });
});

describe("racks: refusals that protect what is mounted", () => {
  it("shrinking below a node is 409 naming it; moving a rack with nodes to another site is 409; deleting it is 409", async () => {
    const r = await rack({ name: "shrink", u_height: 20 });
    const n = await node({ name: "top-box", rack_id: r.id, rack_unit: 15, u_height: 4 });
    const shrink = await a.req("PATCH", `racks/${r.id}`, a.admin, { u_height: 17 });
    expect(shrink.status).toBe(409);
    expect((await body(shrink)).detail).toBe(`Rack 'shrink' (id ${r.id}) cannot be 17 U: hardware 'top-box' (id ${n.id}) reaches unit 18.`);
    expect((await a.req("PATCH", `racks/${r.id}`, a.admin, { u_height: 18 })).status).toBe(200);
    const move = await a.req("PATCH", `racks/${r.id}`, a.admin, { site_id: branch });
    expect(move.status).toBe(409);
    const del = await a.req("DELETE", `racks/${r.id}`, a.admin);
    expect(del.status).toBe(409);
    expect((await body(del)).dependents).toEqual([{ type: "hardware", id: n.id, name: "top-box" }]);
    expect(await rackRow(r.id)).toMatchObject({ u_height: 18, site_id: hq, version: 2 });
    const siteDel = await a.req("DELETE", `sites/${hq}`, a.admin);
    expect(siteDel.status).toBe(409);
    expect((await a.t.sql`select count(*)::int as n from sites where id = ${hq}`)[0]!.n).toBe(1);
  });
});
