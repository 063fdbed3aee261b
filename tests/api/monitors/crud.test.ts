// POST/GET/PATCH/DELETE /monitors: shapes, per-type config validation, PATCH rules, scopes, audit and the
// monitors / monitor_control channels.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../agents/support.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

describe("POST /monitors", () => {
  it("creates a pending monitor due now, with only the config keys sent, audited and announced", async () => {
    const events = await a.listen("monitors");
    const control = await a.listen("monitor_control");
    const res = await a.req("POST", "monitors", a.admin, {
      name: "ssh",
      check_type: "tcp",
      host: "10.0.0.5",
      config: { port: 22 },
      max_retries: 2,
    });
    expect(res.status).toBe(201);
    const m = await res.json();
    expect(m).toMatchObject({
      name: "ssh",
      check_type: "tcp",
      host: "10.0.0.5",
      config: { port: 22 },
      interval_secs: 60,
      max_retries: 2,
      retry_interval_secs: null,
      enabled: true,
      target_type: null,
      target_id: null,
      status: "pending",
      retries: 0,
      last_polled_at: null,
      uptime_pct_24h: null,
      latency_ms: null,
      probe_agent_id: null,
      probe_mode: "server",
      probe_agent: null,
      next_check_at: a.clock.now().toISOString(),
    });
    const [audit] = await a.t.sql`select diff from audit_log where action = 'monitors.create' and entity_id = ${String(m.id)}`;
    expect(audit!.diff.after).toMatchObject({ name: "ssh", config: { port: 22 }, secrets_set: false });
    await eventually(() => events.payloads.length > 0 && control.payloads.length > 0);
    expect(events.payloads).toContainEqual({ type: "monitor", action: "created", monitor_id: m.id });
    expect(control.payloads).toContainEqual({ monitor_ids: [m.id], reason: "created" });
    await events.stop();
    await control.stop();
  });

  it("refuses unknown config keys, bad values and unknown fields with 422 naming each, writing nothing", async () => {
    const before = (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n;
    const cases: [Record<string, unknown>, string[]][] = [
      [{ check_type: "icmp", config: { packet_count: 5, port: 22 } }, ["config.port"]],
      [{ check_type: "icmp", config: { packet_count: 50 } }, ["config.packet_count"]],
      [{ check_type: "tcp", config: { ports: [0] } }, ["config.ports.0"]],
      [
        { check_type: "http", config: { url: "ftp://x", method: "FETCH", accepted_statuses: ["299-200"] } },
        ["config.accepted_statuses.0", "config.method", "config.url"],
      ],
      [{ check_type: "dns", config: { record_type: "XX", expected_values: "a" } }, ["config.expected_values", "config.record_type"]],
      [{ check_type: "ping" }, ["check_type"]],
      [{ check_type: "tcp", interval_secs: 5, max_retries: 11, colour: "red" }, ["colour", "interval_secs", "max_retries"]],
      [{ check_type: "tcp", name: "", host: "has space" }, ["host", "name"]],
      // A probe type needs its host: missing or empty (push and group monitors have none: adr/0434).
      [{ check_type: "tcp", host: undefined }, ["host"]],
      [{ check_type: "http", host: "" }, ["host"]],
    ];
    for (const [body, fields] of cases) {
      const res = await a.req("POST", "monitors", a.admin, { name: "bad", host: "h", ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = await res.json();
      expect(Object.keys(err.fields).sort(), JSON.stringify(body)).toEqual(fields);
    }
    expect((await a.t.sql`select count(*)::int as n from monitors`)[0]!.n).toBe(before);
  });

  it("checks the target and the probe agent it names (422)", async () => {
    const res = await a.req("POST", "monitors", a.admin, {
      name: "x",
      check_type: "icmp",
      host: "h",
      target_type: "hardware",
      target_id: 999_999,
      probe_agent_id: 999_999,
    });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields).sort()).toEqual(["probe_agent_id", "target_id"]);
    const half = await a.req("POST", "monitors", a.admin, { name: "x", check_type: "icmp", host: "h", target_type: "hardware" });
    expect(half.status).toBe(422);
    const node = await a.node("box-1", { ip: "10.1.1.1" });
    const agent = await a.agent({ status: "active", name: "probe-1" });
    const ok = await a.req("POST", "monitors", a.admin, {
      name: "x",
      check_type: "icmp",
      host: "h",
      target_type: "hardware",
      target_id: node,
      probe_agent_id: agent,
    });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({
      target_type: "hardware",
      target_id: node,
      probe_mode: "agent",
      probe_agent: { id: agent, name: "probe-1" },
    });
    const ip = await a.req("POST", "monitors", a.admin, { name: "x", check_type: "icmp", host: "10.9.9.9", target_type: "ip" });
    expect(ip.status).toBe(201);
  });
});

describe("GET /monitors and /monitors/{id}", () => {
  it("lists in the envelope, sorted by name, with filters; one monitor; 404 naming the id", async () => {
    const x = await a.monitor({ name: "zz-list", check_type: "icmp", config: {} });
    const y = await a.monitor({ name: "aa-list", enabled: false });
    const res = await a.req("GET", "monitors?q=-list", a.viewer);
    expect(res.status).toBe(200);
    const page = await res.json();
    expect(page).toMatchObject({ total: 2, limit: 25, offset: 0, sort: "name", direction: "asc" });
    expect(page.items.map((m: { id: number }) => m.id)).toEqual([y.id, x.id]);
    const icmp = await (await a.req("GET", "monitors?q=-list&check_type=icmp", a.viewer)).json();
    expect(icmp.items.map((m: { id: number }) => m.id)).toEqual([x.id]);
    const disabled = await (await a.req("GET", "monitors?q=-list&enabled=false", a.viewer)).json();
    expect(disabled.items.map((m: { id: number }) => m.id)).toEqual([y.id]);
    expect((await a.req("GET", "monitors?enabled=maybe", a.viewer)).status).toBe(422);
    // The detail is the MonitorRead plus its vantage points (none for a single-point monitor).
    expect(await (await a.req("GET", `monitors/${x.id}`, a.viewer)).json()).toEqual({ ...x, vantage_results: [], heartbeats: [] });
    const missing = await a.req("GET", "monitors/987654", a.viewer);
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toContain("987654");
  });
});

describe("PATCH /monitors/{id}", () => {
  it("changes only the fields given; the whole record sent back is accepted; check_type cannot change", async () => {
    const m = await a.monitor({ name: "patch-me", check_type: "icmp", config: { packet_count: 3 } });
    const res = await a.req("PATCH", `monitors/${m.id}`, a.admin, { interval_secs: 120, config: { timeout: 2 } });
    expect(res.status).toBe(200);
    const after = await res.json();
    expect(after).toMatchObject({ name: "patch-me", interval_secs: 120, config: { timeout: 2 } });
    const [audit] = await a.t.sql`select diff from audit_log where action = 'monitors.update' and entity_id = ${String(m.id)}`;
    expect(audit!.diff).toEqual({
      before: { interval_secs: 60, config: { packet_count: 3 } },
      after: { interval_secs: 120, config: { timeout: 2 } },
    });

    const whole = await a.req("PATCH", `monitors/${m.id}`, a.admin, { ...after, name: "renamed" });
    expect(whole.status).toBe(200);
    expect(await whole.json()).toMatchObject({ name: "renamed", check_type: "icmp" });

    const type = await a.req("PATCH", `monitors/${m.id}`, a.admin, { check_type: "tcp" });
    expect(type.status).toBe(422);
    expect((await type.json()).fields).toHaveProperty("check_type");
    const cfg = await a.req("PATCH", `monitors/${m.id}`, a.admin, { config: { port: 22 } });
    expect(cfg.status).toBe(422);
    expect((await cfg.json()).fields).toHaveProperty(["config.port"]);
    expect((await a.req("PATCH", "monitors/987654", a.admin, { name: "x" })).status).toBe(404);
  });

  it("gives its version in ETag; If-Match with an older one is a 412 that changes nothing, the current one passes", async () => {
    const m = await a.monitor({ name: "versioned" });
    const got = await a.req("GET", `monitors/${m.id}`, a.admin);
    const etag = got.headers.get("etag")!;
    expect(etag).toBe(`W/"${Date.parse(m.updated_at)}"`);
    a.clock.advance(1000);
    const first = await a.req("PATCH", `monitors/${m.id}`, a.admin, { interval_secs: 90 }, { "If-Match": etag });
    expect(first.status).toBe(200);
    const newer = first.headers.get("etag")!;
    expect(newer).not.toBe(etag);
    const stale = await a.req("PATCH", `monitors/${m.id}`, a.admin, { interval_secs: 30 }, { "If-Match": etag });
    expect(stale.status).toBe(412);
    expect((await stale.json()).detail).toContain("changed since it was read");
    expect((await (await a.req("GET", `monitors/${m.id}`, a.admin)).json()).interval_secs).toBe(90);
    expect((await a.req("PATCH", `monitors/${m.id}`, a.admin, { interval_secs: 30 }, { "If-Match": "not-a-version" })).status).toBe(412);
    expect((await a.req("PATCH", `monitors/${m.id}`, a.admin, { interval_secs: 30 }, { "If-Match": newer })).status).toBe(200);
  });

  it("a patch that changes nothing writes nothing; a new secret behind the same config is a change; enabling is due now", async () => {
    const m = await a.monitor({ name: "still", check_type: "http", config: { url: "http://127.0.0.1/", password: "one" } });
    const audits = async () =>
      (await a.t.sql`select diff from audit_log where action = 'monitors.update' and entity_id = ${String(m.id)} order by id`).map(
        (r) => r.diff,
      );
    a.clock.advance(1000);
    const same = await a.req("PATCH", `monitors/${m.id}`, a.admin, { ...m, config: { password: "********", url: "http://127.0.0.1/" } });
    expect(same.status).toBe(200);
    expect((await same.json()).updated_at).toBe(m.updated_at);
    expect(await audits()).toEqual([]);

    const secret = await a.req("PATCH", `monitors/${m.id}`, a.admin, { config: { url: "http://127.0.0.1/", password: "two" } });
    expect((await secret.json()).updated_at).toBe(a.clock.now().toISOString());
    expect(await audits()).toEqual([{ before: {}, after: {}, secrets_changed: true }]);

    await a.req("POST", `monitors/${m.id}/pause`, a.admin);
    a.clock.advance(1000);
    const resumed = await (await a.req("PATCH", `monitors/${m.id}`, a.admin, { enabled: true })).json();
    expect(resumed).toMatchObject({ enabled: true, next_check_at: a.clock.now().toISOString() });
    expect((await audits()).at(-1)).toMatchObject({
      before: { enabled: false },
      after: { enabled: true, next_check_at: a.clock.now().toISOString() },
    });
  });

  it("a new probe agent cancels the runs in flight (monitor_reassigned) and clears the probe status", async () => {
    const one = await a.agent({ status: "active" });
    const two = await a.agent({ status: "active" });
    const m = await a.monitor({ probe_agent_id: one });
    await a.t.sql`update monitors set probe_execution_status = 'running', probe_execution_reason = 'x' where id = ${m.id}`;
    await a.t.sql`insert into agent_probe_runs (run_id, agent_id, monitor_id, check_type, host, state, scheduled_at, deadline_at)
      values (${"a".repeat(32)}, ${one}, ${m.id}, 'tcp', '127.0.0.1', 'dispatched', now(), now() + interval '1 minute')`;
    const res = await a.req("PATCH", `monitors/${m.id}`, a.admin, { probe_agent_id: two });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ probe_agent_id: two, probe_execution_status: null, probe_execution_reason: null });
    const [run] = await a.t.sql`select state, details from agent_probe_runs where run_id = ${"a".repeat(32)}`;
    expect(run).toMatchObject({ state: "cancelled", details: { error_code: "monitor_reassigned" } });
  });
});

