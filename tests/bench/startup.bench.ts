// Issue 37: `npm start` (the all-in-one on embedded PGlite) from nothing to ready on a fresh, empty
// DATA_DIR, and what the processes hold at rest on an empty inventory: the all-in-one and the split
// sidecar (`npm run start:sidecar`) on a fresh PostgreSQL database. Ready is the first 200 of
// GET /api/v1/health. The machine is shared, so each start reports its CPU time beside the wall time;
// the figures printed are medians of START_RUNS starts. `npm run bench startup`; BENCH_IDLE_S sets the
// rest before memory is read (30 s).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_VAULT_KEY } from "../helpers/env.ts";
import { type BenchRow, createBenchDatabase, freePort } from "./harness.ts";
import { processCpuMs, processRssBytes } from "./proc-cpu.ts";

const START_RUNS = 3;
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? "30");
const ENTRY = fileURLToPath(new URL("../../bin/start.ts", import.meta.url));
const MIB = 1024 * 1024;

interface Started {
  wallMs: number;
  cpuMs: number;
  rssMib(): number;
  stop(): Promise<void>;
}

/** Spawns bin/start.ts and polls /api/v1/health every 20 ms until it answers 200 (bounded at 120 s). */
async function start(env: Record<string, string>, args: string[] = []): Promise<Started> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [ENTRY, ...args], {
    env: { ...process.env, ...env, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "error" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
  };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error("the server exited during start");
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (i > 6000) {
      await stop();
      throw new Error("the server did not become ready in 120 s");
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const wallMs = Math.round(performance.now() - t0);
  return { wallMs, cpuMs: processCpuMs(child.pid!), rssMib: () => Math.round(processRssBytes(child.pid!) / MIB), stop };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => `load ${loadavg()[0]!.toFixed(1)}`;

async function allInOne(): Promise<BenchRow[]> {
  const walls: number[] = [];
  const cpus: number[] = [];
  let rss = 0;
  for (let run = 0; run < START_RUNS; run++) {
    const dir = mkdtempSync(join(tmpdir(), "cp-bench-start-"));
    try {
      const s = await start({ DATA_DIR: dir });
      walls.push(s.wallMs);
      cpus.push(s.cpuMs);
      // The last start stays up to be weighed at rest.
      if (run === START_RUNS - 1) {
        await new Promise((r) => setTimeout(r, IDLE_S * 1000));
        rss = s.rssMib();
      }
      await s.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    {
      name: "npm start to ready, fresh DATA_DIR (target < 2000 ms)",
      p50_ms: median(walls),
      note: `CPU ${median(cpus)} ms; walls ${walls.join("/")} ms; ${load()}`,
    },
    { name: `all-in-one RSS at rest (${IDLE_S} s), empty inventory`, note: `${rss} MiB (no target)` },
  ];
}

async function sidecar(): Promise<BenchRow[]> {
  const db = await createBenchDatabase(`cp_bench_sidecar_${process.pid}`);
  try {
    const s = await start({ DATABASE_URL: db.url, SVC_VAULT_KEY: TEST_VAULT_KEY }, ["--sidecar-only"]);
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const rss = s.rssMib();
    await s.stop();
    return [
      { name: "sidecar to ready, migrated empty database", p50_ms: s.wallMs, note: `CPU ${s.cpuMs} ms; ${load()}` },
      { name: `sidecar RSS at rest (${IDLE_S} s), empty inventory (target < 150 MiB)`, note: `${rss} MiB` },
    ];
  } finally {
    await db.drop();
  }
}

export async function run(): Promise<BenchRow[]> {
  return [...(await allInOne()), ...(await sidecar())];
}
