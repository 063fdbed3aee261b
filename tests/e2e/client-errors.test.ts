// Node's own refusals (spec 7.1) against the real server (serveWithLifespan on a loopback port, real
// PostgreSQL) over raw sockets: headers over 16 KB, a request never finished within HEADERS_TIMEOUT_S,
// and bytes that are not HTTP are answered in the JSON envelope with Connection: close, not an empty body.
import { TEST_VAULT_KEY } from "../helpers/env.ts";
import type { Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../functions/app.ts";
import { parseConfig } from "../../shared/config.ts";
import { type NodeRuntime, openRuntime } from "../../runtime/node-deps.ts";
import { serveWithLifespan } from "../../runtime/serve.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

let tdb: TestDatabase;
let runtime: NodeRuntime;
let server: Server;
let port = 0;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const config = parseConfig(
    {
      DATABASE_URL: tdb.url,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "error",
      DB_POOL_MAX: "2",
      HEADERS_TIMEOUT_S: "1",
      SVC_VAULT_KEY: TEST_VAULT_KEY,
    },
    "0.0.0-test",
  );
  runtime = await openRuntime(config);
  server = await serveWithLifespan(runtime, createApp(runtime.deps).fetch);
  const address = server.address();
  port = typeof address === "object" && address ? address.port : 0;
  runtime.deps.lifecycle.markReady();
});

afterAll(async () => {
  server?.close();
  server?.closeAllConnections();
  await runtime?.close();
  await tdb?.drop();
});

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `bytes` on a new socket (left open) and reads until the server closes it (at most 15 s). */
function exchange(bytes: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not close the socket within 15 s; got ${JSON.stringify(text)}`));
    }, 15_000);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`${e.message}; got ${JSON.stringify(text)}`));
    });
    socket.on("close", () => {
      clearTimeout(timer);
      const [head = "", body = ""] = text.split("\r\n\r\n", 2);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
    socket.write(bytes);
  });
}

function expectEnvelope(raw: Raw, status: number, code: string) {
  expect(raw.status, JSON.stringify(raw)).toBe(status);
  expect(raw.headers["content-type"]).toBe("application/json");
  expect(raw.headers.connection).toBe("close");
  expect(Number(raw.headers["content-length"])).toBe(Buffer.byteLength(raw.body));
  const body = JSON.parse(raw.body) as Record<string, unknown>;
  expect(body).toMatchObject({ error_code: code });
  expect(typeof body.detail).toBe("string");
}

describe("Node's own refusals", () => {
  it("answers headers over 16 KB with 431 REQUEST_HEADER_FIELDS_TOO_LARGE", async () => {
    const raw = await exchange(`GET /api/v1/livez HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${"a".repeat(20 * 1024)}\r\n\r\n`);
    expectEnvelope(raw, 431, "REQUEST_HEADER_FIELDS_TOO_LARGE");
  });

  it("answers a request left unfinished past HEADERS_TIMEOUT_S with 408 REQUEST_TIMEOUT", async () => {
    // No blank line: the headers never end, so Node's headers timeout (1 s here) answers.
    const raw = await exchange("GET /api/v1/livez HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    expectEnvelope(raw, 408, "REQUEST_TIMEOUT");
  });

  it("answers bytes that are not HTTP with 400 BAD_REQUEST", async () => {
    expectEnvelope(await exchange("HELLO THERE\r\n\r\n"), 400, "BAD_REQUEST");
  });

  it("still answers a well-formed request on a raw socket", async () => {
    const raw = await exchange("GET /api/v1/livez HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    expect(raw.status).toBe(200);
  });
});

describe("configuration", () => {
  it("refuses a HEADERS_TIMEOUT_S outside 1-300", () => {
    expect(() => parseConfig({ HEADERS_TIMEOUT_S: "0" })).toThrow(/HEADERS_TIMEOUT_S expects a whole number from 1 to 300/);
    expect(() => parseConfig({ HEADERS_TIMEOUT_S: "301" })).toThrow(/HEADERS_TIMEOUT_S/);
  });
});
