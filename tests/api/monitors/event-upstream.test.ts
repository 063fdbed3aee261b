// GET /monitors/{id}/events names the upstream of a suppressed event: the root alert's monitor and the
// node it watches (the delivery worker folded this monitor's down alert into it), so the web UI can show
// "suppressed: switch-7 was down" with links instead of a bare alert id. The node's name is given only
// to callers who may read its inventory group. The root's own down event lists the monitors folded into it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upstreamsOf } from "../../../shared/verbs/monitors/event-upstream.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

async function alert(
  monitorId: number | null,
  targetType: string | null,
  targetId: number | null,
  fold: { eventId?: number; into?: number } = {},
): Promise<number> {
  const [row] = await a.t.sql<{ id: number }[]>`
    insert into notification_alerts (kind, severity, monitor_id, target_type, target_id, title, body, occurred_at, state, detail, suppressed_by)
    values ('monitor.down', 'critical', ${monitorId}, ${targetType}, ${targetId}, 'root is down', 'no answer', now(), ${fold.into ? "suppressed" : "dispatched"},
      ${a.t.sql.json(fold.eventId ? { event_id: fold.eventId } : {})}, ${fold.into ?? null})
    returning id::int as id`;
  return row!.id;
}

async function downEvent(monitorId: number, suppressedBy: number | null = null): Promise<number> {
  const [row] = await a.t.sql<{ id: number }[]>`
    insert into monitor_events (monitor_id, event_type, status_from, status_to, msg, suppressed_by) values (${monitorId}, 'down', 'up', 'down', 'refused', ${suppressedBy})
    returning id::int as id`;
  return row!.id;
}

describe("a suppressed event's upstream", () => {
  it("names the root alert's monitor (with its status) and target, and is null on events sent on their own", async () => {
    const node = await a.node("switch-7");
    const root = await a.monitor({ name: "switch-7 tcp", target_type: "hardware", target_id: node });
    await a.t.sql`update monitors set status = 'down' where id = ${root.id}`;
    const dependent = await a.monitor({ name: "web behind switch-7" });
    const rootAlert = await alert(root.id, "hardware", node);
    await a.t
      .sql`insert into monitor_events (monitor_id, event_type, status_from, status_to, msg) values (${dependent.id}, 'up', 'pending', 'up', 'ok')`;
    await a.t
      .sql`insert into monitor_events (monitor_id, event_type, status_from, status_to, msg, suppressed_by) values (${dependent.id}, 'down', 'up', 'down', 'refused', ${rootAlert})`;

    const page = await (await a.req("GET", `monitors/${dependent.id}/events`, a.viewer)).json();
    expect(page.items).toHaveLength(2);
    expect(page.items[0]).toMatchObject({
      event_type: "down",
      suppressed_by: rootAlert,
      upstream: {
        alert_id: rootAlert,
        monitor: { id: root.id, name: "switch-7 tcp", status: "down" },
        target: { type: "hardware", id: node, name: "switch-7" },
      },
    });
    expect(page.items[1]).toMatchObject({ event_type: "up", suppressed_by: null, upstream: null });
  });

  it("lists on the root's down event the monitors whose alerts were folded into the alert it raised", async () => {
    const root = await a.monitor({ name: "core-router tcp" });
    const behind = [await a.monitor({ name: "dns behind core" }), await a.monitor({ name: "mail behind core" })];
    const earlier = await downEvent(root.id);
    const rootEvent = await downEvent(root.id);
    await alert(root.id, null, null, { eventId: earlier });
    const rootAlert = await alert(root.id, null, null, { eventId: rootEvent });
    for (const m of behind) {
      await alert(m.id, null, null, { into: rootAlert });
      await downEvent(m.id, rootAlert);
    }

    const page = await (await a.req("GET", `monitors/${root.id}/events`, a.viewer)).json();
    expect(page.items.map((e: { id: number }) => e.id)).toEqual([rootEvent, earlier]);
    expect(page.items[0].suppressed_dependents).toEqual(behind.map((m) => ({ id: m.id, name: m.name })));
    expect(page.items[1].suppressed_dependents).toEqual([]);
    const theirs = await (await a.req("GET", `monitors/${behind[0]!.id}/events`, a.viewer)).json();
    expect(theirs.items[0]).toMatchObject({ suppressed_dependents: [], upstream: { monitor: { id: root.id, name: "core-router tcp" } } });
  });

  it("keeps the root monitor's id without a name once it is deleted, and is null when the alert is gone", async () => {
    const root = await a.monitor({ name: "gone soon" });
    const dependent = await a.monitor();
    const rootAlert = await alert(root.id, null, null);
    await a.t
      .sql`insert into monitor_events (monitor_id, event_type, status_to, suppressed_by) values (${dependent.id}, 'down', 'down', ${rootAlert})`;
    await a.t
      .sql`insert into monitor_events (monitor_id, event_type, status_to, suppressed_by) values (${dependent.id}, 'down', 'down', 987654321)`;
    expect((await a.req("DELETE", `monitors/${root.id}`, a.admin)).status).toBe(204);

    const page = await (await a.req("GET", `monitors/${dependent.id}/events`, a.viewer)).json();
    expect(page.items[0]).toMatchObject({ suppressed_by: 987654321, upstream: null });
    expect(page.items[1]).toMatchObject({
      suppressed_by: rootAlert,
      upstream: { alert_id: rootAlert, monitor: { id: root.id, name: null, status: null }, target: null },
    });
  });

  it("leaves out the node's name for a caller who cannot read its inventory group", async () => {
    const svc = await a.service("api-gateway");
    const rootAlert = await alert(null, "service", svc);
    const narrow = { userId: null, email: null, role: "monitors-only", roleScopes: ["read:monitors"], kind: "api_token" as const };
    const [seen] = (await upstreamsOf(a.t.runtime.database.db, narrow, [rootAlert])).values();
    expect(seen).toEqual({ alert_id: rootAlert, monitor: null, target: { type: "service", id: svc, name: null } });
    const [admin] = (await upstreamsOf(a.t.runtime.database.db, { ...narrow, roleScopes: ["read:*"] }, [rootAlert])).values();
    expect(admin?.target).toEqual({ type: "service", id: svc, name: "api-gateway" });
  });
});
