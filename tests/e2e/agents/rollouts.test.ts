// Staged fleet rollouts against the real product (npm start on its own PostgreSQL database) and real agent
// links: test peers (update-peer.ts) enroll, link and answer each `update` frame as the test tells them.
// A rollout goes wave by wave and completes; a failure at the threshold stops it before the next wave is
// sent; resume goes on; cancel skips what was not sent; and a product killed mid-rollout carries on where
// it was once it is started again, without sending any target's update twice.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testReleaseKey } from "../../helpers/release-key.ts";
import type { Product } from "../helpers.ts";
import { type Admin, serverKeyOf, startOn, tempDir, type TestDatabase, until, productFixture } from "./support.ts";
import { UpdatePeer } from "./update-peer.ts";

interface Target {
  agent_id: number;
  wave: number;
  state: string;
  error: string | null;
}
interface Rollout {
  id: number;
  state: string;
  version: string;
  current_wave: number;
  waves: number;
  stop_reason: string | null;
  counts: Record<string, number>;
  targets: Target[];
}

let db: TestDatabase;
let p: Product;
let admin: Admin;
let sql: postgres.Sql;
let serverKey = "";
const binaries = tempDir("rollout-binaries-");
const peers: UpdatePeer[] = [];
let signature = "";

const fixture = productFixture();

beforeAll(async () => {
  const releaseKey = testReleaseKey();
  for (const arch of ["amd64", "arm64"]) {
    mkdirSync(join(binaries.dir, "2.0.0", "linux", arch), { recursive: true });
    writeFileSync(join(binaries.dir, "2.0.0", "linux", arch, "svc-agent"), `agent 2.0.0 for ${arch}`);
    releaseKey.signBuild(binaries.dir, "2.0.0", "linux", arch);
  }
  releaseKey.publish(binaries.dir);
  signature = readFileSync(join(binaries.dir, "2.0.0", "linux", "amd64", "svc-agent.sig"), "utf8").trim();
  ({ db, sql, p, admin } = await fixture.start({ AGENT_BINARY_DIR: binaries.dir }));
  // Some 40 API calls within a minute or two: more than the normal profile's 30 a minute.
  await admin.call("PUT", "settings", { rate_limit_profile: "relaxed" });
  serverKey = await serverKeyOf(p);
}, 90_000);

afterAll(async () => {
  for (const peer of peers) peer.close();
  await fixture.stop();
  binaries.remove();
});

async function fleet(prefix: string, n: number, platform?: { os: string; arch: string }): Promise<UpdatePeer[]> {
  const out: UpdatePeer[] = [];
  for (let i = 1; i <= n; i++) {
    const peer = new UpdatePeer(`${prefix}-${i}`, "1.0.0", platform);
    peers.push(peer);
    await peer.enroll(p, serverKey, admin);
    await peer.link(p, serverKey);
    out.push(peer);
  }
  return out;
}

const read = (id: number) => admin.call<Rollout>("GET", `agents/rollouts/${id}`);
const stateOf = (r: Rollout, peer: UpdatePeer) => r.targets.find((t) => t.agent_id === peer.id)!;
/**
 * Waits on the database (the API's rate limit would count a poll's every read), then reads the rollout
 * once through the API and checks it there.
 */
async function waitFor(id: number, what: string, ok: (r: Rollout) => boolean, ms = 20_000): Promise<Rollout> {
  let last: unknown;
  await until(
    what,
    async () => {
      const [r] = await sql<{ state: string; current_wave: number }[]>`select state, current_wave from agent_rollouts where id = ${id}`;
      const targets = await sql<
        Target[]
      >`select agent_id, wave, state, error from agent_rollout_targets where rollout_id = ${id} order by wave, agent_id`;
      last = { ...r, targets };
      return ok(last as Rollout) ? true : undefined;
    },
    ms,
    () => JSON.stringify(last),
    50,
  );
  const r = await read(id);
  expect(ok(r)).toBe(true);
  return r;
}
const pendingUpdateOf = async (peer: UpdatePeer) =>
  (await sql<{ u: unknown }[]>`select pending_update as u from agents where id = ${peer.id}`)[0]!.u;

