// PATCH /agents/{id}, PUT /agents/{id}/capabilities and DELETE /agents/{id}.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITY_DEFAULTS } from "../../../shared/domain/agents/capabilities.ts";
import { type AgentActors, createAgentActors, eventually } from "./support.ts";

let a: AgentActors;
beforeAll(async () => {
  a = await createAgentActors();
});
afterAll(async () => a.t.close());

const count = async (table: string, id: number) =>
  (await a.t.sql`select count(*)::int as n from ${a.t.sql(table)} where agent_id = ${id}`)[0]!.n as number;

describe("PATCH /agents/{id}", () => {
  it("changes only the fields given; a new hardware link is a host_link_changed event", async () => {
    const node = await a.node("patch-node");
    const id = await a.agent({ status: "active", name: "old" });
    const res = await a.req("PATCH", `agents/${id}`, a.admin, { notes: "in rack 3", hardware_id: node });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "old", notes: "in rack 3", hardware_id: node, hardware_name: "patch-node" });
    const ev = await a.t.sql`select event_type, detail from agent_events where agent_id = ${id}`;
    expect(ev.map((e) => ({ ...e }))).toEqual([{ event_type: "host_link_changed", detail: { from: null, to: node } }]);
    const [audit] = await a.t.sql`select diff from audit_log where action = 'agents.update' and entity_id = ${String(id)}`;
    expect(audit!.diff).toEqual({ before: { notes: null, hardware_id: null }, after: { notes: "in rack 3", hardware_id: node } });

    // The whole record sent back: read-only fields are ignored; an empty name is no name.
    const whole = await (await a.req("GET", `agents/${id}`, a.admin)).json();
    const again = await a.req("PATCH", `agents/${id}`, a.admin, { ...whole, name: "", hardware_id: null });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ name: null, hardware_id: null, status: "active" });
    expect(await a.t.sql`select 1 from agent_events where agent_id = ${id}`).toHaveLength(2);
  });

  it("refuses unknown fields (422), a missing node (404), and viewers and editors (403)", async () => {
    const id = await a.agent({ name: "keep" });
    const unknown = await a.req("PATCH", `agents/${id}`, a.admin, { colour: "red", name: "x".repeat(201) });
    expect(unknown.status).toBe(422);
    expect(Object.keys((await unknown.json()).fields).sort()).toEqual(["colour", "name"]);
    const missing = await a.req("PATCH", `agents/${id}`, a.admin, { hardware_id: 777_777 });
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toBe("Hardware node 777777 was not found.");
    for (const token of [a.viewer, a.editor]) expect((await a.req("PATCH", `agents/${id}`, token, { name: "nope" })).status).toBe(403);
    expect((await a.req("PATCH", `agents/${id}`, undefined, { name: "nope" })).status).toBe(401);
    expect((await a.t.sql`select name from agents where id = ${id}`)[0]!.name).toBe("keep");
  });
});

describe("PUT /agents/{id}/capabilities", () => {
  it("changes only the capabilities named, records the change and tells the sidecar", async () => {
    const id = await a.agent({ status: "active", capabilities: { ...CAPABILITY_DEFAULTS } });
    const control = await a.listen("agent_control");
    const res = await a.req("PUT", `agents/${id}/capabilities`, a.admin, {
      capabilities: { host_telemetry: { config: { interval_s: 60 } }, local_discovery: false },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.capabilities).toEqual({
      host_telemetry: { enabled: true, config: { ...CAPABILITY_DEFAULTS.host_telemetry.config, interval_s: 60 } },
      remote_probe: CAPABILITY_DEFAULTS.remote_probe,
      local_discovery: { ...CAPABILITY_DEFAULTS.local_discovery, enabled: false },
    });
    const [ev] = await a.t.sql`select detail from agent_events where agent_id = ${id} and event_type = 'capability_changed'`;
    expect(ev!.detail.capabilities).toEqual(["host_telemetry", "local_discovery"]);
    await eventually(() => control.payloads.length > 0);
    expect(control.payloads).toEqual([{ agent_id: id, action: "capabilities" }]);
    await control.stop();
  });

  it("422 names an unknown capability or config key and changes nothing; 409 for a revoked agent", async () => {
    const id = await a.agent({ status: "active" });
    const res = await a.req("PUT", `agents/${id}/capabilities`, a.admin, {
      capabilities: { local_discovery: { config: { tcp_ports: [0] } }, x: true },
    });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields).sort()).toEqual(["capabilities.local_discovery.config.tcp_ports.0", "capabilities.x"]);
    expect((await a.t.sql`select capabilities from agents where id = ${id}`)[0]!.capabilities).toEqual({});
    expect((await a.req("PUT", `agents/${id}/capabilities`, a.admin, {})).status).toBe(422);
    const revoked = await a.agent({ status: "revoked" });
    expect((await a.req("PUT", `agents/${revoked}/capabilities`, a.admin, { capabilities: { remote_probe: false } })).status).toBe(409);
    expect((await a.req("PUT", `agents/${id}/capabilities`, a.viewer, { capabilities: { remote_probe: false } })).status).toBe(403);
  });
});

