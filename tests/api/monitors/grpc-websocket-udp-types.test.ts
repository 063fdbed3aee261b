// The grpc, websocket and udp check types through the API (issue 29 item 2): a monitor of each is created
// with its own keys; a key another type has and a bad value are refused with 422 naming the field; a
// websocket url the monitor policy refuses is a 422 on config.url; its token and credential headers are
// sealed and answered masked, as http's are.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const count = async () => (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n;

describe("grpc, websocket and udp monitors", () => {
  it("creates a monitor of each type with its keys, stored as sent", async () => {
    const bodies = [
      { name: "orders grpc", check_type: "grpc", host: "10.0.0.8", config: { port: 50051, service: "app.Orders", timeout: 3 } },
      {
        name: "orders grpc tls",
        check_type: "grpc",
        host: "10.0.0.8",
        config: { port: 443, tls: true, server_name: "grpc.example.test", verify_hostname: false, expiry_days: 7 },
      },
      {
        name: "feed",
        check_type: "websocket",
        host: "10.0.0.9",
        config: {
          url: "wss://10.0.0.9/feed",
          send: '{"op":"ping"}',
          expected_reply: "pong",
          verify_tls: false,
          headers: { "X-Probe": "1" },
        },
      },
      { name: "dns over udp", check_type: "udp", host: "10.0.0.10", config: { port: 53, payload_hex: "00 01", expected_reply: "ok" } },
      { name: "game", check_type: "udp", host: "10.0.0.10", config: { port: 27015, payload: "status" } },
    ];
    for (const body of bodies) {
      const res = await a.req("POST", "monitors", a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(201);
      const m = await res.json();
      expect(m).toMatchObject({ check_type: body.check_type, host: body.host, config: body.config, status: "pending" });
    }
  });

  it("refuses a key the type does not have and bad values with 422 naming each, writing nothing", async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ check_type: "grpc", config: { url: "ws://x/" } }, ["config.url"]],
      [{ check_type: "grpc", config: { service: "a b", tls: "yes", port: 0 } }, ["config.port", "config.service", "config.tls"]],
      [{ check_type: "websocket", config: { url: "http://x/", payload: "x" } }, ["config.payload", "config.url"]],
      [{ check_type: "websocket", config: { auth_type: "digest", timeout: 61 } }, ["config.auth_type", "config.timeout"]],
      [{ check_type: "udp", config: { payload_hex: "0g", port: 70000 } }, ["config.payload_hex", "config.port"]],
      [{ check_type: "udp", config: { send: "x" } }, ["config.send"]],
    ];
    for (const [body, fields] of cases) {
      const res = await a.req("POST", "monitors", a.admin, { name: "bad", host: "h", ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await res.json()).fields).sort(), JSON.stringify(body)).toEqual(fields);
    }
    expect(await count()).toBe(before);
  });

  it("refuses a websocket url the monitor policy refuses, naming config.url", async () => {
    const before = await count();
    for (const url of ["ws://169.254.169.254/x", "wss://[::ffff:a9fe:a9fe]/x", "ws://metadata.google.internal/"]) {
      const res = await a.req("POST", "monitors", a.admin, {
        name: "meta",
        check_type: "websocket",
        host: "example.test",
        config: { url },
      });
      expect(res.status, url).toBe(422);
      expect(Object.keys((await res.json()).fields), url).toEqual(["config.url"]);
    }
    expect(await count()).toBe(before);
  });

  it("seals a websocket's token and credential headers, answering them masked", async () => {
    const res = await a.req("POST", "monitors", a.admin, {
      name: "feed",
      check_type: "websocket",
      host: "10.0.0.9",
      config: { url: "ws://10.0.0.9/feed", auth_type: "bearer", token: "t0ken-123", headers: { Cookie: "session=abc", "X-Trace": "1" } },
    });
    expect(res.status).toBe(201);
    const text = await res.clone().text();
    expect(text).not.toContain("t0ken-123");
    expect(text).not.toContain("session=abc");
    const m = await res.json();
    expect(m.config).toMatchObject({ token: "********", token_set: true, headers: { Cookie: "********", "X-Trace": "1" } });
    const [row] = await a.t.sql`select config::text as config from monitors where id = ${m.id}`;
    expect(row!.config).not.toContain("t0ken-123");
    expect(row!.config).not.toContain("session=abc");
  });
});
