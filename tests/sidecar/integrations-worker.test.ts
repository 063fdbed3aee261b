// The integrations worker against real PostgreSQL with a driven clock: due monitoring integrations and
// provider configs are claimed once even by two workers racing (SKIP LOCKED, next_sync_at advanced by
// sync_interval_s in the claim), disabled and unscheduled (next_sync_at null) ones never; at most
// `concurrency` run at once, and a sync still running when its row comes due again is not started twice;
// a sync that throws has its reason recorded on its row and the worker goes on;
// the built-in runners sync a fake Docker engine on its unix socket (and record an unreachable one's
// error), record an unreachable Uptime Kuma's error, and discover a fake Proxmox VE as a scheduled run;
// stop() waits for the syncs in flight.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import type { DueKind } from "../../shared/verbs/integrations/scheduled/claim-due.ts";
import { INTEGRATION_CONFIG_CREDENTIAL, sealSecret } from "../../shared/verbs/vault/secret-columns.ts";
import { integrationsWorker } from "../../sidecar/integrations/integrations-worker.ts";
import type { SyncRunner } from "../../sidecar/integrations/sync-runners.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { type FakeDocker, startFakeDocker } from "../helpers/fake-docker.ts";
import { FAKE_PVE_CERT, FAKE_PVE_TOKEN, startFakePve } from "../helpers/fake-pve.ts";
import { DrivenClock, openTestRuntime, rowsOf } from "./monitors/support.ts";

let db: TestDatabase;
let runtime: NodeRuntime;
let fake: FakeDocker;
const clock = new DrivenClock();

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openTestRuntime(db.url, clock);
  fake = await startFakeDocker();
});
afterAll(async () => {
  await fake?.close();
  await runtime?.close();
  await db?.drop();
});
beforeEach(async () => {
  await runtime.database.db.execute(sql`delete from integrations; delete from integration_configs`);
});

/** A row is due now unless told otherwise, as the create verbs schedule its first sync; null = not scheduled. */
const dueAt = (at: Date | null | undefined) => (at === undefined ? clock.now() : at)?.toISOString() ?? null;

async function integration(fields: { enabled?: boolean; next_sync_at?: Date | null; sync_interval_s?: number } = {}): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(
    runtime,
    sql`
    insert into integrations (type, name, base_url, enabled, next_sync_at, sync_interval_s)
    values ('uptime_kuma', ${`kuma-${Math.random().toString(36).slice(2, 8)}`}, 'http://127.0.0.2:3001', ${fields.enabled ?? true}, ${dueAt(fields.next_sync_at)}::timestamptz, ${fields.sync_interval_s ?? 60})
    returning id`,
  );
  return row!.id;
}

async function providerConfig(
  type: "hv" | "docker",
  fields: { config_url?: string; auto_sync?: boolean; sync_interval_s?: number; next_sync_at?: Date | null } = {},
): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(
    runtime,
    sql`
    insert into integration_configs (type, name, config_url, auto_sync, sync_interval_s, next_sync_at)
    values (${type}, ${`${type}-${Math.random().toString(36).slice(2, 8)}`}, ${fields.config_url ?? "https://127.0.0.2:8006"}, ${fields.auto_sync ?? true}, ${fields.sync_interval_s ?? 300}, ${dueAt(fields.next_sync_at)}::timestamptz)
    returning id`,
  );
  return row!.id;
}

/** Runners that record what they were asked to sync (each after `delayMs`), throwing for ids in `failing`. */
function recordingRunners(delayMs = 0, failing = new Set<string>()) {
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const runner =
    (kind: DueKind): SyncRunner =>
    async (_ctx, id) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await new Promise((r) => setTimeout(r, delayMs));
        calls.push(`${kind}:${id}`);
        if (failing.has(`${kind}:${id}`)) throw new Error(`sync of ${kind} ${id} exploded`);
        return { ok: true, error: null };
      } finally {
        inFlight--;
      }
    };
  return {
    calls,
    maxInFlight: () => maxInFlight,
    runners: { monitoring: runner("monitoring"), hv: runner("hv"), docker: runner("docker") },
  };
}

