// Hardware placed in racks (issue 33 item 1, ADR 0480, 0481): every refusal of the hardware writes
// (create, PATCH, PUT, bulk update) with nothing changed, the rack's site taken or checked, the old
// rackless rack_unit left alone, and two placements into the same units at once: one wins.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let hq = 0;
let branch = 0;
let rackId = 0;
let swId = 0;
beforeAll(async () => {
  a = await createActors();
  hq = (await a.t.sql`insert into sites (name) values ('hq') returning id`)[0]!.id as number;
  branch = (await a.t.sql`insert into sites (name) values ('branch') returning id`)[0]!.id as number;
  rackId = (await (await a.req("POST", "racks", a.admin, { site_id: hq, name: "r1", u_height: 42 })).json()).id;
  const sw = await a.req("POST", "hardware", a.editor, { name: "sw-01", rack_id: rackId, rack_unit: 10, u_height: 2 });
  expect(sw.status).toBe(201);
  swId = (await sw.json()).id;
});
afterAll(async () => a.t.close());

const snapshot = async () => a.t.sql`select id, name, rack_id, rack_unit, u_height, rack_face, site_id, version from hardware order by id`;
/** The request is refused with `status`, its message is `detail`, and no hardware row changed. */
async function refused(res: Promise<Response>, status: number, detail?: string | RegExp) {
  const before = await snapshot();
  const r = await res;
  const b = await r.json();
  expect(r.status, JSON.stringify(b)).toBe(status);
  if (typeof detail === "string") expect(typeof b.detail === "string" ? b.detail : b.fields).toEqual(detail);
  else if (detail) expect(JSON.stringify(b)).toMatch(detail);
  expect(await snapshot()).toEqual(before);
  return b;
}

describe("placement: accepted", () => {
  it("takes the rack's site, defaults the face to front, and lists by rack", async () => {
    const sw = await (await a.req("GET", `hardware/${swId}`, a.viewer)).json();
    expect(sw).toMatchObject({ rack_id: rackId, rack_name: "r1", rack_unit: 10, u_height: 2, rack_face: "front", site_id: hq });
    const rear = await a.req("POST", "hardware", a.editor, {
      name: "patch-rear",
      site_id: hq,
      rack_id: rackId,
      rack_unit: 10,
      u_height: 1,
      rack_face: "rear",
    });
    expect(rear.status).toBe(201);
    const inRack = await (await a.req("GET", `hardware?rack_id=${rackId}&sort=name`, a.viewer)).json();
    expect(inRack.items.map((h: { name: string }) => h.name)).toEqual(["patch-rear", "sw-01"]);
    const list = await (await a.req("GET", `racks?site_id=${hq}`, a.viewer)).json();
    expect(list.items[0].utilisation).toEqual({ used_u: 2, reserved_u: 0, free_u: 40, percent: 4.8 });
  });

  it("a node without a rack keeps rack_unit as free text of the old meaning, unchecked (ADR 0481)", async () => {
    const res = await a.req("POST", "hardware", a.editor, { name: "legacy", rack_unit: 0, u_height: 0 });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ rack_unit: 0, rack_id: null, rack_face: null });
  });

  it("moving a node within its rack may overlap its own old units", async () => {
    const res = await a.req("PATCH", `hardware/${swId}`, a.editor, { rack_unit: 11 });
    expect(res.status).toBe(200);
    expect((await a.req("PATCH", `hardware/${swId}`, a.editor, { rack_unit: 10 })).status).toBe(200);
  });
});

