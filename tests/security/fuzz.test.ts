// The fuzz suite, generated from the served OpenAPI document like the security suite is from the
// catalogue: every operation gets the malformed variants of ./fuzz.ts with an administrator's
// credential (so validation, not authorisation, is what answers), and no answer may be a 5xx, and every
// refusal must be the JSON error envelope. A route added tomorrow is fuzzed the day it appears.
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, json, type TestApp } from "../helpers/app.ts";
import { operations, type Operation, variants } from "./fuzz.ts";

const SETUP = "fuzz-suite-setup";
let t: TestApp;
let admin = "";
let ops: Operation[] = [];
let peer = 0;

// Each request comes from its own address, so the real rate limiter never answers in validation's place.
const nextPeer = () => `10.2.${Math.floor(++peer / 250) % 250}.${peer % 250}`;

async function send(url: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${admin}`);
  headers.set("x-test-peer", nextPeer());
  return t.app.request(url, { ...init, headers });
}

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP }, { peerAddress: (c: Context) => c.req.header("x-test-peer") });
  const init = await t.app.request("/api/v1/bootstrap/initialize", {
    method: "POST",
    ...json({ email: "fuzz-admin@example.com", password: "fuzz suite admin password", setup_token: SETUP }, { "x-test-peer": nextPeer() }),
  });
  expect(init.status).toBe(200);
  admin = (await init.json()).token;
  ops = operations(await (await t.app.request("/api/openapi.json")).json());
});
afterAll(async () => {
  await t?.close();
});

/** What is wrong with one answer, or undefined when it is acceptable. */
async function problem(op: Operation, res: Response): Promise<string | undefined> {
  const type = res.headers.get("content-type") ?? "";
  if (res.status >= 500) return `${res.status} ${(await res.text()).slice(0, 300)}`;
  if (res.status >= 400) {
    if (!/^application\/json/.test(type)) return `${res.status} answered ${type || "no content type"}, not the JSON envelope`;
    const body = (await res.json()) as { error_code?: unknown };
    return typeof body.error_code === "string" ? undefined : `${res.status} without error_code`;
  }
  // A success that is documented as JSON must be JSON; anything else (a stream, a file) is not read.
  if (/json/.test(op.okType ?? "") && res.status !== 204) {
    try {
      await res.json();
    } catch {
      return `${res.status} documented as JSON but not JSON`;
    }
  } else await res.body?.cancel();
  return undefined;
}

describe("fuzz suite (generated from /api/openapi.json)", () => {
  it("finds the operations to fuzz", () => {
    expect(ops.length).toBeGreaterThan(150);
    expect(ops.reduce((n, op) => n + variants(op).length, 0)).toBeGreaterThan(3000);
  });

  // One test for all operations: vitest collects tests before beforeAll has read the document, and
  // the failures are listed together (the first 50) so one run shows the whole picture.
  it("answers every malformed request of every operation without a 5xx, refusals as JSON", async () => {
    const failures: string[] = [];
    for (const op of ops) {
      for (const v of variants(op)) {
        const res = await send(v.url, v.init);
        const p = await problem(op, res);
        if (p) failures.push(`${op.method} ${op.path} [${v.what}]: ${p}`);
      }
    }
    expect(failures, failures.slice(0, 50).join("\n")).toEqual([]);
  }, 600_000);

  it("kept its credential throughout (every variant was really answered by validation or the verb)", async () => {
    const me = await send("/api/v1/auth/me", {});
    expect(me.status).toBe(200);
  });
});
