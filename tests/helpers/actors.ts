// A bootstrapped test app with signed-in admin, editor and viewer bearer tokens, and a request helper
// that gives every request its own client address (the real rate limiter stays on but never trips).
import type { Context } from "hono";
import { expect } from "vitest";
import { hashPassword } from "../../shared/auth/password.ts";
import { createTestApp, json, type TestApp } from "./app.ts";

export interface Actors {
  t: TestApp;
  admin: string;
  editor: string;
  viewer: string;
  /** Sends a request as `token` (or anonymously) with a JSON body when given. */
  req(method: string, path: string, token?: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

const SETUP = "actors-setup-token";
let peer = 0;

export async function createActors(env: Record<string, string> = {}): Promise<Actors> {
  const t = await createTestApp({ SVC_SETUP_TOKEN: SETUP, ...env }, { peerAddress: (c: Context) => c.req.header("x-test-peer") });
  const req: Actors["req"] = (method, path, token, body, headers = {}) => {
    const h: Record<string, string> = { ...headers, "x-test-peer": `10.9.${Math.floor(++peer / 250) % 250}.${peer % 250}` };
    if (token) h.authorization = `Bearer ${token}`;
    const init = body === undefined ? { headers: h } : json(body, h);
    return Promise.resolve(t.app.request(path.startsWith("/") ? path : `/api/v1/${path}`, { method, ...init }));
  };
  const init = await req("POST", "/api/v1/bootstrap/initialize", undefined, {
    email: "admin@example.com",
    password: "admin password for tests",
    setup_token: SETUP,
  });
  expect(init.status).toBe(200);
  const admin = (await init.json()).token as string;
  const signIn = async (role: string): Promise<string> => {
    const email = `${role}@example.com`;
    const hash = await hashPassword(`${role} password for tests`, { iterations: 1000 });
    await t.sql`insert into users (email, password_hash, role) values (${email}, ${hash}, ${role})`;
    const res = await req("POST", "/api/v1/auth/jwt/login", undefined, { email, password: `${role} password for tests` });
    expect(res.status).toBe(200);
    return (await res.json()).access_token as string;
  };
  return { t, admin, editor: await signIn("editor"), viewer: await signIn("viewer"), req };
}