describe("DELETE /monitors/{id} and scopes", () => {
  it("deletes with its history (204); viewers and editors write nothing", async () => {
    const m = await a.monitor();
    await a.t.sql`insert into monitor_events (monitor_id, event_type) values (${m.id}, 'down')`;
    await a.t.sql`insert into monitor_uptime_minutes (monitor_id, minute, up, total) values (${m.id}, now(), 1, 1)`;
    expect((await a.req("POST", "monitors", a.viewer, { name: "v", check_type: "tcp", host: "h" })).status).toBe(403);
    expect((await a.req("PATCH", `monitors/${m.id}`, a.viewer, { name: "v" })).status).toBe(403);
    // Spec 5.2 gives editors no write:monitors (docs/adr/0099-monitors-scopes.md).
    expect((await a.req("DELETE", `monitors/${m.id}`, a.editor)).status).toBe(403);
    expect((await a.req("POST", "monitors", a.editor, { name: "by editor", check_type: "tcp", host: "h" })).status).toBe(403);
    expect((await a.req("POST", `monitors/${m.id}/pause`, a.editor)).status).toBe(403);
    expect((await a.req("GET", "monitors", undefined)).status).toBe(401);
    const del = await a.req("DELETE", `monitors/${m.id}`, a.admin);
    expect(del.status).toBe(204);
    expect(await del.text()).toBe("");
    expect(await a.t.sql`select 1 from monitor_events where monitor_id = ${m.id}`).toHaveLength(0);
    expect(await a.t.sql`select 1 from monitor_uptime_minutes where monitor_id = ${m.id}`).toHaveLength(0);
    expect(await a.t.sql`select 1 from audit_log where action = 'monitors.delete' and entity_id = ${String(m.id)}`).toHaveLength(1);
    expect((await a.req("DELETE", `monitors/${m.id}`, a.admin)).status).toBe(404);
  });
});

