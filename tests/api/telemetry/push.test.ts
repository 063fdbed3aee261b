// POST /hardware/{id}/telemetry/samples (docs/architecture.md, API contracts): happy, error and security cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTelemetryActors, eventually, type TelemetryActors } from "./support.ts";

let a: TelemetryActors;
beforeAll(async () => {
  a = await createTelemetryActors();
});
afterAll(async () => a.t.close());

const ago = (ms: number) => new Date(a.clock.now().getTime() - ms).toISOString();
const MIN = 60_000;
const push = (id: number, samples: unknown[], token = a.pusher) => a.req("POST", `hardware/${id}/telemetry/samples`, token, { samples });

describe("push: happy", () => {
  it("stores a batch with source push, applies status changes in ts order, audits once and notifies", async () => {
    const id = await a.node("push-01");
    const events = await a.notifications();
    const res = await push(id, [
      { ts: ago(1 * MIN), cpu_pct: 30, status: "up" },
      {
        ts: ago(3 * MIN),
        cpu_pct: 10,
        mem_pct: 40,
        disk_pct: 50,
        temp_c: 41.5,
        net_rx_bps: 1000,
        net_tx_bps: 2000,
        uptime_s: 3600,
        status: "up",
      },
      { ts: ago(2 * MIN), cpu_pct: 20, status: "down" },
      { ts: ago(30_000), mem_pct: 45 },
    ]);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ hardware_id: id, stored: 4, status: "up", status_changes: 3 });

    const rows = await a.t.sql`select source, cpu_pct, status from hardware_live_metrics where hardware_id = ${id} order by ts`;
    expect(rows.map((r) => [r.source, r.cpu_pct, r.status])).toEqual([
      ["push", 10, "up"],
      ["push", 20, "down"],
      ["push", 30, "up"],
      ["push", null, null],
    ]);

    const history = await a.t
      .sql`select status, previous_status, severity, entity_type, created_at from status_history where entity_id = ${id} order by created_at`;
    expect(history.map((h) => [h.entity_type, h.status, h.previous_status, h.severity])).toEqual([
      ["hardware", "up", "unknown", "info"],
      ["hardware", "down", "up", "warning"],
      ["hardware", "up", "down", "info"],
    ]);
    expect(history[1]!.created_at.toISOString()).toBe(ago(2 * MIN));
    const [hw] = await a.t.sql`select status, status_changed_at from hardware where id = ${id}`;
    expect([hw!.status, hw!.status_changed_at.toISOString()]).toEqual(["up", ago(1 * MIN)]);

    const audit = await a.t.sql`select action, diff from audit_log where action = 'telemetry.push' and entity_id = ${String(id)}`;
    expect(audit).toHaveLength(1);
    expect(audit[0]!.diff).toMatchObject({ count: 4, status_changes: 3 });
    await eventually(() => events.payloads.length > 0);
    expect(events.payloads).toContainEqual({ hardware_id: id, count: 4 });
    await events.stop();
  });

  it("ignores a reported status older than the node's last change, and repeats of the current one", async () => {
    const id = await a.node("push-02");
    expect((await push(id, [{ ts: ago(MIN), status: "down" }])).status).toBe(201);
    const res = await push(id, [
      { ts: ago(5 * MIN), status: "up" },
      { ts: ago(10_000), status: "down" },
    ]);
    expect(await res.json()).toMatchObject({ status: "down", status_changes: 0, stored: 2 });
    expect((await a.t.sql`select count(*)::int as n from status_history where entity_id = ${id}`)[0]!.n).toBe(1);
  });

  it("takes 1000 samples in one request (batches are the way past the telemetry rate limit) and admins may push", async () => {
    const id = await a.node("push-03");
    const samples = Array.from({ length: 1000 }, (_, i) => ({ ts: ago(i * 1000), cpu_pct: i % 101 }));
    expect((await push(id, samples)).status).toBe(201);
    expect((await push(id, [{ ts: ago(0), cpu_pct: 1 }], a.admin)).status).toBe(201);
    expect((await a.t.sql`select count(*)::int as n from hardware_live_metrics where hardware_id = ${id}`)[0]!.n).toBe(1001);
  });

  it("shows pushed rows in GET .../telemetry, newest first with their source", async () => {
    const id = await a.node("push-04");
    await push(id, [
      { ts: ago(2 * MIN), cpu_pct: 1 },
      { ts: ago(MIN), cpu_pct: 2 },
    ]);
    const body = await (await a.req("GET", `hardware/${id}/telemetry`, a.viewer)).json();
    expect(body.series.map((r: { cpu_pct: number; source: string }) => [r.cpu_pct, r.source])).toEqual([
      [2, "push"],
      [1, "push"],
    ]);
    expect(body.latest.cpu_pct).toBe(2);
  });
});

