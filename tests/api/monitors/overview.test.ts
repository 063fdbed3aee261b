// GET /monitors/overview as the console's overview reads it in one request (docs/adr/0463): the counts per
// state and per target kind of the filtered list (its status filter aside), the filters by site, tag and
// target kind with their place read through the target (docs/adr/0464), each item's site and tags, and
// the heartbeats (the last results with the state after each, docs/adr/0465), also on GET /monitors/{id}.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorsCoveredBy } from "../../../shared/verbs/monitors/run/maintenance-cover.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const PREFIX = `ovw-${Date.now().toString(36)}`;
type Overview = {
  items: Array<{ id: number; name: string; site: { id: number; name: string } | null; tags: string[]; heartbeats: unknown[] }>;
  total: number;
  counts: {
    total: number;
    status: Record<string, number>;
    target_types: Array<{ target_type: string; total: number; status: Record<string, number> }>;
  };
};
const overview = async (query: string): Promise<Overview> => {
  const res = await a.req("GET", `monitors/overview?q=${PREFIX}&${query}`, a.viewer);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
};
const names = (o: Overview) => o.items.map((i) => i.name.slice(PREFIX.length + 1)).sort();

describe("the overview's counts, filters and places", () => {
  const ids: Record<string, number> = {};
  let siteId = 0;
  let otherSite = 0;

  beforeAll(async () => {
    const sql = a.t.sql;
    const site = async (name: string) => (await sql<{ id: number }[]>`insert into sites (name) values (${name}) returning id`)[0]!.id;
    siteId = await site(`${PREFIX} north`);
    otherSite = await site(`${PREFIX} south`);
    const [hw] = await sql<
      { id: number }[]
    >`insert into hardware (name, site_id, tags) values ('rack host', ${siteId}, ${["rack-a"]}) returning id`;
    const [hw2] = await sql<
      { id: number }[]
    >`insert into hardware (name, site_id, tags) values ('other host', ${otherSite}, '{}') returning id`;
    const [cu] = await sql<{ id: number }[]>`
      insert into compute_units (name, kind, hardware_id, tags) values ('vm one', 'vm', ${hw!.id}, ${["web"]}) returning id`;
    const svc = await a.service(`${PREFIX}-svc`);
    await sql`update services set compute_id = ${cu!.id}, tags = ${["db"]} where id = ${svc}`;
    const [ext] = await sql<{ id: number }[]>`insert into external_nodes (name, tags) values ('cdn', ${["cloud"]}) returning id`;
    const make = async (key: string, target: Record<string, unknown>, status: string) => {
      const m = await a.monitor({ name: `${PREFIX}-${key}`, ...target });
      await sql`update monitors set status = ${status} where id = ${m.id}`;
      ids[key] = m.id;
    };
    await make("hw", { target_type: "hardware", target_id: hw!.id }, "up");
    await make("vm", { target_type: "compute_unit", target_id: cu!.id }, "down");
    await make("svc", { target_type: "service", target_id: svc }, "up");
    await make("bare", {}, "pending");
    await make("ext", { target_type: "external_node", target_id: ext!.id }, "maintenance");
    await make("south", { target_type: "hardware", target_id: hw2!.id }, "down");
  });

  it("counts every state and target kind of the filtered list in the same answer as its page", async () => {
    const all = await overview("limit=2&sort=name");
    expect(all.items).toHaveLength(2);
    expect(all.total).toBe(6);
    expect(all.counts.total).toBe(6);
    expect(all.counts.status).toEqual({ up: 2, down: 2, pending: 1, maintenance: 1, degraded: 0 });
    const kinds = Object.fromEntries(all.counts.target_types.map((k) => [k.target_type, k]));
    expect(Object.keys(kinds).sort()).toEqual(["compute_unit", "external_node", "hardware", "none", "service"]);
    expect(kinds.hardware).toMatchObject({ total: 2, status: { up: 1, down: 1 } });
    expect(kinds.none).toMatchObject({ total: 1, status: { pending: 1 } });
    // The status filter narrows the page, not the counts: each state's count is what its filter lists.
    const down = await overview("status=down");
    expect(names(down)).toEqual(["south", "vm"]);
    expect(down.counts.status).toEqual(all.counts.status);
  });

  it("filters by site and tag through the target's hardware, and by target kind (none: no target)", async () => {
    const north = await overview(`site_id=${siteId}`);
    expect(names(north)).toEqual(["hw", "svc", "vm"]);
    expect(north.counts).toMatchObject({ total: 3, status: { up: 2, down: 1 } });
    expect(north.items.every((i) => i.site?.id === siteId && i.site.name === `${PREFIX} north`)).toBe(true);
    // Its own tags and its hardware's: the service's "db", the compute unit's "web", the host's "rack-a".
    expect(names(await overview("tag=rack-a"))).toEqual(["hw", "svc", "vm"]);
    expect(names(await overview("tag=web"))).toEqual(["vm"]);
    expect(names(await overview("tag=db"))).toEqual(["svc"]);
    expect(names(await overview("tag=cloud"))).toEqual(["ext"]);
    const svc = (await overview("tag=db")).items[0]!;
    expect(svc.tags).toEqual(["db", "rack-a"]);
    const ext = (await overview("tag=cloud")).items[0]!;
    expect(ext).toMatchObject({ site: null, tags: ["cloud"] });
    expect(names(await overview("target_type=none"))).toEqual(["bare"]);
    expect(names(await overview(`target_type=hardware&site_id=${otherSite}`))).toEqual(["south"]);
    // GET /monitors takes the same filters.
    const list = await (await a.req("GET", `monitors?q=${PREFIX}&tag=rack-a&status=down`, a.viewer)).json();
    expect(list.items.map((m: { id: number }) => m.id)).toEqual([ids.vm]);
    expect((await a.req("GET", `monitors/overview?target_type=rack`, a.viewer)).status).toBe(422);
    expect((await a.req("GET", `monitors/overview?site_id=north`, a.viewer)).status).toBe(422);
  });

  it("sorts by site name and by target kind, so groups stay together across pages", async () => {
    const bySite = await overview("sort=site");
    expect(bySite.items.map((i) => i.site?.name ?? null)).toEqual([
      `${PREFIX} north`,
      `${PREFIX} north`,
      `${PREFIX} north`,
      `${PREFIX} south`,
      null,
      null,
    ]);
    // Descending, ties by id descending too (the later "south" before "hw").
    const byKind = await overview("sort=target_type&direction=desc");
    expect(byKind.items.map((i) => i.name.slice(PREFIX.length + 1))).toEqual(["svc", "south", "hw", "ext", "vm", "bare"]);
  });

  it("a maintenance window by site or tag covers the monitors whose target's hardware is there or has it", async () => {
    const ctxDb = a.t.runtime.database.provider.lease().db;
    const window = (fields: { site_id?: number; tag?: string }) =>
      ({ monitor_ids: [], target_type: null, target_id: null, site_id: null, tag: null, ...fields }) as unknown as Parameters<
        typeof monitorsCoveredBy
      >[1];
    const all = Object.values(ids);
    const covered = async (w: ReturnType<typeof window>) => [...(await monitorsCoveredBy(ctxDb, w, all))].sort((x, y) => x - y);
    expect(await covered(window({ site_id: siteId }))).toEqual([ids.hw, ids.vm, ids.svc].sort((x, y) => x! - y!));
    // By the hardware's tags alone: the compute unit's own "web" is not the hardware's.
    expect(await covered(window({ tag: "web" }))).toEqual([]);
    expect(await covered(window({ tag: "rack-a", site_id: siteId }))).toEqual([ids.hw, ids.vm, ids.svc].sort((x, y) => x! - y!));
  });
});

