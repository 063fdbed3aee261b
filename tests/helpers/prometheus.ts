// A real Debian Prometheus server for tests, on a loopback port: found on PATH (a missing package fails
// the test saying so), configured in a temp dir with the YAML the test gives (its TSDB there too), ready
// once /-/ready answers 200 (bounded), its log kept, killed and cleaned up by stop().
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findDebianCommand } from "./debian-command.ts";
import { freePort } from "./free-port.ts";

export interface Prometheus {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The temp dir the config is in: files the config names (a bearer token file) go here. */
  dir: string;
  process: ChildProcess;
  /** What the server logged so far. */
  log(): string;
  /** Kills it, waits (5 s at most) until it is gone, then removes its dir. */
  stop(): Promise<void>;
}

async function ready(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) })).status === 200;
  } catch {
    return false;
  }
}

/**
 * Prometheus on 127.0.0.1 with the config `config(dir)` answers; `files` (name: content, e.g. a bearer
 * token the config names as `${dir}/<name>`) are written to `dir` first, readable by us alone.
 */
export async function startPrometheus(config: (dir: string) => string, files: Record<string, string> = {}): Promise<Prometheus> {
  const command = findDebianCommand("prometheus", "prometheus");
  const dir = mkdtempSync(join(tmpdir(), "prometheus-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content, { mode: 0o600 });
  const conf = join(dir, "prometheus.yml");
  writeFileSync(conf, config(dir));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    command,
    [`--config.file=${conf}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`, "--log.level=debug"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  child.stdout?.on("data", (b: Buffer) => void (log += b.toString()));
  child.stderr?.on("data", (b: Buffer) => void (log += b.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 150; i++) {
    if (await ready(url)) return { url, dir, process: child, log: () => log, stop };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`prometheus on ${url} was not ready within 15 s: ${log.slice(-1000)}`);
}
