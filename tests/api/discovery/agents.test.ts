// Agents' discovery over HTTP: GET /discovery/eligible-agents (every active agent, the first failing
// reason, in_scope for a CIDR), GET /agents/{id}/discovery, the per-agent pause and resume (audited,
// announced, refusing new scans while set), and what POST /discovery/scan makes of an agent's state:
// offline -> queued (the worker names it waiting_for_agent), paused or out of scope -> 422 with the reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markWaitingAgentJobs } from "../../../shared/verbs/discovery/agents/dispatch.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { eventually, lan } from "../agents/support.ts";
import { createDiscoveryActors, type DiscoveryActors } from "./support.ts";

let a: DiscoveryActors;
const ready = (state = "ready") => [{ collector: "discovery.tcp", state, reason: null, remediation: null, missing: [] }];
const granted = (config: Record<string, unknown> = {}) => ({ local_discovery: { enabled: true, config } });
let good = 0;

beforeAll(async () => {
  a = await createDiscoveryActors();
  good = await a.agent({
    status: "active",
    online: true,
    name: "lan-scanner",
    networks: lan("192.168.1.20/24"),
    readiness: ready(),
    capabilities: granted({ additional_cidrs: ["127.0.0.0/24"] }),
  });
});
afterAll(async () => {
  await a?.t.close();
});

type Entry = {
  agent_id: number;
  eligible: boolean;
  reason: string | null;
  detail: string | null;
  in_scope: boolean | null;
  online: boolean;
  paused: boolean;
  scope_networks: string[];
  direct_networks: string[];
};
const list = async (query = "") => {
  const res = await a.req("GET", `discovery/eligible-agents${query}`, a.viewer);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Entry[];
};
const entry = async (id: number, query = "") => (await list(query)).find((e) => e.agent_id === id);

describe("GET /discovery/eligible-agents", () => {
  it("gives every active agent the first failing reason, and leaves pending ones out", async () => {
    const offline = await a.agent({
      status: "active",
      online: false,
      networks: lan("192.168.1.21/24"),
      readiness: ready(),
      capabilities: granted(),
    });
    const disabled = await a.agent({
      status: "active",
      online: true,
      networks: lan("192.168.1.22/24"),
      readiness: ready(),
      capabilities: { local_discovery: { enabled: false } },
    });
    const unknown = await a.agent({ status: "active", online: true, networks: lan("192.168.1.23/24"), capabilities: granted() });
    const degraded = await a.agent({
      status: "active",
      online: true,
      networks: lan("192.168.1.24/24"),
      readiness: ready("degraded"),
      capabilities: granted(),
    });
    const unavailable = await a.agent({
      status: "active",
      online: true,
      networks: lan("192.168.1.25/24"),
      readiness: ready("unavailable"),
      capabilities: granted(),
    });
    const pending = await a.agent({ status: "pending" });

    const all = await list();
    expect(all.some((e) => e.agent_id === pending)).toBe(false);
    const reasonOf = (id: number) => all.find((e) => e.agent_id === id)?.reason;
    expect(reasonOf(good)).toBeNull();
    expect(reasonOf(offline)).toBe("agent_offline");
    expect(reasonOf(disabled)).toBe("capability_disabled");
    expect(reasonOf(unknown)).toBe("readiness_unknown");
    expect(reasonOf(degraded)).toBe("readiness_degraded");
    expect(reasonOf(unavailable)).toBe("readiness_unavailable");
    const g = all.find((e) => e.agent_id === good)!;
    expect(g).toMatchObject({ eligible: true, in_scope: null, online: true, paused: false, detail: null });
    expect(g.direct_networks).toEqual(["192.168.1.0/24"]);
    expect(g.scope_networks.sort()).toEqual(["127.0.0.0/24", "192.168.1.0/24"]);
  });

  it("judges a CIDR against the agent's scope, naming why it is out", async () => {
    expect(await entry(good, "?cidr=192.168.1.0/28")).toMatchObject({ eligible: true, in_scope: true });
    expect(await entry(good, "?cidr=127.0.0.5")).toMatchObject({ eligible: true, in_scope: true });
    expect(await entry(good, "?cidr=192.168.0.0/16")).toMatchObject({
      eligible: false,
      in_scope: false,
      reason: "out_of_scope",
      detail: "prefix_too_wide:192.168.0.0/16",
    });
    expect(await entry(good, "?cidr=10.1.2.0/24")).toMatchObject({
      eligible: false,
      reason: "out_of_scope",
      detail: "not_directly_connected:10.1.2.0/24",
    });
  });

  it("answers 422 naming cidr for a malformed one, and 401 without a credential", async () => {
    const res = await a.req("GET", "discovery/eligible-agents?cidr=300.1.2.0/24", a.viewer);
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("cidr");
    expect((await a.req("GET", "discovery/eligible-agents")).status).toBe(401);
  });
});

