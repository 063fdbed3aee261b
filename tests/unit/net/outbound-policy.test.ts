// The SSRF policy: which addresses and URLs an operator-configured request may reach.
import { describe, expect, it } from "vitest";
import {
  addressAllowed,
  checkOutboundUrl,
  DEFAULT_OUTBOUND_POLICY,
  type OutboundPolicy,
} from "../../../shared/domain/net/outbound-policy.ts";

const OPEN: OutboundPolicy = { allow_private: true, allow_loopback: true };
const STRICT: OutboundPolicy = { allow_private: false, allow_loopback: false };

describe("addressAllowed", () => {
  it("allows public and private addresses by default, refuses loopback and link-local", () => {
    for (const ip of ["93.184.216.34", "2606:4700::1111", "10.1.2.3", "172.16.0.1", "192.168.1.10", "100.64.0.1", "fd12:3456::1"]) {
      expect(addressAllowed(ip, DEFAULT_OUTBOUND_POLICY), ip).toBeNull();
    }
    expect(addressAllowed("127.0.0.1", DEFAULT_OUTBOUND_POLICY)).toMatch(/loopback.*allow_loopback/);
    expect(addressAllowed("127.8.9.10", DEFAULT_OUTBOUND_POLICY)).toMatch(/loopback/);
    expect(addressAllowed("::1", DEFAULT_OUTBOUND_POLICY)).toMatch(/loopback/);
    expect(addressAllowed("169.254.10.1", DEFAULT_OUTBOUND_POLICY)).toMatch(/link-local addresses are never reachable/);
    expect(addressAllowed("fe80::1%eth0", DEFAULT_OUTBOUND_POLICY)).toMatch(/link-local/);
  });

  it("follows each switch", () => {
    expect(addressAllowed("10.0.0.1", STRICT)).toMatch(/private.*allow_private/);
    expect(addressAllowed("fc00::1", STRICT)).toMatch(/private/);
    expect(addressAllowed("127.0.0.1", OPEN)).toBeNull();
    // Link-local is never reachable, whatever the policy (ADR 0330).
    expect(addressAllowed("169.254.1.1", OPEN)).toMatch(/link-local/);
    expect(addressAllowed("8.8.8.8", STRICT)).toBeNull();
  });

  it("never allows cloud metadata, unspecified, multicast or reserved addresses, whatever the policy", () => {
    for (const ip of [
      "169.254.169.254",
      "fd00:ec2::254",
      "100.100.100.200",
      "0.0.0.0",
      "0.1.2.3",
      "::",
      "224.0.0.1",
      "ff02::1",
      "255.255.255.255",
      "240.0.0.1",
    ]) {
      expect(addressAllowed(ip, OPEN), ip).not.toBeNull();
    }
    expect(addressAllowed("169.254.169.254", OPEN)).toMatch(/metadata/);
  });

  it("judges IPv6 forms that carry an IPv4 address by the IPv4 inside", () => {
    expect(addressAllowed("::ffff:127.0.0.1", DEFAULT_OUTBOUND_POLICY)).toMatch(/loopback/);
    expect(addressAllowed("::ffff:169.254.169.254", OPEN)).toMatch(/metadata/);
    expect(addressAllowed("64:ff9b::a9fe:a9fe", OPEN)).toMatch(/metadata/);
    expect(addressAllowed("2002:7f00:1::", DEFAULT_OUTBOUND_POLICY)).toMatch(/loopback/);
    expect(addressAllowed("::127.0.0.1", DEFAULT_OUTBOUND_POLICY)).toMatch(/loopback/);
    expect(addressAllowed("2002:5db8:d822::1", DEFAULT_OUTBOUND_POLICY)).toBeNull();
  });

  it("says when the text is not an address", () => {
    expect(addressAllowed("example.com", OPEN)).toMatch(/not an IP address/);
  });
});

describe("checkOutboundUrl", () => {
  it("accepts http and https URLs to allowed hosts, and names", () => {
    for (const u of ["https://pve.lan:8006/api2/json", "http://192.168.1.5/", "https://[2606:4700::1111]/x", "https://example.com"]) {
      const r = checkOutboundUrl(u, DEFAULT_OUTBOUND_POLICY);
      expect(r.ok, u).toBe(true);
    }
  });

  it("refuses other schemes, userinfo, garbage and a missing host", () => {
    expect(checkOutboundUrl("ftp://example.com/", DEFAULT_OUTBOUND_POLICY)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/scheme/),
    });
    expect(checkOutboundUrl("file:///etc/passwd", DEFAULT_OUTBOUND_POLICY).ok).toBe(false);
    expect(checkOutboundUrl("gopher://example.com/", DEFAULT_OUTBOUND_POLICY).ok).toBe(false);
    expect(checkOutboundUrl("https://user:pw@example.com/", DEFAULT_OUTBOUND_POLICY)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/user name or password/),
    });
    expect(checkOutboundUrl("not a url", DEFAULT_OUTBOUND_POLICY).ok).toBe(false);
    expect(checkOutboundUrl("tcp://example.com:2375", DEFAULT_OUTBOUND_POLICY, { schemes: ["tcp"] }).ok).toBe(true);
  });

  it("classifies IP-literal hosts, in every spelling the URL parser accepts", () => {
    for (const u of [
      "http://127.0.0.1/",
      "http://0x7f.1/",
      "http://2130706433/",
      "http://[::1]:8080/",
      "http://[::ffff:7f00:1]/",
      "http://127.1/",
    ]) {
      expect(checkOutboundUrl(u, DEFAULT_OUTBOUND_POLICY).ok, u).toBe(false);
      expect(checkOutboundUrl(u, OPEN).ok, u).toBe(true);
    }
    expect(checkOutboundUrl("http://169.254.169.254/latest/meta-data/", OPEN)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/metadata/),
    });
    expect(checkOutboundUrl("http://[fd00:ec2::254]/", OPEN).ok).toBe(false);
    expect(checkOutboundUrl("http://10.0.0.1/", STRICT).ok).toBe(false);
  });

  it("refuses names that always mean loopback or metadata", () => {
    for (const u of ["http://localhost:9000/", "http://LOCALHOST./", "http://api.localhost/"]) {
      expect(checkOutboundUrl(u, DEFAULT_OUTBOUND_POLICY).ok, u).toBe(false);
      expect(checkOutboundUrl(u, OPEN).ok, u).toBe(true);
    }
    expect(checkOutboundUrl("http://metadata.google.internal/computeMetadata/v1/", OPEN).ok).toBe(false);
  });
});
