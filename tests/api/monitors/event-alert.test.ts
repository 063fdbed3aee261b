// GET /monitors/{id}/events names the alert each event raised and what became of it (its dispatch state
// and its deliveries by outcome), so the console's events table can say "Delivered" instead of "—". The
// whole path is the product's: a check result recorded through the runner's verb raises the alert, the
// delivery worker's dispatch makes its delivery, and the delivery is marked delivered as the sender does.
// A token without read:alerts sees no alert.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { recordCheckResults } from "../../../shared/verbs/monitors/run/record-results.ts";
import { dispatchAlerts } from "../../../shared/verbs/notifications/dispatch-alerts.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const system = () => systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: cryptoRandom });

async function check(monitorId: number, up: boolean): Promise<void> {
  a.clock.advance(1000);
  const result = {
    monitor_id: monitorId,
    checked_at: a.clock.now().toISOString(),
    up,
    latency_ms: up ? 3 : null,
    samples: [],
    msg: up ? "connected" : "connection refused",
    source: "server" as const,
  };
  await recordCheckResults({ ctx: system(), input: { results: [result] } });
}

describe("an event's alert", () => {
  it("names the alert a down event raised, its dispatch and its delivered delivery; other events none", async () => {
    const sink = await (
      await a.req("POST", "notifications/sinks", a.admin, {
        name: "hook",
        provider_type: "webhook",
        provider_config: { url: "http://127.0.0.1:9/hook" },
      })
    ).json();
    expect((await a.req("POST", "notifications/routes", a.admin, { sink_id: sink.id })).status).toBe(201);
    const m = await a.monitor({ name: "api", max_retries: 0 });
    await check(m.id, true);
    await check(m.id, false);
    await dispatchAlerts({ ctx: system(), input: { groupingDelayMs: 0, maxAttempts: 1 } });
    const [delivery] = await a.t.sql<{ id: number; alert_id: number }[]>`
      select d.id::int as id, d.alert_id::int as alert_id from notification_deliveries d
      join notification_alerts n on n.id = d.alert_id where n.monitor_id = ${m.id}`;
    await a.t.sql`update notification_deliveries set state = 'delivered', delivered_at = now() where id = ${delivery!.id}`;

    const page = await (await a.req("GET", `monitors/${m.id}/events`, a.viewer)).json();
    const [down, up] = page.items;
    expect(down).toMatchObject({
      event_type: "down",
      alert: {
        id: delivery!.alert_id,
        dispatch_state: "dispatched",
        incident_id: delivery!.alert_id,
        deliveries: { total: 1, delivered: 1, pending: 0, dead: 0 },
      },
    });
    // The first up (from pending) raises no alert.
    expect(up).toMatchObject({ event_type: "up", alert: null });

    // A token narrowed to the monitors cannot read alerts: the event is there, its alert is not.
    const issued = await a.req("POST", "auth/api-token", a.admin, { label: "monitors only", scopes: ["read:monitors"] });
    const narrow = (await issued.json()).token as string;
    const theirs = await (await a.req("GET", `monitors/${m.id}/events`, narrow)).json();
    expect(theirs.items[0]).toMatchObject({ event_type: "down", alert: null });
  });

  it("says an alert not yet dispatched is waiting, with no deliveries", async () => {
    const m = await a.monitor({ name: "queue", max_retries: 0 });
    await check(m.id, true);
    await check(m.id, false);
    const page = await (await a.req("GET", `monitors/${m.id}/events`, a.viewer)).json();
    expect(page.items[0].alert).toMatchObject({ dispatch_state: "waiting", deliveries: { total: 0, delivered: 0, pending: 0, dead: 0 } });
  });
});
