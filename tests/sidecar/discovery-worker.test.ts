// The discovery worker against real PostgreSQL and real loopback hosts (listeners on 127.0.0.x, the only
// addresses these tests reach): a queued job runs to completed with its results and log recorded; a
// cancel mid-scan stops it within a second and nothing is recorded after; the drain marks the job it
// aborts failed "shutdown"; jobs a dead sidecar left running are recovered as "interrupted"; nothing is
// claimed while discovery is paused; an IPAM scan updates its network in the finish; two workers never
// run one job twice.
import { createServer, type Server } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSettings, scanJobs } from "../../shared/db/schema/index.ts";
import { cancelScanJob } from "../../shared/verbs/discovery/jobs/cancel-scan-job.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import { discoveryWorker, type DiscoveryWorker } from "../../sidecar/discovery/discovery-worker.ts";
import { engineRunner } from "../../sidecar/discovery/engine-runner.ts";
import type { JobRunner } from "../../sidecar/discovery/job-runner.ts";
import { defaultDiscoveryOptions } from "../../sidecar/discovery/options.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { startFakeDocker } from "../helpers/fake-docker.ts";
import { openTestRuntime, rowsOf } from "./monitors/support.ts";

let db: TestDatabase;
let runtime: NodeRuntime;
const servers: Server[] = [];
let port = 0;
const FAST = { pollMs: 200, progressMs: 100, logsMs: 100, findingsMs: 50, readinessMs: 3_600_000, recoverMs: 3_600_000 };

async function listen(host: string, p: number): Promise<number> {
  const server = createServer((s) => {
    s.on("error", () => {}); // scanners reset connections
    s.end("SSH-2.0-fake\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(p, host, resolve);
  });
  servers.push(server);
  return (server.address() as { port: number }).port;
}

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openTestRuntime(db.url);
  port = await listen("127.0.0.2", 0);
  await listen("127.0.0.3", port);
});
afterAll(async () => {
  for (const s of servers) s.close();
  await runtime?.close();
  await db?.drop();
});

type NewJob = Partial<typeof scanJobs.$inferInsert>;
async function queueJob(job: NewJob): Promise<number> {
  const [row] = await runtime.database.db
    .insert(scanJobs)
    .values({ scan_types: ["tcp"], tcp_ports: [port], targets: ["127.0.0.2-127.0.0.5"], addresses_total: 4, triggered_by: "test", ...job })
    .returning({ id: scanJobs.id });
  await runtime.database.db.execute(
    sql`select pg_notify('discovery_control', ${JSON.stringify({ type: "job_queued", job_id: row!.id, scan_agent_id: null })})`,
  );
  return row!.id;
}
const jobRow = async (id: number) => (await runtime.database.db.select().from(scanJobs).where(sql`id = ${id}`))[0]!;
const resultCount = async (id: number) =>
  (await rowsOf<{ n: number }>(runtime, sql`select count(*)::int as n from scan_results where scan_job_id = ${id}`))[0]!.n;

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function withWorker<T>(overrides: Parameters<typeof discoveryWorker>[1], body: (w: DiscoveryWorker) => Promise<T>): Promise<T> {
  const worker = discoveryWorker(runtime, { ...FAST, ...overrides });
  await worker.start();
  try {
    return await body(worker);
  } finally {
    await worker.stop();
  }
}

