// The security suite generated from the spec's catalogue: for every catalogued operation the app has
// registered, no credential -> 401 (public ones excepted), a viewer's write -> 403, before first run
// every non-first-run route -> 401, every error is JSON, and a read made with a token scoped to one kind
// never answers an object of another kind. Operations not built yet are listed as
// todo, so a route is covered the day it appears.
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFirstRunRoute } from "../../functions/access.ts";
import { hashPassword } from "../../shared/auth/password.ts";
import { createTestApp, json, type TestApp } from "../helpers/app.ts";
import {
  type CatalogueOp,
  concretePath,
  concretePathsByKind,
  fixturesAnswered,
  isPublic,
  isSelfService,
  isWrite,
  KIND_FIXTURES,
  KNOWN_CROSS_KIND_READS,
  readCatalogue,
} from "./catalogue.ts";

const catalogue = readCatalogue().filter((op) => op.method !== "HEAD");
let ready: TestApp;
let fresh: TestApp;
let viewerToken = "";
/** A token per kind of KIND_FIXTURES holding only that kind's read scope. */
const kindTokens = new Map<(typeof KIND_FIXTURES)[number]["kind"], string>();
const registered = new Set<string>();
let openapi: { paths: Record<string, Record<string, { security?: unknown[] }>> };
let peer = 0;

// Each request comes from its own address, so the rate limiter (which is real) never gets in the way.
const peerAddress = (c: Context) => c.req.header("x-test-peer");

async function call(app: TestApp, op: CatalogueOp, headers: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = isWrite(op) ? { method: op.method, ...json({}, headers) } : { method: op.method, headers };
  (init.headers as Record<string, string>)["x-test-peer"] = `10.1.${Math.floor(++peer / 250)}.${peer % 250}`;
  return app.app.request(concretePath(op.path), init);
}

function expectJsonError(res: Response, op: CatalogueOp) {
  expect(res.headers.get("content-type"), `${op.method} ${op.path}`).toMatch(/^application\/json/);
}

beforeAll(async () => {
  ready = await createTestApp({ SVC_SETUP_TOKEN: "security-suite-setup" }, { peerAddress });
  fresh = await createTestApp({ SVC_SETUP_TOKEN: "security-suite-setup" }, { peerAddress });
  const init = await ready.app.request("/api/v1/bootstrap/initialize", {
    method: "POST",
    ...json({ email: "admin@example.com", password: "security suite admin pw", setup_token: "security-suite-setup" }),
  });
  expect(init.status).toBe(200);
  const viewerHash = await hashPassword("viewer password 123", { iterations: 1000 });
  await ready.sql`insert into users (email, password_hash, role) values ('viewer@example.com', ${viewerHash}, 'viewer')`;
  const login = await ready.app.request("/api/v1/auth/jwt/login", {
    method: "POST",
    ...json({ email: "viewer@example.com", password: "viewer password 123" }),
  });
  viewerToken = (await login.json()).access_token;
  expect(viewerToken).toBeTruthy();
  const [hw, cu, svc, st] = KIND_FIXTURES.map((f) => f.marker);
  await ready.sql`insert into hardware (id, name, status) values (1, ${hw!}, 'up')`;
  await ready.sql`insert into compute_units (id, name, kind, hardware_id, status) values (1, ${cu!}, 'vm', 1, 'running')`;
  await ready.sql`insert into services (id, name, slug, compute_id, status) values (1, ${svc!}, ${svc!}, 1, 'running')`;
  await ready.sql`insert into storage (id, name, kind, hardware_id) values (1, ${st!}, 'pool', 1)`;
  const adminToken = (await init.clone().json()).token as string;
  for (const f of KIND_FIXTURES) {
    const minted = await ready.app.request("/api/v1/auth/api-token", {
      method: "POST",
      ...json(
        { label: `only ${f.scope}`, scopes: [f.scope] },
        { authorization: `Bearer ${adminToken}`, "x-test-peer": `10.2.0.${kindTokens.size + 1}` },
      ),
    });
    expect(minted.status).toBe(201);
    kindTokens.set(f.kind, (await minted.json()).token);
  }
  openapi = await (await ready.app.request("/api/openapi.json")).json();
  for (const [path, ops] of Object.entries(openapi.paths)) for (const m of Object.keys(ops)) registered.add(`${m.toUpperCase()} ${path}`);
});
afterAll(async () => {
  await ready?.close();
  await fresh?.close();
});

const built = (op: CatalogueOp) => registered.has(`${op.method} ${op.path}`);

/**
 * Catalogued operations served but not under the catalogue's own path in the document of createApp, each
 * with where it is: with them, every operation of the catalogue is served (issue 28 closed the last two).
 */
