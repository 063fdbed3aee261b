// The traversal runs in PostgreSQL, so the hand-built lab of issue 5 is tested here against it: every one
// of the six edge kinds, a dependency chain, a network shared by two nodes, and cycles.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
const get = async (path: string, token = a.viewer) => {
  const res = await a.req("GET", `intel/blast-radius/${path}`, token);
  return { status: res.status, body: await res.json() };
};
const ids = (items: { asset_id: number }[]) => items.map((i) => i.asset_id);

beforeAll(async () => {
  a = await createActors();
  const s = a.t.sql;
  // hw1 -> hw2 (connection); hw1 and hw3 share network 1; hw4 stands apart; hw2 <-> hw5 both ways (cycle).
  await s`insert into hardware (id, name, status) values (1, 'core', 'up'), (2, 'edge', 'up'), (3, 'nas-host', 'up'), (4, 'lonely', 'up'), (5, 'peer', 'up')`;
  await s`insert into hardware_connections (source_hardware_id, target_hardware_id) values (1, 2), (2, 5), (5, 2)`;
  await s`insert into networks (id, name, cidr) values (1, 'lan', '10.0.0.0/24')`;
  await s`insert into network_hardware_members (network_id, hardware_id) values (1, 1), (1, 3)`;
  await s`insert into compute_units (id, name, kind, hardware_id, status) values (10, 'vm-app', 'vm', 2, 'running'), (11, 'ct-db', 'container', 3, 'running')`;
  // Chain: web depends on api depends on db; db runs in ct-db on hw3; cache runs directly on hw4.
  await s`insert into services (id, name, slug, compute_id, status) values (20, 'db', 'db', 11, 'running'), (21, 'api', 'api', 10, 'running'), (22, 'web', 'web', null, 'running')`;
  await s`insert into services (id, name, slug, hardware_id, status) values (23, 'cache', 'cache', 4, 'running')`;
  await s`insert into service_dependencies (service_id, depends_on_id) values (21, 20), (22, 21)`;
  await s`insert into storage (id, name, kind, hardware_id) values (30, 'tank', 'pool', 3)`;
});
afterAll(async () => a.t.close());

describe("blast radius", () => {
  it("walks all six edge kinds from a hardware node, root not counted", async () => {
    const { status, body } = await get("hardware/1");
    expect(status).toBe(200);
    expect(body.root_asset).toEqual({ asset_type: "hardware", asset_id: 1, name: "core", status: "up" });
    expect(ids(body.impacted_hardware)).toEqual([2, 3, 5]); // connection, shared network, connection of a connection
    expect(ids(body.impacted_compute_units)).toEqual([10, 11]);
    expect(ids(body.impacted_services)).toEqual([20, 21, 22]); // db on hw3, api on hw2's VM, web depends on api
    expect(ids(body.impacted_storage)).toEqual([30]);
    expect(body.total_impact_count).toBe(9);
    expect(body.summary).toBe('Hardware node "core" is up; if it goes DOWN: 2 VMs and 3 services affected, plus 4 other assets.');
  });

  it("follows a dependency chain upwards only (B down impacts A, not the reverse)", async () => {
    const db = await get("service/20");
    expect(ids(db.body.impacted_services)).toEqual([21, 22]);
    const web = await get("service/22");
    expect(web.body.total_impact_count).toBe(0);
  });

  it("a shared network impacts the other node both ways", async () => {
    const { body } = await get("hardware/3");
    expect(ids(body.impacted_hardware)).toEqual([1, 2, 5]);
  });

  it("ends on cycles and answers an isolated asset with empty arrays", async () => {
    const peer = await get("hardware/5");
    expect(ids(peer.body.impacted_hardware)).toEqual([2]);
    const lonely = await get("storage/30");
    expect(lonely.body).toMatchObject({ total_impact_count: 0, impacted_services: [] });
  });

  it("404 for an unknown asset, 422 for an unknown asset type, 401 without a credential", async () => {
    const missing = await get("compute_unit/999");
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("Compute unit 999 was not found.");
    expect((await get("spaceship/1")).status).toBe(422);
    expect((await a.req("GET", "intel/blast-radius/hardware/1")).status).toBe(401);
  });
});

describe("forecasts and recommendations", () => {
  it("forecasts are ordered by projected_full_at with nulls last; recommendations newest first", async () => {
    const s = a.t.sql;
    await s`insert into capacity_forecasts (hardware_id, metric, slope_per_day, current_value, projected_full_at, evaluated_at) values
      (1, 'disk_pct', 0, 50, null, now()), (2, 'disk_pct', 2, 80, now() + interval '10 days', now()), (3, 'mem_pct', 1, 60, now() + interval '3 days', now())`;
    await s`insert into resource_recommendations (asset_type, asset_id, classification, cpu_avg_pct, cpu_peak_pct, mem_avg_pct, recommendation, evaluated_at) values
      ('hardware', 1, 'over_provisioned', 5, 9, 10, 'old', now() - interval '1 day'), ('hardware', 2, 'under_provisioned', 80, 95, 50, 'new', now())`;
    const f = await (await a.req("GET", "intel/capacity-forecasts", a.viewer)).json();
    expect(f.map((r: { hardware_id: number }) => r.hardware_id)).toEqual([3, 2, 1]);
    expect(f[2].projected_full_at).toBeNull();
    const r = await (await a.req("GET", "intel/resource-efficiency", a.viewer)).json();
    expect(r.map((x: { recommendation: string }) => x.recommendation)).toEqual(["new", "old"]);
  });
});

describe("scopes (issue 36 item 12)", () => {
  const token = async (scopes: string[]) => {
    const res = await a.req("POST", "auth/api-token", a.admin, { label: scopes.join(" "), scopes });
    expect(res.status).toBe(201);
    return (await res.json()).token as string;
  };

  it("a blast radius lists only the kinds the caller may read, and counts the rest without naming them", async () => {
    const hardwareOnly = await token(["read:hardware"]);
    const res = await a.req("GET", "intel/blast-radius/hardware/1", hardwareOnly);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(ids(body.impacted_hardware)).toEqual([2, 3, 5]);
    expect(body).toMatchObject({
      impacted_compute_units: [],
      impacted_services: [],
      impacted_storage: [],
      total_impact_count: 9,
      hidden_impact_count: 6,
    });
    const text = JSON.stringify(body);
    for (const name of ["vm-app", "ct-db", "db", "api", "web", "tank"]) expect(text).not.toContain(`"${name}"`);
    // A caller who may read everything sees everything and nothing hidden.
    expect((await get("hardware/1")).body).toMatchObject({ total_impact_count: 9, hidden_impact_count: 0 });
  });

  it("the root's kind needs its read scope: 403, naming it", async () => {
    const hardwareOnly = await token(["read:hardware"]);
    const res = await a.req("GET", "intel/blast-radius/service/20", hardwareOnly);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error_code: "PERMISSION_DENIED", detail: expect.stringContaining("read:services") });
    const services = await token(["read:services"]);
    const chain = await (await a.req("GET", "intel/blast-radius/service/20", services)).json();
    expect(ids(chain.impacted_services)).toEqual([21, 22]);
  });

  it("forecasts and right-sizing need read:hardware", async () => {
    const servicesOnly = await token(["read:services"]);
    for (const path of ["intel/capacity-forecasts", "intel/resource-efficiency"]) {
      const res = await a.req("GET", path, servicesOnly);
      expect(res.status, path).toBe(403);
      expect((await res.json()).detail, path).toContain("read:hardware");
      expect((await a.req("GET", path, await token(["read:hardware"]))).status, path).toBe(200);
    }
  });
});
