// Starts the product the way an operator does (`npm start` in the repository root) on a free port and
// drives it over HTTP. npm runs the script through `sh -c`, and neither npm nor dash forward SIGTERM to
// the node process (npm exits at once and leaves node running), so stop() signals the node process
// itself and waits for npm, which exits with node's own exit code. The child gets its own process group
// (detached) so that cleanup can kill npm, sh and node together.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type postgres from "postgres";
import { freePort } from "../helpers/free-port.ts";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SETUP_TOKEN = "e2e-setup-token-0123456789";

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Product {
  readonly port: number;
  readonly url: string;
  /** npm's pid, also the process group id. */
  readonly pid: number;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves when npm exits (with node's exit code). */
  readonly exited: Promise<Exit>;
  /** Resolves once GET /api/v1/readyz answers 200; rejects (with the output) on exit or timeout. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** Sends `signal` to the node process and resolves with the exit code; kills the group on timeout. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
  /** SIGKILL to the whole process group (cleanup). */
  kill(): void;
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

const running = new Set<Product>();

export { freePort };

export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "cp-e2e-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function children(pid: number): number[] {
  try {
    const ids: number[] = [];
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (list) ids.push(...list.split(/\s+/).map(Number));
    }
    return ids;
  } catch {
    return [];
  }
}

/** The node process npm started (npm -> sh -c -> node), found by walking /proc. */
function serverPid(npmPid: number): number | undefined {
  const queue = [...children(npmPid)];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (/(^|\/)node$/.test(argv[0] ?? "") && argv.some((a) => a.endsWith(".ts"))) return pid;
    } catch {
      continue;
    }
    queue.push(...children(pid));
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Spawns `npm start` (or another package script) with the given environment on a free port. Does not
 * wait: call waitReady() (or use startProduct).
 */
export async function spawnProduct(env: Record<string, string>, script: string[] = ["start"]): Promise<Product> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // No load balancer sends to a test's product, so its stop need not hold the listener open (DRAIN_WINDOW_S,
  // docs/adr/0346); a test of the window sets it.
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: "warn",
    SVC_SETUP_TOKEN: SETUP_TOKEN,
    DRAIN_WINDOW_S: "0",
    ...env,
    PORT: String(port),
  };
  // The test runner's own settings must not leak into the product.
  delete childEnv.NODE_OPTIONS;
  delete childEnv.VITEST;
  delete childEnv.VITEST_POOL_ID;
  delete childEnv.VITEST_WORKER_ID;
  delete childEnv.NODE_ENV;
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  if (!env.REDIS_URL) delete childEnv.REDIS_URL;
  // HOST, when a test binds the product to an address of its own (127.0.0.x), is where it is reached.
  return spawnServer(["npm", ...script], childEnv, port, `http://${env.HOST ?? "127.0.0.1"}:${port}`);
}

/**
 * Spawns `argv` in the repository root with exactly `env`, in its own process group, as a server that
 * answers on `url` (port `port`). Does not wait: call waitReady().
 */
export function spawnServer(argv: string[], env: NodeJS.ProcessEnv, port: number, url: string): Product {
  const [command, ...args] = argv;
  const what = argv.join(" ");
  const child: ChildProcess = spawn(command!, args, {
    cwd: REPO_ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  let done: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => {
      done = { code, signal };
      resolve(done);
    });
    child.once("error", (e) => {
      out += `\nspawn failed: ${e.message}`;
      done = { code: null, signal: null };
      resolve(done);
    });
  });
  const pid = child.pid!;

  const kill = () => {
    if (done) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  };

  const product: Product = {
    port,
    url,
    pid,
    exited,
    output: () => out,
    // A refused or reset call says what became of the process and what it printed, not only the socket error.
    fetch: (path, init) =>
      fetch(`${url}${path}`, { signal: AbortSignal.timeout(20_000), ...init }).catch((e: unknown) => {
        throw new Error(
          `${what}: ${init?.method ?? "GET"} ${path} failed (${done ? `exited ${JSON.stringify(done)}` : "running"}):\n${out.slice(-4000)}`,
          { cause: e },
        );
      }),
    kill,
    async waitReady(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let last = "no answer";
      while (Date.now() < deadline) {
        if (done) throw new Error(`${what} exited (${JSON.stringify(done)}) before readyz answered 200:\n${out}`);
        try {
          const res = await fetch(`${url}/api/v1/readyz`, { signal: AbortSignal.timeout(5000) });
          last = `${res.status} ${await res.text()}`;
          if (res.status === 200) return;
        } catch (e) {
          last = String(e);
        }
        await sleep(250);
      }
      throw new Error(`readyz did not answer 200 within ${timeoutMs} ms (last: ${last}):\n${out}`);
    },
    async stop(signal = "SIGTERM", timeoutMs = 30_000) {
      if (!done) {
        const target = serverPid(pid);
        try {
          if (target) process.kill(target, signal);
          else process.kill(-pid, signal);
        } catch {
          // exited meanwhile
        }
      }
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), timeoutMs)));
      const result = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      if (result === "timeout") {
        kill();
        await exited;
        throw new Error(`${what} did not exit within ${timeoutMs} ms of ${signal}:\n${out}`);
      }
      running.delete(product);
      return result.code;
    },
  };
  running.add(product);
  void exited.then(() => running.delete(product));
  return product;
}

/** spawnProduct + waitReady; kills the process if it never gets ready. */
export async function startProduct(env: Record<string, string>, timeoutMs = 60_000): Promise<Product> {
  return readyOrKilled(await spawnProduct(env), timeoutMs);
}

/** Waits for a spawned product to be ready; kills it if it never gets there. */
export async function readyOrKilled(p: Product, timeoutMs = 60_000): Promise<Product> {
  try {
    await p.waitReady(timeoutMs);
  } catch (e) {
    p.kill();
    await p.exited;
    throw e;
  }
  return p;
}

/** Kills every product still running (afterAll / afterEach). */
export async function killAll(): Promise<void> {
  const all = [...running];
  for (const p of all) p.kill();
  await Promise.all(all.map((p) => p.exited));
}

export function jsonBody(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } };
}

/** Polls `probe` (every `everyMs`) until it gives something other than undefined; throws (with `detail()`) after `ms`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 15_000,
  detail: () => string = () => "",
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${detail()}`);
    await sleep(everyMs);
  }
}

/** Resolves once a session on `database` waits on a lock: a request the test holds with a lock it took. */
export async function waitForLockWaiter(sql: postgres.Sql, database: string, detail?: () => string): Promise<void> {
  await until(
    "a request to wait on the lock",
    async () => {
      const rows = await sql`
        select 1 from pg_stat_activity
        where datname = ${database} and wait_event_type = 'Lock' and pid <> pg_backend_pid()`;
      return rows.length > 0 ? true : undefined;
    },
    15_000,
    detail,
  );
}

/**
 * Takes a table lock in a transaction of its own, so the product's write on that table blocks in flight;
 * the returned release commits it, once (later calls do nothing).
 */
export async function holdTableLock(sql: postgres.Sql, table: string, mode: "access exclusive" | "share"): Promise<() => Promise<void>> {
  const holder = await sql.reserve();
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await holder`commit`.catch(() => {});
    holder.release();
  };
  try {
    await holder`begin`;
    await holder.unsafe(`lock table ${table} in ${mode} mode`);
  } catch (e) {
    await release();
    throw e;
  }
  return release;
}
