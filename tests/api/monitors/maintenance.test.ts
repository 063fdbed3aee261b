// Maintenance windows: one-off and recurring (croner, timezone), what they cover, validation and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const BASE = "monitors/maintenance-windows";
const iso = (ms: number) => new Date(Date.now() + ms).toISOString();

describe("maintenance windows", () => {
  it("creates, reads, lists, changes and deletes a one-off window covering monitors", async () => {
    const m = await a.monitor();
    const res = await a.req("POST", BASE, a.admin, {
      name: "patch night",
      starts_at: iso(-60_000),
      ends_at: iso(3_600_000),
      monitor_ids: [m.id, m.id],
    });
    expect(res.status).toBe(201);
    const w = await res.json();
    expect(w).toMatchObject({
      name: "patch night",
      kind: "one_off",
      enabled: true,
      monitor_ids: [m.id],
      active: true,
      next_starts_at: null,
      cron: null,
    });
    expect(await (await a.req("GET", `${BASE}/${w.id}`, a.viewer)).json()).toEqual(w);
    const list = await (await a.req("GET", `${BASE}?monitor_id=${m.id}`, a.viewer)).json();
    expect(list).toMatchObject({ total: 1, items: [{ id: w.id }] });
    const off = await a.req("PATCH", `${BASE}/${w.id}`, a.admin, { ...w, enabled: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ enabled: false, active: false });
    expect((await a.req("DELETE", `${BASE}/${w.id}`, a.editor)).status).toBe(403);
    expect((await a.req("DELETE", `${BASE}/${w.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `${BASE}/${w.id}`, a.viewer)).status).toBe(404);
    expect(await a.t.sql`select action from audit_log where entity_type = 'maintenance_window' order by id`).toEqual([
      { action: "monitors.maintenance.create" },
      { action: "monitors.maintenance.update" },
      { action: "monitors.maintenance.delete" },
    ]);
  });

  it("a recurring window: croner pattern in its timezone, duration, next start", async () => {
    const node = await a.node("rack-a");
    const res = await a.req("POST", BASE, a.admin, {
      name: "weekly",
      cron: "0 3 * * 0",
      duration_minutes: 120,
      timezone: "Europe/Berlin",
      target_type: "hardware",
      target_id: node,
    });
    expect(res.status).toBe(201);
    const w = await res.json();
    expect(w).toMatchObject({
      kind: "recurring",
      timezone: "Europe/Berlin",
      duration_minutes: 120,
      target_type: "hardware",
      target_id: node,
    });
    expect(new Date(w.next_starts_at).getTime()).toBeGreaterThan(Date.now());
    const always = await (
      await a.req("POST", BASE, a.admin, { name: "always", cron: "* * * * *", duration_minutes: 5, tag: "lab" })
    ).json();
    expect(always).toMatchObject({ active: true, timezone: "UTC", tag: "lab" });
  });

  it("refuses unsound windows with 422 naming each field, writing nothing", async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ cron: "not a cron", duration_minutes: 10, monitor_ids: [] }, ["cron", "monitor_ids"]],
      [{ cron: "0 3 * * *", timezone: "Mars/Olympus", tag: "x" }, ["duration_minutes", "timezone"]],
      [{ starts_at: iso(0), tag: "x" }, ["ends_at"]],
      [{ starts_at: iso(60_000), ends_at: iso(0), tag: "x" }, ["ends_at"]],
      [{ starts_at: "yesterday", ends_at: iso(0), tag: "x" }, ["starts_at"]],
      [{ starts_at: iso(0), ends_at: iso(60_000), monitor_ids: [987654], site_id: 987654 }, ["monitor_ids", "site_id"]],
      [{ starts_at: iso(0), ends_at: iso(60_000), target_type: "hardware", tag: "x" }, ["target_id"]],
      [{ starts_at: iso(0), ends_at: iso(60_000), tag: "x", colour: 1 }, ["colour"]],
    ];
    for (const [body, fields] of cases) {
      const res = await a.req("POST", BASE, a.admin, { name: "bad", ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await res.json()).fields).sort(), JSON.stringify(body)).toEqual(fields);
    }
    expect(await a.t.sql`select 1 from maintenance_windows where name = 'bad'`).toHaveLength(0);
    expect((await a.req("POST", BASE, a.viewer, { name: "v", tag: "x", starts_at: iso(0), ends_at: iso(1000) })).status).toBe(403);
  });
});
