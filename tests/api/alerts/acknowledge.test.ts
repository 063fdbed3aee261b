// GET /alerts, GET /alerts/{id}, POST|DELETE /alerts/{id}/acknowledge (docs/adr/0447-acknowledgement.md): the
// list's states and filters, the incident's page with its ETag, acknowledging through any alert of an
// incident (idempotent, audited, on the monitors stream), the 409s of an event and a resolved incident,
// the scopes, the bad inputs, and what acknowledging does to the next failure's notification.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatchAlerts } from "../../../shared/verbs/notifications/dispatch-alerts.ts";
import { isIncidentInHand } from "../../../shared/verbs/notifications/incident-in-hand.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { enqueue, systemOf } from "./support.ts";

let a: Actors;
let readOnly: string;
beforeAll(async () => {
  a = await createActors();
  const issued = await a.req("POST", "auth/api-token", a.admin, { label: "ro", scopes: ["read:*"] });
  expect(issued.status).toBe(201);
  readOnly = (await issued.json()).token;
});
afterAll(async () => a?.t.close());

const get = async (path: string, token = a.admin) => {
  const res = await a.req("GET", path, token);
  expect(res.status).toBe(200);
  return res.json();
};
const ack = (id: number, body?: unknown, token = a.admin) => a.req("POST", `alerts/${id}/acknowledge`, token, body);
const unack = (id: number, token = a.admin) => a.req("DELETE", `alerts/${id}/acknowledge`, token);

