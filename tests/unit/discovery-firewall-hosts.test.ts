// The opnsense scan type's reading of a firewall's answers (the recorded fixtures of tests/fixtures/opnsense)
// and which addresses an enrichment may scan.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findingOf, firewallHosts, MAX_FIREWALL_HOSTS } from "../../shared/domain/discovery/firewall-hosts.ts";
import { privateAddresses } from "../../shared/domain/discovery/private-addresses.ts";
import { DEFAULT_ALLOWED_TARGETS } from "../../shared/domain/discovery/targets.ts";

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/opnsense", name), "utf8"));

describe("firewallHosts", () => {
  it("joins the ARP table and ISC leases by address, the lease's client name first, static mappings kept", () => {
    const { hosts, skipped } = firewallHosts(fixture("get-arp.json"), fixture("search-lease.json"), false);
    expect(skipped).toBe(0);
    expect(
      hosts.map((h) => [h.ip_address, h.hostname, h.interface, h.interface_description, h.lease_state, h.lease_type, h.sources]),
    ).toEqual([
      ["192.0.2.1", null, "igb1", "LAN", null, null, ["opnsense_arp"]],
      ["192.0.2.10", "nas", "igb1", "LAN", "active", "dynamic", ["opnsense_arp", "opnsense_dhcp"]],
      ["192.0.2.21", "pi-hole", "igb1", "LAN", "active", "dynamic", ["opnsense_arp", "opnsense_dhcp"]],
      ["192.0.2.30", null, "vlan0.20", "SERVERS", null, null, ["opnsense_arp"]],
      ["192.0.2.50", "printer", "igb1", "LAN", "static", "static", ["opnsense_dhcp"]],
    ]);
    expect(findingOf(hosts[1]!)).toMatchObject({
      ip_address: "192.0.2.10",
      mac_address: "00:0d:b9:4a:1c:10",
      hostname: "nas",
      vendor: null,
      open_ports: [],
    });
  });

  it("reads Kea leases, and leaves out expired ARP entries, free, expired and declined leases and non-IPv4 rows", () => {
    const kea = firewallHosts([], fixture("kea-leases4-search.json"), true);
    expect(kea.hosts.map((h) => [h.ip_address, h.mac_address, h.hostname, h.lease_state])).toEqual([
      ["192.0.2.110", "52:54:00:12:00:01", "vm-a", "active"],
      ["192.0.2.111", "52:54:00:12:00:02", "vm-b", "active"],
    ]);
    const arp = [
      { ip: "10.0.0.5", mac: "aa:bb:cc:dd:ee:01", expired: true },
      { ip: "fe80::1", mac: "aa:bb:cc:dd:ee:02" },
      { ip: "10.0.0.6" },
      "junk",
    ];
    const isc = {
      rows: [
        { address: "10.0.0.7", state: "free", type: "dynamic" },
        { address: "10.0.0.8", state: "expired", type: "dynamic" },
        { address: "10.0.0.9", state: "active", type: "dynamic" },
      ],
    };
    const out = firewallHosts(arp, isc, false);
    expect(out.hosts.map((h) => h.ip_address)).toEqual(["10.0.0.6", "10.0.0.9"]);
    expect(out.skipped).toBe(4);
    const declined = firewallHosts(null, { rows: [{ address: "10.0.0.10", hwaddr: "aa:bb:cc:dd:ee:03", state: "1" }] }, true);
    expect(declined).toEqual({ hosts: [], skipped: 1 });
    expect(firewallHosts({ not: "a list" }, null, false)).toEqual({ hosts: [], skipped: 0 });
  });

  it("takes at most MAX_FIREWALL_HOSTS hosts and counts the rest", () => {
    const arp = Array.from({ length: MAX_FIREWALL_HOSTS + 10 }, (_, i) => ({
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      mac: null,
    }));
    const out = firewallHosts(arp, null, false);
    expect(out.hosts).toHaveLength(MAX_FIREWALL_HOSTS);
    expect(out.skipped).toBe(10);
  });
});

describe("privateAddresses", () => {
  const ips = ["10.1.1.1", "172.20.0.5", "192.168.1.1", "100.64.0.9", "127.0.0.172", "192.0.2.10", "8.8.8.8"];
  it("keeps private, CGNAT and loopback addresses inside the default allowed set", () => {
    expect(privateAddresses(ips, DEFAULT_ALLOWED_TARGETS)).toEqual(["10.1.1.1", "172.20.0.5", "192.168.1.1", "100.64.0.9", "127.0.0.172"]);
  });
  it("never takes public addresses even when the allowed set holds them, and obeys a narrower allowed set", () => {
    expect(privateAddresses(ips, ["0.0.0.0/0"])).toEqual(["10.1.1.1", "172.20.0.5", "192.168.1.1", "100.64.0.9", "127.0.0.172"]);
    expect(privateAddresses(ips, ["192.168.0.0/16"])).toEqual(["192.168.1.1"]);
  });
});
