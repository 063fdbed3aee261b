// Multi-vantage monitors through the API (docs/adr/0441): vantage_agent_ids, vantage_sidecar and quorum on
// create and PATCH, each refusal a 422 naming its field with nothing stored, and GET's vantage_results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const count = async () => (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n as number;
const tcp = { check_type: "tcp", host: "127.0.0.1", config: { port: 22 } };

describe("vantage points on create", () => {
  it("stores the vantage agents, the sidecar and the quorum, a majority by default", async () => {
    const one = await a.agent({ status: "active" });
    const two = await a.agent({ status: "active" });
    const m = await a.monitor({ vantage_agent_ids: [one, two, one] });
    expect(m).toMatchObject({ vantage_agent_ids: [one, two], vantage_sidecar: true, quorum: 2, probe_agent_id: null });
    const explicit = await a.monitor({ vantage_agent_ids: [one, two], vantage_sidecar: false, quorum: 1 });
    expect(explicit).toMatchObject({ vantage_sidecar: false, quorum: 1 });
    const single = await a.monitor();
    expect(single).toMatchObject({ vantage_agent_ids: [], vantage_sidecar: true, quorum: null });
  });

  it("refuses a quorum larger than the vantage points, or below 1, with 422 at quorum, storing nothing", async () => {
    const one = await a.agent({ status: "active" });
    const two = await a.agent({ status: "active" });
    const before = await count();
    for (const body of [
      { vantage_agent_ids: [one, two], quorum: 4 },
      { vantage_agent_ids: [one, two], vantage_sidecar: false, quorum: 3 },
      { vantage_agent_ids: [one], quorum: 0 },
      { quorum: 1 },
    ]) {
      const res = await a.req("POST", "monitors", a.admin, { name: "q", ...tcp, ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await res.json()).fields)).toEqual(["quorum"]);
    }
    const res = await a.req("POST", "monitors", a.admin, { name: "q", ...tcp, vantage_agent_ids: [one, two], quorum: 4 });
    expect((await res.json()).fields.quorum).toMatch(/at most 3: the monitor has 3 vantage points/);
    expect(await count()).toBe(before);
  });

  it("refuses an agent that may not run the check (422 naming the list entry), and probe_agent_id with vantage agents", async () => {
    const ok = await a.agent({ status: "active" });
    const noGrant = await a.agent({ status: "active", capabilities: { remote_probe: { enabled: false } } });
    const revoked = await a.agent({ status: "revoked" });
    const before = await count();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...tcp, vantage_agent_ids: [ok, noGrant] }, ["vantage_agent_ids.1"]],
      [{ ...tcp, vantage_agent_ids: [revoked, ok, 999_999] }, ["vantage_agent_ids.0", "vantage_agent_ids.2"]],
      // icmp runs in the sidecar only.
      [{ check_type: "icmp", host: "127.0.0.1", vantage_agent_ids: [ok] }, ["vantage_agent_ids"]],
      [{ ...tcp, vantage_agent_ids: [ok], probe_agent_id: ok }, ["vantage_agent_ids"]],
    ];
    for (const [body, fields] of cases) {
      const res = await a.req("POST", "monitors", a.admin, { name: "v", ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await res.json()).fields).sort(), JSON.stringify(body)).toEqual(fields);
    }
    expect(await count()).toBe(before);
  });
});

describe("vantage points on PATCH", () => {
  it("checks the quorum against the points as they will be, and leaves a monitor unchanged on a refusal", async () => {
    const one = await a.agent({ status: "active" });
    const two = await a.agent({ status: "active" });
    const m = await a.monitor({ vantage_agent_ids: [one, two], quorum: 3 });
    const drop = await a.req("PATCH", `monitors/${m.id}`, a.admin, { vantage_agent_ids: [one] });
    expect(drop.status).toBe(422);
    expect(Object.keys((await drop.json()).fields)).toEqual(["quorum"]);
    const both = await a.req("PATCH", `monitors/${m.id}`, a.admin, { vantage_agent_ids: [one], quorum: null });
    expect(both.status).toBe(200);
    expect(await both.json()).toMatchObject({ vantage_agent_ids: [one], quorum: 2 });
    const off = await a.req("PATCH", `monitors/${m.id}`, a.admin, { vantage_agent_ids: [] });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ vantage_agent_ids: [], quorum: null });
  });
});

describe("an agent deleted", () => {
  it("leaves the vantage points of the monitors naming it, its quorum lowered to the points left", async () => {
    const one = await a.agent({ status: "active" });
    const two = await a.agent({ status: "active" });
    const m = await a.monitor({ vantage_agent_ids: [one, two], quorum: 3 });
    const majority = await a.monitor({ vantage_agent_ids: [two] });
    await a.t
      .sql`insert into monitor_vantage_results (monitor_id, vantage, status, checked_at) values (${m.id}, ${String(two)}, 'up', now())`;
    expect((await a.req("DELETE", `agents/${two}`, a.admin)).status).toBe(204);
    const after = await (await a.req("GET", `monitors/${m.id}`, a.admin)).json();
    expect(after).toMatchObject({ vantage_agent_ids: [one], quorum: 2 });
    expect(after.vantage_results.map((v: { vantage: string }) => v.vantage)).toEqual(["sidecar", String(one)]);
    expect(await (await a.req("GET", `monitors/${majority.id}`, a.admin)).json()).toMatchObject({ vantage_agent_ids: [], quorum: null });
    expect(await a.t.sql`select 1 from monitor_vantage_results where vantage = ${String(two)}`).toHaveLength(0);
  });
});

describe("GET /monitors/{id} vantage_results", () => {
  it("lists each point with its last result, whether it is fresh, and the agent's last dispatch", async () => {
    const one = await a.agent({ status: "active", name: "edge-1" });
    const two = await a.agent({ status: "active", name: "edge-2" });
    const m = await a.monitor({ vantage_agent_ids: [one, two], interval_secs: 60 });
    const now = a.clock.now();
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    await a.t.sql`
      insert into monitor_vantage_results (monitor_id, vantage, status, msg, latency_ms, checked_at, dispatch_status, dispatch_reason, dispatched_at) values
        (${m.id}, 'sidecar', 'up', 'connected', 3, ${ago(10)}, null, null, null),
        (${m.id}, ${String(one)}, 'down', 'connect failed: ECONNREFUSED', null, ${ago(3600)}, 'unavailable', 'agent_offline', ${ago(5)})`;
    const res = await a.req("GET", `monitors/${m.id}`, a.admin);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.vantage_results).toEqual([
      {
        vantage: "sidecar",
        agent: null,
        status: "up",
        msg: "connected",
        latency_ms: 3,
        checked_at: ago(10).toISOString(),
        fresh: true,
        dispatch_status: null,
        dispatch_reason: null,
        dispatched_at: null,
      },
      {
        vantage: String(one),
        agent: { id: one, name: "edge-1" },
        status: "down",
        msg: "connect failed: ECONNREFUSED",
        latency_ms: null,
        checked_at: ago(3600).toISOString(),
        fresh: false,
        dispatch_status: "unavailable",
        dispatch_reason: "agent_offline",
        dispatched_at: ago(5).toISOString(),
      },
      {
        vantage: String(two),
        agent: { id: two, name: "edge-2" },
        status: null,
        msg: null,
        latency_ms: null,
        checked_at: null,
        fresh: false,
        dispatch_status: null,
        dispatch_reason: null,
        dispatched_at: null,
      },
    ]);
    const single = await a.monitor();
    expect((await (await a.req("GET", `monitors/${single.id}`, a.admin)).json()).vantage_results).toEqual([]);
  });
});
