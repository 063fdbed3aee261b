import { describe, expect, it } from "vitest";
import { type Cidr, formatCidr, freeHosts, parseNetwork } from "../../shared/domain/cidr-math.ts";
import { coveredSize, freeBlocks, mergedRanges, utilisation } from "../../shared/domain/prefix-space.ts";

const n = (text: string): Cidr => {
  const p = parseNetwork(text);
  if (!p.ok) throw new Error(p.message);
  return p.value;
};
const texts = (list: Cidr[]) => list.map(formatCidr);

describe("prefix space", () => {
  it("merges nested, overlapping and adjacent children and clips them to the parent", () => {
    const parent = n("10.0.0.0/24");
    const parts = [n("10.0.0.0/26"), n("10.0.0.0/27"), n("10.0.0.64/26"), n("10.0.0.192/27"), n("10.0.0.0/8"), n("2001:db8::/32")];
    expect(mergedRanges(parent, parts)).toEqual([{ first: n("10.0.0.0/32").network, last: n("10.0.0.255/32").network }]);
    expect(coveredSize(n("10.0.0.0/24"), [n("10.0.0.0/26"), n("10.0.0.0/27"), n("10.0.0.128/25")])).toBe(192n);
  });

  it("finds the next free aligned blocks, IPv4 and IPv6, and stops at max", () => {
    const parent = n("10.0.0.0/24");
    expect(texts(freeBlocks(parent, [n("10.0.0.0/26"), n("10.0.0.96/27")], 27, 3))).toEqual([
      "10.0.0.64/27",
      "10.0.0.128/27",
      "10.0.0.160/27",
    ]);
    // A gap smaller than the block or unaligned with it yields nothing from that gap.
    expect(texts(freeBlocks(parent, [n("10.0.0.0/25"), n("10.0.0.160/27")], 26, 5))).toEqual(["10.0.0.192/26"]);
    expect(freeBlocks(parent, [n("10.0.0.0/24")], 25, 5)).toEqual([]);
    expect(texts(freeBlocks(n("2001:db8::/48"), [n("2001:db8::/64"), n("2001:db8:0:2::/64")], 64, 2))).toEqual([
      "2001:db8:0:1::/64",
      "2001:db8:0:3::/64",
    ]);
    expect(freeBlocks(n("2001:db8::/32"), [], 128, 1000)).toHaveLength(1000);
  });

  it("computes utilisation: containers by children, others by children and addresses outside them", () => {
    const p = n("192.168.0.0/24");
    const addr = (s: string) => n(`${s}/32`).network;
    const children = [n("192.168.0.0/25")];
    expect(utilisation(p, { container: true, markUtilized: false, children, addresses: [addr("192.168.0.200")] })).toEqual({
      used: "128",
      total: "256",
      percent: 50,
    });
    expect(
      utilisation(p, {
        container: false,
        markUtilized: false,
        children,
        addresses: [addr("192.168.0.200"), addr("192.168.0.200"), addr("192.168.0.5"), addr("10.0.0.1")],
      }),
    ).toEqual({ used: "129", total: "256", percent: 50.39 });
    expect(utilisation(p, { container: false, markUtilized: true, children: [], addresses: [] }).percent).toBe(100);
    expect(
      utilisation(n("2001:db8::/32"), { container: true, markUtilized: false, children: [n("2001:db8::/33")], addresses: [] }),
    ).toEqual({
      used: String(2n ** 95n),
      total: String(2n ** 96n),
      percent: 50,
    });
  });

  it("lists free hosts in order, skipping used ones; a pool includes network and broadcast", () => {
    const c = n("10.1.0.0/29");
    const used = [n("10.1.0.1/32").network, n("10.1.0.3/32").network];
    expect(freeHosts(c, used, 3).map((v) => v - c.network)).toEqual([2n, 4n, 5n]);
    expect(freeHosts(c, used, 10).map((v) => v - c.network)).toEqual([2n, 4n, 5n, 6n]);
    expect(freeHosts(c, used, 10, { pool: true }).map((v) => v - c.network)).toEqual([0n, 2n, 4n, 5n, 6n, 7n]);
    expect(freeHosts(n("10.1.0.0/31"), [], 5)).toHaveLength(2);
  });
});
