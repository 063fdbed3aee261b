// GET /settings by who reads it (issue 36 item 8): an administrator reads every key; a viewer and a token without admin:* read only what the console renders for everyone (rate_limit_profile), never
// the settings holding URLs, addresses or secrets (cve_feed_sources with credentials in it, public_url,
// the outbound policy, the SMTP and firewall sections).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIEWER_SETTING_KEYS } from "../../../shared/verbs/settings/view.ts";
import { createHarness, type Harness, json } from "../audit/harness.ts";

let h: Harness;
// A mirror's key in the query (credentials in the URL itself are refused at save, docs/adr/0330).
const FEED = "https://feeds.example.test/nvd/nvdcve-2.0.json.gz?api_key=s3cret-pass";
beforeAll(async () => {
  h = await createHarness();
  const put = await h.call("/api/v1/settings", {
    method: "PUT",
    ...json({ cve_feed_sources: [FEED], public_url: "https://ops.example.test", rate_limit_profile: "strict" }),
  });
  expect(put.status).toBe(200);
});
afterAll(async () => h?.t.close());

const read = async (token: string) => {
  const res = await h.call("/api/v1/settings", { token });
  expect(res.status).toBe(200);
  const body = (await res.json()) as Record<string, unknown>;
  return { body, text: JSON.stringify(body) };
};

const token = async (scopes: string[]) => {
  const res = await h.call("/api/v1/auth/api-token", { method: "POST", ...json({ label: `settings ${scopes.join(" ")}`, scopes }) });
  expect(res.status).toBe(201);
  return (await res.json()).token as string;
};

describe("GET /settings by reader", () => {
  it("shows an administrator every key, the feed sources included", async () => {
    const { body } = await read(h.adminToken);
    expect(body.cve_feed_sources).toEqual([FEED]);
    expect(body).toMatchObject({
      public_url: "https://ops.example.test",
      rate_limit_profile: "strict",
      smtp_host: null,
      firewall_url: null,
    });
    expect(body.outbound_policy).toBeDefined();
  });

  it("shows a viewer only the keys the console renders for everyone", async () => {
    const { body, text } = await read(h.viewerToken);
    expect(Object.keys(body).sort()).toEqual([...VIEWER_SETTING_KEYS].sort());
    expect(body).toEqual({ rate_limit_profile: "strict" });
    expect(text).not.toContain("s3cret-pass");
    expect(text).not.toContain("example.test");
  });

  it("shows a token scoped to read:settings the viewer's keys, though its owner is an administrator", async () => {
    const { body, text } = await read(await token(["read:settings"]));
    expect(body).toEqual({ rate_limit_profile: "strict" });
    expect(text).not.toContain("s3cret-pass");
  });

  it("shows a token that keeps admin:* every key", async () => {
    const { body } = await read(await token(["read:settings", "admin:*"]));
    expect(body.cve_feed_sources).toEqual([FEED]);
  });

  it("GET /settings/oauth shows the providers' addresses to an administrator only", async () => {
    const patch = await h.call("/api/v1/settings/oauth", {
      method: "PATCH",
      ...json({
        providers: { corp: { type: "oidc", client_id: "console", issuer: "https://sso.example.test/realms/lab", enabled: false } },
      }),
    });
    expect(patch.status, await patch.clone().text()).toBe(200);
    const oauth = async (t: string) =>
      (await (await h.call("/api/v1/settings/oauth", { token: t })).json()) as { providers: Record<string, Record<string, unknown>> };
    expect((await oauth(h.adminToken)).providers.corp).toMatchObject({
      issuer: "https://sso.example.test/realms/lab",
      client_id: "console",
    });
    const viewer = await oauth(h.viewerToken);
    expect(viewer.providers.corp).toMatchObject({ issuer: null, base_url: null, api_url: null, client_id: "console" });
    expect(JSON.stringify(viewer)).not.toContain("example.test");
  });
});
