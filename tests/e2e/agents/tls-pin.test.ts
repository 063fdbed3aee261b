// TLS pinning (issue 35 item 5) against the product started with SVC_TLS=on (its self-signed
// certificate): the reference agent given the certificate's pin fetches the server key over HTTPS and
// links over wss; given another pin it refuses both with a log line naming the pins; a pin rotation to
// a new certificate reaches the linked agent, which reports holding the successor (the status route
// shows it acknowledged), and once that certificate is active the agent links with it.
import { get } from "node:https";
import { connect } from "node:tls";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentLog } from "../../../agent/log.ts";
import { certificatePin } from "../../../agent/tls-pin.ts";
import { freePort, type Product } from "../helpers.ts";
import { type Admin, type RunningAgent, runAgent, tempDir, until, productFixture } from "./support.ts";

const HOST = "127.0.0.1";
let p: Product;
let admin: Admin;
let sql: postgres.Sql;
let httpsUrl = "";
let httpsPort = 0;
const state = tempDir("agent-tls-pin-");

interface PinStatus {
  rotation: { successor_pin: string; mode: string; expiry: string } | null;
  active_certificate: { id: number; pin: string } | null;
  fleet: { total: number; acknowledged: number; pending: number };
  agents: { id: number; tls_pin_kind: string | null; tls_pins: string[]; acknowledged: boolean | null }[];
}

const fixture = productFixture();

beforeAll(async () => {
  httpsPort = await freePort();
  httpsUrl = `https://${HOST}:${httpsPort}`;
  ({ sql, p, admin } = await fixture.start({ SVC_TLS: "on", SVC_HTTPS_PORT: String(httpsPort), SVC_TLS_DOMAIN: HOST }));
}, 90_000);

afterAll(async () => {
  await fixture.stop();
  state.remove();
});

/** The pin of the leaf a fresh TLS connection is shown. */
function servedPin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: HOST, port: httpsPort, rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      resolve(certificatePin(raw));
    });
    socket.once("error", reject);
  });
}

function capturingLog(): AgentLog & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (msg: string) => void lines.push(`${level} ${msg}`);
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

const pairingCode = (agent: RunningAgent) =>
  until("a pairing code", () => {
    const e = agent.events.find((x) => x.type === "pairing_code");
    return e?.type === "pairing_code" ? e.code : undefined;
  });

