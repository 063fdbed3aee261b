// GET /agents/probe-eligible, GET /agents/{id}/probes, and the requestProbe verb the monitors will call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../../../shared/verbs/actor.ts";
import { requestProbe } from "../../../shared/verbs/agents/request-probe.ts";
import type { VerbContext } from "../../../shared/verbs/verb-context.ts";
import { type AgentActors, createAgentActors, eventually, lan, probesReady } from "./support.ts";

let a: AgentActors;
beforeAll(async () => {
  a = await createAgentActors();
});
afterAll(async () => a.t.close());

const eligible = async (query: string) => {
  const res = await a.req("GET", `agents/probe-eligible?${query}`, a.viewer);
  expect(res.status).toBe(200);
  return (await res.json()) as { agent_id: number; eligible: boolean; reason: string | null; in_scope: boolean }[];
};
const verdictOf = async (query: string, id: number) => (await eligible(query)).find((e) => e.agent_id === id);

const ctx = (actor = SYSTEM_ACTOR): VerbContext => ({
  db: a.t.runtime.deps.database.lease().db,
  clock: a.clock,
  random: a.t.runtime.deps.random,
  actor,
  ip: null,
});

describe("GET /agents/probe-eligible", () => {
  it("an online, granted, ready agent whose LAN holds the host is eligible, with its scope", async () => {
    const id = await a.agent({
      status: "active",
      online: true,
      networks: lan("192.168.10.7/24", "127.0.0.1/8", "203.0.113.9/24"),
      readiness: probesReady,
      name: "edge-1",
    });
    const [entry] = (await eligible("host=192.168.10.50&check_type=icmp")).filter((e) => e.agent_id === id);
    expect(entry).toEqual({
      agent_id: id,
      name: "edge-1",
      online: true,
      granted: true,
      readiness: "ready",
      readiness_collector: "probe.icmp",
      max_concurrent: 20,
      active_runs: 0,
      assigned_monitors: 0,
      scope_version: expect.stringMatching(/^[0-9a-f]{16}$/),
      scope_networks: ["192.168.10.0/24"],
      excluded_networks: [],
      in_scope: true,
      eligible: true,
      reason: null,
    });
  });

  it("says why an agent is not eligible, first failing check first", async () => {
    const base = { status: "active" as const, online: true, networks: lan("10.20.0.5/16"), readiness: probesReady };
    const disabled = await a.agent({ ...base, capabilities: { remote_probe: { enabled: false } } });
    const offline = await a.agent({ ...base, online: false });
    const unknown = await a.agent({ ...base, readiness: [] });
    const unavailable = await a.agent({ ...base, readiness: [{ collector: "probe.tcp", state: "unavailable" }] });
    const excluded = await a.agent({ ...base, capabilities: { remote_probe: { config: { excluded_cidrs: ["10.20.30.0/24"] } } } });
    const busy = await a.agent({ ...base, capabilities: { remote_probe: { config: { max_concurrent: 1 } } } });
    const now = a.clock.now();
    await a.t
      .sql`insert into agent_probe_runs (run_id, agent_id, check_type, host, state, scheduled_at, deadline_at) values (${"1".repeat(32)}, ${busy}, 'tcp', '10.20.0.9', 'dispatched', ${now}, ${now})`;
    const pending = await a.agent({ ...base, status: "pending" });
    const list = await eligible("host=10.20.30.40&check_type=tcp");
    const reason = (id: number) => list.find((e) => e.agent_id === id)?.reason;
    expect(reason(disabled)).toBe("capability_disabled");
    expect(reason(offline)).toBe("agent_offline");
    expect(reason(unknown)).toBe("readiness_unknown");
    expect(reason(unavailable)).toBe("readiness_unavailable");
    expect(reason(excluded)).toBe("out_of_scope");
    expect(reason(busy)).toBe("at_capacity");
    expect(list.some((e) => e.agent_id === pending)).toBe(false);
    // Outside every reported network, and a name the grant does not list.
    expect((await verdictOf("host=172.31.0.1&check_type=tcp", busy))?.reason).toBe("out_of_scope");
    expect((await verdictOf("host=nas.lan&check_type=tcp", busy))?.reason).toBe("unresolved_host");
  });

  it("additional_cidrs and additional_hostnames widen the scope", async () => {
    const id = await a.agent({
      status: "active",
      online: true,
      readiness: probesReady,
      capabilities: { remote_probe: { config: { additional_cidrs: ["198.51.100.0/24"], additional_hostnames: ["NAS.lan"] } } },
    });
    expect((await verdictOf("host=198.51.100.20&check_type=http", id))?.eligible).toBe(true);
    expect((await verdictOf("host=nas.lan&check_type=dns", id))?.eligible).toBe(true);
  });

  it("422 without host and check_type or monitor_id; a monitor_id names no monitor yet (404)", async () => {
    for (const q of ["", "host=10.0.0.1", "check_type=icmp", "host=10.0.0.1&check_type=gopher", "host=a%20b&check_type=icmp"])
      expect((await a.req("GET", `agents/probe-eligible?${q}`, a.viewer)).status, q).toBe(422);
    const res = await a.req("GET", "agents/probe-eligible?monitor_id=5", a.viewer);
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe("Monitor 5 was not found.");
    expect((await a.req("GET", "agents/probe-eligible?host=10.0.0.1&check_type=icmp")).status).toBe(401);
  });
});

