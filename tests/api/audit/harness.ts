// A bootstrapped app for the audit, confirmation and settings tests: an administrator's bearer token,
// a viewer's, and a request helper. Each request comes from its own address, so the (real) rate
// limiter never gets in the way of files that test something else.
import type { Context } from "hono";
import { expect } from "vitest";
import { hashPassword } from "../../../shared/auth/password.ts";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";

export interface Harness {
  t: TestApp;
  adminToken: string;
  adminId: number;
  viewerToken: string;
  viewerId: number;
  /** app.request with a bearer token (the admin's unless `token` is given; "" sends none). */
  call(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
}

const SETUP = "audit-harness-setup-token";
let peer = 0;
const peerAddress = (c: Context) => c.req.header("x-test-peer");

export async function createHarness(): Promise<Harness> {
  const t = await createTestApp({ SVC_SETUP_TOKEN: SETUP }, { peerAddress });
  const request = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    peer++;
    headers.set("x-test-peer", `10.9.${Math.floor(peer / 250) % 250}.${peer % 250}`);
    return t.app.request(path, { ...init, headers });
  };
  const init = await request("/api/v1/bootstrap/initialize", {
    method: "POST",
    ...json({ email: "admin@example.com", password: "audit harness admin password", setup_token: SETUP }),
  });
  expect(init.status).toBe(200);
  const admin = await init.json();
  const viewerHash = await hashPassword("viewer password 123", { iterations: 1000 });
  const [viewer] = await t.sql<
    { id: number }[]
  >`insert into users (email, password_hash, role) values ('viewer@example.com', ${viewerHash}, 'viewer') returning id`;
  const login = await request("/api/v1/auth/jwt/login", {
    method: "POST",
    ...json({ email: "viewer@example.com", password: "viewer password 123" }),
  });
  const viewerToken = (await login.json()).access_token as string;
  expect(viewerToken).toBeTruthy();
  const h: Harness = {
    t,
    adminToken: admin.token,
    adminId: admin.user.id,
    viewerToken,
    viewerId: viewer!.id,
    call: async (path, { token, ...rest } = {}) => {
      const headers = new Headers(rest.headers);
      const bearer = token ?? h.adminToken;
      if (bearer) headers.set("authorization", `Bearer ${bearer}`);
      return request(path, { ...rest, headers });
    },
  };
  return h;
}

/** The confirmation headers of a high-impact action. */
export function confirmHeaders(action: string, key: string, backup = false): Record<string, string> {
  return { "x-svc-confirmation": action, "idempotency-key": key, ...(backup ? { "x-svc-backup-verified": "true" } : {}) };
}

export { json };
