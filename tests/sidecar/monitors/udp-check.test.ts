// The udp check against real node:dgram peers on loopback: an echo server (answers "echo: " and the
// datagram), a server that answers each datagram twice with something else, a silent one (the timeout),
// a port nobody listens on (ICMP port unreachable: ECONNREFUSED), bad configs and the monitor policy's
// refusals (the silent peer counts the datagrams it got: none).
import { createSocket, type Socket } from "node:dgram";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../../net/checks/run-check.ts";
import { expectPolicyRefusals } from "./net-peers.ts";

const sockets: Socket[] = [];
async function udpPeer(answer: (datagram: Buffer, reply: (b: Buffer | string) => void) => void): Promise<{ port: number; got: number }> {
  const socket = createSocket("udp4");
  sockets.push(socket);
  const peer = { port: 0, got: 0 };
  socket.on("message", (datagram, from) => {
    peer.got++;
    answer(datagram, (b) => socket.send(b, from.port, from.address));
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  peer.port = socket.address().port;
  return peer;
}

let echo: number;
let chatty: number;
let silent: { port: number; got: number };
/** A port freed just now: nothing listens, so the kernel answers ICMP port unreachable. */
let closed: number;

beforeAll(async () => {
  echo = (await udpPeer((d, reply) => reply(Buffer.concat([Buffer.from("echo: "), d])))).port;
  chatty = (
    await udpPeer((_d, reply) => {
      reply("status=starting");
      reply(Buffer.from([0xff, 0x00, 0x01]));
    })
  ).port;
  silent = await udpPeer(() => {});
  const spare = createSocket("udp4");
  await new Promise<void>((resolve) => spare.bind(0, "127.0.0.1", resolve));
  closed = spare.address().port;
  await new Promise<void>((resolve) => spare.close(resolve));
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(resolve))));
});

const check = (config: Record<string, unknown>) => runCheck({ check_type: "udp", host: "127.0.0.1", config });

describe("udp check", () => {
  it("is up on any reply, or on one containing expected_reply; payload as text or hex", async () => {
    const any = await check({ port: echo });
    expect(any.up, any.msg).toBe(true);
    expect(any.msg).toBe('reply of 6 bytes: "echo: "');
    expect(any.latency_ms).toBeGreaterThanOrEqual(0);
    const text = await check({ port: echo, payload: "ping", expected_reply: "echo: ping" });
    expect(text.msg).toBe('reply of 10 bytes: "echo: ping"');
    const hex = await check({ port: echo, payload_hex: "00 ff 10", expected_reply: "echo: " });
    expect(hex.up, hex.msg).toBe(true);
    expect(hex.msg).toBe("reply of 9 bytes: hex 65 63 68 6f 3a 20 00 ff 10");
  });

  it("is down when no reply contains expected_reply, naming the last one", async () => {
    const r = await check({ port: chatty, payload: "status?", expected_reply: "status=ready", timeout: 0.5 });
    expect(r.up).toBe(false);
    expect(r.msg).toBe('no reply containing "status=ready" before the timeout (2 other replies, the last hex ff 00 01)');
  });

  it("is down with no reply within the timeout, and at once on a port nobody listens on", async () => {
    const before = silent.got;
    const r = await check({ port: silent.port, payload: "hello?", timeout: 0.3 });
    expect(r.up).toBe(false);
    expect(r.msg).toBe(`no reply from port ${silent.port}: timeout`);
    expect(silent.got).toBe(before + 1);
    const refused = await check({ port: closed, payload: "x" });
    expect(refused.up).toBe(false);
    expect(refused.msg).toBe(`port ${closed} unreachable: ECONNREFUSED (an ICMP port unreachable: nothing listens there)`);
  });

  it("answers a bad config as invalid", async () => {
    for (const config of [
      {},
      { port: 0 },
      { port: echo, payload: "a", payload_hex: "61" },
      { port: echo, payload_hex: "6" },
      { port: echo, expected_reply: 1 },
    ]) {
      const r = await check(config);
      expect(r.invalid_config, JSON.stringify(config)).toBe(true);
      expect(r.msg).toMatch(/^invalid config: /);
    }
  });

  it("honours the monitor policy: a refused address and a name resolving to one", async () => {
    const peer = {
      get accepted() {
        return silent.got;
      },
    };
    await expectPolicyRefusals("udp", { port: silent.port, timeout: 1 }, peer);
  });
});
