import { describe, expect, it } from "vitest";
import {
  formatAddress,
  hostCidr,
  hostRange,
  likePatterns,
  lowestFree,
  parseAddress,
  parseHost,
  parseNetwork,
} from "../../shared/domain/cidr-math.ts";

const net = (s: string) => {
  const r = parseNetwork(s);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const v4 = (s: string) => net(`${s}/32`).network;

describe("parseNetwork", () => {
  it("accepts canonical IPv4 and IPv6 networks and gives their canonical text", () => {
    expect(parseNetwork("10.0.0.0/24")).toMatchObject({ ok: true, text: "10.0.0.0/24" });
    expect(parseNetwork(" 2001:DB8:0:0::/64 ")).toMatchObject({ ok: true, text: "2001:db8::/64" });
    expect(parseNetwork("0.0.0.0/0")).toMatchObject({ ok: true, text: "0.0.0.0/0" });
    expect(parseNetwork("::/0")).toMatchObject({ ok: true, text: "::/0" });
  });

  it("refuses host bits, naming the canonical network", () => {
    expect(parseNetwork("10.0.0.5/24")).toEqual({ ok: false, message: "Host bits are set; the network is 10.0.0.0/24." });
    expect(parseNetwork("2001:db8::1/64")).toEqual({ ok: false, message: "Host bits are set; the network is 2001:db8::/64." });
  });

  it("refuses what is not a network", () => {
    for (const bad of [
      "10.0.0.0",
      "10.0.0.0/33",
      "2001:db8::/129",
      "10.0.0/24",
      "010.0.0.0/8",
      "x/8",
      "10.0.0.0/24/1",
      "::ffff:10.0.0.0/120",
      "fe80::%eth0/64",
    ])
      expect(parseNetwork(bad).ok, bad).toBe(false);
  });
});

describe("addresses", () => {
  it("parses and canonicalises single addresses", () => {
    expect(parseAddress("10.1.2.3")).toMatchObject({ ok: true, text: "10.1.2.3" });
    expect(parseAddress("2001:DB8::0:1")).toMatchObject({ ok: true, text: "2001:db8::1" });
    expect(parseAddress("::ffff:10.0.0.1")).toMatchObject({ ok: true, text: "10.0.0.1" });
    expect(parseAddress("fe80::1%eth0").ok).toBe(false);
    expect(parseAddress("10.0.0.256").ok).toBe(false);
  });

  it("reads free-text inventory addresses with or without a prefix", () => {
    expect(parseHost("10.0.0.5/24")).toEqual({ version: 4, value: v4("10.0.0.5") });
    expect(parseHost("")).toBeUndefined();
    expect(parseHost(null)).toBeUndefined();
    expect(parseHost("host.example")).toBeUndefined();
  });
});

describe("hostRange", () => {
  it("skips IPv4 network and broadcast, except on /31 and /32", () => {
    expect(hostRange(net("192.168.1.0/24"))).toEqual({ first: v4("192.168.1.1"), last: v4("192.168.1.254") });
    expect(hostRange(net("10.0.0.0/31"))).toEqual({ first: v4("10.0.0.0"), last: v4("10.0.0.1") });
    expect(hostRange(net("10.0.0.7/32"))).toEqual({ first: v4("10.0.0.7"), last: v4("10.0.0.7") });
  });

  it("skips the IPv6 subnet-router anycast address, keeps the top", () => {
    const r = hostRange(net("2001:db8::/64"));
    expect(formatAddress(6, r.first)).toBe("2001:db8::1");
    expect(formatAddress(6, r.last)).toBe("2001:db8::ffff:ffff:ffff:ffff");
    expect(hostRange(net("2001:db8::/127")).first).toBe(net("2001:db8::/127").network);
  });
});

describe("lowestFree", () => {
  it("finds the lowest host not used, ignoring addresses outside the range", () => {
    const c = net("10.0.0.0/29");
    expect(lowestFree(c, [])).toBe(v4("10.0.0.1"));
    expect(lowestFree(c, [v4("10.0.0.1"), v4("10.0.0.2"), v4("10.0.0.4"), v4("10.0.0.0"), v4("9.9.9.9")])).toBe(v4("10.0.0.3"));
    expect(lowestFree(c, [v4("10.0.0.3"), v4("10.0.0.1"), v4("10.0.0.2"), v4("10.0.0.2")])).toBe(v4("10.0.0.4"));
  });

  it("is undefined when the range is full", () => {
    const c = net("10.0.0.0/30");
    expect(lowestFree(c, [v4("10.0.0.1"), v4("10.0.0.2")])).toBeUndefined();
  });

  it("works over IPv6's 64-bit host space", () => {
    const c = net("2001:db8::/64");
    const used = [1n, 2n, 3n].map((n) => c.network + n);
    expect(formatAddress(6, lowestFree(c, used)!)).toBe("2001:db8::4");
  });
});

describe("likePatterns", () => {
  it("fixes the whole leading octets of an IPv4 network", () => {
    expect(likePatterns(net("10.1.2.0/24"))).toEqual(["10.1.2.%", "::ffff:%"]);
    expect(likePatterns(net("10.1.0.0/20"))).toEqual(["10.1.%", "::ffff:%"]);
    expect(likePatterns(net("10.0.0.0/7"))).toEqual(["%.%", "::ffff:%"]);
    expect(likePatterns(hostCidr({ version: 4, value: v4("10.1.2.3") }))).toEqual(["10.1.2.%", "::ffff:%"]);
    expect(likePatterns(net("2001:db8::/32"))).toEqual(["%:%"]);
  });
});
