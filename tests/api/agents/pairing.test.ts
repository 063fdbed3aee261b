// POST /agents/pairing/lookup: a match consumes the code; wrong codes are limited per client and overall.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json } from "../../helpers/app.ts";
import { type AgentActors, createAgentActors } from "./support.ts";

let a: AgentActors;
beforeAll(async () => {
  a = await createAgentActors();
});
afterAll(async () => a.t.close());

/** A lookup from a fixed client address (the shared helper gives every request a new one). */
const lookupFrom = (peer: string, code: unknown) =>
  a.t.app.request("/api/v1/agents/pairing/lookup", {
    method: "POST",
    ...json({ code }, { authorization: `Bearer ${a.admin}`, "x-test-peer": peer }),
  });

describe("happy", () => {
  it("finds the pending agent showing the code, however it is typed, and consumes the code", async () => {
    const node = await a.node("pair-host");
    const code = a.code();
    const id = await a.agent({ hostname: "pair-host", pairing_code: code, os: "linux", arch: "arm64" });
    const typed = ` ${code.toLowerCase().replace(/-/g, " ")} `;
    const res = await a.req("POST", "agents/pairing/lookup", a.admin, { code: typed });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      agent_id: id,
      hostname: "pair-host",
      os: "linux",
      arch: "arm64",
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      proposed_hardware_id: node,
      proposed_hardware_name: "pair-host",
      duplicate_machine_id: false,
    });
    const [row] = await a.t.sql`select pairing_code_hash, pairing_expires_at, status from agents where id = ${id}`;
    expect(row).toEqual({ pairing_code_hash: null, pairing_expires_at: null, status: "pending" });
    const [audit] = await a.t.sql`select diff from audit_log where action = 'agents.pairing_lookup' and entity_id = ${String(id)}`;
    expect(audit!.diff).toMatchObject({ consumed: true });
    expect(JSON.stringify(audit!.diff)).not.toContain(code);

    const second = await a.req("POST", "agents/pairing/lookup", a.admin, { code });
    expect(second.status).toBe(404);
    expect(await second.json()).toEqual({ error_code: "RESOURCE_NOT_FOUND", detail: "Unknown or expired pairing code" });
  });
});

describe("errors", () => {
  it("an expired code, a decided agent's code and garbage are all 404; a missing code is 422", async () => {
    const expired = a.code();
    await a.agent({ pairing_code: expired });
    a.clock.advance(15 * 60_000 + 1000);
    expect((await a.req("POST", "agents/pairing/lookup", a.admin, { code: expired })).status).toBe(404);
    const activeCode = a.code();
    await a.agent({ pairing_code: activeCode, status: "active" });
    expect((await a.req("POST", "agents/pairing/lookup", a.admin, { code: activeCode })).status).toBe(404);
    expect((await a.req("POST", "agents/pairing/lookup", a.admin, { code: "not a code at all" })).status).toBe(404);
    const missing = await a.req("POST", "agents/pairing/lookup", a.admin, {});
    expect(missing.status).toBe(422);
    expect((await missing.json()).fields).toHaveProperty("code");
  });
});

describe("miss limiter", () => {
  it("ten wrong codes from one client, then 429 with retry_after; other clients are unaffected", async () => {
    for (let i = 0; i < 10; i++) expect((await lookupFrom("10.77.0.1", a.code())).status, `miss ${i + 1}`).toBe(404);
    const limited = await lookupFrom("10.77.0.1", a.code());
    expect(limited.status).toBe(429);
    const body = await limited.json();
    expect(body).toMatchObject({ error_code: "RATE_LIMITED", retry_after: expect.any(Number) });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(limited.headers.get("retry-after")).toBe(String(body.retry_after));
    expect((await lookupFrom("10.77.0.2", a.code())).status).toBe(404);
  });

  it("a correct code still pairs while wrong ones are limited (only misses count)", async () => {
    for (let i = 0; i < 11; i++) await lookupFrom("10.78.0.1", a.code());
    expect((await lookupFrom("10.78.0.1", a.code())).status).toBe(429);
    const code = a.code();
    const id = await a.agent({ pairing_code: code });
    const res = await lookupFrom("10.78.0.1", code);
    expect(res.status).toBe(200);
    expect((await res.json()).agent_id).toBe(id);
  });

  it("fifty wrong codes overall, from any clients, then 429 for everyone", async () => {
    // A database of its own: the other tests' misses count against the overall budget too.
    const fresh = await createAgentActors();
    try {
      const from = (peer: string) =>
        fresh.t.app.request("/api/v1/agents/pairing/lookup", {
          method: "POST",
          ...json({ code: fresh.code() }, { authorization: `Bearer ${fresh.admin}`, "x-test-peer": peer }),
        });
      for (let i = 0; i < 50; i++) expect((await from(`10.79.0.${i + 1}`)).status, `miss ${i + 1}`).toBe(404);
      const res = await from("10.80.0.1");
      expect(res.status).toBe(429);
      expect((await res.json()).error_code).toBe("RATE_LIMITED");
    } finally {
      await fresh.t.close();
    }
  });
});

describe("security", () => {
  it("administrators only: 401 anonymous, 403 viewer and editor, and the code survives", async () => {
    const code = a.code();
    const id = await a.agent({ pairing_code: code });
    expect((await a.req("POST", "agents/pairing/lookup", undefined, { code })).status).toBe(401);
    for (const token of [a.viewer, a.editor]) expect((await a.req("POST", "agents/pairing/lookup", token, { code })).status).toBe(403);
    expect((await a.t.sql`select pairing_code_hash from agents where id = ${id}`)[0]!.pairing_code_hash).not.toBeNull();
  });
});
