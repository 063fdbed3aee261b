// The single-file agent (issue 35): `npm run build:agent` into a temporary directory, unsigned (signing
// costs nothing measurable), and figures for the build: its time (the official Node binaries come from
// the cache after the first run), the size of each target's executable (target < 100 MB), and the
// linux-x64 executable's start-up: from spawn to its pairing code, and, enrolled and approved, from a
// restart's spawn to `linked` (target < 2 s). Only reports; no figure fails anything.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { api, type BenchContext, type BenchRow, round } from "./harness.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const STARTS = 5;

interface Timed {
  child: ChildProcess;
  /** Ms from spawn until `pattern` appears in the output (bounded by 30 s), and its match. */
  until(pattern: RegExp): Promise<{ ms: number; match: RegExpExecArray }>;
}

/** Spawns the executable with a PATH holding nothing (no node), timing what it prints. */
function spawnTimed(bin: string, args: string[]): Timed {
  const started = performance.now();
  const child = spawn(bin, args, { env: { PATH: "/nonexistent" }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const waiting = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of waiting) w();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  return {
    child,
    until: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out);
          if (!match) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve({ ms: performance.now() - started, match });
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no ${pattern} within 30 s: ${out.slice(-400)}`));
        }, 30_000);
        waiting.add(check);
        check();
      }),
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-agent-build-"));
  try {
    const env = { ...process.env };
    delete env.AGENT_RELEASE_KEY;
    const t0 = performance.now();
    execFileSync(process.execPath, ["scripts/build-agent.ts", "--out", join(dir, "builds")], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const rows: BenchRow[] = [
      {
        name: "build (linux-x64, linux-arm64)",
        total_ms: Math.round(performance.now() - t0),
        note: "Node binaries from node_modules/.cache after the first run",
      },
    ];
    const version = readFileSync(join(ROOT, "VERSION"), "utf8").trim();
    for (const arch of ["amd64", "arm64"]) {
      const size = statSync(join(dir, "builds", version, "linux", arch, "svc-agent")).size;
      rows.push({ name: `size linux/${arch}`, note: `${round(size / 1048576)} MB (target < 100 MB)` });
    }

    const bin = join(dir, "builds", version, "linux", "amd64", "svc-agent");
    let agentId = 0;
    const state = join(dir, "state");
    const args = ["--server", ctx.baseUrl, "--state-dir", state, "--name", "bench-single-file", "--log-level", "warn"];
    const first = spawnTimed(bin, args);
    try {
      const enroll = await first.until(/PAIRING CODE:\s+(\S+)/);
      rows.push({ name: "start to pairing code (first run)", total_ms: Math.round(enroll.ms) });
      const found = (await api(ctx, "POST", "/api/v1/agents/pairing/lookup", { code: enroll.match[1] })) as { agent_id: number };
      await api(ctx, "POST", `/api/v1/agents/${found.agent_id}/approve`, { host_link_action: "create" });
      await first.until(/linked as agent/);
      agentId = found.agent_id;
    } finally {
      await stop(first.child);
    }

    const linked: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const again = spawnTimed(bin, args);
      try {
        linked.push((await again.until(/linked as agent/)).ms);
      } finally {
        await stop(again.child);
      }
    }
    linked.sort((a, b) => a - b);
    rows.push({
      name: `start to linked (enrolled, ${STARTS} starts)`,
      p50_ms: round(linked[Math.floor(STARTS / 2)]!),
      total_ms: Math.round(linked[STARTS - 1]!),
      note: "total = slowest; target < 2 s",
    });
    await api(ctx, "POST", `/api/v1/agents/${agentId}/revoke`, { reason: "bench done" });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