describe("alerts", () => {
  it("lists each incident once with its alerts counted, filtered by state, kind, monitor and severity", async () => {
    const [opened, joined] = await enqueue(
      a,
      { monitor_id: 501, title: "web-01 down" },
      { kind: "monitor.degraded", monitor_id: 501, severity: "warning" },
    );
    const [resolvedOpener] = await enqueue(a, { monitor_id: 502 }, { kind: "monitor.up", monitor_id: 502, severity: "info" });
    const [event] = await enqueue(a, { kind: "cve.finding", severity: "warning", title: "CVE found" });

    const all = await get("alerts?limit=100");
    const ids = all.items.map((i: { id: number }) => i.id);
    expect(ids).toEqual(expect.arrayContaining([opened, resolvedOpener, event]));
    expect(ids).not.toContain(joined);
    const item = all.items.find((i: { id: number }) => i.id === opened);
    expect(item).toMatchObject({
      state: "open",
      status: "firing",
      subject: "monitor:501",
      monitor_name: null,
      incident_id: opened,
      alert_count: 2,
      resolved_at: null,
      acknowledged_at: null,
      acknowledged_by: null,
      deliveries: { total: 0, delivered: 0, pending: 0, dead: 0 },
    });
    expect(all).toMatchObject({ limit: 100, offset: 0, sort: "occurred_at" });

    const idsOf = async (q: string) => (await get(`alerts?limit=100&${q}`)).items.map((i: { id: number }) => i.id);
    expect(await idsOf("state=open")).toContain(opened);
    expect(await idsOf("state=open")).not.toContain(resolvedOpener);
    expect(await idsOf("state=resolved")).toEqual([resolvedOpener]);
    expect(await idsOf("state=event")).toContain(event);
    expect(await idsOf("monitor_id=501")).toEqual([opened]);
    expect(await idsOf("kind=cve.finding")).toEqual([event]);
    expect(await idsOf("severity=warning")).toContain(event);
    expect(await idsOf("severity=warning")).not.toContain(opened);
    // Sorted by severity: the ladder, not the alphabet.
    const bySeverity = (await get("alerts?limit=100&sort=severity&direction=desc")).items.map((i: { severity: string }) => i.severity);
    expect(bySeverity.indexOf("warning")).toBeGreaterThan(bySeverity.lastIndexOf("critical"));
  });

  it("refuses unknown filter values with 422 naming the field", async () => {
    for (const [q, field] of [
      ["state=closed", "state"],
      ["severity=loud", "severity"],
      ["monitor_id=x", "monitor_id"],
      ["sort=title", "sort"],
    ] as const) {
      const res = await a.req("GET", `alerts?${q}`, a.admin);
      expect(res.status).toBe(422);
      expect(JSON.stringify(await res.json())).toContain(field);
    }
  });

  it("answers an incident's page from any of its alerts, with its ETag; 404 for none", async () => {
    const [opened, joined, recovered] = await enqueue(
      a,
      { monitor_id: 503 },
      { kind: "monitor.down", monitor_id: 503 },
      { kind: "monitor.up", monitor_id: 503, severity: "info" },
    );
    const res = await a.req("GET", `alerts/${joined}`, a.admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(/^W\/".+"$/);
    const page = await res.json();
    expect(page).toMatchObject({ id: opened, state: "resolved", alert_count: 3, deliveries_list: [] });
    expect(page.alerts.map((x: { id: number }) => x.id)).toEqual([opened, joined, recovered]);
    expect(page.alerts.map((x: { status: string }) => x.status)).toEqual(["firing", "firing", "resolved"]);
    const missing = await a.req("GET", "alerts/999999", a.admin);
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toContain("999999");
  });

  it("acknowledges the incident through any of its alerts, once, audited; un-acknowledges it", async () => {
    const [opened, joined] = await enqueue(a, { monitor_id: 504 }, { kind: "monitor.degraded", monitor_id: 504, severity: "warning" });
    const before = (await get(`alerts/${opened}`)) as { id: number };
    const etag = (await a.req("GET", `alerts/${opened}`, a.admin)).headers.get("etag");
    const res = await ack(joined!, { note: "looking at it" });
    expect(res.status).toBe(200);
    const acked = await res.json();
    expect(acked).toMatchObject({
      id: before.id,
      state: "acknowledged",
      acknowledged_by: "admin@example.com",
      acknowledged_note: "looking at it",
    });
    expect((await a.req("GET", `alerts/${opened}`, a.admin)).headers.get("etag")).not.toBe(etag);
    expect(await isIncidentInHand(a.t.runtime.database.db, opened!)).toBe(true);

    // Twice: nothing changes (the first acknowledgement stands), nothing more is audited.
    const again = await (await ack(opened!, {})).json();
    expect(again.acknowledged_at).toBe(acked.acknowledged_at);
    expect(again.acknowledged_note).toBe("looking at it");
    expect(await idsIn("state=acknowledged")).toContain(opened);
    expect(await idsIn("state=open")).not.toContain(opened);
    const audits = async () =>
      a.t.sql<{ action: string; actor_email: string; diff: Record<string, unknown> }[]>`
        select action, actor_email, diff from audit_log where entity_type = 'notification_alert' and entity_id = ${String(opened)} order by id`;
    expect(await audits()).toEqual([
      expect.objectContaining({
        action: "alert.acknowledge",
        actor_email: "admin@example.com",
        diff: expect.objectContaining({ alert_id: joined, via: "api" }),
      }),
    ]);

    const un = await unack(opened!);
    expect(un.status).toBe(200);
    expect(await un.json()).toMatchObject({ state: "open", acknowledged_at: null, acknowledged_by: null, acknowledged_note: null });
    expect(await isIncidentInHand(a.t.runtime.database.db, opened!)).toBe(false);
    expect((await unack(opened!)).status).toBe(200);
    expect((await audits()).map((x) => x.action)).toEqual(["alert.acknowledge", "alert.unacknowledge"]);
    // A bodyless POST acknowledges too (the note is optional).
    expect((await ack(opened!)).status).toBe(200);
  });

  it("refuses an event and a resolved incident with 409, changing nothing", async () => {
    const [event] = await enqueue(a, { kind: "drift.detected", severity: "info" });
    const refused = await ack(event!);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ reason: "not_incident" });
    const [opened, up] = await enqueue(a, { monitor_id: 505 }, { kind: "monitor.up", monitor_id: 505, severity: "info" });
    for (const id of [opened!, up!]) {
      const res = await ack(id);
      expect(res.status).toBe(409);
      const body = await res.json();
      expect(body).toMatchObject({ reason: "resolved" });
      expect(body.detail).toContain("resolved");
    }
    expect((await unack(opened!)).status).toBe(409);
    const [row] = await a.t.sql`select acknowledged_at from notification_alerts where id = ${opened!}`;
    expect(row!.acknowledged_at).toBeNull();
    expect((await ack(999999)).status).toBe(404);
  });

  it("lets every role read, and only write:alerts acknowledge; checks the note", async () => {
    const [opened] = await enqueue(a, { monitor_id: 506 });
    expect((await a.req("GET", `alerts/${opened}`, readOnly)).status).toBe(200);
    expect((await a.req("GET", "alerts", a.viewer)).status).toBe(200);
    for (const token of [readOnly, a.viewer, a.editor]) {
      const res = await ack(opened!, {}, token);
      expect(res.status).toBe(403);
      expect((await res.json()).detail).toContain("write:alerts");
      expect((await unack(opened!, token)).status).toBe(403);
    }
    expect((await a.req("GET", "alerts")).status).toBe(401);
    const long = await ack(opened!, { note: "x".repeat(501) });
    expect(long.status).toBe(422);
    expect(JSON.stringify(await long.json())).toContain("note");
    const unknown = await ack(opened!, { notes: "typo" });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(await unknown.json())).toContain("notes");
    const [row] = await a.t.sql`select acknowledged_at from notification_alerts where id = ${opened!}`;
    expect(row!.acknowledged_at).toBeNull();
  });

  it("keeps a later failure of an acknowledged incident from being sent, and sends its recovery", async () => {
    const sink = await (
      await a.req("POST", "notifications/sinks", a.admin, {
        name: "hook",
        provider_type: "webhook",
        provider_config: { url: "http://127.0.0.1:9/hook" },
      })
    ).json();
    expect((await a.req("POST", "notifications/routes", a.admin, { sink_id: sink.id })).status).toBe(201);
    const dispatch = () => dispatchAlerts({ ctx: systemOf(a), input: { groupingDelayMs: 0, maxAttempts: 1 } });
    const [opened] = await enqueue(a, { monitor_id: 507 });
    await dispatch();
    expect((await ack(opened!)).status).toBe(200);
    const [worse] = await enqueue(a, { kind: "monitor.down", monitor_id: 507, title: "still down" });
    expect((await dispatch()).in_hand).toBe(1);
    const [up] = await enqueue(a, { kind: "monitor.up", monitor_id: 507, severity: "info" });
    await dispatch();
    const states = await a.t.sql<{ id: number; state: string; n: number }[]>`
      select a.id::int as id, a.state, (select count(*)::int from notification_deliveries d where d.alert_id = a.id) as n
      from notification_alerts a where a.id in ${a.t.sql([opened!, worse!, up!])} order by a.id`;
    expect(states).toEqual([
      { id: opened, state: "dispatched", n: 1 },
      { id: worse, state: "in_hand", n: 0 },
      { id: up, state: "dispatched", n: 1 },
    ]);
    const page = await get(`alerts/${opened}`);
    expect(page).toMatchObject({ state: "resolved", deliveries: { total: 2, pending: 2 } });
    expect(await isIncidentInHand(a.t.runtime.database.db, opened!)).toBe(false);
  });
});

async function idsIn(q: string): Promise<number[]> {
  return (await get(`alerts?limit=100&${q}`)).items.map((i: { id: number }) => i.id);
}
