// Cloud metadata and link-local destinations are refused for every outbound request, whatever the policy
// (the most open one included) and in every spelling: as a URL's host, as a bare host (SMTP, a monitor's
// host, a dns resolver), and as the address a name resolves to (the lookup hook, no real DNS).
import { describe, expect, it } from "vitest";
import {
  checkOutboundHost,
  checkOutboundUrl,
  DEFAULT_MONITOR_POLICY,
  type OutboundPolicy,
} from "../../../shared/domain/net/outbound-policy.ts";
import { pinAllowedAddress, policyLookup, type Resolve } from "../../../net/outbound-http.ts";
import { savedHostRefusal } from "../../../shared/net/resolved-host.ts";
import { runCheck } from "../../../net/checks/run-check.ts";

const OPEN: OutboundPolicy = { allow_private: true, allow_loopback: true };

/** 169.254.169.254 (and its neighbours) as people write it to get past a filter. */
const NOTATIONS = [
  "169.254.169.254",
  "2852039166",
  "0xa9fea9fe",
  "0XA9FEA9FE",
  "0xa9.0xfe.0xa9.0xfe",
  "0251.0376.0251.0376",
  "169.254.43518",
  "169.16689662",
  "169.254.169.254.",
  "[::ffff:169.254.169.254]",
  "[::ffff:a9fe:a9fe]",
  "[0:0:0:0:0:ffff:a9fe:a9fe]",
  "[::169.254.169.254]",
  "[fe80::1]",
  "[fd00:ec2::254]",
  "100.100.100.200",
  "169.254.1.1",
  "metadata.google.internal",
  "METADATA.google.internal.",
];

describe("metadata and link-local in every notation", () => {
  it.each(NOTATIONS)("refuses %s as a URL's host under the most open policy", (host) => {
    const r = checkOutboundUrl(`http://${host}/latest/meta-data/`, OPEN);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).not.toContain("meta-data");
  });

  it.each(NOTATIONS)("refuses %s as a bare host (SMTP, monitor host) under the most open policy and the monitor policy", (host) => {
    expect(checkOutboundHost(host, OPEN)).not.toBeNull();
    expect(checkOutboundHost(host, DEFAULT_MONITOR_POLICY)).not.toBeNull();
    expect(checkOutboundHost(`${host}`.replace(/^\[(.*)\]$/, "$1"), OPEN)).not.toBeNull();
  });

  it("still allows what the policy allows, spelled oddly", () => {
    expect(checkOutboundHost("2130706433", OPEN)).toBeNull(); // 127.0.0.1
    expect(checkOutboundHost("2130706433", { allow_private: true, allow_loopback: false })).toMatch(/loopback/);
    expect(checkOutboundHost("0x0a000001", { allow_private: false, allow_loopback: true })).toMatch(/private/);
    expect(checkOutboundHost("nas.lan.", OPEN)).toBeNull();
    expect(checkOutboundUrl("http://[fe80::1]/", OPEN).ok).toBe(false);
  });

  it("refuses a name that resolves there, at connect (lookup hook) and when pinned (SMTP, ping)", async () => {
    for (const address of ["169.254.169.254", "::ffff:169.254.169.254", "fe80::1", "fd00:ec2::254", "100.100.100.200"]) {
      const resolve: Resolve = async () => [{ address, family: address.includes(":") ? 6 : 4 }];
      const err = await new Promise<Error | null>((done) => policyLookup(OPEN, resolve)("innocent.example", { family: 0 }, (e) => done(e)));
      expect(err?.message, address).toMatch(/refused address/);
      await expect(pinAllowedAddress("innocent.example", OPEN, resolve), address).rejects.toMatchObject({ code: "refused" });
    }
  });
});

describe("a saved name judged by its addresses", () => {
  it("refuses when no address is allowed, lets through a name with an allowed one or none resolved here", async () => {
    const resolve = async (name: string) =>
      ({ "imds.test": ["169.254.169.254"], "mixed.test": ["fe80::1", "192.168.1.4"], "gone.test": [] })[name] ??
      Promise.reject(new Error("ENOTFOUND"));
    expect(await savedHostRefusal(resolve, "imds.test.", OPEN)).toMatch(
      /^imds\.test resolves to a refused address \(169\.254\.169\.254: cloud metadata/,
    );
    expect(await savedHostRefusal(resolve, "mixed.test", OPEN)).toBeNull();
    expect(await savedHostRefusal(resolve, "gone.test", OPEN)).toBeNull();
    expect(await savedHostRefusal(resolve, "nowhere.test", OPEN)).toBeNull();
    expect(await savedHostRefusal(undefined, "imds.test", OPEN)).toBeNull();
    // Literals never need the resolver.
    expect(await savedHostRefusal(undefined, "0xa9fea9fe", OPEN)).toMatch(/metadata/);
  });
});

describe("monitor checks at run time", () => {
  const resolveToMetadata: Resolve = async () => [{ address: "169.254.169.254", family: 4 }];

  it.each(["tcp", "http", "icmp", "dns"] as const)(
    "a %s check to a metadata notation is refused without connecting",
    async (check_type) => {
      for (const host of ["2852039166", "0xa9.0xfe.0xa9.0xfe", "::ffff:a9fe:a9fe", "fe80::1", "metadata.google.internal."]) {
        const out = await runCheck({ check_type, host, config: { timeout: 1 } }, { policy: OPEN, pingCommand: "/nonexistent/ping" });
        expect(out.up, `${check_type} ${host}`).toBe(false);
        expect(out.msg, `${check_type} ${host}`).toMatch(/refused by the monitor policy/);
      }
    },
  );

  it("refuses an http check's url, a dns check's resolver and a name resolving to metadata (tcp, http, icmp)", async () => {
    const url = await runCheck(
      { check_type: "http", host: "example.test", config: { url: "http://0251.0376.0251.0376/latest/meta-data/" } },
      { policy: OPEN },
    );
    expect(url.msg).toMatch(/refused by the monitor policy/);
    expect(url.msg).not.toContain("meta-data");
    const dns = await runCheck({ check_type: "dns", host: "example.test", config: { resolver: "fd00:ec2::254" } }, { policy: OPEN });
    expect(dns.msg).toMatch(/refused by the monitor policy/);
    for (const check_type of ["tcp", "http", "icmp"] as const) {
      const out = await runCheck(
        { check_type, host: "rebind.example.test", config: { port: 80, timeout: 2 } },
        { policy: OPEN, resolve: resolveToMetadata, pingCommand: "/nonexistent/ping" },
      );
      expect(out.up, check_type).toBe(false);
      expect(out.msg, check_type).toMatch(/refused/);
    }
  });
});
