// Every setting that holds an outbound URL or host is checked against the outbound policy when saved:
// PUT /settings cve_feed_sources, PATCH /settings/oauth issuer / base_url / api_url, PATCH /settings/smtp
// smtp_host. A refusal is a 422 naming the field, never echoing a URL's path, and changes nothing.
// Link-local and cloud metadata are refused in every notation, whatever outbound_policy says.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, json } from "../audit/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.t.close();
});

const call = (method: string, path: string, body: unknown) => h.call(`/api/v1/settings${path}`, { method, ...json(body) });
const stored = async (key: string) => (await h.t.sql<{ value: unknown }[]>`select value from app_settings where key = ${key}`)[0]?.value;

describe("URL-holding settings at save", () => {
  it("refuses a metadata URL in cve_feed_sources, naming its index, without the path, storing nothing", async () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/TOKENPATH",
      "http://2852039166/TOKENPATH",
      "https://[::ffff:a9fe:a9fe]/TOKENPATH",
      "http://metadata.google.internal./TOKENPATH",
    ]) {
      const res = await call("PUT", "", { cve_feed_sources: ["https://nvd.example.test/feed.json.gz", url] });
      expect(res.status, url).toBe(422);
      const body = await res.json();
      expect(Object.keys(body.fields), url).toEqual(["cve_feed_sources.1"]);
      expect(body.fields["cve_feed_sources.1"]).toMatch(/^cve_feed_sources\[1\]: .*(metadata|link-local)/);
      expect(JSON.stringify(body)).not.toContain("TOKENPATH");
    }
    expect(await stored("cve_feed_sources")).toBeUndefined();
  });

  it("follows outbound_policy for loopback (the policy in the same request counts) and keeps file paths and good URLs", async () => {
    const loop = await call("PUT", "", {
      outbound_policy: { allow_private: true, allow_loopback: false },
      cve_feed_sources: ["http://127.1:8080/feed.json"],
    });
    expect(loop.status).toBe(422);
    expect((await loop.json()).fields["cve_feed_sources.0"]).toMatch(/allow_loopback/);
    const ok = await call("PUT", "", {
      cve_feed_sources: ["/var/lib/cve/nvd.json.gz", "https://nvd.example.test/feed.json.gz", "http://127.0.0.1:8080/feed.json"],
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).cve_feed_sources).toHaveLength(3);
    // Tightened later: the stored list sent back unchanged (a form saves every field) still saves; the fetch refuses it.
    const tightened = await call("PUT", "", {
      outbound_policy: { allow_private: true, allow_loopback: false },
      cve_feed_sources: ["/var/lib/cve/nvd.json.gz", "https://nvd.example.test/feed.json.gz", "http://127.0.0.1:8080/feed.json"],
    });
    expect(tightened.status).toBe(200);
    const added = await call("PUT", "", { cve_feed_sources: ["http://127.0.0.1:8080/feed.json", "http://127.0.0.2/other.json"] });
    expect(added.status).toBe(422);
    expect(Object.keys((await added.json()).fields)).toEqual(["cve_feed_sources.1"]);
    expect((await call("PUT", "", { outbound_policy: null })).status).toBe(200);
  });

  it("refuses allow_link_local: true in outbound_policy and accepts the old shape with false", async () => {
    const res = await call("PUT", "", { outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: true } });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields)[0]).toMatch(/^outbound_policy/);
    expect(
      (await call("PUT", "", { outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: false } })).status,
    ).toBe(200);
  });

  it("refuses a metadata OIDC issuer, GitHub base_url or api_url, naming the provider's field", async () => {
    for (const [field, url] of [
      ["issuer", "http://[::169.254.169.254]/"],
      ["base_url", "http://0xa9.0xfe.0xa9.0xfe/"],
      ["api_url", "http://[fd00:ec2::254]/SECRET"],
    ] as const) {
      const res = await call("PATCH", "/oauth", { providers: { corp: { type: "oidc", [field]: url } } });
      expect(res.status, field).toBe(422);
      const body = await res.json();
      expect(Object.keys(body.fields), field).toEqual([`providers.corp.${field}`]);
      expect(JSON.stringify(body)).not.toContain("SECRET");
    }
    expect(await stored("oauth")).toBeUndefined();
  });

  it("judges a name by the addresses it resolves to when saved (the API's resolver hook): feed, issuer, SMTP host", async () => {
    h.t.runtime.deps.resolveHost = async (name) =>
      name === "vm.example.test" ? ["127.0.0.1"] : name === "imds.example.test" ? ["169.254.169.254"] : [];
    try {
      const feed = await call("PUT", "", {
        outbound_policy: { allow_private: true, allow_loopback: false },
        cve_feed_sources: ["http://vm.example.test:8080/TOKENPATH"],
      });
      expect(feed.status).toBe(422);
      const body = await feed.json();
      expect(body.fields["cve_feed_sources.0"]).toMatch(/vm\.example\.test resolves to a refused address.*loopback/);
      expect(JSON.stringify(body)).not.toContain("TOKENPATH");
      const issuer = await call("PATCH", "/oauth", { providers: { corp: { type: "oidc", issuer: "https://imds.example.test/" } } });
      expect(issuer.status).toBe(422);
      expect((await issuer.json()).fields["providers.corp.issuer"]).toMatch(/resolves to a refused address.*metadata/);
      const smtp = await call("PATCH", "/smtp", { smtp_host: "imds.example.test", smtp_from_email: "cb@example.test" });
      expect(smtp.status).toBe(422);
      expect((await smtp.json()).fields.smtp_host).toMatch(/resolves to a refused address/);
      // A name that does not resolve here is judged when it is used.
      expect((await call("PATCH", "/smtp", { smtp_host: "mail.elsewhere.test", smtp_from_email: "cb@example.test" })).status).toBe(200);
      expect((await call("PATCH", "/smtp", { smtp_enabled: false, smtp_host: null, smtp_from_email: null })).status).toBe(200);
    } finally {
      delete h.t.runtime.deps.resolveHost;
    }
  });

  it("refuses an SMTP host in a numeric or mapped notation of metadata", async () => {
    for (const host of ["2852039166", "0xa9fea9fe", "::ffff:169.254.169.254", "fe80::1", "100.100.100.200"]) {
      const res = await call("PATCH", "/smtp", { smtp_host: host, smtp_from_email: "cb@example.test" });
      expect(res.status, host).toBe(422);
      expect(Object.keys((await res.json()).fields), host).toEqual(["smtp_host"]);
    }
  });
});
