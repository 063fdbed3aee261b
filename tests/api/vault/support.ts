// Shared set-up of the vault tests: signed-in actors on key A (TEST_VAULT_KEY), and more processes on the
// same database with other keys, as an operator's restart with a new SVC_VAULT_KEY would make them.
import { randomBytes } from "node:crypto";
import type { Context, Hono } from "hono";
import { createApp } from "../../../functions/app.ts";
import type { AppEnv } from "../../../functions/deps.ts";
import { parseConfig } from "../../../shared/config.ts";
import { type NodeRuntime, openRuntime } from "../../../runtime/node-deps.ts";
import { json } from "../../helpers/app.ts";

/** A fresh vault key as SVC_VAULT_KEY takes it. */
export const newVaultKey = () => randomBytes(32).toString("base64");

export interface Process {
  app: Hono<AppEnv>;
  runtime: NodeRuntime;
  req(method: string, path: string, token?: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

let peer = 0;

/** Another process of the installation on `databaseUrl` with its own vault configuration. */
export async function openProcess(
  databaseUrl: string,
  vaultEnv: { SVC_VAULT_KEY: string; SVC_VAULT_KEY_PREVIOUS?: string },
): Promise<Process> {
  return openWith({ DATABASE_URL: databaseUrl, ...vaultEnv }, false);
}

/** An all-in-one process (on PostgreSQL) whose key is DATA_DIR/vault.key in `dataDir`, as `npm start` keeps it. */
export async function openFileKeyProcess(databaseUrl: string, dataDir: string): Promise<Process> {
  return openWith({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir }, true);
}

async function openWith(env: Record<string, string>, vaultKeyFile: boolean): Promise<Process> {
  const config = parseConfig({ LOG_LEVEL: "error", DB_POOL_MAX: "2", HEALTH_CACHE_MS: "0", ...env }, "0.0.0-test");
  const runtime = await openRuntime(config, { vaultKeyFile });
  runtime.deps.lifecycle.markReady();
  Object.assign(runtime.deps, { peerAddress: (c: Context) => c.req.header("x-test-peer") });
  const app = createApp(runtime.deps);
  const req: Process["req"] = (method, path, token, body) => {
    const h: Record<string, string> = { "x-test-peer": `10.77.${Math.floor(++peer / 250) % 250}.${peer % 250}` };
    if (token) h.authorization = `Bearer ${token}`;
    const init = body === undefined ? { headers: h } : json(body, h);
    return Promise.resolve(app.request(`/api/v1/${path}`, { method, ...init }));
  };
  return { app, runtime, req, close: () => runtime.close() };
}
