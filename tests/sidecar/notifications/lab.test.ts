// The lab of issue 12: a switch with twenty services behind it (four servers connected from the switch,
// five services on each) goes down with its monitors -> exactly one alert, naming all twenty; each
// service's own monitor event records suppressed_by (announced on the monitors channel). The switch
// recovers -> every recovery is sent.
// Monitors and their down events are rows made with SQL, and the alerts are enqueued through the agreed
// hand-off (enqueueAlert), as the monitor runner's result-recording verb does.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHarness, type Harness, startPeer } from "./support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ groupingDelayMs: 600 });
});
afterAll(async () => h?.close());

it("folds twenty dependent failures into the switch's alert, and sends every recovery", async () => {
  const sql = h.t.sql;
  const peer = await startPeer();
  const sink = await h.sink("webhook", { url: peer.url }, { event_kinds: ["monitor.*"] });
  const [sw] = await sql<{ id: number }[]>`insert into hardware (name, role) values ('switch-3', 'switch') returning id`;
  const services: { id: number; monitor: number; name: string }[] = [];
  for (let s = 0; s < 4; s++) {
    const [server] = await sql<{ id: number }[]>`insert into hardware (name) values (${`server-${s}`}) returning id`;
    await sql`insert into hardware_connections (source_hardware_id, target_hardware_id, connection_type) values (${sw!.id}, ${server!.id}, 'ethernet')`;
    for (let i = 0; i < 5; i++) {
      const name = `svc-${s}-${i}`;
      const [svc] = await sql<
        { id: number }[]
      >`insert into services (name, slug, hardware_id) values (${name}, ${name}, ${server!.id}) returning id`;
      const [m] = await sql<
        { id: number }[]
      >`insert into monitors (name, check_type, host, target_type, target_id, status, last_polled_at) values (${`${name} (http)`}, 'http', '127.0.0.1', 'service', ${svc!.id}, 'down', now()) returning id`;
      services.push({ id: svc!.id, monitor: m!.id, name });
    }
  }
  const [swMonitor] = await sql<
    { id: number }[]
  >`insert into monitors (name, check_type, host, target_type, target_id, status, last_polled_at) values ('switch-3 (icmp)', 'icmp', '127.0.0.2', 'hardware', ${sw!.id}, 'down', now()) returning id`;
  const allMonitors = [swMonitor!.id, ...services.map((s) => s.monitor)];
  for (const m of allMonitors)
    await sql`insert into monitor_events (monitor_id, event_type, status_from, status_to, msg) values (${m}, 'down', 'up', 'down', 'no answer')`;

  // Each fold is announced on the monitors channel, so an open monitor page shows it (web UI).
  const announced: Record<string, unknown>[] = [];
  const { unlisten } = await sql.listen("monitors", (p) => announced.push(JSON.parse(p) as Record<string, unknown>));

  // The switch fails first, its services a moment later, all inside the grouping delay (the monitors
  // rows say down, checked, as the runner leaves them). One transaction: two, on a loaded machine, could
  // commit the services after the switch's alert was ripe and sent alone (then each service is sent on
  // its own naming it, 21 messages), which is not what this test is about.
  await h.enqueue(
    { kind: "monitor.down", monitor_id: swMonitor!.id, target_type: "hardware", target_id: sw!.id, title: "switch-3 down" },
    ...services.map((s) => ({
      kind: "monitor.down",
      monitor_id: s.monitor,
      target_type: "service",
      target_id: s.id,
      title: `${s.name} (http) down`,
    })),
  );
  await h.until(async () => peer.received.length >= 1, "the root alert");
  await new Promise((r) => setTimeout(r, 1200));
  expect(peer.received).toHaveLength(1);
  const data = JSON.parse(peer.received[0]!.body).data;
  expect(data.title).toBe("switch-3 down: 20 monitors affected");
  for (const s of services) expect(data.message).toContain(`${s.name} (http) down`);
  expect(data.detail.affected).toHaveLength(20);

  const [root] = await sql<{ id: number }[]>`select id::int as id from notification_alerts where monitor_id = ${swMonitor!.id}`;
  const suppressed = await sql<
    { suppressed_by: number }[]
  >`select suppressed_by::int as suppressed_by from monitor_events where monitor_id = any(${services.map((s) => s.monitor)})`;
  expect(suppressed).toHaveLength(20);
  expect(suppressed.every((e) => e.suppressed_by === root!.id)).toBe(true);
  const [own] = await sql`select suppressed_by from monitor_events where monitor_id = ${swMonitor!.id}`;
  expect(own!.suppressed_by).toBeNull();
  await h.until(async () => announced.filter((e) => e.type === "suppressed").length >= 20, "the folds announced");
  const folds = announced.filter((e) => e.type === "suppressed");
  expect(folds.map((e) => e.monitor_id).sort()).toEqual(services.map((x) => x.monitor).sort());
  expect(folds.every((e) => e.suppressed_by === root!.id && e.root_monitor_id === swMonitor!.id)).toBe(true);
  await unlisten();

  // Recovery: never folded.
  await h.enqueue(
    { kind: "monitor.up", severity: "info", monitor_id: swMonitor!.id, target_type: "hardware", target_id: sw!.id, title: "switch-3 up" },
    ...services.map((s) => ({
      kind: "monitor.up",
      severity: "info" as const,
      monitor_id: s.monitor,
      target_type: "service",
      target_id: s.id,
      title: `${s.name} (http) up`,
    })),
  );
  await h.until(async () => peer.received.length >= 22, "21 recoveries");
  await new Promise((r) => setTimeout(r, 300));
  expect(peer.received).toHaveLength(22);
  const ups = peer.received
    .slice(1)
    .map((r) => JSON.parse(r.body).data.title)
    .sort();
  expect(ups).toEqual(["switch-3 up", ...services.map((s) => `${s.name} (http) up`)].sort());
  const deliveries = (await (await h.req("GET", `notifications/deliveries?sink_id=${sink.id}&limit=100`, h.admin)).json()).items;
  expect(deliveries).toHaveLength(22);
  await peer.close();
});

