// Fleet rollouts through the API on a real database (the links are the e2e suite's, tests/e2e/agents/
// rollouts.test.ts): every bad input refused with a clear error and nothing created; what a rollout is
// made of (waves, skipped targets, the queued updates with their signature); GET /agents' update fields;
// ETag and If-Match; one rollout at a time; administrators only; and the sweep's wave timeout, which
// stops the rollout at its threshold and withdraws the update, and its success for an agent that linked
// on the new version.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { sweepRollouts } from "../../../shared/verbs/agents/rollouts/sweep.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { testReleaseKey } from "../../helpers/release-key.ts";
import { type AgentActors, createAgentActors, eventually } from "./support.ts";

let a: AgentActors;
let dir: string;
const releaseKey = testReleaseKey();
const signatures: Record<string, string> = {};

function build(version: string, arch: string, signed = true): void {
  mkdirSync(join(dir, version, "linux", arch), { recursive: true });
  writeFileSync(join(dir, version, "linux", arch, "svc-agent"), `agent ${version} ${arch}`);
  if (signed) signatures[`${version}/${arch}`] = releaseKey.signBuild(dir, version, "linux", arch);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rollout-builds-"));
  build("1.5.0", "amd64");
  build("2.0.0", "amd64");
  build("2.0.0", "arm64");
  build("3.0.0", "amd64", false);
  releaseKey.publish(dir);
  a = await createAgentActors({ AGENT_BINARY_DIR: dir });
});
afterAll(async () => {
  await a.t.close();
  rmSync(dir, { recursive: true, force: true });
});

const create = (body: unknown, token = a.admin) => a.req("POST", "agents/rollouts", token, body);
const created = async () => (await a.t.sql<{ n: number }[]>`select count(*)::int as n from agent_rollouts`)[0]!.n;
const queued = async () => (await a.t.sql<{ n: number }[]>`select count(*)::int as n from agents where pending_update is not null`)[0]!.n;
const sweep = () => sweepRollouts({ ctx: systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: cryptoRandom }) });

async function refused(body: unknown, status: number, detail: RegExp): Promise<void> {
  const res = await create(body);
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(text).toMatch(detail);
}

describe("POST /agents/rollouts: bad input", () => {
  it("refuses with a clear error and creates nothing", async () => {
    await refused({}, 422, /No active agent runs a version other than 2\.0\.0: nothing to update/);
    const old = await a.agent({ status: "active", agent_version: "1.0.0" });
    const pending = await a.agent({ status: "pending" });
    const riscv = await a.agent({ status: "active", arch: "riscv64" });
    await refused({ version: "9.9.9" }, 422, /No agent build of version 9\.9\.9 on this instance; signed versions: 2\.0\.0, 1\.5\.0/);
    await refused({ version: "3.0.0" }, 422, /No build of version 3\.0\.0 is signed/);
    await refused({ agent_ids: [old, 999_999] }, 422, /No agent with id 999999\./);
    await refused({ agent_ids: [old, pending] }, 422, new RegExp(`Only active agents can be updated: agent ${pending} is pending`));
    await refused(
      { agent_ids: [riscv] },
      422,
      new RegExp(`Nothing to update to 2\\.0\\.0: agent ${riscv} no build of 2\\.0\\.0 for linux/riscv64`),
    );
    await refused({ agent_ids: [] }, 422, /Give at least one agent id/);
    await refused({ wave_percent: 0 }, 422, /Must be at least 1/);
    await refused({ wave_percent: 101 }, 422, /Must be at most 100/);
    await refused({ failure_threshold: 0 }, 422, /Must be at least 1/);
    await refused({ wave_timeout_seconds: 1.5 }, 422, /Must be a whole number/);
    await refused({ agents: [old] }, 422, /Unknown field \\"agents\\"/);

    const pub = join(dir, "release-key.pub");
    renameSync(pub, `${pub}.away`);
    try {
      await refused({ agent_ids: [old] }, 400, /^.*No agent release key is configured on this instance/);
    } finally {
      renameSync(`${pub}.away`, pub);
    }
    const source = a.t.runtime.deps.agentBinaries;
    delete a.t.runtime.deps.agentBinaries;
    try {
      await refused({ agent_ids: [old] }, 400, /No agent binaries available on this instance/);
    } finally {
      a.t.runtime.deps.agentBinaries = source;
    }
    expect(await created()).toBe(0);
    expect(await queued()).toBe(0);
    await a.t.sql`delete from agents`;
  });

  it("administrators only", async () => {
    expect((await a.req("POST", "agents/rollouts")).status).toBe(401);
    for (const token of [a.viewer, a.editor]) expect((await create({}, token)).status).toBe(403);
    expect((await a.req("GET", "agents/rollouts", a.viewer)).status).toBe(200);
  });
});

