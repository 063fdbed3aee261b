// What the agent end-to-end tests share: the product on its own PostgreSQL database (started as the
// README says), an administrator's token, the reference agent as a child process (`npm run agent`) or
// in-process (the Agent class, whose events say what the server acknowledged), and a probe request.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { Agent, type AgentEvent, type AgentExit, type AgentOptions } from "../../../agent/agent.ts";
import { cryptoRandom, systemClock } from "../../../shared/clock.ts";
import { edgeDatabase } from "../../../shared/db/edge-database.ts";
import { requestProbe as requestProbeVerb } from "../../../shared/verbs/agents/request-probe.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { TEST_VAULT_KEY } from "../../helpers/env.ts";
import { jsonBody, killAll, type Product, readyOrKilled, REPO_ROOT, SETUP_TOKEN, spawnProduct, until } from "../helpers.ts";

export { until };

/** The product's environment on `db`: no REDIS_URL, so each process's rate gates count only its own tests. */
export const productEnv = (db: TestDatabase, extra: Record<string, string> = {}): Record<string, string> => ({
  DATABASE_URL: db.url,
  SVC_VAULT_KEY: TEST_VAULT_KEY,
  LOG_LEVEL: "warn",
  ...extra,
});

export const ready = readyOrKilled;

export async function startOn(db: TestDatabase, extra: Record<string, string> = {}, script: string[] = ["start"]): Promise<Product> {
  return ready(await spawnProduct(productEnv(db, extra), script));
}

export interface Admin {
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, via?: Product): Promise<T>;
}

/** Creates the first administrator through `p` and calls the API with its token (through `via` when given). */
export async function bootstrapAdmin(p: Product): Promise<Admin> {
  const res = await p.fetch(
    "/api/v1/bootstrap/initialize",
    jsonBody({ email: "agents@example.com", password: "a long agents admin password", setup_token: SETUP_TOKEN }),
  );
  if (res.status !== 200) throw new Error(`bootstrap: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { token: string }).token;
  return {
    async call<T>(method: string, path: string, body?: unknown, via: Product = p): Promise<T> {
      const init: RequestInit = body === undefined ? { method } : { ...jsonBody(body), method };
      init.headers = { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` };
      const r = await via.fetch(`/api/v1/${path}`, init);
      if (r.status >= 300) throw new Error(`${method} ${path} -> ${r.status} ${await r.text()}`);
      return (r.status === 204 ? {} : await r.json()) as T;
    },
  };
}

/** Grants for the tests: telemetry at the shortest interval, probes to loopback targets. */
export const TEST_GRANTS = {
  host_telemetry: { enabled: true, config: { interval_s: 10 } },
  remote_probe: { enabled: true, config: { additional_cidrs: ["127.0.0.0/8"] } },
};

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// ---- the agent as a child process ----

export interface AgentProcess {
  output(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** A signal to the process spawned (npm when viaNpm: use node for signals the agent must see). */
  signal(sig: NodeJS.Signals): void;
  kill(): void;
}

/** `npm run agent -- ARGS` (or `node bin/agent.ts ARGS`) in its own process group. */
export function spawnAgent(args: string[], viaNpm = true): AgentProcess {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.VITEST;
  const child: ChildProcess = viaNpm
    ? spawn("npm", ["run", "--silent", "agent", "--", ...args], { cwd: REPO_ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(process.execPath, ["bin/agent.ts", ...args], { cwd: REPO_ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  agents.add({ kill: () => !done && tryKill(-child.pid!) });
  return { output: () => out, exited, signal: (sig) => void (!done && child.kill(sig)), kill: () => !done && tryKill(-child.pid!) };
}

function tryKill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone already
  }
}

// ---- the agent in-process ----

export interface RunningAgent {
  agent: Agent;
  events: AgentEvent[];
  /** Every sample id the agent produced, and those the server acknowledged. */
  produced: Set<string>;
  acked: Set<string>;
  linkedCount(): number;
  readonly done: Promise<AgentExit>;
  stop(): Promise<AgentExit>;
}

export function runAgent(options: Omit<AgentOptions, "onEvent" | "stateDir"> & { stateDir?: string }): RunningAgent {
  const state = options.stateDir ? undefined : tempDir("agent-state-");
  const events: AgentEvent[] = [];
  const produced = new Set<string>();
  const acked = new Set<string>();
  const agent = new Agent({
    ...options,
    stateDir: options.stateDir ?? state!.dir,
    onEvent: (e) => {
      events.push(e);
      if (e.type === "telemetry") produced.add(e.sample_id);
      if (e.type === "acked") for (const id of e.sample_ids) acked.add(id);
    },
  });
  const done = agent.run().finally(() => state?.remove());
  const running: RunningAgent = {
    agent,
    events,
    produced,
    acked,
    linkedCount: () => events.filter((e) => e.type === "linked").length,
    done,
    stop: () => {
      agent.stop();
      return done;
    },
  };
  agents.add({ kill: () => agent.stop() });
  return running;
}

const agents = new Set<{ kill(): void }>();

/** Stops every agent the tests started (afterAll). */
export function stopAgents(): void {
  for (const a of agents) a.kill();
  agents.clear();
}

/** What a test file runs against: a fresh database, SQL beside it, the product on it and its administrator. */
export interface Started {
  db: TestDatabase;
  sql: postgres.Sql;
  p: Product;
  admin: Admin;
}

/**
 * A test file's product, for its beforeAll (`start`) and afterAll (`stop`). It is filled as it starts, so
 * `stop` undoes exactly what a start that failed half-way had done: no test database is left behind.
 */
export function productFixture(): { start(extra?: Record<string, string>): Promise<Started>; stop(): Promise<void> } {
  const f: Partial<Started> = {};
  return {
    async start(extra = {}) {
      f.db = await createTestDatabase();
      f.sql = sqlOf(f.db);
      f.p = await startOn(f.db, extra);
      f.admin = await bootstrapAdmin(f.p);
      return f as Started;
    },
    async stop() {
      stopAgents();
      await killAll();
      await f.sql?.end();
      await f.db?.drop();
    },
  };
}

// ---- reads and writes the HTTP API does not offer ----

/** The server's static public key, as /install-agent.sh publishes it. */
export async function serverKeyOf(p: Product): Promise<string> {
  const text = await (await p.fetch("/install-agent.sh")).text();
  return /^SERVER_STATIC_PK='([0-9a-f]{64})'$/m.exec(text)![1]!;
}

export function sqlOf(db: TestDatabase): postgres.Sql {
  return postgres(db.url, { max: 2, onnotice: () => {} });
}

/**
 * Asks for one probe run the way the monitors will: the requestProbe verb (no route calls it; the
 * catalogue has none for ad-hoc probes), run against the product's database as the system actor. Its
 * commit NOTIFYs agent_control, which the sidecar holding the link answers with probe.assign.
 */
export async function requestProbe(
  db: TestDatabase,
  agentId: number,
  probe: { check_type: "tcp" | "http"; host: string; config: Record<string, unknown>; timeout_s: number },
): Promise<string> {
  const provider = edgeDatabase(db.url);
  const lease = provider.lease();
  try {
    const ctx = systemContext({ db: lease.db, clock: systemClock, random: cryptoRandom });
    return (await requestProbeVerb({ ctx, input: { agent_id: agentId, ...probe } })).run_id;
  } finally {
    await lease.release();
    await provider.close();
  }
}

export { createTestDatabase, type TestDatabase };
