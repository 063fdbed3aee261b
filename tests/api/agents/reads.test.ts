// GET /agents, /agents/pending, /agents/{id}, /agents/{id}/events, /agents/capability-defaults,
// /agents/presence: shapes, the list envelope, the computed fields, and who may read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITY_DEFAULTS } from "../../../shared/domain/agents/capabilities.ts";
import { type AgentActors, createAgentActors } from "./support.ts";

let a: AgentActors;
beforeAll(async () => {
  a = await createAgentActors();
});
afterAll(async () => a.t.close());

describe("GET /agents and /agents/pending", () => {
  it("answers the list envelope with summaries; filters, search, sort and paging work", async () => {
    const node = await a.node("rack-01");
    const alpha = await a.agent({ name: "alpha", hostname: "alpha.lan", status: "active", hardware_id: node, online: true });
    const bravo = await a.agent({ name: null, hostname: "bravo.lan" });
    const charlie = await a.agent({ name: "charlie", hostname: "c.lan", status: "revoked" });

    const all = await (await a.req("GET", "agents", a.viewer)).json();
    expect(all).toMatchObject({ total: 3, limit: 25, offset: 0, sort: "name", direction: "asc" });
    // `name` sorts by the name, or the hostname when there is none.
    expect(all.items.map((x: { id: number }) => x.id)).toEqual([alpha, bravo, charlie]);
    expect(all.items[0]).toEqual({
      id: alpha,
      name: "alpha",
      hostname: "alpha.lan",
      status: "active",
      os: "linux",
      arch: "amd64",
      agent_version: "1.0.0",
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      hardware_id: node,
      hardware_name: "rack-01",
      reported_ip: null,
      last_seen_at: expect.any(String),
      online: true,
      enrolled_at: expect.any(String),
      // No builds are served here: nothing to offer, nothing queued.
      available_version: null,
      update: null,
    });
    expect(all.items[1]).toMatchObject({ online: false, hardware_name: null });

    const active = await (await a.req("GET", "agents?status=active", a.viewer)).json();
    expect(active.items.map((x: { id: number }) => x.id)).toEqual([alpha]);
    const byNode = await (await a.req("GET", `agents?hardware_id=${node}`, a.viewer)).json();
    expect(byNode.total).toBe(1);
    const searched = await (await a.req("GET", "agents?q=BRAVO", a.viewer)).json();
    expect(searched.items.map((x: { id: number }) => x.id)).toEqual([bravo]);
    const paged = await (await a.req("GET", "agents?sort=id&direction=desc&limit=1&offset=1", a.viewer)).json();
    expect(paged).toMatchObject({ total: 3, limit: 1, offset: 1, sort: "id", direction: "desc" });
    expect(paged.items.map((x: { id: number }) => x.id)).toEqual([bravo]);

    const pending = await (await a.req("GET", "agents/pending", a.viewer)).json();
    expect(pending.items.map((x: { id: number }) => x.id)).toEqual([bravo]);
    expect(pending.total).toBe(1);
  });

  it("refuses bad query values with 422 naming them", async () => {
    const res = await a.req("GET", "agents?status=gone&sort=colour&limit=x", a.viewer);
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields).sort()).toEqual(["limit", "sort", "status"]);
  });
});

describe("GET /agents/{id}", () => {
  it("answers AgentRead: grants merged with the defaults, the proposal with its name, the duplicate flag", async () => {
    const node = await a.node("db-host", { mac: "AA:BB:CC:00:11:22" });
    const id = await a.agent({
      hostname: "db-host-7",
      machine_id_hash: "m-shared",
      primary_macs: ["aa-bb-cc-00-11-22"],
      capabilities: { remote_probe: { enabled: false, config: { max_concurrent: 5 } } },
    });
    await a.agent({ hostname: "clone", machine_id_hash: "m-shared", status: "active" });
    const res = await a.req("GET", `agents/${id}`, a.viewer);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      id,
      status: "pending",
      tenant_id: null,
      proposed_hardware_id: node,
      proposed_hardware_name: "db-host",
      duplicate_machine_id: true,
      primary_macs: ["aa-bb-cc-00-11-22"],
      pending_update: null,
      capability_schema: 1,
    });
    expect(body.capabilities.remote_probe).toEqual({
      enabled: false,
      config: { ...CAPABILITY_DEFAULTS.remote_probe.config, max_concurrent: 5 },
    });
    expect(body.capabilities.host_telemetry).toEqual(CAPABILITY_DEFAULTS.host_telemetry);
    expect(body.device_pk).toMatch(/^[0-9a-f]{64}$/);
  });

  it("proposes by machine id first, then hostname; a stored proposal wins; a linked agent has none", async () => {
    const linked = await a.node("linked-node");
    const named = await a.node("Web-01");
    await a.agent({ status: "active", machine_id_hash: "m-web", hardware_id: linked });
    const byMachine = await a.agent({ hostname: "web-01", machine_id_hash: "m-web" });
    const byName = await a.agent({ hostname: "WEB-01" });
    const stored = await a.agent({ hostname: "web-01", proposed_hardware_id: linked });
    const get = async (id: number) => (await a.req("GET", `agents/${id}`, a.viewer)).json();
    expect((await get(byMachine)).proposed_hardware_id).toBe(linked);
    expect((await get(byName)).proposed_hardware_name).toBe("Web-01");
    expect((await get(stored)).proposed_hardware_id).toBe(linked);
    const already = await a.agent({ hostname: "web-01", hardware_id: named, status: "active" });
    expect((await get(already)).proposed_hardware_id).toBeNull();
  });

  it("404 names the agent; a non-numeric id is 422", async () => {
    const res = await a.req("GET", "agents/987654", a.viewer);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error_code: "RESOURCE_NOT_FOUND", detail: "Agent 987654 was not found." });
    expect((await a.req("GET", "agents/abc", a.viewer)).status).toBe(422);
  });
});