describe("requestProbe", () => {
  it("queues a run, answers its id and deadline, and tells the sidecar on commit", async () => {
    const id = await a.agent({ status: "active", online: true, networks: lan("192.168.50.2/24"), readiness: probesReady });
    const control = await a.listen("agent_control");
    const queued = await requestProbe({
      ctx: ctx(),
      input: { agent_id: id, check_type: "tcp", host: "192.168.50.10", config: { port: 22 }, monitor_id: 7, timeout_s: 10 },
    });
    expect(queued).toEqual({
      run_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      agent_id: id,
      monitor_id: 7,
      state: "queued",
      scheduled_at: a.clock.now().toISOString(),
      deadline_at: new Date(a.clock.now().getTime() + 10_000).toISOString(),
    });
    const [run] = await a.t.sql`select state, check_type, host, config, monitor_id from agent_probe_runs where run_id = ${queued.run_id}`;
    expect(run).toEqual({ state: "queued", check_type: "tcp", host: "192.168.50.10", config: { port: 22 }, monitor_id: 7 });
    await eventually(() => control.payloads.length > 0);
    expect(control.payloads).toEqual([{ agent_id: id, action: "probe" }]);
    await control.stop();

    // The same monitor's next run waits for this one.
    await expect(
      requestProbe({ ctx: ctx(), input: { agent_id: id, check_type: "tcp", host: "192.168.50.10", monitor_id: 7, timeout_s: 10 } }),
    ).rejects.toMatchObject({
      status: 409,
      extra: { reason: "previous_run_in_flight" },
    });

    const probes = await (await a.req("GET", `agents/${id}/probes`, a.viewer)).json();
    expect(probes).toMatchObject({ agent_id: id, max_concurrent: 20, active_runs: 1, assignments: [] });
    expect(probes.recent_runs).toEqual([
      {
        run_id: queued.run_id,
        monitor_id: 7,
        check_type: "tcp",
        host: "192.168.50.10",
        state: "queued",
        scheduled_at: queued.scheduled_at,
        deadline_at: queued.deadline_at,
        dispatched_at: null,
        finished_at: null,
        up: null,
        late: false,
        msg: null,
      },
    ]);
  });

  it("refuses with 409 and a reason when the agent cannot take it, writing nothing", async () => {
    const inactive = await a.agent({ status: "pending", online: true, networks: lan("10.9.9.1/24"), readiness: probesReady });
    const offline = await a.agent({ status: "active", networks: lan("10.9.9.1/24"), readiness: probesReady });
    const disabled = await a.agent({
      status: "active",
      online: true,
      networks: lan("10.9.9.1/24"),
      readiness: probesReady,
      capabilities: { remote_probe: { enabled: false } },
    });
    const cases: [number, string][] = [
      [999_999, "agent_missing"],
      [inactive, "agent_inactive"],
      [offline, "agent_offline"],
      [disabled, "capability_disabled"],
    ];
    for (const [agent_id, reason] of cases)
      await expect(
        requestProbe({ ctx: ctx(), input: { agent_id, check_type: "icmp", host: "10.9.9.2", timeout_s: 5 } }),
        reason,
      ).rejects.toMatchObject({
        status: 409,
        code: "CONFLICT",
        extra: { reason },
      });
    expect(
      (await a.t.sql`select count(*)::int as n from agent_probe_runs where agent_id in ${a.t.sql([inactive, offline, disabled])}`)[0]!.n,
    ).toBe(0);
  });

  it("validates its input (422) and needs write:agents (a viewer is refused)", async () => {
    const id = await a.agent({ status: "active", online: true });
    await expect(
      requestProbe({ ctx: ctx(), input: { agent_id: id, check_type: "gopher" as "tcp", host: "", timeout_s: 0 } }),
    ).rejects.toMatchObject({ status: 422 });
    const viewer = { userId: 3, email: "viewer@example.com", role: "viewer", roleScopes: ["read:*"], kind: "session" as const };
    await expect(
      requestProbe({ ctx: ctx(viewer), input: { agent_id: id, check_type: "icmp", host: "10.0.0.1", timeout_s: 5 } }),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe("GET /agents/{id}/probes", () => {
  it("404 for an unknown agent, 401 without a credential", async () => {
    expect((await a.req("GET", "agents/626262/probes", a.viewer)).status).toBe(404);
    expect((await a.req("GET", "agents/1/probes")).status).toBe(401);
  });
});