describe("TLS pinning", () => {
  let agent: RunningAgent;
  let id = 0;
  let pin = "";

  it("the status route gives the served certificate's pin", async () => {
    const status = await admin.call<PinStatus>("GET", "agents/tls-pin/status");
    pin = await servedPin();
    expect(status).toMatchObject({ rotation: null, active_certificate: { pin }, fleet: { total: 0, acknowledged: 0, pending: 0 } });
  });

  it("the install script served over https carries the self-signed certificate's pin as TLS_PIN; over http none", async () => {
    const script = await new Promise<string>((resolve, reject) => {
      // The test reads the script as a host would before it has the pin: the served leaf is checked above.
      get(`${httpsUrl}/install-agent.sh`, { rejectUnauthorized: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve(body));
      }).once("error", reject);
    });
    expect(script).toContain(`TLS_PIN='${pin}'`);
    const plain = await (await fetch(`${p.url}/install-agent.sh`)).text();
    expect(plain).toContain("TLS_PIN=''");
  });

  it("an agent with the right pin fetches the server key over HTTPS, enrolls and links over wss", async () => {
    agent = runAgent({ serverUrl: httpsUrl, tlsPin: pin, stateDir: state.dir, backoff: { maxMs: 1000 } });
    id = (await pairingCode(agent)).agent_id!;
    await admin.call("POST", `agents/${id}/approve`, { host_link_action: "unlinked" });
    await until("the link", () => (agent.linkedCount() > 0 ? true : undefined), 20_000);
    const status = await admin.call<PinStatus>("GET", "agents/tls-pin/status");
    expect(status.agents).toEqual([expect.objectContaining({ id, tls_pin_kind: "self_signed", tls_pins: [pin], acknowledged: null })]);
  }, 60_000);

  it("an agent with another pin refuses the server, for the key fetch and for the link", async () => {
    const wrong = Buffer.alloc(32, 9).toString("base64");
    for (const serverKey of [undefined, (await admin.call<{ public_key: string }>("GET", "agents/server-key/status")).public_key]) {
      const dir = tempDir("agent-tls-wrong-");
      const log = capturingLog();
      const stranger = runAgent({ serverUrl: httpsUrl, tlsPin: wrong, serverKey, stateDir: dir.dir, log, backoff: { maxMs: 1000 } });
      const line = await until("the mismatch logged", () => log.lines.find((l) => l.includes("TLS pin mismatch")));
      expect(line).toContain(`presented pin ${pin}`);
      expect(line).toContain(`this agent accepts ${wrong}`);
      await stranger.stop();
      expect(stranger.events.filter((e) => e.type === "pairing_code" || e.type === "linked")).toEqual([]);
      dir.remove();
    }
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from agents`;
    expect(row!.n).toBe(1);
  }, 60_000);

  it("a pin rotation to a new certificate is followed: acknowledged, then the agent links with that certificate", async () => {
    const created = await admin.call<{ id: number }>("POST", "certificates", { domain: HOST, auto_renew: false });
    const expiry = new Date(Date.now() + 3_600_000).toISOString();
    const rotated = await admin.call<PinStatus>("POST", "agents/tls-pin/rotate", { certificate_id: created.id, expiry });
    const successor = rotated.rotation!.successor_pin;
    expect(successor).not.toBe(pin);
    expect(rotated.rotation).toMatchObject({ mode: "self_signed", expiry });
    const heard = await until("tls.pin.rotate", () => agent.events.find((e) => e.type === "tls_pin_rotation"), 15_000);
    expect(heard).toMatchObject({ successor_pin: successor, mode: "self_signed" });
    const acknowledged = await until("the acknowledgement", async () => {
      const s = await admin.call<PinStatus>("GET", "agents/tls-pin/status");
      return s.fleet.acknowledged === 1 ? s : undefined;
    });
    expect(acknowledged.agents[0]).toMatchObject({ id, acknowledged: true, tls_pins: [pin, successor] });
    const events = await admin.call<{ items: { event_type: string }[] }>("GET", `agents/${id}/events?event_type=tls_pin_acknowledged`);
    expect(events.items).toHaveLength(1);

    await admin.call("POST", `certificates/${created.id}/activate`);
    expect(await servedPin()).toBe(successor);
    await agent.stop();
    agent = runAgent({ serverUrl: httpsUrl, tlsPin: pin, stateDir: state.dir, backoff: { maxMs: 1000 } });
    await until("the link with the new certificate", () => (agent.linkedCount() > 0 ? true : undefined), 20_000);
    await agent.stop();
  }, 60_000);

  it("refuses a rotation without a pin, with both, with a bad pin or expiry, and a viewer", async () => {
    const bad = [
      {},
      { successor_pin: pin, certificate_id: 1 },
      { successor_pin: "abc" },
      { successor_pin: pin, expiry: new Date(Date.now() - 1000).toISOString() },
      { successor_pin: pin, expiry: new Date(Date.now() + 100 * 86_400_000).toISOString() },
      { successor_pin: pin, mode: "trust_me" },
    ];
    const before = await sql`select id, state from agent_tls_pin_rotations order by id`;
    for (const body of bad) await expect(admin.call("POST", "agents/tls-pin/rotate", body)).rejects.toThrow(/ 422 /);
    await expect(admin.call("POST", "agents/tls-pin/rotate", { certificate_id: 999_999 })).rejects.toThrow(/ 404 /);
    expect(await sql`select id, state from agent_tls_pin_rotations order by id`).toEqual(before);
  });
});
