// Pause, resume and check now (one monitor and a target's), and the target-scoped create with its
// defaults and idempotency, and the target summary.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, probesReady } from "../agents/support.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

describe("pause, resume, check now", () => {
  it("pause writes a paused event and disables; resume makes it due now; check now wakes the runner", async () => {
    const m = await a.monitor();
    await a.t.sql`update monitors set status = 'up', next_check_at = now() + interval '1 hour' where id = ${m.id}`;
    const paused = await a.req("POST", `monitors/${m.id}/pause`, a.admin);
    expect(paused.status).toBe(200);
    expect(await paused.json()).toMatchObject({ enabled: false, status: "up" });
    expect((await a.req("POST", `monitors/${m.id}/pause`, a.admin)).status).toBe(200);
    const check = await a.req("POST", `monitors/${m.id}/check`, a.admin);
    expect(check.status).toBe(409);
    expect(await check.json()).toMatchObject({ reason: "monitor_paused" });

    a.clock.advance(90_000);
    const resumed = await a.req("POST", `monitors/${m.id}/resume`, a.admin);
    expect(await resumed.json()).toMatchObject({ enabled: true, next_check_at: a.clock.now().toISOString() });
    const events = await (await a.req("GET", `monitors/${m.id}/events`, a.viewer)).json();
    expect(events.items.map((e: Record<string, unknown>) => [e.event_type, e.status_from, e.status_to, e.msg])).toEqual([
      ["resumed", "up", "up", "resumed by user"],
      ["paused", "up", "up", "paused by user"],
    ]);
    expect(events.items[0].duration_secs).toBeGreaterThanOrEqual(0);

    const control = await a.listen("monitor_control");
    await a.t.sql`update monitors set next_check_at = now() + interval '1 hour' where id = ${m.id}`;
    a.clock.advance(1000);
    const now = await a.req("POST", `monitors/${m.id}/check`, a.admin);
    expect(now.status).toBe(200);
    expect((await now.json()).next_check_at).toBe(a.clock.now().toISOString());
    await eventually(() => control.payloads.some((p) => p.reason === "check_requested"));
    expect(control.payloads).toContainEqual({ monitor_ids: [m.id], reason: "check_requested" });
    await control.stop();
    expect((await a.req("POST", `monitors/${m.id}/check`, a.viewer)).status).toBe(403);
    expect((await a.req("POST", "monitors/987654/pause", a.admin)).status).toBe(404);
  });

  it("an agent-probed monitor answers 409 with the agent's reason; pausing cancels its runs", async () => {
    const offline = await a.agent({ status: "active", online: false, readiness: probesReady });
    const m = await a.monitor({ probe_agent_id: offline });
    const res = await a.req("POST", `monitors/${m.id}/check`, a.admin);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ reason: "agent_offline" });

    const online = await a.agent({ status: "active", online: true, readiness: probesReady });
    const n = await a.monitor({ probe_agent_id: online });
    await a.t.sql`insert into agent_probe_runs (run_id, agent_id, monitor_id, check_type, host, state, scheduled_at, deadline_at)
      values (${"b".repeat(32)}, ${online}, ${n.id}, 'tcp', '127.0.0.1', 'queued', now(), now() + interval '1 minute')`;
    const busy = await a.req("POST", `monitors/${n.id}/check`, a.admin);
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ reason: "previous_run_in_flight" });
    await a.req("POST", `monitors/${n.id}/pause`, a.admin);
    const [run] = await a.t.sql`select state, details from agent_probe_runs where run_id = ${"b".repeat(32)}`;
    expect(run).toMatchObject({ state: "cancelled", details: { error_code: "monitor_paused" } });
    const runs = await (await a.req("GET", `monitors/${n.id}/probe-runs`, a.viewer)).json();
    expect(runs).toMatchObject({
      total: 1,
      items: [{ run_id: "b".repeat(32), agent_id: online, status: "cancelled", error_code: "monitor_paused", attempt_count: 0 }],
    });
  });
});

