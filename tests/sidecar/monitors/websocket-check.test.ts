// The websocket check against real `ws` servers on loopback: one that upgrades /echo (echoing each text
// message after a greeting), refuses /private with 403 unless the bearer token is right, never answers
// on /quiet and closes /bye with 1008; a wss one with a self-signed certificate; a refused port, bad
// configs, a url whose host the monitor policy refuses and the policy's refusals of the host.
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { runCheck } from "../../../net/checks/run-check.ts";
import { closedPort, selfSignedCert } from "./peers.ts";
import { expectPolicyRefusals } from "./net-peers.ts";

const TOKEN = "s3cret-token";

let server: WebSocketServer;
let port: number;
let httpsServer: HttpsServer;
let securePort: number;
/** The headers of every upgrade request the plain server saw. */
const seen: Record<string, string | string[] | undefined>[] = [];

function attach(wss: WebSocketServer) {
  wss.on("connection", (ws, req) => {
    ws.on("error", () => {});
    if (req.url === "/bye") return ws.close(1008, "policy");
    if (req.url === "/quiet") return;
    ws.send("hello from the server");
    ws.on("message", (data) => ws.send(`echo: ${data.toString()}`));
  });
}

beforeAll(async () => {
  server = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    verifyClient: ({ req }, done) => {
      seen.push({ ...req.headers });
      if (req.url === "/private" && req.headers.authorization !== `Bearer ${TOKEN}`) return done(false, 403, "Forbidden");
      done(true);
    },
  });
  attach(server);
  await new Promise<void>((resolve) => server.once("listening", resolve));
  port = (server.address() as { port: number }).port;
  httpsServer = createHttpsServer(selfSignedCert(30));
  attach(new WebSocketServer({ server: httpsServer }));
  await new Promise<void>((resolve) => httpsServer.listen(0, "127.0.0.1", resolve));
  securePort = (httpsServer.address() as { port: number }).port;
});
afterAll(async () => {
  for (const c of server?.clients ?? []) c.terminate();
  await Promise.all([new Promise((resolve) => server?.close(resolve)), new Promise((resolve) => httpsServer?.close(resolve))]);
  httpsServer?.closeAllConnections();
});

const check = (config: Record<string, unknown>) => runCheck({ check_type: "websocket", host: "127.0.0.1", config });
const url = (path: string) => `ws://127.0.0.1:${port}${path}`;

describe("websocket check", () => {
  it("is up on the upgrade, closing with 1000, and sends the config's headers", async () => {
    const r = await check({ url: url("/echo"), headers: { "x-probe": "yes" } });
    expect(r.up, r.msg).toBe(true);
    expect(r.msg).toBe("upgraded; closed 1000");
    expect(r.latency_ms).toBeGreaterThanOrEqual(0);
    expect(seen.at(-1)?.["x-probe"]).toBe("yes");
  });

  it("is up when a message contains expected_reply (a greeting before it passed over), down when none does", async () => {
    const r = await check({ url: url("/echo"), send: "ping 42", expected_reply: "echo: ping 42" });
    expect(r.up, r.msg).toBe(true);
    expect(r.msg).toBe('upgraded; reply "echo: ping 42"; closed 1000');
    const greeting = await check({ url: url("/echo"), expected_reply: "hello" });
    expect(greeting.msg).toBe('upgraded; reply "hello from the server"; closed 1000');
    const miss = await check({ url: url("/echo"), send: "ping", expected_reply: "pong", timeout: 0.5 });
    expect(miss.up).toBe(false);
    expect(miss.msg).toBe('no reply containing "pong" before the timeout (2 other messages, the last "echo: ping")');
  });

  it("is down on a refused upgrade (403), a bearer token making it pass", async () => {
    const refused = await check({ url: url("/private") });
    expect(refused.up).toBe(false);
    expect(refused.msg).toBe("upgrade refused: HTTP 403 Forbidden");
    const allowed = await check({ url: url("/private"), auth_type: "bearer", token: TOKEN });
    expect(allowed.up, allowed.msg).toBe(true);
  });

  it("is down when the server closes first, on a refused port, and within its timeout with no reply", async () => {
    const closedByServer = await check({ url: url("/bye"), expected_reply: "x" });
    expect(closedByServer.msg).toBe('the server closed the connection (1008 "policy") before a reply containing "x"');
    const closed = await closedPort();
    expect((await check({ url: `ws://127.0.0.1:${closed}/` })).msg).toBe("upgrade failed: ECONNREFUSED");
    const quiet = await check({ url: url("/quiet"), send: "anyone?", expected_reply: "yes", timeout: 0.3 });
    expect(quiet.up).toBe(false);
    expect(quiet.msg).toBe('no reply containing "yes" before the timeout');
  });

  it("verifies the wss certificate unless verify_tls is false", async () => {
    const secure = `wss://127.0.0.1:${securePort}/echo`;
    const untrusted = await check({ url: secure });
    expect(untrusted.up).toBe(false);
    expect(untrusted.msg).toBe("upgrade failed: DEPTH_ZERO_SELF_SIGNED_CERT");
    const r = await check({ url: secure, verify_tls: false, send: "tls?", expected_reply: "echo: tls?" });
    expect(r.up, r.msg).toBe(true);
  });

  it("answers a bad config as invalid, and a url outside the agent's host as a config error", async () => {
    for (const config of [{ url: "http://127.0.0.1/" }, { url: "not a url" }, { url: url("/echo"), send: 5 }, { auth_type: "digest" }]) {
      const r = await check(config);
      expect(r.invalid_config, JSON.stringify(config)).toBe(true);
      expect(r.msg).toMatch(/^invalid config: /);
    }
    const { websocketCheck } = await import("../../../net/checks/websocket.ts");
    const r = await websocketCheck(
      { check_type: "websocket", host: "127.0.0.2", config: { url: url("/echo") }, hostOnly: true },
      new AbortController().signal,
      1000,
    );
    expect(r.msg).toBe("invalid config: config.url names 127.0.0.1, not the assigned host 127.0.0.2");
  });

  it("honours the monitor policy for the url's host and for the monitor's host", async () => {
    const policy = { allow_private: true, allow_loopback: false };
    const before = seen.length;
    const r = await runCheck({ check_type: "websocket", host: "10.0.0.1", config: { url: url("/echo") } }, { policy });
    expect(r.msg).toMatch(/refused by the monitor policy.*loopback/);
    const peer = {
      get accepted() {
        return seen.length;
      },
    };
    await expectPolicyRefusals("websocket", { timeout: 1, url: url("/echo").replace("127.0.0.1", "rebind.example.test") }, peer);
    expect(seen.length).toBe(before);
  });
});
