// The UI live streams against the real server (serveWithLifespan on a loopback port, real PostgreSQL,
// LISTEN/NOTIFY) with real `ws` clients. Intervals are injected small so nothing waits on the real
// 10 s / 20 s / 60 s figures.
import { TEST_VAULT_KEY } from "../helpers/env.ts";
import type { IncomingMessage, Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createApp } from "../../functions/app.ts";
import { streamStatusRoutes } from "../../functions/routes/stream-status.ts";
import { hashPassword } from "../../shared/auth/password.ts";
import { parseConfig } from "../../shared/config.ts";
import { CidrSet } from "../../shared/net/cidr.ts";
import { type NodeRuntime, openRuntime } from "../../runtime/node-deps.ts";
import { serveWithLifespan } from "../../runtime/serve.ts";
import { upgradeRouter } from "../../runtime/upgrade-router.ts";
import { isSecureHandshake, parseClientFrame } from "../../sidecar/streams/handshake.ts";
import { type StreamsWorker, streamsWorker } from "../../sidecar/streams/streams-worker.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

const SETUP = "streams-setup-token";
const MAX_PER_USER = 3;

type Frame = { type: string; channel?: string; data?: Record<string, unknown>; ts?: string };
type Closed = { code: number; reason: string };

interface Probe {
  ws: WebSocket;
  frames: Frame[];
  closed: Promise<Closed>;
  /** The next frame of `type` not yet taken (frames already received count). */
  next(type: string, timeoutMs?: number): Promise<Frame>;
}

let tdb: TestDatabase;
let runtime: NodeRuntime;
let server: Server;
let streams: StreamsWorker;
let base = "";
let admin = "";
let apiToken = "";
const probes = new Set<Probe>();

