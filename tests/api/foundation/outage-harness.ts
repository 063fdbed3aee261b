// Shared by the outage suites: the app opened the way a Node entry opens it (openRuntime), on a test
// database it may reach through a TCP proxy (tests/helpers/tcp-proxy.ts) that a test cuts and restores.
import { TEST_VAULT_KEY } from "../../helpers/env.ts";
import type { Hono } from "hono";
import { expect } from "vitest";
import { createApp } from "../../../functions/app.ts";
import type { AppEnv, Deps } from "../../../functions/deps.ts";
import { parseConfig } from "../../../shared/config.ts";
import { type NodeRuntime, openRuntime } from "../../../runtime/node-deps.ts";
import type { TcpProxy } from "../../helpers/tcp-proxy.ts";

export interface Instance {
  app: Hono<AppEnv>;
  runtime: NodeRuntime;
}

/**
 * A ready instance; the caller closes `runtime`. Every write probes afresh (HEALTH_CACHE_MS 0). `deps`
 * replaces parts of the runtime's deps before the app is built.
 */
export async function openInstance(env: Record<string, string> & { DATABASE_URL: string }, deps: Partial<Deps> = {}): Promise<Instance> {
  const config = parseConfig(
    { LOG_LEVEL: "error", DB_POOL_MAX: "4", HEALTH_CACHE_MS: "0", SVC_VAULT_KEY: TEST_VAULT_KEY, ...env },
    "0.0.0-test",
  );
  const runtime = await openRuntime(config);
  runtime.deps.lifecycle.markReady();
  Object.assign(runtime.deps, deps);
  return { app: createApp(runtime.deps), runtime };
}

/** `url` with its host replaced by the proxy's. */
export function through(proxy: TcpProxy, url: string): string {
  const u = new URL(url);
  u.host = proxy.address;
  return u.toString();
}

/** Polls readyz until `done` holds (a reconnect may take a retry interval); returns the last body. */
export async function readyzUntil(app: Hono<AppEnv>, done: (status: number, body: Record<string, unknown>) => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await app.request("/api/v1/readyz");
    const body = (await res.json()) as Record<string, unknown>;
    if (done(res.status, body) || Date.now() > deadline) return { status: res.status, body };
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The guard admits the write and the route answers (tenants are gone by decision: 410). */
export async function expectWriteAdmitted(app: Hono<AppEnv>) {
  const res = await app.request("/api/v1/tenants", { method: "POST" });
  expect(res.status).toBe(410);
}
