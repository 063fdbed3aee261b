// The metrics tests' fixture: a test app with the metrics routes registered (before any request, as
// bin/start.ts does), optionally bootstrapped with an admin, and a small lab covering every family.
import type { Context } from "hono";
import type postgres from "postgres";
import { expect } from "vitest";
import { metricsRoutes } from "../../../functions/routes/metrics.ts";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";

const SETUP = "metrics-setup-token";
let peer = 0;

export interface MetricsApp {
  t: TestApp;
  /** GET `path` with `authorization: Bearer <token>` when a token is given, plus any other headers. */
  get(path: string, token?: string, headers?: Record<string, string>): Promise<Response>;
  /** POST a JSON body as `token`. */
  post(path: string, token: string | undefined, body: unknown): Promise<Response>;
  /** Creates the first administrator and answers its session JWT. */
  bootstrap(): Promise<string>;
}

export async function metricsApp(env: Record<string, string> = {}): Promise<MetricsApp> {
  // Each request its own client address (unless it names one in x-test-peer), so the real rate limiter
  // never trips on the sign-ins.
  const t = await createTestApp(
    { SVC_SETUP_TOKEN: SETUP, ...env },
    { peerAddress: (c: Context) => c.req.header("x-test-peer") ?? `198.51.100.${++peer % 250}` },
  );
  metricsRoutes(t.app);
  const headersFor = (token?: string, extra: Record<string, string> = {}) => ({
    ...extra,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  const get: MetricsApp["get"] = async (path, token, headers) => t.app.request(path, { headers: headersFor(token, headers) });
  const post: MetricsApp["post"] = async (path, token, body) => t.app.request(path, { method: "POST", ...json(body, headersFor(token)) });
  const bootstrap = async () => {
    const res = await post("/api/v1/bootstrap/initialize", undefined, {
      email: "admin@example.com",
      password: "admin password for tests",
      setup_token: SETUP,
    });
    expect(res.status).toBe(200);
    return (await res.json()).token as string;
  };
  return { t, get, post, bootstrap };
}

/** Mints an API token with `scopes` as the given (admin) caller. */
export async function apiToken(m: MetricsApp, adminJwt: string, scopes: string[]): Promise<string> {
  const res = await m.post("/api/v1/auth/api-token", adminJwt, { label: `metrics ${scopes.join(" ")}`, scopes });
  expect(res.status).toBe(201);
  return (await res.json()).token as string;
}

export const WEIRD_NAME = 'we"ird\\name\nsecond line';

/**
 * A lab touching every family: hardware with and without memory and role, VMs and containers with
 * partly null sizes, services in three of the four statuses (one named WEIRD_NAME, one taking its
 * environment from environment_id), storage of three kinds with partly null sizes, external nodes whose
 * null and empty providers fall into one series, and one each of the other counted things.
 */
export async function populateLab(sql: postgres.Sql): Promise<void> {
  const [env] = await sql<{ id: number }[]>`insert into environments (name) values ('prod') returning id`;
  const hw = await sql<{ id: number }[]>`insert into hardware (name, role, memory_gb) values
    ('node-a', 'hypervisor', 64), ('node-b', null, 12.5), ('node-c', 'nas', null) returning id`;
  await sql`insert into compute_units (name, kind, hardware_id, memory_mb, cpu_cores) values
    ('vm-1', 'vm', ${hw[0]!.id}, 2048, 2), ('vm-2', 'vm', ${hw[0]!.id}, null, 1.5), ('ct-1', 'container', ${hw[1]!.id}, 512, null)`;
  const svc = await sql<{ id: number }[]>`insert into services (name, slug, environment, environment_id, status) values
    ('web', 'web', 'prod', null, 'running'),
    (${WEIRD_NAME}, 'weird', null, ${env!.id}, 'maintenance'),
    ('db', 'db', 'staging', null, 'degraded'),
    ('batch', 'batch', null, null, 'running') returning id`;
  await sql`insert into service_dependencies (service_id, depends_on_id) values (${svc[0]!.id}, ${svc[2]!.id}), (${svc[3]!.id}, ${svc[2]!.id})`;
  await sql`insert into storage (name, kind, capacity_gb, used_gb) values
    ('sda', 'disk', 500, 120.5), ('tank', 'pool', 1000, null), ('tank/data', 'dataset', null, 300)`;
  await sql`insert into networks (name, cidr) values ('lan', '10.0.0.0/24'), ('dmz', '10.0.1.0/24')`;
  await sql`insert into hardware_clusters (name) values ('cluster-1')`;
  await sql`insert into external_nodes (name, provider, kind) values
    ('ext-1', 'aws', 'vm'), ('ext-2', 'aws', 'vm'), ('ext-3', null, 'dns'), ('ext-4', '', 'dns')`;
  await sql`insert into misc_items (name) values ('ups')`;
  await sql`insert into docs (title) values ('runbook'), ('network plan'), ('faq')`;
  await sql`insert into tags (name) values ('critical'), ('lab')`;
  // Two racks (svc_rack_units): node-a (2 U) and node-b (1 U, rear) in the first, units 10-13 reserved.
  const [site] = await sql<{ id: number }[]>`insert into sites (name) values ('dc "1"') returning id`;
  const racks = await sql<{ id: number }[]>`insert into racks (site_id, name, u_height) values
    (${site!.id}, 'r1', 42), (${site!.id}, 'r2', 12) returning id`;
  await sql`update hardware set site_id = ${site!.id}, rack_id = ${racks[0]!.id}, rack_unit = 1, u_height = 2, rack_face = 'front' where name = 'node-a'`;
  await sql`update hardware set site_id = ${site!.id}, rack_id = ${racks[0]!.id}, rack_unit = 2, u_height = 1, rack_face = 'rear' where name = 'node-b'`;
  await sql`insert into rack_reservations (rack_id, first_unit, u_count, reason) values (${racks[0]!.id}, 10, 4, 'UPS')`;
}

/** The sample lines of one family (no comments), in the order written. */
export function familySamples(text: string, name: string): string[] {
  return text.split("\n").filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
}
