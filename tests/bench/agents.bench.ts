// Agents (issue 11): one sidecar holding a fleet of linked agents, at 1,000 and at 10,000 (BENCH_AGENTS
// overrides: a comma-separated list of sizes). Each simulated agent is a real Noise IK link made with the
// reference agent's Connection and frames, from its own loopback source address, sending telemetry.host
// every 30 s and a heartbeat every 20 s with random phases. Figures: link handshakes per second (rate
// gate included), the server process's memory per link (RSS growth / links), its CPU while the fleet
// runs, frame-to-acknowledgement latency of telemetry (the server acknowledges a frame only once its
// sample is committed, so this bounds frame-to-commit from above), and a loss check against the
// database. Then a burst of enrollments up to the pending cap.
import { cpus } from "node:os";
import { Worker } from "node:worker_threads";
import { Connection } from "../../agent/connection.ts";
import { generateKeyPair } from "../../shared/noise/index.ts";
import { BENCH_AGENT_VERSION, benchHello } from "./agents/frames.ts";
import type { Command, WorkerInit } from "./agents/fleet-worker.ts";
import { api, type BenchContext, type BenchRow, round } from "./harness.ts";
import { processCpuMs, processRssBytes } from "./proc-cpu.ts";

const SIZES = (process.env.BENCH_AGENTS ?? "1000,10000")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const WINDOW_MS = Number(process.env.BENCH_AGENTS_WINDOW_S ?? "75") * 1000;
const WORKERS = Math.max(1, Math.min(2, cpus().length));

const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!);
};

/** Agent i's source address: 127.1.x.y, ten agents per address (the per-IP gate allows 20 a minute). */
const sourceAddress = (i: number) => {
  const host = Math.floor(i / 10);
  return `127.${1 + Math.floor(host / 62500)}.${Math.floor(host / 250) % 250}.${(host % 250) + 1}`;
};

class Pool {
  readonly workers: Worker[];
  constructor(init: WorkerInit) {
    this.workers = Array.from(
      { length: WORKERS },
      () => new Worker(new URL("./agents/fleet-worker.ts", import.meta.url), { workerData: init }),
    );
  }
  /** Sends each worker its command and waits for every answer. */
  all<T>(commands: Command[] | Command): Promise<T[]> {
    return Promise.all(
      this.workers.map(
        (w, i) =>
          new Promise<T>((resolve, reject) => {
            w.once("message", resolve);
            w.once("error", reject);
            w.postMessage(Array.isArray(commands) ? commands[i]! : commands);
          }),
      ),
    );
  }
  /** Stops every simulated agent; answers how many telemetry frames were sent in all. */
  async close(): Promise<number> {
    const stopped = await this.all<{ totalSent: number }>({ type: "stop" });
    await Promise.all(this.workers.map((w) => w.terminate()));
    return stopped.reduce((s, r) => s + r.totalSent, 0);
  }
}

