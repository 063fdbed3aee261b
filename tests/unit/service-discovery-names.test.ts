// Names and addresses as Ansible and Prometheus take them (shared/domain/service-discovery-names.ts).
import { describe, expect, it } from "vitest";
import { ansibleGroup, ansibleHostNames, bareAddress, hostPort, tagsLabel } from "../../shared/domain/service-discovery-names.ts";

describe("ansibleGroup", () => {
  it.each([
    ["site", "Berlin DC-1", "site_berlin_dc_1"],
    ["tag", "web tier", "tag_web_tier"],
    ["role", "Hypervisor", "role_hypervisor"],
    ["env", "prod_eu", "env_prod_eu"],
    ["site", "Zürich", "site_zurich"],
    ["tag", "--a  b--", "tag_a_b"],
  ])("%s %j -> %s", (prefix, value, group) => {
    expect(ansibleGroup(prefix, value)).toBe(group);
    expect(group).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
  });

  it("makes no group of a value without a letter or digit of a-z0-9", () => {
    expect(ansibleGroup("tag", "東京")).toBeNull();
    expect(ansibleGroup("tag", "---")).toBeNull();
  });
});

describe("ansibleHostNames", () => {
  it("keeps a plain unique name and falls back to <kind>_<id> otherwise", () => {
    const names = ansibleHostNames([
      { kind: "hardware", id: 1, name: "node-a" },
      { kind: "vm", id: 2, name: "dup" },
      { kind: "container", id: 3, name: "dup" },
      { kind: "vm", id: 4, name: "has space" },
      { kind: "hardware", id: 5, name: "vm_2" },
      { kind: "vm", id: 6, name: "web-1.example.net" },
    ]);
    expect(names).toEqual(["node-a", "vm_2", "container_3", "vm_4", "hardware_5", "web-1.example.net"]);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("addresses", () => {
  it("drops a prefix length and brackets IPv6 for host:port", () => {
    expect(bareAddress("10.0.0.5/24")).toBe("10.0.0.5");
    expect(bareAddress(" fd00::5/64 ")).toBe("fd00::5");
    expect(bareAddress("")).toBeNull();
    expect(bareAddress(null)).toBeNull();
    expect(hostPort("10.0.0.5", 9100)).toBe("10.0.0.5:9100");
    expect(hostPort("fd00::5", 9100)).toBe("[fd00::5]:9100");
  });

  it("joins tags Consul's way, sorted", () => {
    expect(tagsLabel(["web", "critical"])).toBe(",critical,web,");
    expect(tagsLabel([])).toBe("");
  });
});
