// GET /events/stream and /events/status against the real server (serveWithLifespan on a loopback port,
// real PostgreSQL LISTEN/NOTIFY, the streams worker's hub) with real HTTP clients. Intervals and the
// replay ring are injected small so nothing waits on the real 15 s / 60 s figures.
import { TEST_VAULT_KEY } from "../helpers/env.ts";
import { get as httpGet, type IncomingMessage, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createApp } from "../../functions/app.ts";
import { hashPassword } from "../../shared/auth/password.ts";
import { parseConfig } from "../../shared/config.ts";
import { parseEventId } from "../../shared/streams/event-id.ts";
import { type NodeRuntime, openRuntime } from "../../runtime/node-deps.ts";
import { serveWithLifespan } from "../../runtime/serve.ts";
import { upgradeRouter } from "../../runtime/upgrade-router.ts";
import { type StreamsWorker, streamsWorker } from "../../sidecar/streams/streams-worker.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { isEvent, openSse, type SseRecord, type SseStream } from "./sse-client.ts";

const SETUP = "sse-setup-token";
const RING = 8;
const MAX_PER_USER = 3;

let tdb: TestDatabase;
let runtime: NodeRuntime;
let server: Server;
let streams: StreamsWorker;
let base = "";
let admin = "";
let apiToken = "";
const open = new Set<SseStream>();
let peer = 0;
/** Each request comes from its own address (through the trusted loopback proxy): the real rate limiter never gets in the way. */
const fromPeer = () => ({ "x-forwarded-for": `10.7.${Math.floor(++peer / 250)}.${peer % 250}` });

