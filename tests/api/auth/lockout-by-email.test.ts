// The sign-in lockout must not tell which e-mails have accounts (issue 36 item 13): failures are counted
// per submitted e-mail, known or not, so a known and an unknown address answer alike, status, body and
// headers, until both are locked; unlocking, a password reset and a good sign-in clear the count.
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";

let t: TestApp;
let adminJwt = "";
let peer = 0;
const admin = { email: "admin@example.com", password: "the admin password 123" };
const known = { email: "known@example.com", password: "the known password 123" };

// Every attempt from its own address: the per-address rate limit is another defence, not this one.
const attempt = (email: string, password: string) =>
  t.app.request("/api/v1/auth/login", {
    method: "POST",
    ...json({ email, password }, { "x-test-peer": `10.13.${Math.floor(++peer / 250)}.${peer % 250}` }),
  });

/** What a client can observe of an answer, with the few values that vary by the clock made constant. */
async function observable(res: Response) {
  const headers = [...res.headers.entries()]
    .filter(([k]) => !["date", "x-request-id"].includes(k))
    .map(([k, v]) => [k, ["retry-after", "ratelimit-reset"].includes(k) ? "<seconds>" : v]);
  const body = await res.json();
  for (const k of ["request_id", "retry_after"]) if (k in body) body[k] = `<${k}>`;
  return { status: res.status, headers, body };
}

async function failures(email: string, n: number) {
  const seen = [];
  for (let i = 0; i < n; i++) seen.push(await observable(await attempt(email, `wrong guess ${i}`)));
  return seen;
}

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: "lockout-setup" }, { peerAddress: (c: Context) => c.req.header("x-test-peer") });
  const init = await t.app.request("/api/v1/bootstrap/initialize", {
    method: "POST",
    ...json({ ...admin, setup_token: "lockout-setup" }, { "x-test-peer": "10.0.0.1" }),
  });
  expect(init.status).toBe(200);
  adminJwt = (await init.json()).token;
  const created = await t.app.request("/api/v1/admin/users", {
    method: "POST",
    ...json(
      { email: known.email, password: known.password, role: "viewer" },
      { authorization: `Bearer ${adminJwt}`, "x-test-peer": "10.0.0.2" },
    ),
  });
  expect(created.status).toBe(201);
});
afterAll(async () => t.close());

describe("lockout per submitted e-mail", () => {
  it("a known and an unknown e-mail answer alike: 401 until the threshold, then 423, same headers and body", async () => {
    const ofKnown = await failures(known.email, 6);
    const ofUnknown = await failures("nobody-here@example.com", 6);
    expect(ofKnown.map((r) => r.status)).toEqual([401, 401, 401, 401, 423, 423]);
    expect(ofUnknown).toEqual(ofKnown);
    // Locked is locked: the right password is refused alike too.
    const right = await observable(await attempt(known.email, known.password));
    expect(right).toEqual(ofKnown[5]);
  });

  it("the count is per e-mail as submitted, case folded, so the address is the same however it is typed", async () => {
    const [first] = await failures("Nobody-Here@Example.com", 1);
    expect(first!.status).toBe(423);
  });

  it("an administrator's unlock clears the count: the right password signs in again", async () => {
    const id = (await t.sql<{ id: number }[]>`select id from users where email = ${known.email}`)[0]!.id;
    const unlock = await t.app.request(`/api/v1/admin/users/${id}/unlock`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminJwt}`, "x-test-peer": "10.0.0.3" },
    });
    expect(unlock.status).toBe(200);
    expect((await attempt(known.email, known.password)).status).toBe(200);
  });

  it("a good sign-in resets the count: four more failures are still 401", async () => {
    expect((await failures(known.email, 4)).map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect((await attempt(known.email, known.password)).status).toBe(200);
    expect((await failures(known.email, 4)).map((r) => r.status)).toEqual([401, 401, 401, 401]);
  });
});