function connect(path: string, headers: Record<string, string> = {}, options: { autoPong?: boolean } = {}): Probe {
  const ws = new WebSocket(`${base.replace("http", "ws")}${path}`, { headers, ...options });
  const frames: Frame[] = [];
  const waiters: (() => void)[] = [];
  let taken = 0;
  ws.on("message", (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const w of waiters.splice(0)) w();
  });
  ws.on("error", () => {});
  const closed = new Promise<Closed>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  const next = (type: string, timeoutMs = 5000) =>
    new Promise<Frame>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${type} frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`)),
        timeoutMs,
      );
      const look = () => {
        for (; taken < frames.length; taken++)
          if (frames[taken]!.type === type) {
            clearTimeout(timer);
            return resolve(frames[taken++]!);
          }
        waiters.push(look);
      };
      look();
    });
  const probe = { ws, frames, closed, next };
  probes.add(probe);
  return probe;
}

/** An upgrade the server answers with an HTTP response instead: its status and JSON body. */
function refused(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const ws = new WebSocket(`${base.replace("http", "ws")}${path}`, { headers: { authorization: `Bearer ${admin}` } });
  ws.on("error", () => {});
  return new Promise((resolve, reject) => {
    ws.on("open", () => reject(new Error(`${path} was upgraded`)));
    ws.on("unexpected-response", (_req, res: IncomingMessage) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    });
  });
}

async function api(method: string, path: string, token: string | undefined, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  const config = parseConfig(
    {
      DATABASE_URL: tdb.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "error",
      DB_POOL_MAX: "4",
      HEALTH_CACHE_MS: "0",
      SVC_SETUP_TOKEN: SETUP,
      TRUSTED_PROXIES: "127.0.0.1",
      SVC_VAULT_KEY: TEST_VAULT_KEY,
    },
    "0.0.0-test",
  );
  runtime = await openRuntime(config);
  const app = createApp(runtime.deps);
  const upgrades = upgradeRouter();
  streams = streamsWorker(runtime, upgrades, {
    firstFrameTimeoutMs: 300,
    pingIntervalMs: 100,
    idleTimeoutMs: 1000,
    revalidateMs: 200,
    maxConnectionsPerUser: MAX_PER_USER,
    maxBufferedBytes: 64 * 1024,
  });
  streamStatusRoutes(app, streams);
  server = await serveWithLifespan(runtime, app.fetch);
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  runtime.deps.lifecycle.markReady();
  upgrades.attach(server);
  await runtime.background.start(streams);
});

afterEach(async () => {
  for (const p of probes) p.ws.terminate();
  probes.clear();
  // Let the server see the terminations before the next test counts sockets.
  await new Promise((r) => setTimeout(r, 50));
});

afterAll(async () => {
  server?.close();
  server?.closeAllConnections();
  await runtime?.close();
  await tdb?.drop();
});

describe("before first run", () => {
  it("closes every stream 1008 unauthorized", async () => {
    expect(await connect("/api/v1/topology/stream").closed).toEqual({ code: 1008, reason: "unauthorized" });
  });
});

describe("UI streams", () => {
  beforeAll(async () => {
    // Every request of this file comes from 127.0.0.1: the relaxed profile leaves room for its sign-ins.
    await runtime.database.sql!`insert into app_settings (key, value) values ('rate_limit_profile', '"relaxed"')`;
    const init = await api("POST", "/api/v1/bootstrap/initialize", undefined, {
      email: "admin@example.com",
      password: "streams admin password",
      setup_token: SETUP,
    });
    expect(init.status).toBe(200);
    admin = ((await init.json()) as { token: string }).token;
    const issued = await api("POST", "/api/v1/auth/api-token", admin, { label: "stream reader" });
    expect(issued.status).toBe(201);
    apiToken = ((await issued.json()) as { token: string }).token;
  });

  describe("authentication", () => {
    it("takes the svc_session cookie of the handshake", async () => {
      const p = connect("/api/v1/topology/stream", { cookie: `svc_csrf=x; svc_session=${admin}` });
      expect(await p.next("ready")).toMatchObject({ type: "ready", channel: "topology" });
    });

    it("takes a bearer API token or session JWT in the handshake", async () => {
      const byToken = connect("/api/v1/discovery/stream", { authorization: `Bearer ${apiToken}` });
      const byJwt = connect("/api/v1/monitors/stream", { authorization: `Bearer ${admin}` });
      expect(await byToken.next("ready")).toMatchObject({ channel: "discovery" });
      expect(await byJwt.next("ready")).toMatchObject({ channel: "monitors" });
    });

    it("takes the token from a first frame on /telemetry/stream, as JSON or bare", async () => {
      const json = connect("/api/v1/telemetry/stream");
      json.ws.on("open", () => json.ws.send(JSON.stringify({ type: "auth", token: admin })));
      expect(await json.next("ready")).toMatchObject({ channel: "telemetry" });
      const bare = connect("/api/v1/agents/stream");
      bare.ws.on("open", () => bare.ws.send(apiToken));
      expect(await bare.next("ready")).toMatchObject({ channel: "agents" });
    });

    it("accepts the first frame also when the cookie already authenticated", async () => {
      const p = connect("/api/v1/telemetry/stream", { cookie: `svc_session=${admin}` });
      p.ws.on("open", () => p.ws.send(JSON.stringify({ type: "auth", token: admin })));
      await p.next("ready");
      await p.next("ping");
      expect(p.ws.readyState).toBe(WebSocket.OPEN);
    });

    it("closes 1008 unauthorized without a credential, or with a bad one", async () => {
      expect(await connect("/api/v1/topology/stream").closed).toEqual({ code: 1008, reason: "unauthorized" });
      expect(await connect("/api/v1/discovery/stream", { authorization: "Bearer not-a-token" }).closed).toEqual({
        code: 1008,
        reason: "unauthorized",
      });
      expect(await connect("/api/v1/topology/stream", { cookie: "svc_session=forged.jwt.value" }).closed).toEqual({
        code: 1008,
        reason: "unauthorized",
      });
      const badFrame = connect("/api/v1/monitors/stream");
      badFrame.ws.on("open", () => badFrame.ws.send(JSON.stringify({ type: "auth", token: "svc_wrong_token" })));
      expect(await badFrame.closed).toEqual({ code: 1008, reason: "unauthorized" });
    });

    it("does not take a first-frame token on /topology/stream (spec 5.5.1)", async () => {
      const p = connect("/api/v1/topology/stream");
      p.ws.on("open", () => p.ws.send(JSON.stringify({ type: "auth", token: admin })));
      expect(await p.closed).toEqual({ code: 1008, reason: "unauthorized" });
    });

    it("closes 1008 auth_timeout when no token frame comes in time", async () => {
      const started = performance.now();
      expect(await connect("/api/v1/agents/stream").closed).toEqual({ code: 1008, reason: "auth_timeout" });
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    });

    it("closes 1008 malformed_frame when the first frame is not a token", async () => {
      const p = connect("/api/v1/telemetry/stream");
      p.ws.on("open", () => p.ws.send(JSON.stringify({ type: "hello" })));
      expect(await p.closed).toEqual({ code: 1008, reason: "malformed_frame" });
    });

    it("closes 1008 forbidden for a token without read:<channel>", async () => {
      const res = await api("POST", "/api/v1/auth/api-token", admin, { label: "pusher", scopes: ["write:telemetry"] });
      const { token } = (await res.json()) as { token: string };
      expect(await connect("/api/v1/telemetry/stream", { authorization: `Bearer ${token}` }).closed).toEqual({
        code: 1008,
        reason: "forbidden",
      });
    });

    it("closes an open socket 1008 once its API token is revoked", async () => {
      const res = await api("POST", "/api/v1/auth/api-token", admin, { label: "short-lived" });
      const { token, id } = (await res.json()) as { token: string; id: number };
      const p = connect("/api/v1/topology/stream", { authorization: `Bearer ${token}` });
      await p.next("ready");
      expect((await api("DELETE", `/api/v1/auth/api-tokens/${id}`, admin)).status).toBe(200);
      expect(await p.closed).toEqual({ code: 1008, reason: "unauthorized" });
    });
  });

  describe("events and liveness", () => {
    it("forwards a hardware create made over HTTP to /topology/stream", async () => {
      const p = connect("/api/v1/topology/stream", { cookie: `svc_session=${admin}` });
      await p.next("ready");
      const res = await api("POST", "/api/v1/hardware", admin, { name: "stream-node-1" });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: number };
      const event = await p.next("event");
      expect(event).toMatchObject({ type: "event", channel: "topology", data: { entity: "hardware", action: "create", id } });
      expect(Number.isNaN(Date.parse(event.ts!))).toBe(false);
    });

    it("forwards the status worker's critical_down NOTIFY on monitors to /monitors/stream only", async () => {
      const monitors = connect("/api/v1/monitors/stream", { authorization: `Bearer ${apiToken}` });
      const topology = connect("/api/v1/topology/stream", { authorization: `Bearer ${apiToken}` });
      await Promise.all([monitors.next("ready"), topology.next("ready")]);
      await runtime.database.sql!`select pg_notify('monitors', ${JSON.stringify({ event: "critical_down", hardware_ids: [7] })})`;
      expect(await monitors.next("event")).toMatchObject({ channel: "monitors", data: { event: "critical_down", hardware_ids: [7] } });
      await topology.next("ping");
      expect(topology.frames.some((f) => f.type === "event")).toBe(false);
    });

    it("pings every interval and keeps a client that answers", async () => {
      const p = connect("/api/v1/discovery/stream", { authorization: `Bearer ${apiToken}` });
      await p.next("ready");
      for (let i = 0; i < 3; i++) {
        expect(await p.next("ping", 1000)).toEqual({ type: "ping" });
        p.ws.send(JSON.stringify({ type: "pong" }));
      }
      expect(p.ws.readyState).toBe(WebSocket.OPEN);
    });

    it("closes a client it has heard nothing from for the idle limit", async () => {
      const p = connect("/api/v1/discovery/stream", { authorization: `Bearer ${apiToken}` }, { autoPong: false });
      await p.next("ready");
      expect(await p.closed).toEqual({ code: 1000, reason: "idle_timeout" });
    });

    it("drops a consumer that stops reading (1013) instead of buffering for it", async () => {
      const p = connect("/api/v1/telemetry/stream", { authorization: `Bearer ${apiToken}` });
      await p.next("ready");
      const socket = (p.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      socket.pause();
      // About 14 MB of distinct payloads (PostgreSQL folds identical ones in one transaction).
      await runtime.database.sql!`select pg_notify('telemetry', i::text || repeat('x', 7000)) from generate_series(1, 2000) i`;
      await new Promise((r) => setTimeout(r, 500));
      socket.resume();
      expect(await p.closed).toEqual({ code: 1013, reason: "backpressure" });
      expect(p.frames.filter((f) => f.type === "event").length).toBeLessThan(2000);
    });

    it("caps open sockets per user (1013)", async () => {
      const hash = await hashPassword("viewer password for streams", { iterations: 1000 });
      await runtime.database.sql!`insert into users (email, password_hash, role) values ('viewer@example.com', ${hash}, 'viewer')`;
      const login = await api("POST", "/api/v1/auth/jwt/login", undefined, {
        email: "viewer@example.com",
        password: "viewer password for streams",
      });
      const viewer = ((await login.json()) as { access_token: string }).access_token;
      const open = Array.from({ length: MAX_PER_USER }, () => connect("/api/v1/topology/stream", { authorization: `Bearer ${viewer}` }));
      await Promise.all(open.map((p) => p.next("ready")));
      expect(await connect("/api/v1/agents/stream", { authorization: `Bearer ${viewer}` }).closed).toEqual({
        code: 1013,
        reason: "too_many_connections",
      });
      open[0]!.ws.close();
      await open[0]!.closed;
      await new Promise((r) => setTimeout(r, 50));
      await connect("/api/v1/agents/stream", { authorization: `Bearer ${viewer}` }).next("ready");
    });
  });

  describe("transport", () => {
    it("answers an upgrade to an unknown path 404 JSON without upgrading", async () => {
      expect(await refused("/api/v1/nothing/stream")).toEqual({
        status: 404,
        body: { error_code: "RESOURCE_NOT_FOUND", detail: "No WebSocket endpoint at /api/v1/nothing/stream." },
      });
    });

    it("with WS_REQUIRE_WSS closes plain handshakes 1008 wss_required unless a trusted proxy asserts https", async () => {
      runtime.deps.config.WS_REQUIRE_WSS = true;
      try {
        const plain = connect("/api/v1/topology/stream", { authorization: `Bearer ${apiToken}` });
        expect(await plain.closed).toEqual({ code: 1008, reason: "wss_required" });
        const proxied = connect("/api/v1/topology/stream", { authorization: `Bearer ${apiToken}`, "x-forwarded-proto": "https" });
        await proxied.next("ready");
      } finally {
        runtime.deps.config.WS_REQUIRE_WSS = false;
      }
    });

    it("reads X-Forwarded-Proto only from a trusted proxy", () => {
      const req = (remoteAddress: string, proto?: string) =>
        ({ socket: { remoteAddress }, headers: proto ? { "x-forwarded-proto": proto } : {} }) as unknown as IncomingMessage;
      const trusted = new CidrSet(["10.0.0.0/8"]);
      expect(isSecureHandshake(req("10.1.2.3", "https"), trusted)).toBe(true);
      expect(isSecureHandshake(req("::ffff:10.1.2.3", "https, http"), trusted)).toBe(true);
      expect(isSecureHandshake(req("10.1.2.3", "http"), trusted)).toBe(false);
      expect(isSecureHandshake(req("203.0.113.9", "https"), trusted)).toBe(false);
      expect(isSecureHandshake(req("10.1.2.3"), trusted)).toBe(false);
    });

    it("reads client frames: auth (JSON or bare), pong, anything else", () => {
      expect(parseClientFrame('{"type":"auth","token":"abc"}')).toEqual({ kind: "auth", token: "abc" });
      expect(parseClientFrame(" svc_abc.def ")).toEqual({ kind: "auth", token: "svc_abc.def" });
      expect(parseClientFrame('"abc"')).toEqual({ kind: "auth", token: "abc" });
      expect(parseClientFrame('{"type":"pong"}')).toEqual({ kind: "pong" });
      expect(parseClientFrame('{"type":"subscribe"}')).toEqual({ kind: "other" });
      expect(parseClientFrame('{"type":"auth"}')).toEqual({ kind: "malformed" });
      expect(parseClientFrame("two words")).toEqual({ kind: "malformed" });
      expect(parseClientFrame("[1]")).toEqual({ kind: "malformed" });
    });
  });

  describe("status routes", () => {
    it("report listening and connected clients per stream", async () => {
      const p = connect("/api/v1/topology/stream", { authorization: `Bearer ${apiToken}` });
      await p.next("ready");
      const res = await api("GET", "/api/v1/topology/ws/status", apiToken);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        stream: "/api/v1/topology/stream",
        channel: "topology",
        accepting: true,
        listening: true,
        connected_clients: 1,
        pending_clients: 0,
        wss_required: false,
      });
      const discovery = (await (await api("GET", "/api/v1/discovery/ws/status", admin)).json()) as Record<string, unknown>;
      expect(discovery).toMatchObject({ stream: "/api/v1/discovery/stream", listening: true, connected_clients: 0 });
    });

    it("need a credential", async () => {
      const res = await api("GET", "/api/v1/topology/ws/status", undefined);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error_code: string }).error_code).toBe("UNAUTHORIZED");
    });

    it("are in the OpenAPI document under their catalogue groups; the sockets are not", async () => {
      const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as { paths: Record<string, { get?: { tags: string[] } }> };
      expect(doc.paths["/api/v1/topology/ws/status"]?.get?.tags).toEqual(["topology-ws"]);
      expect(doc.paths["/api/v1/discovery/ws/status"]?.get?.tags).toEqual(["discovery-ws"]);
      expect(doc.paths["/api/v1/topology/stream"]).toBeUndefined();
    });
  });

  describe("drain", () => {
    it("closes every socket 1001, stops LISTEN and refuses new upgrades 503", async () => {
      const a = connect("/api/v1/topology/stream", { authorization: `Bearer ${apiToken}` });
      const b = connect("/api/v1/telemetry/stream");
      b.ws.on("open", () => b.ws.send(apiToken));
      await Promise.all([a.next("ready"), b.next("ready")]);
      const pending = connect("/api/v1/monitors/stream");
      await new Promise((r) => setTimeout(r, 50));
      await runtime.background.stopAll();
      expect(await a.closed).toEqual({ code: 1001, reason: "going_away" });
      expect(await b.closed).toEqual({ code: 1001, reason: "going_away" });
      expect((await pending.closed).code).toBe(1001);
      expect(streams.status("topology")).toMatchObject({ accepting: false, listening: false, connected_clients: 0 });
      expect((await refused("/api/v1/topology/stream")).status).toBe(503);
    });
  });
});
