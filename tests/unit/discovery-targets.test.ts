// Target parsing, scan types and port presets: the rules that keep a scan bounded (issue 13, "Bad input").
import { describe, expect, it } from "vitest";
import { resolvePorts, PORT_PRESETS } from "../../shared/domain/discovery/ports.ts";
import { normaliseScanTypes } from "../../shared/domain/discovery/scan-types.ts";
import { allowedTargetsFromEnv, MAX_SCAN_ADDRESSES, parseTargets } from "../../shared/domain/discovery/targets.ts";

function ok(input: Parameters<typeof parseTargets>[0]) {
  const r = parseTargets(input);
  if (!r.ok) throw new Error(`${r.field}: ${r.message}`);
  return r.value;
}

describe("parseTargets", () => {
  it("counts a /22 as 1022 hosts and yields them in order without network and broadcast", () => {
    const set = ok({ targets: ["127.0.4.0/22"] });
    expect(set.count).toBe(1022);
    const all = [...set.addresses()];
    expect(all.length).toBe(1022);
    expect(all[0]).toBe("127.0.4.1");
    expect(all.at(-1)).toBe("127.0.7.254");
    expect(set.contains("127.0.5.9")).toBe(true);
    expect(set.contains("127.0.4.0")).toBe(false);
  });

  it("takes ranges, short ranges and single addresses, merges overlaps and applies exclusions", () => {
    const set = ok({ targets: ["127.0.0.1-127.0.0.10", "127.0.0.5-12", "127.0.0.9"], exclude: ["127.0.0.2", "127.0.0.8/30"] });
    expect([...set.addresses()]).toEqual(["127.0.0.1", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7", "127.0.0.12"]);
    expect(set.count).toBe(7);
  });

  it("names the field of a malformed target, a target outside the allowed set and a set over the cap", () => {
    expect(parseTargets({ targets: ["127.0.0.0/22", "10.0.0.300"] })).toMatchObject({ ok: false, field: "targets[1]" });
    expect(parseTargets({ targets: ["127.0.0.1/24"] })).toMatchObject({ ok: false, message: expect.stringMatching(/host bits/i) });
    expect(parseTargets({ targets: ["8.8.8.8"] })).toMatchObject({
      ok: false,
      field: "targets[0]",
      message: expect.stringContaining("outside the allowed"),
    });
    expect(parseTargets({ targets: ["127.0.0.0/19"] })).toMatchObject({
      ok: false,
      field: "targets",
      message: expect.stringContaining(`at most ${MAX_SCAN_ADDRESSES}`),
    });
    expect(parseTargets({ targets: ["127.0.0.1"], exclude: ["127.0.0.0/24"] })).toMatchObject({
      ok: false,
      message: expect.stringContaining("no address"),
    });
    expect(parseTargets({ targets: ["127.0.0.1"], exclude: ["nope"] })).toMatchObject({ ok: false, field: "exclude[0]" });
    expect(parseTargets({ targets: [] })).toMatchObject({ ok: false, field: "targets" });
  });

  it("reads the allowed set from SVC_DISCOVERY_ALLOWED_TARGETS", () => {
    const allowed = allowedTargetsFromEnv({ SVC_DISCOVERY_ALLOWED_TARGETS: "127.0.0.0/24, 127.0.1.0/24" });
    expect(allowed).toEqual(["127.0.0.0/24", "127.0.1.0/24"]);
    expect(parseTargets({ targets: ["127.0.2.1"], allowed })).toMatchObject({ ok: false });
    expect(parseTargets({ targets: ["127.0.1.1"], allowed })).toMatchObject({ ok: true });
  });
});

describe("normaliseScanTypes", () => {
  it("collapses duplicates, defaults an empty server list and names unknown types", () => {
    expect(normaliseScanTypes(["tcp", "icmp", "tcp"], null)).toEqual({ ok: true, value: ["tcp", "icmp"] });
    expect(normaliseScanTypes([], null)).toEqual({ ok: true, value: ["icmp", "tcp", "dns", "arp"] });
    expect(normaliseScanTypes(["tcp", "warp"], null)).toMatchObject({
      ok: false,
      message: expect.stringContaining("Unknown scan type 'warp'"),
    });
  });

  it("keeps agent types on agents and server types on the server, and refuses what this build does not run", () => {
    expect(normaliseScanTypes(["agent_connect"], null)).toMatchObject({ ok: false });
    expect(normaliseScanTypes(["tcp"], 3)).toMatchObject({ ok: false });
    expect(normaliseScanTypes([], 3)).toMatchObject({ ok: false });
    expect(normaliseScanTypes(["agent_connect", "agent_icmp"], 3)).toEqual({ ok: true, value: ["agent_connect", "agent_icmp"] });
    expect(normaliseScanTypes(["proxmox"], null)).toMatchObject({ ok: false, message: expect.stringContaining("not available") });
    expect(normaliseScanTypes(["docker", "tcp"], null)).toMatchObject({ ok: false, message: expect.stringContaining("alone") });
  });
});

describe("resolvePorts", () => {
  it("defaults to the common preset, prefers explicit ports, and refuses unknown presets and bad ports", () => {
    expect(resolvePorts({})).toEqual({ ok: true, value: [...PORT_PRESETS.common].sort((a, b) => a - b) });
    expect(resolvePorts({ ports_preset: "top100" })).toMatchObject({ ok: true, value: expect.any(Array) });
    expect((resolvePorts({ ports_preset: "top100" }) as { value: number[] }).value.length).toBe(100);
    expect(resolvePorts({ tcp_ports: [443, 22, 443] })).toEqual({ ok: true, value: [22, 443] });
    expect(resolvePorts({ ports_preset: "all" })).toMatchObject({ ok: false, field: "ports_preset" });
    expect(resolvePorts({ tcp_ports: [22, 70000] })).toMatchObject({ ok: false, field: "tcp_ports[1]" });
  });
});