describe("the OpenAPI document", () => {
  it("lists every monitors route under the monitors tag with its scope, maintenance windows included", async () => {
    const doc = await (await a.req("GET", "/api/openapi.json")).json();
    const ops = [
      ["get", "/api/v1/monitors"],
      ["post", "/api/v1/monitors"],
      ["get", "/api/v1/monitors/overview"],
      ["get", "/api/v1/monitors/target-summary"],
      ["post", "/api/v1/monitors/target/{target_type}/{target_id}"],
      ["post", "/api/v1/monitors/target/{target_type}/{target_id}/check"],
      ["post", "/api/v1/monitors/target/{target_type}/{target_id}/pause"],
      ["post", "/api/v1/monitors/target/{target_type}/{target_id}/resume"],
      ["get", "/api/v1/monitors/{monitor_id}"],
      ["patch", "/api/v1/monitors/{monitor_id}"],
      ["delete", "/api/v1/monitors/{monitor_id}"],
      ["post", "/api/v1/monitors/{monitor_id}/check"],
      ["get", "/api/v1/monitors/{monitor_id}/events"],
      ["get", "/api/v1/monitors/{monitor_id}/history"],
      ["post", "/api/v1/monitors/{monitor_id}/pause"],
      ["get", "/api/v1/monitors/{monitor_id}/probe-runs"],
      ["post", "/api/v1/monitors/{monitor_id}/resume"],
      ["get", "/api/v1/monitors/{monitor_id}/uptime"],
      ["get", "/api/v1/monitors/maintenance-windows"],
      ["post", "/api/v1/monitors/maintenance-windows"],
      ["get", "/api/v1/monitors/maintenance-windows/{window_id}"],
      ["patch", "/api/v1/monitors/maintenance-windows/{window_id}"],
      ["delete", "/api/v1/monitors/maintenance-windows/{window_id}"],
    ];
    for (const [method, path] of ops) {
      const op = doc.paths[path!]?.[method!];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags, `${method} ${path}`).toEqual(["monitors"]);
    }
  });
});
