// The scan primitives of net/ against real loopback peers on 127.0.12.x: connect (open, refused, black
// hole, abort), ping, reverse DNS, banner, TLS certificate and HTTP title.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grabBanner } from "../../../net/banner.ts";
import { httpTitle } from "../../../net/http-title.ts";
import { ping } from "../../../net/ping.ts";
import { parseReplies, PingBatcher } from "../../../net/ping-batch.ts";
import { reverseDns } from "../../../net/reverse-dns.ts";
import { connectSocket, tcpProbe } from "../../../net/tcp-connect.ts";
import { tlsCert } from "../../../net/tls-cert.ts";
import { type DnsPeer, type HttpPeer, startDnsPeer, startHttpPeer } from "../monitors/peers.ts";
import {
  blackHole,
  childCommands,
  greetingPeer,
  havePython,
  mutedUdp,
  openTcpSockets,
  type Peer,
  silentPeer,
  sleep,
  TLS_FIXTURE,
  tcpSocketsAfterClose,
  tlsPeer,
} from "./support.ts";

const H = "127.0.12.";
let ssh: Peer;
let silent: Peer;
let tls: Peer;
let web: HttpPeer;
let webTls: HttpPeer;
let dns: DnsPeer;

beforeAll(async () => {
  ssh = await greetingPeer(`${H}2`, "SSH-2.0-OpenSSH_9.6 lab\r\n");
  silent = await silentPeer(`${H}3`);
  tls = await tlsPeer(`${H}4`);
  web = await startHttpPeer({ host: `${H}5` });
  webTls = await startHttpPeer({ host: `${H}6`, tls: TLS_FIXTURE });
  dns = await startDnsPeer({ "2.12.0.127.in-addr.arpa": { PTR: "SSH.Lab.Test." } }, `${H}53`);
});
afterAll(async () => {
  await Promise.all([ssh?.close(), silent?.close(), tls?.close(), web?.close(), webTls?.close(), dns?.close()]);
});

describe("tcp connect", () => {
  it("tells open from refused, with the time to the answer", async () => {
    const open = await tcpProbe(ssh.host, ssh.port, { timeoutMs: 1000 });
    expect(open).toEqual({ state: "open", ms: expect.any(Number), code: null });
    expect(await tcpProbe(ssh.host, 1, { timeoutMs: 1000 })).toEqual({ state: "closed", ms: expect.any(Number), code: "ECONNREFUSED" });
  });

  it.skipIf(!havePython)("times out on a black hole and stops at once on abort, leaving no socket", async () => {
    const hole = await blackHole([`${H}9`], 4444);
    try {
      const before = openTcpSockets();
      const started = performance.now();
      expect(await tcpProbe(`${H}9`, 4444, { timeoutMs: 300 })).toEqual({ state: "timeout", ms: null, code: "ETIMEDOUT" });
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const abortedAt = performance.now();
      await expect(connectSocket(`${H}9`, 4444, { timeoutMs: 10_000, signal: controller.signal })).rejects.toMatchObject({
        code: "ABORTED",
      });
      expect(performance.now() - abortedAt).toBeLessThan(500);
      expect(await tcpSocketsAfterClose(before)).toBe(before);
    } finally {
      hole.close();
    }
  });
});

describe("ping", () => {
  it("answers with the round-trip time of 127.0.0.1", async () => {
    const r = await ping("127.0.0.1", { timeoutMs: 1000 });
    expect(r.alive).toBe(true);
    expect(r.rtt_ms).toBeGreaterThan(0);
  });

  it("names a missing ping command, refuses what is not an address, and is killed on abort", async () => {
    expect(await ping("127.0.0.1", { timeoutMs: 1000, command: "/nonexistent/ping" })).toEqual({
      alive: false,
      rtt_ms: null,
      fault: "the system ping command (/nonexistent/ping) is not installed",
    });
    expect(await ping("127.0.0.1; id", { timeoutMs: 1000 })).toEqual({
      alive: false,
      rtt_ms: null,
      fault: "not an IPv4 address: 127.0.0.1; id",
    });
    const controller = new AbortController();
    controller.abort();
    expect(await ping("127.0.0.1", { timeoutMs: 1000, signal: controller.signal })).toEqual({ alive: false, rtt_ms: null, fault: null });
    expect(childCommands()).not.toContain("ping");
  });
});

