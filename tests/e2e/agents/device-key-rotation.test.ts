// Device key rotation (issue 35 item 5) against the real product and PostgreSQL: an administrator asks
// the linked reference agent to rotate; it announces a successor, the server accepts it, the agent links
// with it and the server promotes it (device_key_rotated); the old key is refused from then. A successor
// the server does not know falls back to the current key. key.rotate with a bad successor or expiry is
// refused with its reason on the link, and nothing changes.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Connection, type ServerFrame } from "../../../agent/connection.ts";
import { hostFacts } from "../../../agent/host.ts";
import { buildHello } from "../../../agent/payloads.ts";
import { generateKeyPair, type KeyPair, keyPairOf } from "../../../shared/noise/index.ts";
import type { Product } from "../helpers.ts";
import { type Admin, type RunningAgent, runAgent, serverKeyOf, tempDir, TEST_GRANTS, until, productFixture } from "./support.ts";

let p: Product;
let admin: Admin;
let sql: postgres.Sql;
const state = tempDir("agent-device-key-");

const fixture = productFixture();

beforeAll(async () => {
  ({ sql, p, admin } = await fixture.start());
}, 90_000);

afterAll(async () => {
  await fixture.stop();
  state.remove();
});

const deviceKey = (): KeyPair => keyPairOf(hexToBytes(readFileSync(join(state.dir, "device.key"), "utf8").trim()));
const linkUrl = () => `${p.url.replace(/^http/, "ws")}/api/v1/agents/link`;

/** A link made by hand with `device`: the frames the server sends, and how the socket closed. */
async function handLink(device: KeyPair) {
  const conn = await Connection.open({ url: linkUrl(), device, serverKey: hexToBytes(await serverKeyOf(p)) });
  const frames: ServerFrame[] = [];
  conn.onFrame((f) => frames.push(f));
  const facts = hostFacts("hand-link");
  conn.send("hello", buildHello({ ...facts, device_pk: bytesToHex(device.publicKey), readiness: [], spool_depth: 0 }));
  return { conn, frames };
}

async function events(id: number): Promise<{ event_type: string; detail: Record<string, unknown> | null }[]> {
  return (
    await admin.call<{ items: { event_type: string; detail: Record<string, unknown> | null }[] }>("GET", `agents/${id}/events?limit=100`)
  ).items;
}

