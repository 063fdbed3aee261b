// PATCH /settings/firewall and GET /settings/firewall/test against a fake OPNsense on 127.0.0.31
// replaying recorded answers: version, ARP and lease counts (ISC dhcpd and Kea), basic auth with the
// sealed key pair, the reference's unconfigured answers, failures as {ok: false, error}.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_OPNSENSE_KEY, FAKE_OPNSENSE_SECRET, type FakeOpnsense, startFakeOpnsense } from "../../helpers/fake-opnsense.ts";
import { createHarness, type Harness, json } from "../audit/harness.ts";

let h: Harness;
let fw: FakeOpnsense;
beforeAll(async () => {
  h = await createHarness();
  fw = await startFakeOpnsense();
});
afterAll(async () => {
  await h?.t.close();
  await fw?.close();
});

const patch = (body: unknown, token?: string) =>
  h.call("/api/v1/settings/firewall", { method: "PATCH", ...json(body), ...(token === undefined ? {} : { token }) });
const test = async (token?: string) => {
  const res = await h.call("/api/v1/settings/firewall/test", token === undefined ? {} : { token });
  return { status: res.status, body: await res.json() };
};
const failed = (error: string) => ({ ok: false, version: null, arp_count: null, lease_count: null, kea: false, error });

describe("GET /settings/firewall/test", () => {
  it("says what is missing before it is configured", async () => {
    expect(await test()).toEqual({ status: 200, body: failed("OPNsense host is not configured") });
    expect((await patch({ firewall_url: fw.url })).status).toBe(200);
    expect(await test()).toEqual({ status: 200, body: failed("OPNsense API credentials are not configured") });
    expect(fw.requests).toHaveLength(0);
  });

  it("stores the key pair sealed and never shows it", async () => {
    const res = await patch({ firewall_api_key: FAKE_OPNSENSE_KEY, firewall_api_secret: FAKE_OPNSENSE_SECRET });
    const text = await res.text();
    expect(text).not.toContain(FAKE_OPNSENSE_SECRET);
    expect(text).not.toContain(FAKE_OPNSENSE_KEY);
    expect(JSON.parse(text)).toEqual({
      firewall_url: fw.url,
      firewall_verify_tls: true,
      firewall_api_key_set: true,
      firewall_api_secret_set: true,
    });
    const rows = await h.t.sql`select name, value from server_secrets where name like 'settings.firewall.%' order by name`;
    expect(rows.map((r) => r.name)).toEqual(["settings.firewall.firewall_api_key", "settings.firewall.firewall_api_secret"]);
    for (const r of rows) expect(r.value).toMatch(/^vault:v1:/);
    const audit = await h.t.sql`select diff::text as d from audit_log where action = 'settings.firewall_updated'`;
    for (const a of audit) expect(a.d).not.toContain(FAKE_OPNSENSE_SECRET);
  });

  it("answers the version, ARP and lease counts, asking with basic auth", async () => {
    expect(await test()).toEqual({
      status: 200,
      body: { ok: true, version: "24.7.9", arp_count: 4, lease_count: 3, kea: false, error: null },
    });
    expect(fw.requests.map((r) => r.path)).toEqual([
      "/api/core/firmware/status",
      "/api/diagnostics/interface/getArp",
      "/api/dhcpv4/leases/searchLease",
    ]);
    expect(
      fw.requests.every(
        (r) => r.authorization === `Basic ${Buffer.from(`${FAKE_OPNSENSE_KEY}:${FAKE_OPNSENSE_SECRET}`).toString("base64")}`,
      ),
    ).toBe(true);
  });

  it("counts Kea leases on a firewall without the dhcpv4 module, and reads an older firmware answer", async () => {
    fw.state.kea = true;
    fw.state.legacyFirmware = true;
    expect((await test()).body).toEqual({ ok: true, version: "21.7.8", arp_count: 4, lease_count: 2, kea: true, error: null });
    fw.state.kea = false;
    fw.state.legacyFirmware = false;
  });

  it("answers ok false for a refused key, a non-OPNsense answer, an unreachable host and the outbound policy", async () => {
    await patch({ firewall_api_secret: "wrong" });
    expect((await test()).body).toEqual(failed("OPNsense refused the API key (HTTP 401)"));
    await patch({ firewall_api_secret: FAKE_OPNSENSE_SECRET });
    fw.state.garbage = true;
    expect((await test()).body.error).toMatch(/not JSON/);
    fw.state.garbage = false;
    // A port on 127.0.0.32 nobody listens on.
    await patch({ firewall_url: "http://127.0.0.32:9" });
    const down = (await test()).body;
    expect(down.ok).toBe(false);
    expect(down.error).toMatch(/^OPNsense unreachable/);
    await h.t
      .sql`update app_settings set value = ${h.t.sql.json({ allow_private: true, allow_loopback: false, allow_link_local: false })} where key = 'outbound_policy'`;
    const refused = (await test()).body;
    expect(refused.error).toMatch(/^Refused by the outbound policy/);
    expect((await patch({ firewall_url: fw.url })).status).toBe(422);
    await h.t
      .sql`update app_settings set value = ${h.t.sql.json({ allow_private: true, allow_loopback: true, allow_link_local: false })} where key = 'outbound_policy'`;
    await patch({ firewall_url: fw.url });
    expect((await test()).body.ok).toBe(true);
  });

  it("refuses bad input with 422 naming the field, and changes nothing", async () => {
    const before = await (await patch({})).json();
    for (const [body, field] of [
      [{ firewall_url: "ftp://x" }, "body.firewall_url"],
      [{ firewall_url: "http://169.254.169.254" }, "body.firewall_url"],
      [{ firewall_verify_tls: "no" }, "body.firewall_verify_tls"],
      [{ host: "x" }, "body.host"],
    ] as const) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        (await res.json()).detail.map((i: { loc: string[] }) => i.loc.join(".")),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect(await (await patch({})).json()).toEqual(before);
  });

  it("is for administrators only", async () => {
    expect((await test(h.viewerToken)).status).toBe(403);
    expect((await patch({ firewall_verify_tls: false }, h.viewerToken)).status).toBe(403);
    expect((await test("")).status).toBe(401);
  });
});