describe("fleet rollouts", () => {
  it("sends wave 1 (ceil 34% of 3 = 2 agents), then the rest once wave 1 is terminal, and completes", async () => {
    const [a1, a2, a3] = await fleet("wave", 3);
    const [foreign] = await fleet("wave-riscv", 1, { os: "linux", arch: "riscv64" });
    a2!.answer = "hold";
    const created = await admin.call<Rollout>("POST", "agents/rollouts", {
      version: "2.0.0",
      agent_ids: [a1!.id, a2!.id, a3!.id, foreign!.id],
      wave_percent: 34,
    });
    expect(created).toMatchObject({ state: "running", version: "2.0.0", current_wave: 1, waves: 2 });
    expect(created.targets.map((t) => [t.agent_id, t.wave, t.state])).toEqual([
      [foreign!.id, 0, "skipped"],
      [a1!.id, 1, "queued"],
      [a2!.id, 1, "queued"],
      [a3!.id, 2, "pending"],
    ]);
    expect(stateOf(created, foreign!).error).toBe("no build of 2.0.0 for linux/riscv64 on this instance");

    // a1 succeeds, a2 has started and says nothing more: wave 1 is not terminal, a3 waits.
    const midway = await waitFor(
      created.id,
      "a1 succeeded and a2 started",
      (r) => stateOf(r, a1!).state === "succeeded" && stateOf(r, a2!).state === "started",
    );
    expect(midway).toMatchObject({ state: "running", current_wave: 1 });
    expect(stateOf(midway, a3!).state).toBe("pending");
    expect(await admin.call("GET", `agents/${a2!.id}`)).toMatchObject({
      agent_version: "1.0.0",
      available_version: "2.0.0",
      update: { version: "2.0.0", state: "started", rollout_id: created.id, sent_at: expect.any(String) },
    });
    expect(a3!.updates).toEqual([]);
    expect(await pendingUpdateOf(a3!)).toBeNull();
    const frame = await a1!.updateFrame();
    expect(frame.payload).toEqual({
      version: "2.0.0",
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      signature,
      os: "linux",
      arch: "amd64",
    });

    a2!.finish("succeeded", "2.0.0");
    await a3!.updateFrame();
    const done = await waitFor(created.id, "the rollout to complete", (r) => r.state === "completed");
    expect(done.counts).toMatchObject({ succeeded: 3, skipped: 1, pending: 0, queued: 0, started: 0, failed: 0 });
    expect(done.current_wave).toBe(2);
    for (const peer of [a1!, a2!, a3!]) expect(peer.updates).toHaveLength(1);
    expect(foreign!.updates).toEqual([]);
    const list = await admin.call<{ items: Rollout[]; total: number }>("GET", "agents/rollouts?state=completed");
    expect(list.items.map((r) => r.id)).toContain(created.id);
  }, 90_000);

  it("stops when the first agent fails, never sends to the others, and resume goes on with the next wave", async () => {
    const [b1, b2, b3] = await fleet("fail", 3);
    b1!.answer = "failed";
    const created = await admin.call<Rollout>("POST", "agents/rollouts", { agent_ids: [b1!.id, b2!.id, b3!.id], wave_percent: 20 });
    expect(created.version).toBe("2.0.0");
    expect(created.targets.map((t) => t.wave)).toEqual([1, 2, 2]);
    const stopped = await waitFor(created.id, "the rollout to stop", (r) => r.state === "stopped");
    expect(stopped.stop_reason).toBe(`1 agent failed (threshold 1): agent ${b1!.id} (fail-1) failed: test peer told to answer failed`);
    expect(stopped.targets.map((t) => t.state)).toEqual(["failed", "pending", "pending"]);
    expect(b2!.updates).toEqual([]);
    expect(b3!.updates).toEqual([]);
    expect(await pendingUpdateOf(b2!)).toBeNull();
    // One rollout at a time: the stopped one must be resumed or cancelled first.
    await expect(admin.call("POST", "agents/rollouts", { agent_ids: [b2!.id] })).rejects.toThrow(/-> 409 .*Rollout \d+ is stopped/);

    const resumed = await admin.call<Rollout>("POST", `agents/rollouts/${created.id}/resume`);
    expect(resumed).toMatchObject({ state: "running", current_wave: 2, stop_reason: null });
    const done = await waitFor(created.id, "the resumed rollout to complete", (r) => r.state === "completed");
    expect(done.counts).toMatchObject({ failed: 1, succeeded: 2 });
    expect(b1!.updates).toHaveLength(1);
    expect(b2!.updates).toHaveLength(1);
    expect(b3!.updates).toHaveLength(1);
  }, 90_000);

  it("a single agent's update (POST /agents/{id}/update) reads queued or sent, then started once the agent says so, then is gone", async () => {
    const [one] = await fleet("single", 1);
    one!.answer = "hold";
    const agentPath = `agents/${one!.id}`;
    await admin.call("POST", `${agentPath}/update`, { version: "2.0.0" });
    await one!.updateFrame();
    await until("update_started stored", async () => ((await pendingUpdateOf(one!)) as { started_at?: string } | null)?.started_at);
    const during = await admin.call<{ update: { version: string; state: string; rollout_id: number | null } | null }>("GET", agentPath);
    expect(during.update).toMatchObject({ version: "2.0.0", state: "started", rollout_id: null });
    one!.finish("succeeded", "2.0.0");
    await until("the update settled", async () => ((await pendingUpdateOf(one!)) === null ? true : undefined));
    expect((await admin.call<{ update: unknown }>("GET", agentPath)).update).toBeNull();
  }, 90_000);

  it("cancel skips the pending targets; those already sent keep following their reports", async () => {
    const [c1, c2, c3] = await fleet("cancel", 3);
    c1!.answer = "hold";
    c2!.answer = "hold";
    const created = await admin.call<Rollout>("POST", "agents/rollouts", { agent_ids: [c1!.id, c2!.id, c3!.id], wave_percent: 34 });
    await waitFor(created.id, "wave 1 started", (r) => stateOf(r, c1!).state === "started" && stateOf(r, c2!).state === "started");
    const cancelled = await admin.call<Rollout>("POST", `agents/rollouts/${created.id}/cancel`);
    expect(cancelled.state).toBe("cancelled");
    expect(stateOf(cancelled, c3!)).toMatchObject({ state: "skipped", error: "rollout cancelled before its wave" });
    await expect(admin.call("POST", `agents/rollouts/${created.id}/cancel`)).rejects.toThrow(/-> 409 /);

    c1!.finish("succeeded", "2.0.0");
    c2!.finish("rolled_back", "2.0.0");
    const after = await waitFor(
      created.id,
      "c1 and c2 to report",
      (r) => stateOf(r, c1!).state === "succeeded" && stateOf(r, c2!).state === "rolled_back",
    );
    expect(after.state).toBe("cancelled");
    expect(c3!.updates).toEqual([]);
  }, 90_000);

  it("a product killed mid-rollout carries it on once started again, sending no target's update twice", async () => {
    const [d1, d2, d3] = await fleet("restart", 3);
    d2!.answer = "hold";
    const created = await admin.call<Rollout>("POST", "agents/rollouts", { agent_ids: [d1!.id, d2!.id, d3!.id], wave_percent: 34 });
    await waitFor(
      created.id,
      "d1 succeeded and d2 started",
      (r) => stateOf(r, d1!).state === "succeeded" && stateOf(r, d2!).state === "started",
    );
    // The send is recorded, so no link (this product's or the next one's) sends it again.
    await until(
      "d2's update marked sent",
      async () => ((await pendingUpdateOf(d2!)) as { sent_at?: string } | null)?.sent_at,
      15_000,
      () => "",
      100,
    );

    p.kill();
    await p.exited;
    p = await startOn(db, { AGENT_BINARY_DIR: binaries.dir, PORT: String(p.port) });
    for (const peer of [d1!, d2!, d3!]) await peer.link(p, serverKey);
    expect(d3!.updates).toEqual([]);

    // The held agent reports its outcome on its new link (as an agent does after its restart).
    d2!.finish("succeeded", "2.0.0");
    await d3!.updateFrame();
    const done = await waitFor(created.id, "the rollout to complete after the restart", (r) => r.state === "completed");
    expect(done.counts).toMatchObject({ succeeded: 3 });
    for (const peer of [d1!, d2!, d3!]) expect(peer.updates).toHaveLength(1);
  }, 120_000);
});