describe("device key rotation", () => {
  let agent: RunningAgent;
  let id = 0;
  let original: KeyPair;

  it("an administrator's request: the agent announces a successor, links with it, and the server promotes it", async () => {
    agent = runAgent({ serverUrl: p.url, stateDir: state.dir, backoff: { maxMs: 1000 } });
    const code = await until("a pairing code", () => {
      const e = agent.events.find((x) => x.type === "pairing_code");
      return e?.type === "pairing_code" ? e.code : undefined;
    });
    id = code.agent_id!;
    await admin.call("POST", `agents/${id}/approve`, { host_link_action: "unlinked", capabilities: TEST_GRANTS });
    await until("the link", () => (agent.linkedCount() > 0 ? true : undefined));
    original = deviceKey();
    const before = await admin.call<{ fingerprint: string }>("GET", `agents/${id}`);

    const requested = await admin.call<{ status: string; agent_id: number }>("POST", `agents/${id}/rotate-device-key`);
    expect(requested).toMatchObject({ status: "requested", agent_id: id });
    const rotated = await until(
      "the rotated key",
      () => agent.events.find((e) => e.type === "device_key" && e.status === "rotated"),
      20_000,
    );
    if (rotated.type !== "device_key") throw new Error("unreachable");
    await until("a link with the new key", () => (agent.linkedCount() >= 2 ? true : undefined), 20_000);

    expect(agent.events.filter((e) => e.type === "device_key").map((e) => (e.type === "device_key" ? e.status : ""))).toEqual([
      "announced",
      "accepted",
      "rotated",
    ]);
    expect(bytesToHex(deviceKey().publicKey)).toBe(rotated.public_key);
    expect(rotated.public_key).not.toBe(bytesToHex(original.publicKey));
    const [row] = await sql`select device_pk, device_successor_pk, device_successor_expires_at from agents where id = ${id}`;
    expect(row).toMatchObject({ device_pk: rotated.public_key, device_successor_pk: null, device_successor_expires_at: null });
    const after = await admin.call<{ fingerprint: string }>("GET", `agents/${id}`);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    const types = (await events(id)).map((e) => e.event_type);
    expect(types).toEqual(expect.arrayContaining(["device_key_rotation_requested", "device_key_rotation_started", "device_key_rotated"]));
    const audit = await sql`select action from audit_log where action like 'agents.device_key%' order by id`;
    expect(audit.map((r) => r.action)).toEqual([
      "agents.device_key_rotation_requested",
      "agents.device_key_rotation_started",
      "agents.device_key_rotated",
    ]);
  }, 90_000);

  it("refuses the old key from then on", async () => {
    const { conn } = await handLink(original);
    const closed = await conn.closed;
    expect(closed).toMatchObject({ code: 1008, reason: "unknown_device" });
  });

  it("falls back to the current key when the server does not know the successor", async () => {
    await agent.stop();
    const current = bytesToHex(deviceKey().publicKey);
    const stranger = generateKeyPair();
    const expiry = new Date(Date.now() + 3_600_000).toISOString();
    // A successor the server never heard of (or already dropped): announced and accepted, as the agent believes.
    writeFileSync(
      join(state.dir, "device-successor.json"),
      JSON.stringify({ secret_key: bytesToHex(stranger.secretKey), expiry, accepted: true }),
    );
    agent = runAgent({ serverUrl: p.url, stateDir: state.dir, backoff: { maxMs: 1000 } });
    await until("the link with the current key", () => (agent.linkedCount() > 0 ? true : undefined), 20_000);
    expect(agent.events.find((e) => e.type === "device_key")).toMatchObject({
      status: "fallback",
      public_key: bytesToHex(stranger.publicKey),
    });
    expect(bytesToHex(deviceKey().publicKey)).toBe(current);
    const [row] = await sql`select device_pk from agents where id = ${id}`;
    expect(row!.device_pk).toBe(current);
    await agent.stop();
  }, 60_000);

  it("refuses a bad successor or expiry with its reason on the link, and changes nothing", async () => {
    const other = generateKeyPair();
    // Another agent's key: enrolled (pending) under its own device key.
    await sql`insert into agents (device_pk, fingerprint, status) values (${bytesToHex(other.publicKey)}, 'f', 'pending')`;
    const { conn, frames } = await handLink(deviceKey());
    await until("hello.ack", () => frames.find((f) => f.type === "hello.ack"));
    const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
    const fresh = () => bytesToHex(generateKeyPair().publicKey);
    const cases = [
      { successor_pk: bytesToHex(other.publicKey), expiry: soon(3_600_000), reason: /another agent's key/ },
      { successor_pk: bytesToHex(deviceKey().publicKey), expiry: soon(3_600_000), reason: /current key/ },
      { successor_pk: "00".repeat(32), expiry: soon(3_600_000), reason: /all-zero/ },
      { successor_pk: fresh(), expiry: soon(-60_000), reason: /in the past/ },
      { successor_pk: fresh(), expiry: soon(60 * 86_400_000), reason: /more than 30 days/ },
    ];
    for (const c of cases) conn.send("key.rotate", { kind: "device", successor_pk: c.successor_pk, expiry: c.expiry });
    const answers = await until("the answers", () => {
      const got = frames.filter((f) => f.type === "key.rotate");
      return got.length === cases.length ? got : undefined;
    });
    // Each is answered once recorded; the answers may come in another order.
    for (const c of cases) {
      const answer = answers.find((a) => a.payload.successor_pk === c.successor_pk);
      expect(answer?.payload).toMatchObject({ kind: "device", status: "rejected" });
      expect(String(answer?.payload.reason)).toMatch(c.reason);
    }
    const [row] = await sql`select device_successor_pk from agents where id = ${id}`;
    expect(row!.device_successor_pk).toBeNull();
    const rejected = (await events(id)).filter((e) => e.event_type === "key_rotation_rejected");
    expect(rejected).toHaveLength(cases.length);

    // A malformed key is malformed input: the link closes, nothing stored.
    conn.send("key.rotate", { kind: "device", successor_pk: "not-a-key", expiry: soon(3_600_000) });
    expect(await conn.closed).toMatchObject({ code: 1008, reason: "malformed_payload" });
    const [still] = await sql`select device_successor_pk from agents where id = ${id}`;
    expect(still!.device_successor_pk).toBeNull();
  }, 60_000);

  it("the request is refused for an agent that is not linked, and for a viewer's scope", async () => {
    // The hand link's end is recorded by the sidecar's next batch.
    await until("the link's end recorded", async () => {
      const [row] = await sql`select link_owner from agents where id = ${id}`;
      return row!.link_owner === null ? true : undefined;
    });
    await expect(admin.call("POST", `agents/${id}/rotate-device-key`)).rejects.toThrow(/409.*not linked/);
    await expect(admin.call("POST", "agents/999999/rotate-device-key")).rejects.toThrow(/404/);
  });
});
