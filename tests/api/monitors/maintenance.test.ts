// Maintenance windows: one-off and recurring (croner, timezone), what they cover, validation and scopes,
// their version (ETag / If-Match) and when an open one ends.
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

  it("answers its version as the ETag; a PATCH or DELETE with a stale If-Match is a 412 and changes nothing", async () => {
    const res = await a.req("POST", BASE, a.admin, { name: "versioned", starts_at: iso(-60_000), ends_at: iso(3_600_000), tag: "v" });
    expect(res.status).toBe(201);
    const created = await res.json();
    const etag = res.headers.get("etag")!;
    expect(etag).toBe(`W/"${Date.parse(created.updated_at)}"`);
    const got = await a.req("GET", `${BASE}/${created.id}`, a.viewer);
    expect(got.headers.get("etag")).toBe(etag);

    // Two changes in the same instant still give two versions: the driven clock does not move here.
    const first = await a.req("PATCH", `${BASE}/${created.id}`, a.admin, { description: "first" }, { "if-match": etag });
    expect(first.status).toBe(200);
    const next = first.headers.get("etag")!;
    expect(next).not.toBe(etag);
    const stale = await a.req("PATCH", `${BASE}/${created.id}`, a.admin, { description: "second" }, { "if-match": etag });
    expect(stale.status).toBe(412);
    expect((await (await a.req("GET", `${BASE}/${created.id}`, a.viewer)).json()).description).toBe("first");

    expect((await a.req("DELETE", `${BASE}/${created.id}`, a.admin, undefined, { "if-match": etag })).status).toBe(412);
    expect((await a.req("GET", `${BASE}/${created.id}`, a.viewer)).status).toBe(200);
    expect((await a.req("DELETE", `${BASE}/${created.id}`, a.admin, undefined, { "if-match": next })).status).toBe(204);
  });

  it("an active window says when its open occurrence ends; an upcoming one when it starts", async () => {
    const ends = iso(3_600_000);
    const oneOff = await (await a.req("POST", BASE, a.admin, { name: "now", starts_at: iso(-60_000), ends_at: ends, tag: "e" })).json();
    expect(oneOff).toMatchObject({ active: true, current_ends_at: ends, next_starts_at: null });
    // Every 10 minutes for 10 minutes: the run that began at the last multiple of 10 minutes ends at the next.
    const recurring = await (
      await a.req("POST", BASE, a.admin, { name: "rolling", cron: "*/10 * * * *", duration_minutes: 10, tag: "e" })
    ).json();
    const tenMinutes = 600_000;
    expect(recurring.active).toBe(true);
    expect(Date.parse(recurring.current_ends_at)).toBe(Math.floor(a.clock.now().getTime() / tenMinutes) * tenMinutes + tenMinutes);
    const later = await (
      await a.req("POST", BASE, a.admin, { name: "later", starts_at: iso(7_200_000), ends_at: iso(9_000_000), tag: "e" })
    ).json();
    expect(later).toMatchObject({ active: false, current_ends_at: null });
    expect(Date.parse(later.next_starts_at)).toBeGreaterThan(Date.now());
  });
});