describe("push: errors", () => {
  it("422 for a timestamp beyond the 60 s clock skew (driven clock), naming the index; nothing stored", async () => {
    const id = await a.node("push-e1");
    const ahead = (ms: number) => new Date(a.clock.now().getTime() + ms).toISOString();
    expect((await push(id, [{ ts: ahead(59_000), cpu_pct: 1 }])).status).toBe(201);
    const res = await push(id, [{ ts: ago(0), cpu_pct: 5 }, { ts: ahead(61_000), cpu_pct: 5 }, { ts: ago(31 * 86_400_000) }]);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error_code).toBe("VALIDATION_ERROR");
    expect(Object.keys(body.fields)).toEqual(["samples.1.ts", "samples.2.ts"]);
    expect(body.fields["samples.1.ts"]).toMatch(/61 s in the future/);
    // The clock moves on: the same timestamp is now within the skew.
    a.clock.advance(10_000);
    expect((await push(id, [{ ts: ahead(51_000) }])).status).toBe(201);
    expect((await a.t.sql`select count(*)::int as n from hardware_live_metrics where hardware_id = ${id}`)[0]!.n).toBe(2);
  });

  it("422 for a percentage above 100, naming samples.3.cpu_pct; nothing stored, no status applied", async () => {
    const id = await a.node("push-e2");
    const res = await push(id, [
      { ts: ago(4000), status: "down" },
      { ts: ago(3000) },
      { ts: ago(2000), mem_pct: 50 },
      { ts: ago(1000), cpu_pct: 100.5, disk_pct: -2 },
    ]);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.fields).sort()).toEqual(["samples.3.cpu_pct", "samples.3.disk_pct"]);
    expect(body.detail[0].loc).toEqual(["body", "samples", 3, "cpu_pct"]);
    expect((await a.t.sql`select count(*)::int as n from hardware_live_metrics where hardware_id = ${id}`)[0]!.n).toBe(0);
    expect((await a.t.sql`select status from hardware where id = ${id}`)[0]!.status).toBe("unknown");
  });

  it("422 for an empty batch, more than 1000 samples, unknown fields or a bad status", async () => {
    const id = await a.node("push-e3");
    expect((await push(id, [])).status).toBe(422);
    expect(
      (
        await push(
          id,
          Array.from({ length: 1001 }, () => ({ ts: ago(0) })),
        )
      ).status,
    ).toBe(422);
    const res = await push(id, [{ ts: ago(0), load: 3, status: "sideways" }]);
    expect(Object.keys((await res.json()).fields).sort()).toEqual(["samples.0.load", "samples.0.status"]);
  });

  it("404 for an unknown node", async () => {
    const res = await push(987654, [{ ts: ago(0) }]);
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe("Hardware node 987654 was not found.");
  });
});

describe("push: security", () => {
  it("a write:telemetry token can push but cannot read hardware lists, telemetry, or write hardware", async () => {
    const id = await a.node("push-s1");
    expect((await push(id, [{ ts: ago(0) }])).status).toBe(201);
    expect((await a.req("GET", "hardware", a.pusher)).status).toBe(403);
    expect((await a.req("GET", `hardware/${id}`, a.pusher)).status).toBe(403);
    expect((await a.req("GET", `hardware/${id}/telemetry`, a.pusher)).status).toBe(403);
    expect((await a.req("POST", "hardware", a.pusher, { name: "nope" })).status).toBe(403);
    expect((await a.req("PATCH", `hardware/${id}`, a.pusher, { notes: "nope" })).status).toBe(403);
    expect((await a.req("POST", `hardware/${id}/telemetry/config`, a.pusher, { host: "127.0.0.1" })).status).toBe(403);
  });

  it("viewers and editors cannot push (no write:telemetry); anonymous callers get 401", async () => {
    const id = await a.node("push-s2");
    for (const token of [a.viewer, a.editor]) {
      const res = await push(id, [{ ts: ago(0) }], token);
      expect(res.status).toBe(403);
      expect((await res.json()).detail).toBe("This operation needs the write:telemetry scope.");
    }
    expect((await a.req("POST", `hardware/${id}/telemetry/samples`, undefined, { samples: [{ ts: ago(0) }] })).status).toBe(401);
    expect((await a.t.sql`select count(*)::int as n from hardware_live_metrics where hardware_id = ${id}`)[0]!.n).toBe(0);
  });
});
