// Threshold rule alerts (metric.firing / metric.cleared, docs/alert-rules.md) in the delivery worker: a
// route selects them by kind and severity like monitor alerts, and a metric.firing on a node behind a
// target already down is folded into that root's alert by the blast radius.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHarness, type Harness, startPeer } from "./support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ groupingDelayMs: 300 });
});
afterAll(async () => h?.close());

it("routes metric.* by severity and folds a firing behind a down switch into the switch's alert", async () => {
  const sql = h.t.sql;
  const peer = await startPeer();
  await h.sink("webhook", { url: peer.url }, { event_kinds: ["metric.*", "monitor.down"], alert_severity: "warning" });
  const [sw] = await sql<{ id: number }[]>`insert into hardware (name, role) values ('rules-switch', 'switch') returning id`;
  const [behind] = await sql<{ id: number }[]>`insert into hardware (name) values ('rules-behind') returning id`;
  const [alone] = await sql<{ id: number }[]>`insert into hardware (name) values ('rules-alone') returning id`;
  await sql`insert into hardware_connections (source_hardware_id, target_hardware_id, connection_type) values (${sw!.id}, ${behind!.id}, 'ethernet')`;
  const [m] = await sql<{ id: number }[]>`insert into monitors (name, check_type, host, target_type, target_id, status, last_polled_at)
    values ('rules-switch (icmp)', 'icmp', '127.0.0.2', 'hardware', ${sw!.id}, 'down', now()) returning id`;

  await h.enqueue({ kind: "monitor.down", monitor_id: m!.id, target_type: "hardware", target_id: sw!.id, title: "rules-switch down" });
  const metric = (target: number, severity: "info" | "warning" | "critical", title: string) => ({
    kind: "metric.firing",
    severity,
    target_type: "hardware",
    target_id: target,
    title,
    detail: { rule_id: 1 },
  });
  await h.enqueue(
    metric(behind!.id, "critical", "CPU hot firing on rules-behind"),
    metric(alone!.id, "warning", "CPU hot firing on rules-alone"),
    metric(alone!.id, "info", "Load firing on rules-alone"),
  );
  await h.until(async () => peer.received.length >= 2, "the root and the lone metric alert");
  const states = await sql<{ title: string; state: string; suppressed_by: number | null }[]>`
    select title, state, suppressed_by from notification_alerts where kind in ('metric.firing', 'monitor.down') order by id`;
  const root = states.find((s) => s.title.startsWith("rules-switch down"))!;
  expect(root.state).toBe("dispatched");
  const [rootRow] = await sql`select id from notification_alerts where kind = 'monitor.down' and target_id = ${sw!.id}`;
  expect(states.filter((s) => s.title !== root.title).map((s) => [s.title, s.state, s.suppressed_by])).toEqual([
    ["CPU hot firing on rules-behind", "suppressed", rootRow!.id],
    ["CPU hot firing on rules-alone", "dispatched", null],
    ["Load firing on rules-alone", "unrouted", null],
  ]);
  const titles = peer.received.map((r) => JSON.parse(r.body).data.title as string);
  expect(titles).toHaveLength(2);
  expect(titles).toContain("CPU hot firing on rules-alone");
  expect(titles.find((t) => t.startsWith("rules-switch down"))).toBeDefined();
  await peer.close();
});
