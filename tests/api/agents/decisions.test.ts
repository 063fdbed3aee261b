// POST /agents/{id}/approve | reject | revoke: the state machine, the hardware link, grants, the pairing
// code's end, events, audit, and the NOTIFYs the sidecar and the UI stream hear on commit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITY_DEFAULTS } from "../../../shared/domain/agents/capabilities.ts";
import { type AgentActors, createAgentActors, eventually } from "./support.ts";

let a: AgentActors;
beforeAll(async () => {
  a = await createAgentActors();
});
afterAll(async () => a.t.close());

const row = async (id: number) => (await a.t.sql`select * from agents where id = ${id}`)[0]!;
const events = async (id: number) =>
  (await a.t.sql`select event_type, detail, actor_user_id from agent_events where agent_id = ${id} order by id`).map((e) => ({ ...e }));
const audits = async (action: string, id: number) =>
  a.t.sql`select diff from audit_log where action = ${action} and entity_id = ${String(id)}`;

describe("approve", () => {
  it("activates a pending agent with the default grants, clears its code, records and announces it on commit", async () => {
    const id = await a.agent({ pairing_code: a.code() });
    const control = await a.listen("agent_control");
    const presence = await a.listen("agents");
    const res = await a.req("POST", `agents/${id}/approve`, a.admin);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ id, status: "active", hardware_id: null, capabilities: CAPABILITY_DEFAULTS });
    expect(body.approved_at).toBe(body.decided_at);
    const stored = await row(id);
    expect(stored).toMatchObject({ status: "active", pairing_code_hash: null, pairing_expires_at: null });
    expect(stored.capabilities).toEqual(CAPABILITY_DEFAULTS);
    expect(await events(id)).toEqual([
      { event_type: "approved", detail: { host_link_action: "unlinked", hardware_id: null }, actor_user_id: expect.any(Number) },
    ]);
    expect(await audits("agents.approve", id)).toHaveLength(1);
    await eventually(() => control.payloads.length > 0 && presence.payloads.length > 0);
    expect(control.payloads).toEqual([{ agent_id: id, action: "decided" }]);
    expect(presence.payloads).toEqual([{ agent_id: id, event_type: "approved", detail: { hardware_id: null } }]);
    await control.stop();
    await presence.stop();
  });

  it("select links the given node; accept links the proposal; create makes a node from the agent's report", async () => {
    const node = await a.node("picked");
    const selected = await a.agent();
    expect(await (await a.req("POST", `agents/${selected}/approve`, a.admin, { hardware_id: node })).json()).toMatchObject({
      hardware_id: node,
      hardware_name: "picked",
    });

    const proposedNode = await a.node("srv-proposed");
    const proposed = await a.agent({ hostname: "srv-proposed" });
    const accepted = await (await a.req("POST", `agents/${proposed}/approve`, a.admin, { host_link_action: "accept" })).json();
    expect(accepted.hardware_id).toBe(proposedNode);

    const fresh = await a.agent({ hostname: "brand-new-host", reported_ip: "192.0.2.44", primary_macs: ["02:00:00:aa:bb:cc"] });
    const inventory = await a.listen("inventory");
    const created = await (await a.req("POST", `agents/${fresh}/approve`, a.admin, { host_link_action: "create" })).json();
    const [hw] = await a.t.sql`select name, ip_address, mac_address from hardware where id = ${created.hardware_id}`;
    expect(hw).toEqual({ name: "brand-new-host", ip_address: "192.0.2.44", mac_address: "02:00:00:aa:bb:cc" });
    expect(await audits("hardware.create", created.hardware_id)).toHaveLength(1);
    await eventually(() => inventory.payloads.length > 0);
    expect(inventory.payloads).toEqual([{ entity: "hardware", action: "create", id: created.hardware_id }]);
    await inventory.stop();
  });

  it("grant overrides apply over the defaults; a bad grant is 422 naming the key and changes nothing", async () => {
    const id = await a.agent();
    const res = await a.req("POST", `agents/${id}/approve`, a.admin, {
      capabilities: { local_discovery: false, remote_probe: { config: { max_concurrent: 3 } } },
    });
    const body = await res.json();
    expect(body.capabilities.local_discovery.enabled).toBe(false);
    expect(body.capabilities.remote_probe).toEqual({
      enabled: true,
      config: { ...CAPABILITY_DEFAULTS.remote_probe.config, max_concurrent: 3 },
    });

    const other = await a.agent();
    const bad = await a.req("POST", `agents/${other}/approve`, a.admin, {
      capabilities: { remote_probe: { config: { max_concurrent: 0, colour: 1 } }, teleport: true },
    });
    expect(bad.status).toBe(422);
    const fields = Object.keys((await bad.json()).fields).sort();
    expect(fields).toEqual([
      "capabilities.remote_probe.config.colour",
      "capabilities.remote_probe.config.max_concurrent",
      "capabilities.teleport",
    ]);
    expect((await row(other)).status).toBe("pending");
    expect(await events(other)).toEqual([]);
  });

  it("refuses: 409 unless pending, 422 for a link that does not add up, 404 for a missing node, with nothing changed", async () => {
    const active = await a.agent({ status: "active" });
    const conflict = await a.req("POST", `agents/${active}/approve`, a.admin);
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).detail).toBe(`Agent ${active} is active: only a pending agent can be approved.`);

    const id = await a.agent({ hostname: "nothing-matches-this" });
    const cases: [unknown, number, string?][] = [
      [{ host_link_action: "accept" }, 422, "host_link_action"],
      [{ host_link_action: "select" }, 422, "hardware_id"],
      [{ host_link_action: "create", hardware_id: 1 }, 422, "hardware_id"],
      [{ host_link_action: "teleport" }, 422, "host_link_action"],
      [{ hardware_id: 999_999 }, 404],
      [{ colour: "red" }, 422, "colour"],
    ];
    for (const [body, status, field] of cases) {
      const res = await a.req("POST", `agents/${id}/approve`, a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (field) expect((await res.json()).fields, JSON.stringify(body)).toHaveProperty(field);
    }
    expect((await row(id)).status).toBe("pending");
    expect(await a.t.sql`select 1 from hardware where name = 'nothing-matches-this'`).toHaveLength(0);
  });
});