it("debounces a flapping monitor", async () => {
  const peer = await startPeer();
  await h.sink("webhook", { url: peer.url }, { event_kinds: ["monitor.*"] });
  const base = Date.now();
  const flips = Array.from({ length: 6 }, (_, i) => ({
    kind: i % 2 === 0 ? "monitor.down" : "monitor.up",
    severity: (i % 2 === 0 ? "critical" : "info") as "critical" | "info",
    monitor_id: 777_001,
    title: `flappy ${i}`,
    occurred_at: new Date(base + i),
  }));
  await h.enqueue(...flips);
  await h.until(
    async () =>
      (await h.t.sql`select count(*)::int as n from notification_alerts where monitor_id = 777001 and state <> 'waiting'`)[0]!.n === 6,
    "flaps handled",
  );
  const states = await h.t.sql`select state from notification_alerts where monitor_id = 777001 order by occurred_at, id`;
  expect(states.map((r) => r.state)).toEqual(["dispatched", "dispatched", "dispatched", "dispatched", "debounced", "debounced"]);
  await peer.close();
});

it("holds a root until the monitors behind it are checked, and names it in a dependent seen only after it went out", async () => {
  const peer = await startPeer();
  await h.sink("webhook", { url: peer.url }, { event_kinds: ["monitor.*"] });
  const sql = h.t.sql;
  const [sw] = await sql<{ id: number }[]>`insert into hardware (name) values ('switch-9') returning id`;
  const [server] = await sql<{ id: number }[]>`insert into hardware (name) values ('server-9') returning id`;
  await sql`insert into hardware_connections (source_hardware_id, target_hardware_id, connection_type) values (${sw!.id}, ${server!.id}, 'ethernet')`;
  const [svc] = await sql<
    { id: number }[]
  >`insert into services (name, slug, hardware_id) values ('svc-9', 'svc-9', ${server!.id}) returning id`;
  // The service's monitor was last checked before the switch failed: its next round is still to come.
  const [behind] = await sql<
    { id: number }[]
  >`insert into monitors (name, check_type, host, target_type, target_id, status, last_polled_at, interval_secs)
    values ('svc-9 (tcp)', 'tcp', '127.0.0.1', 'service', ${svc!.id}, 'up', now() - interval '30 seconds', 60) returning id`;
  const [swMonitor] = await sql<
    { id: number }[]
  >`insert into monitors (name, check_type, host, target_type, target_id, status, last_polled_at)
    values ('switch-9 (icmp)', 'icmp', '127.0.0.2', 'hardware', ${sw!.id}, 'down', now()) returning id`;
  await h.enqueue({ kind: "monitor.down", monitor_id: swMonitor!.id, target_type: "hardware", target_id: sw!.id, title: "switch-9 down" });
  await new Promise((r) => setTimeout(r, 2000));
  expect(peer.received).toHaveLength(0);
  // Its round came and it is still up: nothing more to wait for.
  await sql`update monitors set last_polled_at = now() where id = ${behind!.id}`;
  await h.until(async () => peer.received.length >= 1, "the held root");
  expect(JSON.parse(peer.received[0]!.body).data.title).toBe("switch-9 down");
  // It fails on a later round: sent on its own, naming the root, not folded out of sight.
  await sql`update monitors set status = 'down' where id = ${behind!.id}`;
  await h.enqueue({ kind: "monitor.down", monitor_id: behind!.id, target_type: "service", target_id: svc!.id, title: "svc-9 (tcp) down" });
  await h.until(async () => peer.received.length >= 2, "the late dependent");
  const late = JSON.parse(peer.received[1]!.body).data;
  expect(late.title).toBe("svc-9 (tcp) down");
  expect(late.message).toContain('Behind "switch-9 down", already reported.');
  await peer.close();
});
