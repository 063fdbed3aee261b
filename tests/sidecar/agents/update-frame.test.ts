// The `update` frame the sidecar sends for an agent's queued update (sidecar/agents/outbound.ts): it
// carries the build's signature, it is sent once (its sent_at recorded, not sent again on the next
// link), and a build for another os/arch than the agent's hello reported is never sent: the sidecar
// records update_failed (reported_by server) and withdraws the update. The queued update is written the
// way POST /agents/{id}/update and the rollouts write it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveAgent } from "../../../shared/verbs/agents/approve-agent.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { type Sidecar, serverPublicKey, sqlClient, startSidecar, until } from "./harness.ts";
import { RawAgent } from "./raw-client.ts";

let tdb: TestDatabase;
let s: Sidecar;
let sql: ReturnType<typeof sqlClient>;
let serverPk = "";
const agents: RawAgent[] = [];
const SHA = "ab".repeat(32);

const raw = (path: "enroll" | "link", key?: RawAgent["key"]) => {
  const agent = new RawAgent(`${s.ws}/api/v1/agents/${path}`, key);
  agents.push(agent);
  return agent;
};

async function linkedAgent(key?: RawAgent["key"]): Promise<{ key: RawAgent["key"]; id: number; link: RawAgent }> {
  let id = 0;
  if (!key) {
    const e = raw("enroll");
    await e.handshake(serverPk);
    e.hello();
    id = (await e.next("hello.ack")).payload.agent_id as number;
    await approveAgent({ ctx: s.ctx, input: { id } });
    await e.closed;
    key = e.key;
  }
  const link = raw("link", key);
  await link.handshake(serverPk);
  link.hello();
  id = (await link.next("hello.ack")).payload.agent_id as number;
  return { key, id, link };
}

const queue = (id: number, arch: string) =>
  sql`update agents set pending_update = ${sql.json({ version: "2.0.0", sha256: SHA, signature: "c2lnbmF0dXJl", os: "linux", arch, queued_at: new Date().toISOString() })}
      where id = ${id}`;
const pendingOf = async (id: number) =>
  (await sql<{ u: Record<string, unknown> | null }[]>`select pending_update as u from agents where id = ${id}`)[0]!.u;

beforeAll(async () => {
  tdb = await createTestDatabase();
  s = await startSidecar(tdb.url, { instanceId: "sidecar-update" });
  sql = sqlClient(tdb.url);
  serverPk = await serverPublicKey(s);
}, 30_000);

afterAll(async () => {
  for (const x of agents) x.close();
  await sql?.end({ timeout: 1 });
  await s?.stop();
  await tdb?.drop();
});

describe("the update frame", () => {
  it("carries the signature on link, is recorded as sent, and is not sent again on the next link", async () => {
    const first = await linkedAgent();
    first.link.close();
    await queue(first.id, "amd64");
    const second = await linkedAgent(first.key);
    const frame = await second.link.next("update");
    expect(frame.payload).toEqual({ version: "2.0.0", sha256: SHA, signature: "c2lnbmF0dXJl", os: "linux", arch: "amd64" });
    await until(async () => (await pendingOf(first.id))?.sent_at);
    second.link.close();

    const third = await linkedAgent(first.key);
    // The agent's next frame is answered with a ping after it: had an update been sent, it came before.
    third.link.frame("heartbeat", { spool_depth: 0 });
    await third.link.next("ping");
    expect(third.link.frames.map((f) => f.type)).not.toContain("update");
    expect(await pendingOf(first.id)).toMatchObject({ version: "2.0.0" });
  });

  it("is never sent for another os/arch than the agent's: update_failed, and the update withdrawn", async () => {
    const { key, id, link } = await linkedAgent();
    link.close();
    await queue(id, "arm64");
    const again = await linkedAgent(key);
    await until(async () => (await pendingOf(id)) === null || undefined);
    const [event] = await sql<{ detail: Record<string, unknown> }[]>`
      select detail from agent_events where agent_id = ${id} and event_type = 'update_failed'`;
    expect(event!.detail).toEqual({
      version: "2.0.0",
      error: "not sent: the build is for linux/arm64, the agent runs linux/amd64",
      reported_by: "server",
    });
    expect(again.link.frames.map((f) => f.type)).not.toContain("update");
  });
});