describe("placement: refused, nothing changed", () => {
  it("overlapping a node on the same face is 409 naming it (create, PATCH, PUT)", async () => {
    const msg = `In rack 'r1' (id ${rackId}), units 11-12 on the front cannot be used: units 10-11 are taken by hardware 'sw-01' (id ${swId}), mounted on the front.`;
    const b = await refused(a.req("POST", "hardware", a.editor, { name: "clash", rack_id: rackId, rack_unit: 11, u_height: 2 }), 409, msg);
    expect(b.occupant).toEqual({ type: "hardware", id: swId, name: "sw-01" });
    expect(b.fields).toEqual({ rack_unit: msg });
    const other = await (await a.req("POST", "hardware", a.editor, { name: "mover", rack_id: rackId, rack_unit: 20 })).json();
    await refused(a.req("PATCH", `hardware/${other.id}`, a.editor, { rack_unit: 11 }), 409, /are taken by hardware 'sw-01'/);
    await refused(
      a.req("PUT", `hardware/${other.id}`, a.editor, { name: "mover", rack_id: rackId, rack_unit: 10, rack_face: "both" }),
      409,
      /sw-01/,
    );
    await refused(a.req("PATCH", `hardware/${other.id}`, a.editor, { u_height: 0 }), 422, /0 U node/);
  });

  it("a full-depth node (both) collides with a rear one; a rear one with a full-depth one", async () => {
    await refused(
      a.req("POST", "hardware", a.editor, { name: "deep", rack_id: rackId, rack_unit: 9, u_height: 2, rack_face: "both" }),
      409,
      /sw-01/,
    );
    const deep = await (
      await a.req("POST", "hardware", a.editor, { name: "deep-2", rack_id: rackId, rack_unit: 30, u_height: 2, rack_face: "both" })
    ).json();
    await refused(
      a.req("POST", "hardware", a.editor, { name: "rear", rack_id: rackId, rack_unit: 31, rack_face: "rear" }),
      409,
      new RegExp(`'deep-2' \\(id ${deep.id}\\)`),
    );
  });

  it("running past the rack's top is 409; unit 0 in a rack is 422", async () => {
    await refused(
      a.req("POST", "hardware", a.editor, { name: "tall", rack_id: rackId, rack_unit: 41, u_height: 3 }),
      409,
      `units 41-43 run past rack 'r1' (id ${rackId}), which has 42 U: a 3 U node fits at unit 40 at the highest.`,
    );
    await refused(a.req("POST", "hardware", a.editor, { name: "zero", rack_id: rackId, rack_unit: 0 }), 422, /numbered 1 to 42/);
  });

  it("a reserved unit is 409 naming the reservation", async () => {
    const rv = await (await a.req("POST", `racks/${rackId}/reservations`, a.admin, { first_unit: 35, u_count: 2, reason: "UPS" })).json();
    const b = await refused(
      a.req("POST", "hardware", a.editor, { name: "into-res", rack_id: rackId, rack_unit: 36, rack_face: "rear" }),
      409,
      /are reserved \(reservation \d+: UPS\)/,
    );
    expect(b.occupant).toEqual({ type: "reservation", id: rv.id, reason: "UPS" });
  });

  it("a rack at another site than the node's is 422; an unknown rack is 422; changing the node's site away from its rack is 422", async () => {
    await refused(
      a.req("POST", "hardware", a.editor, { name: "far", site_id: branch, rack_id: rackId, rack_unit: 1 }),
      422,
      new RegExp(`Rack 'r1' \\(id ${rackId}\\) is at site 'hq' \\(id ${hq}\\), not at this node's site 'branch' \\(id ${branch}\\)`),
    );
    const b = await refused(a.req("POST", "hardware", a.editor, { name: "nowhere", rack_id: 999_999, rack_unit: 1 }), 422);
    expect(b.fields).toEqual({ rack_id: "Rack 999999 was not found." });
    await refused(a.req("PATCH", `hardware/${swId}`, a.editor, { site_id: branch }), 422, /is at site 'hq'/);
  });

  it("a bulk update that would stack nodes is refused whole", async () => {
    const one = await (await a.req("POST", "hardware", a.editor, { name: "bulk-1", rack_id: rackId, rack_unit: 1 })).json();
    const two = await (await a.req("POST", "hardware", a.editor, { name: "bulk-2", rack_id: rackId, rack_unit: 2 })).json();
    const b = await refused(a.req("POST", "hardware/bulk-update", a.editor, { ids: [one.id, two.id], set: { rack_unit: 3 } }), 422);
    expect(b.refused).toEqual([{ id: two.id, reason: "conflict", detail: expect.stringContaining(`'bulk-1' (id ${one.id})`) }]);
  });
});

describe("placement: concurrency", () => {
  it("two placements into the same units at once: exactly one succeeds, the other is 409 naming it", async () => {
    // Units free of the nodes and reservation the tests above placed.
    const starts = [3, 6, 13, 16, 22];
    for (const [round, unit] of starts.entries()) {
      const [x, y] = await Promise.all([
        a.req("POST", "hardware", a.editor, { name: `race-a-${round}`, rack_id: rackId, rack_unit: unit, u_height: 2 }),
        a.req("POST", "hardware", a.editor, { name: `race-b-${round}`, rack_id: rackId, rack_unit: unit + 1, u_height: 2 }),
      ]);
      expect([x.status, y.status].sort()).toEqual([201, 409]);
      const loser = x.status === 409 ? await x.json() : await y.json();
      expect(loser.detail).toMatch(new RegExp(`taken by hardware 'race-[ab]-${round}'`));
      const rows = await a.t.sql`select count(*)::int as n from hardware where name like ${`race-%-${round}`}`;
      expect(rows[0]!.n).toBe(1);
    }
  });
});
