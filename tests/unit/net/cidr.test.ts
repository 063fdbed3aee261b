import { describe, expect, it } from "vitest";
import { CidrSet, formatIp, isIpOrCidr, parseCidr, parseIp } from "../../../shared/net/cidr.ts";

const ip = (s: string) => {
  const p = parseIp(s);
  if (!p) throw new Error(`not an address: ${s}`);
  return p;
};

describe("parseIp / formatIp", () => {
  it.each([
    ["10.0.0.1", "10.0.0.1"],
    ["255.255.255.255", "255.255.255.255"],
    ["::1", "::1"],
    ["::", "::"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["fe80::1%eth0", "fe80::1"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
    ["1::", "1::"],
    ["::ffff:10.0.0.1", "10.0.0.1"],
    ["::FFFF:a00:1", "10.0.0.1"],
    ["0:0:0:0:0:ffff:192.168.1.2", "192.168.1.2"],
  ])("%s -> %s", (input, canonical) => {
    expect(formatIp(ip(input))).toBe(canonical);
  });

  it.each([
    "",
    "unknown",
    "10.0.0",
    "10.0.0.256",
    "10.0.0.01",
    "1.2.3.4.5",
    "1:::2",
    "1::2::3",
    "1:2:3:4:5:6:7:8:9",
    "12345::",
    "::ffff:1.2.3",
    "g::1",
    "1:2:3:4:5:6:7::8:9",
  ])("%j is not an address", (s) => expect(parseIp(s)).toBeUndefined());
});

describe("parseCidr and matching", () => {
  const set = new CidrSet(["10.0.0.0/8", "192.168.1.7", "2001:db8::/32", "::1", "::ffff:172.16.0.0/108"]);

  it.each([
    ["10.0.0.1", true],
    ["10.255.255.255", true],
    ["11.0.0.1", false],
    ["192.168.1.7", true],
    ["192.168.1.8", false],
    ["::ffff:10.0.0.1", true], // an IPv4-mapped peer is its IPv4 address
    ["2001:db8:ffff::1", true],
    ["2001:db9::1", false],
    ["::1", true],
    ["::2", false],
    ["172.16.5.5", true], // inside the mapped range ::ffff:172.16.0.0/108 = 172.16.0.0/12
    ["172.32.0.1", false],
    ["::a00:1", false], // IPv4-compatible (not mapped) is plain IPv6, not 10.0.0.1
  ])("%s trusted: %s", (addr, expected) => {
    expect(set.has(ip(addr))).toBe(expected);
  });

  it("clears host bits and keeps the prefix", () => {
    expect(parseCidr("10.1.2.3/8")).toEqual({ version: 4, network: 10n << 24n, prefix: 8 });
    expect(parseCidr("0.0.0.0/0")?.prefix).toBe(0);
    expect(new CidrSet(["0.0.0.0/0"]).has(ip("203.0.113.9"))).toBe(true);
    expect(new CidrSet(["0.0.0.0/0"]).has(ip("2001:db8::1"))).toBe(false);
    expect(new CidrSet(["::/0"]).has(ip("2001:db8::1"))).toBe(true);
  });

  it.each(["10.0.0.0/33", "::/129", "::ffff:10.0.0.0/95", "10.0.0.0/", "10.0.0.0/8/8", "10.0.0.0/-1", "unknown", "10.0.0.0/a"])(
    "%j is refused",
    (s) => expect(isIpOrCidr(s)).toBe(false),
  );
});