async function api(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const h: Record<string, string> = { "content-type": "application/json", ...fromPeer(), ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  return fetch(`${base}${path}`, { method, headers: h, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

async function sse(token: string | undefined, query = "", headers: Record<string, string> = {}): Promise<SseStream> {
  const s = await openSse(`${base}/api/v1/events/stream${query}`, {
    ...fromPeer(),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...headers,
  });
  open.add(s);
  return s;
}

const frame = (r: SseRecord) => JSON.parse(r.data!) as { type: string; channel: string; data: Record<string, unknown>; ts: string };
const seqOf = (id: string | undefined) => parseEventId(id ?? "")!.seq;

async function status(): Promise<Record<string, any>> {
  const res = await api("GET", "/api/v1/events/status", admin);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, any>;
}

/** Waits until the feed has numbered events up to `seq` (it numbers them whether or not a client listens). */
async function feedReaches(seq: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const newest = (await status()).buffer.newest_id as string | null;
    if (newest && seqOf(newest) >= seq) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the feed never reached event ${seq}`);
}

async function createHardware(name: string): Promise<number> {
  const res = await api("POST", "/api/v1/hardware", admin, { name });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** A user whose custom role holds exactly `scopes`; answers its bearer JWT. */
async function userWithScopes(email: string, scopes: string[]): Promise<string> {
  const role = email.split("@")[0]!;
  const sql = runtime.database.sql!;
  await sql`insert into custom_roles (name, scopes) values (${role}, ${JSON.stringify(scopes)}::jsonb)`;
  const hash = await hashPassword("sse scoped user password", { iterations: 1000 });
  await sql`insert into users (email, password_hash, role) values (${email}, ${hash}, ${role})`;
  const login = await api("POST", "/api/v1/auth/jwt/login", undefined, { email, password: "sse scoped user password" });
  expect(login.status).toBe(200);
  return ((await login.json()) as { access_token: string }).access_token;
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
  const upgrades = upgradeRouter();
  streams = streamsWorker(
    runtime,
    upgrades,
    { revalidateMs: 200, maxConnectionsPerUser: MAX_PER_USER },
    { replayBufferSize: RING, heartbeatMs: 150, maxQueuedBytes: 64 * 1024 },
  );
  const app = createApp(runtime.deps, { events: streams.events });
  server = await serveWithLifespan(runtime, app.fetch);
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  runtime.deps.lifecycle.markReady();
  upgrades.attach(server);
  await runtime.background.start(streams);
});

afterEach(async () => {
  for (const s of open) s.close();
  open.clear();
  // Let the server see the disconnects before the next test counts streams.
  await new Promise((r) => setTimeout(r, 50));
});

afterAll(async () => {
  server?.close();
  server?.closeAllConnections();
  await runtime?.close();
  await tdb?.drop();
});

describe("before first run", () => {
  it("answers 401", async () => {
    const res = await api("GET", "/api/v1/events/stream", undefined);
    expect(res.status).toBe(401);
  });
});

describe("server-sent events", () => {
  beforeAll(async () => {
    const init = await api("POST", "/api/v1/bootstrap/initialize", undefined, {
      email: "admin@example.com",
      password: "sse admin password",
      setup_token: SETUP,
    });
    expect(init.status).toBe(200);
    admin = ((await init.json()) as { token: string }).token;
    const issued = await api("POST", "/api/v1/auth/api-token", admin, { label: "event reader" });
    expect(issued.status).toBe(201);
    apiToken = ((await issued.json()) as { token: string }).token;
  });

  describe("authentication", () => {
    it("answers 401 in the envelope without a credential or with a bad one", async () => {
      for (const token of [undefined, "not-a-token"]) {
        const res = await api("GET", "/api/v1/events/stream", token);
        expect(res.status).toBe(401);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        expect(((await res.json()) as { error_code: string }).error_code).toBe("UNAUTHORIZED");
      }
      expect((await api("GET", "/api/v1/events/status", undefined)).status).toBe(401);
    });

    it("takes the svc_session cookie and a bearer API token", async () => {
      const byCookie = await sse(undefined, "", { cookie: `svc_session=${admin}` });
      const byToken = await sse(apiToken);
      for (const s of [byCookie, byToken]) {
        expect(s.status).toBe(200);
        expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
        expect(s.headers.get("cache-control")).toBe("no-cache");
        const ready = JSON.parse((await s.next(isEvent("ready"))).data!) as { channels: string[]; replayed: number };
        expect(ready.channels.sort()).toEqual(["agents", "discovery", "monitors", "telemetry", "topology"]);
        expect(ready.replayed).toBe(0);
      }
    });

    it("ends an open stream with event: close unauthorized once its API token is revoked", async () => {
      const issued = (await (await api("POST", "/api/v1/auth/api-token", admin, { label: "short-lived" })).json()) as {
        token: string;
        id: number;
      };
      const s = await sse(issued.token);
      await s.next(isEvent("ready"));
      expect((await api("DELETE", `/api/v1/auth/api-tokens/${issued.id}`, admin)).status).toBe(200);
      expect(JSON.parse((await s.next(isEvent("close"))).data!)).toEqual({ reason: "unauthorized" });
      await s.ended;
      expect((await api("GET", "/api/v1/events/stream", issued.token)).status).toBe(401);
    });
  });

  describe("events", () => {
    it("delivers a hardware create made over HTTP with id, event: <channel> and the WebSocket frame as data", async () => {
      const s = await sse(apiToken);
      await s.next(isEvent("ready"));
      const id = await createHardware("sse-node-1");
      const record = await s.next(isEvent("topology"));
      expect(record.id).toMatch(/^[0-9a-f]{8}-[1-9][0-9]*$/);
      const f = frame(record);
      expect(f).toMatchObject({ type: "event", channel: "topology", data: { entity: "hardware", action: "create", id } });
      expect(Number.isNaN(Date.parse(f.ts))).toBe(false);
    });

    it("numbers events in increasing order", async () => {
      const s = await sse(apiToken);
      await s.next(isEvent("ready"));
      await createHardware("sse-order-1");
      await createHardware("sse-order-2");
      const a = await s.next(isEvent("topology"));
      const b = await s.next(isEvent("topology"));
      expect(parseEventId(a.id!)!.epoch).toBe(parseEventId(b.id!)!.epoch);
      expect(seqOf(b.id)).toBeGreaterThan(seqOf(a.id));
    });

    it("answers HEAD without opening a stream", async () => {
      const res = await api("HEAD", "/api/v1/events/stream", apiToken);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect((await status()).connected_clients).toBe(0);
    });

    it("sends a heartbeat comment when nothing happens", async () => {
      const s = await sse(apiToken);
      await s.next(isEvent("ready"));
      expect(await s.next((r) => r.comment === "heartbeat", 2000)).toEqual({ comment: "heartbeat" });
    });
  });

  describe("resumption", () => {
    it("replays only what was missed after Last-Event-ID, then goes live", async () => {
      const first = await sse(apiToken);
      await first.next(isEvent("ready"));
      await createHardware("sse-resume-1");
      const seen = await first.next(isEvent("topology"));
      first.close();
      const missed = [await createHardware("sse-resume-2"), await createHardware("sse-resume-3")];
      await feedReaches(seqOf(seen.id) + 2);

      const again = await sse(apiToken, "", { "last-event-id": seen.id! });
      const replayed = [await again.next(isEvent("topology")), await again.next(isEvent("topology"))];
      expect(replayed.map((r) => frame(r).data.id)).toEqual(missed);
      expect(replayed.map((r) => seqOf(r.id))).toEqual([seqOf(seen.id) + 1, seqOf(seen.id) + 2]);
      expect(JSON.parse((await again.next(isEvent("ready"))).data!)).toMatchObject({ replayed: 2 });
      const live = await createHardware("sse-resume-4");
      expect(frame(await again.next(isEvent("topology"))).data.id).toBe(live);
      expect(again.records.filter((r) => r.event === "topology").map((r) => frame(r).data.id)).not.toContain(frame(seen).data.id);

      // The query parameter, for clients that cannot set the header, resumes the same way.
      const byQuery = await sse(apiToken, `?last_event_id=${seen.id}`);
      expect(frame(await byQuery.next(isEvent("topology"))).data.id).toBe(missed[0]);
    });

    it("says event: reset when the id fell out of the ring, carrying the newest id", async () => {
      const s = await sse(apiToken);
      await s.next(isEvent("ready"));
      await createHardware("sse-old");
      const old = await s.next(isEvent("topology"));
      s.close();
      await runtime.database.sql!`select pg_notify('telemetry', 'filler-' || i::text) from generate_series(1, ${RING + 2}) i`;
      await feedReaches(seqOf(old.id) + RING + 2);

      const again = await sse(apiToken, "", { "last-event-id": old.id! });
      const reset = await again.next((r) => r.event !== undefined);
      expect(reset.event).toBe("reset");
      const notice = JSON.parse(reset.data!) as Record<string, string>;
      expect(notice).toMatchObject({ reason: "out_of_buffer", last_event_id: old.id });
      expect(reset.id).toBe(notice.newest_id);
      expect(seqOf(notice.newest_id) - seqOf(notice.oldest_id)).toBe(RING - 1);
      expect(JSON.parse((await again.next(isEvent("ready"))).data!)).toMatchObject({ replayed: 0 });
    });

    it("says event: reset unknown_id for an id of another process life", async () => {
      const { newest_id } = (await status()).buffer as { newest_id: string };
      const foreign = newest_id.startsWith("00000000") ? `11111111-1` : `00000000-1`;
      const s = await sse(apiToken, "", { "last-event-id": foreign });
      const reset = await s.next(isEvent("reset"));
      expect(JSON.parse(reset.data!)).toMatchObject({ reason: "unknown_id", last_event_id: foreign, newest_id });
    });

    it("refuses a Last-Event-ID that is not an id of ours with 422", async () => {
      const res = await api("GET", "/api/v1/events/stream", apiToken, undefined, { "last-event-id": "banana" });
      expect(res.status).toBe(422);
      const body = (await res.json()) as { error_code: string; detail: { loc: string[] }[] };
      expect(body.error_code).toBe("VALIDATION_ERROR");
      expect(body.detail[0]!.loc).toEqual(["header", "Last-Event-ID"]);
      const empty = await api("GET", "/api/v1/events/stream?last_event_id=", apiToken);
      expect(empty.status).toBe(422);
    });
  });

  describe("scopes", () => {
    let monitorsOnly = "";
    beforeAll(async () => {
      monitorsOnly = await userWithScopes("monitor-watcher@example.com", ["read:monitors"]);
    });

    it("sends only the channels the caller may read", async () => {
      const s = await sse(monitorsOnly);
      expect(JSON.parse((await s.next(isEvent("ready"))).data!)).toMatchObject({ channels: ["monitors"] });
      await createHardware("sse-hidden");
      await runtime.database.sql!`select pg_notify('monitors', ${JSON.stringify({ event: "critical_down", hardware_ids: [9] })})`;
      expect(frame(await s.next(isEvent("monitors"))).data).toEqual({ event: "critical_down", hardware_ids: [9] });
      expect(s.records.some((r) => r.event === "topology")).toBe(false);
    });

    it("narrows to ?channels=, and refuses a channel the caller may not read (403) or that does not exist (422)", async () => {
      const s = await sse(apiToken, "?channels=monitors");
      expect(JSON.parse((await s.next(isEvent("ready"))).data!)).toMatchObject({ channels: ["monitors"] });
      const denied = await api("GET", "/api/v1/events/stream?channels=monitors,topology", monitorsOnly);
      expect(denied.status).toBe(403);
      expect(((await denied.json()) as { detail: string }).detail).toContain("read:topology");
      const unknown = await api("GET", "/api/v1/events/stream?channels=monitors,bogus", apiToken);
      expect(unknown.status).toBe(422);
      expect(((await unknown.json()) as { fields: Record<string, string> }).fields.channels).toContain('"bogus"');
    });

    it("refuses a caller who may read no channel with 403", async () => {
      const pusher = await userWithScopes("pusher@example.com", ["write:telemetry"]);
      const res = await api("GET", "/api/v1/events/stream", pusher);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error_code: string }).error_code).toBe("PERMISSION_DENIED");
    });

    it("replays only events of the caller's channels", async () => {
      const { newest_id } = (await status()).buffer as { newest_id: string };
      await runtime.database.sql!`select pg_notify('topology', '{"entity":"x","n":1}')`;
      await runtime.database.sql!`select pg_notify('monitors', '{"event":"replayed"}')`;
      await feedReaches(seqOf(newest_id) + 2);
      const s = await sse(monitorsOnly, "", { "last-event-id": newest_id });
      expect(frame(await s.next(isEvent("monitors"))).data).toEqual({ event: "replayed" });
      expect(JSON.parse((await s.next(isEvent("ready"))).data!)).toMatchObject({ replayed: 1 });
    });
  });

  describe("limits", () => {
    it("caps open streams per user together with the WebSocket streams (429)", async () => {
      const viewer = await userWithScopes("capped@example.com", ["read:*"]);
      const ws = new WebSocket(`${base.replace("http", "ws")}/api/v1/topology/stream`, { headers: { authorization: `Bearer ${viewer}` } });
      await new Promise((resolve) => ws.once("message", resolve));
      try {
        const held = await Promise.all(Array.from({ length: MAX_PER_USER - 1 }, () => sse(viewer)));
        await Promise.all(held.map((s) => s.next(isEvent("ready"))));
        const refused = await api("GET", "/api/v1/events/stream", viewer);
        expect(refused.status).toBe(429);
        expect(((await refused.json()) as { error_code: string }).error_code).toBe("RATE_LIMITED");
        held[0]!.close();
        await held[0]!.ended;
        await new Promise((r) => setTimeout(r, 100));
        const s = await sse(viewer);
        await s.next(isEvent("ready"));
      } finally {
        ws.terminate();
      }
    });

    it("drops a client that stops reading instead of queueing for it", async () => {
      const before = (await status()).dropped_clients as number;
      const res = await new Promise<IncomingMessage>((resolve, reject) =>
        httpGet(`${base}/api/v1/events/stream?channels=telemetry`, { headers: { authorization: `Bearer ${apiToken}` } }, resolve).on(
          "error",
          reject,
        ),
      );
      expect(res.statusCode).toBe(200);
      let received = "";
      await new Promise<void>((resolve) => {
        res.on("data", (chunk: Buffer) => {
          received += chunk.toString();
          if (received.includes("event: ready")) resolve();
        });
      });
      res.pause();
      // About 14 MB of distinct payloads (PostgreSQL folds identical ones in one transaction).
      await runtime.database.sql!`select pg_notify('telemetry', i::text || repeat('x', 7000)) from generate_series(1, 2000) i`;
      let after = before;
      for (let i = 0; i < 100 && after === before; i++) {
        await new Promise((r) => setTimeout(r, 50));
        after = (await status()).dropped_clients as number;
      }
      expect(after).toBe(before + 1);
      const ended = new Promise<void>((resolve) => res.on("end", resolve).on("close", resolve));
      res.resume();
      await ended;
      expect(received.split("event: telemetry").length - 1).toBeLessThan(2000);
    });
  });

  describe("status and document", () => {
    it("reports clients, channels and the ring", async () => {
      const s = await sse(apiToken, "?channels=agents,topology");
      await s.next(isEvent("ready"));
      const body = await status();
      expect(body).toMatchObject({
        accepting: true,
        connected_clients: 1,
        heartbeat_interval_s: 0.15,
        client_queue_bytes: 64 * 1024,
        max_connections_per_user: MAX_PER_USER,
      });
      expect(body.channels).toContainEqual({ channel: "agents", scope: "read:agents", listening: true, clients: 1 });
      expect(body.channels).toContainEqual({ channel: "monitors", scope: "read:monitors", listening: true, clients: 0 });
      expect(body.buffer).toMatchObject({ capacity: RING, size: RING });
      expect(seqOf(body.buffer.newest_id) - seqOf(body.buffer.oldest_id)).toBe(RING - 1);
      expect(body.events_total).toBe(seqOf(body.buffer.newest_id));
    });

    it("are in the OpenAPI document under events, the stream as text/event-stream", async () => {
      const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as {
        paths: Record<string, { get?: { tags: string[]; responses: Record<string, { content?: Record<string, unknown> }> } }>;
      };
      const stream = doc.paths["/api/v1/events/stream"]?.get;
      expect(stream?.tags).toEqual(["events"]);
      expect(Object.keys(stream?.responses["200"]?.content ?? {})).toEqual(["text/event-stream"]);
      expect(doc.paths["/api/v1/events/status"]?.get?.tags).toEqual(["events"]);
    });

    it("answer 503 in the envelope where no sidecar feeds them (edge, split functions)", async () => {
      const functionsOnly = createApp(runtime.deps);
      expect((await functionsOnly.request("/api/v1/events/stream")).status).toBe(401);
      // Bad input is still a 422 there.
      expect(
        (await functionsOnly.request("/api/v1/events/stream?channels=bogus", { headers: { authorization: `Bearer ${apiToken}` } })).status,
      ).toBe(422);
      for (const path of ["/api/v1/events/stream", "/api/v1/events/status"]) {
        const res = await functionsOnly.request(path, { headers: { authorization: `Bearer ${apiToken}` } });
        expect(res.status).toBe(503);
        const body = (await res.json()) as { error_code: string; detail: string };
        expect(body.error_code).toBe("SERVICE_NOT_READY");
        expect(body.detail).toContain("sidecar");
      }
    });
  });

  describe("drain", () => {
    it("ends every stream with event: close going_away and refuses new ones 503", async () => {
      const s = await sse(apiToken);
      await s.next(isEvent("ready"));
      await streams.stop();
      expect(JSON.parse((await s.next(isEvent("close"))).data!)).toEqual({ reason: "going_away" });
      await s.ended;
      const res = await api("GET", "/api/v1/events/stream", apiToken);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error_code: string }).error_code).toBe("SERVER_DRAINING");
    });
  });
});