describe("heartbeats", () => {
  it("answers the last 50 results oldest first with the state the monitor was in after each", async () => {
    const m = await a.monitor({ name: `${PREFIX}-beats`, max_retries: 1 });
    const sql = a.t.sql;
    const base = a.clock.now().getTime() - 60 * 60_000;
    const at = (i: number) => new Date(base + i * 60_000);
    // 55 results: the first 5 fall off. Result 50 fails (pending: retrying), 51 fails (down), 53 recovers.
    for (let i = 0; i < 55; i++) {
      const up = !(i === 50 || i === 51 || i === 52);
      await sql`insert into monitor_samples (monitor_id, ts, avail, latency_ms, msg) values (${m.id}, ${at(i)}, ${up}, ${up ? 10 + i : null}, ${`result ${i}`})`;
    }
    for (const [i, to] of [
      [0, "up"],
      [50, "pending"],
      [51, "down"],
      [53, "up"],
    ] as const)
      await sql`insert into monitor_events (monitor_id, event_type, status_to, msg, created_at) values (${m.id}, ${to}, ${to}, 'x', ${at(i)})`;
    const page = await overview("limit=100");
    const beats = page.items.find((i) => i.id === m.id)!.heartbeats as Array<{
      ts: string;
      status: string;
      latency_ms: number | null;
      msg: string;
    }>;
    expect(beats).toHaveLength(50);
    expect(beats[0]).toEqual({ ts: at(5).toISOString(), status: "up", latency_ms: 15, msg: "result 5" });
    expect(beats.slice(-6).map((b) => b.status)).toEqual(["up", "pending", "down", "down", "up", "up"]);
    expect(beats.at(-1)).toMatchObject({ ts: at(54).toISOString(), msg: "result 54" });
    const detail = await (await a.req("GET", `monitors/${m.id}`, a.viewer)).json();
    expect(detail.heartbeats).toEqual(beats);
    // A monitor without results has none.
    const fresh = await a.monitor({ name: `${PREFIX}-nothing` });
    expect((await (await a.req("GET", `monitors/${fresh.id}`, a.viewer)).json()).heartbeats).toEqual([]);
  });
});