const SERVED_ELSEWHERE = new Map<string, () => boolean>([
  // The metrics scrape is kept out of the document (docs/architecture.md, API contracts); bin/start.ts mounts it.
  ["GET /api/v1/metrics", () => true],
  // A stream's status needs the streams worker: bin/start.ts registers these with it (functions/routes/stream-status.ts).
  ["GET /api/v1/discovery/ws/status", () => true],
  ["GET /api/v1/topology/ws/status", () => true],
  // The catalogue names one placeholder per provider; the document serves them under {name} and {slug}.
  ...["{provider_a}", "{provider_b}"].flatMap((p) => [
    [
      `GET /api/v1/auth/oauth/${p}`,
      () => registered.has("GET /api/v1/auth/oauth/github") || registered.has("GET /api/v1/auth/oauth/google"),
    ] as const,
    [
      `GET /api/v1/auth/oauth/${p}/callback`,
      () => registered.has("GET /api/v1/auth/oauth/github/callback") || registered.has("GET /api/v1/auth/oauth/google/callback"),
    ] as const,
  ]),
  ["GET /api/v1/auth/oauth/oidc/{provider_slug}", () => registered.has("GET /api/v1/auth/oauth/oidc/{slug}")],
  ["GET /api/v1/auth/oauth/oidc/{provider_slug}/callback", () => registered.has("GET /api/v1/auth/oauth/oidc/{slug}/callback")],
]);

describe("catalogue security suite", () => {
  it("reads the whole catalogue", () => {
    expect(catalogue.length).toBeGreaterThan(400);
  });

  it("serves every catalogued operation", () => {
    const served = catalogue.filter((op) => built(op) || SERVED_ELSEWHERE.get(`${op.method} ${op.path}`)?.());
    expect(catalogue.filter((op) => !served.includes(op)).map((op) => `${op.method} ${op.path}`)).toEqual([]);
    expect(served.length).toBe(catalogue.length);
    expect(built({ method: "GET", path: "/api/v1/discovery/listener/status", group: "discovery" })).toBe(true);
    expect(built({ method: "GET", path: "/api/v1/discovery/listener/events", group: "discovery" })).toBe(true);
  });

  for (const op of catalogue) {
    const name = `${op.method} ${op.path}`;
    describe(name, () => {
      it("is registered, or still to be built", (ctx) => {
        if (!built(op)) ctx.skip(`not built yet: ${name}`);
        // The document marks exactly the public operations as needing no credential.
        const security = openapi.paths[op.path]?.[op.method.toLowerCase()]?.security;
        expect(Array.isArray(security) && security.length === 0, `${name} public marking`).toBe(isPublic(op));
      });

      it("without a credential answers 401 unless public", async (ctx) => {
        if (!built(op) || isPublic(op)) ctx.skip();
        const res = await call(ready, op);
        expect(res.status, name).toBe(401);
        expectJsonError(res, op);
      });

      it("refuses a viewer's write with 403", async (ctx) => {
        if (!built(op) || isPublic(op) || !isWrite(op)) ctx.skip();
        const res = await call(ready, op, { authorization: `Bearer ${viewerToken}` });
        if (isSelfService(op)) {
          expect(res.status, name).not.toBe(401);
          expect(res.status, name).toBeLessThan(500);
        } else {
          expect(res.status, name).toBe(403);
          expectJsonError(res, op);
        }
      });

      it("a read never answers an object of a kind outside the caller's scopes", async (ctx) => {
        if (!built(op) || isPublic(op) || op.method !== "GET") ctx.skip();
        const known = KNOWN_CROSS_KIND_READS.get(name);
        if (known) ctx.skip(`known cross-kind read: ${known}`);
        for (const url of concretePathsByKind(op.path))
          for (const own of KIND_FIXTURES) {
            const res = await call(ready, { ...op, path: url }, { authorization: `Bearer ${kindTokens.get(own.kind)}` });
            // Only JSON answers hold objects; a stream (SSE) answers forever and is left unread.
            if (!res.headers.get("content-type")?.startsWith("application/json")) {
              await res.body?.cancel();
              continue;
            }
            const others = fixturesAnswered(await res.json()).filter((f) => f !== own);
            expect(
              others.map((f) => f.kind),
              `${url} with only ${own.scope}`,
            ).toEqual([]);
          }
      });

      it("before first run answers 401 unless public or a first-run route", async (ctx) => {
        if (!built(op) || isPublic(op) || isFirstRunRoute(op.method, op.path)) ctx.skip();
        const res = await call(fresh, op);
        expect(res.status, name).toBe(401);
        expectJsonError(res, op);
      });
    });
  }
});
