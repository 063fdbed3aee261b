// Drives wrk (apt-get install wrk) with wrk-clients.lua and reads its figures back. wrk, not the
// harness's node:http client, for throughput: a Node load generator would spend more CPU per request
// than the servers it measures on a 2-core machine.
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const WRK_MISSING = "wrk not installed (apt-get install wrk)";
const SCRIPT = fileURLToPath(new URL("./wrk-clients.lua", import.meta.url));
const FIGURES = fileURLToPath(new URL("./wrk-figures.lua", import.meta.url));

export function wrkInstalled(): boolean {
  return spawnSync("wrk", ["--version"], { stdio: "ignore" }).error === undefined;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  bytesPerAnswer: number;
  /** Answers that were not 2xx or 3xx. */
  non2xx: number;
  /** Connect, read, write errors and timeouts. */
  socketErrors: number;
}

export interface WrkRun {
  url: string;
  connections: number;
  threads: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Another wrk script (default wrk-clients.lua; null: the same request each time); wrk-figures.lua is appended. */
  script?: string | null;
  /** How many pages of 100 wrk-clients.lua walks (its WRK_PAGES; default 50). */
  pages?: number;
}

/** `script` with wrk-figures.lua appended, in a file of its own (removed by the caller). */
function withFigures(script: string | null): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "wrk-"));
  const own = script === null ? "" : `${readFileSync(script, "utf8")}\n`;
  const path = join(dir, "script.lua");
  writeFileSync(path, own + readFileSync(FIGURES, "utf8"));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function wrk(run: WrkRun): Promise<WrkResult> {
  const script = withFigures(run.script === undefined ? SCRIPT : run.script);
  const args = ["-t", String(run.threads), "-c", String(run.connections), "-d", `${run.seconds}s`, "--timeout", "5s", "-s", script.path];
  for (const [name, value] of Object.entries(run.headers ?? {})) args.push("-H", `${name}: ${value}`);
  args.push(run.url);
  const stdout = await new Promise<string>((resolve, reject) =>
    // Bounded: wrk stops itself after -d; the timeout only catches a wedged process.
    execFile("wrk", args, { timeout: (run.seconds + 30) * 1000, env: { ...process.env, WRK_PAGES: String(run.pages ?? 50) } }, (e, out) =>
      e ? reject(e) : resolve(out),
    ),
  ).finally(script.remove);
  const line = stdout.split("\n").find((l) => l.startsWith("WRK_JSON "));
  if (!line) throw new Error(`wrk printed no figures: ${stdout.slice(0, 300)}`);
  const r = JSON.parse(line.slice("WRK_JSON ".length)) as Record<string, number>;
  const seconds = r.duration_us! / 1e6;
  return {
    requests: r.requests!,
    seconds,
    rps: r.requests! / seconds,
    p50_ms: r.p50_us! / 1000,
    p99_ms: r.p99_us! / 1000,
    bytesPerAnswer: r.requests! > 0 ? Math.round(r.bytes! / r.requests!) : 0,
    non2xx: r.non2xx!,
    socketErrors: r.connect! + r.read! + r.write! + r.timeout!,
  };
}

/** Several runs against one server as one: requests over total time, the worst p99, and the runs' p50s weighted by requests (near the joint p50, not it). */
export function combine(runs: WrkResult[]): WrkResult {
  const requests = runs.reduce((s, r) => s + r.requests, 0);
  const seconds = runs.reduce((s, r) => s + r.seconds, 0);
  const weighted = (f: (r: WrkResult) => number) => runs.reduce((s, r) => s + f(r) * r.requests, 0) / Math.max(1, requests);
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p50_ms: weighted((r) => r.p50_ms),
    p99_ms: Math.max(...runs.map((r) => r.p99_ms)),
    bytesPerAnswer: Math.round(weighted((r) => r.bytesPerAnswer)),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
    socketErrors: runs.reduce((s, r) => s + r.socketErrors, 0),
  };
}
