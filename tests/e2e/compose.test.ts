// docker-compose.yml kept honest without Docker: the file is read as Compose reads it (tests/helpers/
// compose-file.ts), with exactly the variables deploy/env.example sets, and each service built from this
// repository's image runs its `command` as a process in the repository root (the image's WORKDIR) with
// the environment the file and the Dockerfile's ENV give it. What a container would have of its own is
// rewritten, and only that: a free loopback port per process (PORT, HOST), a temporary DATA_DIR each, and
// the service host names in URLs mapped to loopback (the `postgres` service is a fresh, empty database
// of the test's PostgreSQL, which the sidecar migrates; `redis` is the test's Redis). The reverse proxy
// (Caddy) is not run: the test talks to the functions instances directly. Services start in depends_on
// order, each once its dependencies pass their healthcheck (run as the file writes it).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUrl, PG_ADMIN_URL, REDIS_URL } from "../helpers/env.ts";
import {
  type ComposeFile,
  dependsOn,
  dockerfileEnv,
  envFileNames,
  interpolate,
  InterpolationError,
  loadCompose,
  serviceEnvironment,
} from "../helpers/compose-file.ts";
import { freePort, jsonBody, killAll, type Product, readyOrKilled, REPO_ROOT, spawnServer, tempDataDir, until } from "./helpers.ts";

const COMPOSE = join(REPO_ROOT, "docker-compose.yml");
const ENV_EXAMPLE = join(REPO_ROOT, "deploy/env.example");

/** The operator's .env: every variable deploy/env.example sets, with a value of the test's. */
function operatorEnv(): Record<string, string> {
  const names = Object.keys(envFileNames(ENV_EXAMPLE));
  const values: Record<string, string> = {
    POSTGRES_PASSWORD: `pw${randomBytes(8).toString("hex")}`,
    SVC_SETUP_TOKEN: `setup-${randomBytes(12).toString("hex")}`,
    // What `openssl rand -base64 32` (the command env.example gives) prints.
    SVC_VAULT_KEY: randomBytes(32).toString("base64"),
  };
  return Object.fromEntries(names.map((n) => [n, values[n] ?? `value-of-${n.toLowerCase()}`]));
}

describe("docker-compose.yml and deploy/env.example", () => {
  it("reads variables as Compose does", () => {
    const env = { A: "a", E: "" };
    expect(interpolate("$A-${A}-$${A}-${E:-d}-${E-d}-${U-d}-${A:+alt}-${E:+alt}", env)).toBe("a-a-${A}-d--d-alt-");
    expect(interpolate("${U:-x://${A}@h}", env)).toBe("x://a@h");
    // The branch not taken is not evaluated: a required variable there raises nothing.
    expect(interpolate("${A:-${U:?never}}", env)).toBe("a");
    expect(() => interpolate("${E:?say why}", env)).toThrow("required variable E is missing a value: say why");
    expect(interpolate("${E?say why}", env)).toBe("");
    expect(() => interpolate("${A", env)).toThrow(InterpolationError);
  });

  it("env.example sets every variable the file requires, and the file refuses to start without each", () => {
    const env = operatorEnv();
    expect(() => loadCompose(COMPOSE, env)).not.toThrow();
    for (const name of ["POSTGRES_PASSWORD", "SVC_SETUP_TOKEN", "SVC_VAULT_KEY"]) {
      expect(Object.keys(env), `deploy/env.example sets ${name}`).toContain(name);
      expect(() => loadCompose(COMPOSE, { ...env, [name]: undefined }), `unset ${name}`).toThrow(InterpolationError);
      expect(() => loadCompose(COMPOSE, { ...env, [name]: "" }), `empty ${name}`).toThrow(new RegExp(`required variable ${name} `));
    }
  });

  it("env.example ships no vault key (each installation makes its own) and says how to make one", () => {
    expect(envFileNames(ENV_EXAMPLE).SVC_VAULT_KEY).toBe("");
    expect(readFileSync(ENV_EXAMPLE, "utf8")).toMatch(/openssl rand -base64 32/);
  });
});

// ---- the Node services, run as processes ----

interface Instance {
  service: string;
  product: Product;
  env: Record<string, string>;
  data: { remove(): void };
}

let file: ComposeFile;
let env: Record<string, string>;
let dbName: string;
const instances: Instance[] = [];
let listener: Server | undefined;
let accepted = 0;

const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });

/** The file's URL to a service, as it reaches the test's stand-in for it. */
function mapServiceUrl(value: string, postgresService: Record<string, string>): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  if (!(url.hostname in file.services)) return value;
  if (url.hostname === "postgres") {
    // The URL the file gives must open the database the postgres service creates.
    expect(decodeURIComponent(url.username)).toBe(postgresService.POSTGRES_USER);
    expect(decodeURIComponent(url.password)).toBe(postgresService.POSTGRES_PASSWORD);
    expect(url.pathname).toBe(`/${postgresService.POSTGRES_DB}`);
    return databaseUrl(dbName);
  }
  if (url.hostname === "redis") {
    const redis = new URL(REDIS_URL);
    url.hostname = redis.hostname;
    url.port = redis.port;
    return url.toString();
  }
  throw new Error(`no stand-in for the service ${url.hostname} (${value})`);
}

async function startService(name: string): Promise<Instance[]> {
  const service = file.services[name]!;
  const postgresService = serviceEnvironment(file.services.postgres!);
  const started: Instance[] = [];
  for (let replica = 0; replica < (service.deploy?.replicas ?? 1); replica++) {
    const port = await freePort();
    const data = tempDataDir();
    const given = { ...dockerfileEnv(join(REPO_ROOT, "Dockerfile")), ...serviceEnvironment(service) };
    const childEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(given)) childEnv[k] = mapServiceUrl(v, postgresService);
    // What the container has of its own: its address, its port, its volume. PATH finds this machine's node.
    Object.assign(childEnv, { HOST: "127.0.0.1", PORT: String(port), DATA_DIR: data.dir, PATH: process.env.PATH!, HOME: data.dir });
    const product = spawnServer(service.command!, childEnv, port, `http://127.0.0.1:${port}`);
    started.push({ service: name, product, env: childEnv, data });
  }
  instances.push(...started);
  return started;
}

