// HTTPS end to end (issue 15 item 5): `npm start` with SVC_TLS=on on 127.0.0.71 generates and activates a
// self-signed certificate (no certificate was active), serves HTTPS with it; activating another
// certificate through the API is presented to the next connection without a restart; an activation
// another process made (announced on the `certificates` channel) is picked up the same way.
import { type PeerCertificate, connect } from "node:tls";
import { request } from "node:https";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { freePort, jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, until } from "./helpers.ts";

const HOST = "127.0.0.71";
let database: TestDatabase;
let sql: postgres.Sql;
let p: Product;
let httpsPort: number;
let token: string;

/** The leaf a fresh TLS connection is shown (hex SHA-256 of its DER, lower case). */
function servedFingerprint(): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: HOST, port: httpsPort, rejectUnauthorized: false, timeout: 5000 }, () => {
      const cert: PeerCertificate = socket.getPeerCertificate();
      socket.end();
      resolve(cert.fingerprint256.replace(/:/g, "").toLowerCase());
    });
    socket.once("error", reject);
    socket.once("timeout", () => socket.destroy(new Error("TLS connect timed out")));
  });
}

/** GET over HTTPS trusting only `ca` (the self-signed certificate itself), so the name check is real. */
function httpsGet(path: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: HOST, port: httpsPort, path, ca, timeout: 5000 }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once("error", reject);
    req.once("timeout", () => req.destroy(new Error("HTTPS request timed out")));
    req.end();
  });
}

const api = (path: string, init: RequestInit = {}) =>
  p.fetch(`/api/v1/${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...(init.headers ?? {}) },
  });

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  httpsPort = await freePort();
  p = await startProduct({
    DATABASE_URL: database.url,
    HOST,
    SVC_TLS: "on",
    SVC_HTTPS_PORT: String(httpsPort),
    SVC_TLS_DOMAIN: HOST,
    LOG_LEVEL: "info",
  });
  const init = await p.fetch(
    "/api/v1/bootstrap/initialize",
    jsonBody({ email: "admin@example.com", password: "admin password for https", setup_token: SETUP_TOKEN }),
  );
  expect(init.status).toBe(200);
  token = (await init.json()).token;
}, 90_000);

afterAll(async () => {
  await killAll();
  await sql?.end({ timeout: 1 });
  await database?.drop();
});

describe("HTTPS with the active certificate", () => {
  let first: { id: number; fingerprint_sha256: string; cert_pem: string };

  it("generated and activated a self-signed certificate at start, and serves it", async () => {
    expect(p.output()).toMatch(/generated and activated a self-signed one/);
    const list = await (await api("certificates")).json();
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ type: "selfsigned", domain: HOST, is_active: true });
    first = await (await api(`certificates/${list.items[0].id}`)).json();
    expect(await servedFingerprint()).toBe(first.fingerprint_sha256);
    // The API over HTTPS, verified against that certificate (its SAN iPAddress names 127.0.0.71).
    const ready = await httpsGet("/api/v1/readyz", first.cert_pem);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({ ready: true });
  });

  it("activating another certificate through the API is presented to the next connection, without a restart", async () => {
    const created = await api("certificates", { method: "POST", body: JSON.stringify({ domain: HOST, auto_renew: false }) });
    expect(created.status).toBe(201);
    const second = await created.json();
    expect(second.fingerprint_sha256).not.toBe(first.fingerprint_sha256);
    const res = await api(`certificates/${second.id}/activate`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ written: true, reloaded: true, certificate: { id: second.id, is_active: true } });
    expect(await servedFingerprint()).toBe(second.fingerprint_sha256);
    const detail = await (await api(`certificates/${second.id}`)).json();
    expect((await httpsGet("/api/v1/livez", detail.cert_pem)).status).toBe(200);
  });

  it("renewing the active certificate is presented at once too", async () => {
    const [active] = await sql<{ id: number }[]>`select id from certificates where is_active`;
    const renewed = await (await api(`certificates/${active!.id}/renew`, { method: "POST" })).json();
    expect(await servedFingerprint()).toBe(renewed.fingerprint_sha256);
  });

  it("an activation committed elsewhere (announced on the certificates channel) is picked up from the database", async () => {
    // What another process's activate commits: the row switched and the NOTIFY, in one transaction.
    await sql.begin(async (tx) => {
      await tx`update certificates set is_active = false where is_active`;
      await tx`update certificates set is_active = true where id = ${first.id}`;
      await tx`select pg_notify('certificates', ${JSON.stringify({ type: "active", id: first.id })})`;
    });
    await until(
      "the first certificate to be served again",
      async () => ((await servedFingerprint()) === first.fingerprint_sha256 ? true : undefined),
      15_000,
      () => p.output(),
    );
  });

  it("still serves plain HTTP on PORT", async () => {
    expect((await p.fetch("/api/v1/livez")).status).toBe(200);
  });

  it("drains both listeners on SIGTERM and exits 0", async () => {
    expect(await p.stop("SIGTERM")).toBe(0);
    await expect(servedFingerprint()).rejects.toThrow();
  });
});