describe("/monitors/target/{type}/{id}", () => {
  it("creates the default monitor once per check type (201, then 200 unchanged)", async () => {
    const node = await a.node("switch-3", { ip: "10.3.3.3/24" });
    const first = await a.req("POST", `monitors/target/hardware/${node}`, a.admin);
    expect(first.status).toBe(201);
    const m = await first.json();
    expect(m).toMatchObject({
      name: "switch-3 (icmp)",
      check_type: "icmp",
      host: "10.3.3.3",
      config: { packet_count: 5 },
      interval_secs: 60,
      max_retries: 0,
      target_type: "hardware",
      target_id: node,
    });
    await a.req("PATCH", `monitors/${m.id}`, a.admin, { name: "renamed" });
    const again = await a.req("POST", `monitors/target/hardware/${node}`, a.admin, {});
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: m.id, name: "renamed" });
    const tcp = await a.req("POST", `monitors/target/hardware/${node}`, a.admin, { check_type: "tcp", config: { port: 443 } });
    expect(tcp.status).toBe(201);
    expect(await tcp.json()).toMatchObject({ check_type: "tcp", config: { port: 443 } });
  });

  it("takes any probe type on the target's address, a push heartbeat with its token once, and refuses a group", async () => {
    const node = await a.node("nas-1", { ip: "10.4.4.4/24" });
    const ssh = await a.req("POST", `monitors/target/hardware/${node}`, a.admin, { check_type: "ssh", config: { port: 2222 } });
    expect(ssh.status).toBe(201);
    expect(await ssh.json()).toMatchObject({ name: "nas-1 (ssh)", check_type: "ssh", host: "10.4.4.4", config: { port: 2222 } });
    const push = await a.req("POST", `monitors/target/hardware/${node}`, a.admin, {
      check_type: "push",
      config: { expect: "cron", cron: "0 2 * * *", tolerance_secs: 1800, timezone: "Europe/Berlin" },
    });
    expect(push.status).toBe(201);
    const p = await push.json();
    expect(p).toMatchObject({
      name: "nas-1 (push)",
      check_type: "push",
      host: "",
      target_type: "hardware",
      target_id: node,
      push_token_set: true,
    });
    expect(p.push_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(p.push_url).toContain(`/api/v1/push/${p.push_token}`);
    // The token is answered once: the idempotent repeat answers the monitor without it.
    const again = await (await a.req("POST", `monitors/target/hardware/${node}`, a.admin, { check_type: "push" })).json();
    expect(again).toMatchObject({ id: p.id });
    expect(again.push_token).toBeUndefined();
    // It works: a push on that token is recorded.
    expect((await a.t.app.request(`/api/v1/push/${p.push_token}?status=up`)).status).toBe(200);
    const group = await a.req("POST", `monitors/target/hardware/${node}`, a.admin, { check_type: "group" });
    expect(group.status).toBe(422);
    expect((await group.json()).detail[0]).toMatchObject({ loc: ["body", "check_type"] });
    const other = await a.node("nas-2", { ip: "10.4.4.5/24" });
    const bad = await a.req("POST", `monitors/target/hardware/${other}`, a.admin, { check_type: "push", config: { expect: "cron" } });
    expect(bad.status).toBe(422);
    expect((await a.t.sql`select 1 from monitors where target_id = ${other}`).length).toBe(0);
  });

  it("services default to http by URL, else tcp by port, else icmp; no address or no row is 404", async () => {
    const web = await a.service("web", { url: "https://web.lab:8443/" });
    expect(await (await a.req("POST", `monitors/target/service/${web}`, a.admin)).json()).toMatchObject({
      check_type: "http",
      host: "web.lab",
      config: { url: "https://web.lab:8443/" },
    });
    const db = await a.service("db", { ip: "10.0.0.9", ports: [{ port: 5432 }] });
    expect(await (await a.req("POST", `monitors/target/service/${db}`, a.admin)).json()).toMatchObject({
      check_type: "tcp",
      host: "10.0.0.9",
      config: { port: 5432 },
    });
    const bare = await a.service("bare");
    const none = await a.req("POST", `monitors/target/service/${bare}`, a.admin);
    expect(none.status).toBe(404);
    expect((await none.json()).detail).toContain("Target not found or has no address to probe");
    expect((await a.req("POST", "monitors/target/hardware/999999", a.admin)).status).toBe(404);
    expect((await a.req("POST", "monitors/target/ip/999999", a.admin)).status).toBe(404);
    // A plain address is an IPAM row: pinged by default, named by its hostname.
    const [row] = await a.t.sql<{ id: number }[]>`insert into ip_addresses (address, hostname) values ('10.0.7.7', 'printer') returning id`;
    expect(await (await a.req("POST", `monitors/target/ip/${row!.id}`, a.admin)).json()).toMatchObject({
      check_type: "icmp",
      host: "10.0.7.7",
      name: "printer (icmp)",
      target_type: "ip",
      target_id: row!.id,
    });
    expect((await a.req("POST", "monitors/target/router/1", a.admin)).status).toBe(422);
    expect((await a.req("POST", `monitors/target/service/${web}`, a.admin, { config: { nope: 1 } })).status).toBe(200);
    expect((await a.req("POST", `monitors/target/service/${db}`, a.admin, { check_type: "dns", config: { nope: 1 } })).status).toBe(422);
  });

  it("pauses, resumes and checks every monitor of a target; 404 when it has none", async () => {
    const node = await a.node("nas", { ip: "10.4.4.4" });
    await a.req("POST", `monitors/target/hardware/${node}`, a.admin);
    await a.req("POST", `monitors/target/hardware/${node}`, a.admin, { check_type: "tcp", config: { port: 445 } });
    const pause = await a.req("POST", `monitors/target/hardware/${node}/pause`, a.admin);
    expect(pause.status).toBe(200);
    expect(await pause.json()).toEqual({ status: "ok" });
    expect(
      (await a.t.sql`select bool_or(enabled) as any from monitors where target_id = ${node} and target_type = 'hardware'`)[0]!.any,
    ).toBe(false);
    expect((await a.req("POST", `monitors/target/hardware/${node}/resume`, a.admin)).status).toBe(200);
    expect((await a.req("POST", `monitors/target/hardware/${node}/check`, a.admin)).status).toBe(200);
    expect(
      (await a.t.sql`select bool_and(enabled) as all from monitors where target_id = ${node} and target_type = 'hardware'`)[0]!.all,
    ).toBe(true);
    const empty = await a.node("empty");
    expect((await a.req("POST", `monitors/target/hardware/${empty}/pause`, a.admin)).status).toBe(404);
    expect((await a.req("POST", `monitors/target/hardware/${node}/pause`, a.viewer)).status).toBe(403);
  });

  it("summarises per target: primary lowest id, down wins, then up", async () => {
    const h1 = await a.node("sum-1", { ip: "10.5.5.1" });
    const h2 = await a.node("sum-2", { ip: "10.5.5.2" });
    const m1 = await (await a.req("POST", `monitors/target/hardware/${h1}`, a.admin)).json();
    const m2 = await (await a.req("POST", `monitors/target/hardware/${h1}`, a.admin, { check_type: "tcp" })).json();
    const m3 = await (await a.req("POST", `monitors/target/hardware/${h2}`, a.admin)).json();
    await a.t.sql`update monitors set status = 'up', last_latency_ms = 4.5 where id = ${m1.id}`;
    await a.t.sql`update monitors set status = 'down' where id = ${m2.id}`;
    await a.t.sql`update monitors set status = 'up' where id = ${m3.id}`;
    await a.t
      .sql`insert into monitor_uptime_minutes (monitor_id, minute, up, total) values (${m1.id}, date_trunc('minute', now()) - interval '1 minute', 3, 4)`;
    const res = await a.req("GET", `monitors/target-summary?target_type=hardware&target_ids=${h1}&target_ids=${h2},999`, a.viewer);
    expect(res.status).toBe(200);
    const rows = await res.json();
    expect(rows).toHaveLength(2);
    expect(rows.find((r: { target_id: number }) => r.target_id === h1)).toMatchObject({
      monitor_id: m1.id,
      monitor_ids: [m1.id, m2.id],
      status: "down",
      latency_ms: 4.5,
      uptime_pct_24h: 75,
      enabled: true,
      probe_mode: "server",
    });
    expect(rows.find((r: { target_id: number }) => r.target_id === h2)).toMatchObject({ monitor_id: m3.id, status: "up" });
    expect(await (await a.req("GET", "monitors/target-summary?target_type=hardware&target_ids=", a.viewer)).json()).toEqual([]);
    expect((await a.req("GET", "monitors/target-summary", a.viewer)).status).toBe(422);
    expect((await a.req("GET", "monitors/target-summary?target_type=hardware&target_ids=x", a.viewer)).status).toBe(422);
  });
});