/** The service's healthcheck, run as Docker runs it (CMD form) with the process's environment. */
function healthy(instance: Instance): boolean {
  const test = file.services[instance.service]!.healthcheck?.test;
  if (!Array.isArray(test) || test[0] !== "CMD") throw new Error(`${instance.service}: expected a healthcheck in CMD form`);
  const [command, ...args] = test.slice(1);
  const r = spawnSync(command!, args, { cwd: REPO_ROOT, env: instance.env, timeout: 10_000 });
  return r.status === 0;
}

/** Starts every service built from this repository in depends_on order (the others are the test's stand-ins). */
async function up(): Promise<void> {
  const nodeServices = Object.keys(file.services).filter((s) => file.services[s]!.build !== undefined);
  const done = new Set<string>();
  for (let round = 0; done.size < nodeServices.length; round++) {
    if (round > nodeServices.length) throw new Error(`depends_on has a cycle among ${nodeServices.join(", ")}`);
    const now = nodeServices.filter(
      (s) => !done.has(s) && dependsOn(file.services[s]!).every((d) => done.has(d) || !nodeServices.includes(d)),
    );
    const started = (await Promise.all(now.map(startService))).flat();
    await Promise.all(started.map((i) => readyOrKilled(i.product, 120_000)));
    for (const i of started) {
      await until(
        `${i.service}'s healthcheck`,
        () => (healthy(i) ? true : undefined),
        20_000,
        () => i.product.output(),
        500,
      );
    }
    for (const s of now) done.add(s);
  }
}

const functions = () => instances.filter((i) => i.service === "functions").map((i) => i.product);
const sidecar = () => instances.find((i) => i.service === "sidecar")!.product;

let token = "";
async function call<T = Record<string, unknown>>(via: Product, method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = body === undefined ? { method } : { ...jsonBody(body), method };
  init.headers = { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` };
  const r = await via.fetch(`/api/v1/${path}`, init);
  if (r.status >= 300) throw new Error(`${method} ${path} via :${via.port} -> ${r.status} ${await r.text()}`);
  return (r.status === 204 ? {} : await r.json()) as T;
}

describe("docker compose up, as processes", () => {
  beforeAll(async () => {
    env = operatorEnv();
    file = loadCompose(COMPOSE, env);
    dbName = `cp_compose_${process.pid}_${randomBytes(4).toString("hex")}`;
    // Empty, not cloned from the migrated template: the sidecar applies the migrations, as in compose.
    await admin.unsafe(`create database "${dbName}"`);
    await up();
  }, 240_000);

  afterAll(async () => {
    listener?.close();
    await Promise.all(instances.map((i) => i.product.stop("SIGTERM", 30_000).catch(() => {})));
    await killAll();
    for (const i of instances) i.data.remove();
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`).catch(() => {});
    await admin.end();
  }, 90_000);

  it("starts the sidecar and every functions replica, each ready and healthy", () => {
    expect(instances.map((i) => i.service).sort()).toEqual(["functions", "functions", "sidecar"]);
    for (const i of instances) expect(i.env.SVC_VAULT_KEY).toBe(env.SVC_VAULT_KEY);
  });

  it("serves the first run through one functions instance, and its session through the other", async () => {
    const [f1, f2] = functions();
    const res = await f1!.fetch(
      "/api/v1/bootstrap/initialize",
      jsonBody({ email: "compose@example.com", password: "a long compose admin password", setup_token: env.SVC_SETUP_TOKEN }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    token = ((await res.json()) as { token: string }).token;
    const me = await call<{ email: string }>(f2!, "GET", "auth/me");
    expect(me.email).toBe("compose@example.com");
  });

  it("reads through one functions instance what was written through the other", async () => {
    const [f1, f2] = functions();
    const created = await call<{ id: number }>(f1!, "POST", "hardware", { name: "compose-host", role: "server" });
    const read = await call<{ id: number; name: string }>(f2!, "GET", `hardware/${created.id}`);
    expect(read).toMatchObject({ id: created.id, name: "compose-host" });
  });

  it("runs, in the sidecar, a monitor created through a functions instance", async () => {
    const [f1, f2] = functions();
    listener = createServer((socket) => {
      accepted++;
      socket.on("error", () => {});
      socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      listener!.once("error", reject);
      listener!.listen(0, "127.0.0.1", () => resolve());
    });
    const port = (listener.address() as { port: number }).port;
    // The outbound policy refuses loopback by default; the target is this test's listener on 127.0.0.1.
    await call(f2!, "PUT", "settings", { outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: false } });
    const monitor = await call<{ id: number }>(f1!, "POST", "monitors", {
      name: "compose tcp",
      check_type: "tcp",
      host: "127.0.0.1",
      config: { port },
      interval_secs: 10,
      max_retries: 0,
    });
    const row = await until(
      "the sidecar's first check of the monitor",
      async () => {
        const m = await call<{ status: string; last_polled_at: string | null }>(f2!, "GET", `monitors/${monitor.id}`);
        return m.last_polled_at && m.status === "up" ? m : undefined;
      },
      60_000,
      () => sidecar().output(),
      // Once a second: the API's rate limit applies to the test's own polling too.
      1000,
    );
    expect(row.status).toBe("up");
    expect(accepted).toBeGreaterThan(0);
  }, 90_000);
});