describe("batched ping", () => {
  it("pings many addresses through one shell and gives each its own answer", async () => {
    const batcher = new PingBatcher({ timeoutMs: 2000, signal: new AbortController().signal, batchSize: 8 });
    const ips = Array.from({ length: 20 }, (_, i) => `${H}${100 + i}`);
    const results = await Promise.all(ips.map((ip) => batcher.ping(ip)));
    expect(results.filter((r) => r.alive)).toHaveLength(20);
    for (const r of results) expect(r.rtt_ms).toBeGreaterThan(0);
    expect(await batcher.ping("127.0.0.1 127.0.0.2")).toEqual({
      alive: false,
      rtt_ms: null,
      fault: "not an IPv4 address: 127.0.0.1 127.0.0.2",
    });
  });

  it("names a missing ping command for every address of the batch", async () => {
    const batcher = new PingBatcher({ timeoutMs: 1000, signal: new AbortController().signal, command: "/nonexistent/ping" });
    const fault = "the system ping command (/nonexistent/ping) is not installed";
    expect(await Promise.all([batcher.ping(`${H}2`), batcher.ping(`${H}3`)])).toEqual([
      { alive: false, rtt_ms: null, fault },
      { alive: false, rtt_ms: null, fault },
    ]);
  });

  it("answers at once and leaves no process behind when the scan aborts", async () => {
    // A "ping" that waits 5 s stands in for one waiting on a silent address.
    const dir = mkdtempSync(join(tmpdir(), "slow-ping-"));
    const slowPing = join(dir, "slow-ping");
    writeFileSync(slowPing, "#!/bin/sh\nsleep 5\n", { mode: 0o755 });
    const running = () =>
      execFileSync("ps", ["-eo", "args="], { encoding: "utf8" })
        .split("\n")
        .filter((l) => l.includes(slowPing));
    try {
      const controller = new AbortController();
      const batcher = new PingBatcher({ timeoutMs: 5000, signal: controller.signal, command: slowPing });
      const pending = Promise.all([batcher.ping(`${H}2`), batcher.ping(`${H}3`)]);
      await sleep(200);
      expect(childCommands()).toEqual(["sh"]);
      expect(running().length).toBeGreaterThanOrEqual(2);
      const abortedAt = performance.now();
      controller.abort();
      expect(await pending).toEqual([
        { alive: false, rtt_ms: null, fault: null },
        { alive: false, rtt_ms: null, fault: null },
      ]);
      expect(performance.now() - abortedAt).toBeLessThan(500);
      await sleep(50);
      expect(childCommands()).toEqual([]);
      expect(running()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the reply lines of interleaved ping output", () => {
    const out =
      "PING 127.0.0.2 (127.0.0.2) 56(84) bytes of data.\n64 bytes from 127.0.0.3: icmp_seq=1 ttl=64 time=0.031 ms\n64 bytes from 127.0.0.2: icmp_seq=1 ttl=64 time=1.5 ms\n";
    expect([...parseReplies(out)]).toEqual([
      ["127.0.0.3", 0.031],
      ["127.0.0.2", 1.5],
    ]);
  });
});

describe("reverse dns", () => {
  it("gives the PTR name (lower-case, no trailing dot), null for an unknown address", async () => {
    const servers = [`${dns.address}:${dns.port}`];
    expect(await reverseDns(`${H}2`, { timeoutMs: 1000, servers })).toBe("ssh.lab.test");
    expect(await reverseDns(`${H}7`, { timeoutMs: 1000, servers })).toBeNull();
  });

  it("gives up after its timeout on a server that never answers", async () => {
    const muted = await mutedUdp(`${H}54`);
    try {
      const started = performance.now();
      expect(await reverseDns(`${H}2`, { timeoutMs: 300, servers: [`${H}54:${muted.port}`] })).toBeNull();
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      await muted.close();
    }
  });
});

describe("banner grab", () => {
  it("reads a greeting, and probes a silent web server with HEAD /", async () => {
    expect(await grabBanner(ssh.host, ssh.port, { timeoutMs: 1000, windowMs: 200 })).toEqual({
      banner: "SSH-2.0-OpenSSH_9.6 lab",
      http: false,
      server: null,
    });
    web.on("/", { status: 200, body: "hi" });
    const b = await grabBanner(`${H}5`, web.port, { timeoutMs: 1000, windowMs: 200 });
    expect(b).toEqual({ banner: "HTTP/1.1 200 OK", http: true, server: null });
    expect(web.seen.at(-1)).toMatchObject({ method: "HEAD", path: "/" });
  });

  it("has no banner for a silent server (after two windows) or a TLS one, and null for a closed port", async () => {
    const started = performance.now();
    expect(await grabBanner(silent.host, silent.port, { timeoutMs: 1000, windowMs: 150 })).toEqual({
      banner: null,
      http: false,
      server: null,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(await grabBanner(tls.host, tls.port, { timeoutMs: 1000, windowMs: 150 })).toEqual({ banner: null, http: false, server: null });
    expect(await grabBanner(ssh.host, 1, { timeoutMs: 1000 })).toBeNull();
  });
});

describe("tls certificate", () => {
  it("reads subject, issuer, expiry and SAN of a self-signed certificate", async () => {
    expect(await tlsCert(tls.host, tls.port, { timeoutMs: 2000 })).toEqual({
      subject: "CN=scan-target.test, O=Discovery Test",
      issuer: "CN=scan-target.test, O=Discovery Test",
      not_after: "2126-11-01T01:27:26.000Z",
      san: ["DNS:scan-target.test", "IP Address:127.0.3.5"],
    });
  });

  it("is null for a server that does not speak TLS, or stays silent past the timeout", async () => {
    expect(await tlsCert(ssh.host, ssh.port, { timeoutMs: 1000 })).toBeNull();
    const started = performance.now();
    expect(await tlsCert(silent.host, silent.port, { timeoutMs: 300 })).toBeNull();
    expect(performance.now() - started).toBeLessThan(800);
  });
});

describe("http title", () => {
  it("reads the front page's title over HTTP and HTTPS (untrusted certificate)", async () => {
    web.on("/", {
      status: 200,
      headers: { "content-type": "text/html", server: "lab-httpd" },
      body: "<html><head><title>Grafana &amp; Co</title></head></html>",
    });
    expect(await httpTitle(`${H}5`, web.port, { tls: false, timeoutMs: 1000 })).toEqual({
      status: 200,
      title: "Grafana & Co",
      server: "lab-httpd",
    });
    webTls.on("/", { status: 200, headers: { "content-type": "text/html" }, body: "<title>Proxmox VE</title>" });
    expect(await httpTitle(`${H}6`, webTls.port, { tls: true, timeoutMs: 1000 })).toEqual({
      status: 200,
      title: "Proxmox VE",
      server: null,
    });
  });

  it("reports a redirect without following it, bounds the body, and is null for what is not HTTP", async () => {
    web.on("/", { status: 302, headers: { location: "/login" }, body: "" });
    expect(await httpTitle(`${H}5`, web.port, { tls: false, timeoutMs: 1000 })).toEqual({ status: 302, title: null, server: null });
    web.on("/", { status: 200, headers: { "content-type": "text/html" }, body: `${"x".repeat(100_000)}<title>late</title>` });
    expect(await httpTitle(`${H}5`, web.port, { tls: false, timeoutMs: 1000, maxBytes: 4096 })).toEqual({
      status: 200,
      title: null,
      server: null,
    });
    expect(await httpTitle(tls.host, tls.port, { tls: false, timeoutMs: 500 })).toBeNull();
  });
});