describe("the discovery worker", () => {
  it("runs a queued job over loopback listeners to completed, with results, progress and a log", async () => {
    const id = await queueJob({});
    const job = await withWorker({ owner: "w-complete" }, () =>
      until("completed", async () => {
        const r = await jobRow(id);
        return r.status === "completed" ? r : undefined;
      }),
    );
    expect(job.claimed_by).toBe("w-complete");
    expect(job.started_at).not.toBeNull();
    expect(job.completed_at).not.toBeNull();
    expect(job.addresses_done).toBe(4);
    const results = await rowsOf<{ ip_address: string; open_ports: { port: number; banner?: string | null }[] }>(
      runtime,
      sql`select ip_address, open_ports from scan_results where scan_job_id = ${id} order by ip_address`,
    );
    const withPort = results.filter((r) => r.open_ports.some((p) => p.port === port)).map((r) => r.ip_address);
    expect(withPort).toEqual(["127.0.0.2", "127.0.0.3"]);
    expect(job.hosts_found).toBe(results.length);
    const logs = await rowsOf<{ level: string; message: string }>(
      runtime,
      sql`select level, message from scan_logs where scan_job_id = ${id} order by id`,
    );
    expect(logs.some((l) => l.message.startsWith("Scanning 4 addresses"))).toBe(true);
  });

  it("stops a cancelled job promptly and records nothing after the cancel", async () => {
    // Slow on purpose: 4094 addresses, two hosts at a time, many ports. The real engine runs it; the
    // wrapper only notes when the scan itself stopped (its sockets closed) and when the worker saw the abort.
    const ports = Array.from({ length: 200 }, (_, i) => 20_000 + i);
    const id = await queueJob({
      targets: ["127.0.0.0/20"],
      tcp_ports: [port, ...ports],
      addresses_total: 4094,
      options: { max_concurrent_hosts: 2 },
    });
    const engine = engineRunner(runtime.database.db, { ...defaultDiscoveryOptions("t"), ...FAST });
    let abortedAt = 0;
    let scanStoppedAt = 0;
    const tcp: JobRunner = async (run) => {
      run.signal.addEventListener("abort", () => (abortedAt = performance.now()), { once: true });
      await engine(run);
      scanStoppedAt = performance.now();
    };
    await withWorker({ owner: "w-cancel", runners: { tcp } }, async (worker) => {
      await until("results flowing", async () => ((await resultCount(id)) > 0 ? true : undefined));
      const ctx = systemContext({ db: runtime.database.db, clock: runtime.deps.clock, random: runtime.deps.random });
      const t0 = performance.now();
      await cancelScanJob({ ctx, input: { id } });
      await until("the worker let go of the job", async () => (worker.running().includes(id) ? undefined : true), 5_000);
      // The scan stops well before its end (it would take minutes): the bounds are loose on purpose,
      // the one-second figure belongs to a benchmark, not to a test on a machine others load.
      expect(abortedAt).toBeGreaterThan(t0);
      expect(scanStoppedAt - t0).toBeLessThan(5_000);
      expect(performance.now() - t0).toBeLessThan(10_000);
      const after = await resultCount(id);
      await new Promise((r) => setTimeout(r, 500));
      expect(await resultCount(id)).toBe(after);
      const row = await jobRow(id);
      expect(row.status).toBe("cancelled");
      expect(row.addresses_done).toBeLessThan(4094);
    });
  });

  it("marks the job it aborts on shutdown failed with reason shutdown", async () => {
    const id = await queueJob({
      targets: ["127.0.16.0/20"],
      tcp_ports: Array.from({ length: 200 }, (_, i) => 21_000 + i),
      addresses_total: 4094,
      options: { max_concurrent_hosts: 2 },
    });
    const worker = discoveryWorker(runtime, { ...FAST, owner: "w-drain" });
    await worker.start();
    await until("running", async () => (worker.running().includes(id) ? true : undefined));
    const t0 = performance.now();
    await worker.stop();
    expect(performance.now() - t0).toBeLessThan(2_000);
    const row = await jobRow(id);
    expect([row.status, row.error_reason]).toEqual(["failed", "shutdown"]);
  });

  it("fails jobs a dead sidecar left running as interrupted, and leaves live ones alone", async () => {
    const stale = await queueJob({ status: "running", claimed_by: "dead-sidecar", updated_at: new Date(Date.now() - 10 * 60_000) });
    const fresh = await queueJob({ status: "running", claimed_by: "live-sidecar" });
    await withWorker({ owner: "w-recover", staleMs: 60_000, recoverMs: 100 }, () =>
      until("recovered", async () => ((await jobRow(stale)).status === "failed" ? true : undefined)),
    );
    expect((await jobRow(stale)).error_reason).toBe("interrupted");
    expect((await jobRow(fresh)).status).toBe("running");
    await runtime.database.db.update(scanJobs).set({ status: "cancelled" }).where(sql`id = ${fresh}`);
  });

  it("claims nothing while discovery is paused, and the job runs once resumed", async () => {
    await runtime.database.db
      .insert(appSettings)
      .values({ key: "discovery_paused", value: true })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: true } });
    const id = await queueJob({});
    await withWorker({ owner: "w-paused" }, async (worker) => {
      await worker.tick();
      await new Promise((r) => setTimeout(r, 400));
      expect((await jobRow(id)).status).toBe("queued");
      await runtime.database.db.update(appSettings).set({ value: false }).where(sql`key = 'discovery_paused'`);
      await until("completed", async () => ((await jobRow(id)).status === "completed" ? true : undefined));
    });
  });

  it("applies an IPAM scan's answers to its network in the finish", async () => {
    const [net] = await rowsOf<{ id: number }>(runtime, sql`insert into networks (name, cidr) values ('lab', '127.0.0.0/29') returning id`);
    const id = await queueJob({ options: { ipam_network_id: net!.id } });
    await withWorker({ owner: "w-ipam" }, () =>
      until("completed", async () => ((await jobRow(id)).status === "completed" ? true : undefined)),
    );
    const used = await rowsOf<{ address: string; status: string }>(
      runtime,
      sql`select address, status from ip_addresses where network_id = ${net!.id} order by address`,
    );
    expect(used.map((u) => u.address)).toEqual(["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]);
    expect(used.every((u) => u.status === "allocated")).toBe(true);
  });

  it("stores the scan tools' readiness at start", async () => {
    await runtime.database.db.delete(appSettings).where(sql`key = 'discovery_readiness'`);
    await withWorker({ owner: "w-ready" }, () =>
      until("readiness stored", async () =>
        (await rowsOf(runtime, sql`select 1 from app_settings where key = 'discovery_readiness'`)).length ? true : undefined,
      ),
    );
    const [row] = await rowsOf<{ value: { capabilities: { key: string; state: string }[]; probed_at: string } }>(
      runtime,
      sql`select value from app_settings where key = 'discovery_readiness'`,
    );
    expect(row!.value.capabilities.map((c) => c.key).sort()).toEqual(["arp", "dns", "docker", "icmp", "nmap", "snmp", "tcp"]);
    expect(row!.value.capabilities.find((c) => c.key === "tcp")!.state).toBe("ready");
    expect(Date.parse(row!.value.probed_at)).not.toBeNaN();
  });

  it("hands a docker job to the docker runner (with the system context), which syncs the fake engine", async () => {
    const fake = await startFakeDocker();
    try {
      const id = await queueJob({
        scan_types: ["docker"],
        targets: [],
        tcp_ports: [],
        addresses_total: 0,
        options: { docker_socket_path: fake.socketPath },
      });
      const job = await withWorker({ owner: "w-docker" }, () =>
        until("docker job ended", async () => {
          const r = await jobRow(id);
          return r.status === "completed" || r.status === "failed" ? r : undefined;
        }),
      );
      expect([job.status, job.error_text]).toEqual(["completed", null]);
      expect(fake.requests.some((p) => p.startsWith("/containers/json"))).toBe(true);
      const logs = await rowsOf<{ message: string }>(
        runtime,
        sql`select message from scan_logs where scan_job_id = ${id} and phase = 'docker'`,
      );
      expect(logs.some((l) => l.message.startsWith("Synced "))).toBe(true);
    } finally {
      await fake.close();
    }
  });

  it("never runs one job on two workers", async () => {
    const ids = await Promise.all([1, 2, 3, 4].map(() => queueJob({})));
    const a = discoveryWorker(runtime, { ...FAST, owner: "w-a" });
    const b = discoveryWorker(runtime, { ...FAST, owner: "w-b" });
    await Promise.all([a.start(), b.start()]);
    try {
      await until("all completed", async () =>
        (await Promise.all(ids.map(jobRow))).every((r) => r.status === "completed") ? true : undefined,
      );
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const rows = await Promise.all(ids.map(jobRow));
    for (const r of rows) expect(["w-a", "w-b"]).toContain(r.claimed_by);
    // Each job's hosts recorded once: 4 addresses each.
    for (const id of ids) expect(await resultCount(id)).toBe(4);
  });
});
