// The server's Noise static key: made once on first use with its private half in the vault, the status
// and pending lists of a rotation, 409 while one runs, and the hourly job that ends it after the overlap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { linkServerKeys, ROTATION_OVERLAP_MS, settleServerKeyRotation } from "../../../shared/verbs/agents/server-key.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { keyPairOf } from "../../../shared/noise/index.ts";
import { type AgentActors, createAgentActors } from "./support.ts";

let a: AgentActors;
beforeAll(async () => {
  a = await createAgentActors();
});
afterAll(() => a.t.close());

const db = () => a.t.runtime.deps.database.lease().db;
const settle = () => settleServerKeyRotation({ ctx: systemContext({ db: db(), clock: a.clock, random: cryptoRandom }) });
const status = async () => (await a.req("GET", "agents/server-key/status", a.admin)).json();

describe("the server key", () => {
  it("is made once, with only a vault ciphertext stored, and answers the same key every time", async () => {
    const [first, second] = await Promise.all([status(), status()]);
    expect(first.public_key).toMatch(/^[0-9a-f]{64}$/);
    expect(second.public_key).toBe(first.public_key);
    expect(first).toMatchObject({
      active: false,
      successor: null,
      fleet: null,
      started_at: null,
      current_key_fingerprint: first.fingerprint,
    });
    const rows = await a.t.sql`select public_key, private_key, state from agent_server_keys`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.private_key).toMatch(/^vault:v1:/);
    const [key] = await linkServerKeys(db(), a.t.runtime.deps.vault, new Date());
    expect(Buffer.from(keyPairOf(key!.secretKey).publicKey).toString("hex")).toBe(first.public_key);
  });

  it("is administration: a viewer and an editor are refused", async () => {
    for (const who of [a.viewer, a.editor]) {
      expect((await a.req("GET", "agents/server-key/status", who)).status).toBe(403);
      expect((await a.req("POST", "agents/server-key/rotate", who)).status).toBe(403);
    }
  });

  it("rotates: a successor for seven days, the fleet counted, stragglers listed, a second rotation 409", async () => {
    const before = await status();
    const onOld = await a.agent({ status: "active", name: "old-key" });
    await a.agent({ status: "active", name: "never-seen" });
    await a.t.sql`update agents set server_key_id = (select id from agent_server_keys where state = 'current') where id = ${onOld}`;
    const control = await a.listen("agent_control");
    const res = await a.req("POST", "agents/server-key/rotate", a.admin);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      active: true,
      public_key: before.public_key,
      current_key_fingerprint: before.fingerprint,
      fleet: { total: 2, current: 1, successor: 0, unseen: 1 },
    });
    expect(body.successor_key_fingerprint).toBe(body.successor.fingerprint);
    expect(Date.parse(body.overlap_expires_at) - Date.parse(body.started_at)).toBe(ROTATION_OVERLAP_MS);
    const pending = await (await a.req("GET", "agents/server-key/pending", a.admin)).json();
    expect(pending.map((p: { bucket: string }) => p.bucket).sort()).toEqual(["current", "unseen"]);
    expect((await a.req("POST", "agents/server-key/rotate", a.admin)).status).toBe(409);
    const keys = await linkServerKeys(db(), a.t.runtime.deps.vault, new Date());
    expect(keys.map((k) => k.state)).toEqual(["current", "successor"]);
    await new Promise((r) => setTimeout(r, 100));
    expect(control.payloads).toContainEqual({ agent_id: null, action: "server_key" });
    await control.stop();
  });

  it("ends when the overlap has passed: the successor becomes current and the old key is retired", async () => {
    const during = await status();
    expect((await (await a.req("POST", "admin/jobs/server_key_rotation/run", a.admin)).json()).detail).toMatchObject({ promoted: false });
    a.clock.advance(ROTATION_OVERLAP_MS + 1000);
    expect(await settle()).toEqual({ promoted: true });
    expect(await settle()).toEqual({ promoted: false });
    a.clock.advance(-(ROTATION_OVERLAP_MS + 1000));
    const after = await status();
    expect(after).toMatchObject({ active: false, public_key: during.successor.public_key, successor: null });
    expect(await (await a.req("GET", "agents/server-key/pending", a.admin)).json()).toEqual([]);
    const states = await a.t.sql`select state from agent_server_keys order by id`;
    expect(states.map((r) => r.state)).toEqual(["retired", "current"]);
  });
});