describe("DELETE /agents/{id}", () => {
  it("deletes the agent with its events, runs, latest frame, samples and rollups, and cuts its link", async () => {
    const id = await a.agent({ status: "active", online: true });
    const keep = await a.agent({ status: "active" });
    const now = a.clock.now();
    await a.t.sql`insert into agent_events (agent_id, event_type) values (${id}, 'connected')`;
    await a.t
      .sql`insert into agent_probe_runs (run_id, agent_id, check_type, host, state, scheduled_at, deadline_at) values (${"d".repeat(32)}, ${id}, 'tcp', '10.1.1.1', 'completed', ${now}, ${now})`;
    await a.t
      .sql`insert into agent_latest_telemetry (agent_id, sample_id, collected_at, status, summary, payload) values (${id}, ${"e".repeat(32)}, ${now}, 'healthy', '{}', '{}')`;
    for (const agent of [id, keep]) {
      await a.t.sql`insert into agent_host_samples (agent_id, ts, cpu_pct) values (${agent}, ${now}, 10)`;
      await a.t
        .sql`insert into agent_host_samples_hourly (agent_id, hour, cpu_pct, sample_count) values (${agent}, ${new Date(now.getTime() - 40 * 86_400_000)}, 5, 120)`;
    }
    const control = await a.listen("agent_control");
    const res = await a.req("DELETE", `agents/${id}`, a.admin);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    for (const table of ["agent_events", "agent_probe_runs", "agent_latest_telemetry", "agent_host_samples", "agent_host_samples_hourly"])
      expect(await count(table, id), table).toBe(0);
    expect(await count("agent_host_samples", keep)).toBe(1);
    expect(await count("agent_host_samples_hourly", keep)).toBe(1);
    const [audit] = await a.t.sql`select diff from audit_log where action = 'agents.delete' and entity_id = ${String(id)}`;
    expect(audit!.diff).toMatchObject({ samples_deleted: 1, hourly_rows_deleted: 1 });
    await eventually(() => control.payloads.length > 0);
    expect(control.payloads).toEqual([{ agent_id: id, action: "revoked" }]);
    expect((await a.req("GET", `agents/${id}`, a.admin)).status).toBe(404);
    expect((await a.req("DELETE", `agents/${id}`, a.admin)).status).toBe(404);
    await control.stop();
  });

  it("409 while probe runs are queued or dispatched, with nothing deleted", async () => {
    const id = await a.agent({ status: "active" });
    const now = a.clock.now();
    await a.t
      .sql`insert into agent_probe_runs (run_id, agent_id, check_type, host, state, scheduled_at, deadline_at) values (${"f".repeat(32)}, ${id}, 'icmp', '10.2.2.2', 'dispatched', ${now}, ${now})`;
    const res = await a.req("DELETE", `agents/${id}`, a.admin);
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/^1 probe run\(s\) are still queued or in flight/);
    expect(await a.t.sql`select 1 from agents where id = ${id}`).toHaveLength(1);
  });

  it("needs delete rights: 401 anonymous, 403 viewer and editor", async () => {
    const id = await a.agent();
    expect((await a.req("DELETE", `agents/${id}`)).status).toBe(401);
    for (const token of [a.viewer, a.editor]) expect((await a.req("DELETE", `agents/${id}`, token)).status).toBe(403);
    expect(await a.t.sql`select 1 from agents where id = ${id}`).toHaveLength(1);
  });
});