describe("a rollout", () => {
  let ids: number[] = [];
  let current = 0;
  let rolloutId = 0;

  it("skips agents already on the version or without a build, and queues ceil(wave_percent%) of the rest with their own platform's signed build", async () => {
    const control = await a.listen("agent_control");
    ids = [
      await a.agent({ status: "active", hostname: "h1", agent_version: "1.0.0" }),
      await a.agent({ status: "active", hostname: "h2", agent_version: "1.5.0", arch: "arm64" }),
      await a.agent({ status: "active", hostname: "h3", agent_version: "1.0.0" }),
      await a.agent({ status: "active", hostname: "h4", agent_version: "1.0.0" }),
      await a.agent({ status: "active", hostname: "h5", agent_version: "1.0.0" }),
    ];
    current = await a.agent({ status: "active", hostname: "current", agent_version: "2.0.0" });
    const riscv = await a.agent({ status: "active", hostname: "riscv", arch: "riscv64" });
    const res = await create({ agent_ids: [...ids, current, riscv], wave_percent: 40, failure_threshold: 1, wave_timeout_seconds: 60 });
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toMatch(/^W\/"\d+"$/);
    const body = await res.json();
    rolloutId = body.id;
    expect(body).toMatchObject({
      state: "running",
      version: "2.0.0",
      wave_percent: 40,
      failure_threshold: 1,
      wave_timeout_seconds: 60,
      current_wave: 1,
      waves: 2,
      failures_acknowledged: 0,
      stop_reason: null,
      counts: { pending: 3, queued: 2, started: 0, succeeded: 0, failed: 0, rolled_back: 0, skipped: 2 },
      total: 7,
      finished_at: null,
    });
    expect(
      body.targets.map((t: { agent_id: number; wave: number; state: string; error: string | null }) => [
        t.agent_id,
        t.wave,
        t.state,
        t.error,
      ]),
    ).toEqual([
      [current, 0, "skipped", "already runs 2.0.0"],
      [riscv, 0, "skipped", "no build of 2.0.0 for linux/riscv64 on this instance"],
      [ids[0], 1, "queued", null],
      [ids[1], 1, "queued", null],
      [ids[2], 2, "pending", null],
      [ids[3], 2, "pending", null],
      [ids[4], 2, "pending", null],
    ]);
    const rows = await a.t.sql<
      { id: number; u: Record<string, unknown> | null }[]
    >`select id, pending_update as u from agents where pending_update is not null order by id`;
    expect(rows.map((r) => r.id)).toEqual([ids[0], ids[1]]);
    expect(rows[1]!.u).toMatchObject({
      version: "2.0.0",
      arch: "arm64",
      os: "linux",
      signature: signatures["2.0.0/arm64"],
      rollout_id: rolloutId,
    });
    expect(rows[1]!.u!.sha256).toMatch(/^[0-9a-f]{64}$/);
    await eventually(() => control.payloads.length >= 2);
    expect(control.payloads).toEqual([
      { agent_id: ids[0], action: "update" },
      { agent_id: ids[1], action: "update" },
    ]);
    await control.stop();
    const events = await (await a.req("GET", `agents/${ids[0]}/events`, a.admin)).json();
    expect(events.items[0]).toMatchObject({ event_type: "update_queued", detail: { version: "2.0.0", rollout_id: rolloutId, wave: 1 } });
  });

  it("GET /agents and /agents/{id} say the available version and the queued update", async () => {
    const one = await (await a.req("GET", `agents/${ids[0]}`, a.viewer)).json();
    expect(one).toMatchObject({
      available_version: "2.0.0",
      update: { version: "2.0.0", state: "queued", rollout_id: rolloutId, sent_at: null, queued_at: expect.any(String) },
    });
    const list = await (await a.req("GET", "agents?limit=100", a.viewer)).json();
    const byId = new Map(list.items.map((x: { id: number }) => [x.id, x]));
    expect(byId.get(current)).toMatchObject({ available_version: null, update: null });
    expect(byId.get(ids[2]!)).toMatchObject({ available_version: "2.0.0", update: null });
  });

  it("lists, reads with an ETag, and answers 409 to a second rollout and 412 to a stale If-Match", async () => {
    const list = await (await a.req("GET", "agents/rollouts?state=running", a.viewer)).json();
    expect(list).toMatchObject({ total: 1, limit: 25, offset: 0, sort: "id", direction: "asc" });
    expect(list.items[0]).toMatchObject({ id: rolloutId, counts: { queued: 2 } });
    expect(list.items[0].targets).toBeUndefined();
    const res = await create({ agent_ids: [ids[2]] });
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(new RegExp(`^Rollout ${rolloutId} is running: one rollout at a time`));
    const stale = await a.req("POST", `agents/rollouts/${rolloutId}/cancel`, a.admin, undefined, { "if-match": 'W/"1"' });
    expect(stale.status).toBe(412);
    expect((await a.req("POST", `agents/rollouts/${rolloutId}/resume`, a.admin)).status).toBe(409);
    expect((await a.req("GET", "agents/rollouts/999999", a.viewer)).status).toBe(404);
    expect(await a.t.sql`select 1 from agent_rollouts where state <> 'running'`).toHaveLength(0);
  });

  it("the sweep fails a target silent past wave_timeout_seconds, stops at the threshold and withdraws its update", async () => {
    // ids[0] linked on 2.0.0 without a report: the sweep counts that a success.
    await a.t.sql`update agents set agent_version = '2.0.0' where id = ${ids[0]!}`;
    a.clock.advance(61_000);
    expect(await sweep()).toMatchObject({ succeeded: 1, timed_out: 1 });
    const r = await (await a.req("GET", `agents/rollouts/${rolloutId}`, a.viewer)).json();
    expect(r.state).toBe("stopped");
    expect(r.stop_reason).toBe(
      `1 agent failed (threshold 1): agent ${ids[1]} (h2) failed: no update.status succeeded, failed or rolled_back within 60 s`,
    );
    expect(r.counts).toMatchObject({ succeeded: 1, failed: 1, pending: 3 });
    expect(await a.t.sql`select 1 from agents where id = ${ids[1]!} and pending_update is not null`).toHaveLength(0);
    expect(await a.t.sql`select 1 from agents where id in ${a.t.sql(ids.slice(2))} and pending_update is not null`).toHaveLength(0);

    const get = await a.req("GET", `agents/rollouts/${rolloutId}`, a.viewer);
    const resumed = await a.req("POST", `agents/rollouts/${rolloutId}/resume`, a.admin, undefined, {
      "if-match": get.headers.get("etag")!,
    });
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toMatchObject({ state: "running", current_wave: 2, failures_acknowledged: 1, counts: { queued: 3 } });
    const cancelled = await (await a.req("POST", `agents/rollouts/${rolloutId}/cancel`, a.admin)).json();
    expect(cancelled).toMatchObject({ state: "cancelled", counts: { queued: 3, pending: 0 }, finished_at: expect.any(String) });
    const audit = await a.t.sql<{ action: string }[]>`select action from audit_log where entity_type = 'agent_rollout' order by id`;
    expect(audit.map((x) => x.action)).toEqual([
      "agents.rollout_created",
      "agents.rollout_stopped",
      "agents.rollout_resumed",
      "agents.rollout_cancelled",
    ]);
  });
});
