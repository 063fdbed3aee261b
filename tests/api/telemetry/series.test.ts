// GET /hardware/{id}/telemetry, GET /hardware/entity/{type}/{id} and their /telemetry/... aliases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTelemetryActors, type TelemetryActors } from "./support.ts";

let a: TelemetryActors;
let hw: number;
const MIN = 60_000;
const HOUR = 60 * MIN;
const ago = (ms: number) => new Date(a.clock.now().getTime() - ms);

beforeAll(async () => {
  a = await createTelemetryActors();
  hw = await a.node("series-01");
  // Rows at 30 h, 3 h, 2 h, 1 h and 1 min ago; the 1 h row came from SNMP.
  for (const [age, cpu, source] of [
    [30 * HOUR, 1, "push"],
    [3 * HOUR, 2, "push"],
    [2 * HOUR, 3, "hourly_agg"],
    [HOUR, 4, "snmp"],
    [MIN, 5, "push"],
  ] as const)
    await a.t.sql`insert into hardware_live_metrics (hardware_id, ts, cpu_pct, source) values (${hw}, ${ago(age)}, ${cpu}, ${source})`;
});
afterAll(async () => a.t.close());

const cpus = (body: { series: { cpu_pct: number }[] }) => body.series.map((r) => r.cpu_pct);
const get = async (path: string, token = a.viewer) => {
  const res = await a.req("GET", path, token);
  expect(res.status).toBe(200);
  return res.json();
};

describe("series: happy", () => {
  it("answers the latest sample and the last 24 hours newest first, each row with its source", async () => {
    const body = await get(`hardware/${hw}/telemetry`);
    expect(body).toMatchObject({ hardware_id: hw, hardware_name: "series-01", hardware_status: "unknown", until: null, config: null });
    expect(cpus(body)).toEqual([5, 4, 3, 2]);
    expect(body.series.map((r: { source: string }) => r.source)).toEqual(["push", "snmp", "hourly_agg", "push"]);
    expect(body.latest).toMatchObject({ cpu_pct: 5, source: "push", ts: ago(MIN).toISOString() });
    expect(body.since).toBe(ago(24 * HOUR).toISOString());
  });

  it("takes ?hours=, ?since=&until=&limit=", async () => {
    expect(cpus(await get(`hardware/${hw}/telemetry?hours=48`))).toEqual([5, 4, 3, 2, 1]);
    expect(cpus(await get(`hardware/${hw}/telemetry?hours=48&limit=2`))).toEqual([5, 4]);
    const since = ago(3.5 * HOUR).toISOString();
    const until = ago(1.5 * HOUR).toISOString();
    const body = await get(`hardware/${hw}/telemetry?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`);
    expect(cpus(body)).toEqual([3, 2]);
    expect(body.latest.cpu_pct).toBe(5); // the latest sample there is, whatever the window
  });

  it("answers the same on the /telemetry/{id}/telemetry alias", async () => {
    expect(await get(`telemetry/${hw}/telemetry?hours=48`)).toEqual(await get(`hardware/${hw}/telemetry?hours=48`));
  });

  it("a node without samples has no latest and an empty series", async () => {
    const id = await a.node("series-empty");
    expect(await get(`hardware/${id}/telemetry`)).toMatchObject({ latest: null, series: [] });
  });
});

describe("entity telemetry", () => {
  let cu: number;
  let bare: number;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    const idOf = async (rows: Promise<{ id: number }[]>) => (await rows)[0]!.id;
    cu = await idOf(a.t.sql`insert into compute_units (name, kind, hardware_id) values ('vm-1', 'vm', ${hw}) returning id`);
    bare = await idOf(a.t.sql`insert into compute_units (name, kind) values ('vm-floating', 'vm') returning id`);
    for (const [slug, hwId, cuId] of [
      ["svc-direct", hw, null],
      ["svc-on-vm", null, cu],
      ["svc-nowhere", null, null],
    ] as const)
      ids[slug] = await idOf(
        a.t.sql`insert into services (name, slug, hardware_id, compute_id) values (${slug}, ${slug}, ${hwId}, ${cuId}) returning id`,
      );
  });

  it("hardware reads its own, a compute unit its host's, a service the hardware it runs on (directly or via its unit)", async () => {
    for (const [type, id] of [
      ["hardware", hw],
      ["compute_unit", cu],
      ["service", ids["svc-direct"]!],
      ["service", ids["svc-on-vm"]!],
    ] as const) {
      const body = await get(`hardware/entity/${type}/${id}`);
      expect(body).toMatchObject({ entity_type: type, entity_id: id, hardware_id: hw });
      expect(cpus(body)).toEqual([5, 4, 3, 2]);
    }
  });

  it("an entity on no hardware answers hardware_id null and an empty series", async () => {
    for (const [type, id] of [
      ["compute_unit", bare],
      ["service", ids["svc-nowhere"]!],
    ] as const)
      expect(await get(`hardware/entity/${type}/${id}`)).toMatchObject({ hardware_id: null, latest: null, series: [], config: null });
  });

  it("answers the same on /telemetry/entity/...", async () => {
    expect(await get(`telemetry/entity/service/${ids["svc-on-vm"]}?hours=48`)).toEqual(
      await get(`hardware/entity/service/${ids["svc-on-vm"]}?hours=48`),
    );
  });

  it("404 for an unknown entity, naming it; 422 for an unknown entity_type", async () => {
    for (const [type, label] of [
      ["hardware", "Hardware node"],
      ["compute_unit", "Compute unit"],
      ["service", "Service"],
    ]) {
      const res = await a.req("GET", `telemetry/entity/${type}/999999`, a.viewer);
      expect(res.status).toBe(404);
      expect((await res.json()).detail).toBe(`${label} 999999 was not found.`);
    }
    const res = await a.req("GET", `hardware/entity/router/1`, a.viewer);
    expect(res.status).toBe(422);
    expect((await res.json()).fields.entity_type).toMatch(/hardware, compute_unit, service/);
  });
});

describe("series: errors and security", () => {
  it("404 for an unknown node on both paths", async () => {
    for (const path of ["hardware/424242/telemetry", "telemetry/424242/telemetry"]) {
      const res = await a.req("GET", path, a.viewer);
      expect(res.status).toBe(404);
      expect((await res.json()).detail).toBe("Hardware node 424242 was not found.");
    }
  });

  it("422 for a bad window", async () => {
    for (const q of ["since=yesterday", "hours=0", "limit=0", "limit=1.5", `since=${encodeURIComponent(ago(HOUR).toISOString())}&hours=2`])
      expect((await a.req("GET", `hardware/${hw}/telemetry?${q}`, a.viewer)).status).toBe(422);
  });

  it("needs a credential with read access", async () => {
    expect((await a.req("GET", `hardware/${hw}/telemetry`)).status).toBe(401);
    expect((await a.req("GET", `hardware/entity/hardware/${hw}`)).status).toBe(401);
    expect((await a.req("GET", `telemetry/entity/hardware/${hw}`, a.pusher)).status).toBe(403);
  });
});
