// Over a real socket (@hono/node-server), the Node entry's peer provider gives the limiter the client
// address: the counter is keyed by 127.0.0.1, not "unknown".
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { clearOfMinuteBoundary } from "../../unit/ratelimit/support.ts";

let t: TestApp;
let server: ServerType;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.close();
});

describe("socket peer on Node", () => {
  it("keys the limit by the socket address and ignores a forwarded header from it", async () => {
    await clearOfMinuteBoundary();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await fetch(`${base}/api/v1/tenants`, { method: "POST", headers: { "x-forwarded-for": `198.51.100.${i}` } });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 410)).toHaveLength(30);
    expect(statuses[30]).toBe(429);
    const keys = await t.sql<{ key: string }[]>`select distinct key from rate_limit_counters`;
    expect(keys.map((k) => k.key)).toEqual(["default:127.0.0.1:POST /api/v1/tenants"]);
  });
});
