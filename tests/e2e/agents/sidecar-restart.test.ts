// A sidecar killed with SIGKILL while agents are linked loses no telemetry it acknowledged: two reference
// agents (in-process, sampling every 300 ms) link, the product is SIGKILLed mid-stream and started again
// on the same database and port; the agents reconnect by themselves, every sample acknowledged before the
// kill is in agent_host_samples, and once their spools drain every sample they ever took is there once.
// The agents rekey their sending side every 200 ms here (15 minutes in production), so the stream also
// shows the sidecar following transport.rekey.
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../helpers.ts";
import {
  type Admin,
  type RunningAgent,
  runAgent,
  serverKeyOf,
  startOn,
  TEST_GRANTS,
  type TestDatabase,
  until,
  productFixture,
} from "./support.ts";

let db: TestDatabase;
let p: Product;
let admin: Admin;
let sql: postgres.Sql;

const fixture = productFixture();

beforeAll(async () => {
  ({ db, sql, p, admin } = await fixture.start());
}, 90_000);

afterAll(() => fixture.stop());

async function enrolled(serverKey: string, name: string): Promise<{ a: RunningAgent; id: number }> {
  const a = runAgent({ serverUrl: p.url, serverKey, name, telemetryIntervalMs: 300, rekeyMs: 200, backoff: { maxMs: 3000 } });
  const code = await until("a pairing code", () => {
    const e = a.events.find((x) => x.type === "pairing_code");
    return e?.type === "pairing_code" ? e.code : undefined;
  });
  const id = code.agent_id!;
  await admin.call("POST", `agents/${id}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS });
  await until("the link", () => (a.linkedCount() > 0 ? true : undefined));
  return { a, id };
}

async function storedSamples(agentId: number): Promise<Map<string, number>> {
  const rows = await sql<
    { sample_id: string; n: number }[]
  >`select sample_id, count(*)::int as n from agent_host_samples where agent_id = ${agentId} group by sample_id`;
  return new Map(rows.map((r) => [r.sample_id, r.n]));
}

describe("a sidecar killed while agents are linked", () => {
  it("loses no acknowledged telemetry, and the agents come back by themselves", async () => {
    const key = await serverKeyOf(p);
    const fleet = [await enrolled(key, "restart-a"), await enrolled(key, "restart-b")];
    await until("a few acknowledged samples each", () => (fleet.every(({ a }) => a.acked.size >= 3) ? true : undefined), 20_000);
    // One link each so far: the rekeys (several by now) kept both directions in step.
    expect(fleet.map(({ a }) => a.linkedCount())).toEqual([1, 1]);
    expect(fleet.every(({ a }) => !a.events.some((e) => e.type === "link_lost"))).toBe(true);

    p.kill();
    await p.exited;
    // Nothing more can be acknowledged now: this is what the killed sidecar promised.
    const ackedBeforeKill = fleet.map(({ a }) => new Set(a.acked));
    for (const [i, { id }] of fleet.entries()) {
      const stored = await storedSamples(id);
      const missing = [...ackedBeforeKill[i]!].filter((s) => !stored.has(s));
      expect(missing, `agent ${id}: acknowledged but not stored`).toEqual([]);
    }
    // While the sidecar is down the agents keep sampling into their spools.
    const spooled = fleet.map(({ a }) => a.produced.size);
    await until(
      "samples taken during the outage",
      () => (fleet.every(({ a }, i) => a.produced.size > spooled[i]! + 1) ? true : undefined),
      10_000,
    );

    p = await startOn(db, { PORT: String(p.port) });
    await until("both agents linked again", () => (fleet.every(({ a }) => a.linkedCount() >= 2) ? true : undefined), 30_000);
    for (const { a, id } of fleet) {
      const taken = new Set(a.produced);
      await until(
        `agent ${id}'s spool to drain`,
        async () => {
          const stored = await storedSamples(id);
          return [...taken].every((s) => stored.has(s)) ? stored : undefined;
        },
        30_000,
      );
      const stored = await storedSamples(id);
      expect([...stored.values()].every((n) => n === 1)).toBe(true);
    }
    for (const { a } of fleet) expect((await a.stop()).reason).toBe("stopped");
  }, 120_000);
});