describe("reject", () => {
  it("rejects a pending agent for good; the enroll socket hears 'decided'", async () => {
    const id = await a.agent({ pairing_code: a.code() });
    const control = await a.listen("agent_control");
    const presence = await a.listen("agents");
    const res = await a.req("POST", `agents/${id}/reject`, a.admin);
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe("rejected");
    expect(await row(id)).toMatchObject({ status: "rejected", pairing_code_hash: null });
    await eventually(() => control.payloads.length > 0 && presence.payloads.length > 0);
    expect(control.payloads).toEqual([{ agent_id: id, action: "decided" }]);
    expect(presence.payloads).toEqual([{ agent_id: id, event_type: "rejected", detail: null }]);
    expect((await a.req("POST", `agents/${id}/reject`, a.admin)).status).toBe(409);
    expect((await a.req("POST", `agents/${id}/approve`, a.admin)).status).toBe(409);
    await control.stop();
    await presence.stop();
  });
});

describe("revoke", () => {
  it("needs a reason of 3+ non-blank characters", async () => {
    const id = await a.agent({ status: "active" });
    for (const body of [{}, { reason: "  x " }, { reason: 12 }]) {
      const res = await a.req("POST", `agents/${id}/revoke`, a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = await res.json();
      expect(err.fields.reason).toBe("A revoke reason is required");
    }
    expect((await row(id)).status).toBe("active");
  });

  it("revokes, cancels open probe runs, cuts the link and announces it", async () => {
    const id = await a.agent({ status: "active", online: true });
    const now = a.clock.now();
    const later = new Date(now.getTime() + 60_000);
    const runs: [string, string][] = [
      ["a".repeat(32), "queued"],
      ["b".repeat(32), "dispatched"],
      ["c".repeat(32), "completed"],
    ];
    for (const [runId, state] of runs)
      await a.t
        .sql`insert into agent_probe_runs (run_id, agent_id, check_type, host, state, scheduled_at, deadline_at) values (${runId}, ${id}, 'icmp', '10.0.0.1', ${state}, ${now}, ${later})`;
    const control = await a.listen("agent_control");
    const presence = await a.listen("agents");
    const res = await a.req("POST", `agents/${id}/revoke`, a.admin, { reason: "host decommissioned" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "revoked", revoke_reason: "host decommissioned", online: false });
    const after = await a.t.sql`select run_id, state from agent_probe_runs where agent_id = ${id} order by run_id`;
    expect(after.map((r) => r.state)).toEqual(["cancelled", "cancelled", "completed"]);
    expect(await events(id)).toEqual([
      { event_type: "revoked", detail: { reason: "host decommissioned", cancelled_runs: 2 }, actor_user_id: expect.any(Number) },
    ]);
    await eventually(() => control.payloads.length > 0 && presence.payloads.length > 0);
    expect(control.payloads).toEqual([{ agent_id: id, action: "revoked" }]);
    expect(presence.payloads).toEqual([{ agent_id: id, event_type: "revoked", detail: { reason: "host decommissioned" } }]);
    expect((await a.req("POST", `agents/${id}/revoke`, a.admin, { reason: "again please" })).status).toBe(409);
    await control.stop();
    await presence.stop();
  });

  it("revokes a pending agent too; a rejected one cannot be revoked", async () => {
    const pending = await a.agent({ pairing_code: a.code() });
    const control = await a.listen("agent_control");
    expect((await a.req("POST", `agents/${pending}/revoke`, a.admin, { reason: "not ours" })).status).toBe(200);
    expect((await row(pending)).pairing_code_hash).toBeNull();
    // Its enroll socket listens for decisions: it hears this one too.
    await eventually(() => control.payloads.length >= 2);
    expect(control.payloads).toEqual([
      { agent_id: pending, action: "revoked" },
      { agent_id: pending, action: "decided" },
    ]);
    await control.stop();
    const rejected = await a.agent({ status: "rejected" });
    expect((await a.req("POST", `agents/${rejected}/revoke`, a.admin, { reason: "not ours" })).status).toBe(409);
    expect((await a.req("POST", "agents/424242/revoke", a.admin, { reason: "not ours" })).status).toBe(404);
  });
});

describe("security", () => {
  it("decisions are for administrators: 401 anonymous, 403 viewer and editor, nothing changed", async () => {
    const id = await a.agent();
    for (const [path, body] of [
      [`agents/${id}/approve`, {}],
      [`agents/${id}/reject`, undefined],
      [`agents/${id}/revoke`, { reason: "because" }],
    ] as const) {
      expect((await a.req("POST", path, undefined, body)).status, path).toBe(401);
      for (const token of [a.viewer, a.editor]) {
        const res = await a.req("POST", path, token, body);
        expect(res.status, path).toBe(403);
        expect((await res.json()).error_code).toBe("PERMISSION_DENIED");
      }
    }
    expect((await row(id)).status).toBe("pending");
    expect(await events(id)).toEqual([]);
  });
});
