// The readiness probe on this machine (ping, nmap installed by CI) and with its tools missing.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { probeDiscoveryReadiness } from "../../../sidecar/discovery/engine/readiness.ts";

describe("probeDiscoveryReadiness", () => {
  it("lists the seven capabilities in the reference's shape", async () => {
    const r = await probeDiscoveryReadiness({ dockerSocketPath: "/nonexistent/docker.sock" });
    expect(r.capabilities.map((c) => c.key)).toEqual(["icmp", "tcp", "dns", "arp", "nmap", "snmp", "docker"]);
    for (const c of r.capabilities) {
      expect(Object.keys(c)).toEqual(["key", "title", "state", "explanation", "reason_code", "last_healed_at", "last_error"]);
      expect(["ready", "degraded", "unavailable"]).toContain(c.state);
    }
    const by = new Map(r.capabilities.map((c) => [c.key, c]));
    expect(by.get("icmp")).toMatchObject({ state: "ready", reason_code: null });
    expect(by.get("tcp")).toMatchObject({ state: "ready" });
    expect(by.get("nmap")).toMatchObject({ state: "ready", explanation: expect.stringMatching(/^nmap \d+\.\d+/) });
    expect(r.helper_installed).toBe(true);
    expect(by.get("docker")).toMatchObject({ state: "unavailable", reason_code: "socket_missing" });
  });

  it("says what is missing: ping, nmap, the neighbour table", async () => {
    const r = await probeDiscoveryReadiness({
      pingCommand: "/nonexistent/ping",
      nmapCommand: "/nonexistent/nmap",
      arpTablePath: "/nonexistent/arp",
      dockerSocketPath: "/nonexistent/docker.sock",
    });
    const by = new Map(r.capabilities.map((c) => [c.key, c]));
    expect(by.get("icmp")).toMatchObject({ state: "unavailable", reason_code: "ping_not_installed" });
    expect(by.get("nmap")).toMatchObject({
      state: "unavailable",
      reason_code: "not_installed",
      explanation: expect.stringContaining("nmap is not installed"),
    });
    expect(by.get("arp")).toMatchObject({ state: "unavailable", reason_code: "no_neighbour_table" });
    expect(r.helper_installed).toBe(false);
  });

  it("sees a Docker socket that is there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fake-docker-"));
    const path = join(dir, "docker.sock");
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const r = await probeDiscoveryReadiness({ dockerSocketPath: path });
      expect(r.capabilities.find((c) => c.key === "docker")).toMatchObject({ state: "ready", reason_code: null });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