describe("one agent's discovery, paused and resumed", () => {
  it("pauses (audited, refusing new scans) and resumes (announced to the worker)", async () => {
    const job = await a.job({ scan_agent_id: good, scan_types: ["agent_connect"], status: "completed" });
    let res = await a.req("GET", `agents/${good}/discovery`, a.viewer);
    expect(res.status).toBe(200);
    let body = await res.json();
    expect(body).toMatchObject({ agent_id: good, paused: false, paused_globally: false, eligible: true });
    expect(body.recent_jobs.map((j: { id: number }) => j.id)).toContain(job);

    expect((await a.req("POST", `agents/${good}/discovery/pause`, a.viewer)).status).toBe(403);
    res = await a.req("POST", `agents/${good}/discovery/pause`, a.admin);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ paused: true, eligible: false, reason: "paused" });
    const [audit] = await a.t.sql<
      { action: string }[]
    >`select action from audit_log where entity_type = 'agent' and entity_id = ${String(good)} order by id desc limit 1`;
    expect(audit?.action).toBe("agents.discovery_paused");
    // Pausing again changes nothing (no second audit entry).
    await a.req("POST", `agents/${good}/discovery/pause`, a.admin);
    const [counted] = await a.t.sql<
      { n: number }[]
    >`select count(*)::int as n from audit_log where action = 'agents.discovery_paused' and entity_id = ${String(good)}`;
    expect(counted?.n).toBe(1);

    res = await a.req("POST", "discovery/scan", a.admin, {
      targets: ["127.0.0.2-127.0.0.4"],
      scan_types: ["agent_connect"],
      scan_agent_id: good,
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("paused");

    const control = await a.listen("discovery_control");
    res = await a.req("POST", `agents/${good}/discovery/resume`, a.admin);
    expect(res.status).toBe(200);
    body = await res.json();
    expect(body).toMatchObject({ paused: false, eligible: true });
    await eventually(() => control.payloads.some((p) => p.type === "agent_resumed" && p.agent_id === good));
    expect(control.payloads).toContainEqual({ type: "agent_resumed", agent_id: good });
    await control.stop();
  });

  it("answers 404 for an unknown agent", async () => {
    expect((await a.req("GET", "agents/999999/discovery", a.viewer)).status).toBe(404);
    expect((await a.req("POST", "agents/999999/discovery/pause", a.admin)).status).toBe(404);
  });
});

describe("scans for an agent", () => {
  it("queues a scan for an offline agent, which then waits for it; refuses one out of its scope", async () => {
    const offline = await a.agent({
      status: "active",
      online: false,
      networks: lan("192.168.7.20/24"),
      readiness: ready(),
      capabilities: granted(),
    });
    const job = await a.scan({ targets: ["192.168.7.1-192.168.7.9"], scan_types: ["agent_connect"], scan_agent_id: offline });
    expect(job.status).toBe("queued");
    await markWaitingAgentJobs({
      ctx: systemContext({ db: a.t.runtime.database.db, clock: a.t.runtime.deps.clock, random: a.t.runtime.deps.random }),
    });
    const res = await a.req("GET", `discovery/jobs/${job.id}`, a.viewer);
    expect((await res.json()).error_reason).toBe("waiting_for_agent");

    const out = await a.req("POST", "discovery/scan", a.admin, {
      targets: ["10.9.0.0/24"],
      scan_types: ["agent_connect"],
      scan_agent_id: offline,
    });
    expect(out.status).toBe(422);
    expect(await out.json()).toMatchObject({ reason: "out_of_scope", detail: expect.any(String) });
  });
});