describe("GET /agents/{id}/events", () => {
  it("lists events newest first in the list envelope, narrowed by event_type", async () => {
    const id = await a.agent();
    const t0 = a.clock.now().getTime();
    for (const [i, type] of ["enrolled", "connected", "disconnected", "connected"].entries())
      await a.t
        .sql`insert into agent_events (agent_id, event_type, detail, created_at) values (${id}, ${type}, ${a.t.sql.json({ n: i })}, ${new Date(t0 + i * 1000)})`;
    const page = await (await a.req("GET", `agents/${id}/events?limit=2`, a.viewer)).json();
    expect(page).toMatchObject({ total: 4, limit: 2, offset: 0, sort: "created_at", direction: "desc" });
    expect(page.items.map((e: { detail: { n: number } }) => e.detail.n)).toEqual([3, 2]);
    expect(page.items[0]).toEqual({
      id: expect.any(Number),
      event_type: "connected",
      actor_user_id: null,
      detail: { n: 3 },
      created_at: expect.any(String),
    });
    const connected = await (await a.req("GET", `agents/${id}/events?event_type=connected`, a.viewer)).json();
    expect(connected.total).toBe(2);
    expect((await a.req("GET", "agents/555555/events", a.viewer)).status).toBe(404);
    expect((await a.req("GET", `agents/${id}/events?event_type=DROP%20TABLE`, a.viewer)).status).toBe(422);
  });
});

describe("GET /agents/capability-defaults", () => {
  it("answers the registry's defaults as {enabled, config}", async () => {
    const res = await a.req("GET", "agents/capability-defaults", a.viewer);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(CAPABILITY_DEFAULTS);
  });
});

describe("GET /agents/presence", () => {
  it("answers presence for the ids asked (repeated or comma-separated), [] for ids present but empty", async () => {
    const node = await a.node("presence-node", { ip: "10.0.0.5", mac: "00:11:22:33:44:55" });
    const on = await a.agent({ status: "active", online: true, hardware_id: node });
    const off = await a.agent({ status: "active" });
    await a.t.sql`insert into agent_latest_telemetry (agent_id, sample_id, collected_at, status, summary, payload)
      values (${on}, ${"ab".repeat(16)}, ${a.clock.now()}, 'healthy', ${a.t.sql.json({ cpu_pct: 12.5, mem_pct: 40, root_disk_pct: 70 })}, ${a.t.sql.json({ schema: 1 })})`;
    const both = await (await a.req("GET", `agents/presence?ids=${on}&ids=${off}`, a.viewer)).json();
    expect(both.map((p: { agent_id: number }) => p.agent_id)).toEqual([on, off]);
    expect(both[0]).toMatchObject({
      agent_id: on,
      online: true,
      hardware: { id: node, name: "presence-node", ip_address: "10.0.0.5", mac_address: "00:11:22:33:44:55" },
      latest: { cpu_pct: 12.5, mem_pct: 40, root_disk_pct: 70, net_rx_bps: null, uptime_s: null },
    });
    expect(both[1]).toMatchObject({ agent_id: off, online: false, hardware: null, latest: null });
    const comma = await (await a.req("GET", `agents/presence?ids=${off},${on}`, a.viewer)).json();
    expect(comma).toHaveLength(2);
    expect(await (await a.req("GET", "agents/presence?ids=", a.viewer)).json()).toEqual([]);
  });

  it("goes offline once the link is silent past the 60 s presence TTL", async () => {
    const id = await a.agent({ status: "active", online: true });
    const first = await (await a.req("GET", `agents/presence?ids=${id}`, a.viewer)).json();
    expect(first[0].online).toBe(true);
    a.clock.advance(61_000);
    const later = await (await a.req("GET", `agents/presence?ids=${id}`, a.viewer)).json();
    expect(later[0].online).toBe(false);
  });

  it("422 for ids that are not agent ids", async () => {
    const res = await a.req("GET", "agents/presence?ids=1,x", a.viewer);
    expect(res.status).toBe(422);
    expect((await res.json()).fields).toHaveProperty("ids");
  });
});

describe("security", () => {
  it("every read needs a credential", async () => {
    const id = await a.agent();
    for (const path of [
      "agents",
      "agents/pending",
      `agents/${id}`,
      `agents/${id}/events`,
      "agents/capability-defaults",
      "agents/presence",
    ]) {
      const res = await a.req("GET", path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("an API token without read:agents is refused", async () => {
    const res = await a.req("POST", "auth/api-token", a.admin, { label: "telemetry only", scopes: ["write:telemetry"] });
    const token = (await res.json()).token as string;
    expect((await a.req("GET", "agents", token)).status).toBe(403);
  });
});
