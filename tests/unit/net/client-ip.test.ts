import { describe, expect, it } from "vitest";
import { CidrSet } from "../../../shared/net/cidr.ts";
import { clientIdentity } from "../../../shared/net/client-ip.ts";

const trusted = new CidrSet(["10.0.0.0/8", "::ffff:192.168.0.0/112", "fd00::/8"]);
const id = (peer: string | undefined, forwardedFor?: string) => clientIdentity({ peer, forwardedFor, trustedProxies: trusted });

describe("client identity (spec 8.1)", () => {
  it("is the socket peer when it is not a trusted proxy, whatever X-Forwarded-For says", () => {
    expect(id("203.0.113.5")).toBe("203.0.113.5");
    // A client that writes its own header to pick a bucket is ignored.
    expect(id("203.0.113.5", "198.51.100.1")).toBe("203.0.113.5");
    expect(id("203.0.113.5", "10.0.0.1, 198.51.100.1")).toBe("203.0.113.5");
  });

  it("walks the chain from the right behind a trusted proxy, taking the first untrusted hop", () => {
    expect(id("10.0.0.2", "198.51.100.7")).toBe("198.51.100.7");
    expect(id("10.0.0.2", "198.51.100.7, 10.1.1.1, 10.2.2.2")).toBe("198.51.100.7");
    // The client prepended a fake address; the trusted hop appended the real one to its right.
    expect(id("10.0.0.2", "1.1.1.1, 198.51.100.7")).toBe("198.51.100.7");
    expect(id("10.0.0.2", "1.1.1.1, 198.51.100.7, 10.9.9.9")).toBe("198.51.100.7");
  });

  it("trusts an IPv4-mapped peer by its IPv4 address and reads mapped hops as IPv4", () => {
    expect(id("::ffff:10.0.0.1", "198.51.100.7")).toBe("198.51.100.7");
    expect(id("::ffff:192.168.3.4", "::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(id("::ffff:203.0.113.5", "198.51.100.7")).toBe("203.0.113.5");
  });

  it("handles IPv6 proxies and keys IPv6 clients by their /64", () => {
    expect(id("fd00::1", "2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(id("2001:db8:1:2::5")).toBe("2001:db8:1:2::/64");
    expect(id("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe(id("2001:db8:1:2::1"));
    expect(id("2001:db8:1:3::1")).not.toBe(id("2001:db8:1:2::1"));
  });

  it("strips ports and brackets that some proxies append", () => {
    expect(id("10.0.0.2", "198.51.100.7:51234")).toBe("198.51.100.7");
    expect(id("10.0.0.2", "[2001:db8::9]:443")).toBe("2001:db8::/64");
  });

  it("stops at a hop that is not an address: the proxy that wrote it is the client", () => {
    expect(id("10.0.0.2", "198.51.100.7, unknown, 10.3.3.3")).toBe("10.3.3.3");
    expect(id("10.0.0.2", "garbage")).toBe("10.0.0.2");
  });

  it("is the furthest trusted hop when the whole chain is trusted, and the peer without a header", () => {
    expect(id("10.0.0.2", "10.5.5.5, 10.6.6.6")).toBe("10.5.5.5");
    expect(id("10.0.0.2")).toBe("10.0.0.2");
    expect(id("10.0.0.2", "")).toBe("10.0.0.2");
  });

  it("is 'unknown' without a usable peer (no socket, or not an address)", () => {
    expect(id(undefined, "198.51.100.7")).toBe("unknown");
    expect(id("not-an-ip")).toBe("unknown");
  });

  it("with no trusted proxies configured, only the peer counts", () => {
    expect(clientIdentity({ peer: "10.0.0.2", forwardedFor: "198.51.100.7", trustedProxies: new CidrSet([]) })).toBe("10.0.0.2");
  });
});
