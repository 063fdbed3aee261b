import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";

let t: TestApp;
const SETUP = "onboarding-setup-token";
let admin = "";

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP });
});
afterAll(async () => t.close());

describe("first-run onboarding and domain", () => {
  it("before first run the checklist and the domain work with the first-run grant (the setup token)", async () => {
    const setup = { "x-setup-token": SETUP };
    expect((await t.app.request("/api/v1/bootstrap/onboarding")).status).toBe(401);
    expect(
      (await t.app.request("/api/v1/bootstrap/domain", { method: "POST", ...json({ public_url: "https://evil.example.com/" }) })).status,
    ).toBe(401);
    const before = await (await t.app.request("/api/v1/bootstrap/onboarding", { headers: setup })).json();
    expect(before).toMatchObject({ completed: 0, dismissed: false, public_url: null });
    expect(before.steps.find((s: { key: string }) => s.key === "admin").done).toBe(false);
    const domain = await t.app.request("/api/v1/bootstrap/domain", {
      method: "POST",
      ...json({ public_url: "https://infra.example.com/" }, setup),
    });
    expect(domain.status).toBe(200);
    expect(await domain.json()).toEqual({ public_url: "https://infra.example.com" });
    const bad = await t.app.request("/api/v1/bootstrap/domain", { method: "POST", ...json({ public_url: "ftp://x/y" }, setup) });
    expect(bad.status).toBe(422);
  });

  it("after first run the steps reflect the data and only an admin changes them", async () => {
    const init = await t.app.request("/api/v1/bootstrap/initialize", {
      method: "POST",
      ...json({ email: "a@example.com", password: "onboarding admin pw", setup_token: SETUP }),
    });
    admin = (await init.json()).token;
    await t.sql`insert into hardware (name) values ('first-node')`;
    const auth = { authorization: `Bearer ${admin}` };
    const after = await (await t.app.request("/api/v1/bootstrap/onboarding", { headers: auth })).json();
    const done = Object.fromEntries(after.steps.map((s: { key: string; done: boolean }) => [s.key, s.done]));
    expect(done).toMatchObject({ admin: true, domain: true, hardware: true, service: false });
    const dismissed = await t.app.request("/api/v1/bootstrap/onboarding", { method: "PATCH", ...json({ dismissed: true }, auth) });
    expect((await dismissed.json()).dismissed).toBe(true);
    expect((await t.app.request("/api/v1/bootstrap/onboarding")).status).toBe(401);
    expect((await t.app.request("/api/v1/bootstrap/domain", { method: "POST", ...json({ public_url: "https://x.example" }) })).status).toBe(
      401,
    );
  });
});