/** The row's next_sync_at in epoch ms, or null. */
async function nextSync(table: "integrations" | "integration_configs", id: number): Promise<number | null> {
  const [row] = await rowsOf<{ next_sync_at: string | Date | null }>(
    runtime,
    sql`select next_sync_at from ${sql.identifier(table)} where id = ${id}`,
  );
  return row!.next_sync_at === null ? null : new Date(row!.next_sync_at).getTime();
}

describe("integrations worker", () => {
  it("two workers racing sync each due row once; next_sync_at moves one interval ahead; disabled and unscheduled rows are left alone", async () => {
    const due = [
      await integration(),
      await integration({ next_sync_at: new Date(clock.now().getTime() - 1000) }),
      await integration({ sync_interval_s: 120 }),
    ];
    const later = await integration({ next_sync_at: new Date(clock.now().getTime() + 60_000) });
    const disabled = await integration({ enabled: false });
    const unscheduled = await integration({ next_sync_at: null });
    const hv = await providerConfig("hv");
    const docker = await providerConfig("docker", { config_url: "unix:///nonexistent.sock", sync_interval_s: 600 });
    const manual = await providerConfig("hv", { auto_sync: false });

    const rec = recordingRunners(50);
    const one = integrationsWorker(runtime, { concurrency: 10, runners: rec.runners });
    const two = integrationsWorker(runtime, { concurrency: 10, runners: rec.runners });
    const [a, b] = await Promise.all([one.tick(), two.tick()]);
    expect(a.length + b.length).toBe(5);
    expect(rec.calls.sort()).toEqual([...due.map((id) => `monitoring:${id}`), `hv:${hv}`, `docker:${docker}`].sort());

    const now = clock.now().getTime();
    expect(await nextSync("integrations", due[0]!)).toBe(now + 60_000);
    expect(await nextSync("integrations", due[2]!)).toBe(now + 120_000);
    expect(await nextSync("integration_configs", docker)).toBe(now + 600_000);
    expect(await nextSync("integrations", disabled)).toBe(now);
    expect(await nextSync("integrations", unscheduled)).toBeNull();
    expect(await nextSync("integration_configs", manual)).toBe(now);

    // Nothing is due again until its interval has passed; then only what has come due.
    expect(await one.tick()).toEqual([]);
    clock.advance(61_000);
    expect((await one.tick()).map((d) => d.id).sort()).toEqual([due[0], due[1], later].sort());
    expect(rec.calls.filter((c) => c === `monitoring:${disabled}` || c === `monitoring:${unscheduled}` || c === `hv:${manual}`)).toEqual(
      [],
    );
  });

  it("runs at most `concurrency` syncs at once, and the rest on later rounds", async () => {
    for (let i = 0; i < 5; i++) await integration();
    const rec = recordingRunners(30);
    const worker = integrationsWorker(runtime, { concurrency: 2, runners: rec.runners });
    expect(await worker.tick()).toHaveLength(2);
    expect(await worker.tick()).toHaveLength(2);
    expect(await worker.tick()).toHaveLength(1);
    expect(await worker.tick()).toHaveLength(0);
    expect(rec.maxInFlight()).toBe(2);
  });

  it("a sync still running when its row comes due again is not started a second time", async () => {
    const id = await integration({ sync_interval_s: 30 });
    const rec = recordingRunners(400);
    const worker = integrationsWorker(runtime, { concurrency: 2, runners: rec.runners });
    const first = worker.tick();
    for (let i = 0; i < 100 && worker.running().length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    clock.advance(31_000);
    await worker.tick();
    await first;
    expect(rec.calls).toEqual([`monitoring:${id}`]);
    expect(rec.maxInFlight()).toBe(1);
  });

  it("a sync that throws records its error on the row and the others still run", async () => {
    const bad = await integration();
    const good = await integration();
    const badHv = await providerConfig("hv");
    const rec = recordingRunners(0, new Set([`monitoring:${bad}`, `hv:${badHv}`]));
    const worker = integrationsWorker(runtime, { concurrency: 5, runners: rec.runners });
    expect(await worker.tick()).toHaveLength(3);
    expect(rec.calls.sort()).toEqual([`monitoring:${bad}`, `monitoring:${good}`, `hv:${badHv}`].sort());
    const [row] = await rowsOf(runtime, sql`select sync_status, sync_error from integrations where id = ${bad}`);
    expect(row).toEqual({ sync_status: "error", sync_error: `sync of monitoring ${bad} exploded` });
    const [okRow] = await rowsOf(runtime, sql`select sync_status from integrations where id = ${good}`);
    expect(okRow).toEqual({ sync_status: "never" }); // the (recording) runner writes nothing itself
    const [cfg] = await rowsOf(runtime, sql`select last_sync_status, last_sync_error from integration_configs where id = ${badHv}`);
    expect(cfg).toEqual({ last_sync_status: "error", last_sync_error: `sync of hv ${badHv} exploded` });
  });

  it("the built-in Docker runner syncs a provider's engine and records an unreachable one's error", async () => {
    const ok = await providerConfig("docker", { config_url: `unix://${fake.socketPath}` });
    const missing = await providerConfig("docker", { config_url: "unix:///nonexistent/docker.sock" });
    const worker = integrationsWorker(runtime, { concurrency: 2 });
    expect(await worker.tick()).toHaveLength(2);
    const rows = await rowsOf(runtime, sql`select id, last_sync_status, last_sync_error from integration_configs order by id`);
    expect(rows).toEqual([
      { id: ok, last_sync_status: "ok", last_sync_error: null },
      { id: missing, last_sync_status: "error", last_sync_error: expect.stringContaining("unix:///nonexistent/docker.sock unavailable") },
    ]);
    const [units] = await rowsOf<{ n: number }>(
      runtime,
      sql`select count(*)::int as n from external_refs where source = ${`docker:${fake.socketPath}`} and entity_type = 'compute_unit'`,
    );
    expect(units!.n).toBe(3);
  });

  it("the built-in monitoring runner records an unreachable Uptime Kuma's error on its row and schedules the next try", async () => {
    const id = await integration(); // http://127.0.0.2:3001: nothing listens there
    const worker = integrationsWorker(runtime, { concurrency: 2 });
    expect(await worker.tick()).toEqual([{ kind: "monitoring", id, name: expect.any(String) }]);
    const [row] = await rowsOf<{ sync_status: string; sync_error: string | null }>(
      runtime,
      sql`select sync_status, sync_error from integrations where id = ${id}`,
    );
    expect(row!.sync_status).toBe("error");
    expect(row!.sync_error).toContain("127.0.0.2:3001");
    expect(await nextSync("integrations", id)).toBe(clock.now().getTime() + 60_000);
    expect(await worker.tick()).toEqual([]);
  });

  it("the built-in hypervisor runner discovers the fake Proxmox VE as a scheduled run", async () => {
    const pve = await startFakePve({ host: "127.0.44.9" });
    try {
      const id = await providerConfig("hv", { config_url: pve.url });
      const sealed = await sealSecret(runtime.deps.vault, INTEGRATION_CONFIG_CREDENTIAL, id, FAKE_PVE_TOKEN);
      await runtime.database.db.execute(
        sql`update integration_configs set credential = ${sealed}, credential_type = 'proxmox_api', ca_cert = ${FAKE_PVE_CERT} where id = ${id}`,
      );
      const worker = integrationsWorker(runtime, { concurrency: 2 });
      expect(await worker.tick()).toEqual([{ kind: "hv", id, name: expect.any(String) }]);
      const runs = await rowsOf(
        runtime,
        sql`select status, trigger, triggered_by, errors from hv_discover_runs where integration_id = ${id}`,
      );
      expect(runs).toEqual([{ status: "completed", trigger: "scheduled", triggered_by: "scheduler", errors: [] }]);
      expect(pve.requests.length).toBeGreaterThan(0);
    } finally {
      await pve.close();
    }
  });

  it("stop() waits for the syncs in flight and takes nothing new", async () => {
    const id = await integration();
    const rec = recordingRunners(300);
    const worker = integrationsWorker(runtime, { concurrency: 2, pollMs: 20, runners: rec.runners });
    await worker.start();
    for (let i = 0; i < 100 && worker.running().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(worker.running()).toEqual([`monitoring:${id}`]);
    await worker.stop();
    expect(rec.calls).toEqual([`monitoring:${id}`]);
    expect(worker.running()).toEqual([]);
    clock.advance(61_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(rec.calls).toHaveLength(1);
  });
});