async function fleet(ctx: BenchContext, n: number, serverKeyHex: string, wsBase: string): Promise<BenchRow[]> {
  const label = `${n.toLocaleString("en")} agents`;
  const pool = new Pool({ url: `${wsBase}/api/v1/agents/link`, serverKeyHex, heartbeatMs: 20_000, telemetryMs: 30_000, concurrency: 64 });
  try {
    // Device keys made in the workers (X25519 in JavaScript is the slow part), rows as an approval leaves them.
    const per = Math.ceil(n / WORKERS);
    const keys = (
      await pool.all<{ keys: { secretHex: string; publicHex: string }[] }>(
        pool.workers.map((_, i) => ({ type: "keys", count: Math.min(per, n - i * per) })),
      )
    ).flatMap((r) => r.keys);
    const tag = `bench-${n}-${process.pid}`;
    for (let i = 0; i < keys.length; i += 1000) {
      const rows = keys.slice(i, i + 1000).map((k, j) => ({
        name: `${tag}-${i + j}`,
        status: "active",
        device_pk: k.publicHex,
        fingerprint: k.publicHex.slice(0, 32),
        approved_at: new Date(),
      }));
      await ctx.sql`insert into agents ${ctx.sql(rows)}`;
    }
    const rssBefore = processRssBytes(ctx.serverPid);
    const cpuBeforeLink = processCpuMs(ctx.serverPid);
    const linkStarted = performance.now();
    const assignments = pool.workers.map((_, w) =>
      keys.flatMap((k, i) => (i % WORKERS === w ? [{ secretHex: k.secretHex, localAddress: sourceAddress(i) }] : [])),
    );
    const linked = await pool.all<{ handshakeMs: number[]; failed: number; firstError?: string }>(
      assignments.map((agents) => ({ type: "link", agents })),
    );
    const linkMs = performance.now() - linkStarted;
    const linkCpu = processCpuMs(ctx.serverPid) - cpuBeforeLink;
    const handshakes = linked.flatMap((l) => l.handshakeMs);
    const failed = linked.reduce((s, l) => s + l.failed, 0);
    const firstError = linked.find((l) => l.firstError)?.firstError;
    // Let the links settle (connected events written, buffers sized) before reading memory.
    await new Promise((r) => setTimeout(r, 3000));
    const rssLinked = processRssBytes(ctx.serverPid);

    await pool.all({ type: "measure" });
    const cpu0 = processCpuMs(ctx.serverPid);
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const cpuWindow = processCpuMs(ctx.serverPid) - cpu0;
    const rssRunning = processRssBytes(ctx.serverPid);
    const reports = await pool.all<{ latencies: number[]; sent: number; acked: number; lost: number; open: number; unacked: number }>({
      type: "report",
    });
    const lat = reports.flatMap((r) => r.latencies);
    const sent = reports.reduce((s, r) => s + r.sent, 0);
    const open = reports.reduce((s, r) => s + r.open, 0);
    const totalSent = await pool.close();
    // Every telemetry frame sent was committed once: the drain of the links acknowledges the rest.
    await new Promise((r) => setTimeout(r, 2000));
    const [stored] = await ctx.sql<{ n: number }[]>`
      select count(*)::int as n from agent_host_samples s join agents a on a.id = s.agent_id where a.name like ${`${tag}-%`}`;
    await ctx.sql`delete from agents where name like ${`${tag}-%`}`;
    const perLinkKiB = round((rssRunning - rssBefore) / handshakes.length / 1024);
    return [
      {
        name: `${label}: link (handshake + hello.ack)`,
        p50_ms: percentile(handshakes, 50),
        p99_ms: percentile(handshakes, 99),
        rps: round(handshakes.length / (linkMs / 1000)),
        total_ms: Math.round(linkMs),
        note: `${handshakes.length} linked, ${failed} failed${firstError ? ` (${firstError})` : ""}; server CPU ${round(linkCpu / handshakes.length)} ms per handshake; rps = handshakes/s incl. the link gate`,
      },
      {
        name: `${label}: telemetry frame -> ack (committed)`,
        p50_ms: percentile(lat, 50),
        p99_ms: percentile(lat, 99),
        rps: round(sent / (WINDOW_MS / 1000)),
        total_ms: WINDOW_MS,
        note: `${lat.length} acked of ${sent} sent in the window; ${open} links open at the end`,
      },
      {
        name: `${label}: sidecar memory and CPU`,
        note:
          `RSS ${Math.round(rssBefore / 2 ** 20)} -> ${Math.round(rssLinked / 2 ** 20)} MiB linked -> ${Math.round(rssRunning / 2 ** 20)} MiB running: ${perLinkKiB} KiB per link; ` +
          `CPU ${round((cpuWindow / WINDOW_MS) * 100)}% of one core while the fleet runs (heartbeats ${round(n / 20)}/s, telemetry ${round(n / 30)}/s)`,
      },
      {
        name: `${label}: loss check`,
        note: `${totalSent} telemetry frames sent, ${stored!.n} samples stored${stored!.n === totalSent ? " (none lost)" : " (MISMATCH)"}`,
      },
    ];
  } finally {
    await Promise.all(pool.workers.map((w) => w.terminate()));
  }
}

/** Enrollments up to the pending cap (100), concurrently: handshake, hello, pairing code. */
async function enrollBurst(ctx: BenchContext, serverKeyHex: string, wsBase: string): Promise<BenchRow> {
  const serverKey = new Uint8Array(Buffer.from(serverKeyHex, "hex"));
  const count = 90;
  const started = performance.now();
  const times = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const t0 = performance.now();
      const device = generateKeyPair();
      const conn = await Connection.open({
        url: `${wsBase}/api/v1/agents/enroll`,
        device,
        serverKey,
        localAddress: `127.9.0.${(i % 250) + 1}`,
      });
      const code = new Promise<void>((resolve, reject) => {
        conn.onFrame((f) => (f.type === "hello.ack" && typeof f.payload.pairing_code === "string" ? resolve() : undefined));
        void conn.closed.then((c) => reject(new Error(`closed ${c.code} ${c.reason}`)));
      });
      conn.send("hello", benchHello(Buffer.from(device.publicKey).toString("hex")));
      await code;
      const ms = performance.now() - t0;
      conn.close();
      return ms;
    }),
  );
  const total = performance.now() - started;
  await ctx.sql`delete from agents where agent_version = ${BENCH_AGENT_VERSION} and status = 'pending'`;
  return {
    name: `enroll burst: ${count} agents to a pairing code`,
    p50_ms: percentile(times, 50),
    p99_ms: percentile(times, 99),
    rps: round(count / (total / 1000)),
    total_ms: Math.round(total),
    note: "concurrent, under the pending cap of 100 and the enroll gate of 200/60 s",
  };
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const status = (await api(ctx, "GET", "/api/v1/agents/server-key/status")) as { public_key: string };
  const wsBase = ctx.baseUrl.replace(/^http/, "ws");
  const rows: BenchRow[] = [await enrollBurst(ctx, status.public_key, wsBase)];
  for (const n of SIZES) rows.push(...(await fleet(ctx, n, status.public_key, wsBase)));
  return rows;
}
