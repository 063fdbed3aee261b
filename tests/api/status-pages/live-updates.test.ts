// The public page's server-side cache and live updates (docs/adr/0459): a cached page changes after a
// state change recorded through the real path (its NOTIFY), after a page edit; 304 on If-None-Match;
// the event stream over a real socket delivers `change`; the per-process cap answers 503; the edge
// (no streams) serves the page without its script; the drain ends every stream.
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PageEventHub } from "../../../shared/status-pages/page-events.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { recordResult } from "../../helpers/record-result.ts";
import { changeStatusPages } from "../../helpers/app.ts";

let a: Actors;
let server: ServerType;
let base: string;
let monitorId: number;
let pageId: number;

beforeAll(async () => {
  a = await createActors();
  const m = await a.req("POST", "monitors", a.admin, {
    name: "db tcp",
    check_type: "tcp",
    host: "127.0.0.1",
    config: { port: 9 },
    max_retries: 0,
  });
  monitorId = (await m.json()).id;
  await a.t.sql`update monitors set status = 'up' where id = ${monitorId}`;
  const page = await a.req("POST", "status-pages", a.admin, {
    slug: "live",
    title: "Live page",
    published: true,
    sections: [{ name: "Core", items: [{ kind: "monitor", monitor_id: monitorId, public_name: "Database" }] }],
  });
  expect(page.status).toBe(201);
  pageId = (await page.json()).id;
  server = serve({ fetch: a.t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  (server as import("node:http").Server | undefined)?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await a?.t.close();
});

const record = (up: boolean) => recordResult(a.t, monitorId, up);

const get = (path: string, headers: Record<string, string> = {}) => a.t.app.request(path, { headers });

/** An event stream read over a real socket: `until(name)` waits (bounded) for that event. */
async function openStream(path = "/status/live/events") {
  const ctl = new AbortController();
  const res = await fetch(`${base}${path}`, { signal: ctl.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  return {
    res,
    async until(event: string, timeoutMs = 10_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = text.indexOf(`event: ${event}\n`);
        if (at >= 0) {
          const seen = text.slice(0, at + event.length + 8);
          text = text.slice(at + event.length + 8);
          return seen;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no "${event}" event within ${timeoutMs} ms; read: ${text}`);
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
        if (chunk === null) continue;
        if (chunk.done) throw new Error(`the stream ended before "${event}"; read: ${text}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
    },
    close: () => ctl.abort(),
  };
}

describe("status page cache", () => {
  it("keeps the page until a state change recorded through the real path announces it", async () => {
    const first = await get("/status/live");
    expect(await first.text()).toContain("All systems operational");
    const again = await get("/status/live");
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(again.headers.get("cache-control")).toBe("public, max-age=1");
    await changeStatusPages(a.t, () => record(false));
    const changed = await get("/status/live");
    expect(changed.headers.get("etag")).not.toBe(first.headers.get("etag"));
    expect(await changed.text()).toContain("Major outage");
    const json = await (await get("/api/v1/status-pages/live/summary")).json();
    expect(json.state).toBe("outage");
  });

  it("answers 304 on If-None-Match, and 200 with new bytes after a page edit", async () => {
    const first = await get("/api/v1/status-pages/live/summary");
    const etag = first.headers.get("etag")!;
    const not = await get("/api/v1/status-pages/live/summary", { "if-none-match": etag });
    expect(not.status).toBe(304);
    expect(not.headers.get("etag")).toBe(etag);
    // Gzipped for a client that takes it (compressed once, at build), with an ETag of its own.
    const gz = await get("/api/v1/status-pages/live/summary", { "accept-encoding": "gzip, br" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toBe("Accept-Encoding");
    const gzEtag = gz.headers.get("etag")!;
    expect(gzEtag).not.toBe(etag);
    expect((await get("/api/v1/status-pages/live/summary", { "accept-encoding": "gzip", "if-none-match": gzEtag })).status).toBe(304);
    const html = await get("/status/live");
    expect((await get("/status/live", { "if-none-match": `W/${html.headers.get("etag")}` })).status).toBe(304);
    await changeStatusPages(a.t, () => a.req("PATCH", `status-pages/${pageId}`, a.admin, { title: "Renamed page", published: true }));
    const after = await get("/api/v1/status-pages/live/summary", { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect((await after.json()).title).toBe("Renamed page");
    expect(await (await get("/status/live")).text()).toContain("<title>Renamed page</title>");
  });
});

describe("live updates", () => {
  it("serves the script it allows and streams a change of the page", async () => {
    const script = await fetch(`${base}/status/assets/live.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain("new EventSource");

    const stream = await openStream();
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await stream.until("ready");
    await record(true);
    await stream.until("change");
    // An incident of this page (another helper's verbs) announces {page_id} on status_pages.
    await a.t.sql`select pg_notify('status_pages', ${JSON.stringify({ page_id: pageId })})`;
    await stream.until("change");
    stream.close();
  });

  it("answers 404 for an unknown slug and a draft, as the page does", async () => {
    const res = await fetch(`${base}/status/nope/events`);
    expect(res.status).toBe(404);
    expect((await res.json()).error_code).toBe("RESOURCE_NOT_FOUND");
  });

  it("refuses a stream beyond the per-process cap with 503 and Retry-After", async () => {
    const deps = a.t.runtime.deps;
    const hub = deps.statusPageEvents;
    deps.statusPageEvents = new PageEventHub(deps.statusPageCache!, { maxConnections: 1 });
    try {
      const one = await openStream();
      await one.until("ready");
      const two = await fetch(`${base}/status/live/events`);
      expect(two.status).toBe(503);
      expect(two.headers.get("retry-after")).toBe("60");
      expect((await two.json()).error_code).toBe("SERVICE_NOT_READY");
      one.close();
      // The slot comes back once the server sees the client gone (bounded wait).
      for (let i = 0; i < 200 && deps.statusPageEvents.connections > 0; i++) await new Promise((r) => setTimeout(r, 20));
      const three = await openStream();
      expect(three.res.status).toBe(200);
      three.close();
    } finally {
      deps.statusPageEvents = hub;
    }
  });

  it("on the edge (no streams): the page has no script and the stream route says so", async () => {
    const deps = a.t.runtime.deps;
    const hub = deps.statusPageEvents;
    delete deps.statusPageEvents;
    deps.statusPageCache!.flush();
    try {
      const res = await get("/status/live");
      expect(await res.text()).not.toMatch(/<script/i);
      expect(res.headers.get("content-security-policy")).not.toContain("script-src");
      expect((await fetch(`${base}/status/live/events`)).status).toBe(404);
    } finally {
      deps.statusPageEvents = hub;
      deps.statusPageCache!.flush();
    }
  });

  it("ends every stream when the process starts draining, and refuses new ones", async () => {
    const stream = await openStream();
    await stream.until("ready");
    a.t.runtime.deps.lifecycle.beginStopping();
    expect(await stream.until("close")).toContain("event: close");
    const refused = await fetch(`${base}/status/live/events`);
    expect(refused.status).toBe(503);
    expect((await refused.json()).error_code).toBe("SERVER_DRAINING");
  });
});
