// Which bucket a request counts in: the naming (shared/ratelimit/bucket.ts) and the route hono matched,
// read by middleware registered before the routes (functions/middleware/rate-limit-route.ts).
import { Hono, type MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";
import { rateLimitRoute } from "../../../functions/middleware/rate-limit-route.ts";
import { bucketFor, routeName } from "../../../shared/ratelimit/bucket.ts";
import { CATEGORIES } from "../../../shared/ratelimit/policy.ts";

describe("bucketFor", () => {
  const route = "GET /api/v1/hardware/:hardware_id";

  it("keys the per-route categories by category, client and route", () => {
    expect(bucketFor("default", route, "198.51.100.7")).toEqual({ category: "default", key: `default:198.51.100.7:${route}` });
    expect(bucketFor("default", route, "2001:db8::/64").key).toBe(`default:2001:db8::/64:${route}`);
    for (const c of ["ip_check", "scan", "telemetry"] as const) {
      expect(bucketFor(c, "POST /a", "unknown").key).not.toBe(bucketFor(c, "POST /b", "unknown").key);
    }
  });

  it("keeps one bucket per client across the routes of auth and mfa_verify", () => {
    expect(bucketFor("auth", "POST /api/v1/auth/login", "198.51.100.7").key).toBe("auth:198.51.100.7");
    expect(bucketFor("auth", "POST /api/v1/auth/register", "198.51.100.7").key).toBe("auth:198.51.100.7");
    expect(bucketFor("mfa_verify", "POST /api/v1/auth/mfa/verify", "198.51.100.7").key).toBe("mfa_verify:198.51.100.7");
  });

  it("never gives two categories, clients or routes one key", () => {
    const keys = CATEGORIES.flatMap((c) =>
      ["198.51.100.7", "198.51.100.70", "unknown"].flatMap((id) => ["GET /x", "POST /x", "GET /y"].map((r) => bucketFor(c, r, id).key)),
    );
    const perClient = (c: string) => (c === "auth" || c === "mfa_verify" ? 3 : 9);
    expect(new Set(keys).size).toBe(CATEGORIES.reduce((n, c) => n + perClient(c), 0));
  });
});

describe("routeName", () => {
  it("is the method and pattern, HEAD sharing GET's, and <unmatched> without a route", () => {
    expect(routeName("get", "/api/v1/hardware")).toBe("GET /api/v1/hardware");
    expect(routeName("HEAD", "/api/v1/hardware")).toBe("GET /api/v1/hardware");
    expect(routeName("DELETE", undefined)).toBe("DELETE <unmatched>");
    expect(routeName("HEAD", undefined)).toBe("GET <unmatched>");
  });
});

describe("rateLimitRoute, from middleware registered before the routes", () => {
  function app() {
    const seen: string[] = [];
    const a = new Hono();
    const capture: MiddlewareHandler = async (c, next) => {
      seen.push(rateLimitRoute(c));
      await next();
    };
    a.notFound((c) => c.text("none", 404));
    a.use("*", async (_c, next) => next());
    a.use("/api/*", capture);
    const perRoute: MiddlewareHandler = async (_c, next) => next();
    // A route with its own middleware before the handler, as functions/openapi/route.ts registers them.
    a.on(["GET", "DELETE"], "/api/v1/hardware/:hardware_id", perRoute, (c) => c.text("one"));
    a.get("/api/v1/hardware", (c) => c.text("list"));
    a.get("/api/v1/hardware/search", (c) => c.text("never reached: :hardware_id answers first"));
    return { a, seen };
  }

  it("names the route pattern, not the path", async () => {
    const { a, seen } = app();
    for (const p of ["/api/v1/hardware/1", "/api/v1/hardware/2", "/api/v1/hardware/search", "/api/v1/hardware"]) await a.request(p);
    await a.request("/api/v1/hardware/1", { method: "DELETE" });
    expect(seen).toEqual([
      "GET /api/v1/hardware/:hardware_id",
      "GET /api/v1/hardware/:hardware_id",
      "GET /api/v1/hardware/:hardware_id",
      "GET /api/v1/hardware",
      "DELETE /api/v1/hardware/:hardware_id",
    ]);
  });

  it("gives HEAD the GET route, and a path no route matches (the notFound handler) <unmatched>", async () => {
    const { a, seen } = app();
    expect((await a.request("/api/v1/hardware", { method: "HEAD" })).status).toBe(200);
    expect((await a.request("/api/v1/nothing/here")).status).toBe(404);
    expect((await a.request("/api/v1/hardware", { method: "PUT" })).status).toBe(404);
    expect((await a.request("/api/v1/nothing", { method: "HEAD" })).status).toBe(404);
    expect(seen).toEqual(["GET /api/v1/hardware", "GET <unmatched>", "PUT <unmatched>", "GET <unmatched>"]);
  });
});
