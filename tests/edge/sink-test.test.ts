// "Send a test" on the edge shape (docs/adr/0449-sink-test-answers.md): the route runs in workerd, which
// has no notification worker and cannot LISTEN; the sidecar's worker runs in another (Node) runtime on
// the same PostgreSQL. The route queues the test, the NOTIFY wakes the worker, and the route's poll sees
// its attempt: a loopback receiver answering 500 comes back as ok false with that status.
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type NotificationsWorker, notificationsWorker } from "../../sidecar/notifications/notifications-worker.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { type Peer, startPeer } from "../helpers/http-peer.ts";
import { buildBundle, type EdgeBundle, startWorker } from "./harness.ts";

const BASE = "http://edge.test";
let bundle: EdgeBundle;
let sidecar: TestApp;
let worker: NotificationsWorker;
let mf: Miniflare;
let peer: Peer;

beforeAll(async () => {
  const results = await Promise.allSettled([buildBundle().then((b) => (bundle = b)), createTestApp().then((t) => (sidecar = t))]);
  for (const r of results) if (r.status === "rejected") throw r.reason;
  worker = notificationsWorker(sidecar.runtime, { groupingDelayMs: 0, tickMs: 200, backoff: { baseMs: 20, capMs: 100 } });
  await worker.start();
  peer = await startPeer(() => ({ status: 500, body: "no" }));
  mf = startWorker(bundle, { bindings: { DATABASE_URL: sidecar.database.url, LOG_LEVEL: "warn", SVC_SETUP_TOKEN: "edge-setup-token" } });
  await mf.ready;
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  await worker?.stop();
  await peer?.close();
  await sidecar?.close();
  await bundle?.remove();
});

it("answers the receiver's refusal, sent by the sidecar's worker in another runtime", async () => {
  const call = async (method: string, path: string, token?: string, body?: unknown) =>
    mf.dispatchFetch(`${BASE}/api/v1/${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const init = await call("POST", "bootstrap/initialize", undefined, {
    email: "admin@example.com",
    password: "admin password for tests",
    setup_token: "edge-setup-token",
  });
  expect(init.status).toBe(200);
  const { token } = (await init.json()) as { token: string };
  const created = await call("POST", "notifications/sinks", token, {
    name: "edge hook",
    provider_type: "webhook",
    provider_config: { url: `${peer.url}/hook` },
  });
  expect(created.status).toBe(201);
  const sink = (await created.json()) as { id: number };
  const res = await call("POST", `notifications/sinks/${sink.id}/test`, token);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({
    ok: false,
    error: "Endpoint returned HTTP 500",
    state: "dead",
    http_status: 500,
    attempt_outcome: "failed",
  });
  expect(peer.received).toHaveLength(1);
}, 60_000);
