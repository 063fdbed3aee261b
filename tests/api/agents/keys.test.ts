// The device key rotation request and the TLS pin routes through the app (issue 35 item 5): scopes,
// the request's refusals and its agent_control notice, and a pin rotation stored, audited, announced,
// superseded by the next one and counted per agent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentActors, createAgentActors } from "./support.ts";

let a: AgentActors;
beforeAll(async () => {
  a = await createAgentActors();
});
afterAll(() => a.t.close());

const PIN_A = Buffer.alloc(32, 1).toString("base64");
const PIN_B = Buffer.alloc(32, 2).toString("base64");

describe("POST /agents/{id}/rotate-device-key", () => {
  it("is administration: no credential 401, a viewer and an editor 403", async () => {
    const id = await a.agent({ status: "active", online: true });
    expect((await a.req("POST", `agents/${id}/rotate-device-key`)).status).toBe(401);
    for (const who of [a.viewer, a.editor]) expect((await a.req("POST", `agents/${id}/rotate-device-key`, who)).status).toBe(403);
  });

  it("asks a linked agent (202, audited, the sidecar told); 409 for one not linked or not active; 404 for none", async () => {
    const linked = await a.agent({ status: "active", online: true });
    const control = await a.listen("agent_control");
    const res = await a.req("POST", `agents/${linked}/rotate-device-key`, a.admin);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ agent_id: linked, status: "requested" });
    await new Promise((r) => setTimeout(r, 100));
    expect(control.payloads).toContainEqual({ agent_id: linked, action: "device_key" });
    await control.stop();
    const audit = await a.t.sql`select entity_id from audit_log where action = 'agents.device_key_rotation_requested'`;
    expect(audit.map((r) => Number(r.entity_id))).toEqual([linked]);

    const offline = await a.agent({ status: "active" });
    const pending = await a.agent({ status: "pending" });
    for (const id of [offline, pending]) expect((await a.req("POST", `agents/${id}/rotate-device-key`, a.admin)).status).toBe(409);
    expect((await a.req("POST", "agents/99999/rotate-device-key", a.admin)).status).toBe(404);
  });
});

describe("/agents/tls-pin", () => {
  it("is administration", async () => {
    for (const who of [a.viewer, a.editor]) {
      expect((await a.req("GET", "agents/tls-pin/status", who)).status).toBe(403);
      expect((await a.req("POST", "agents/tls-pin/rotate", who, { successor_pin: PIN_A })).status).toBe(403);
    }
  });

  it("a rotation is stored, audited and announced; the next supersedes it; agents holding the pin count as acknowledged", async () => {
    const control = await a.listen("agent_control");
    const first = await a.req("POST", "agents/tls-pin/rotate", a.admin, { successor_pin: PIN_A });
    expect(first.status).toBe(201);
    const body = await first.json();
    expect(body.rotation).toMatchObject({ successor_pin: PIN_A, mode: "self_signed", certificate_id: null });
    expect(Date.parse(body.rotation.expiry) - Date.parse(body.rotation.started_at)).toBe(7 * 86_400_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(control.payloads).toContainEqual({ agent_id: null, action: "tls_pin" });
    await control.stop();

    const second = await a.req("POST", "agents/tls-pin/rotate", a.admin, { successor_pin: PIN_B, mode: "public" });
    expect(second.status).toBe(201);
    expect(await a.t.sql`select successor_pin, state from agent_tls_pin_rotations order by id`).toEqual([
      { successor_pin: PIN_A, state: "superseded" },
      { successor_pin: PIN_B, state: "active" },
    ]);
    const holder = await a.agent({ status: "active" });
    await a.t.sql`update agents set tls_pins = ${JSON.stringify([PIN_A, PIN_B])}::jsonb, tls_pin_kind = 'self_signed' where id = ${holder}`;
    const status = await (await a.req("GET", "agents/tls-pin/status", a.admin)).json();
    expect(status.rotation).toMatchObject({ successor_pin: PIN_B, mode: "public" });
    expect(status.agents.find((x: { id: number }) => x.id === holder)).toMatchObject({ acknowledged: true, tls_pin_kind: "self_signed" });
    expect(status.fleet.acknowledged).toBe(1);
    expect(status.fleet.pending).toBe(status.fleet.total - 1);
    const audit = await a.t.sql`select count(*)::int as n from audit_log where action = 'agents.tls_pin_rotate'`;
    expect(audit[0]!.n).toBe(2);
  });
});
